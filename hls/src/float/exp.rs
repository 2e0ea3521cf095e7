//! The exponential (`math.exp`) on f32, and the fixed-point exponential
//! it shares with `math.powf`: faithfully rounded (within one ulp of the
//! exact value's neighbours, so within 1 ulp of a libm that is itself
//! within 1 ulp), not bit-exact; the co-simulation compares these
//! results with that tolerance.
//!
//! The argument `w` (a fixed-point magnitude with 40 fraction bits and
//! a sign, `|w| < 128`) is multiplied by `1/ln 2` (43 bits), giving
//! `y = w / ln 2` with 34 fraction bits; `y = k + j/64 + g` with `k`
//! its floor, `j` the next 6 bits and `g < 2^-6` the rest. Then
//! `e^w = 2^k × 2^(j/64) × 2^g`: `2^(j/64)` from a 64-entry table
//! (41 bits), `2^g` as its Taylor polynomial of degree 3 (truncation
//! below 2^-30), both in 40 fraction bits, multiplied into a 41-bit
//! significand in [1, 2) that [`round_pack`] rounds at exponent `k`
//! (overflow to infinity, gradual underflow). The relative error before
//! rounding stays below 2^-32.

use super::builder::{Builder, Cmp};
use super::constants::{exp2_coefficient, exp2_ratio, inv_ln2};
use super::fixed::{add_constant, constant, sext, shift_right, table, umul};
use super::format::Format;
use super::round::round_pack;
use super::unpack::{infinity, quiet_nan, unpack};
use num_bigint::BigInt;
use silica_ir::ValueId;

/// Fraction bits of the fixed-point argument of [`exp_fixed`].
pub const ARG_FRAC: u32 = 40;
/// Width of its magnitude: `|w| < 2^7`.
pub const ARG_WIDTH: u32 = ARG_FRAC + 7;

/// Fraction bits of `y = w / ln 2`, and of the polynomial.
const Y_FRAC: u32 = 34;
const P_FRAC: u32 = 40;
/// Table index bits.
const J_BITS: u32 = 6;

/// The exponent (signed, `ew` bits, biased for `fmt`) and normalised
/// significand (41 bits) of `e^w` for `w = (-1)^negative × magnitude ×
/// 2^-40`, for [`round_pack`].
pub fn exp_fixed(
    b: &mut Builder<'_>,
    fmt: Format,
    negative: ValueId,
    magnitude: ValueId,
    ew: u32,
) -> (ValueId, ValueId) {
    let magnitude = b.resize(magnitude, ARG_WIDTH);
    let c = constant(b, 43, &inv_ln2(42));
    let product = umul(b, magnitude, c);
    // |y| < 185: 8 integer bits, then a sign.
    let y_width = Y_FRAC + 9;
    let y_mag = b.extract(product, ARG_FRAC + 42 - Y_FRAC, y_width - 1);
    let y_mag = b.resize(y_mag, y_width);
    let zero = b.zero(y_width);
    let y_neg = b.sub(zero, y_mag);
    let y = b.mux(negative, y_neg, y_mag);
    let k = b.extract(y, Y_FRAC, 9);
    let j = b.extract(y, Y_FRAC - J_BITS, J_BITS);
    let g = b.extract(y, 0, Y_FRAC - J_BITS);
    // 2^g = 1 + g(c1 + g(c2 + g c3)), 40 fraction bits.
    let acc_width = P_FRAC + 1;
    let mut acc = constant(b, acc_width, &exp2_coefficient(3, P_FRAC));
    for n in [2, 1] {
        let t = umul(b, acc, g);
        let t = shift_right(b, t, Y_FRAC, acc_width, false);
        acc = add_constant(b, t, &exp2_coefficient(n, P_FRAC));
    }
    let t = umul(b, acc, g);
    let t = shift_right(b, t, Y_FRAC, acc_width, false);
    let p = add_constant(b, t, &(BigInt::from(1) << P_FRAC));
    let powers: Vec<BigInt> = (0..1i64 << J_BITS)
        .map(|i| exp2_ratio(i, 1 << J_BITS, P_FRAC))
        .collect();
    let power = table(b, j, &powers, acc_width);
    // In [2^80, 2^81): the top 41 bits are the significand.
    let m = umul(b, power, p);
    let sig = b.extract(m, 2 * P_FRAC - 40, 41);
    let k = sext(b, k, ew);
    let exp = b.add_const(k, fmt.bias());
    (exp, sig)
}

/// `e^x` for f32 `x` (raw bits in and out).
pub fn build_exp(b: &mut Builder<'_>, fmt: Format, x: ValueId) -> ValueId {
    let ew = 12;
    let u = unpack(b, fmt, x, ew);
    let e = b.add_const(u.exp, -fmt.bias());
    // |x| >= 128: overflow or underflow whatever the fraction.
    let big = b.cmp_const(Cmp::Sge, e, 7);
    // magnitude = sig × 2^(e - m + 40): sig << 40, shifted right by m - e.
    let m = fmt.man_bits;
    let wide = b.append_zeros(u.sig, ARG_FRAC);
    let ww = b.width(wide);
    let m_const = b.constant(ew, m);
    let amount = b.sub(m_const, e);
    let far = b.cmp_const(Cmp::Sgt, amount, ww);
    let amount = b.resize(amount, ww);
    let all = b.constant(ww, ww);
    let amount = b.mux(far, all, amount);
    let magnitude = b.shru(wide, amount);
    let magnitude = b.extract(magnitude, 0, ARG_WIDTH);
    let (exp, sig) = exp_fixed(b, fmt, u.sign, magnitude, ew);
    let plus = b.zero(1);
    let finite = round_pack(b, fmt, plus, exp, sig);
    let inf = infinity(b, fmt, plus);
    let zero = b.zero(fmt.width());
    let saturated = b.mux(u.sign, zero, inf);
    let out_of_range = b.or(big, u.is_inf);
    let result = b.mux(out_of_range, saturated, finite);
    let qnan = quiet_nan(b, fmt);
    b.mux(u.is_nan, qnan, result)
}
