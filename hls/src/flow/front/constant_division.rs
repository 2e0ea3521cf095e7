//! Divisions and remainders by constants, lifted without a divider.
//!
//! - By a power of two: `x / 2^k` is `x >> k` unsigned and
//!   `(x + (x < 0 ? 2^k - 1 : 0)) >>s k` signed (rounding toward zero);
//!   `x % 2^k` is `x & (2^k - 1)` unsigned and `x - ((x / 2^k) << k)`
//!   signed. These forms hold at every width, `index` included.
//! - By any other constant `d` at a width `w` up to [`MAX_RECIPROCAL_WIDTH`]:
//!   `x / d` is the high part of `x * m`, `m = ceil(2^(w + l) / d)` with
//!   `2^(l-1) < d < 2^l` (exact for every `w`-bit `x`: Granlund and
//!   Montgomery's round-up reciprocal, `m` of `w + 1` bits), on the
//!   magnitudes when signed (the quotient negated where the signs
//!   differ); a remainder is `x - (x / d) * d`.
//! - By any other constant on `index` (whose width range analysis sets
//!   later): the affine `floor(x / d)` node (`Op::FloorDivC`, a
//!   reciprocal multiplication built at the index width), on
//!   `x + (x < 0 ? d - 1 : 0)` for a quotient rounding toward zero.
//!   Unsigned index divisions take the same path: the index values a
//!   kernel divides unsigned are taken to be nonnegative (as the
//!   narrowed index width does for every unsigned operation).
//!
//! So the scheduler, the estimate and the circuit all see shifts, adds
//! and a multiplication; other divisions keep a divider.

use super::lift::Lifter;
use crate::model::kernel::{sign_extend, Item, Op, Predicate, Val, INDEX};

/// The widest division made a reciprocal multiplication: its product
/// (`2w + 1` bits) must fit the 128-bit constants of the kernel.
pub const MAX_RECIPROCAL_WIDTH: u32 = 63;

/// `(m, shift)` with `floor(x * m / 2^shift) == floor(x / d)` for every
/// `x < 2^width`, for `d` no power of two, `1 < d < 2^width`.
pub fn reciprocal(d: u128, width: u32) -> (u128, u32) {
    let l = 128 - (d - 1).leading_zeros();
    let shift = width + l;
    let m = (1u128 << shift) / d + 1;
    (m, shift)
}

