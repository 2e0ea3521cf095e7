//! The exponential (`math.exp`) on f32 and f64, and the fixed-point
//! exponential it shares with `math.powf`: faithfully rounded (within
//! one ulp of the exact value's neighbours, so within 1 ulp of a libm
//! that is itself within 1 ulp), not bit-exact; the co-simulation
//! compares these results with that tolerance.
//!
//! The argument `w` (a fixed-point magnitude with `A` fraction bits and
//! a sign, `|w| < 2^I`) is multiplied by `1/ln 2` (`C` fraction bits),
//! giving `y = w / ln 2` with `Y` fraction bits; `y = k + j/2^J + g`
//! with `k` its floor, `j` the next `J` bits and `g < 2^-J` the rest.
//! Then `e^w = 2^k × 2^(j/2^J) × 2^g`: `2^(j/2^J)` from a table, `2^g`
//! as its Taylor polynomial of degree `D`, both in `P` fraction bits,
//! multiplied into a significand in [1, 2) that [`round_pack`] rounds
//! at exponent `k` (overflow to infinity, gradual underflow). The
//! parameters per format ([`ExpPrecision`]):
//!
//! | format | A | I | C | Y | J | D | P | significand | error before rounding |
//! |---|---|---|---|---|---|---|---|---|---|
//! | f32 | 40 | 7 | 42 | 34 | 6 | 3 | 40 | 41 bits | below 2^-32 |
//! | f64 | 66 | 10 | 74 | 66 | 7 | 6 | 70 | 64 bits | below 2^-63 |
//!
//! (f64: `|w|` truncated to 2^-66, `1/ln 2` to 2^-75 times `|w| <
//! 2^10`, `y` to 2^-66, the polynomial's truncation `(g ln 2)^7 / 7!`
//! below 2^-65 and its rounding below 2^-67: against the 2^-54 a
//! faithful result needs.)

use super::builder::{Builder, Cmp};
use super::constants::{exp2_coefficient, exp2_ratio, inv_ln2};
use super::fixed::{add_constant, constant, sext, shift_right, table, umul};
use super::format::Format;
use super::round::round_pack;
use super::unpack::{infinity, quiet_nan, unpack};
use num_bigint::BigInt;
use silica_ir::ValueId;

/// The fixed-point precisions of [`exp_fixed`] for one format.
#[derive(Clone, Copy)]
pub struct ExpPrecision {
    /// Fraction bits of the argument `w`.
    pub arg_frac: u32,
    /// `|w| < 2^arg_int`: larger arguments overflow or underflow.
    pub arg_int: u32,
    /// Fraction bits of the constant `1/ln 2`.
    inv_ln2_frac: u32,
    /// Fraction bits of `y = w / ln 2`.
    y_frac: u32,
    /// Table index bits `J`.
    j_bits: u32,
    /// Degree of the polynomial for `2^g`.
    degree: u32,
    /// Fraction bits of the polynomial and of the table.
    p_frac: u32,
    /// Width of the significand handed to [`round_pack`].
    sig_bits: u32,
}

impl ExpPrecision {
    /// The precisions for `fmt` (f32, else f64's).
    pub fn of(fmt: Format) -> ExpPrecision {
        if fmt.man_bits <= Format::F32.man_bits {
            ExpPrecision {
                arg_frac: 40,
                arg_int: 7,
                inv_ln2_frac: 42,
                y_frac: 34,
                j_bits: 6,
                degree: 3,
                p_frac: 40,
                sig_bits: 41,
            }
        } else {
            ExpPrecision {
                arg_frac: 66,
                arg_int: 10,
                inv_ln2_frac: 74,
                y_frac: 66,
                j_bits: 7,
                degree: 6,
                p_frac: 70,
                sig_bits: 64,
            }
        }
    }

    /// Width of the argument's magnitude: `|w| < 2^arg_int`.
    pub fn arg_width(self) -> u32 {
        self.arg_frac + self.arg_int
    }
}

