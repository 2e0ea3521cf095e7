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

/// `a` (bits of `from`) truncated toward zero to an `n`-bit integer
/// (`arith.fptosi` when `signed`, else `arith.fptoui`). LLVM makes NaN
/// and out-of-range inputs poison; here they give the x86-64 "integer
/// indefinite" value `2^(n-1)` (the minimum signed integer, what
/// `cvttss2si`/`cvttsd2si` return, so what `lli-22` computes for
/// `fptosi`), for `fptoui` as well.
pub fn build_float_to_int(
    b: &mut Builder<'_>,
    from: Format,
    n: u32,
    signed: bool,
    a: ValueId,
) -> ValueId {
    let m = from.man_bits;
    let ew = from.internal_exp_bits(32 - n.leading_zeros());
    let x = unpack(b, from, a, ew);
    // The integer part is (sig << k) >> m for the unbiased exponent k.
    let k = b.add_const(x.exp, -from.bias());
    let below_one = b.cmp_const(super::builder::Cmp::Slt, k, 0);
    let limit = if signed { n - 1 } else { n };
    let too_big = b.cmp_const(super::builder::Cmp::Sge, k, limit);
    let wide = n + m;
    let sig = b.resize(x.sig, wide);
    let amount = b.resize(k, wide);
    let shifted = b.shl(sig, amount);
    let magnitude = b.extract(shifted, m, n);
    let zero = b.zero(n);
    let magnitude = b.mux(below_one, zero, magnitude);
    let negative = b.sub(zero, magnitude);
    let value = b.mux(x.sign, negative, magnitude);
    let indefinite = b.constant(n, num_bigint::BigInt::from(1) << (n - 1));
    let invalid = if signed {
        // -2^(n-1) itself is in range.
        let min_exp = b.cmp_const(super::builder::Cmp::Eq, k, n - 1);
        let frac = b.extract(x.sig, 0, m);
        let exact = b.is_zero(frac);
        let minimum = b.and_all(&[x.sign, min_exp, exact]);
        let not_minimum = b.not(minimum);
        let over = b.and(too_big, not_minimum);
        b.or(over, x.is_nan)
    } else {
        let not_small = b.not(below_one);
        let negative_int = b.and(x.sign, not_small);
        b.or_all(&[too_big, negative_int, x.is_nan])
    };
    b.mux(invalid, indefinite, value)
}
