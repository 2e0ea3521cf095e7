//! Rounding and packing, shared by every operator that produces a
//! float: a sign, a signed biased exponent and a significand whose
//! leading one is its top bit (or zero) become the IEEE bits of the
//! value rounded to nearest, ties to even, with gradual underflow to
//! subnormals and zero and overflow to infinity.
//!
//! The value is `sig / 2^(n-1) × 2^(exp − bias)`. Below the normal
//! range the significand is first shifted right by `1 − exp` (the
//! bits shifted out become sticky); then the top `m + 1` bits are kept,
//! the next is the guard bit and the OR of the rest the sticky bit. The
//! exponent field is added to the rounded significand, so a rounding
//! carry out of the significand (or into the hidden bit of a subnormal)
//! increments the exponent by itself.

use super::builder::{Builder, Cmp};
use super::format::Format;
use silica_ir::ValueId;

/// The IEEE bits of `(-1)^sign × sig / 2^(n-1) × 2^(exp − bias)`,
/// rounded to nearest even; `exp` is signed, `sig` normalised or zero
/// (zero gives a zero of that sign).
pub fn round_pack(
    b: &mut Builder<'_>,
    fmt: Format,
    sign: ValueId,
    exp: ValueId,
    sig: ValueId,
) -> ValueId {
    pack(b, fmt, sign, exp, sig, false)
}

/// [`round_pack`] for an exponent of at least 1, as
/// [`super::normalize::normalize_within`] leaves it: a significand
/// whose top bit is clear is then a subnormal's, and no right shift is
/// built.
pub fn round_pack_within(
    b: &mut Builder<'_>,
    fmt: Format,
    sign: ValueId,
    exp: ValueId,
    sig: ValueId,
) -> ValueId {
    pack(b, fmt, sign, exp, sig, true)
}

fn pack(
    b: &mut Builder<'_>,
    fmt: Format,
    sign: ValueId,
    exp: ValueId,
    sig: ValueId,
    exp_at_least_one: bool,
) -> ValueId {
    let (e, m) = (fmt.exp_bits, fmt.man_bits);
    let mut sig = sig;
    let mut n = b.width(sig);
    if n < m + 3 {
        sig = b.append_zeros(sig, m + 3 - n);
        n = m + 3;
    }
    let is_zero = b.is_zero(sig);
    let (tiny, shifted, lost) = if exp_at_least_one {
        let never = b.zero(1);
        (never, sig, never)
    } else {
        denormalise(b, sig, exp)
    };
    // Keep m + 1 bits, a guard bit and a sticky bit.
    let kept = b.extract(shifted, n - m - 1, m + 1);
    let guard = b.bit(shifted, n - m - 2);
    let sticky = if n - m - 2 > 0 {
        let rest = b.extract(shifted, 0, n - m - 2);
        let rest = b.any(rest);
        b.or(rest, lost)
    } else {
        lost
    };
    let lsb = b.bit(kept, 0);
    let tie_break = b.or(sticky, lsb);
    let round_up = b.and(guard, tie_break);
    let kept = b.resize(kept, e + m + 1);
    let increment = b.resize(round_up, e + m + 1);
    let rounded = b.add(kept, increment);
    // Exponent field (minus the hidden bit, which the significand adds).
    let huge = b.cmp_const(Cmp::Sge, exp, fmt.max_exp_field());
    let below = b.add_const(exp, -1);
    let below = b.resize(below, e);
    let field = if exp_at_least_one {
        below
    } else {
        let zero_field = b.zero(e);
        b.mux(tiny, zero_field, below)
    };
    let field = b.append_zeros(field, m);
    let field = b.resize(field, e + m + 1);
    let packed = b.add(field, rounded);
    let inf_bits = fmt.max_exp_field() << m;
    let overflows = b.cmp_const(Cmp::Uge, packed, inf_bits);
    let overflow = b.or(huge, overflows);
    let inf = b.constant(e + m, inf_bits);
    let magnitude = b.extract(packed, 0, e + m);
    let magnitude = b.mux(overflow, inf, magnitude);
    let zero = b.zero(e + m);
    let magnitude = b.mux(is_zero, zero, magnitude);
    b.concat(&[sign, magnitude])
}

/// Below the normal range (`exp < 1`): whether it is, `sig` shifted
/// right by `1 - exp` (at most its width), and whether bits were
/// shifted out.
fn denormalise(b: &mut Builder<'_>, sig: ValueId, exp: ValueId) -> (ValueId, ValueId, ValueId) {
    let n = b.width(sig);
    let ew = b.width(exp);
    let tiny = b.cmp_const(Cmp::Slt, exp, 1);
    let one = b.constant(ew, 1);
    let distance = b.sub(one, exp);
    let saturate = b.cmp_const(Cmp::Sgt, distance, n);
    // Not saturated: 1 <= distance <= n, which fits in n bits.
    let amount = b.resize(distance, n);
    let full = b.constant(n, n);
    let amount = b.mux(saturate, full, amount);
    let none = b.zero(n);
    let amount = b.mux(tiny, amount, none);
    let (shifted, lost) = b.shru_sticky(sig, amount);
    (tiny, shifted, lost)
}

/// `sig` narrowed to `width` bits: its top `width - 1` and, below them,
/// the OR of the rest (a sticky bit); unchanged when it is `width` bits
/// or fewer. [`round_pack`] to a format of `width - 3` fraction bits
/// gives the same result from either (every bit below the guard bit
/// only counts through the sticky bit, before or after a subnormal
/// result's right shift), with a narrower shifter.
pub fn collapse_sticky(b: &mut Builder<'_>, sig: ValueId, width: u32) -> ValueId {
    let n = b.width(sig);
    if n <= width {
        return sig;
    }
    let top = b.extract(sig, n - width + 1, width - 1);
    let rest = b.extract(sig, 0, n - width + 1);
    let sticky = b.any(rest);
    b.concat(&[top, sticky])
}
