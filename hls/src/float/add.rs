//! Addition and subtraction (`arith.addf`, `arith.subf`), and the
//! exact two-operand significand adder they share with `math.fma`.
//!
//! The operand of larger magnitude is kept, the other shifted right by
//! the exponent difference into a window three bits wider (guard, round
//! and a sticky bit collecting everything shifted out), then added or
//! subtracted. Whenever bits are lost (a difference of two or more) the
//! result needs at most one bit of left shift, so the window holds
//! enough for a correctly rounded result. The sum is then normalised
//! no further than the smallest normal exponent (below it, it is a
//! subnormal's significand as it stands), narrowed to the bits rounding
//! reads and rounded by [`round_pack_within`], which needs no right
//! shift.

use super::builder::{Builder, Cmp};
use super::format::Format;
use super::normalize::{normalize, normalize_within};
use super::round::{collapse_sticky, round_pack_within};
use super::unpack::{infinity, quiet_nan, unpack};
use silica_ir::ValueId;

/// A finite operand of the significand adder: sign, signed biased
/// exponent of the significand's top bit, significand, and whether it
/// is zero.
#[derive(Clone, Copy)]
pub struct Term {
    pub sign: ValueId,
    pub exp: ValueId,
    pub sig: ValueId,
    pub is_zero: ValueId,
}

/// The exact sum of `x` and `y` (significands of equal width `n`) as a
/// sign, exponent and normalised `n + 4`-bit significand (zero when
/// the sum is exactly zero: then the sign is that of a correctly
/// rounded zero sum, negative only if both terms are). If the larger
/// term's exponent is at least 1 the larger term must be normalised
/// (its top bit set); otherwise both share the effective exponent 1.
/// With `within` (both exponents at least 1) the sum is normalised no
/// further than exponent 1 ([`normalize_within`]).
pub fn add_terms(
    b: &mut Builder<'_>,
    x: Term,
    y: Term,
    within: bool,
) -> (ValueId, ValueId, ValueId) {
    let n = b.width(x.sig);
    let window = n + 3;
    // x is the larger magnitude unless y is.
    let exp_gt = b.icmp(Cmp::Sgt, x.exp, y.exp);
    let exp_eq = b.icmp(Cmp::Eq, x.exp, y.exp);
    let sig_ge = b.icmp(Cmp::Uge, x.sig, y.sig);
    let tie_ge = b.and(exp_eq, sig_ge);
    let mag_ge = b.or(exp_gt, tie_ge);
    let x_nonzero = b.not(x.is_zero);
    let x_wins = b.and(x_nonzero, mag_ge);
    let x_first = b.or(y.is_zero, x_wins);
    let big_sign = b.mux(x_first, x.sign, y.sign);
    let big_exp = b.mux(x_first, x.exp, y.exp);
    let big_sig = b.mux(x_first, x.sig, y.sig);
    let small_exp = b.mux(x_first, y.exp, x.exp);
    let small_sig = b.mux(x_first, y.sig, x.sig);
    // Align the smaller term (a zero one shifts to zero whatever its
    // exponent).
    let big = b.append_zeros(big_sig, 3);
    let small = b.append_zeros(small_sig, 3);
    let difference = b.sub(big_exp, small_exp);
    let far = b.cmp_const(Cmp::Ugt, difference, window);
    let amount = b.resize(difference, window);
    let full = b.constant(window, window);
    let amount = b.mux(far, full, amount);
    let (aligned, sticky) = b.shru_sticky(small, amount);
    let sticky = b.resize(sticky, window);
    let aligned = b.or(aligned, sticky);
    // Add or subtract in one more bit for the carry.
    let big = b.resize(big, window + 1);
    let aligned = b.resize(aligned, window + 1);
    let subtract = b.xor(x.sign, y.sign);
    let total = b.add(big, aligned);
    let minus = b.sub(big, aligned);
    let sum = b.mux(subtract, minus, total);
    let exp = b.add_const(big_exp, 1);
    let (sig, exp) = if within {
        normalize_within(b, sum, exp)
    } else {
        normalize(b, sum, exp)
    };
    let zero_sum = b.is_zero(sum);
    let both_negative = b.and(x.sign, y.sign);
    let sign = b.mux(zero_sum, both_negative, big_sign);
    (sign, exp, sig)
}

/// `a + b` (or `a - b` when `subtract`) in `fmt`, raw bits in and out.
pub fn build_add(
    b: &mut Builder<'_>,
    fmt: Format,
    a: ValueId,
    y: ValueId,
    subtract: bool,
) -> ValueId {
    let ew = fmt.internal_exp_bits(0);
    let x = unpack(b, fmt, a, ew);
    let y = unpack(b, fmt, y, ew);
    let y_sign = if subtract { b.not(y.sign) } else { y.sign };
    let (sign, exp, sig) = add_terms(
        b,
        Term {
            sign: x.sign,
            exp: x.exp,
            sig: x.sig,
            is_zero: x.is_zero,
        },
        Term {
            sign: y_sign,
            exp: y.exp,
            sig: y.sig,
            is_zero: y.is_zero,
        },
        true,
    );
    let sig = collapse_sticky(b, sig, fmt.man_bits + 3);
    let finite = round_pack_within(b, fmt, sign, exp, sig);
    // Infinities and NaNs.
    let opposite = b.xor(x.sign, y_sign);
    let both_inf = b.and(x.is_inf, y.is_inf);
    let inf_minus_inf = b.and(both_inf, opposite);
    let nan = b.or_all(&[x.is_nan, y.is_nan, inf_minus_inf]);
    let inf_sign = b.mux(x.is_inf, x.sign, y_sign);
    let inf = infinity(b, fmt, inf_sign);
    let any_inf = b.or(x.is_inf, y.is_inf);
    let result = b.mux(any_inf, inf, finite);
    let qnan = quiet_nan(b, fmt);
    b.mux(nan, qnan, result)
}
