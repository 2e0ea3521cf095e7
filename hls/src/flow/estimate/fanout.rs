//! The carry chains reading each signal of a module: how many adds,
//! subtracts and ordering compares (sign tests aside where the tools map
//! them to wiring) read its bits once wiring is seen through (slices,
//! concatenations, replications, what folding makes equal, inverters).
//! The placer lays those chains side by side, so a
//! word read by several takes longer nets than the one chain of a
//! measured operator's test design (`Library::fanout_net_ns`).

use super::fold::{is_sign_test, predicate, Fold};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::{BlockId, Context, Ir, OpId, ValueId};

/// Whether `name` only rewires bits.
fn wiring(name: &str) -> bool {
    matches!(name, "comb.extract" | "comb.concat" | "comb.replicate")
}

/// Whether `op` is a carry chain: an add, a subtract, an ordering
/// compare (not an equality).
pub fn chain(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    match ctx.str(ir.op_name(op)) {
        "comb.add" | "comb.sub" => true,
        "comb.icmp" => !matches!(predicate(ctx, ir, op), Some(0 | 1)),
        _ => false,
    }
}

/// The carry chains reading each signal of a module.
pub struct Fanout {
    readers: FxHashMap<ValueId, u32>,
}

impl Fanout {
    /// Counts, for each signal of `block`, the carry chains that read it
    /// (what folding removes aside, and sign tests where `wired_signs`),
    /// each once per signal.
    pub fn of(ctx: &Context, ir: &Ir, block: BlockId, fold: &Fold, wired_signs: bool) -> Fanout {
        let mut readers: FxHashMap<ValueId, u32> = FxHashMap::default();
        for op in ir.block_ops(block) {
            let wired = wired_signs && is_sign_test(ctx, ir, fold, op);
            if fold.is_free(op) || !chain(ctx, ir, op) || wired {
                continue;
            }
            let mut sources = FxHashSet::default();
            for v in ir.operands(op) {
                sources.extend(Self::sources(ctx, ir, fold, v));
            }
            for s in sources {
                *readers.entry(s).or_default() += 1;
            }
        }
        Fanout { readers }
    }

    /// The signals whose bits `v` carries: back through wiring, folding
    /// and inverters.
    fn sources(ctx: &Context, ir: &Ir, fold: &Fold, v: ValueId) -> Vec<ValueId> {
        let mut out = Vec::new();
        let mut stack = vec![v];
        let mut seen = FxHashSet::default();
        while let Some(mut x) = stack.pop() {
            x = fold.resolve(x);
            while let Some(y) = fold.inverts(x) {
                x = y;
            }
            if !seen.insert(x) {
                continue;
            }
            match ir.defining_op(x) {
                Some(op) if wiring(ctx.str(ir.op_name(op))) => stack.extend(ir.operands(op)),
                _ => out.push(x),
            }
        }
        out
    }

    /// The most carry chains that read one of the signals `v` carries
    /// (1 at least).
    pub fn of_value(&self, ctx: &Context, ir: &Ir, fold: &Fold, v: ValueId) -> u32 {
        Self::sources(ctx, ir, fold, v)
            .iter()
            .filter_map(|s| self.readers.get(s))
            .copied()
            .max()
            .unwrap_or(1)
            .max(1)
    }
}
