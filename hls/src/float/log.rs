//! The natural logarithm (`math.log`) on f32 and f64, and the
//! fixed-point logarithm it shares with `math.powf`; faithfully rounded
//! like [`super::exp`] (the co-simulation's 1-ulp tolerance).
//!
//! A positive finite `x` is normalised to `z × 2^e` with `z` in
//! [0.75, 1.5). Its top 7 bits pick `r ≈ 1/z` from a table (9 fraction
//! bits, exactly 1 for the two entries around 1), so that
//! `u = z·r − 1` is exact and `|u| < 2^-7`; then
//! `ln x = e·ln 2 − ln r + ln(1 + u)` with `ln(1 + u) = u·Q(u)`,
//! `Q = 1 − u/2 + u²/3 − … ± u^D/(D + 1)`, in `F` fraction bits. The sum
//! is a two's-complement fixed-point value with `L` fraction bits: where
//! `e = 0` and `r = 1` (x near 1) it is `u·Q` alone, relatively exact
//! however small; elsewhere `|ln x| ≥ 2^-7`. `math.powf` multiplies it
//! by `y` as it is. The parameters per format ([`LogPrecision`]):
//!
//! | format | D | F | L | width | truncation of `u·Q` |
//! |---|---|---|---|---|---|
//! | f32 | 4 | 44 | 64 | 76 | below 2^-37 relative |
//! | f64 | 9 | 78 | 124 | 136 | below 2^-80 absolute |
//!
//! f64's absolute error, about 2^-80 where `|ln x| ≥ 2^-7`, is what
//! `powf` needs: `y·ln x` below 2^10 (else the power overflows or
//! underflows) with `|y| < 2^17` keeps it below 2^-62; near 1 the
//! logarithm's relative error (about 2^-74) carries over to `y·ln x`.

use super::builder::Builder;
use super::constants::{ln2, ln_ratio, reciprocal};
use super::fixed::{add_constant, constant, sext, shift_right, smul, table, umul};
use super::format::Format;
use super::normalize::normalize;
use super::round::round_pack;
use super::unpack::{infinity, quiet_nan, unpack};
use num_bigint::BigInt;
use silica_ir::ValueId;

/// The fixed-point precisions of [`log_fixed`] for one format.
#[derive(Clone, Copy)]
pub struct LogPrecision {
    /// Degree `D` of `Q`.
    degree: u32,
    /// Fraction bits `F` of `Q`, and its width.
    q_frac: u32,
    q_width: u32,
    /// Width of `u` (which has `m + 10` fraction bits).
    u_width: u32,
    /// Fraction bits `L` of the result, and its width.
    pub log_frac: u32,
    pub log_width: u32,
}

impl LogPrecision {
    /// The precisions for `fmt` (f32, else f64's).
    pub fn of(fmt: Format) -> LogPrecision {
        if fmt.man_bits <= Format::F32.man_bits {
            LogPrecision {
                degree: 4,
                q_frac: 44,
                q_width: 47,
                u_width: 35,
                log_frac: 64,
                log_width: 76,
            }
        } else {
            LogPrecision {
                degree: 9,
                q_frac: 78,
                q_width: 81,
                u_width: 60,
                log_frac: 124,
                log_width: 136,
            }
        }
    }
}

/// `ln x × 2^L` (two's complement, [`LogPrecision::log_width`] bits)
/// for a positive finite non-zero `x` of `fmt` given as its significand
/// with hidden bit (`m + 1` bits; subnormal: top bit clear) and
/// effective biased exponent (signed, `ew` bits).
pub fn log_fixed(b: &mut Builder<'_>, fmt: Format, sig: ValueId, exp: ValueId, ew: u32) -> ValueId {
    let pr = LogPrecision::of(fmt);
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
    // u = z·r − 1 with m + 1 + 9 fraction bits, exact.
    let zr = umul(b, z, r);
    let u_frac = m + 1 + 9;
    let u = add_constant(b, zr, &-(BigInt::from(1) << u_frac));
    let u = sext(b, u, pr.u_width);
    // Q(u) by Horner's rule, from (-1)^D / (D + 1) down to 1.
    let coefficient = |n: u32| {
        let c = reciprocal(u64::from(n) + 1, pr.q_frac);
        if n % 2 == 1 {
            -c
        } else {
            c
        }
    };
    let mut h = constant(b, pr.q_width, &coefficient(pr.degree));
    for n in (0..pr.degree).rev() {
        let t = smul(b, u, h);
        let t = shift_right(b, t, u_frac, pr.q_width, true);
        h = add_constant(b, t, &coefficient(n));
    }
    let l1 = smul(b, u, h);
    let l1 = shift_right(b, l1, u_frac + pr.q_frac - pr.log_frac, pr.log_width, true);
    let minus_ln_r: Vec<BigInt> = entries
        .iter()
        .map(|&r| ln_ratio(512, r, pr.log_frac))
        .collect();
    let minus_ln_r = table(b, index, &minus_ln_r, pr.log_width);
    let e = sext(b, e, ew);
    let ln2 = constant(b, pr.log_frac + 1, &ln2(pr.log_frac));
    let e_ln2 = smul(b, e, ln2);
    let e_ln2 = sext(b, e_ln2, pr.log_width);
    let sum = b.add(e_ln2, minus_ln_r);
    b.add(sum, l1)
}

/// The float value of a fixed-point logarithm (two's complement,
/// [`LogPrecision::log_frac`] fraction bits), rounded to nearest.
pub fn fixed_to_float(b: &mut Builder<'_>, fmt: Format, s: ValueId, ew: u32) -> ValueId {
    let pr = LogPrecision::of(fmt);
    let w = b.width(s);
    let negative = b.bit(s, w - 1);
    let zero = b.zero(w);
    let minus = b.sub(zero, s);
    let magnitude = b.mux(negative, minus, s);
    let exp = b.constant(ew, fmt.bias() + i64::from(w - 1) - i64::from(pr.log_frac));
    let (sig, exp) = normalize(b, magnitude, exp);
    round_pack(b, fmt, negative, exp, sig)
}

/// `ln x` for f32 or f64 `x` (raw bits in and out).
pub fn build_log(b: &mut Builder<'_>, fmt: Format, x: ValueId) -> ValueId {
    let ew = fmt.internal_exp_bits(0);
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
