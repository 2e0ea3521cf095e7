//! Affine map canonicalization, as MLIR's: composing `affine.apply`
//! producers into the maps that use them, promoting operands that are
//! valid symbols to symbols (and demoting the others to dims), folding
//! constant symbols into the map, merging duplicate operands and dropping
//! unused ones; `affine.apply` folding; and the pattern that rewrites
//! `affine.apply`/`min`/`max`/`load`/`store` with the simplified map.

use silica_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use silica_ir::dialect::{inherent_attr, set_inherent_attr, Traits};
use silica_ir::rewrite::fold::constant_int;
use silica_ir::rewrite::{FoldCtx, FoldResult, Pattern, Rewriter};
use silica_ir::{AttrKind, Context, Ir, OpId, ValueId};
use std::borrow::Cow;

const APPLY: &str = "affine.apply";

fn is_named(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.str(ir.op_name(op)) == name
}

pub(crate) fn map_attr_of(ctx: &Context, ir: &Ir, op: OpId) -> Option<AffineMap> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "map")?) {
        AttrKind::AffineMap(m) => Some(m.clone()),
        _ => None,
    }
}

fn is_constant(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    ir.defining_op(v).is_some_and(|d| {
        ctx.op_def(ir.op_name(d))
            .is_some_and(|def| def.traits.has(Traits::CONSTANT_LIKE))
    })
}

/// Whether `v` may be an affine symbol: a constant, a value defined at
/// the top level of a function (an affine scope), or an `affine.apply`
/// of symbols.
pub fn is_valid_symbol(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    if is_constant(ctx, ir, v) {
        return true;
    }
    let owner = ir
        .value_block(v)
        .and_then(|b| ir.block_region(b))
        .and_then(|r| ir.region_op(r));
    if owner.is_some_and(|o| is_named(ctx, ir, o, "func.func")) {
        return true;
    }
    match ir.defining_op(v) {
        Some(d) if is_named(ctx, ir, d, APPLY) => {
            ir.operands(d).all(|o| is_valid_symbol(ctx, ir, o))
        }
        _ => false,
    }
}

fn int_constant(ctx: &mut Context, ir: &mut Ir, v: ValueId) -> Option<i64> {
    i64::try_from(constant_int(ctx, ir, v)?).ok()
}

/// Whether replacing dims by `dims` and symbols by `syms` changes nothing.
fn is_identity(dims: &[AffineExpr], syms: &[AffineExpr]) -> bool {
    let same = |r: &[AffineExpr], dim: bool| {
        r.iter().enumerate().all(|(i, e)| match e {
            AffineExpr::Dim(j) => dim && *j as usize == i,
            AffineExpr::Symbol(j) => !dim && *j as usize == i,
            _ => false,
        })
    };
    same(dims, true) && same(syms, false)
}

/// `exprs` with dims and symbols replaced (borrowed as they are when the
/// replacement is the identity).
fn replace_all<'a>(
    exprs: &'a [AffineExpr],
    dims: &[AffineExpr],
    syms: &[AffineExpr],
) -> Cow<'a, [AffineExpr]> {
    if is_identity(dims, syms) {
        return Cow::Borrowed(exprs);
    }
    Cow::Owned(exprs.iter().map(|e| e.replace(dims, syms)).collect())
}

