//! Hyper-rectangular tiling of bands of perfectly nested `affine.for`
//! loops, as MLIR's `tilePerfectlyNested`: a band of `n` loops becomes
//! `n` tile-space loops (the original bounds, step times the tile size)
//! around `n` intra-tile loops from the tile-space induction variable to
//! `iv + size * step` — with the original upper bounds added as a `min`
//! when the size does not divide the trip count, and the trip count
//! itself when it is smaller than the size. [`separate_full_tiles`]
//! versions the intra-tile nest into full tiles (constant trip counts)
//! under an `affine.if` and the partial ones in its `else`.

use crate::for_op::{self, Bound};
use crate::loops::{constant_trip_count, largest_divisor_of_trip_count};
use silica_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use silica_ir::affine_flatten::{flatten_linear, from_linear};
use silica_ir::{AttrKind, BlockId, Context, Ir, OpId, OpSpec, ValueId};

/// Why a band cannot be tiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TilingError {
    /// A loop of the band yields values.
    YieldsValues,
    /// The loops are not each the only op of the one before.
    NotPerfectlyNested,
    /// A bound of a loop depends on an outer loop of the band (or is
    /// not affine).
    NotHyperRectangular,
    /// The band and its tile sizes differ in length or a size is zero.
    BadTileSizes,
}

/// MLIR's `getTileableBands`: the maximal perfect nest rooted at each
/// `affine.for` at the top level of the blocks of `func`'s body.
pub fn tileable_bands(ctx: &Context, ir: &Ir, func: OpId) -> Vec<Vec<OpId>> {
    let mut bands = Vec::new();
    for region in ir.regions(func) {
        for block in ir.region_blocks(region) {
            for op in ir.block_ops(block) {
                if for_op::is_for(ctx, ir, op) {
                    bands.push(for_op::perfect_nest(ctx, ir, op));
                }
            }
        }
    }
    bands
}

/// The operand positions a map's results use.
fn used_operands(map: &AffineMap) -> Vec<usize> {
    let mut used = Vec::new();
    for e in map.results.iter() {
        e.walk_ids(&mut |is_dim, i| {
            let at = if is_dim { i } else { map.num_dims + i } as usize;
            if !used.contains(&at) {
                used.push(at);
            }
        });
    }
    used
}

/// Whether no loop of `band` has a bound over the induction variable of
/// an enclosing loop of the band, and all bounds are affine (MLIR builds
/// the band's index set, which fails on semi-affine bounds).
pub fn is_hyper_rectangular(ctx: &Context, ir: &Ir, band: &[OpId]) -> bool {
    if band.len() <= 1 {
        return true;
    }
    let ivs: Vec<ValueId> = band
        .iter()
        .filter_map(|&l| for_op::induction_var(ir, l))
        .collect();
    band.iter().all(|&l| {
        let Some((lb, ub)) = for_op::bounds(ctx, ir, l) else {
            return false;
        };
        [lb, ub].iter().all(|b| {
            b.map.results.iter().all(AffineExpr::is_pure_affine)
                && used_operands(&b.map)
                    .into_iter()
                    .all(|i| b.operands.get(i).is_some_and(|v| !ivs.contains(v)))
        })
    })
}

/// MLIR's pre-tiling checks: no loop yields values, the band is
/// perfectly nested and its index set hyper-rectangular.
pub fn check_tileable(ctx: &Context, ir: &Ir, band: &[OpId]) -> Result<(), TilingError> {
    if band.iter().any(|&l| ir.num_results(l) > 0) {
        return Err(TilingError::YieldsValues);
    }
    if !for_op::is_perfectly_nested(ir, band) {
        return Err(TilingError::NotPerfectlyNested);
    }
    if !is_hyper_rectangular(ctx, ir, band) {
        return Err(TilingError::NotHyperRectangular);
    }
    Ok(())
}

/// The terminator of the loop `op`'s body.
fn terminator(ir: &Ir, op: OpId) -> Option<OpId> {
    for_op::body(ir, op).and_then(|b| ir.last_op(b))
}

