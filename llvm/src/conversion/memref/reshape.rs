//! `memref.reshape` to llvm with a shape operand of static size (MLIR's
//! `MemRefReshapeOpLowering`): the result descriptor takes the source's
//! pointers and a zero offset; from the innermost dimension out, each
//! size is the result type's, or loaded from the shape operand where it
//! is dynamic, and each stride is the type's, or the product of the inner
//! sizes where it is dynamic. A shape of dynamic size gives an unranked
//! result: its ranked descriptor is built on the stack, the sizes copied
//! from the shape and the strides computed by a loop from the innermost
//! dimension out.

use crate::conversion::{GepIndex, Llvm};
use silica_dialects::memref::layout::strides_and_offset;
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
        return unranked_reshape(cr, op, operands);
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

/// `memref.reshape` to an unranked memref: a stack copy of the source's
/// pointers and offset followed by the sizes (loaded from the shape) and
/// the strides (running products), filled innermost first by a loop.
fn unranked_reshape(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    let result = cr.rw.ir.value_type(cr.rw.ir.result(op, 0));
    let shape_ty = cr.rw.ir.value_type(cr.rw.ir.operand(op, 1));
    let source_ty = cr.rw.ir.value_type(cr.rw.ir.operand(op, 0));
    if !matches!(cr.rw.ctx.type_kind(source_ty), TypeKind::MemRef { .. }) {
        return false;
    }
    let Some((_, shape_element)) = cr.rw.ctx.shaped(shape_ty) else {
        return false;
    };
    let index_ty = cr.rw.ctx.index_type();
    let (Some(to), Some(current)) = (cr.convert_type(result), cr.rw.ir.op_block(op)) else {
        return false;
    };
    if shape_element != index_ty {
        return false;
    }
    let loc = cr.rw.ir.op_loc(op);
    // The blocks: the loop's header (dimension, stride), its body, and
    // the rest of the current block.
    let end = cr.rw.ir.split_block(current, Some(op));
    let header = cr.rw.ir.create_block();
    let body = cr.rw.ir.create_block();
    cr.rw.ir.insert_block_before(end, header);
    cr.rw.ir.insert_block_before(end, body);
    cr.rw.set_insertion_point_to_end(current);
    let mut b = Llvm::new(cr, loc);
    let index = b.index;
    let rank = b.extract(operands[1], &[3, 0]);
    let mut d = b.poison(to);
    d = b.insert(d, rank, &[0]);
    let bytes = crate::conversion::func::unranked_descriptor_bytes(&mut b, d);
    let ptr = crate::dialect::types::ptr(b.rw.ctx, 0);
    let i8t = b.rw.ctx.signless(8);
    let e = b.rw.ctx.intern_attr(silica_ir::AttrKind::Type(i8t));
    let slot = b.value("llvm.alloca", &[bytes], ptr, &[("elem_type", e)]);
    d = b.insert(d, slot, &[1]);
    let allocated = b.extract(operands[0], &[0]);
    let aligned = b.extract(operands[0], &[1]);
    let offset = b.extract(operands[0], &[2]);
    let source_ptr = b.rw.ir.value_type(allocated);
    b.op("llvm.store", &[allocated, slot], &[], &[]);
    let at = b.gep(slot, source_ptr, &[GepIndex::Const(1)], 0);
    b.op("llvm.store", &[aligned, at], &[], &[]);
    let at = b.gep(slot, source_ptr, &[GepIndex::Const(2)], 0);
    b.op("llvm.store", &[offset, at], &[], &[]);
    let header_ty = crate::dialect::types::literal_struct(
        b.rw.ctx,
        &[source_ptr, source_ptr, index, index],
        false,
    );
    let sizes = b.gep(
        slot,
        header_ty,
        &[GepIndex::Const(0), GepIndex::Const(3)],
        0,
    );
    let strides = b.gep(sizes, index, &[GepIndex::Value(rank)], 0);
    let shape = b.extract(operands[1], &[1]);
    let one = b.index_const(1);
    let last = b.int_op("llvm.sub", rank, one, 0);
    b.branch("llvm.br", &[last, one], &[header], &[]);
    // header(dim, stride): dim >= 0 ? body : end
    let dim = b.rw.ir.add_block_arg(header, index, Some(loc));
    let stride = b.rw.ir.add_block_arg(header, index, Some(loc));
    b.rw.set_insertion_point_to_end(header);
    let zero = b.index_const(0);
    let more = b.icmp("sge", dim, zero);
    let segments = b.rw.ctx.int_array_attr(32, &[1, 0, 0]);
    b.branch(
        "llvm.cond_br",
        &[more],
        &[body, end],
        &[(silica_ir::format::SEGMENTS, segments)],
    );
    // body: sizes[dim] = shape[dim]; strides[dim] = stride
    b.rw.set_insertion_point_to_end(body);
    let at = b.gep(shape, index, &[GepIndex::Value(dim)], 0);
    let size = b.value("llvm.load", &[at], index, &[]);
    let at = b.gep(sizes, index, &[GepIndex::Value(dim)], 0);
    b.op("llvm.store", &[size, at], &[], &[]);
    let at = b.gep(strides, index, &[GepIndex::Value(dim)], 0);
    b.op("llvm.store", &[stride, at], &[], &[]);
    let next_stride = b.int_op("llvm.mul", stride, size, 0);
    let next_dim = b.int_op("llvm.sub", dim, one, 0);
    b.branch("llvm.br", &[next_dim, next_stride], &[header], &[]);
    cr.rw.set_insertion_point(op);
    cr.replace_op(op, &[d]);
    true
}