/// MLIR's `canonicalizeMapAndOperands`.
pub fn canonicalize_map(
    ctx: &mut Context,
    ir: &mut Ir,
    map: &AffineMap,
    operands: &[ValueId],
) -> (AffineMap, Vec<ValueId>) {
    let nd = map.num_dims as usize;
    let ns = map.num_symbols as usize;
    // Dims that are valid symbols become symbols after the others.
    let mut dims = Vec::new();
    let mut promoted = Vec::new();
    let mut dim_repl = Vec::with_capacity(nd);
    for &v in &operands[..nd] {
        if is_valid_symbol(ctx, ir, v) {
            dim_repl.push(AffineExpr::Symbol((ns + promoted.len()) as u32));
            promoted.push(v);
        } else {
            dim_repl.push(AffineExpr::Dim(dims.len() as u32));
            dims.push(v);
        }
    }
    let mut syms: Vec<ValueId> = operands[nd..].to_vec();
    syms.extend(promoted);
    let sym_ident: Vec<AffineExpr> = (0..syms.len() as u32).map(AffineExpr::Symbol).collect();
    let results = replace_all(&map.results, &dim_repl, &sym_ident);
    // Symbols that are valid dims but not valid symbols become dims after
    // the others (MLIR's `legalizeDemotedDims`); others stay symbols.
    let mut sym_repl = Vec::with_capacity(syms.len());
    let mut kept_syms = Vec::new();
    for &v in &syms {
        if is_valid_symbol(ctx, ir, v) || !crate::raise_memref::is_valid_dim(ctx, ir, v) {
            sym_repl.push(AffineExpr::Symbol(kept_syms.len() as u32));
            kept_syms.push(v);
        } else {
            sym_repl.push(AffineExpr::Dim(dims.len() as u32));
            dims.push(v);
        }
    }
    let dim_ident: Vec<AffineExpr> = (0..dims.len() as u32).map(AffineExpr::Dim).collect();
    let results = replace_all(&results, &dim_ident, &sym_repl);
    let syms = kept_syms;
    // Used positions.
    let mut used_dims = vec![false; dims.len()];
    let mut used_syms = vec![false; syms.len()];
    for e in results.iter() {
        e.walk_ids(&mut |is_dim, i| {
            if is_dim {
                used_dims[i as usize] = true;
            } else {
                used_syms[i as usize] = true;
            }
        });
    }
    let mut out = Vec::new();
    let mut dim_map = vec![AffineExpr::Constant(0); dims.len()];
    let mut seen: Vec<(ValueId, AffineExpr)> = Vec::new();
    let mut next_dim = 0u32;
    for (i, &v) in dims.iter().enumerate() {
        if !used_dims[i] {
            continue;
        }
        dim_map[i] = match seen.iter().find(|(s, _)| *s == v) {
            Some((_, e)) => e.clone(),
            None => {
                let e = AffineExpr::Dim(next_dim);
                next_dim += 1;
                out.push(v);
                seen.push((v, e.clone()));
                e
            }
        };
    }
    let mut sym_map = vec![AffineExpr::Constant(0); syms.len()];
    let mut seen_syms: Vec<(ValueId, AffineExpr)> = Vec::new();
    let mut sym_out = Vec::new();
    let mut next_sym = 0u32;
    for (i, &v) in syms.iter().enumerate() {
        if !used_syms[i] {
            continue;
        }
        if let Some(c) = int_constant(ctx, ir, v) {
            sym_map[i] = AffineExpr::Constant(c);
            continue;
        }
        sym_map[i] = match seen_syms.iter().find(|(s, _)| *s == v) {
            Some((_, e)) => e.clone(),
            None => {
                let e = AffineExpr::Symbol(next_sym);
                next_sym += 1;
                sym_out.push(v);
                seen_syms.push((v, e.clone()));
                e
            }
        };
    }
    out.extend(sym_out);
    let results = replace_all(&results, &dim_map, &sym_map);
    let map = AffineMap {
        num_dims: next_dim,
        num_symbols: next_sym,
        results: results
            .iter()
            .map(|e| silica_ir::affine_flatten::simplify_expr(e, next_dim, next_sym))
            .collect(),
    };
    (map, out)
}

/// Substitutes the `affine.apply` producers of a single-result map's
/// operands once; returns `None` when none is an `affine.apply`.
fn compose_once(
    ctx: &Context,
    ir: &Ir,
    map: &AffineMap,
    operands: &[ValueId],
) -> Option<(AffineMap, Vec<ValueId>)> {
    let nd = map.num_dims as usize;
    let producer = |v: ValueId| ir.defining_op(v).filter(|&d| is_named(ctx, ir, d, APPLY));
    if !operands.iter().any(|&v| producer(v).is_some()) {
        return None;
    }
    let mut dims: Vec<ValueId> = Vec::new();
    let mut syms: Vec<ValueId> = Vec::new();
    let mut dim_repl = vec![AffineExpr::Constant(0); nd];
    let mut sym_repl = vec![AffineExpr::Constant(0); operands.len() - nd];
    for (i, &v) in operands[..nd].iter().enumerate() {
        if producer(v).is_none() {
            dim_repl[i] = AffineExpr::Dim(dims.len() as u32);
            dims.push(v);
        }
    }
    for (j, &v) in operands[nd..].iter().enumerate() {
        if producer(v).is_none() {
            sym_repl[j] = AffineExpr::Symbol(syms.len() as u32);
            syms.push(v);
        }
    }
    let substitute = |v: ValueId, dims: &mut Vec<ValueId>, syms: &mut Vec<ValueId>| -> AffineExpr {
        let p = producer(v).expect("apply producer");
        let attr = inherent_attr(ctx, ir, p, "map").expect("apply map");
        let AttrKind::AffineMap(pm) = ctx.attr_kind(attr) else {
            panic!("apply map")
        };
        let pd = pm.num_dims as usize;
        let d: Vec<AffineExpr> = ir
            .operands(p)
            .take(pd)
            .map(|o| {
                dims.push(o);
                AffineExpr::Dim(dims.len() as u32 - 1)
            })
            .collect();
        let s: Vec<AffineExpr> = ir
            .operands(p)
            .skip(pd)
            .map(|o| {
                syms.push(o);
                AffineExpr::Symbol(syms.len() as u32 - 1)
            })
            .collect();
        pm.results[0].replace(&d, &s)
    };
    for (i, &v) in operands[..nd].iter().enumerate() {
        if producer(v).is_some() {
            dim_repl[i] = substitute(v, &mut dims, &mut syms);
        }
    }
    for (j, &v) in operands[nd..].iter().enumerate() {
        if producer(v).is_some() {
            sym_repl[j] = substitute(v, &mut dims, &mut syms);
        }
    }
    let results: Vec<AffineExpr> = map
        .results
        .iter()
        .map(|e| e.replace(&dim_repl, &sym_repl))
        .collect();
    let mut out = dims.clone();
    let nd2 = dims.len() as u32;
    out.extend(syms.iter().copied());
    Some((
        AffineMap {
            num_dims: nd2,
            num_symbols: syms.len() as u32,
            results: results.into_boxed_slice(),
        },
        out,
    ))
}

