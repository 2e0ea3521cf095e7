//! `memref.expand_shape` and `memref.collapse_shape` in
//! `expand-strided-metadata` (MLIR's `ReshapeFolder`): a reshape becomes a
//! `reinterpret_cast` of its source's base buffer, with the sizes and
//! strides of each reassociation group computed from the source's
//! (`affine.apply` where they are dynamic).

use crate::expand_strided_metadata::{folded_apply, Mixed};
use silica_dialects::memref_layout::strides_and_offset;
use silica_ir::affine::AffineExpr;
use silica_ir::format::SEGMENTS;
use silica_ir::rewrite::{Pattern, Rewriter};
use silica_ir::types::DYNAMIC;
use silica_ir::{Attr, OpId, OpSpec, Symbol, Type, TypeKind, ValueId};

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
    let TypeKind::MemRef {
        shape,
        element,
        memory_space,
        ..
    } = rw.ctx.type_kind(ty).clone()
    else {
        return None;
    };
    let (strides, offset) = strides_and_offset(rw.ctx, ty)?;
    let base = rw.ctx.intern_type(TypeKind::MemRef {
        shape: Box::new([]),
        element,
        layout: None,
        memory_space,
    });
    let index = rw.ctx.index_type();
    let mut types = vec![base, index];
    types.extend(std::iter::repeat_n(index, 2 * shape.len()));
    let loc = rw.ir.op_loc(op);
    rw.set_insertion_point(op);
    let meta = rw.create_simple(
        "memref.extract_strided_metadata",
        &[source],
        &types,
        None,
        loc,
    );
    Some(Source {
        shape: shape.to_vec(),
        strides,
        offset,
        meta: rw.ir.results(meta).collect(),
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
    let mut operands = vec![src.meta[0]];
    let mut lists: Vec<Vec<i64>> = Vec::new();
    let mut counts = vec![1i64];
    for list in [&[offset][..], sizes, strides] {
        let mut statics = Vec::new();
        let mut n = 0;
        for m in list {
            match m {
                Mixed::Const(c) => statics.push(*c),
                Mixed::Value(v) => {
                    statics.push(DYNAMIC);
                    operands.push(*v);
                    n += 1;
                }
            }
        }
        lists.push(statics);
        counts.push(n);
    }
    let ctx = &mut *rw.ctx;
    let entries: Vec<(Symbol, Attr)> = vec![
        (ctx.sym(SEGMENTS), ctx.int_array_attr(32, &counts)),
        (ctx.sym("static_offsets"), ctx.int_array_attr(64, &lists[0])),
        (ctx.sym("static_sizes"), ctx.int_array_attr(64, &lists[1])),
        (ctx.sym("static_strides"), ctx.int_array_attr(64, &lists[2])),
    ];
    let props = ctx.dict_attr(entries);
    let name = ctx.sym("memref.reinterpret_cast");
    let attrs = ctx.empty_dict();
    let cast = rw.create(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[result],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    });
    let v = rw.ir.result(cast, 0);
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
    let groups = silica_dialects::memref_verify::reassociation(rw.ctx, rw.ir, op)?;
    Some(ReshapeParts {
        shape: shape.to_vec(),
        strides,
        groups,
    })
}

fn fold_collapse(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(ReshapeParts {
        shape,
        strides: result_strides,
        groups,
    }) = reshape_parts(rw, op)
    else {
        return false;
    };
    if strides_and_offset(rw.ctx, rw.ir.value_type(rw.ir.operand(op, 0))).is_none() {
        return false;
    }
    let Some(src) = extract(rw, op) else {
        return false;
    };
    let loc = rw.ir.op_loc(op);
    if src.rank() == 0 {
        let ones = vec![Mixed::Const(1); shape.len()];
        reinterpret(rw, op, &src, &ones, &ones);
        return true;
    }
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
                None => return false,
            },
        });
    }
    reinterpret(rw, op, &src, &sizes, &strides);
    true
}

fn fold_expand(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(ReshapeParts { shape, groups, .. }) = reshape_parts(rw, op) else {
        return false;
    };
    if strides_and_offset(rw.ctx, rw.ir.value_type(rw.ir.operand(op, 0))).is_none() {
        return false;
    }
    let Some(src) = extract(rw, op) else {
        return false;
    };
    let loc = rw.ir.op_loc(op);
    if src.rank() == 0 {
        let ones = vec![Mixed::Const(1); shape.len()];
        reinterpret(rw, op, &src, &ones, &ones);
        return true;
    }
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
