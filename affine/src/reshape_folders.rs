//! `memref.expand_shape` and `memref.collapse_shape` in
//! `expand-strided-metadata` (MLIR's `ReshapeFolder`): a reshape becomes a
//! `reinterpret_cast` of its source's base buffer, with the sizes and
//! strides of each reassociation group computed from the source's
//! (`affine.apply` where they are dynamic).

use crate::expand_strided_metadata::{extract_metadata, folded_apply, reinterpret_cast, Mixed};
use silica_dialects::memref::layout::strides_and_offset;
use silica_ir::affine::AffineExpr;
use silica_ir::rewrite::{Pattern, Rewriter};
use silica_ir::types::DYNAMIC;
use silica_ir::{OpId, Type, TypeKind, ValueId};

/// What both reshapes know about their source once its metadata is
/// extracted.
struct Source {
    shape: Vec<i64>,
    strides: Vec<i64>,
    offset: i64,
    /// The results of the new `extract_strided_metadata`.
    meta: Vec<ValueId>,
}

impl Source {
    fn rank(&self) -> usize {
        self.shape.len()
    }

    /// Size `i` as the type knows it or the extracted value.
    fn size(&self, i: usize) -> Mixed {
        match self.shape[i] {
            DYNAMIC => Mixed::Value(self.meta[2 + i]),
            s => Mixed::Const(s),
        }
    }

    /// Stride `i` as the type knows it or the extracted value.
    fn stride(&self, i: usize) -> Mixed {
        match self.strides[i] {
            DYNAMIC => Mixed::Value(self.meta[2 + self.rank() + i]),
            s => Mixed::Const(s),
        }
    }
}

/// Extracts the metadata of the reshape's (strided, ranked) source.
fn extract(rw: &mut Rewriter<'_>, op: OpId) -> Option<Source> {
    let source = rw.ir.operand(op, 0);
    let ty = rw.ir.value_type(source);
    let shape = rw.ctx.shaped(ty)?.0?.to_vec();
    let (strides, offset) = strides_and_offset(rw.ctx, ty)?;
    let loc = rw.ir.op_loc(op);
    rw.set_insertion_point(op);
    let meta = extract_metadata(rw, source, loc)?;
    Some(Source {
        shape,
        strides,
        offset,
        meta,
    })
}

/// Replaces the reshape by a `reinterpret_cast` of the base buffer.
fn reinterpret(rw: &mut Rewriter<'_>, op: OpId, src: &Source, sizes: &[Mixed], strides: &[Mixed]) {
    let loc = rw.ir.op_loc(op);
    let result: Type = rw.ir.value_type(rw.ir.result(op, 0));
    let offset = match src.offset {
        DYNAMIC => Mixed::Value(src.meta[1]),
        o => Mixed::Const(o),
    };
    let v = reinterpret_cast(rw, src.meta[0], offset, sizes, strides, result, loc);
    rw.replace_op(op, &[v]);
}

/// A reshape's result shape and strides, and its reassociation groups.
struct ReshapeParts {
    shape: Vec<i64>,
    strides: Vec<i64>,
    groups: Vec<Vec<i64>>,
}

fn reshape_parts(rw: &Rewriter<'_>, op: OpId) -> Option<ReshapeParts> {
    let result = rw.ir.value_type(rw.ir.result(op, 0));
    let TypeKind::MemRef { shape, .. } = rw.ctx.type_kind(result) else {
        return None;
    };
    let (strides, _) = strides_and_offset(rw.ctx, result)?;
    let groups = silica_dialects::memref::verify::reassociation(rw.ctx, rw.ir, op)?;
    Some(ReshapeParts {
        shape: shape.to_vec(),
        strides,
        groups,
    })
}

/// How a reshape folder begins.
enum Start {
    /// The reshape does not qualify; nothing changed.
    No,
    /// A rank-0 source: the reshape is already rewritten (all ones).
    Done,
    /// The result's parts and the source's metadata, to go on with.
    Go(ReshapeParts, Source),
}

