//! `control-flow-sink`: ops without memory effects whose every use is in
//! one region of a conditional op (a region that runs at most once:
//! `scf.if`, `scf.index_switch`; not `affine.if`, as in MLIR) move to the start of that
//! region, operands first, as MLIR's `Sinker` does.

use crate::context::Context;
use crate::diag::Diagnostic;
use crate::graph::{Ir, OpId, RegionId};
use crate::pass::{Pass, PassInfo, PassOptions};
use crate::rewrite::effects::is_memory_effect_free;

/// Ops whose regions each run at most once.
const CONDITIONAL: &[&str] = &["scf.if", "scf.index_switch"];

fn sink_region(ctx: &Context, ir: &mut Ir, region: RegionId) -> usize {
    let mut stack: Vec<OpId> = ir
        .region_blocks(region)
        .flat_map(|b| ir.block_ops(b))
        .collect();
    let mut sunk = 0;
    while let Some(user) = stack.pop() {
        let operands: Vec<_> = ir.operands(user).collect();
        for v in operands {
            let Some(op) = ir.defining_op(v) else {
                continue;
            };
            if ir.op_block(op).and_then(|b| ir.block_region(b)) == Some(region) {
                continue;
            }
            let all_inside = ir
                .results(op)
                .all(|r| ir.uses(r).all(|u| ir.is_in_region(ir.use_owner(u), region)));
            if !all_inside || !is_memory_effect_free(ctx, ir, op) {
                continue;
            }
            let entry = ir.entry_block(region).expect("region with a block");
            match ir.first_op(entry) {
                Some(first) => ir.move_op_before(op, first),
                None => {
                    ir.detach_op(op);
                    ir.append_op(entry, op);
                }
            }
            sunk += 1;
            stack.push(op);
        }
    }
    sunk
}

/// Sinks ops into conditionally executed regions under `root`; returns
/// how many moved.
pub fn sink_into_conditional_regions(ctx: &Context, ir: &mut Ir, root: OpId) -> usize {
    let mut branches = Vec::new();
    collect(ctx, ir, root, &mut branches);
    let mut sunk = 0;
    for b in branches {
        for r in ir.regions(b).collect::<Vec<_>>() {
            if !ir.region_is_empty(r) {
                sunk += sink_region(ctx, ir, r);
            }
        }
    }
    sunk
}

fn collect(ctx: &Context, ir: &Ir, op: OpId, out: &mut Vec<OpId>) {
    for r in ir.regions(op) {
        for b in ir.region_blocks(r) {
            for o in ir.block_ops(b) {
                collect(ctx, ir, o, out);
            }
        }
    }
    if CONDITIONAL.contains(&ctx.str(ir.op_name(op))) {
        out.push(op);
    }
}

struct ControlFlowSink;

impl Pass for ControlFlowSink {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        sink_into_conditional_regions(ctx, ir, op);
        Ok(())
    }
}

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(ControlFlowSink))
}

/// The `control-flow-sink` pass.
pub static CONTROL_FLOW_SINK: PassInfo = PassInfo {
    argument: "control-flow-sink",
    name: "ControlFlowSink",
    description: "Sink operations into conditional blocks",
    anchor: None,
    options: &[],
    create,
};
