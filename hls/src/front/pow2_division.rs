//! Divisions and remainders by a constant power of two, lifted as
//! shifts, masks and a rounding bias instead of a divider: `x / 2^k` is
//! `x >> k` unsigned and `(x + (x < 0 ? 2^k - 1 : 0)) >>s k` signed
//! (rounding toward zero); `x % 2^k` is `x & (2^k - 1)` unsigned and
//! `x - ((x / 2^k) << k)` signed. The forms hold at every width, `index`
//! included, so the scheduler, the estimate and the circuit all see the
//! cheap operations. Other divisors keep the divider.

use super::lift::Lifter;
use crate::kernel::{sign_extend, Item, Op, Predicate, Val, INDEX};

impl Lifter<'_> {
    /// `a op b` for `op` one of `DivS`, `DivU`, `RemS`, `RemU`: shifts
    /// when `b` is a constant power of two the operation reads as
    /// positive, a divider node otherwise.
    pub fn divide(&mut self, items: &mut Vec<Item>, op: Op, a: Val, b: Val, width: u32) -> Val {
        let Some(k) = self.power_of_two(b, matches!(op, Op::DivS | Op::RemS)) else {
            return self.node(items, op, vec![a, b], width);
        };
        if k == 0 {
            return match op {
                Op::DivS | Op::DivU => a,
                _ => self.constant(0, width),
            };
        }
        let shift = self.constant(i128::from(k), width);
        match op {
            Op::DivU => self.node(items, Op::ShrU, vec![a, shift], width),
            Op::RemU => {
                let mask = self.constant(((1u128 << k) - 1) as i128, width);
                self.node(items, Op::And, vec![a, mask], width)
            }
            _ => {
                let zero = self.constant(0, width);
                let bias = self.constant(((1u128 << k) - 1) as i128, width);
                let negative = self.node(items, Op::Cmp(Predicate::Slt), vec![a, zero], 1);
                let added = self.node(items, Op::Mux, vec![negative, bias, zero], width);
                let biased = self.node(items, Op::Add, vec![a, added], width);
                let quotient = self.node(items, Op::ShrS, vec![biased, shift], width);
                if op == Op::DivS {
                    return quotient;
                }
                let back = self.node(items, Op::Shl, vec![quotient, shift], width);
                self.node(items, Op::Sub, vec![a, back], width)
            }
        }
    }

    /// `k` where `v` is the constant `2^k`: read as signed (then it must
    /// be positive) or as unsigned; `index` constants read as signed.
    fn power_of_two(&self, v: Val, signed: bool) -> Option<u32> {
        let Val::Const(c) = v else { return None };
        let (bits, w) = self.k.consts[c];
        let value = if w == INDEX || signed {
            let s = if w == INDEX {
                bits as i128
            } else {
                sign_extend(bits, w)
            };
            u128::try_from(s).ok()?
        } else {
            bits
        };
        value.is_power_of_two().then(|| value.trailing_zeros())
    }
}
