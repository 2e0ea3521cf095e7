//! Calls under a condition (`scf.if`, `affine.if`), inlined before
//! lifting. A callee is a submodule that the controller starts from a
//! state of its own, which no condition guards, so a guarded call is
//! replaced by its callee's body, as `silica opt --inline` would: the
//! statement functions of Polymer/Pluto outputs, called under
//! `affine.if`, become the code they stand for. A callee of more than one
//! block cannot go into a condition's single block: that call stays, and
//! the lifter refuses it at the call. Each inlining is a note.

use silica_dialects::transforms::inline::inline_call;
use silica_ir::{Context, Ir, OpId};

/// Inlines, in `func` of `ir`, every call that a condition guards
/// (calls that arrive with inlined code too); a note for each.
pub fn guarded_calls(ctx: &mut Context, ir: &mut Ir, func: OpId) -> Vec<String> {
    let mut notes = Vec::new();
    // Each round inlines one level of calls; a callee that calls itself
    // under its condition would go on forever.
    for _ in 0..MAX_DEPTH {
        let calls = guarded(ctx, ir, func);
        if calls.is_empty() {
            break;
        }
        for (call, callee) in calls {
            let at = silica_ir::diag::file_line_col(ctx, ir.op_loc(call))
                .map_or(String::new(), |(f, l, c)| format!(" at {f}:{l}:{c}"));
            notes.push(format!(
                "the call of '@{}'{at} is under a condition: its body is inlined there",
                super::call::function_name(ctx, ir, callee)
            ));
            inline_call(ctx, ir, call, callee);
        }
    }
    notes
}

/// How deep guarded calls are inlined.
const MAX_DEPTH: usize = 16;

/// The calls of `func` that a condition guards and whose callee has a
/// body of one block, with their callees.
fn guarded(ctx: &Context, ir: &Ir, func: OpId) -> Vec<(OpId, OpId)> {
    let mut calls = Vec::new();
    ir.walk(func, &mut |op| {
        if ctx.str(ir.op_name(op)) != "func.call" || !under_condition(ctx, ir, op, func) {
            return;
        }
        let Ok(callee) = super::call::callee_of(ctx, ir, op) else {
            return;
        };
        let blocks = ir
            .regions(callee)
            .next()
            .map_or(0, |r| ir.region_blocks(r).count());
        if blocks == 1 && callee != func {
            calls.push((op, callee));
        }
    });
    calls
}

/// Whether an `scf.if` or `affine.if` holds `op` (below `func`).
fn under_condition(ctx: &Context, ir: &Ir, op: OpId, func: OpId) -> bool {
    let mut at = ir.parent_op(op);
    while let Some(p) = at.filter(|&p| p != func) {
        if matches!(ctx.str(ir.op_name(p)), "scf.if" | "affine.if") {
            return true;
        }
        at = ir.parent_op(p);
    }
    false
}