impl Lifter<'_> {
    /// `a op b` for `op` one of `DivS`, `DivU`, `RemS`, `RemU`: without a
    /// divider when `b` is a constant the forms above cover, a divider
    /// node otherwise.
    pub fn divide(&mut self, items: &mut Vec<Item>, op: Op, a: Val, b: Val, width: u32) -> Val {
        let signed = matches!(op, Op::DivS | Op::RemS);
        let Some(d) = self.divisor(b, signed) else {
            return self.node(items, op, vec![a, b], width);
        };
        if d.value.is_power_of_two() && !d.negative {
            return self.by_power_of_two(items, op, a, d.value.trailing_zeros(), width);
        }
        if width == INDEX {
            return self.index_division(items, op, a, b, d);
        }
        if width > MAX_RECIPROCAL_WIDTH {
            return self.node(items, op, vec![a, b], width);
        }
        let quotient = if signed {
            self.signed_quotient(items, a, d, width)
        } else {
            self.unsigned_quotient(items, a, d.value, width)
        };
        if matches!(op, Op::DivS | Op::DivU) {
            return quotient;
        }
        self.remainder(items, a, quotient, b, width)
    }

    /// `a op d` on `index` for `d` no power of two: `floor(a / |d|)`
    /// (`Op::FloorDivC`) of the dividend biased toward zero when signed,
    /// negated for a negative `d`; a remainder from the quotient.
    fn index_division(&mut self, items: &mut Vec<Item>, op: Op, a: Val, b: Val, d: Divisor) -> Val {
        let Ok(c) = i64::try_from(d.value) else {
            return self.node(items, op, vec![a, b], INDEX);
        };
        let dividend = if matches!(op, Op::DivS | Op::RemS) {
            let zero = self.constant(0, INDEX);
            let bias = self.constant(i128::from(c - 1), INDEX);
            let negative = self.node(items, Op::Cmp(Predicate::Slt), vec![a, zero], 1);
            let added = self.node(items, Op::Mux, vec![negative, bias, zero], INDEX);
            self.node(items, Op::Add, vec![a, added], INDEX)
        } else {
            a
        };
        let mut q = self.node(items, Op::FloorDivC(c), vec![dividend], INDEX);
        if d.negative {
            let zero = self.constant(0, INDEX);
            q = self.node(items, Op::Sub, vec![zero, q], INDEX);
        }
        if matches!(op, Op::DivS | Op::DivU) {
            return q;
        }
        self.remainder(items, a, q, b, INDEX)
    }

    /// `floor(a / c)` (`floordivsi`) or `ceil(a / c)` (`ceildivsi`) of an
    /// `index` `a` by a positive constant `c`: the affine node, when `b`
    /// is one.
    pub fn index_rounding(
        &mut self,
        items: &mut Vec<Item>,
        ceil: bool,
        a: Val,
        b: Val,
    ) -> Option<Val> {
        let c = i64::try_from(self.k.const_value(b)?)
            .ok()
            .filter(|&c| c > 0)?;
        let op = if ceil {
            Op::CeilDivC(c)
        } else {
            Op::FloorDivC(c)
        };
        Some(self.node(items, op, vec![a], INDEX))
    }

    /// `a - q * b`: the remainder of `a` by `b` given their quotient `q`.
    pub fn remainder(&mut self, items: &mut Vec<Item>, a: Val, q: Val, b: Val, w: u32) -> Val {
        let product = self.node(items, Op::Mul, vec![q, b], w);
        self.node(items, Op::Sub, vec![a, product], w)
    }

    /// The magnitude and sign of a constant nonzero divisor.
    fn divisor(&self, v: Val, signed: bool) -> Option<Divisor> {
        let Val::Const(c) = v else { return None };
        let (bits, w) = self.k.consts[c];
        let value = if w == INDEX || signed {
            let s = if w == INDEX {
                bits as i128
            } else {
                sign_extend(bits, w)
            };
            Divisor {
                value: s.unsigned_abs(),
                negative: s < 0,
            }
        } else {
            Divisor {
                value: bits,
                negative: false,
            }
        };
        (value.value != 0).then_some(value)
    }

    /// `a / 2^k` or `a % 2^k`.
    fn by_power_of_two(&mut self, items: &mut Vec<Item>, op: Op, a: Val, k: u32, w: u32) -> Val {
        if k == 0 {
            return match op {
                Op::DivS | Op::DivU => a,
                _ => self.constant(0, w),
            };
        }
        let shift = self.constant(i128::from(k), w);
        let low = ((1u128 << k) - 1) as i128;
        match op {
            Op::DivU => self.node(items, Op::ShrU, vec![a, shift], w),
            Op::RemU => {
                let mask = self.constant(low, w);
                self.node(items, Op::And, vec![a, mask], w)
            }
            _ => {
                let zero = self.constant(0, w);
                let bias = self.constant(low, w);
                let negative = self.node(items, Op::Cmp(Predicate::Slt), vec![a, zero], 1);
                let added = self.node(items, Op::Mux, vec![negative, bias, zero], w);
                let biased = self.node(items, Op::Add, vec![a, added], w);
                let quotient = self.node(items, Op::ShrS, vec![biased, shift], w);
                if op == Op::DivS {
                    return quotient;
                }
                let back = self.node(items, Op::Shl, vec![quotient, shift], w);
                self.node(items, Op::Sub, vec![a, back], w)
            }
        }
    }

    /// `floor(a / d)` of an unsigned `a`: the high part of `a * m`.
    fn unsigned_quotient(&mut self, items: &mut Vec<Item>, a: Val, d: u128, w: u32) -> Val {
        if d.is_power_of_two() {
            return self.by_power_of_two(items, Op::DivU, a, d.trailing_zeros(), w);
        }
        let (m, shift) = reciprocal(d, w);
        let wide = 2 * w + 1;
        let a_wide = self.resize(items, Op::ZExt, a, wide);
        let m = self.constant(m as i128, wide);
        let product = self.node(items, Op::Mul, vec![a_wide, m], wide);
        let s = self.constant(i128::from(shift), wide);
        let high = self.node(items, Op::ShrU, vec![product, s], wide);
        self.resize(items, Op::ZExt, high, w)
    }

    /// `a / d` rounded toward zero, signed: the unsigned quotient of the
    /// magnitudes, negated when the signs differ.
    fn signed_quotient(&mut self, items: &mut Vec<Item>, a: Val, d: Divisor, w: u32) -> Val {
        let zero = self.constant(0, w);
        let negative = self.node(items, Op::Cmp(Predicate::Slt), vec![a, zero], 1);
        let negated = self.node(items, Op::Sub, vec![zero, a], w);
        let magnitude = self.node(items, Op::Mux, vec![negative, negated, a], w);
        let q = self.unsigned_quotient(items, magnitude, d.value, w);
        let minus_q = self.node(items, Op::Sub, vec![zero, q], w);
        let (flip, keep) = if d.negative {
            (q, minus_q)
        } else {
            (minus_q, q)
        };
        self.node(items, Op::Mux, vec![negative, flip, keep], w)
    }
}

/// A constant divisor: its magnitude, and its sign when read as signed.
#[derive(Clone, Copy)]
struct Divisor {
    value: u128,
    negative: bool,
}

#[cfg(test)]
mod tests {
    use super::reciprocal;

    fn check(d: u128, w: u32, x: u128) {
        let (m, shift) = reciprocal(d, w);
        assert!(
            m < 1u128 << (w + 1),
            "m = {m} needs more than {} bits",
            w + 1
        );
        assert_eq!((x * m) >> shift, x / d, "{x} / {d} at {w} bits");
    }

    #[test]
    fn the_reciprocal_divides_every_dividend_of_small_widths() {
        for w in 2..=10u32 {
            for d in (3..1u128 << w).filter(|d| !d.is_power_of_two()) {
                for x in 0..1u128 << w {
                    check(d, w, x);
                }
            }
        }
    }

    #[test]
    fn the_reciprocal_divides_wide_dividends_at_their_edges() {
        let mut words = crate::test_support::xorshift(0x9e37_79b9_7f4a_7c15u64);
        let mut next = || u128::from(words());
        for w in [16u32, 31, 32, 33, 48, 63] {
            let top = 1u128 << w;
            for _ in 0..200 {
                let d = (next() % (top - 3) + 3) | 1;
                for x in [0, 1, d - 1, d, d + 1, top - 1, top - 2, next() % top] {
                    check(d, w, x % top);
                }
            }
        }
    }
}
