//! `flatten = true` on a loop whose body is several sibling loops (a time
//! loop around a producer and a consumer sweep, as jacobi's): the
//! siblings are fused first, left to right, by the affine layer's
//! shifted fusion ([`fuse_shifted`]: the smallest shift of the later loop
//! that the dependence analysis proves legal, each body under a guard on
//! the fused counter where its range is shorter), so that the nest
//! becomes perfect and `flatten.rs` folds it into one pipeline. It runs
//! on the flow's copy of the input after unrolling and load reuse, so
//! the fused loops are the unrolled ones. A pair that cannot be fused
//! (the dependences allow no overlap, non-constant bounds, different
//! steps, an access the analysis cannot read) is left as it is with a
//! note saying why, and `flatten` then refuses the nest.

use crate::model::directives::{Directives, Log};
use silica_affine::for_op::body_ops;
use silica_affine::fusion::shift::fuse_shifted;
use silica_affine::loops::iter_args;
use silica_ir::{Context, Ir, OpId};

fn path(d: &Directives, op: OpId) -> String {
    d.loop_paths.get(&op).cloned().unwrap_or_default()
}

/// Fuses the sibling loops of every loop with `flatten = true` in `func`
/// (see the module doc); the report's notes.
pub fn fuse(
    ctx: &mut Context,
    ir: &mut Ir,
    func: OpId,
    d: &Directives,
    log: &mut Log,
) -> Vec<String> {
    let mut present = Vec::new();
    ir.walk(func, &mut |op| {
        if ctx.str(ir.op_name(op)) == "affine.for" {
            present.push(op);
        }
    });
    let mut asked: Vec<OpId> = present
        .into_iter()
        .filter(|op| {
            d.loops
                .get(op)
                .and_then(|l| l.flatten.as_ref())
                .is_some_and(|f| f.value)
        })
        .collect();
    asked.sort_by_key(|&op| path(d, op));
    let mut notes = Vec::new();
    for outer in asked {
        // A loop left empty (a scaling folded into a buffer's copy)
        // lifting drops: nothing to fuse.
        let is_for = |op: OpId| ctx.str(ir.op_name(op)) == "affine.for";
        let inner: Vec<OpId> = (body_ops(ir, outer).into_iter())
            .filter(|&op| !is_for(op) || !body_ops(ir, op).is_empty())
            .collect();
        let loops = inner
            .iter()
            .filter(|&&op| ctx.str(ir.op_name(op)) == "affine.for")
            .count();
        if loops < 2 || !iter_args(ir, outer).is_empty() {
            continue;
        }
        if loops < inner.len() {
            notes.push(format!(
                "{}: its loops not fused: its body holds code beside them (an unrolled loop's remainder, say)",
                path(d, outer)
            ));
            continue;
        }
        let first = inner[0];
        for &next in &inner[1..] {
            match fuse_shifted(ctx, ir, first, next) {
                Ok(f) => {
                    let plural = if f.shift == 1 { "" } else { "s" };
                    notes.push(format!(
                        "{}: {} fused into {} for flatten, shifted by {} iteration{plural} (the smallest shift the dependences allow)",
                        path(d, outer),
                        path(d, next),
                        path(d, first),
                        f.shift
                    ));
                    if let Some(p) = d.loops.get(&next).and_then(|l| l.pipeline.clone()) {
                        log.honoured(
                            &p,
                            &path(d, next),
                            p.value.describe(),
                            format!("fused into {}, pipelined with it", path(d, first)),
                        );
                    }
                }
                Err(why) => {
                    notes.push(format!(
                        "{}: {} not fused into {}: {why}",
                        path(d, outer),
                        path(d, next),
                        path(d, first)
                    ));
                    break;
                }
            }
        }
    }
    notes
}