/// The upper bound of the intra-tile loop of `orig` tiled by `size`,
/// starting at the tile-space induction variable `tile_iv`.
fn intra_tile_upper_bound(
    ctx: &mut Context,
    ir: &mut Ir,
    orig: OpId,
    size: u64,
    tile_iv: ValueId,
) -> Option<Bound> {
    let (_, ub) = for_op::bounds(ctx, ir, orig)?;
    let step = for_op::step(ctx, ir, orig);
    let largest_divisor = largest_divisor_of_trip_count(ctx, ir, orig);
    if let Some(count) = constant_trip_count(ctx, ir, orig).filter(|&c| c < size) {
        return Some(Bound::shifted_dim(tile_iv, count as i64 * step));
    }
    let extent = size as i64 * step;
    if largest_divisor.is_multiple_of(size) {
        return Some(Bound::shifted_dim(tile_iv, extent));
    }
    // min(tile_iv + size * step, original upper bounds): the tile-space
    // variable is a new dimension after the original ones.
    let nd = ub.map.num_dims;
    let mut results = vec![AffineExpr::Dim(nd).plus(AffineExpr::Constant(extent))];
    results.extend(ub.map.results.iter().cloned());
    let mut operands = ub.operands[..nd as usize].to_vec();
    operands.push(tile_iv);
    operands.extend_from_slice(&ub.operands[nd as usize..]);
    Some(Bound {
        map: AffineMap {
            num_dims: nd + 1,
            num_symbols: ub.map.num_symbols,
            results: results.into_boxed_slice(),
        },
        operands,
    })
}

/// Tiles the perfectly nested `band` (outermost first) by `sizes`, one
/// per loop, as MLIR's `tilePerfectlyNested`; returns the new nest, the
/// tile-space loops then the intra-tile loops. The band's loops are
/// erased.
pub fn tile_perfectly_nested(
    ctx: &mut Context,
    ir: &mut Ir,
    band: &[OpId],
    sizes: &[u64],
) -> Result<Vec<OpId>, TilingError> {
    if band.is_empty() {
        return Ok(Vec::new());
    }
    if band.len() != sizes.len() || sizes.contains(&0) {
        return Err(TilingError::BadTileSizes);
    }
    check_tileable(ctx, ir, band)?;
    let width = band.len();
    let nest = build_tiled_nest(ctx, ir, band)?;
    for (i, (&orig, &size)) in band.iter().zip(sizes).enumerate() {
        let (lb, ub) = for_op::bounds(ctx, ir, orig).ok_or(TilingError::NotHyperRectangular)?;
        let step = for_op::step(ctx, ir, orig);
        let scaled = (size as i64).saturating_mul(step);
        for_op::set_bounds(ctx, ir, nest[i], &lb, &ub, scaled);
    }
    for (i, &orig) in band.iter().enumerate() {
        let tile_iv = for_op::induction_var(ir, nest[i]).ok_or(TilingError::NotPerfectlyNested)?;
        let step = for_op::step(ctx, ir, orig);
        let ub = intra_tile_upper_bound(ctx, ir, orig, sizes[i], tile_iv)
            .ok_or(TilingError::NotHyperRectangular)?;
        let lb = Bound::shifted_dim(tile_iv, 0);
        for_op::set_bounds(ctx, ir, nest[width + i], &lb, &ub, step);
    }
    finish_tiling(ir, band, &nest);
    Ok(nest)
}

/// MLIR's `constructTiledLoopNest`: `2 * band.len()` new loops with
/// placeholder bounds nested before the band's root, the body of the
/// band's innermost loop moved into the innermost new one.
fn build_tiled_nest(
    ctx: &mut Context,
    ir: &mut Ir,
    band: &[OpId],
) -> Result<Vec<OpId>, TilingError> {
    let width = band.len();
    let root = band[0];
    let loc = ir.op_loc(root);
    let zero = Bound::constant(0);
    let nest: Vec<OpId> = (0..2 * width)
        .map(|_| for_op::create_for(ctx, ir, loc, &zero, &zero, 1))
        .collect();
    ir.insert_op_before(root, nest[0]);
    for w in nest.windows(2) {
        let at = terminator(ir, w[0]).ok_or(TilingError::NotPerfectlyNested)?;
        ir.insert_op_before(at, w[1]);
    }
    let innermost = *nest.last().unwrap_or(&root);
    let end = terminator(ir, innermost).ok_or(TilingError::NotPerfectlyNested)?;
    for op in for_op::body_ops(ir, band[width - 1]) {
        ir.move_op_before(op, end);
    }
    Ok(nest)
}

