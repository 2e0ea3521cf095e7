//! `affine-loop-invariant-code-motion`: MLIR's affine LICM. Each
//! `affine.for`, innermost first, moves the ops of its body that do not
//! depend on its induction variable, its iteration arguments or ops left
//! behind to just before the loop: effect-free ops, nested
//! `affine.if`/`for`/`parallel` ops whose contents all qualify, and
//! affine loads/stores of a memref that no other op in the loop writes
//! (or, for a store, reads). Unlike mlir-opt-22, ops with memory effects
//! are moved only out of loops known to run at least once (upstream MLIR
//! has since made the same fix, for constant trip counts; here also trip
//! counts bounded below by 1 over the ranges of outer loops), and an op of
//! unknown effects on the memref counts as a writer.

use crate::bounds::OperandRanges;
use crate::for_op::{body, induction_var, is_for};
use crate::loops::build::iter_args;
use crate::loops::{constant_trip_count, loops_post_order, trip_count_map};
use rustc_hash::FxHashSet;
use silica_ir::dialect::{op_effects, Effects};
use silica_ir::pass::{Pass, PassInfo};
use silica_ir::rewrite::effects::is_memory_effect_free;
use silica_ir::{Context, Diagnostic, Ir, OpId, ValueId};

/// The memref of an affine load or store (MLIR's affine read/write
/// interfaces), and whether the op writes.
pub(crate) fn affine_access(ctx: &Context, ir: &Ir, op: OpId) -> Option<(ValueId, bool)> {
    match ctx.str(ir.op_name(op)) {
        "affine.load" | "affine.vector_load" => Some((ir.operand(op, 0), false)),
        "affine.store" | "affine.vector_store" => Some((ir.operand(op, 1), true)),
        _ => None,
    }
}

/// What one loop's analysis has seen so far (MLIR's `opsWithUsers` and
/// `opsToHoist`).
struct Invariance {
    lp: OpId,
    iv: ValueId,
    iter_args: Vec<ValueId>,
    with_users: FxHashSet<OpId>,
    to_hoist: FxHashSet<OpId>,
}

/// Whether some other op in the loop may write `memref` (or read it, when
/// `op` writes).
fn conflicting_user(
    ctx: &Context,
    ir: &Ir,
    st: &Invariance,
    op: OpId,
    memref: ValueId,
    writes: bool,
) -> bool {
    ir.uses(memref).any(|u| {
        let user = ir.use_owner(u);
        if user == op || !ir.is_ancestor(st.lp, user) {
            return false;
        }
        match op_effects(ctx, ir, user) {
            Effects::None | Effects::Alloc => false,
            Effects::Read => writes,
            _ => true,
        }
    })
}

impl Invariance {
    fn regions_invariant(&mut self, ctx: &Context, ir: &Ir, op: OpId) -> bool {
        let ops: Vec<OpId> = ir
            .regions(op)
            .flat_map(|r| ir.region_blocks(r))
            .flat_map(|b| ir.block_ops(b))
            .collect();
        ops.into_iter().all(|o| self.op_invariant(ctx, ir, o))
    }

    /// MLIR's `isOpLoopInvariant`.
    fn op_invariant(&mut self, ctx: &Context, ir: &Ir, op: OpId) -> bool {
        let name = ctx.str(ir.op_name(op));
        if matches!(name, "affine.if" | "affine.for" | "affine.parallel") {
            if !self.regions_invariant(ctx, ir, op) {
                return false;
            }
        } else if let Some((memref, writes)) = affine_access(ctx, ir, op) {
            self.with_users.insert(op);
            if conflicting_user(ctx, ir, self, op, memref, writes) {
                return false;
            }
        } else if !is_memory_effect_free(ctx, ir, op) {
            return false;
        }
        for v in ir.operands(op) {
            if v == self.iv || self.iter_args.contains(&v) {
                return false;
            }
            if let Some(d) = ir.defining_op(v) {
                if self.with_users.contains(&d) && !self.to_hoist.contains(&d) {
                    return false;
                }
            }
        }
        self.to_hoist.insert(op);
        true
    }
}

/// Whether the loop `lp` is known to run at least once: a constant trip
/// count above 0, or every result of its trip count map at least 1 over
/// the constant ranges of the map's operands (`0 to %i + 1` inside a loop
/// over `%i` from 0).
fn runs_at_least_once(ctx: &mut Context, ir: &mut Ir, lp: OpId) -> bool {
    if let Some(t) = constant_trip_count(ctx, ir, lp) {
        return t > 0;
    }
    let Some(tc) = trip_count_map(ctx, ir, lp) else {
        return false;
    };
    let ranges = OperandRanges::of(ctx, ir, &tc.operands);
    tc.map.results.iter().all(|e| {
        ranges
            .bound(e, tc.map.num_dims, false)
            .is_some_and(|l| l >= 1)
    })
}

/// Moves the invariant ops of the loop `lp` before it.
pub fn hoist_invariants(ctx: &mut Context, ir: &mut Ir, lp: OpId) {
    let (Some(block), Some(iv)) = (body(ir, lp), induction_var(ir, lp)) else {
        return;
    };
    let runs = runs_at_least_once(ctx, ir, lp);
    let mut st = Invariance {
        lp,
        iv,
        iter_args: iter_args(ir, lp),
        with_users: FxHashSet::default(),
        to_hoist: FxHashSet::default(),
    };
    let mut to_move = Vec::new();
    let ops: Vec<OpId> = ir.block_ops(block).collect();
    for op in ops {
        if ir.results(op).any(|r| ir.has_uses(r)) {
            st.with_users.insert(op);
        }
        if ctx.str(ir.op_name(op)) == "affine.yield" {
            continue;
        }
        if !runs && !is_memory_effect_free(ctx, ir, op) {
            continue;
        }
        if st.op_invariant(ctx, ir, op) {
            to_move.push(op);
        }
    }
    for op in to_move {
        ir.move_op_before(op, lp);
    }
}

struct LoopInvariantCodeMotion;

impl Pass for LoopInvariantCodeMotion {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        for lp in loops_post_order(ctx, ir, op) {
            if is_for(ctx, ir, lp) {
                hoist_invariants(ctx, ir, lp);
            }
        }
        Ok(())
    }
}

/// The `affine-loop-invariant-code-motion` pass.
pub static AFFINE_LOOP_INVARIANT_CODE_MOTION: PassInfo = PassInfo {
    argument: "affine-loop-invariant-code-motion",
    name: "AffineLoopInvariantCodeMotion",
    description: "Hoist loop invariant instructions outside of affine loops",
    anchor: Some("func.func"),
    options: &[],
    create: |_| Ok(Box::new(LoopInvariantCodeMotion)),
};
