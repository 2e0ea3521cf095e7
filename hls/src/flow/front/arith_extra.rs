//! The `arith` ops that are compositions of datapath nodes: rounding
//! divisions (`ceildivsi`, `ceildivui`, `floordivsi`), the extended
//! operations of two results (`addui_extended`, `mului_extended`,
//! `mulsi_extended`), `bitcast` between integers of one width, and
//! constants wider than 128 bits (64-bit chunks shifted into place).

use super::lift::{err, Lifter, Res};
use crate::model::kernel::{Item, Op, Predicate, Val};
use num_bigint::BigInt;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, OpId, ValueId};

impl Lifter<'_> {
    /// Lifts `op` if it is one of this module's; `false` otherwise.
    pub(super) fn lift_composite(
        &mut self,
        op: OpId,
        name: &str,
        operands: &[ValueId],
        items: &mut Vec<Item>,
    ) -> Res<bool> {
        let results: Vec<ValueId> = self.ir.results(op).collect();
        let values = match name {
            "arith.ceildivsi" | "arith.floordivsi" | "arith.ceildivui" => {
                let w = self.result_width_of(results[0])?;
                let (a, b) = (self.val(operands[0])?, self.val(operands[1])?);
                vec![self.rounding_division(items, name, a, b, w)]
            }
            "arith.addui_extended" => {
                let w = self.result_width_of(results[0])?;
                let (a, b) = (self.val(operands[0])?, self.val(operands[1])?);
                let sum = self.node(items, Op::Add, vec![a, b], w);
                let carry = self.node(items, Op::Cmp(Predicate::Ult), vec![sum, a], 1);
                vec![sum, carry]
            }
            "arith.mului_extended" | "arith.mulsi_extended" => {
                let w = self.result_width_of(results[0])?;
                if w == crate::model::kernel::INDEX {
                    return err(self.loc, format!("'{name}' on index is not supported"));
                }
                let ext = if name == "arith.mulsi_extended" {
                    Op::SExt
                } else {
                    Op::ZExt
                };
                let (a, b) = (self.val(operands[0])?, self.val(operands[1])?);
                let (a2, b2) = (
                    self.resize(items, ext, a, 2 * w),
                    self.resize(items, ext, b, 2 * w),
                );
                let product = self.node(items, Op::Mul, vec![a2, b2], 2 * w);
                let low = self.resize(items, Op::Trunc, product, w);
                let shift = self.constant(i128::from(w), 2 * w);
                let high = self.node(items, Op::ShrU, vec![product, shift], 2 * w);
                let high = self.resize(items, Op::Trunc, high, w);
                vec![low, high]
            }
            "arith.bitcast" => {
                let w = self.result_width_of(results[0])?;
                let a = self.val(operands[0])?;
                if self.k.width(a) != w {
                    return err(
                        self.loc,
                        "'arith.bitcast' between integers of different widths",
                    );
                }
                vec![a]
            }
            "arith.constant" => match self.wide_constant(op, items)? {
                Some(v) => vec![v],
                None => return Ok(false),
            },
            _ => return Ok(false),
        };
        for (r, v) in results.into_iter().zip(values) {
            self.vals.insert(r, v);
        }
        Ok(true)
    }

    /// An integer constant whose value does not fit in 128 bits: the or
    /// of its 64-bit chunks, each shifted into place; `None` for others.
    fn wide_constant(&mut self, op: OpId, items: &mut Vec<Item>) -> Res<Option<Val>> {
        let value = inherent_attr(self.ctx, self.ir, op, "value").map(|a| self.ctx.attr_kind(a));
        let Some(AttrKind::Integer { value, .. }) = value else {
            return Ok(None);
        };
        if i128::try_from(value).is_ok() {
            return Ok(None);
        }
        let w = self.result_width_of(self.ir.result(op, 0))?;
        let modulus = BigInt::from(1) << w;
        let bits = ((value % &modulus) + &modulus) % &modulus;
        let (_, digits) = bits.to_u64_digits();
        let mut acc: Option<Val> = None;
        for (i, &d) in digits.iter().enumerate() {
            if d == 0 {
                continue;
            }
            let chunk = self.constant(i128::from(d), w);
            let shift = self.constant(64 * i as i128, w);
            let placed = self.node(items, Op::Shl, vec![chunk, shift], w);
            acc = Some(match acc {
                Some(a) => self.node(items, Op::Or, vec![a, placed], w),
                None => placed,
            });
        }
        Ok(Some(acc.unwrap_or_else(|| self.constant(0, w))))
    }

    /// `ceildivsi`, `floordivsi` (from the truncating quotient, stepped
    /// when the remainder is not zero and the signs say so) or
    /// `ceildivui` (`a == 0 ? 0 : (a - 1) / b + 1`).
    fn rounding_division(
        &mut self,
        items: &mut Vec<Item>,
        name: &str,
        a: Val,
        b: Val,
        w: u32,
    ) -> Val {
        let zero = self.constant(0, w);
        let one = self.constant(1, w);
        if name == "arith.ceildivui" {
            let less = self.node(items, Op::Sub, vec![a, one], w);
            let q = self.divide(items, Op::DivU, less, b, w);
            let up = self.node(items, Op::Add, vec![q, one], w);
            let is_zero = self.node(items, Op::Cmp(Predicate::Eq), vec![a, zero], 1);
            return self.node(items, Op::Mux, vec![is_zero, zero, up], w);
        }
        if w == crate::model::kernel::INDEX {
            let ceil = name == "arith.ceildivsi";
            if let Some(q) = self.index_rounding(items, ceil, a, b) {
                return q;
            }
        }
        let q = self.divide(items, Op::DivS, a, b, w);
        // By a constant, the remainder comes from the quotient (no second
        // reciprocal multiplication).
        let r = if matches!(b, Val::Const(_)) {
            self.remainder(items, a, q, b, w)
        } else {
            self.divide(items, Op::RemS, a, b, w)
        };
        let inexact = self.node(items, Op::Cmp(Predicate::Ne), vec![r, zero], 1);
        let a_negative = self.node(items, Op::Cmp(Predicate::Slt), vec![a, zero], 1);
        let b_negative = self.node(items, Op::Cmp(Predicate::Slt), vec![b, zero], 1);
        let (step_op, pred) = if name == "arith.ceildivsi" {
            (Op::Add, Predicate::Eq)
        } else {
            (Op::Sub, Predicate::Ne)
        };
        let signs = self.node(items, Op::Cmp(pred), vec![a_negative, b_negative], 1);
        let adjust = self.node(items, Op::And, vec![inexact, signs], 1);
        let stepped = self.node(items, step_op, vec![q, one], w);
        self.node(items, Op::Mux, vec![adjust, stepped, q], w)
    }
}