/// The band's induction variables replaced by the intra-tile loops'
/// (the second half of `nest`), and the band erased.
fn finish_tiling(ir: &mut Ir, band: &[OpId], nest: &[OpId]) {
    let width = band.len();
    for (i, &orig) in band.iter().enumerate() {
        if let (Some(from), Some(to)) = (
            for_op::induction_var(ir, orig),
            for_op::induction_var(ir, nest[width + i]),
        ) {
            ir.replace_all_uses(from, to);
        }
    }
    ir.erase_op(band[0]);
}

/// `bound` with one more dimension operand `dim` after its dimensions
/// and one more symbol operand `sym` after its symbols; the new dimension
/// and symbol expressions and the new operand list.
fn widen_bound(
    bound: &Bound,
    dim: Option<ValueId>,
    sym: ValueId,
) -> (AffineExpr, AffineExpr, Vec<ValueId>) {
    let nd = bound.map.num_dims as usize;
    let mut operands = bound.operands[..nd].to_vec();
    operands.extend(dim);
    let new_dim = AffineExpr::Dim(nd as u32);
    operands.extend_from_slice(&bound.operands[nd..]);
    operands.push(sym);
    (new_dim, AffineExpr::Symbol(bound.map.num_symbols), operands)
}

/// Tiles the perfectly nested `band` by the index values `sizes` (one
/// per loop), as MLIR's `tilePerfectlyNestedParametric`: a tile-space
/// loop from the original lower bound `lb` to `lb + (ub - lb) ceildiv t`
/// for each upper bound `ub`, and an intra-tile loop from
/// `(iv - lb) * t + lb` to the minimum of `(iv - lb) * t + t * step + lb`
/// and the original upper bounds, both by the original step. Every loop
/// of the band needs a constant lower bound.
pub fn tile_perfectly_nested_parametric(
    ctx: &mut Context,
    ir: &mut Ir,
    band: &[OpId],
    sizes: &[ValueId],
) -> Result<Vec<OpId>, TilingError> {
    if band.is_empty() {
        return Ok(Vec::new());
    }
    if band.len() != sizes.len() {
        return Err(TilingError::BadTileSizes);
    }
    check_tileable(ctx, ir, band)?;
    let mut bounds = Vec::with_capacity(band.len());
    for &l in band {
        let (lb, ub) = for_op::bounds(ctx, ir, l).ok_or(TilingError::NotHyperRectangular)?;
        let lower = lb.as_constant().ok_or(TilingError::NotHyperRectangular)?;
        bounds.push((lb, ub, lower, for_op::step(ctx, ir, l)));
    }
    let width = band.len();
    let nest = build_tiled_nest(ctx, ir, band)?;
    for (i, (lb, ub, lower, step)) in bounds.iter().enumerate() {
        let c = AffineExpr::Constant(*lower);
        let (_, t, operands) = widen_bound(ub, None, sizes[i]);
        let results: Vec<AffineExpr> = match ub.as_constant() {
            Some(u) => vec![c
                .clone()
                .plus(AffineExpr::Constant(u).minus(c.clone()).ceil_div(t.clone()))],
            None => ub
                .map
                .results
                .iter()
                .map(|e| {
                    c.clone()
                        .plus(e.clone().minus(c.clone()).ceil_div(t.clone()))
                })
                .collect(),
        };
        let tile_ub = Bound {
            map: AffineMap {
                num_dims: ub.map.num_dims,
                num_symbols: ub.map.num_symbols + 1,
                results: results.into_boxed_slice(),
            },
            operands,
        };
        for_op::set_bounds(ctx, ir, nest[i], lb, &tile_ub, *step);
    }
    for (i, (lb, ub, lower, step)) in bounds.iter().enumerate() {
        let tile_iv = for_op::induction_var(ir, nest[i]).ok_or(TilingError::NotPerfectlyNested)?;
        let c = AffineExpr::Constant(*lower);
        let (d, t, lb_operands) = widen_bound(lb, Some(tile_iv), sizes[i]);
        let intra_lb = Bound {
            map: AffineMap {
                num_dims: lb.map.num_dims + 1,
                num_symbols: lb.map.num_symbols + 1,
                results: Box::new([d.minus(c.clone()).times(t).plus(c.clone())]),
            },
            operands: lb_operands,
        };
        let (d, t, ub_operands) = widen_bound(ub, Some(tile_iv), sizes[i]);
        let mut results = vec![d
            .minus(c.clone())
            .times(t.clone())
            .plus(t.times(AffineExpr::Constant(*step)))
            .plus(c)];
        results.extend(ub.map.results.iter().cloned());
        let intra_ub = Bound {
            map: AffineMap {
                num_dims: ub.map.num_dims + 1,
                num_symbols: ub.map.num_symbols + 1,
                results: results.into_boxed_slice(),
            },
            operands: ub_operands,
        };
        for_op::set_bounds(ctx, ir, nest[width + i], &intra_lb, &intra_ub, *step);
    }
    finish_tiling(ir, band, &nest);
    Ok(nest)
}

