//! The power function (`math.powf`) on f32 and f64: `|x|^y =
//! e^(y·ln|x|)` through the fixed-point logarithm of [`super::log`]
//! (relatively exact near 1) and exponential of [`super::exp`],
//! faithfully rounded (the co-simulation's 1-ulp tolerance), with C's
//! (IEEE 754's `pow`) special cases: `pow(x, ±0) = pow(1, y) = 1` even
//! for quiet NaNs; NaN in, NaN out; `pow(-1, ±inf) = 1`; `y = ±inf` by
//! whether `|x| < 1`; zeros and infinities of `x` by the sign of `y`,
//! negative only for an odd integer `y`; a negative finite `x` with a
//! non-integer finite `y` is NaN; otherwise the sign is negative when
//! `x` is and `y` is an odd integer.

use super::builder::{Builder, Cmp};
use super::exp::{exp_fixed, ExpPrecision};
use super::fixed::umul;
use super::format::Format;
use super::log::{log_fixed, LogPrecision};
use super::round::round_pack;
use super::unpack::{quiet_nan, unpack};
use silica_ir::ValueId;

/// `x^y` for f32 or f64 `x`, `y` (raw bits in and out).
pub fn build_pow(b: &mut Builder<'_>, fmt: Format, x: ValueId, y: ValueId) -> ValueId {
    let ew = fmt.internal_exp_bits(0);
    let LogPrecision {
        log_frac,
        log_width,
        ..
    } = LogPrecision::of(fmt);
    let exp_precision = ExpPrecision::of(fmt);
    let (arg_frac, arg_width) = (exp_precision.arg_frac, exp_precision.arg_width());
    let m = fmt.man_bits;
    let w = fmt.width();
    let ux = unpack(b, fmt, x, ew);
    let uy = unpack(b, fmt, y, ew);
    // w = y · ln|x|, as a sign and a magnitude with arg_frac fraction bits.
    let s = log_fixed(b, fmt, ux.sig, ux.exp, ew);
    let s_negative = b.bit(s, log_width - 1);
    let zero = b.zero(log_width);
    let minus = b.sub(zero, s);
    let s_mag = b.mux(s_negative, minus, s);
    let s_mag = b.extract(s_mag, 0, log_width - 1);
    let s_nonzero = b.any(s_mag);
    let product = umul(b, uy.sig, s_mag);
    let pw = b.width(product);
    // |w| = product × 2^(ey − m − log_frac): shift right by
    // m + log_frac − arg_frac − ey.
    let ey = b.add_const(uy.exp, -fmt.bias());
    let top = i64::from(m + log_frac - arg_frac);
    let huge_y = b.cmp_const(Cmp::Sge, ey, top);
    let top_const = b.constant(ew, top);
    let amount = b.sub(top_const, ey);
    let far = b.cmp_const(Cmp::Sgt, amount, pw);
    let amount = b.resize(amount, pw);
    let all = b.constant(pw, pw);
    let amount = b.mux(far, all, amount);
    let shifted = b.shru(product, amount);
    let high = b.extract(shifted, arg_width, pw - arg_width);
    let too_big = b.any(high);
    let huge_w = b.and(huge_y, s_nonzero);
    let overflow = b.or(huge_w, too_big);
    let magnitude = b.extract(shifted, 0, arg_width);
    let w_negative = b.xor(s_negative, uy.sign);
    let (exp, sig) = exp_fixed(b, fmt, w_negative, magnitude, ew);
    let plus = b.zero(1);
    let finite = round_pack(b, fmt, plus, exp, sig);
    let inf_bits = fmt.max_exp_field() << m;
    let inf_mag = b.constant(w - 1, inf_bits);
    let zero_mag = b.zero(w - 1);
    let saturated = b.mux(w_negative, zero_mag, inf_mag);
    let finite = b.extract(finite, 0, w - 1);
    let magnitude = b.mux(overflow, saturated, finite);
    // Whether y is an integer, and an odd one.
    let (int_y, odd_y) = integer_and_odd(b, fmt, uy.sig, ey, uy.is_zero);
    let negative = b.and(ux.sign, odd_y);
    let general = b.concat(&[negative, magnitude]);
    let qnan = quiet_nan(b, fmt);
    // Negative finite x, non-integer finite y.
    let not_int = b.not(int_y);
    let bad = b.and(ux.sign, not_int);
    let mut r = b.mux(bad, qnan, general);
    // x = ±0 or ±inf: infinity when x is zero and y negative, or x is
    // infinite and y positive.
    let zero_or_inf = b.or(ux.is_zero, ux.is_inf);
    let flip = b.xor(ux.is_zero, uy.sign);
    let infinite = b.not(flip);
    let edge_mag = b.mux(infinite, inf_mag, zero_mag);
    let edge = b.concat(&[negative, edge_mag]);
    r = b.mux(zero_or_inf, edge, r);
    // y = ±inf: |x| = 1 gives 1; infinity when |x| < 1 and y = -inf or
    // |x| > 1 and y = +inf.
    let abs_x = b.extract(x, 0, w - 1);
    let one_bits = (fmt.bias() as u64) << m;
    let abs_one = b.cmp_const(Cmp::Eq, abs_x, one_bits);
    let below_one = b.cmp_const(Cmp::Ult, abs_x, one_bits);
    let big_result = b.xor(below_one, uy.sign);
    let big_result = b.not(big_result);
    let y_inf_mag = b.mux(big_result, inf_mag, zero_mag);
    let one = b.constant(w - 1, one_bits);
    let y_inf_mag = b.mux(abs_one, one, y_inf_mag);
    let y_inf = b.resize(y_inf_mag, w);
    r = b.mux(uy.is_inf, y_inf, r);
    let nan = b.or(ux.is_nan, uy.is_nan);
    r = b.mux(nan, qnan, r);
    // pow(x, ±0) = pow(+1, y) = 1, unless the other operand is a
    // signaling NaN (as glibc computes it).
    let x_one = b.cmp_const(Cmp::Eq, x, one_bits);
    let x_quiet = not_signaling(b, fmt, x, ux.is_nan);
    let y_quiet = not_signaling(b, fmt, y, uy.is_nan);
    let zero_y = b.and(uy.is_zero, x_quiet);
    let one_x = b.and(x_one, y_quiet);
    let unit = b.or(zero_y, one_x);
    let one = b.resize(one, w);
    b.mux(unit, one, r)
}

