//! memref folds, as MLIR's: `memref.dim` of a static extent or of the
//! size operand of the allocation, `memref.rank` of a ranked memref,
//! identity reshapes, subviews, views and memory-space casts, chains of
//! memory-space casts and of equal alignment assumptions, views of casts,
//! and casts to the type they start from.

use silica_ir::dialect::inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::rewrite::{FoldCtx, FoldResult};
use silica_ir::types::DYNAMIC;
use silica_ir::{Attr, AttrKind, OpId, TypeKind, ValueId};

fn defined_by(fc: &FoldCtx<'_>, v: ValueId, name: &str) -> Option<OpId> {
    let d = fc.ir.defining_op(v)?;
    (fc.ctx.str(fc.ir.op_name(d)) == name).then_some(d)
}

/// `memref.dim`: a static extent, or the allocation's size operand; of a
/// cast, the dimension of its source.
pub fn fold_dim(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let r = fold_static_dim(fc, op, c);
    if r != FoldResult::Fail {
        return r;
    }
    fold_cast_operands(fc, op, Some(1))
}

fn fold_static_dim(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let Some(index) = c
        .get(1)
        .copied()
        .flatten()
        .and_then(|a| match fc.ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
            _ => None,
        })
    else {
        return FoldResult::Fail;
    };
    let source = fc.ir.operand(op, 0);
    let shape = match fc.ctx.type_kind(fc.ir.value_type(source)) {
        TypeKind::MemRef { shape, .. } => shape.to_vec(),
        _ => return FoldResult::Fail,
    };
    if index < 0 || index as usize >= shape.len() {
        return FoldResult::Fail;
    }
    let i = index as usize;
    if shape[i] != DYNAMIC {
        let ty = fc.ir.value_type(fc.ir.result(op, 0));
        return FoldResult::attr(fc.ctx.int_attr(ty, shape[i]));
    }
    let dynamic_index = shape[..i].iter().filter(|&&d| d == DYNAMIC).count();
    for alloc in ["memref.alloc", "memref.alloca"] {
        if let Some(a) = defined_by(fc, source, alloc) {
            let sizes = segment_sizes(fc.ctx, fc.ir, a)
                .and_then(|s| s.first().copied())
                .unwrap_or(0);
            if dynamic_index < sizes {
                return FoldResult::value(fc.ir.operand(a, dynamic_index));
            }
        }
    }
    FoldResult::Fail
}

/// Replaces operands made by `memref.cast` of a ranked memref with the
/// cast's source (MLIR's `foldMemRefCast`); `value` is an operand left
/// alone (the value a store writes).
fn fold_cast_operands(fc: &mut FoldCtx<'_>, op: OpId, value: Option<usize>) -> FoldResult {
    let mut folded = false;
    for i in 0..fc.ir.num_operands(op) {
        if Some(i) == value {
            continue;
        }
        let v = fc.ir.operand(op, i);
        let Some(cast) = defined_by(fc, v, "memref.cast") else {
            continue;
        };
        let source = fc.ir.operand(cast, 0);
        if matches!(
            fc.ctx.type_kind(fc.ir.value_type(source)),
            TypeKind::MemRef { .. }
        ) {
            fc.ir.set_operand(op, i, source);
            folded = true;
        }
    }
    if folded {
        FoldResult::InPlace
    } else {
        FoldResult::Fail
    }
}

/// `memref.load`, `dealloc` and `prefetch` of a cast use its source.
pub fn fold_cast_users(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    fold_cast_operands(fc, op, None)
}

/// `memref.store` and `atomic_rmw` to a cast use its source.
pub fn fold_cast_writers(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    fold_cast_operands(fc, op, Some(0))
}

/// `memref.rank` of a ranked memref.
pub fn fold_rank(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let source = fc.ir.operand(op, 0);
    let TypeKind::MemRef { shape, .. } = fc.ctx.type_kind(fc.ir.value_type(source)) else {
        return FoldResult::Fail;
    };
    let rank = shape.len();
    let ty = fc.ir.value_type(fc.ir.result(op, 0));
    FoldResult::attr(fc.ctx.int_attr(ty, rank))
}

/// `memref.memory_space_cast`: to its own type is its source; of another
/// memory_space_cast, it casts that one's source.
pub fn fold_memory_space_cast(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let source = fc.ir.operand(op, 0);
    if fc.ir.value_type(source) == fc.ir.value_type(fc.ir.result(op, 0)) {
        return FoldResult::value(source);
    }
    if let Some(inner) = defined_by(fc, source, "memref.memory_space_cast") {
        let original = fc.ir.operand(inner, 0);
        fc.ir.set_operand(op, 0, original);
        return FoldResult::InPlace;
    }
    FoldResult::Fail
}