/// A linear form over a list of values: coefficients then a constant.
struct Linear {
    values: Vec<ValueId>,
}

impl Linear {
    /// The coefficients (over `self.values`, growing it) and constant of
    /// result `i` of `bound`, when linear.
    fn of(&mut self, ctx: &Context, ir: &Ir, bound: &Bound, i: usize) -> Option<(Vec<i64>, i64)> {
        let map = &bound.map;
        let v = flatten_linear(&map.results[i], map.num_dims, map.num_symbols)?;
        let mut coeffs = vec![0; self.values.len()];
        let mut constant = *v.last()?;
        for (at, &c) in v[..v.len() - 1].iter().enumerate() {
            if c == 0 {
                continue;
            }
            let value = bound.operands[at];
            if let Some(k) = silica_ir::rewrite::fold::constant_i64(ctx, ir, value) {
                constant += c * k;
                continue;
            }
            let pos = match self.values.iter().position(|&x| x == value) {
                Some(p) => p,
                None => {
                    self.values.push(value);
                    coeffs.push(0);
                    self.values.len() - 1
                }
            };
            coeffs[pos] += c;
        }
        Some((coeffs, constant))
    }
}

fn diff(a: &(Vec<i64>, i64), b: &(Vec<i64>, i64)) -> (Vec<i64>, i64) {
    let n = a.0.len().max(b.0.len());
    let at = |v: &Vec<i64>, i: usize| v.get(i).copied().unwrap_or(0);
    (
        (0..n).map(|i| at(&a.0, i) - at(&b.0, i)).collect(),
        a.1 - b.1,
    )
}

/// For each loop of `nest`, the pair of lower and upper bound results
/// (as linear forms) whose difference is the smallest constant, and the
/// other bound results; `None` when some loop has no such pair, a step
/// other than 1 or non-linear bounds.
type Pair = ((Vec<i64>, i64), (Vec<i64>, i64));

struct LoopBounds {
    full: Pair,
    lbs: Vec<(Vec<i64>, i64)>,
    ubs: Vec<(Vec<i64>, i64)>,
}

fn loop_bounds(ctx: &Context, ir: &Ir, op: OpId, lin: &mut Linear) -> Option<LoopBounds> {
    if for_op::step(ctx, ir, op) != 1 {
        return None;
    }
    let (lb, ub) = for_op::bounds(ctx, ir, op)?;
    let lbs: Vec<_> = (0..lb.map.results.len())
        .map(|i| lin.of(ctx, ir, &lb, i))
        .collect::<Option<_>>()?;
    let ubs: Vec<_> = (0..ub.map.results.len())
        .map(|i| lin.of(ctx, ir, &ub, i))
        .collect::<Option<_>>()?;
    let mut best: Option<(i64, usize, usize)> = None;
    for (i, l) in lbs.iter().enumerate() {
        for (j, u) in ubs.iter().enumerate() {
            let (c, k) = diff(u, l);
            if c.iter().all(|&x| x == 0) && best.is_none_or(|(b, _, _)| k < b) {
                best = Some((k, i, j));
            }
        }
    }
    let (_, i, j) = best?;
    Some(LoopBounds {
        full: (lbs[i].clone(), ubs[j].clone()),
        lbs,
        ubs,
    })
}