/// MLIR's `composeAffineMapAndOperands`: each result composed with the
/// `affine.apply` producers to a fixpoint and canonicalized, then all
/// canonicalized together; weighted sums of all the results of a
/// delinearization become its linear index.
pub fn compose_map(
    ctx: &mut Context,
    ir: &mut Ir,
    map: &AffineMap,
    operands: &[ValueId],
) -> (AffineMap, Vec<ValueId>) {
    let (map, operands) = compose_apply_producers(ctx, ir, map, operands);
    match crate::index_ops::cancel_delinearize_sums(ctx, ir, &map, &operands) {
        Some((m, o)) => canonicalize_map(ctx, ir, &m, &o),
        None => (map, operands),
    }
}

fn compose_apply_producers(
    ctx: &mut Context,
    ir: &mut Ir,
    map: &AffineMap,
    operands: &[ValueId],
) -> (AffineMap, Vec<ValueId>) {
    let composes = operands.iter().any(|&v| {
        ir.defining_op(v)
            .is_some_and(|d| is_named(ctx, ir, d, APPLY))
    });
    if !composes {
        return canonicalize_map(ctx, ir, map, operands);
    }
    let mut dims = Vec::new();
    let mut syms = Vec::new();
    let mut exprs = Vec::new();
    for r in map.results.iter() {
        let mut sub = AffineMap {
            num_dims: map.num_dims,
            num_symbols: map.num_symbols,
            results: Box::new([r.clone()]),
        };
        let mut ops = operands.to_vec();
        while let Some((m, o)) = compose_once(ctx, ir, &sub, &ops) {
            sub = m;
            ops = o;
        }
        let (sub, ops) = canonicalize_map(ctx, ir, &sub, &ops);
        let d: Vec<AffineExpr> = (0..sub.num_dims)
            .map(|i| AffineExpr::Dim(i + dims.len() as u32))
            .collect();
        let s: Vec<AffineExpr> = (0..sub.num_symbols)
            .map(|i| AffineExpr::Symbol(i + syms.len() as u32))
            .collect();
        exprs.push(sub.results[0].replace(&d, &s));
        dims.extend_from_slice(&ops[..sub.num_dims as usize]);
        syms.extend_from_slice(&ops[sub.num_dims as usize..]);
    }
    let combined = AffineMap {
        num_dims: dims.len() as u32,
        num_symbols: syms.len() as u32,
        results: exprs.into_boxed_slice(),
    };
    let mut ops = dims;
    ops.extend(syms);
    canonicalize_map(ctx, ir, &combined, &ops)
}

