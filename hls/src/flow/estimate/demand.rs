//! The bits of each value that something reads (yosys's `wreduce` and
//! `opt_clean` drop the rest): a value read by a register, an output or
//! an instance is read whole; an extract reads its slice of its operand,
//! a concat each operand's share of what is read of it; the low `k`
//! result bits of an add, subtract, multiply or gate depend only on the
//! low `k` bits of its operands, so those operators pass on what is read
//! of them (a multiplexer reads its select whole); other ops read their
//! operands whole. An op none of whose bits are read costs nothing.

use super::fold::Fold;
use rustc_hash::{FxHashMap, FxHashSet};
use silica_hw_dialects::types::bit_width;
use silica_ir::{BlockId, Context, Ir, OpId, ValueId};

/// The low bits of each (resolved) value that are read.
#[derive(Default)]
pub struct Demand {
    bits: FxHashMap<ValueId, u32>,
}

impl Demand {
    /// What is read of the values of `block`; `order` is its comb ops,
    /// operands first (`super::fold::order`).
    pub fn of(ctx: &Context, ir: &Ir, block: BlockId, order: &[OpId], fold: &Fold) -> Demand {
        let width = |v: ValueId| bit_width(ctx, ir.value_type(v)).unwrap_or(0) as u32;
        let mut d = Demand::default();
        let comb: FxHashSet<OpId> = order.iter().copied().collect();
        for op in ir.block_ops(block) {
            if !comb.contains(&op) {
                for v in ir.operands(op) {
                    d.read(fold.resolve(v), width(v));
                }
            }
        }
        for &op in order.iter().rev() {
            if ir.num_results(op) != 1 {
                for v in ir.operands(op) {
                    d.read(fold.resolve(v), width(v));
                }
                continue;
            }
            let r = ir.result(op, 0);
            // Folded ops' readers read what they fold to.
            if fold.resolve(r) != r || fold.constant(r).is_some() {
                continue;
            }
            let k = d.read_of(r);
            if k == 0 {
                continue;
            }
            let operands: Vec<ValueId> = ir.operands(op).collect();
            match ctx.str(ir.op_name(op)) {
                "comb.add" | "comb.sub" | "comb.mul" | "comb.and" | "comb.or" | "comb.xor" => {
                    for &v in &operands {
                        d.read(fold.resolve(v), k.min(width(v)));
                    }
                }
                "comb.mux" => {
                    d.read(fold.resolve(operands[0]), width(operands[0]));
                    for &v in &operands[1..] {
                        d.read(fold.resolve(v), k.min(width(v)));
                    }
                }
                "comb.extract" => {
                    let low = super::fold::int_attr(ctx, ir, op, "lowBit").unwrap_or(0) as u32;
                    d.read(fold.resolve(operands[0]), low + k.min(width(r)));
                }
                "comb.concat" => {
                    // The last operand holds the lowest bits.
                    let mut offset = 0;
                    for &v in operands.iter().rev() {
                        let w = width(v);
                        d.read(fold.resolve(v), k.saturating_sub(offset).min(w));
                        offset += w;
                    }
                }
                _ => {
                    for &v in &operands {
                        d.read(fold.resolve(v), width(v));
                    }
                }
            }
        }
        d
    }

    /// Records that the low `k` bits of `v` are read.
    fn read(&mut self, v: ValueId, k: u32) {
        if k > 0 {
            let e = self.bits.entry(v).or_default();
            *e = (*e).max(k);
        }
    }

    /// How many low bits of the resolved value `v` are read.
    pub fn read_of(&self, v: ValueId) -> u32 {
        self.bits.get(&v).copied().unwrap_or(0)
    }
}
