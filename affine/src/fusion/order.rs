//! The iteration order of LLVM's `DenseMap<unsigned, T>`, which MLIR's
//! fusion pass walks its graph nodes in: keys hashed as `key * 37` into a
//! power-of-two table (at least 64 buckets, grown at three quarters full),
//! quadratic probing, erased keys leaving tombstones.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Slot {
    Empty,
    Tombstone,
    Key(usize),
}

/// The bucket layout of a `DenseMap` with `usize` keys.
#[derive(Clone, Debug, Default)]
pub struct DenseOrder {
    buckets: Vec<Slot>,
    entries: usize,
    tombstones: usize,
}

impl DenseOrder {
    fn hash(key: usize) -> usize {
        (key as u32).wrapping_mul(37) as usize
    }

    /// The bucket of `key`, or where it would go (the first tombstone on
    /// its probe sequence, else the empty bucket ending it).
    fn probe(&self, key: usize) -> (bool, usize) {
        let n = self.buckets.len();
        let mut b = Self::hash(key) & (n - 1);
        let mut step = 1;
        let mut tomb = None;
        loop {
            match self.buckets[b] {
                Slot::Key(k) if k == key => return (true, b),
                Slot::Empty => return (false, tomb.unwrap_or(b)),
                Slot::Tombstone if tomb.is_none() => tomb = Some(b),
                _ => {}
            }
            b = (b + step) & (n - 1);
            step += 1;
        }
    }

    fn grow(&mut self, at_least: usize) {
        let n = at_least.max(1).next_power_of_two().max(64);
        let old = std::mem::replace(&mut self.buckets, vec![Slot::Empty; n]);
        self.tombstones = 0;
        for s in old {
            if let Slot::Key(k) = s {
                let (_, b) = self.probe(k);
                self.buckets[b] = Slot::Key(k);
            }
        }
    }

    pub fn insert(&mut self, key: usize) {
        if self.buckets.is_empty() {
            self.grow(64);
        }
        if self.probe(key).0 {
            return;
        }
        let n = self.buckets.len();
        if (self.entries + 1) * 4 >= n * 3 {
            self.grow(n * 2);
        } else if n - (self.entries + 1 + self.tombstones) <= n / 8 {
            self.grow(n);
        }
        let (_, b) = self.probe(key);
        if self.buckets[b] == Slot::Tombstone {
            self.tombstones -= 1;
        }
        self.buckets[b] = Slot::Key(key);
        self.entries += 1;
    }

    pub fn erase(&mut self, key: usize) {
        if self.buckets.is_empty() {
            return;
        }
        let (found, b) = self.probe(key);
        if found {
            self.buckets[b] = Slot::Tombstone;
            self.entries -= 1;
            self.tombstones += 1;
        }
    }

    /// The keys in bucket order.
    pub fn keys(&self) -> Vec<usize> {
        self.buckets
            .iter()
            .filter_map(|s| match s {
                Slot::Key(k) => Some(*k),
                _ => None,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::DenseOrder;

    #[test]
    fn small_keys_follow_their_hash() {
        let mut d = DenseOrder::default();
        for k in 0..5 {
            d.insert(k);
        }
        // 0, 37, 10, 47, 20 (mod 64)
        assert_eq!(d.keys(), vec![0, 2, 4, 1, 3]);
        d.erase(2);
        assert_eq!(d.keys(), vec![0, 4, 1, 3]);
    }
}
