//! Folds and patterns of `memref.reinterpret_cast` and
//! `memref.extract_strided_metadata`, as MLIR's: a reinterpret_cast looks
//! through the reinterpret_cast, cast or zero-offset subview that made its
//! source and disappears when it changes nothing; metadata known from the
//! source type becomes constants; and a reinterpret_cast that rebuilds
//! exactly the memref its metadata came from is that memref (cast to the
//! result type), else it reads the original memref directly.

use crate::memref::patterns::MixedLists;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::rewrite::{FoldCtx, FoldResult, Pattern, Rewriter};
use silica_ir::types::DYNAMIC;
use silica_ir::{Attr, Context, Ir, OpId, Type, TypeKind, ValueId};

fn defined_by(ctx: &Context, ir: &Ir, v: ValueId, name: &str) -> Option<OpId> {
    ir.defining_op(v)
        .filter(|&d| ctx.str(ir.op_name(d)) == name)
}

/// `memref.reinterpret_cast`: of a reinterpret_cast, a cast or a subview
/// at offset zero, it takes their source; with the source's own static
/// type and offset zero, it is its source.
pub fn fold_reinterpret_cast(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let (ctx, ir) = (&*fc.ctx, &*fc.ir);
    let source = ir.operand(op, 0);
    let earlier = defined_by(ctx, ir, source, "memref.reinterpret_cast")
        .or_else(|| defined_by(ctx, ir, source, "memref.cast"))
        .or_else(|| {
            defined_by(ctx, ir, source, "memref.subview").filter(|&s| {
                MixedLists::of(ctx, ir, s).is_some_and(|l| l.lists[0].iter().all(|e| *e == Ok(0)))
            })
        });
    if let Some(earlier) = earlier {
        let original = ir.operand(earlier, 0);
        fc.ir.set_operand(op, 0, original);
        return FoldResult::InPlace;
    }
    let result_type = ir.value_type(ir.result(op, 0));
    let static_shape = matches!(ctx.type_kind(result_type),
        TypeKind::MemRef { shape, .. } if !shape.contains(&DYNAMIC));
    let offset = inherent_attr(ctx, ir, op, "static_offsets").and_then(|a| ctx.int_array_values(a));
    if static_shape && ir.value_type(source) == result_type && offset.as_deref() == Some(&[0]) {
        return FoldResult::value(source);
    }
    FoldResult::Fail
}

/// A value of the metadata of a memref: known, or the value holding it.
type Mixed = Result<i64, ValueId>;

/// The offset, sizes and strides `extract_strided_metadata` gives, known
/// where the source type fixes them (MLIR's constified mixed values).
fn metadata_of(ctx: &Context, ir: &Ir, op: OpId) -> Option<(Mixed, Vec<Mixed>, Vec<Mixed>)> {
    let source = ir.value_type(ir.operand(op, 0));
    let TypeKind::MemRef { shape, .. } = ctx.type_kind(source) else {
        return None;
    };
    let (strides, offset) = crate::memref::layout::strides_and_offset(ctx, source)?;
    let rank = shape.len();
    let known = |value: i64, result: usize| {
        if value == DYNAMIC {
            Err(ir.result(op, result))
        } else {
            Ok(value)
        }
    };
    let offset = known(offset, 1);
    let sizes = shape
        .iter()
        .enumerate()
        .map(|(i, &s)| known(s, 2 + i))
        .collect();
    let strides = strides
        .iter()
        .enumerate()
        .map(|(i, &s)| known(s, 2 + rank + i))
        .collect();
    Some((offset, sizes, strides))
}

/// Results of `extract_strided_metadata` fixed by the source type become
/// constants, then a cast of the source is looked through.
fn metadata_constants(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let mut changed = false;
    let Some((offset, sizes, strides)) = metadata_of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let rank = sizes.len();
    let known = std::iter::once((1, offset))
        .chain(sizes.into_iter().enumerate().map(|(i, s)| (2 + i, s)))
        .chain(
            strides
                .into_iter()
                .enumerate()
                .map(|(i, s)| (2 + rank + i, s)),
        );
    for (result, value) in known {
        let (Ok(c), r) = (value, rw.ir.result(op, result)) else {
            continue;
        };
        if !rw.ir.has_uses(r) {
            continue;
        }
        let ty = rw.ir.value_type(r);
        let attr = rw.ctx.int_attr(ty, c);
        let loc = rw.ir.op_loc(op);
        rw.set_insertion_point(op);
        if let Some(made) = crate::arith::materialize_constant(rw, attr, ty, loc) {
            let v = rw.ir.result(made, 0);
            rw.replace_all_uses(r, v);
            changed = true;
        }
    }
    // Then the source before a cast (the constants came from the cast's
    // type, which may know more).
    if let Some(cast) = defined_by(rw.ctx, rw.ir, rw.ir.operand(op, 0), "memref.cast") {
        let original = rw.ir.operand(cast, 0);
        if matches!(
            rw.ctx.type_kind(rw.ir.value_type(original)),
            TypeKind::MemRef { .. }
        ) {
            rw.set_operand(op, 0, original);
            changed = true;
        }
    }
    changed
}

