//! The builtin dialect's bytecode encodings (MLIR 22's
//! `BuiltinDialectBytecode`): a leading varint code says which attribute
//! or type follows, then its parts. Attributes and types without a code
//! here (affine maps and sets, strided layouts, the small float types)
//! are written as their text.

mod dense;
pub(crate) mod read;
pub(crate) mod write;

/// Attribute codes.
pub(crate) mod attr {
    pub const ARRAY: u64 = 0;
    pub const DICTIONARY: u64 = 1;
    pub const STRING: u64 = 2;
    pub const STRING_WITH_TYPE: u64 = 3;
    pub const FLAT_SYMBOL_REF: u64 = 4;
    pub const SYMBOL_REF: u64 = 5;
    pub const TYPE: u64 = 6;
    pub const UNIT: u64 = 7;
    pub const INTEGER: u64 = 8;
    pub const FLOAT: u64 = 9;
    pub const CALL_SITE_LOC: u64 = 10;
    pub const FILE_LINE_COL_LOC: u64 = 11;
    pub const FUSED_LOC: u64 = 12;
    pub const FUSED_LOC_WITH_METADATA: u64 = 13;
    pub const NAME_LOC: u64 = 14;
    pub const UNKNOWN_LOC: u64 = 15;
    pub const DENSE_RESOURCE_ELEMENTS: u64 = 16;
    pub const DENSE_ARRAY: u64 = 17;
    pub const DENSE_INT_OR_FP_ELEMENTS: u64 = 18;
    pub const DENSE_STRING_ELEMENTS: u64 = 19;
    pub const SPARSE_ELEMENTS: u64 = 20;
    pub const DISTINCT: u64 = 21;
    pub const FILE_LINE_COL_RANGE: u64 = 22;
}

/// Type codes.
pub(crate) mod ty {
    pub const INTEGER: u64 = 0;
    pub const INDEX: u64 = 1;
    pub const FUNCTION: u64 = 2;
    pub const BF16: u64 = 3;
    pub const F16: u64 = 4;
    pub const F32: u64 = 5;
    pub const F64: u64 = 6;
    pub const F80: u64 = 7;
    pub const F128: u64 = 8;
    pub const COMPLEX: u64 = 9;
    pub const MEMREF: u64 = 10;
    pub const MEMREF_WITH_MEMORY_SPACE: u64 = 11;
    pub const NONE: u64 = 12;
    pub const RANKED_TENSOR: u64 = 13;
    pub const RANKED_TENSOR_WITH_ENCODING: u64 = 14;
    pub const TUPLE: u64 = 15;
    pub const UNRANKED_MEMREF: u64 = 16;
    pub const UNRANKED_MEMREF_WITH_MEMORY_SPACE: u64 = 17;
    pub const UNRANKED_TENSOR: u64 = 18;
    pub const VECTOR: u64 = 19;
    pub const VECTOR_WITH_SCALABLE_DIMS: u64 = 20;
}

use num_bigint::{BigInt, Sign};
use silica_ir::Signedness;

/// The two's complement bits of `v` in `width` bits, as 64-bit words
/// (least significant first; at least one word).
pub(crate) fn int_words(v: &BigInt, width: u32) -> Vec<u64> {
    let n = (width as usize).div_ceil(64).max(1);
    let (sign, mut words) = v.to_u64_digits();
    words.resize(n, 0);
    if sign == Sign::Minus {
        // Two's complement of the magnitude.
        let mut carry = true;
        for w in &mut words {
            let (inv, c) = (!*w).overflowing_add(u64::from(carry));
            *w = inv;
            carry = c;
        }
    }
    truncate_words(&mut words, width);
    words
}

/// Clears the bits of `words` at and above `width`.
pub(crate) fn truncate_words(words: &mut [u64], width: u32) {
    let full = (width / 64) as usize;
    let rem = width % 64;
    for (i, w) in words.iter_mut().enumerate() {
        if i > full || (i == full && rem == 0) {
            *w = 0;
        } else if i == full {
            *w &= (1u64 << rem) - 1;
        }
    }
}

/// The integer that `width` bits stand for under `signedness`: unsigned
/// for unsigned types, two's complement otherwise.
pub(crate) fn int_from_words(words: &[u64], width: u32, signedness: Signedness) -> BigInt {
    let mut words = words.to_vec();
    words.resize((width as usize).div_ceil(64).max(1), 0);
    truncate_words(&mut words, width);
    let unsigned = BigInt::from_slice(
        Sign::Plus,
        &words
            .iter()
            .flat_map(|w| [*w as u32, (*w >> 32) as u32])
            .collect::<Vec<_>>(),
    );
    let negative = signedness != Signedness::Unsigned
        && width > 0
        && (words[((width - 1) / 64) as usize] >> ((width - 1) % 64)) & 1 == 1;
    if negative {
        unsigned - (BigInt::from(1) << width)
    } else {
        unsigned
    }
}

/// `width << 2 | signedness`, as the integer type code stores it.
pub(crate) fn signedness_code(s: Signedness) -> u64 {
    match s {
        Signedness::Signless => 0,
        Signedness::Signed => 1,
        Signedness::Unsigned => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_survive_their_bits() {
        for (v, w, s) in [
            (-1i64, 1u32, Signedness::Signless),
            (-1, 7, Signedness::Signless),
            (127, 7, Signedness::Unsigned),
            (-3, 128, Signedness::Signless),
            (5, 64, Signedness::Signed),
            (i64::MIN, 64, Signedness::Signless),
        ] {
            let big = BigInt::from(v);
            let words = int_words(&big, w);
            assert_eq!(int_from_words(&words, w, s), big, "{v} i{w}");
        }
        assert_eq!(int_words(&BigInt::from(-1), 7), [0x7f]);
        assert_eq!(int_words(&BigInt::from(-3), 128), [u64::MAX - 2, u64::MAX]);
    }
}