/// The bound `form` (over `values`) as a map over its used values.
fn bound_of(ctx: &mut Context, ir: &mut Ir, form: &(Vec<i64>, i64), values: &[ValueId]) -> Bound {
    let mut operands = Vec::new();
    let mut coeffs = Vec::new();
    for (i, &c) in form.0.iter().enumerate() {
        if c != 0 {
            operands.push(values[i]);
            coeffs.push(c);
        }
    }
    coeffs.push(form.1);
    let n = operands.len() as u32;
    let map = AffineMap {
        num_dims: n,
        num_symbols: 0,
        results: Box::new([from_linear(&coeffs, n, 0)]),
    };
    let (map, operands) = crate::canonicalize::canonicalize_map(ctx, ir, &map, &operands);
    Bound { map, operands }
}

/// The guard of the full tiles of `nest`: each full-tile lower bound is
/// at least every other lower bound, each full-tile upper bound at most
/// every other upper bound (MLIR's `createSeparationCondition`); the
/// universe set `0 == 0` when every tile is full.
fn separation_condition(
    ctx: &mut Context,
    ir: &mut Ir,
    bounds: &[LoopBounds],
    values: &[ValueId],
) -> (IntegerSet, Vec<ValueId>) {
    let mut rows: Vec<(Vec<i64>, i64)> = Vec::new();
    for b in bounds {
        let (full_lb, full_ub) = &b.full;
        for l in &b.lbs {
            rows.push(diff(full_lb, l));
        }
        for u in &b.ubs {
            rows.push(diff(u, full_ub));
        }
    }
    let widen = |(c, k): (Vec<i64>, i64)| {
        let mut c = c;
        c.resize(values.len(), 0);
        (c, k)
    };
    let mut kept: Vec<(Vec<i64>, i64)> = Vec::new();
    for row in rows.into_iter().map(widen) {
        let trivial = row.0.iter().all(|&x| x == 0) && row.1 >= 0;
        if !trivial && !kept.contains(&row) {
            kept.push(row);
        }
    }
    if kept.is_empty() {
        // Every tile is full: MLIR still versions, on the universe set.
        let set = IntegerSet {
            num_dims: 0,
            num_symbols: 0,
            constraints: Box::new([AffineExpr::Constant(0)]),
            eq: Box::new([true]),
        };
        return (set, Vec::new());
    }
    // Operands that are valid symbols become symbols, the others dims.
    let is_sym: Vec<bool> = values
        .iter()
        .map(|&v| crate::canonicalize::is_valid_symbol(ctx, ir, v))
        .collect();
    let used: Vec<usize> = (0..values.len())
        .filter(|&i| kept.iter().any(|r| r.0[i] != 0))
        .collect();
    let dims: Vec<usize> = used.iter().copied().filter(|&i| !is_sym[i]).collect();
    let syms: Vec<usize> = used.iter().copied().filter(|&i| is_sym[i]).collect();
    let (nd, ns) = (dims.len() as u32, syms.len() as u32);
    let constraints: Vec<AffineExpr> = kept
        .iter()
        .map(|(c, k)| {
            let mut v: Vec<i64> = dims.iter().chain(&syms).map(|&i| c[i]).collect();
            v.push(*k);
            from_linear(&v, nd, ns)
        })
        .collect();
    let operands = dims.iter().chain(&syms).map(|&i| values[i]).collect();
    let eq = vec![false; constraints.len()].into_boxed_slice();
    (
        IntegerSet {
            num_dims: nd,
            num_symbols: ns,
            constraints: constraints.into_boxed_slice(),
            eq,
        },
        operands,
    )
}

fn create_yield(ctx: &mut Context, ir: &mut Ir, loc: silica_ir::Attr, block: BlockId) {
    let name = ctx.sym("affine.yield");
    let attrs = ctx.empty_dict();
    let y = ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    });
    ir.append_op(block, y);
}

