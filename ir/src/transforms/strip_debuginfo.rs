//! `strip-debuginfo`: every op and block argument location becomes
//! `loc(unknown)`.

use crate::context::Context;
use crate::diag::Diagnostic;
use crate::graph::{Ir, OpId};
use crate::pass::{Pass, PassInfo, PassOptions};

/// Replaces every location under `op` (itself included) with unknown.
pub fn strip_debuginfo(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let unknown = ctx.unknown_loc();
    let mut ops = Vec::new();
    ir.walk(op, &mut |o| ops.push(o));
    for o in ops {
        ir.set_op_loc(o, unknown);
        let blocks: Vec<_> = ir
            .regions(o)
            .flat_map(|r| ir.region_blocks(r).collect::<Vec<_>>())
            .collect();
        for b in blocks {
            for a in ir.block_args(b).to_vec() {
                ir.set_value_loc(a, unknown);
            }
        }
    }
}

struct StripDebugInfo;

impl Pass for StripDebugInfo {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        strip_debuginfo(ctx, ir, op);
        Ok(())
    }
}

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(StripDebugInfo))
}

/// The `strip-debuginfo` pass.
pub static STRIP_DEBUGINFO: PassInfo = PassInfo {
    argument: "strip-debuginfo",
    name: "StripDebugInfo",
    description: "Strip debug info from all operations",
    anchor: None,
    options: &[],
    create,
};
