//! Reads of a local buffer before anything writes it. A kernel that
//! loads an element of its own `memref.alloc`/`memref.alloca` before
//! any store reads undefined memory: the co-simulation's software side
//! (a fresh allocation) and the hardware (a RAM holding what it held)
//! may then legitimately differ. The check is conservative, to warn
//! only where no path can have written the buffer: a load is reported
//! when every other use of the buffer (a store, a DMA, a call, a view:
//! anything but a load counts as a write) comes after it in program
//! order and shares no loop with it (a write later in a loop's body
//! reaches the next iteration's load). Functions whose bodies branch
//! between blocks are not checked. One warning per buffer, at its first
//! such load, with a note at the allocation.

use silica_ir::diag::Severity;
use silica_ir::{Context, Diagnostic, Ir, OpId, ValueId};
use std::collections::HashMap;

/// The warnings for the reads of `func`'s local buffers before any
/// write.
pub fn uninitialised_reads(ctx: &Context, ir: &Ir, func: OpId) -> Vec<Diagnostic> {
    let mut order = Vec::new();
    ir.walk(func, &mut |o| order.push(o));
    let branches = order
        .iter()
        .any(|&o| ir.regions(o).any(|r| ir.region_blocks(r).count() > 1));
    if branches {
        return Vec::new();
    }
    let at: HashMap<OpId, usize> = order.iter().enumerate().map(|(i, &o)| (o, i)).collect();
    let position = |op: OpId| at[&op];
    let mut warnings = Vec::new();
    for &alloc in &order {
        if !matches!(ctx.str(ir.op_name(alloc)), "memref.alloc" | "memref.alloca") {
            continue;
        }
        let buffer = ir.result(alloc, 0);
        let (reads, writes): (Vec<OpId>, Vec<OpId>) = ir
            .uses(buffer)
            .map(|u| ir.use_owner(u))
            .partition(|&o| is_load_of(ctx, ir, o, buffer));
        let mut reads: Vec<(usize, OpId)> = reads.into_iter().map(|r| (position(r), r)).collect();
        reads.sort_unstable();
        let first = reads.into_iter().find(|&(at, read)| {
            writes
                .iter()
                .all(|&w| position(w) > at && !share_a_loop(ctx, ir, w, read, func))
        });
        if let Some((_, read)) = first {
            let warning = Diagnostic {
                severity: Severity::Warning,
                loc: ir.op_loc(read),
                message: "this load reads a local buffer before anything writes it: the element \
                          is uninitialised (the co-simulation's software and hardware may differ)"
                    .into(),
                notes: Vec::new(),
            };
            warnings.push(warning.with_note(ir.op_loc(alloc), "the buffer is allocated here"));
        }
    }
    warnings
}

/// Whether `op` is a load from `buffer`.
fn is_load_of(ctx: &Context, ir: &Ir, op: OpId, buffer: ValueId) -> bool {
    matches!(ctx.str(ir.op_name(op)), "affine.load" | "memref.load")
        && ir.operand(op, 0) == buffer
        && ir.operands(op).skip(1).all(|v| v != buffer)
}

/// Whether `a` and `b` are both nested in an op (below `func`) that may
/// run its body again: anything with regions but a conditional.
fn share_a_loop(ctx: &Context, ir: &Ir, a: OpId, b: OpId, func: OpId) -> bool {
    let mut p = ir.parent_op(a);
    while let Some(op) = p {
        if op == func {
            return false;
        }
        let conditional = matches!(ctx.str(ir.op_name(op)), "affine.if" | "scf.if");
        if !conditional && ir.is_ancestor(op, b) {
            return true;
        }
        p = ir.parent_op(op);
    }
    false
}
