//! Normalisation: a leading-zero count fused with the left shift that
//! brings a significand's leading one to its top bit, as a binary
//! search (one stage per power of two: if the top `s` bits are zero,
//! shift by `s`), the exponent reduced by the count; or, where the
//! exponent must not fall below 1, a leading-zero count, its minimum
//! with the exponent's room, and one barrel shift.

use super::builder::{Builder, Cmp};
use silica_ir::ValueId;

/// `(sig << lz, exp - lz)` where `lz` counts `sig`'s leading zeros. A
/// zero `sig` stays zero (its exponent is then meaningless).
pub fn normalize(b: &mut Builder<'_>, sig: ValueId, exp: ValueId) -> (ValueId, ValueId) {
    let n = b.width(sig);
    let ew = b.width(exp);
    let mut stage = 1u32;
    while stage * 2 < n {
        stage *= 2;
    }
    let mut x = sig;
    let mut count_bits = Vec::new();
    while stage >= 1 {
        if stage < n {
            let top = b.extract(x, n - stage, stage);
            let top_zero = b.is_zero(top);
            let low = b.extract(x, 0, n - stage);
            let shifted = b.append_zeros(low, stage);
            x = b.mux(top_zero, shifted, x);
            count_bits.push(top_zero);
        } else {
            let never = b.zero(1);
            count_bits.push(never);
        }
        stage /= 2;
    }
    let count = b.concat(&count_bits);
    let count = b.resize(count, ew);
    let exp = b.sub(exp, count);
    (x, exp)
}

/// `(sig << s, exp - s)` where `s = min(lz, exp - 1)`: normalised as far
/// as the exponent allows (a result left below the normal range, at
/// exponent 1, is a subnormal's significand). `exp` must be at least 1.
pub fn normalize_within(b: &mut Builder<'_>, sig: ValueId, exp: ValueId) -> (ValueId, ValueId) {
    let n = b.width(sig);
    let ew = b.width(exp);
    let count = leading_zeros(b, sig);
    let cw = b.width(count);
    let room = b.add_const(exp, -1);
    let count_wide = b.resize(count, ew);
    let short = b.icmp(Cmp::Ult, room, count_wide);
    // When the room is short it is below the count, so fits its width.
    let room = b.resize(room, cw);
    let shift = b.mux(short, room, count);
    // One rank of 2:1 multiplexers per bit of the shift.
    let mut x = sig;
    for k in (0..cw).rev() {
        let step = 1u32 << k;
        if step >= n {
            continue;
        }
        let low = b.extract(x, 0, n - step);
        let shifted = b.append_zeros(low, step);
        let take = b.bit(shift, k);
        x = b.mux(take, shifted, x);
    }
    let shift = b.resize(shift, ew);
    let exp = b.sub(exp, shift);
    (x, exp)
}

/// The number of leading zeros of `v` (its width when zero), from a
/// tree of halves: a half's count, or the upper half's width plus the
/// lower half's where the upper is zero.
fn leading_zeros(b: &mut Builder<'_>, v: ValueId) -> ValueId {
    let n = b.width(v);
    let padded = n.next_power_of_two().max(2);
    // Ones below: a zero `v` then counts `n`, and no half is all padding.
    let x = if padded > n {
        let ones = b.ones(padded - n);
        b.concat(&[v, ones])
    } else {
        v
    };
    let (count, zero) = count_half(b, x);
    if padded > n {
        return count;
    }
    let none = b.zero(b.width(count));
    let count = b.mux(zero, none, count);
    b.concat(&[zero, count])
}

/// The leading zeros of `x` (a power of two wide, at least 2) below its
/// width, and whether it is zero.
fn count_half(b: &mut Builder<'_>, x: ValueId) -> (ValueId, ValueId) {
    let n = b.width(x);
    if n == 2 {
        let high = b.bit(x, 1);
        let zero = b.is_zero(x);
        return (b.not(high), zero);
    }
    let upper = b.extract(x, n / 2, n / 2);
    let lower = b.extract(x, 0, n / 2);
    let (upper_count, upper_zero) = count_half(b, upper);
    let (lower_count, lower_zero) = count_half(b, lower);
    let zero = b.and(upper_zero, lower_zero);
    let low_bits = b.mux(upper_zero, lower_count, upper_count);
    (b.concat(&[upper_zero, low_bits]), zero)
}
