//! `expand-strided-metadata`: subviews here, reshapes in
//! `reshape_folders.rs`, the metadata of other ops in
//! `strided_metadata_folders.rs`, all applied by the greedy driver. A
//! `memref.subview` becomes the source's `memref.extract_strided_metadata`
//! and a `memref.reinterpret_cast` of its base buffer, with the new
//! strides (`source stride * subview stride`) and offset (`source offset +
//! sum of subview offset * source stride`) as `affine.apply` ops, folded
//! and composed as MLIR's `makeComposedFoldedAffineApply` (constants
//! become static values).

use crate::canonicalize::{canonicalize_map, compose_map};
use silica_dialects::memref::layout::strides_and_offset;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::format::{segment_sizes, SEGMENTS};
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::rewrite::{apply_patterns_greedily, GreedyConfig, Pattern, PatternSet, Rewriter};
use silica_ir::types::DYNAMIC;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Symbol, Type, TypeKind, ValueId};

/// A static value or an SSA value (MLIR's `OpFoldResult`).
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Mixed {
    Const(i64),
    Value(ValueId),
}

/// The mixed list of a static array attribute and its dynamic operands.
pub(crate) fn mixed(statics: &[i64], dynamic: &[ValueId]) -> Vec<Mixed> {
    let mut d = dynamic.iter();
    statics
        .iter()
        .map(|&s| match s {
            DYNAMIC => Mixed::Value(*d.next().expect("dynamic operand")),
            c => Mixed::Const(c),
        })
        .collect()
}

/// `expr` over symbols `values`: a constant when it folds, else an
/// `affine.apply` of the composed and canonicalized map.
pub(crate) fn folded_apply(
    rw: &mut Rewriter<'_>,
    expr: &AffineExpr,
    values: &[Mixed],
    loc: Attr,
) -> Mixed {
    let mut operands = Vec::new();
    let syms: Vec<AffineExpr> = values
        .iter()
        .map(|v| match v {
            Mixed::Const(c) => AffineExpr::Constant(*c),
            Mixed::Value(v) => {
                operands.push(*v);
                AffineExpr::Symbol(operands.len() as u32 - 1)
            }
        })
        .collect();
    let e = expr.replace(&[], &syms);
    if let AffineExpr::Constant(c) = e {
        return Mixed::Const(c);
    }
    let map = AffineMap {
        num_dims: 0,
        num_symbols: operands.len() as u32,
        results: Box::new([e]),
    };
    let (map, operands) = compose_map(rw.ctx, rw.ir, &map, &operands);
    let (mut map, operands) = canonicalize_map(rw.ctx, rw.ir, &map, &operands);
    // As `simplifyAffineMap`: `(s0 * 6) floordiv 60` is `s0 floordiv 10`.
    map.results = map
        .results
        .iter()
        .map(|e| silica_ir::affine_flatten::simplify_expr(e, map.num_dims, map.num_symbols))
        .collect();
    match &*map.results {
        [AffineExpr::Constant(c)] => return Mixed::Const(*c),
        // As `affine.apply`'s fold: a lone dimension or symbol is its operand.
        [AffineExpr::Dim(i)] => return Mixed::Value(operands[*i as usize]),
        [AffineExpr::Symbol(i)] => return Mixed::Value(operands[(map.num_dims + i) as usize]),
        _ => {}
    }
    let index = rw.ctx.index_type();
    let key = rw.ctx.sym("map");
    let m = rw.ctx.intern_attr(AttrKind::AffineMap(map));
    let props = rw.ctx.dict_attr(vec![(key, m)]);
    let op = rw.create_simple("affine.apply", &operands, &[index], Some(props), loc);
    Mixed::Value(rw.ir.result(op, 0))
}

