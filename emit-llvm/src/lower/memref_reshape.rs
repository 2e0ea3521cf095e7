//! `memref.reshape` to llvm with a shape operand of static size (MLIR's
//! `MemRefReshapeOpLowering`): the result descriptor takes the source's
//! pointers and a zero offset; from the innermost dimension out, each
//! size is the result type's, or loaded from the shape operand where it
//! is dynamic, and each stride is the type's, or the product of the inner
//! sizes where it is dynamic.

use super::{GepIndex, Llvm};
use silica_dialects::memref_layout::strides_and_offset;
use silica_ir::conversion::ConversionRewriter;
use silica_ir::types::DYNAMIC;
use silica_ir::{OpId, TypeKind, ValueId};

/// `nsw`-free `inbounds | nuw` on the shape load's address, as MLIR.
const INBOUNDS_NUW: u32 = 7;

pub(super) fn reshape(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let result = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let shape_ty = cr.rw.ir.value_type(cr.rw.ir.operand(op, 1));
    let (
        TypeKind::MemRef { shape, .. },
        TypeKind::MemRef {
            shape: shape_shape,
            element: shape_element,
            ..
        },
    ) = (
        cr.rw.ctx.type_kind(result).clone(),
        cr.rw.ctx.type_kind(shape_ty).clone(),
    )
    else {
        return false;
    };
    if shape_shape.contains(&DYNAMIC) {
        return false;
    }
    let Some((strides, offset)) = strides_and_offset(cr.rw.ctx, result) else {
        return false;
    };
    let (Some(to), Some(shape_element_ty)) =
        (cr.convert_type(result), cr.convert_type(shape_element))
    else {
        return false;
    };
    let index_element = matches!(cr.rw.ctx.type_kind(shape_element), TypeKind::Index);
    let loc = cr.rw.ir.op_loc(op);
    let index_ty = cr.rw.ctx.index_type();
    let mut b = Llvm::new(cr, loc);
    let index = b.index;
    if shape_element_ty != index {
        return false;
    }
    let mut d = b.poison(to);
    let allocated = b.extract(operands[0], &[0]);
    let aligned = b.extract(operands[0], &[1]);
    d = b.insert(d, allocated, &[0]);
    d = b.insert(d, aligned, &[1]);
    let o = b.index_const(offset);
    d = b.insert(d, o, &[2]);
    let mut stride: Option<ValueId> = None;
    for i in (0..shape.len()).rev() {
        let s = if strides[i] != DYNAMIC {
            b.index_const(strides[i])
        } else {
            match stride {
                Some(s) => s,
                None => b.index_const(1),
            }
        };
        let size = if shape[i] != DYNAMIC {
            b.index_const(shape[i])
        } else {
            let at = b.index_const(i as i64);
            let base = b.extract(operands[1], &[1]);
            let ptr = b.gep(base, shape_element_ty, &[GepIndex::Value(at)], INBOUNDS_NUW);
            let mut v = b.value("llvm.load", &[ptr], shape_element_ty, &[]);
            if index_element {
                // As MLIR: the load's `index` result is cast back and forth.
                let cast = silica_ir::conversion::CAST;
                let back = b.value(cast, &[v], index_ty, &[]);
                v = b.value(cast, &[back], index, &[]);
            }
            v
        };
        d = b.insert(d, size, &[3, i as i64]);
        d = b.insert(d, s, &[4, i as i64]);
        stride = Some(b.int_op("llvm.mul", s, size, 0));
    }
    cr.replace_op(op, &[d]);
    true
}
