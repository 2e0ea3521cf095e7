//! Reads of a local buffer before anything writes it. A kernel that
//! loads an element of its own `memref.alloc`/`memref.alloca` before
//! any store reads undefined memory: the co-simulation's software side
//! (a fresh allocation) and the hardware (a RAM holding what it held)
//! may then legitimately differ. The check is conservative, to warn
//! only where no path can have written the buffer: a load is reported
//! when every other use of the buffer (a store, a DMA, a call: anything
//! but a load counts as a write) comes after it in program order and
//! shares no loop with it (a write later in a loop's body reaches the
//! next iteration's load). A view of the buffer (`memref.subview`,
//! `memref.cast`, ...) is the buffer: loads through it are its loads,
//! other uses its writes. Functions whose bodies branch between blocks
//! are not checked. One warning per buffer, at its first such load,
//! with a note at the allocation.

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
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        accesses(ctx, ir, ir.result(alloc, 0), &mut reads, &mut writes);
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

/// The ops that make a view of their first operand, a memref.
const VIEWS: [&str; 7] = [
    "memref.subview",
    "memref.cast",
    "memref.reinterpret_cast",
    "memref.collapse_shape",
    "memref.expand_shape",
    "memref.view",
    "memref.transpose",
];

/// The loads of `buffer` (into `reads`) and its other uses (`writes`),
/// through its views.
fn accesses(
    ctx: &Context,
    ir: &Ir,
    buffer: ValueId,
    reads: &mut Vec<OpId>,
    writes: &mut Vec<OpId>,
) {
    let owners: Vec<OpId> = ir.uses(buffer).map(|u| ir.use_owner(u)).collect();
    for o in owners {
        if VIEWS.contains(&ctx.str(ir.op_name(o))) && ir.operand(o, 0) == buffer {
            for r in ir.results(o).collect::<Vec<_>>() {
                accesses(ctx, ir, r, reads, writes);
            }
        } else if is_load_of(ctx, ir, o, buffer) {
            reads.push(o);
        } else {
            writes.push(o);
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use silica_ir::parser::{parse, ParseOptions};

    /// The lines of the loads warned about in `text`'s function `@f`.
    fn warned(text: &str) -> Vec<u32> {
        let mut ctx = crate::test_support::context();
        let m = parse(&mut ctx, "t.mlir", text.as_bytes(), ParseOptions::default())
            .unwrap_or_else(|d| panic!("{}", d.message));
        let func = crate::flow::front::find_top(&ctx, &m.ir, m.top, "f").unwrap();
        uninitialised_reads(&ctx, &m.ir, func)
            .iter()
            .map(|d| silica_ir::diag::file_line_col(&ctx, d.loc).map_or(0, |(_, l, _)| l))
            .collect()
    }

    #[test]
    fn a_load_through_a_view_before_any_write_is_warned() {
        let text = "func.func @f(%o: memref<4xi32>) {
  %t = memref.alloc() : memref<8xi32>
  %v = memref.subview %t[0] [4] [1] : memref<8xi32> to memref<4xi32, strided<[1]>>
  %c = memref.cast %v : memref<4xi32, strided<[1]>> to memref<?xi32, strided<[1]>>
  affine.for %i = 0 to 4 {
    %x = affine.load %c[%i] : memref<?xi32, strided<[1]>>
    affine.store %x, %o[%i] : memref<4xi32>
  }
  return
}";
        assert_eq!(warned(text), vec![6]);
    }

    #[test]
    fn a_store_through_a_view_writes_the_buffer() {
        let text = "func.func @f(%o: memref<8xi32>, %k: i32) {
  %t = memref.alloc() : memref<8xi32>
  %v = memref.cast %t : memref<8xi32> to memref<?xi32>
  affine.for %i = 0 to 8 {
    affine.store %k, %v[%i] : memref<?xi32>
  }
  affine.for %i = 0 to 8 {
    %x = affine.load %t[%i] : memref<8xi32>
    affine.store %x, %o[%i] : memref<8xi32>
  }
  return
}";
        assert!(warned(text).is_empty());
        // The store through the view after the load, in no loop with it.
        let late = "func.func @f(%o: memref<8xi32>, %k: i32) {
  %t = memref.alloc() : memref<8xi32>
  affine.for %i = 0 to 8 {
    %x = affine.load %t[%i] : memref<8xi32>
    affine.store %x, %o[%i] : memref<8xi32>
  }
  %v = memref.cast %t : memref<8xi32> to memref<?xi32>
  affine.for %i = 0 to 8 {
    affine.store %k, %v[%i] : memref<?xi32>
  }
  return
}";
        assert_eq!(warned(late), vec![4]);
    }
}