/// Splits a mixed list into the static array (with [`DYNAMIC`] markers)
/// and the dynamic operands.
fn split(list: &[Mixed]) -> (Vec<i64>, Vec<ValueId>) {
    let mut statics = Vec::new();
    let mut dynamic = Vec::new();
    for m in list {
        match m {
            Mixed::Const(c) => statics.push(*c),
            Mixed::Value(v) => {
                statics.push(DYNAMIC);
                dynamic.push(*v);
            }
        }
    }
    (statics, dynamic)
}

/// A new `memref.extract_strided_metadata` of the ranked memref `source`
/// at the insertion point: the base buffer, offset, sizes and strides.
pub(crate) fn extract_metadata(
    rw: &mut Rewriter<'_>,
    source: ValueId,
    loc: Attr,
) -> Option<Vec<ValueId>> {
    let TypeKind::MemRef {
        shape,
        element,
        memory_space,
        ..
    } = rw.ctx.type_kind(rw.ir.value_type(source)).clone()
    else {
        return None;
    };
    let base = rw.ctx.intern_type(TypeKind::MemRef {
        shape: Box::new([]),
        element,
        layout: None,
        memory_space,
    });
    let index = rw.ctx.index_type();
    let mut types = vec![base, index];
    types.extend(std::iter::repeat_n(index, 2 * shape.len()));
    let meta = rw.create_simple(
        "memref.extract_strided_metadata",
        &[source],
        &types,
        None,
        loc,
    );
    Some(rw.ir.results(meta).collect())
}

/// `memref.reinterpret_cast %base to offset: [offset], sizes: [sizes],
/// strides: [strides]` of type `to`, at the insertion point.
pub(crate) fn reinterpret_cast(
    rw: &mut Rewriter<'_>,
    base: ValueId,
    offset: Mixed,
    sizes: &[Mixed],
    strides: &[Mixed],
    to: Type,
    loc: Attr,
) -> ValueId {
    let (so, dyn_o) = split(&[offset]);
    let (ss, dyn_s) = split(sizes);
    let (st, dyn_t) = split(strides);
    let mut operands = vec![base];
    operands.extend(&dyn_o);
    operands.extend(&dyn_s);
    operands.extend(&dyn_t);
    let ctx = &mut *rw.ctx;
    let counts = [
        1,
        dyn_o.len() as i64,
        dyn_s.len() as i64,
        dyn_t.len() as i64,
    ];
    let entries: Vec<(Symbol, Attr)> = vec![
        (ctx.sym(SEGMENTS), ctx.int_array_attr(32, &counts)),
        (ctx.sym("static_offsets"), ctx.int_array_attr(64, &so)),
        (ctx.sym("static_sizes"), ctx.int_array_attr(64, &ss)),
        (ctx.sym("static_strides"), ctx.int_array_attr(64, &st)),
    ];
    let props = ctx.dict_attr(entries);
    let name = ctx.sym("memref.reinterpret_cast");
    let attrs = ctx.empty_dict();
    let cast = rw.create(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[to],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    });
    rw.ir.result(cast, 0)
}

