//! Conversions into a float format, rounded once to nearest even:
//! between formats (`arith.extf`, exact, and `arith.truncf`, with
//! overflow to infinity and underflow to subnormals) and from integers
//! (`arith.sitofp`, `arith.uitofp`): the magnitude is normalised and
//! rounded by [`round_pack`].

use super::builder::Builder;
use super::format::Format;
use super::normalize::normalize;
use super::round::round_pack;
use super::unpack::{infinity, quiet_nan, unpack};
use silica_ir::ValueId;

/// `a` (bits of `from`) converted to `to`.
pub fn build_float_convert(b: &mut Builder<'_>, from: Format, to: Format, a: ValueId) -> ValueId {
    let ew = to.internal_exp_bits(from.exp_bits);
    let x = unpack(b, from, a, ew);
    // The significand's top bit has weight 2^(exp - from.bias).
    let exp = b.add_const(x.exp, to.bias() - from.bias());
    let (sig, exp) = normalize(b, x.sig, exp);
    let finite = round_pack(b, to, x.sign, exp, sig);
    let inf = infinity(b, to, x.sign);
    let result = b.mux(x.is_inf, inf, finite);
    let qnan = quiet_nan(b, to);
    b.mux(x.is_nan, qnan, result)
}

/// The integer `a` (two's complement when `signed`) converted to `to`.
pub fn build_int_to_float(b: &mut Builder<'_>, to: Format, signed: bool, a: ValueId) -> ValueId {
    let n = b.width(a);
    let ew = to.internal_exp_bits(32 - n.leading_zeros());
    let (sign, magnitude) = if signed {
        let sign = b.bit(a, n - 1);
        let zero = b.zero(n);
        let negated = b.sub(zero, a);
        (sign, b.mux(sign, negated, a))
    } else {
        (b.zero(1), a)
    };
    // The top bit of an n-bit magnitude has weight 2^(n-1).
    let exp = b.constant(ew, to.bias() + i64::from(n) - 1);
    let (sig, exp) = normalize(b, magnitude, exp);
    round_pack(b, to, sign, exp, sig)
}