/// Whether the value `v` (`is_nan` its NaN flag) is no signaling NaN.
fn not_signaling(b: &mut Builder<'_>, fmt: Format, v: ValueId, is_nan: ValueId) -> ValueId {
    let quiet_bit = b.bit(v, fmt.man_bits - 1);
    let quiet = b.not(is_nan);
    b.or(quiet, quiet_bit)
}

/// Whether `y` (significand `sig`, unbiased exponent `ey`) is an integer
/// (zero included), and whether it is an odd one.
fn integer_and_odd(
    b: &mut Builder<'_>,
    fmt: Format,
    sig: ValueId,
    ey: ValueId,
    is_zero: ValueId,
) -> (ValueId, ValueId) {
    let m = fmt.man_bits;
    let sw = b.width(sig);
    let ew = b.width(ey);
    // 0 <= ey <= m: the low m − ey bits are the fraction.
    let in_range = b.cmp_const(Cmp::Sge, ey, 0);
    let m_const = b.constant(ew, m);
    let shift = b.sub(m_const, ey);
    let shift = b.resize(shift, sw);
    let ones = b.ones(sw);
    let kept = b.shl(ones, shift);
    let fraction_mask = b.not(kept);
    let fraction = b.and(sig, fraction_mask);
    let no_fraction = b.is_zero(fraction);
    let large = b.cmp_const(Cmp::Sgt, ey, m);
    let small = b.not(large);
    let within = b.and(in_range, small);
    let whole = b.and(within, no_fraction);
    let int_y = b.or_all(&[is_zero, large, whole]);
    let units = b.shru(sig, shift);
    let units_odd = b.bit(units, 0);
    let odd_y = b.and(whole, units_odd);
    (int_y, odd_y)
}
