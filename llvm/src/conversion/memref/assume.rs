//! The memref ops that lower to `llvm.intr.assume` with operand bundles:
//! `memref.assume_alignment` (an `"align"` bundle on the address of the
//! first element) and `memref.distinct_objects` (a `"separate_storage"`
//! bundle for each pair of aligned pointers). Both then stand for their
//! operands.

use crate::conversion::Llvm;
use silica_ir::conversion::ConversionRewriter;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, OpId, ValueId};

/// `llvm.intr.assume true ["<tag>"(values)]`.
fn assume(b: &mut Llvm<'_, '_>, truth: ValueId, tag: &str, values: &[ValueId]) {
    let ctx = b.ctx();
    let sizes = ctx.int_array_attr(32, &[values.len() as i64]);
    let t = ctx.string_attr(tag.as_bytes());
    let tags = ctx.intern_attr(AttrKind::Array(Box::new([t])));
    let mut operands = vec![truth];
    operands.extend_from_slice(values);
    b.op(
        "llvm.intr.assume",
        &operands,
        &[],
        &[("op_bundle_sizes", sizes), ("op_bundle_tags", tags)],
    );
}

/// `llvm.mlir.constant(true) : i1`
fn truth(b: &mut Llvm<'_, '_>) -> ValueId {
    let ctx = b.ctx();
    let i1 = ctx.signless(1);
    let t = ctx.int_attr(i1, 1);
    b.constant(t, i1)
}

pub(super) fn assume_alignment(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
) -> bool {
    let memref = cr.rw.ir.value_type(cr.rw.ir.operand(op, 0));
    let alignment =
        match inherent_attr(cr.rw.ctx, cr.rw.ir, op, "alignment").map(|a| cr.rw.ctx.attr_kind(a)) {
            Some(AttrKind::Integer { value, .. }) => i64::try_from(value).ok(),
            _ => None,
        };
    let Some(alignment) = alignment else {
        return false;
    };
    if cr.convert_type(memref).is_none() {
        return false;
    }
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let Some(ptr) = b.element_ptr(memref, operands[0], &[], (0, 0)) else {
        return false;
    };
    let t = truth(&mut b);
    let a = b.index_const(alignment);
    assume(&mut b, t, "align", &[ptr, a]);
    cr.replace_op(op, &[operands[0]]);
    true
}

pub(super) fn distinct_objects(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
) -> bool {
    let ranked = cr.rw.ir.operands(op).all(|v| {
        matches!(
            cr.rw.ctx.type_kind(cr.rw.ir.value_type(v)),
            silica_ir::TypeKind::MemRef { .. }
        )
    });
    if !ranked {
        return false;
    }
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    if operands.len() > 1 {
        let ptrs: Vec<ValueId> = operands.iter().map(|&d| b.extract(d, &[1])).collect();
        let t = truth(&mut b);
        for i in 0..ptrs.len() {
            for j in i + 1..ptrs.len() {
                assume(&mut b, t, "separate_storage", &[ptrs[i], ptrs[j]]);
            }
        }
    }
    cr.replace_op(op, operands);
    true
}
