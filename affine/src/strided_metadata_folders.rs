//! The `memref.extract_strided_metadata` folders of
//! `expand-strided-metadata` (MLIR's `ExtractStridedMetadataOp*Folder`):
//! the metadata of a `reinterpret_cast`, an allocation, a global, a
//! memory-space cast or a base buffer read from what defines it, so that
//! view chains disappear.
//! The op's own fold (results the type fixes become constants) runs
//! first, as the greedy driver folds before it applies patterns.

use crate::expand_strided_metadata::{
    extract_metadata, folded_apply, mixed, reinterpret_cast, Mixed,
};
use silica_ir::affine::AffineExpr;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::{Pattern, PatternSet, Rewriter};
use silica_ir::types::DYNAMIC;
use silica_ir::{Attr, Context, OpId, TypeKind, ValueId};

/// The op defining `v`, if it is named `name`.
fn defined_by(rw: &Rewriter<'_>, v: ValueId, name: &str) -> Option<OpId> {
    let def = rw.ir.defining_op(v)?;
    (rw.ctx.str(rw.ir.op_name(def)) == name).then_some(def)
}

/// `value` as an SSA value: itself, or an `arith.constant` index.
fn materialize(rw: &mut Rewriter<'_>, value: Mixed, loc: Attr) -> Option<ValueId> {
    match value {
        Mixed::Value(v) => Some(v),
        Mixed::Const(c) => {
            let index = rw.ctx.index_type();
            let a = rw.ctx.int_attr(index, c);
            let op = silica_dialects::arith::materialize_constant(rw, a, index, loc)?;
            Some(rw.ir.result(op, 0))
        }
    }
}

/// Replaces `op`'s results: the base buffer (when given), then the
/// offset, sizes and strides, constants materialised in that order.
fn replace_metadata(
    rw: &mut Rewriter<'_>,
    op: OpId,
    base: Option<ValueId>,
    offset: Mixed,
    sizes: &[Mixed],
    strides: &[Mixed],
) -> bool {
    let loc = rw.ir.op_loc(op);
    let mut values = vec![base.unwrap_or(rw.ir.result(op, 0))];
    for &m in std::iter::once(&offset).chain(sizes).chain(strides) {
        let Some(v) = materialize(rw, m, loc) else {
            return false;
        };
        values.push(v);
    }
    rw.replace_op(op, &values);
    true
}

/// Of `reinterpret_cast %src`: its offset, sizes and strides, and the
/// base buffer of its (ranked) source.
fn of_reinterpret_cast(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(cast) = defined_by(rw, rw.ir.operand(op, 0), "memref.reinterpret_cast") else {
        return false;
    };
    let source = rw.ir.operand(cast, 0);
    // The source must have metadata to extract (ranked, strided).
    let source_ty = rw.ir.value_type(source);
    if silica_dialects::memref::layout::strides_and_offset(rw.ctx, source_ty).is_none() {
        return false;
    }
    let statics = |rw: &Rewriter<'_>, name: &str| {
        inherent_attr(rw.ctx, rw.ir, cast, name)
            .and_then(|a| rw.ctx.int_array_values(a))
            .unwrap_or_default()
    };
    let (so, ss, st) = (
        statics(rw, "static_offsets"),
        statics(rw, "static_sizes"),
        statics(rw, "static_strides"),
    );
    let dynamic: Vec<ValueId> = rw.ir.operands(cast).skip(1).collect();
    let count = |l: &[i64]| l.iter().filter(|v| **v == DYNAMIC).count();
    let (d_off, rest) = dynamic.split_at(count(&so).min(dynamic.len()));
    let (d_sizes, d_strides) = rest.split_at(count(&ss).min(rest.len()));
    let (offsets, sizes, strides) = (
        mixed(&so, d_off),
        mixed(&ss, d_sizes),
        mixed(&st, d_strides),
    );
    let Some(&offset) = offsets.first() else {
        return false;
    };
    // The base buffer of the source, through a new metadata op.
    let loc = rw.ir.op_loc(op);
    rw.set_insertion_point(op);
    let Some(meta) = extract_metadata(rw, source, loc) else {
        return false;
    };
    replace_metadata(rw, op, Some(meta[0]), offset, &sizes, &strides)
}

