//! `memref.copy` to llvm (MLIR's `MemRefCopyOpLowering`): between
//! contiguous memrefs (identity layout, or a static shape laid out row
//! major with any offset), one `llvm.intr.memcpy`; otherwise a call of the
//! runtime's `memrefCopy(element size, source, target)` on stack copies
//! of unranked descriptors, between `stacksave` and `stackrestore`.

use super::memref_parts;
use crate::conversion::{declare_function, GepIndex, Llvm};
use crate::dialect::types;
use silica_dialects::memref::layout::strides_and_offset;
use silica_ir::conversion::ConversionRewriter;
use silica_ir::types::DYNAMIC;
use silica_ir::{Context, OpId, Type, TypeKind, ValueId};

/// Whether `t` is a memref whose elements are one contiguous run.
fn is_contiguous(ctx: &Context, t: Type) -> bool {
    let TypeKind::MemRef { shape, layout, .. } = ctx.type_kind(t) else {
        return false;
    };
    if layout.is_none() {
        return true;
    }
    if shape.contains(&DYNAMIC) || shape.iter().product::<i64>() <= 0 {
        return false;
    }
    let Some((strides, _)) = strides_and_offset(ctx, t) else {
        return false;
    };
    // Inner dimensions with row-major strides, then only size-1 ones.
    let mut running = 1i64;
    let mut dim = strides.len();
    while dim > 0 && strides[dim - 1] == running {
        running = running.saturating_mul(shape[dim - 1]);
        dim -= 1;
    }
    shape[..dim].iter().all(|&s| s == 1)
}

pub(super) fn copy(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let src = cr.rw.ir.value_type(cr.rw.ir.operand(op, 0));
    let dst = cr.rw.ir.value_type(cr.rw.ir.operand(op, 1));
    if is_contiguous(cr.rw.ctx, src) && is_contiguous(cr.rw.ctx, dst) {
        memcpy(cr, op, operands, src)
    } else {
        runtime_copy(cr, op, operands, [src, dst])
    }
}

/// The size in bytes of one `element` (a GEP from null).
fn element_size(b: &mut Llvm<'_, '_>, element: Type) -> ValueId {
    let ptr = types::ptr(b.rw.ctx, 0);
    let null = b.zero(ptr);
    let one = b.gep(null, element, &[GepIndex::Const(1)], 0);
    b.value("llvm.ptrtoint", &[one], b.index, &[])
}

fn memcpy(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId], src: Type) -> bool {
    let Some((shape, element, _)) = memref_parts(cr.rw.ctx, src) else {
        return false;
    };
    let Some(element) = cr.convert_type(element) else {
        return false;
    };
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let mut count = b.index_const(1);
    for i in 0..shape.len() {
        let s = b.extract(operands[0], &[3, i as i64]);
        count = b.int_op("llvm.mul", count, s, 0);
    }
    let bytes = element_size(&mut b, element);
    let total = b.int_op("llvm.mul", count, bytes, 0);
    let mut ptrs = Vec::new();
    for &d in &operands[..2] {
        let base = b.extract(d, &[1]);
        let off = b.extract(d, &[2]);
        ptrs.push(b.gep(base, element, &[GepIndex::Value(off)], 0));
    }
    let i1 = b.rw.ctx.signless(1);
    let f = b.rw.ctx.int_attr(i1, 0);
    b.op(
        "llvm.intr.memcpy",
        &[ptrs[1], ptrs[0], total],
        &[],
        &[("isVolatile", f)],
    );
    cr.rw.erase_op(op);
    true
}

fn runtime_copy(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
    types_: [Type; 2],
) -> bool {
    let mut unranked = [None, None];
    for (u, &t) in unranked.iter_mut().zip(&types_) {
        let (element, space) = match cr.rw.ctx.type_kind(t) {
            TypeKind::MemRef {
                element,
                memory_space,
                ..
            }
            | TypeKind::UnrankedMemRef {
                element,
                memory_space,
            } => (*element, *memory_space),
            _ => return false,
        };
        let ty = cr.rw.ctx.intern_type(TypeKind::UnrankedMemRef {
            element,
            memory_space: space,
        });
        let Some(converted) = cr.convert_type(ty) else {
            return false;
        };
        *u = Some(converted);
    }
    let Some(element) = cr
        .rw
        .ctx
        .shaped(types_[0])
        .map(|s| s.1)
        .and_then(|e| cr.convert_type(e))
    else {
        return false;
    };
    let index = crate::conversion::index_type(cr);
    let ptr = types::ptr(cr.rw.ctx, 0);
    let void = types::void(cr.rw.ctx);
    declare_function(&mut cr.rw, op, "memrefCopy", &[index, ptr, ptr], void);
    let loc = cr.rw.ir.op_loc(op);
    let mut b = Llvm::new(cr, loc);
    let saved = b.value("llvm.intr.stacksave", &[], ptr, &[]);
    let mut descriptors = Vec::new();
    for ((&t, &d), u) in types_.iter().zip(operands).zip(unranked) {
        let Some((shape, _, _)) = memref_parts(b.rw.ctx, t) else {
            descriptors.push(d);
            continue;
        };
        // A ranked memref as an unranked one: its rank and a pointer to
        // a stack copy of its descriptor.
        let rank = b.rw.ctx.int_attr(index, shape.len() as i64);
        let rank = b.constant(rank, index);
        let slot = b.promote_descriptor(d);
        let mut packed = b.poison(u.expect("converted unranked type"));
        packed = b.insert(packed, rank, &[0]);
        packed = b.insert(packed, slot, &[1]);
        descriptors.push(packed);
    }
    let one = b.index_const(1);
    let source = b.store_on_stack(descriptors[0], one);
    let target = b.store_on_stack(descriptors[1], one);
    let size = element_size(&mut b, element);
    b.call("memrefCopy", &[size, source, target], &[]);
    b.op("llvm.intr.stackrestore", &[saved], &[], &[]);
    cr.rw.erase_op(op);
    true
}
