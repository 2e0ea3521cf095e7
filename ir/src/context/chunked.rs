//! An append-only list stored in chunks of doubling size: growing it
//! never moves or copies what it holds (the parser appends a location
//! per op and per block argument; a doubling vector would copy them all,
//! with the old and new buffers alive at once).

/// Elements in the first chunk; chunk `k` holds `FIRST << k`.
const FIRST: usize = 1 << 10;

/// The chunk holding element `i` and the index in it.
fn place(i: usize) -> (usize, usize) {
    let n = i + FIRST;
    let k = (usize::BITS - 1 - n.leading_zeros()) as usize - FIRST.trailing_zeros() as usize;
    (k, n - (FIRST << k))
}

pub(super) struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

/// A copy whose chunks keep their capacities (which place the elements).
impl<T: Clone> Clone for Chunked<T> {
    fn clone(&self) -> Self {
        let chunks = self
            .chunks
            .iter()
            .map(|c| {
                let mut copy = Vec::with_capacity(c.capacity());
                copy.extend_from_slice(c);
                copy
            })
            .collect();
        Chunked {
            chunks,
            len: self.len,
        }
    }
}

impl<T> Chunked<T> {
    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn push(&mut self, value: T) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < last.capacity() => last.push(value),
            _ => {
                let mut chunk = Vec::with_capacity(FIRST << self.chunks.len());
                chunk.push(value);
                self.chunks.push(chunk);
            }
        }
        self.len += 1;
    }

    /// The element at `i` (which must be below `len`).
    pub(super) fn get(&self, i: usize) -> &T {
        let (k, at) = place(i);
        &self.chunks[k][at]
    }

    pub(super) fn last(&self) -> Option<&T> {
        self.chunks.last().and_then(|c| c.last())
    }

    /// The first index whose element is not `before` (the elements being
    /// partitioned: all that are `before` come first).
    pub(super) fn partition_point(&self, before: impl Fn(&T) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if before(self.get(mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_chunks() {
        let n = 7 * FIRST - 5;
        let mut c = Chunked::default();
        for i in 0..n {
            c.push(i * 2);
        }
        assert_eq!(c.len(), n);
        assert_eq!(c.chunks.len(), 3);
        for i in 0..n {
            assert_eq!(*c.get(i), i * 2);
        }
        assert_eq!(c.last(), Some(&((n - 1) * 2)));
        assert_eq!(c.partition_point(|&v| v < 2 * FIRST + 1), FIRST + 1);
        assert_eq!(c.partition_point(|_| true), c.len());
        let mut copy = c.clone();
        copy.push(1);
        copy.push(3);
        assert_eq!((*copy.get(n), *copy.get(n + 1)), (1, 3));
        assert_eq!(copy.len(), n + 2);
        assert_eq!(c.len(), n);
    }
}