fn start(rw: &mut Rewriter<'_>, op: OpId) -> Start {
    let Some(parts) = reshape_parts(rw, op) else {
        return Start::No;
    };
    if strides_and_offset(rw.ctx, rw.ir.value_type(rw.ir.operand(op, 0))).is_none() {
        return Start::No;
    }
    let Some(src) = extract(rw, op) else {
        return Start::No;
    };
    if src.rank() == 0 {
        let ones = vec![Mixed::Const(1); parts.shape.len()];
        reinterpret(rw, op, &src, &ones, &ones);
        return Start::Done;
    }
    Start::Go(parts, src)
}

fn fold_collapse(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (
        ReshapeParts {
            shape,
            strides: result_strides,
            groups,
        },
        src,
    ) = match start(rw, op) {
        Start::No => return false,
        Start::Done => return true,
        Start::Go(parts, src) => (parts, src),
    };
    let loc = rw.ir.op_loc(op);
    let mut sizes = Vec::new();
    let mut strides = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        // The size: the type's, or the product of the group's sizes.
        sizes.push(if shape[g] != DYNAMIC {
            Mixed::Const(shape[g])
        } else {
            let product = (0..group.len() as u32).fold(AffineExpr::Constant(1), |e, i| {
                e.times(AffineExpr::Symbol(i))
            });
            let values: Vec<Mixed> = group.iter().map(|&d| src.size(d as usize)).collect();
            folded_apply(rw, &product, &values, loc)
        });
        // The stride: the innermost one of a dimension not of size 1.
        let inner = group.iter().rev().find(|&&d| src.shape[d as usize] != 1);
        strides.push(match inner {
            Some(&d) => src.stride(d as usize),
            None if result_strides[g] != DYNAMIC => Mixed::Const(result_strides[g]),
            None => match group.iter().find(|&&d| src.strides[d as usize] == DYNAMIC) {
                Some(&d) => src.stride(d as usize),
                None => {
                    // Cannot happen in valid IR; undo the metadata op.
                    if let Some(meta) = rw.ir.defining_op(src.meta[0]) {
                        rw.erase_op(meta);
                    }
                    return false;
                }
            },
        });
    }
    reinterpret(rw, op, &src, &sizes, &strides);
    true
}

fn fold_expand(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (ReshapeParts { shape, groups, .. }, src) = match start(rw, op) {
        Start::No => return false,
        Start::Done => return true,
        Start::Go(parts, src) => (parts, src),
    };
    let loc = rw.ir.op_loc(op);
    let s = AffineExpr::Symbol;
    let mut sizes = Vec::new();
    let mut strides = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let dims: Vec<i64> = group.iter().map(|&d| shape[d as usize]).collect();
        let product: i64 = dims.iter().filter(|&&d| d != DYNAMIC).product();
        let dynamic = dims.iter().position(|&d| d == DYNAMIC);
        // Sizes: the type's; the dynamic one is the source size divided
        // by the others.
        for &d in &dims {
            sizes.push(if d == DYNAMIC {
                folded_apply(
                    rw,
                    &s(0).floor_div(AffineExpr::Constant(product)),
                    &[src.size(g)],
                    loc,
                )
            } else {
                Mixed::Const(d)
            });
        }
        // Strides: the products of the inner static sizes, times the
        // source stride; those outside the dynamic dimension also scale by
        // the dynamic size (source size / static product).
        let mut base = vec![1i64; dims.len()];
        let mut running = 1i64;
        for i in (0..dims.len()).rev() {
            base[i] = running;
            if dims[i] != DYNAMIC {
                running *= dims[i];
            }
        }
        let origin = src.stride(g);
        for (i, &b) in base.iter().enumerate() {
            strides.push(match dynamic {
                Some(k) if i < k => folded_apply(
                    rw,
                    &s(0)
                        .times(AffineExpr::Constant(b))
                        .floor_div(AffineExpr::Constant(running))
                        .times(s(1)),
                    &[src.size(g), origin],
                    loc,
                ),
                _ => folded_apply(rw, &s(0).times(AffineExpr::Constant(b)), &[origin], loc),
            });
        }
    }
    reinterpret(rw, op, &src, &sizes, &strides);
    true
}

pub(crate) static COLLAPSE: Pattern = Pattern::new("ReshapeFolder<CollapseShapeOp>", fold_collapse);
pub(crate) static EXPAND: Pattern = Pattern::new("ReshapeFolder<ExpandShapeOp>", fold_expand);
