//! Binary floating-point formats (IEEE-754 interchange layouts): the
//! exponent and mantissa widths every generator is parameterised by.

/// A binary interchange format: 1 sign bit, `exp_bits` of biased
/// exponent, `man_bits` of stored fraction (the leading one is implicit
/// for normal numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Format {
    pub exp_bits: u32,
    pub man_bits: u32,
}

impl Format {
    /// IEEE-754 binary32.
    pub const F32: Format = Format {
        exp_bits: 8,
        man_bits: 23,
    };
    /// IEEE-754 binary64.
    pub const F64: Format = Format {
        exp_bits: 11,
        man_bits: 52,
    };

    /// Total width in bits.
    pub fn width(self) -> u32 {
        1 + self.exp_bits + self.man_bits
    }

    /// The exponent bias, `2^(exp_bits-1) - 1`.
    pub fn bias(self) -> i64 {
        (1i64 << (self.exp_bits - 1)) - 1
    }

    /// The largest exponent field value (infinities and NaNs).
    pub fn max_exp_field(self) -> u64 {
        (1u64 << self.exp_bits) - 1
    }

    /// The name used in module names: `f32`, `f64`, else `e<E>m<M>`.
    pub fn name(self) -> String {
        match self {
            Format::F32 => "f32".into(),
            Format::F64 => "f64".into(),
            _ => format!("e{}m{}", self.exp_bits, self.man_bits),
        }
    }

    /// The format of a builtin float type of this width (`f32`, `f64`).
    pub fn of_width(width: u32) -> Option<Format> {
        match width {
            32 => Some(Format::F32),
            64 => Some(Format::F64),
            _ => None,
        }
    }

    /// The width of the signed exponent arithmetic inside the operators:
    /// wide enough for products of exponents, normalisation shifts of
    /// double-width significands and conversions from `other_bits`-wide
    /// integers or exponents without wrapping.
    pub fn internal_exp_bits(self, other_bits: u32) -> u32 {
        self.exp_bits.max(other_bits) + 4
    }
}
