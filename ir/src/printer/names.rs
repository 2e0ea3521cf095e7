//! SSA value and block naming as MLIR's `SSANameState` does it: each
//! region is numbered in full before its nested regions, which continue
//! from the counters reached; entry-block arguments are `%argN`, other
//! values `%N`; blocks are `^bbN` per region.

use super::decimal::push_u64;
use crate::graph::{BlockId, Ir, OpId, RegionId, ValueDef, ValueId};

#[derive(Clone, Copy)]
enum Name {
    Num(u32),
    Arg(u32),
}

/// Names of values and blocks of one printed tree.
pub struct Names {
    values: Vec<Option<Name>>,
    blocks: Vec<u32>,
}

impl Names {
    /// Numbers everything nested in `top`. With `unique` (generic form),
    /// counters are never reset between regions, as MLIR's unique SSA ids.
    /// Without `nested`, only `top`'s results are named (its regions are
    /// not printed).
    pub fn new(ir: &Ir, top: OpId, unique: bool, nested: bool) -> Names {
        let mut names = Names {
            values: vec![None; ir.value_capacity()],
            blocks: vec![0; ir.block_capacity()],
        };
        let mut next_value = 0u32;
        let mut next_arg = 0u32;
        names.number_op(ir, top, &mut next_value);
        let mut stack: Vec<(RegionId, u32, u32)> = Vec::new();
        if nested {
            stack.extend(ir.regions(top).map(|r| (r, next_value, next_arg)));
        }
        while let Some((region, v, a)) = stack.pop() {
            if !unique {
                next_value = v;
                next_arg = a;
            }
            for (i, b) in ir.region_blocks(region).enumerate() {
                names.blocks[b.0 as usize] = i as u32;
                let entry = i == 0;
                for &arg in ir.block_args(b) {
                    names.values[arg.0 as usize] = Some(if entry {
                        next_arg += 1;
                        Name::Arg(next_arg - 1)
                    } else {
                        next_value += 1;
                        Name::Num(next_value - 1)
                    });
                }
                for op in ir.block_ops(b) {
                    names.number_op(ir, op, &mut next_value);
                }
            }
            for b in ir.region_blocks(region) {
                for op in ir.block_ops(b) {
                    for r in ir.regions(op) {
                        stack.push((r, next_value, next_arg));
                    }
                }
            }
        }
        names
    }

    fn number_op(&mut self, ir: &Ir, op: OpId, next: &mut u32) {
        if ir.num_results(op) > 0 {
            self.values[ir.result(op, 0).0 as usize] = Some(Name::Num(*next));
            *next += 1;
        }
    }

    /// Appends the name of the group a result belongs to (`%3` for all
    /// results of a multi-result op).
    pub fn group_into(&self, out: &mut String, v: ValueId) {
        match self.values.get(v.0 as usize).copied().flatten() {
            Some(Name::Num(n)) => {
                out.push('%');
                push_u64(out, u64::from(n));
            }
            Some(Name::Arg(n)) => {
                out.push_str("%arg");
                push_u64(out, u64::from(n));
            }
            None => out.push_str("<<UNKNOWN SSA VALUE>>"),
        }
    }

    /// Appends the name of a value use (`%3#1` for results of multi-result ops).
    pub fn value_into(&self, out: &mut String, ir: &Ir, v: ValueId) {
        match ir.value_def(v) {
            ValueDef::Result { op, index } => {
                self.group_into(out, ir.result(op, 0));
                if ir.num_results(op) > 1 {
                    out.push('#');
                    push_u64(out, u64::from(index));
                }
            }
            _ => self.group_into(out, v),
        }
    }

    /// The position of a block within its region.
    pub fn block_index(&self, b: BlockId) -> u32 {
        self.blocks[b.0 as usize]
    }

    /// Appends `^bbN`.
    pub fn block_into(&self, out: &mut String, b: BlockId) {
        out.push_str("^bb");
        push_u64(out, u64::from(self.block_index(b)));
    }
}
