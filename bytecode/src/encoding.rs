//! The format's primitives: section ids, op encoding masks, the versions
//! that changed the format, and the cursor and emitter that read and
//! write varints, strings and sections.
//!
//! A varint keeps its byte count in the low bits of its first byte: `1`
//! for one byte, `10` for two, ..., and an all-zero first byte for eight
//! more bytes holding the value. Signed varints are zigzag-encoded.

/// The four bytes every bytecode file starts with.
pub const MAGIC: &[u8; 4] = b"ML\xefR";

/// Versions the format went through (MLIR's `bytecode::BytecodeVersion`).
pub mod version {
    /// Dialects may record a version.
    pub const DIALECT_VERSIONING: u64 = 1;
    /// Isolated regions are sections of their own (lazily loadable).
    pub const LAZY_LOADING: u64 = 2;
    /// Use-list orders are recorded.
    pub const USE_LIST_ORDERING: u64 = 3;
    /// Unknown block argument locations are left out.
    pub const ELIDE_UNKNOWN_BLOCK_ARG_LOCATION: u64 = 4;
    /// Properties have a section of their own.
    pub const NATIVE_PROPERTIES: u64 = 5;
    /// Operand and result segment sizes are native properties.
    pub const NATIVE_SEGMENT_SIZES: u64 = 6;
    /// The version written by default, and the newest read.
    pub const CURRENT: u64 = 6;
}

/// Top-level section ids.
pub mod section {
    pub const STRING: u8 = 0;
    pub const DIALECT: u8 = 1;
    pub const ATTR_TYPE: u8 = 2;
    pub const ATTR_TYPE_OFFSET: u8 = 3;
    pub const IR: u8 = 4;
    pub const RESOURCE: u8 = 5;
    pub const RESOURCE_OFFSET: u8 = 6;
    pub const DIALECT_VERSIONS: u8 = 7;
    pub const PROPERTIES: u8 = 8;
    /// How many kinds of section there are.
    pub const COUNT: usize = 9;

    /// The section's name in messages, as MLIR spells it.
    pub fn name(id: u8) -> String {
        let word = match id {
            STRING => "String",
            DIALECT => "Dialect",
            ATTR_TYPE => "AttrType",
            ATTR_TYPE_OFFSET => "AttrTypeOffset",
            IR => "IR",
            RESOURCE => "Resource",
            RESOURCE_OFFSET => "ResourceOffset",
            DIALECT_VERSIONS => "DialectVersions",
            PROPERTIES => "Properties",
            _ => "Unknown",
        };
        format!("{word} ({id})")
    }
}

/// Which parts of an operation its encoding holds.
pub mod op_mask {
    pub const HAS_ATTRS: u8 = 0b0000_0001;
    pub const HAS_RESULTS: u8 = 0b0000_0010;
    pub const HAS_OPERANDS: u8 = 0b0000_0100;
    pub const HAS_SUCCESSORS: u8 = 0b0000_1000;
    pub const HAS_INLINE_REGIONS: u8 = 0b0001_0000;
    pub const HAS_USE_LIST_ORDERS: u8 = 0b0010_0000;
    pub const HAS_PROPERTIES: u8 = 0b0100_0000;
}

/// The byte that fills alignment padding.
pub const ALIGNMENT_BYTE: u8 = 0xCB;

/// What went wrong while decoding, and at which byte of the file (boxed,
/// so that results stay small on the paths that succeed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError(Box<(usize, String)>);

impl DecodeError {
    /// An error at byte `offset` of the file.
    #[cold]
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        DecodeError(Box::new((offset, message.into())))
    }

    /// The byte of the file where it was found.
    pub fn offset(&self) -> usize {
        self.0 .0
    }

    /// What was found.
    pub fn message(&self) -> &str {
        &self.0 .1
    }
}

/// A decoding result.
pub type DResult<T> = Result<T, DecodeError>;

