//! The natural logarithm (`math.log`) on f32, and the fixed-point
//! logarithm it shares with `math.powf`; faithfully rounded like
//! [`super::exp`] (the co-simulation's 1-ulp tolerance).
//!
//! A positive finite `x` is normalised to `z × 2^e` with `z` in
//! [0.75, 1.5). Its top 7 bits pick `r ≈ 1/z` from a table (9 fraction
//! bits, exactly 1 for the two entries around 1), so that
//! `u = z·r − 1` is exact and `|u| < 2^-7`; then
//! `ln x = e·ln 2 − ln r + ln(1 + u)` with `ln(1 + u) = u·Q(u)`,
//! `Q = 1 − u/2 + u²/3 − u³/4 + u⁴/5` (truncation below 2^-37 relative),
//! in 44 fraction bits. The sum is a two's-complement fixed-point value
//! with 64 fraction bits (76 bits in all): where `e = 0` and `r = 1`
//! (x near 1) it is `u·Q` alone, relatively exact however small;
//! elsewhere `|ln x| ≥ 2^-7`. `math.powf` multiplies it by `y` as it is.

use super::builder::Builder;
use super::constants::{ln2, ln_ratio, reciprocal};
use super::fixed::{add_constant, constant, sext, shift_right, smul, table, umul};
use super::format::Format;
use super::normalize::normalize;
use super::round::round_pack;
use super::unpack::{infinity, quiet_nan, unpack};
use num_bigint::BigInt;
use silica_ir::ValueId;

/// Fraction bits and width of [`log_fixed`]'s result.
pub const LOG_FRAC: u32 = 64;
pub const LOG_WIDTH: u32 = 76;

/// Fraction bits of `u` and of the polynomial.
const U_FRAC: u32 = 33;
const Q_FRAC: u32 = 44;
const Q_WIDTH: u32 = 47;

/// `ln x × 2^64` (two's complement, [`LOG_WIDTH`] bits) for a positive
/// finite non-zero `x` of `fmt` given as its significand with hidden bit
/// (`m + 1` bits; subnormal: top bit clear) and effective biased
/// exponent (signed, `ew` bits).
pub fn log_fixed(b: &mut Builder<'_>, fmt: Format, sig: ValueId, exp: ValueId, ew: u32) -> ValueId {
    let m = fmt.man_bits;
    let (sig, exp) = normalize(b, sig, exp);
    let e = b.add_const(exp, -fmt.bias());
    // z = sig / 2^m in [1, 2), halved (and e incremented) from 1.5 up:
    // z × 2^(m + 1) in m + 2 bits.
    let high = b.bit(sig, m - 1);
    let z_low = b.append_zeros(sig, 1);
    let z_high = b.resize(sig, m + 2);
    let z = b.mux(high, z_high, z_low);
    let e_up = b.add_const(e, 1);
    let e = b.mux(high, e_up, e);
    // Index: z × 128 in [96, 192).
    let top = b.extract(z, m + 2 - 8, 8);
    let index = b.add_const(top, -96);
    let index = b.extract(index, 0, 7);
    let entries: Vec<u64> = (96..192u64)
        .map(|i| {
            if i == 127 || i == 128 {
                512
            } else {
                // 2^17 / (2i + 1), rounded (half the divisor is i + 1/2).
                (131_072 + i) / (2 * i + 1)
            }
        })
        .collect();
    let rs: Vec<BigInt> = entries.iter().map(|&r| BigInt::from(r)).collect();
    let r = table(b, index, &rs, 10);
    // u = z·r − 1 with m + 1 + 9 = 33 fraction bits (f32), exact.
    let zr = umul(b, z, r);
    let frac = m + 1 + 9;
    let u = add_constant(b, zr, &-(BigInt::from(1) << frac));
    let u = shift_right_to(b, u, frac);
    // Q(u) by Horner's rule.
    let mut h = constant(b, Q_WIDTH, &reciprocal(5, Q_FRAC));
    for c in [
        -(BigInt::from(1) << (Q_FRAC - 2)),
        reciprocal(3, Q_FRAC),
        -(BigInt::from(1) << (Q_FRAC - 1)),
        BigInt::from(1) << Q_FRAC,
    ] {
        let t = smul(b, u, h);
        let t = shift_right(b, t, U_FRAC, Q_WIDTH, true);
        h = add_constant(b, t, &c);
    }
    let l1 = smul(b, u, h);
    let l1 = shift_right(b, l1, U_FRAC + Q_FRAC - LOG_FRAC, LOG_WIDTH, true);
    let minus_ln_r: Vec<BigInt> = entries
        .iter()
        .map(|&r| ln_ratio(512, r, LOG_FRAC))
        .collect();
    let minus_ln_r = table(b, index, &minus_ln_r, LOG_WIDTH);
    let e = sext(b, e, ew);
    let ln2 = constant(b, LOG_FRAC + 1, &ln2(LOG_FRAC));
    let e_ln2 = smul(b, e, ln2);
    let e_ln2 = sext(b, e_ln2, LOG_WIDTH);
    let sum = b.add(e_ln2, minus_ln_r);
    b.add(sum, l1)
}

/// `u` (the difference `z·r − 1` with `frac` fraction bits) as a signed
/// value of [`U_FRAC`] fraction bits, 35 bits wide (`|u| < 2^-7`).
fn shift_right_to(b: &mut Builder<'_>, u: ValueId, frac: u32) -> ValueId {
    debug_assert!(frac >= U_FRAC);
    shift_right(b, u, frac - U_FRAC, 35, true)
}

/// The f32 value of a fixed-point logarithm (two's complement, 64
/// fraction bits), rounded to nearest.
pub fn fixed_to_float(b: &mut Builder<'_>, fmt: Format, s: ValueId, ew: u32) -> ValueId {
    let w = b.width(s);
    let negative = b.bit(s, w - 1);
    let zero = b.zero(w);
    let minus = b.sub(zero, s);
    let magnitude = b.mux(negative, minus, s);
    let exp = b.constant(ew, fmt.bias() + i64::from(w - 1) - i64::from(LOG_FRAC));
    let (sig, exp) = normalize(b, magnitude, exp);
    round_pack(b, fmt, negative, exp, sig)
}

/// `ln x` for f32 `x` (raw bits in and out).
pub fn build_log(b: &mut Builder<'_>, fmt: Format, x: ValueId) -> ValueId {
    let ew = 12;
    let u = unpack(b, fmt, x, ew);
    let s = log_fixed(b, fmt, u.sig, u.exp, ew);
    let finite = fixed_to_float(b, fmt, s, ew);
    let plus = b.zero(1);
    let minus = b.ones(1);
    let inf = infinity(b, fmt, plus);
    let minus_inf = infinity(b, fmt, minus);
    let nonzero = b.not(u.is_zero);
    let negative = b.and(u.sign, nonzero);
    let result = b.mux(u.is_inf, inf, finite);
    let result = b.mux(u.is_zero, minus_inf, result);
    let nan = b.or(u.is_nan, negative);
    let qnan = quiet_nan(b, fmt);
    b.mux(nan, qnan, result)
}