/// The exponent (signed, `ew` bits, biased for `fmt`) and normalised
/// significand of `e^w` for `w = (-1)^negative × magnitude ×
/// 2^-arg_frac`, for [`round_pack`].
pub fn exp_fixed(
    b: &mut Builder<'_>,
    fmt: Format,
    negative: ValueId,
    magnitude: ValueId,
    ew: u32,
) -> (ValueId, ValueId) {
    let pr = ExpPrecision::of(fmt);
    let magnitude = b.resize(magnitude, pr.arg_width());
    let c = constant(b, pr.inv_ln2_frac + 1, &inv_ln2(pr.inv_ln2_frac));
    let product = umul(b, magnitude, c);
    // |y| < 2^(arg_int + 1) (1/ln 2 < 2): k's bits, then a sign.
    let k_bits = pr.arg_int + 2;
    let y_width = pr.y_frac + k_bits;
    let y_mag = b.extract(
        product,
        pr.arg_frac + pr.inv_ln2_frac - pr.y_frac,
        y_width - 1,
    );
    let y_mag = b.resize(y_mag, y_width);
    let zero = b.zero(y_width);
    let y_neg = b.sub(zero, y_mag);
    let y = b.mux(negative, y_neg, y_mag);
    let k = b.extract(y, pr.y_frac, k_bits);
    let j = b.extract(y, pr.y_frac - pr.j_bits, pr.j_bits);
    let g = b.extract(y, 0, pr.y_frac - pr.j_bits);
    // 2^g = 1 + g(c1 + g(c2 + ... + g c_D)), p_frac fraction bits.
    let acc_width = pr.p_frac + 1;
    let mut acc = constant(b, acc_width, &exp2_coefficient(pr.degree, pr.p_frac));
    for n in (1..pr.degree).rev() {
        let t = umul(b, acc, g);
        let t = shift_right(b, t, pr.y_frac, acc_width, false);
        acc = add_constant(b, t, &exp2_coefficient(n, pr.p_frac));
    }
    let t = umul(b, acc, g);
    let t = shift_right(b, t, pr.y_frac, acc_width, false);
    let p = add_constant(b, t, &(BigInt::from(1) << pr.p_frac));
    let entries = 1i64 << pr.j_bits;
    let powers: Vec<BigInt> = (0..entries)
        .map(|i| exp2_ratio(i, entries as u64, pr.p_frac))
        .collect();
    let power = table(b, j, &powers, acc_width);
    // In [2^(2P), 2^(2P + 1)): the top bits are the significand. A
    // product rounded up to 2 (y's fraction just below 1) saturates.
    let m = umul(b, power, p);
    let top = 2 * pr.p_frac;
    let sig = b.extract(m, top + 1 - pr.sig_bits, pr.sig_bits);
    let over = b.bit(m, top + 1);
    let ones = b.ones(pr.sig_bits);
    let sig = b.mux(over, ones, sig);
    let k = sext(b, k, ew);
    let exp = b.add_const(k, fmt.bias());
    (exp, sig)
}

/// `e^x` for f32 or f64 `x` (raw bits in and out).
pub fn build_exp(b: &mut Builder<'_>, fmt: Format, x: ValueId) -> ValueId {
    let pr = ExpPrecision::of(fmt);
    let ew = fmt.internal_exp_bits(0);
    let u = unpack(b, fmt, x, ew);
    let e = b.add_const(u.exp, -fmt.bias());
    // |x| >= 2^arg_int: overflow or underflow whatever the fraction.
    let big = b.cmp_const(Cmp::Sge, e, pr.arg_int);
    // magnitude = sig × 2^(e - m + A): sig << A, shifted right by m - e.
    let m = fmt.man_bits;
    let wide = b.append_zeros(u.sig, pr.arg_frac);
    let ww = b.width(wide);
    let m_const = b.constant(ew, m);
    let amount = b.sub(m_const, e);
    let far = b.cmp_const(Cmp::Sgt, amount, ww);
    let amount = b.resize(amount, ww);
    let all = b.constant(ww, ww);
    let amount = b.mux(far, all, amount);
    let magnitude = b.shru(wide, amount);
    let magnitude = b.extract(magnitude, 0, pr.arg_width());
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