/// `affine.apply`: a result that is one of its operands, or a constant.
pub fn fold_apply(fc: &mut FoldCtx<'_>, op: OpId, c: &[Option<silica_ir::Attr>]) -> FoldResult {
    let Some(map) = map_attr_of(fc.ctx, fc.ir, op) else {
        return FoldResult::Fail;
    };
    let Some(expr) = map.results.first() else {
        return FoldResult::Fail;
    };
    match expr {
        AffineExpr::Dim(i) => return FoldResult::value(fc.ir.operand(op, *i as usize)),
        AffineExpr::Symbol(i) => {
            return FoldResult::value(fc.ir.operand(op, (map.num_dims + i) as usize))
        }
        _ => {}
    }
    let values: Option<Vec<i64>> = constant_ints(fc.ctx, c).into_iter().collect();
    let Some(values) = values else {
        return FoldResult::Fail;
    };
    let nd = map.num_dims as usize;
    match expr.eval(&values[..nd], &values[nd..]) {
        Some(v) => {
            let ty = fc.ir.value_type(fc.ir.result(op, 0));
            FoldResult::attr(fc.ctx.int_attr(ty, v))
        }
        None => FoldResult::Fail,
    }
}

/// Where an op's map operands start (`affine.load` skips the memref,
/// `affine.store` the value and the memref).
fn map_operands_start(ctx: &Context, ir: &Ir, op: OpId) -> usize {
    match ctx.str(ir.op_name(op)) {
        "affine.load" | "affine.prefetch" => 1,
        "affine.store" => 2,
        _ => 0,
    }
}

/// Rewrites the op's map and map operands with the composed and
/// canonicalized ones (MLIR's `SimplifyAffineOp`).
pub(crate) fn simplify_affine_op(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(map) = map_attr_of(rw.ctx, rw.ir, op) else {
        return false;
    };
    let start = map_operands_start(rw.ctx, rw.ir, op);
    let operands: Vec<ValueId> = rw.ir.operands(op).collect();
    let map_ops = &operands[start..];
    let (new_map, new_ops) = compose_map(rw.ctx, rw.ir, &map, map_ops);
    let new_map = crate::bounds::simplify_map_with_operands(rw.ctx, rw.ir, &new_map, &new_ops);
    if new_map == map && new_ops == map_ops {
        return false;
    }
    let mut all = operands[..start].to_vec();
    all.extend(&new_ops);
    let name = rw.ctx.str(rw.ir.op_name(op)).to_string();
    if name == APPLY || name == "affine.min" || name == "affine.max" {
        replace_with_map_op(rw, op, &name, new_map, &all);
    } else {
        let attr = rw.ctx.intern_attr(AttrKind::AffineMap(new_map));
        rw.ir.set_operands(op, &all);
        set_inherent_attr(rw.ctx, rw.ir, op, "map", attr);
        rw.modified(op);
    }
    true
}

/// Replaces single-result `op` with an op `name` of `map` over `operands`.
pub(crate) fn replace_with_map_op(
    rw: &mut Rewriter<'_>,
    op: OpId,
    name: &str,
    map: AffineMap,
    operands: &[ValueId],
) {
    let attr = rw.ctx.intern_attr(AttrKind::AffineMap(map));
    let ty = rw.ir.value_type(rw.ir.result(op, 0));
    let key = rw.ctx.sym("map");
    let props = rw.ctx.dict_attr(vec![(key, attr)]);
    let loc = rw.ir.op_loc(op);
    let new = rw.create_simple(name, operands, &[ty], Some(props), loc);
    let v = rw.ir.result(new, 0);
    rw.replace_op(op, &[v]);
}

/// The `i64` value of each folded operand attribute that is an integer.
pub(crate) fn constant_ints(ctx: &Context, c: &[Option<silica_ir::Attr>]) -> Vec<Option<i64>> {
    c.iter()
        .map(|a| match ctx.attr_kind((*a)?) {
            AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
            _ => None,
        })
        .collect()
}

