//! `hoist = true` on a loop: after the loop directives unrolled (so the
//! copies a pipelined loop holds of the loops inside it are there), the
//! loop's invariant code moves before it with the affine layer's LICM
//! (`silica_affine::licm::hoist_invariants`): effect-free operations of
//! operands defined outside, and loads of arrays that nothing in the loop
//! writes, in a loop that runs at least once. Their results are then held
//! in registers through the loop instead of being computed again in every
//! iteration, so a pipelined loop's port and unit bounds no longer count
//! them (2mm's `alpha * A[i][k]` in the `j` loop its `k` loop was
//! unrolled into); the code runs in states of its own before each entry
//! of the loop, a trade of latency for multipliers and ports that
//! `silica dse` can explore. Not on a loop of a nest that `flatten` folds
//! (the code would be sunk back into the body).

use crate::model::directives::{Directives, Log};
use silica_ir::{Context, Ir, OpId};

/// The operations under `root`: all of them, and the multiplications and
/// loads among them.
fn census(ctx: &Context, ir: &Ir, root: OpId) -> (usize, usize, usize) {
    let (mut all, mut muls, mut loads) = (0, 0, 0);
    ir.walk(root, &mut |o| {
        all += 1;
        match ctx.str(ir.op_name(o)) {
            "arith.muli" | "arith.mulf" => muls += 1,
            "affine.load" | "memref.load" => loads += 1,
            _ => {}
        }
    });
    (all, muls, loads)
}

/// The loop with a `flatten = true` directive around `op`, if any.
fn flattened_by(ir: &Ir, d: &Directives, op: OpId) -> Option<OpId> {
    let mut p = ir.parent_op(op);
    while let Some(q) = p {
        if d.loops
            .get(&q)
            .and_then(|l| l.flatten.as_ref())
            .is_some_and(|f| f.value)
        {
            return Some(q);
        }
        p = ir.parent_op(q);
    }
    None
}

/// Applies the `hoist` directives to the loops of `ir` (after unrolling).
pub fn hoist(ctx: &mut Context, ir: &mut Ir, d: &Directives, log: &mut Log) {
    let mut asked: Vec<(OpId, String)> = d
        .loops
        .iter()
        .filter(|(_, l)| l.hoist.as_ref().is_some_and(|h| h.value))
        .map(|(&op, _)| (op, d.loop_paths.get(&op).cloned().unwrap_or_default()))
        .collect();
    asked.sort_by(|a, b| a.1.cmp(&b.1));
    for (op, path) in asked {
        let Some(s) = d.loops.get(&op).and_then(|l| l.hoist.clone()) else {
            continue;
        };
        let directive = "hoist".to_string();
        if ir.is_erased(op) {
            log.refused(&s, &path, directive, "the loop was unrolled away".into());
            continue;
        }
        if ctx.str(ir.op_name(op)) != "affine.for" {
            log.refused(
                &s,
                &path,
                directive,
                "only affine.for loops are hoisted from".into(),
            );
            continue;
        }
        if let Some(f) = flattened_by(ir, d, op) {
            let by = d.loop_paths.get(&f).cloned().unwrap_or_default();
            log.refused(
                &s,
                &path,
                directive,
                format!(
                    "it is in the nest that flatten folds at {by}, which would sink the code back"
                ),
            );
            continue;
        }
        let (all, muls, loads) = census(ctx, ir, op);
        silica_affine::licm::hoist_invariants(ctx, ir, op);
        let (left, muls_left, loads_left) = census(ctx, ir, op);
        if left == all {
            log.refused(
                &s,
                &path,
                directive,
                "nothing in the loop is invariant (or it may run no iteration)".into(),
            );
            continue;
        }
        log.honoured(
            &s,
            &path,
            directive,
            format!(
                "{} operation(s) moved before the loop ({} multiplication(s), {} load(s))",
                all - left,
                muls - muls_left,
                loads - loads_left
            ),
        );
    }
}