/// Versions the contiguously nested intra-tile loops `nest` into full
/// tiles — loops with the constant-trip-count bound pair, under an
/// `affine.if` on the condition that they are full — and the original
/// (partial tile) nest in its `else` (MLIR's `separateFullTiles`).
/// Returns the full-tile nest, or `None` (nothing changed) when a loop
/// has no constant-size bound pair, a non-unit step, non-linear bounds
/// or bounds over the induction variable of an enclosing loop of `nest`.
pub fn separate_full_tiles(ctx: &mut Context, ir: &mut Ir, nest: &[OpId]) -> Option<Vec<OpId>> {
    let first = *nest.first()?;
    let mut lin = Linear { values: Vec::new() };
    let bounds: Vec<LoopBounds> = nest
        .iter()
        .map(|&l| loop_bounds(ctx, ir, l, &mut lin))
        .collect::<Option<_>>()?;
    let values = lin.values;
    if nest
        .iter()
        .any(|&l| for_op::induction_var(ir, l).is_some_and(|iv| values.contains(&iv)))
    {
        return None;
    }
    let (set, set_operands) = separation_condition(ctx, ir, &bounds, &values);
    let loc = ir.op_loc(first);
    // The full-tile nest, its body a copy of the innermost loop's body.
    let mut full = Vec::new();
    for b in &bounds {
        let lb = bound_of(ctx, ir, &b.full.0, &values);
        let ub = bound_of(ctx, ir, &b.full.1, &values);
        let l = for_op::create_for(ctx, ir, loc, &lb, &ub, 1);
        if let Some(&outer) = full.last() {
            let at = terminator(ir, outer)?;
            ir.insert_op_before(at, l);
        }
        full.push(l);
    }
    let innermost = *full.last()?;
    let end = terminator(ir, innermost)?;
    let mut body = Vec::new();
    for op in for_op::body_ops(ir, *nest.last()?) {
        let copy = ir.clone_op(op);
        ir.insert_op_before(end, copy);
        body.push((op, copy));
    }
    for (i, &l) in nest.iter().enumerate() {
        let (Some(from), Some(to)) = (
            for_op::induction_var(ir, l),
            for_op::induction_var(ir, full[i]),
        ) else {
            continue;
        };
        replace_uses_in(
            ir,
            from,
            to,
            &body.iter().map(|&(_, c)| c).collect::<Vec<_>>(),
        );
    }
    // Values of the original body used in the copies map to the copies.
    for &(orig, copy) in &body {
        let pairs: Vec<(ValueId, ValueId)> = ir.results(orig).zip(ir.results(copy)).collect();
        for (from, to) in pairs {
            replace_uses_in(
                ir,
                from,
                to,
                &body.iter().map(|&(_, c)| c).collect::<Vec<_>>(),
            );
        }
    }
    // affine.if (full) { full tiles } else { partial tiles }.
    let then_region = ir.create_region();
    let then_block = ir.create_block();
    ir.append_block(then_region, then_block);
    create_yield(ctx, ir, loc, then_block);
    let else_region = ir.create_region();
    let else_block = ir.create_block();
    ir.append_block(else_region, else_block);
    create_yield(ctx, ir, loc, else_block);
    let set_attr = ctx.intern_attr(AttrKind::IntegerSet(set));
    let key = ctx.sym("condition");
    let props = ctx.dict_attr(vec![(key, set_attr)]);
    let name = ctx.sym("affine.if");
    let attrs = ctx.empty_dict();
    let if_op = ir.create_op(OpSpec {
        name,
        loc,
        operands: &set_operands,
        result_types: &[],
        successors: &[],
        regions: &[then_region, else_region],
        attrs,
        props: Some(props),
    });
    ir.insert_op_before(first, if_op);
    let then_end = ir.last_op(then_block)?;
    ir.insert_op_before(then_end, full[0]);
    let else_end = ir.last_op(else_block)?;
    ir.move_op_before(first, else_end);
    Some(full)
}

/// Replaces the uses of `from` by `to` inside `ops` (and their regions).
fn replace_uses_in(ir: &mut Ir, from: ValueId, to: ValueId, ops: &[OpId]) {
    let uses: Vec<_> = ir
        .uses(from)
        .filter(|&u| {
            let owner = ir.use_owner(u);
            ops.iter().any(|&o| ir.is_ancestor(o, owner))
        })
        .collect();
    for u in uses {
        ir.set_use(u, to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(c: &[i64], k: i64) -> (Vec<i64>, i64) {
        (c.to_vec(), k)
    }

    #[test]
    fn difference_of_linear_forms_pads_the_shorter() {
        assert_eq!(diff(&row(&[1, 2], 3), &row(&[1], 1)), row(&[0, 2], 2));
    }

    #[test]
    fn used_operands_reads_dims_and_symbols() {
        let map = AffineMap {
            num_dims: 2,
            num_symbols: 1,
            results: Box::new([AffineExpr::Dim(1).plus(AffineExpr::Symbol(0))]),
        };
        assert_eq!(used_operands(&map), vec![1, 2]);
    }
}