/// A reinterpret_cast's offset, sizes and strides, constants known.
fn constified(ctx: &Context, ir: &Ir, op: OpId) -> Option<[Vec<Mixed>; 3]> {
    let lists = MixedLists::of(ctx, ir, op)?;
    Some(lists.lists.map(|list| {
        list.into_iter()
            .map(|e| e.or_else(|v| constant_i64(ctx, ir, v).ok_or(v)))
            .collect()
    }))
}

/// `reinterpret_cast` of the base of `extract_strided_metadata(x)`: `x`
/// (cast to the result type) when it rebuilds `x`'s offset, sizes and
/// strides, else a reinterpret_cast of `x` itself (MLIR's
/// `ReinterpretCastOpExtractStridedMetadataFolder`).
fn reinterpret_of_metadata(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (ctx, ir) = (&*rw.ctx, &*rw.ir);
    let Some(meta) = defined_by(
        ctx,
        ir,
        ir.operand(op, 0),
        "memref.extract_strided_metadata",
    ) else {
        return false;
    };
    let (Some((offset, sizes, strides)), Some([offsets, new_sizes, new_strides])) =
        (metadata_of(ctx, ir, meta), constified(ctx, ir, op))
    else {
        return false;
    };
    let original = ir.operand(meta, 0);
    let same = strides == new_strides && sizes == new_sizes && offsets == [offset];
    if !same {
        rw.set_operand(op, 0, original);
        return true;
    }
    let result_type: Type = ir.value_type(ir.result(op, 0));
    if ir.value_type(original) == result_type {
        rw.replace_op(op, &[original]);
    } else {
        let loc = ir.op_loc(op);
        rw.set_insertion_point(op);
        let cast = rw.create_simple("memref.cast", &[original], &[result_type], None, loc);
        let v = rw.ir.result(cast, 0);
        rw.replace_op(op, &[v]);
    }
    true
}

/// Constant offsets, sizes (not negative) and strides of a
/// reinterpret_cast become static, its result type follows, and a cast
/// gives back the old type.
fn reinterpret_constant_arguments(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(mut lists) = MixedLists::of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let mut changed = false;
    for (i, list) in lists.lists.iter_mut().enumerate() {
        for e in list.iter_mut() {
            if let Err(v) = *e {
                if let Some(c) = constant_i64(rw.ctx, rw.ir, v).filter(|&c| i != 1 || c >= 0) {
                    *e = Ok(c);
                    changed = true;
                }
            }
        }
    }
    let old_type = rw.ir.value_type(rw.ir.result(op, 0));
    let Some(parts) = crate::memref::verify::ranked(rw.ctx, old_type) else {
        return false;
    };
    let offset = lists.statics(0).first().copied().unwrap_or(0);
    if !changed {
        return false;
    }
    let new_type = crate::memref::verify::strided_memref(
        rw.ctx,
        &lists.statics(1),
        parts.element,
        offset,
        &lists.statics(2),
        parts.space,
    );
    let source = rw.ir.operand(op, 0);
    let (operands, props) = lists.operands_and_props(rw.ctx, source);
    crate::memref::patterns::replace_with_cast(rw, op, &operands, new_type, Some(props));
    true
}

/// `memref.reinterpret_cast` patterns.
pub static REINTERPRET_CAST: &[Pattern] = &[
    Pattern::new(
        "ReinterpretCastOpExtractStridedMetadataFolder",
        reinterpret_of_metadata,
    ),
    Pattern::new(
        "OpWithOffsetSizesAndStridesConstantArgumentFolder",
        reinterpret_constant_arguments,
    ),
];

/// `memref.extract_strided_metadata` patterns.
pub static EXTRACT_STRIDED_METADATA: &[Pattern] = &[Pattern::new(
    "ExtractStridedMetadataConstants",
    metadata_constants,
)];
