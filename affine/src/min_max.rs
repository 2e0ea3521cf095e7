//! `affine.min` and `affine.max`: constant folding, and MLIR's patterns
//! (a single result is an `affine.apply`, repeated results drop, a result
//! that is another min (max) takes that op's results, results sort by
//! their coefficients).

use crate::canonicalize::{constant_ints, map_attr_of, replace_with_map_op, simplify_affine_op};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::set_inherent_attr;
use silica_ir::rewrite::{FoldCtx, FoldResult, Pattern, Rewriter};
use silica_ir::{AttrKind, OpId, ValueId};

/// A min or max of one result is that result (`affine.apply`).
fn single_result(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(map) = map_attr_of(rw.ctx, rw.ir, op) else {
        return false;
    };
    if map.results.len() != 1 {
        return false;
    }
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    replace_with_map_op(rw, op, "affine.apply", map, &operands);
    true
}

/// A result that is an operand defined by an op of the same kind (a min
/// in a min) is replaced by that op's results, its operands appended.
fn merge_nested(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(map) = map_attr_of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let name = rw.ir.op_name(op);
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    let nd = map.num_dims as usize;
    let mut dims = operands[..nd].to_vec();
    let mut syms = operands[nd..].to_vec();
    let mut results = Vec::new();
    let mut merged = false;
    for e in map.results.iter() {
        let operand = match *e {
            AffineExpr::Dim(i) => operands.get(i as usize),
            AffineExpr::Symbol(i) => operands.get(nd + i as usize),
            _ => None,
        };
        let producer = operand
            .and_then(|&v| rw.ir.defining_op(v))
            .filter(|&p| rw.ir.op_name(p) == name);
        let Some((inner, inner_ops)) = producer.and_then(|p| {
            let m = map_attr_of(rw.ctx, rw.ir, p)?;
            Some((m, rw.ir.operands(p).collect::<Vec<_>>()))
        }) else {
            results.push(e.clone());
            continue;
        };
        let ind = inner.num_dims as usize;
        let d: Vec<AffineExpr> = (0..ind)
            .map(|k| AffineExpr::Dim((dims.len() + k) as u32))
            .collect();
        let s: Vec<AffineExpr> = (0..inner_ops.len() - ind)
            .map(|k| AffineExpr::Symbol((syms.len() + k) as u32))
            .collect();
        dims.extend_from_slice(&inner_ops[..ind]);
        syms.extend_from_slice(&inner_ops[ind..]);
        results.extend(inner.results.iter().map(|r| r.replace(&d, &s)));
        merged = true;
    }
    if !merged {
        return false;
    }
    let new_map = AffineMap {
        num_dims: dims.len() as u32,
        num_symbols: syms.len() as u32,
        results: results.into_boxed_slice(),
    };
    dims.extend(syms);
    let name = rw.ctx.str(name).to_string();
    replace_with_map_op(rw, op, &name, new_map, &dims);
    true
}

/// `affine.min`/`affine.max`: the extreme of constant results, or the
/// operand of `()[s0] -> (s0)`.
fn fold_min_max(
    fc: &mut FoldCtx<'_>,
    op: OpId,
    c: &[Option<silica_ir::Attr>],
    max: bool,
) -> FoldResult {
    let Some(map) = map_attr_of(fc.ctx, fc.ir, op) else {
        return FoldResult::Fail;
    };
    if map.num_dims == 0
        && map.num_symbols == 1
        && map.results.len() == 1
        && map.results[0] == AffineExpr::Symbol(0)
    {
        return FoldResult::value(fc.ir.operand(op, 0));
    }
    let values = constant_ints(fc.ctx, c);
    let Some(results) = crate::bounds::eval_results(&map, &values) else {
        return FoldResult::Fail;
    };
    let best = if max {
        results.iter().max()
    } else {
        results.iter().min()
    };
    match best {
        Some(&b) => {
            let ty = fc.ir.value_type(fc.ir.result(op, 0));
            FoldResult::attr(fc.ctx.int_attr(ty, b))
        }
        None => FoldResult::Fail,
    }
}

/// `affine.min`.
pub fn fold_min(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<silica_ir::Attr>]) -> FoldResult {
    fold_min_max(fc, op, c, false)
}

/// `affine.max`.
pub fn fold_max(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<silica_ir::Attr>]) -> FoldResult {
    fold_min_max(fc, op, c, true)
}

/// Drops repeated results of an `affine.min`/`affine.max` map.
fn dedupe_min_max(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(map) = map_attr_of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let mut results: Vec<AffineExpr> = Vec::new();
    for e in map.results.iter() {
        if !results.contains(e) {
            results.push(e.clone());
        }
    }
    if results.len() == map.results.len() {
        return false;
    }
    let new_map = AffineMap {
        num_dims: map.num_dims,
        num_symbols: map.num_symbols,
        results: results.into_boxed_slice(),
    };
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    let name = rw.ctx.str(rw.ir.op_name(op)).to_string();
    replace_with_map_op(rw, op, &name, new_map, &operands);
    true
}

/// Sorts the results of an `affine.min`/`affine.max` map by their linear
/// coefficients (MLIR's `CanonicalizeAffineMinMaxOpExprAndTermOrder`).
fn sort_min_max(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    use silica_ir::affine_flatten::{flatten_linear, from_linear};
    let Some(map) = map_attr_of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let flat: Option<Vec<Vec<i64>>> = map
        .results
        .iter()
        .map(|e| flatten_linear(e, map.num_dims, map.num_symbols))
        .collect();
    let Some(flat) = flat else {
        return false;
    };
    if flat.windows(2).all(|w| w[0] <= w[1]) {
        return false;
    }
    let mut order: Vec<usize> = (0..flat.len()).collect();
    order.sort_by(|&a, &b| flat[a].cmp(&flat[b]));
    let new_map = AffineMap {
        num_dims: map.num_dims,
        num_symbols: map.num_symbols,
        results: order
            .iter()
            .map(|&i| from_linear(&flat[i], map.num_dims, map.num_symbols))
            .collect(),
    };
    let attr = rw.ctx.intern_attr(AttrKind::AffineMap(new_map));
    set_inherent_attr(rw.ctx, rw.ir, op, "map", attr);
    rw.modified(op);
    true
}

/// `affine.min`/`affine.max` patterns.
pub static MIN_MAX: &[Pattern] = &[
    Pattern::new("CanonicalizeSingleResultAffineMinMaxOp", single_result),
    Pattern::new("DeduplicateAffineMinMaxExpressions", dedupe_min_max),
    Pattern::new("MergeAffineMinMaxOp", merge_nested),
    Pattern::new("SimplifyAffineOp", simplify_affine_op),
    Pattern::new("CanonicalizeAffineMinMaxOpExprAndTermOrder", sort_min_max),
];
