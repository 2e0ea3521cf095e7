//! Splitting an IEEE value into its fields and classes: sign, exponent
//! field, fraction, the significand with its hidden bit, the effective
//! exponent (1 for subnormals, so that significand × 2^(exp − bias − m)
//! is the value for every finite input), and zero/infinity/NaN flags.

use super::builder::Builder;
use super::format::Format;
use silica_ir::ValueId;

/// The fields and classes of one operand.
pub struct Unpacked {
    pub sign: ValueId,
    /// The significand with its hidden bit (`man_bits + 1` wide).
    pub sig: ValueId,
    /// The effective biased exponent, `max(exp field, 1)`, as a signed
    /// value of the width given to [`unpack`].
    pub exp: ValueId,
    pub is_zero: ValueId,
    pub is_inf: ValueId,
    pub is_nan: ValueId,
}

/// Unpacks `x` (raw bits of `fmt`), the exponent widened to `exp_width`.
pub fn unpack(b: &mut Builder<'_>, fmt: Format, x: ValueId, exp_width: u32) -> Unpacked {
    let (e, m) = (fmt.exp_bits, fmt.man_bits);
    let sign = b.bit(x, e + m);
    let field = b.extract(x, m, e);
    let frac = b.extract(x, 0, m);
    let exp_zero = b.is_zero(field);
    let exp_max = b.all(field);
    let frac_zero = b.is_zero(frac);
    let frac_nonzero = b.not(frac_zero);
    let normal = b.not(exp_zero);
    let sig = b.concat(&[normal, frac]);
    let wide = b.resize(field, exp_width);
    let one = b.constant(exp_width, 1);
    let exp = b.mux(exp_zero, one, wide);
    let is_zero = b.and(exp_zero, frac_zero);
    let is_inf = b.and(exp_max, frac_zero);
    let is_nan = b.and(exp_max, frac_nonzero);
    Unpacked {
        sign,
        sig,
        exp,
        is_zero,
        is_inf,
        is_nan,
    }
}

/// The canonical quiet NaN of `fmt` (positive, top fraction bit set).
pub fn quiet_nan(b: &mut Builder<'_>, fmt: Format) -> ValueId {
    let bits = (fmt.max_exp_field() << fmt.man_bits) | (1u64 << (fmt.man_bits - 1));
    b.constant(fmt.width(), bits)
}

/// Infinity of `fmt` with the sign `sign`.
pub fn infinity(b: &mut Builder<'_>, fmt: Format, sign: ValueId) -> ValueId {
    let exp = b.ones(fmt.exp_bits);
    let frac = b.zero(fmt.man_bits);
    b.concat(&[sign, exp, frac])
}