/// Of an allocation (`alloc`, `alloca`) or a global with the identity
/// layout: a rank-0 view of it as the base buffer, offset zero, its sizes,
/// and row-major strides (products of inner sizes, as `affine.apply`
/// where dynamic).
fn of_allocation(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let source = rw.ir.operand(op, 0);
    let Some(def) = rw.ir.defining_op(source) else {
        return false;
    };
    let name = rw.ctx.str(rw.ir.op_name(def)).to_string();
    if !matches!(
        name.as_str(),
        "memref.alloc" | "memref.alloca" | "memref.get_global"
    ) {
        return false;
    }
    let ty = rw.ir.value_type(source);
    // Only normalized allocations (identity layouts).
    let TypeKind::MemRef {
        shape,
        layout: None,
        ..
    } = rw.ctx.type_kind(ty).clone()
    else {
        return false;
    };
    let offset = 0;
    let loc = rw.ir.op_loc(op);
    rw.set_insertion_point(op);
    let dynamic: Vec<ValueId> = if name == "memref.get_global" {
        Vec::new()
    } else {
        rw.ir.operands(def).collect()
    };
    let sizes = mixed(&shape, &dynamic);
    // Row-major strides: each the product of the inner sizes.
    let mut strides = vec![Mixed::Const(1); shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        let inner = &sizes[i + 1..];
        let product = (0..inner.len() as u32).fold(AffineExpr::Constant(1), |e, k| {
            e.times(AffineExpr::Symbol(k))
        });
        strides[i] = folded_apply(rw, &product, inner, loc);
    }
    let base_ty = rw.ir.value_type(rw.ir.result(op, 0));
    let base = if base_ty == ty {
        source
    } else {
        reinterpret_cast(rw, source, Mixed::Const(offset), &[], &[], base_ty, loc)
    };
    let base = Some(base);
    replace_metadata(rw, op, base, Mixed::Const(offset), &sizes, &strides)
}

/// Of another metadata op's base buffer: that buffer, at offset zero.
fn of_base_buffer(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let source = rw.ir.operand(op, 0);
    let Some(def) = defined_by(rw, source, "memref.extract_strided_metadata") else {
        return false;
    };
    if rw.ir.result(def, 0) != source {
        return false;
    }
    replace_metadata(rw, op, Some(source), Mixed::Const(0), &[], &[])
}

/// Of `memory_space_cast %x`: the metadata of `%x`, its base buffer cast
/// to the new memory space.
fn of_memory_space_cast(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(cast) = defined_by(rw, rw.ir.operand(op, 0), "memref.memory_space_cast") else {
        return false;
    };
    let source = rw.ir.operand(cast, 0);
    let loc = rw.ir.op_loc(op);
    rw.set_insertion_point(op);
    let Some(mut values) = extract_metadata(rw, source, loc) else {
        return false;
    };
    let to = rw.ir.value_type(rw.ir.result(op, 0));
    let base = rw.create_simple("memref.memory_space_cast", &[values[0]], &[to], None, loc);
    values[0] = rw.ir.result(base, 0);
    rw.replace_op(op, &values);
    true
}

/// `extract_aligned_pointer_as_index` of a view: of the viewed memref,
/// which has the same aligned pointer (`memref.view` moves it, so not).
fn aligned_pointer_of_view(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(def) = rw.ir.defining_op(rw.ir.operand(op, 0)) else {
        return false;
    };
    let views = [
        "memref.reinterpret_cast",
        "memref.subview",
        "memref.cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.transpose",
    ];
    if !views.contains(&rw.ctx.str(rw.ir.op_name(def))) {
        return false;
    }
    let source = rw.ir.operand(def, 0);
    rw.set_operand(op, 0, source);
    true
}

/// The `extract_aligned_pointer_as_index` pattern.
pub(crate) static ALIGNED_POINTER: Pattern = Pattern::new(
    "RewriteExtractAlignedPointerAsIndexOfViewLikeOp",
    aligned_pointer_of_view,
);

static FOLDERS: &[Pattern] = &[
    Pattern::new(
        "ExtractStridedMetadataOpReinterpretCastFolder",
        of_reinterpret_cast,
    ),
    Pattern::new("ExtractStridedMetadataOpAllocFolder", of_allocation),
    Pattern::new(
        "ExtractStridedMetadataOpExtractStridedMetadataFolder",
        of_base_buffer,
    ),
    Pattern::new(
        "ExtractStridedMetadataOpMemorySpaceCastFolder",
        of_memory_space_cast,
    ),
];

/// Adds the folders to `patterns`, after the op's fold.
pub(crate) fn add(ctx: &mut Context, patterns: &mut PatternSet) {
    let meta = ctx.sym("memref.extract_strided_metadata");
    patterns.add(
        meta,
        silica_dialects::memref::metadata::EXTRACT_STRIDED_METADATA,
    );
    patterns.add(meta, FOLDERS);
    let pointer = ctx.sym("memref.extract_aligned_pointer_as_index");
    patterns.add(pointer, [&ALIGNED_POINTER]);
}
