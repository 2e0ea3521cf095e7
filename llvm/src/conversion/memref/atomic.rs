//! memref's atomics to llvm: `memref.atomic_rmw` as one `llvm.atomicrmw`
//! (`acq_rel`), and `memref.generic_atomic_rmw` as MLIR lowers it: load
//! the element, then a loop that computes the new value from the current
//! one (the op's body, cloned) and retries `llvm.cmpxchg` until it
//! succeeds. Both address the element as loads do, without no-wrap
//! flags.

use crate::conversion::Llvm;
use silica_ir::conversion::ConversionRewriter;
use silica_ir::dialect::inherent_attr;
use silica_ir::{OpId, ValueId};

/// Orderings as the llvm dialect numbers them.
const MONOTONIC: i64 = 2;
const ACQ_REL: i64 = 6;

/// memref atomic kinds and their `llvm.atomicrmw` operations (`mulf` and
/// `muli` have none).
const KINDS: &[(&str, &str)] = &[
    ("addf", "fadd"),
    ("addi", "add"),
    ("andi", "_and"),
    ("assign", "xchg"),
    ("maximumf", "fmaximum"),
    ("maxnumf", "fmax"),
    ("maxs", "max"),
    ("maxu", "umax"),
    ("minimumf", "fminimum"),
    ("minnumf", "fmin"),
    ("mins", "min"),
    ("minu", "umin"),
    ("ori", "_or"),
    ("xori", "_xor"),
];

impl Llvm<'_, '_> {
    /// An ordering property value.
    fn ordering(&mut self, value: i64) -> silica_ir::Attr {
        let ctx = self.ctx();
        let t = ctx.signless(64);
        ctx.int_attr(t, value)
    }
}

pub(super) fn atomic_rmw(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
) -> bool {
    let memref = cr.rw.ir.value_type(cr.rw.ir.operand(op, 1));
    let kind = inherent_attr(cr.rw.ctx, cr.rw.ir, op, "kind")
        .map(|a| crate::dialect::attrs::bits_of(cr.rw.ctx, a) as usize)
        .and_then(|k| silica_dialects::memref::atomic::ATOMIC_KINDS.get(k));
    let Some(bin_op) = kind
        .and_then(|k| KINDS.iter().find(|(n, _)| n == k))
        .map(|p| p.1)
    else {
        return false;
    };
    let Some(bin_op) = crate::dialect::ops::ATOMIC_BIN_OPS
        .iter()
        .position(|n| *n == bin_op)
    else {
        return false;
    };
    let result = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let Some(result) = cr.convert_type(result) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let Some(ptr) = b.element_ptr(memref, operands[1], &operands[2..], (0, 0)) else {
        return false;
    };
    let t64 = b.rw.ctx.signless(64);
    let bin_op = b.rw.ctx.int_attr(t64, bin_op as i64);
    let ordering = b.ordering(ACQ_REL);
    let v = b.value(
        "llvm.atomicrmw",
        &[ptr, operands[0]],
        result,
        &[("bin_op", bin_op), ("ordering", ordering)],
    );
    cr.replace_op(op, &[v]);
    true
}

pub(super) fn generic_atomic_rmw(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
) -> bool {
    let memref = cr.rw.ir.value_type(cr.rw.ir.operand(op, 0));
    let Some(element) = cr.rw.ctx.shaped(memref).map(|s| s.1) else {
        return false;
    };
    let Some(value_ty) = cr.convert_type(element) else {
        return false;
    };
    let Some(body) = cr
        .rw
        .ir
        .regions(op)
        .next()
        .and_then(|r| cr.rw.ir.entry_block(r))
    else {
        return false;
    };
    let Some(current) = cr.rw.ir.op_block(op) else {
        return false;
    };
    // The new value must be the body's argument or one of its results.
    let Some(yield_op) = cr.rw.ir.last_op(body) else {
        return false;
    };
    let yielded = cr.rw.ir.operand(yield_op, 0);
    let from_body = match cr.rw.ir.defining_op(yielded) {
        Some(def) => cr.rw.ir.op_block(def) == Some(body) && def != yield_op,
        None => cr.rw.ir.block_args(body).first() == Some(&yielded),
    };
    if !from_body {
        cr.emit(op, "result not defined in region");
        return false;
    }
    let loc = cr.rw.ir.op_loc(op);
    let loop_block = cr.rw.ir.split_block(current, Some(op));
    let loaded = cr.rw.ir.add_block_arg(loop_block, value_ty, Some(loc));
    let end = cr.rw.ir.split_block(loop_block, cr.rw.ir.next_op(op));
    cr.rw.set_insertion_point_to_end(current);
    let mut b = Llvm::new(cr, loc);
    let Some(ptr) = b.element_ptr(memref, operands[0], &operands[1..], (0, 0)) else {
        return false;
    };
    let init = b.value("llvm.load", &[ptr], value_ty, &[]);
    b.branch("llvm.br", &[init], &[loop_block], &[]);
    // The body, cloned into the loop with its argument as the loop's.
    cr.rw.set_insertion_point(op);
    let arg = cr.rw.ir.block_args(body)[0];
    let mut mapping = rustc_hash::FxHashMap::default();
    mapping.insert(arg, loaded);
    let body_ops: Vec<OpId> = cr.rw.ir.block_ops(body).collect();
    let (yield_op, computing) = body_ops.split_last().expect("atomic_yield terminator");
    for &o in computing {
        let clone = cr.rw.clone_op(o);
        let n = cr.rw.ir.num_operands(clone);
        for i in 0..n {
            let v = cr.rw.ir.operand(clone, i);
            if let Some(&m) = mapping.get(&v) {
                cr.rw.set_operand(clone, i, m);
            }
        }
        let pairs: Vec<(ValueId, ValueId)> =
            cr.rw.ir.results(o).zip(cr.rw.ir.results(clone)).collect();
        mapping.extend(pairs);
    }
    let yielded = cr.rw.ir.operand(*yield_op, 0);
    let new_value = mapping.get(&yielded).copied().unwrap_or(yielded);
    let mut b = Llvm::new(cr, loc);
    let i1 = b.rw.ctx.signless(1);
    let pair = crate::dialect::types::literal_struct(b.rw.ctx, &[value_ty, i1], false);
    let success = b.ordering(ACQ_REL);
    let failure = b.ordering(MONOTONIC);
    let cmpxchg = b.value(
        "llvm.cmpxchg",
        &[ptr, loaded, new_value],
        pair,
        &[("success_ordering", success), ("failure_ordering", failure)],
    );
    let new_loaded = b.extract(cmpxchg, &[0]);
    let ok = b.extract(cmpxchg, &[1]);
    let segments = b.rw.ctx.int_array_attr(32, &[1, 0, 1]);
    b.branch(
        "llvm.cond_br",
        &[ok, new_loaded],
        &[end, loop_block],
        &[(silica_ir::format::SEGMENTS, segments)],
    );
    cr.replace_op(op, &[new_loaded]);
    true
}