/// Reads primitives from a slice of the file; offsets in errors are the
/// file's.
#[derive(Clone, Copy)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    /// Where `data` starts in the file.
    base: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data`, which starts at byte `base` of the file.
    pub fn new(data: &'a [u8], base: usize) -> Self {
        Cursor { data, pos: 0, base }
    }

    /// An error at the cursor's position.
    pub fn error(&self, message: impl Into<String>) -> DecodeError {
        DecodeError::new(self.offset(), message.into())
    }

    /// The file offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Whether everything was read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }

    /// How many bytes are left.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// One byte.
    #[inline]
    pub fn byte(&mut self) -> DResult<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.error("attempting to parse a byte at the end of the bytecode")),
        }
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: u64) -> DResult<&'a [u8]> {
        if n > self.remaining() as u64 {
            return Err(self.error(format!(
                "attempting to parse {n} bytes when only {} remain",
                self.remaining()
            )));
        }
        let start = self.pos;
        self.pos += n as usize;
        Ok(&self.data[start..self.pos])
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: u64) -> DResult<()> {
        self.bytes(n).map(|_| ())
    }

    /// A cursor over the next `n` bytes, which this one skips.
    pub fn sub(&mut self, n: u64) -> DResult<Cursor<'a>> {
        let base = self.offset();
        Ok(Cursor::new(self.bytes(n)?, base))
    }

    /// The rest of the bytes.
    pub fn rest(&mut self) -> &'a [u8] {
        let start = self.pos;
        self.pos = self.data.len();
        &self.data[start..]
    }

    /// A varint.
    #[inline]
    pub fn varint(&mut self) -> DResult<u64> {
        let first = self.byte()?;
        if first & 1 == 1 {
            return Ok(u64::from(first >> 1));
        }
        self.multi_byte_varint(first)
    }

    #[inline]
    fn multi_byte_varint(&mut self, first: u8) -> DResult<u64> {
        // Up to eight bytes at once when that many are left.
        if first != 0 && self.pos + 7 <= self.data.len() {
            let at = self.pos - 1;
            let mut le = [0u8; 8];
            le.copy_from_slice(&self.data[at..at + 8]);
            let word = u64::from_le_bytes(le);
            let len = first.trailing_zeros() + 1;
            self.pos = at + len as usize;
            let bits = 8 * len;
            let word = if bits == 64 {
                word
            } else {
                word & ((1 << bits) - 1)
            };
            return Ok(word >> len);
        }
        if first == 0 {
            let b = self.bytes(8)?;
            let mut le = [0u8; 8];
            le.copy_from_slice(b);
            return Ok(u64::from_le_bytes(le));
        }
        let extra = first.trailing_zeros() as u64;
        let rest = self.bytes(extra)?;
        let mut le = [0u8; 8];
        le[0] = first;
        le[1..=rest.len()].copy_from_slice(rest);
        Ok(u64::from_le_bytes(le) >> (extra + 1))
    }

    /// A zigzag-encoded signed varint.
    pub fn signed_varint(&mut self) -> DResult<i64> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// A varint whose low bit is a flag: `(value, flag)`.
    #[inline]
    pub fn varint_flag(&mut self) -> DResult<(u64, bool)> {
        let v = self.varint()?;
        Ok((v >> 1, v & 1 == 1))
    }

    /// A varint used as a count of items each at least `min_bytes` long:
    /// larger than what is left is an error (before anything is reserved).
    pub fn count(&mut self, min_bytes: usize, what: &str) -> DResult<usize> {
        let at = self.offset();
        let n = self.varint()?;
        if n.saturating_mul(min_bytes as u64) > self.remaining() as u64 {
            return Err(DecodeError::new(
                at,
                format!("{what} count {n} is larger than the data left"),
            ));
        }
        Ok(n as usize)
    }

    /// A string ending with a NUL byte (which is not returned).
    pub fn cstr(&mut self) -> DResult<&'a [u8]> {
        let rest = &self.data[self.pos..];
        match rest.iter().position(|&b| b == 0) {
            Some(n) => {
                self.pos += n + 1;
                Ok(&rest[..n])
            }
            None => Err(self.error("malformed null-terminated string, no null character found")),
        }
    }

    /// Skips padding up to a multiple of `alignment` (a power of two),
    /// counted from the start of the file.
    pub fn align_to(&mut self, alignment: u64) -> DResult<()> {
        if !alignment.is_power_of_two() {
            return Err(self.error("expected alignment to be a power-of-two"));
        }
        while !(self.offset() as u64).is_multiple_of(alignment) {
            let b = self.byte()?;
            if b != ALIGNMENT_BYTE {
                return Err(DecodeError::new(
                    self.offset() - 1,
                    format!("expected alignment byte (0xCB), but got: '0x{b:X}'"),
                ));
            }
        }
        Ok(())
    }

    /// A section: its id and a cursor over its data.
    pub fn section(&mut self) -> DResult<(u8, Cursor<'a>)> {
        let at = self.offset();
        let id_and_align = self.byte()?;
        let length = self.varint()?;
        let id = id_and_align & 0x7f;
        if id as usize >= section::COUNT {
            return Err(DecodeError::new(at, format!("invalid section ID: {id}")));
        }
        if id_and_align & 0x80 != 0 {
            let alignment = self.varint()?;
            self.align_to(alignment)?;
        }
        Ok((id, self.sub(length)?))
    }
}

/// Builds an encoding: a byte buffer and the alignment its start needs.
#[derive(Default)]
pub struct Emitter {
    pub buf: Vec<u8>,
    /// The largest alignment asked for inside (1 when none).
    alignment: u64,
}

/// The most bytes a section's code and length take.
const SECTION_HEADER_MAX: usize = 10;

impl Emitter {
    /// An empty emitter.
    pub fn new() -> Self {
        Emitter {
            buf: Vec::new(),
            alignment: 1,
        }
    }

    /// The bytes emitted so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was emitted.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// One byte.
    #[inline]
    pub fn byte(&mut self, b: u8) {
        self.buf.push(b);
    }

    /// Bytes as they are.
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }

    /// A string followed by a NUL byte.
    pub fn cstr(&mut self, s: &[u8]) {
        self.buf.extend_from_slice(s);
        self.buf.push(0);
    }

    /// A varint.
    #[inline]
    pub fn varint(&mut self, v: u64) {
        if v >> 7 == 0 {
            self.buf.push(((v << 1) | 1) as u8);
        } else {
            self.multi_byte_varint(v);
        }
    }

    #[inline(never)]
    fn multi_byte_varint(&mut self, v: u64) {
        let mut it = v >> 7;
        for n in 2..9u32 {
            it >>= 7;
            if it == 0 {
                let encoded = ((v << 1) | 1) << (n - 1);
                self.buf
                    .extend_from_slice(&encoded.to_le_bytes()[..n as usize]);
                return;
            }
        }
        self.buf.push(0);
        self.buf.extend_from_slice(&v.to_le_bytes());
    }

    /// A zigzag-encoded signed varint.
    pub fn signed_varint(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// `(value << 1) | flag` as a varint.
    #[inline]
    pub fn varint_flag(&mut self, v: u64, flag: bool) {
        self.varint((v << 1) | u64::from(flag));
    }

    /// Pads with [`ALIGNMENT_BYTE`] to a multiple of `alignment` (a power
    /// of two), counted from the start of this emitter.
    pub fn align_to(&mut self, alignment: u64) {
        if alignment < 2 {
            return;
        }
        while !(self.buf.len() as u64).is_multiple_of(alignment) {
            self.buf.push(ALIGNMENT_BYTE);
        }
        self.alignment = self.alignment.max(alignment);
    }

    /// Opens a section written in place, its body emitted next (with no
    /// alignment of its own); [`Emitter::end_section`] closes it. Saves
    /// building the body apart and copying it in.
    pub fn begin_section(&mut self) -> usize {
        let at = self.buf.len();
        self.buf.extend_from_slice(&[0; SECTION_HEADER_MAX]);
        at
    }

    /// Closes the section `id` opened at `at`: its header goes before its
    /// body, which moves down next to it.
    pub fn end_section(&mut self, id: u8, at: usize) {
        let body = at + SECTION_HEADER_MAX;
        let mut header = Emitter {
            buf: Vec::with_capacity(SECTION_HEADER_MAX),
            alignment: 1,
        };
        header.byte(id);
        header.varint((self.buf.len() - body) as u64);
        let h = header.buf.len();
        self.buf.copy_within(body.., at + h);
        self.buf[at..at + h].copy_from_slice(&header.buf);
        self.buf.truncate(self.buf.len() - (SECTION_HEADER_MAX - h));
    }

    /// Appends `inner` as a section `id`, aligning it as it needs.
    pub fn section(&mut self, id: u8, inner: Emitter) {
        let code_at = self.buf.len();
        self.byte(id);
        self.varint(inner.buf.len() as u64);
        if inner.alignment > 1 {
            if !(self.buf.len() as u64).is_multiple_of(inner.alignment) {
                self.varint(inner.alignment);
                self.align_to(inner.alignment);
                self.buf[code_at] |= 0x80;
            } else {
                self.alignment = self.alignment.max(inner.alignment);
            }
        }
        self.buf.extend_from_slice(&inner.buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_written_in_place_are_the_ones_copied_in() {
        for len in [0usize, 1, 63, 64, 127, 128, 300, 16_383, 16_384, 70_000] {
            let body: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let mut copied = Emitter::new();
            copied.byte(7);
            let mut inner = Emitter::new();
            inner.bytes(&body);
            copied.section(3, inner);
            copied.byte(9);
            let mut in_place = Emitter::new();
            in_place.byte(7);
            let at = in_place.begin_section();
            in_place.bytes(&body);
            in_place.end_section(3, at);
            in_place.byte(9);
            assert_eq!(copied.buf, in_place.buf, "a body of {len} bytes");
        }
    }

    #[test]
    fn varints_round_trip_at_every_length() {
        let values = [
            0u64,
            1,
            127,
            128,
            (1 << 14) - 1,
            1 << 14,
            (1 << 21) + 5,
            1 << 35,
            (1 << 49) - 1,
            1 << 56,
            u64::MAX,
        ];
        for &v in &values {
            let mut e = Emitter::new();
            e.varint(v);
            let mut c = Cursor::new(&e.buf, 0);
            assert_eq!(c.varint().unwrap(), v, "{v}");
            assert!(c.is_empty());
        }
        let mut e = Emitter::new();
        e.varint(128);
        assert_eq!(e.buf, [0x02, 0x02]);
    }

    #[test]
    fn signed_varints_are_zigzag() {
        for v in [0i64, -1, 1, -64, 63, i64::MIN, i64::MAX] {
            let mut e = Emitter::new();
            e.signed_varint(v);
            assert_eq!(Cursor::new(&e.buf, 0).signed_varint().unwrap(), v);
        }
        let mut e = Emitter::new();
        e.signed_varint(i64::MIN);
        assert_eq!(e.buf, [0, 255, 255, 255, 255, 255, 255, 255, 255]);
    }

    #[test]
    fn truncated_input_is_an_error_with_its_offset() {
        let mut c = Cursor::new(&[0x02], 10);
        let e = c.varint().unwrap_err();
        assert_eq!(e.offset(), 11);
    }

    #[test]
    fn aligned_sections_pad_with_0xcb() {
        let mut inner = Emitter::new();
        inner.align_to(8);
        inner.bytes(&[1, 2]);
        let mut outer = Emitter::new();
        outer.byte(7);
        outer.section(5, inner);
        assert_eq!(
            outer.buf,
            [7, 0x85, 0x05, 0x11, 0xCB, 0xCB, 0xCB, 0xCB, 1, 2]
        );
        let mut c = Cursor::new(&outer.buf, 0);
        c.byte().unwrap();
        let (id, mut s) = c.section().unwrap();
        assert_eq!((id, s.rest()), (5, &[1u8, 2][..]));
    }
}