fn int_prop(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

fn constant_bound(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::AffineMap(m) if m.results.len() == 1 => match m.results[0] {
            AffineExpr::Constant(c) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

/// The trip count of an `affine.for` with constant bounds.
fn constant_trip_count(ctx: &Context, ir: &Ir, op: OpId) -> Option<i64> {
    let lb = constant_bound(ctx, ir, op, "lowerBoundMap")?;
    let ub = constant_bound(ctx, ir, op, "upperBoundMap")?;
    let step = int_prop(ctx, ir, op, "step")?;
    if step <= 0 {
        return None;
    }
    Some(if ub <= lb {
        0
    } else {
        (ub - lb + step - 1) / step
    })
}

/// An `affine.for` whose body only yields: its results are its initial
/// values (or values from outside) when that does not depend on the
/// number of iterations (MLIR's `AffineForEmptyLoopFolder`).
fn empty_loop(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let ir = &*rw.ir;
    let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
        return false;
    };
    let Some(yield_op) = ir.first_op(body) else {
        return false;
    };
    if ir.last_op(body) != Some(yield_op) || ir.num_results(op) == 0 {
        return false;
    }
    let n_results = ir.num_results(op);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let inits = &operands[operands.len() - n_results..];
    let trips = constant_trip_count(rw.ctx, ir, op);
    if trips == Some(0) {
        let inits = inits.to_vec();
        rw.replace_op(op, &inits);
        return true;
    }
    let args = ir.block_args(body).to_vec();
    let iv = args[0];
    let iter_args = &args[1..];
    let mut replacements = Vec::new();
    let mut outside = false;
    let mut out_of_order = false;
    for (i, v) in ir.operands(yield_op).enumerate() {
        if v == iv {
            return false;
        }
        match iter_args.iter().position(|&a| a == v) {
            Some(pos) => {
                out_of_order |= pos != i;
                replacements.push(inits[pos]);
            }
            None => {
                outside = true;
                replacements.push(v);
            }
        }
    }
    if trips.is_none() && (outside || out_of_order) {
        return false;
    }
    if trips.is_some_and(|t| t >= 2) && out_of_order {
        return false;
    }
    rw.replace_op(op, &replacements);
    true
}

/// `affine.for` patterns.
pub static FOR: &[Pattern] = &[Pattern::new("AffineForEmptyLoopFolder", empty_loop)];

/// The affine ops' map simplification pattern.
pub static SIMPLIFY: &[Pattern] = &[Pattern::new("SimplifyAffineOp", simplify_affine_op)];

/// `affine.if`'s fold: its set composed with the `affine.apply`
/// producers of its operands and canonicalized with them, as a map of
/// the constraints is (MLIR's `AffineIfOp::fold`).
pub fn fold_if(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<silica_ir::Attr>]) -> FoldResult {
    let Some(set) =
        inherent_attr(fc.ctx, fc.ir, op, "condition").and_then(|a| match fc.ctx.attr_kind(a) {
            AttrKind::IntegerSet(s) => Some(s.clone()),
            _ => None,
        })
    else {
        return FoldResult::Fail;
    };
    let operands: Vec<ValueId> = fc.ir.operands(op).collect();
    let as_map = AffineMap {
        num_dims: set.num_dims,
        num_symbols: set.num_symbols,
        results: set.constraints.clone(),
    };
    let (map, new_operands) = compose_map(fc.ctx, fc.ir, &as_map, &operands);
    let new_set = IntegerSet {
        num_dims: map.num_dims,
        num_symbols: map.num_symbols,
        constraints: map.results,
        eq: set.eq.clone(),
    };
    if new_set == set && new_operands == operands {
        return FoldResult::Fail;
    }
    let attr = fc.ctx.intern_attr(AttrKind::IntegerSet(new_set));
    fc.ir.set_operands(op, &new_operands);
    set_inherent_attr(fc.ctx, fc.ir, op, "condition", attr);
    FoldResult::InPlace
}

/// An `affine.if` whose set is the canonical empty set (`1 == 0`) or the
/// universe (`0 == 0`) replaced by the ops of its else or then block (an
/// empty set without an else block erases the op); MLIR's
/// `AlwaysTrueOrFalseIf`.
pub fn always_true_or_false_if(rw: &mut Rewriter<'_>, op: OpId) -> bool {
    let Some(set) =
        inherent_attr(rw.ctx, rw.ir, op, "condition").and_then(|a| match rw.ctx.attr_kind(a) {
            AttrKind::IntegerSet(s) => Some(s.clone()),
            _ => None,
        })
    else {
        return false;
    };
    let single = |c: i64| *set.constraints == [AffineExpr::Constant(c)] && *set.eq == [true];
    let regions: Vec<silica_ir::RegionId> = rw.ir.regions(op).collect();
    let block = |i: usize| regions.get(i).and_then(|&r| rw.ir.entry_block(r));
    let chosen = if single(1) {
        match block(1) {
            Some(b) => b,
            None => {
                if rw.ir.num_results(op) != 0 {
                    return false;
                }
                rw.erase_op(op);
                return true;
            }
        }
    } else if single(0) {
        match block(0) {
            Some(b) => b,
            None => return false,
        }
    } else {
        return false;
    };
    let Some(terminator) = rw.ir.last_op(chosen) else {
        return false;
    };
    let ops: Vec<OpId> = rw.ir.block_ops(chosen).collect();
    for &o in &ops[..ops.len() - 1] {
        rw.move_op_before(o, op);
    }
    let values: Vec<ValueId> = rw.ir.operands(terminator).collect();
    rw.replace_op(op, &values);
    true
}