/// `memref.subview` as a `reinterpret_cast` of its source's base buffer
/// (MLIR's `SubviewFolder`).
fn expand_subview(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let (ctx, ir) = (&mut *rw.ctx, &*rw.ir);
    let loc = ir.op_loc(op);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let source = operands[0];
    let source_ty = ir.value_type(source);
    let result_ty = ir.value_type(ir.result(op, 0));
    let Some((src_strides, src_offset)) = strides_and_offset(ctx, source_ty) else {
        return false;
    };
    let TypeKind::MemRef {
        shape: src_shape, ..
    } = ctx.type_kind(source_ty).clone()
    else {
        return false;
    };
    let rank = src_shape.len();
    let result_rank = ctx
        .shaped(result_ty)
        .and_then(|(s, _)| s)
        .map_or(0, <[i64]>::len);
    let seg = segment_sizes(ctx, ir, op).unwrap_or_default();
    let statics = |ctx: &Context, ir: &Ir, name: &str| {
        inherent_attr(ctx, ir, op, name)
            .and_then(|a| ctx.int_array_values(a))
            .unwrap_or_default()
    };
    let (n_off, n_size) = (seg[1], seg[2]);
    let offsets = mixed(&statics(ctx, ir, "static_offsets"), &operands[1..1 + n_off]);
    let sizes = mixed(
        &statics(ctx, ir, "static_sizes"),
        &operands[1 + n_off..1 + n_off + n_size],
    );
    let strides = mixed(
        &statics(ctx, ir, "static_strides"),
        &operands[1 + n_off + n_size..],
    );
    // extract_strided_metadata of the source.
    rw.set_insertion_point(op);
    let Some(results) = extract_metadata(rw, source, loc) else {
        return false;
    };
    let (base, meta_offset, meta_strides) = (results[0], results[1], &results[2 + rank..]);
    let s = |i: u32| AffineExpr::Symbol(i);
    let mut new_strides = Vec::new();
    let mut offset_expr = s(0);
    let mut offset_values = vec![if src_offset == DYNAMIC {
        Mixed::Value(meta_offset)
    } else {
        Mixed::Const(src_offset)
    }];
    for i in 0..rank {
        let orig = if src_strides[i] == DYNAMIC {
            Mixed::Value(meta_strides[i])
        } else {
            Mixed::Const(src_strides[i])
        };
        new_strides.push(folded_apply(
            rw,
            &s(0).times(s(1)),
            &[strides[i], orig],
            loc,
        ));
        let k = (1 + 2 * i) as u32;
        offset_expr = offset_expr.plus(s(k).times(s(k + 1)));
        offset_values.push(offsets[i]);
        offset_values.push(orig);
    }
    let offset = folded_apply(rw, &offset_expr, &offset_values, loc);
    // Rank-reducing subviews drop unit dimensions.
    let mut to_drop = rank - result_rank.min(rank);
    let mut final_sizes = Vec::new();
    let mut final_strides = Vec::new();
    for i in 0..rank {
        if to_drop > 0 && sizes[i] == Mixed::Const(1) {
            to_drop -= 1;
            continue;
        }
        final_sizes.push(sizes[i]);
        final_strides.push(new_strides[i]);
    }
    let cast = reinterpret_cast(
        rw,
        base,
        offset,
        &final_sizes,
        &final_strides,
        result_ty,
        loc,
    );
    rw.replace_op(op, &[cast]);
    true
}

static SUBVIEW_FOLDER: Pattern = Pattern::new("SubviewFolder", expand_subview);

/// MLIR's `expand-strided-metadata`: its patterns applied greedily (with
/// folding and dead-code removal) to everything nested in `root`.
pub fn expand_strided_metadata(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
) -> Result<(), Box<Diagnostic>> {
    let mut patterns = PatternSet::default();
    let subview = ctx.sym("memref.subview");
    patterns.add(subview, [&SUBVIEW_FOLDER]);
    let expand = ctx.sym("memref.expand_shape");
    patterns.add(expand, [&crate::reshape_folders::EXPAND]);
    let collapse = ctx.sym("memref.collapse_shape");
    patterns.add(collapse, [&crate::reshape_folders::COLLAPSE]);
    crate::strided_metadata_folders::add(ctx, &mut patterns);
    apply_patterns_greedily(ctx, ir, root, &patterns, GreedyConfig::default());
    Ok(())
}

struct ExpandStridedMetadata;

impl Pass for ExpandStridedMetadata {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        expand_strided_metadata(ctx, ir, op)
    }
}

/// The `expand-strided-metadata` pass (subviews so far).
pub static EXPAND_STRIDED_METADATA: PassInfo = PassInfo {
    argument: "expand-strided-metadata",
    name: "ExpandStridedMetadataPass",
    description: "Expand memref operations into easier to analyze constructs",
    anchor: None,
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(ExpandStridedMetadata)),
};