/// `memref.assume_alignment` of one with the same alignment is that one.
pub fn fold_assume_alignment(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let source = fc.ir.operand(op, 0);
    let Some(inner) = defined_by(fc, source, "memref.assume_alignment") else {
        return FoldResult::Fail;
    };
    let alignment = |o| inherent_attr(fc.ctx, fc.ir, o, "alignment");
    if alignment(inner).is_some() && alignment(inner) == alignment(op) {
        return FoldResult::value(source);
    }
    FoldResult::Fail
}

/// `memref.view`: at byte shift zero to the source's own static
/// identity-layout type is the source; of a cast from a ranked memref, it
/// views that memref.
pub fn fold_view(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<Attr>]) -> FoldResult {
    let source = fc.ir.operand(op, 0);
    let ty = fc.ir.value_type(fc.ir.result(op, 0));
    let static_identity = matches!(fc.ctx.type_kind(ty),
        TypeKind::MemRef { shape, layout: None, .. } if !shape.contains(&DYNAMIC));
    let zero_shift = c.get(1).copied().flatten().is_some_and(
        |a| matches!(fc.ctx.attr_kind(a), AttrKind::Integer { value, .. } if *value == 0.into()),
    );
    if fc.ir.value_type(source) == ty && static_identity && zero_shift {
        return FoldResult::value(source);
    }
    if let Some(cast) = defined_by(fc, source, "memref.cast") {
        let original = fc.ir.operand(cast, 0);
        if matches!(
            fc.ctx.type_kind(fc.ir.value_type(original)),
            TypeKind::MemRef { .. }
        ) {
            fc.ir.set_operand(op, 0, original);
            return FoldResult::InPlace;
        }
    }
    FoldResult::Fail
}

/// `collapse_shape`/`expand_shape`: to the same type, or undoing the
/// opposite reshape.
fn fold_reshape(fc: &mut FoldCtx<'_>, op: OpId, opposite: &str) -> FoldResult {
    let source = fc.ir.operand(op, 0);
    let ty = fc.ir.value_type(fc.ir.result(op, 0));
    if fc.ir.value_type(source) == ty {
        return FoldResult::value(source);
    }
    if let Some(inner) = defined_by(fc, source, opposite) {
        let original = fc.ir.operand(inner, 0);
        if fc.ir.value_type(original) == ty {
            return FoldResult::value(original);
        }
    }
    FoldResult::Fail
}

/// `memref.collapse_shape`.
pub fn fold_collapse_shape(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    fold_reshape(fc, op, "memref.expand_shape")
}

/// `memref.expand_shape`.
pub fn fold_expand_shape(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    fold_reshape(fc, op, "memref.collapse_shape")
}

/// `memref.subview` to its source's own fully static type, or a no-op
/// subview (zero offsets, unit strides) of a subview with the same sizes
/// (MLIR's `SubViewOp::fold`).
pub fn fold_subview(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let source = fc.ir.operand(op, 0);
    let ty = fc.ir.value_type(fc.ir.result(op, 0));
    if fc.ir.value_type(source) != ty {
        return FoldResult::Fail;
    }
    let static_type = match crate::memref::layout::strides_and_offset(fc.ctx, ty) {
        Some((strides, offset)) => match fc.ctx.type_kind(ty) {
            TypeKind::MemRef { shape, .. } => {
                !shape.contains(&DYNAMIC) && offset != DYNAMIC && !strides.contains(&DYNAMIC)
            }
            _ => false,
        },
        None => false,
    };
    if static_type {
        return FoldResult::value(source);
    }
    let Some(inner) = defined_by(fc, source, "memref.subview") else {
        return FoldResult::Fail;
    };
    let (Some(outer_lists), Some(inner_lists)) = (
        crate::memref::patterns::MixedLists::of(fc.ctx, fc.ir, op),
        crate::memref::patterns::MixedLists::of(fc.ctx, fc.ir, inner),
    ) else {
        return FoldResult::Fail;
    };
    let is = |e: &Result<i64, ValueId>, k: i64| match *e {
        Ok(c) => c == k,
        Err(v) => silica_ir::rewrite::fold::constant_i64(fc.ctx, fc.ir, v) == Some(k),
    };
    let [offsets, sizes, strides] = &outer_lists.lists;
    if offsets.iter().all(|e| is(e, 0))
        && strides.iter().all(|e| is(e, 1))
        && *sizes == inner_lists.lists[1]
    {
        return FoldResult::value(source);
    }
    FoldResult::Fail
}

/// `memref.cast` to its source's type, or of a cast from its result type.
pub fn fold_cast(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let source = fc.ir.operand(op, 0);
    let ty = fc.ir.value_type(fc.ir.result(op, 0));
    if fc.ir.value_type(source) == ty {
        return FoldResult::value(source);
    }
    if let Some(inner) = defined_by(fc, source, "memref.cast") {
        let original = fc.ir.operand(inner, 0);
        if fc.ir.value_type(original) == ty {
            return FoldResult::value(original);
        }
    }
    FoldResult::Fail
}
