//! Computation slices (MLIR's `ComputationSliceState`): the iterations of
//! one loop nest that another nest's iterations at a loop depth depend
//! on, as bounds of the sliced nest's loops in terms of the other nest's
//! outer induction variables and the symbols. A slice comes from the
//! dependence constraints of every dependent access pair (the other
//! nest's inner induction variables projected out, then each sliced
//! variable solved from an equality or bounded by the remaining
//! inequalities, else by constants), united per loop, and checked: it
//! must stay inside the sliced nest's iteration domain, exactly over the
//! integers. `can_fuse` is MLIR's `canFuseLoops`.

use super::graph::{is_read, is_write, memref_of};
use crate::dependence::{
    accesses_of, check_dependence, dependence_system, DependenceResult, MemoryAccess, Precision,
};
use crate::presburger::{BoundKind, Int, IntegerSystem, ValueSystem};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::affine_flatten::simplify_expr;
use silica_ir::{Context, Ir, OpId, ValueId};

/// A slice of a loop nest.
#[derive(Clone, Debug)]
pub struct Slice {
    /// The sliced nest's induction variables (outermost first, loops
    /// around both nests included).
    pub ivs: Vec<ValueId>,
    /// Per induction variable, its new bounds (`None`: not sliced).
    pub lbs: Vec<Option<AffineMap>>,
    pub ubs: Vec<Option<AffineMap>>,
    /// The bound maps' operands: the other nest's outer induction
    /// variables (dims), then the symbols.
    pub operands: Vec<ValueId>,
    /// The loop of the other nest whose body receives the slice.
    pub insert_loop: OpId,
    /// At the start of that body (backward slices) or before its
    /// terminator (forward slices).
    pub at_start: bool,
}

/// What a fusion slices for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Every access of the source nest (MLIR's test utilities).
    Generic,
    /// The source nest's stores against everything the destination accesses.
    ProducerConsumer,
    /// The source nest's loads of this memref (input reuse).
    Sibling(ValueId),
}

/// The `affine.for` ops around `op`, outermost first (MLIR's
/// `getAffineForIVs`).
pub fn enclosing_fors(ctx: &Context, ir: &Ir, op: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if ctx.str(ir.op_name(p)) == "affine.for" {
            out.push(p);
        }
        cur = ir.parent_op(p);
    }
    out.reverse();
    out
}

fn iv_of(ir: &Ir, lp: OpId) -> ValueId {
    crate::for_op::induction_var(ir, lp).expect("affine.for has an induction variable")
}

/// The number of `affine.for` loops around all of `ops` (MLIR's
/// `getInnermostCommonLoopDepth`), and those loops.
pub fn innermost_common_loops(ctx: &Context, ir: &Ir, ops: &[OpId]) -> Vec<OpId> {
    let Some(&first) = ops.first() else {
        return Vec::new();
    };
    let mut common = enclosing_fors(ctx, ir, first);
    for &o in &ops[1..] {
        let l = enclosing_fors(ctx, ir, o);
        let n = common.iter().zip(&l).take_while(|(a, b)| a == b).count();
        common.truncate(n);
    }
    common
}

fn common_loop_count(ctx: &Context, ir: &Ir, a: OpId, b: OpId) -> usize {
    innermost_common_loops(ctx, ir, &[a, b]).len()
}

/// The affine loads and stores under `root`; `None` if an `affine.if`
/// is there (fusion does not handle them).
fn loads_and_stores(ctx: &Context, ir: &Ir, root: OpId) -> Option<Vec<OpId>> {
    let mut out = Vec::new();
    let mut has_if = false;
    ir.walk(root, &mut |o| {
        if is_read(ctx, ir, o) || is_write(ctx, ir, o) {
            out.push(o);
        } else if ctx.str(ir.op_name(o)) == "affine.if" {
            has_if = true;
        }
    });
    (!has_if).then_some(out)
}

/// The memrefs `srcs` store to that `dsts` load.
pub fn producer_consumer_memrefs(
    ctx: &Context,
    ir: &Ir,
    srcs: &[OpId],
    dsts: &[OpId],
) -> Vec<ValueId> {
    let mut out = Vec::new();
    for &s in srcs {
        if !is_write(ctx, ir, s) {
            continue;
        }
        let m = memref_of(ctx, ir, s);
        if !out.contains(&m)
            && dsts
                .iter()
                .any(|&d| is_read(ctx, ir, d) && memref_of(ctx, ir, d) == m)
        {
            out.push(m);
        }
    }
    out
}

fn access(ctx: &Context, ir: &Ir, op: OpId) -> Option<MemoryAccess> {
    accesses_of(ctx, ir, op).ok()?.into_iter().next()
}

/// The deepest depth the destination's own accesses to the
/// producer-consumer memrefs allow (MLIR's `getMaxLoopDepth`).
fn max_loop_depth(ctx: &Context, ir: &Ir, src_ops: &[OpId], dst_ops: &[OpId]) -> usize {
    let memrefs = producer_consumer_memrefs(ctx, ir, src_ops, dst_ops);
    let targets: Vec<OpId> = dst_ops
        .iter()
        .copied()
        .filter(|&o| memrefs.contains(&memref_of(ctx, ir, o)))
        .collect();
    if targets.is_empty() {
        return 0;
    }
    let mut depth = innermost_common_loops(ctx, ir, &targets).len();
    if targets.iter().all(|&o| is_read(ctx, ir, o)) {
        return depth;
    }
    for &a in &targets {
        let Some(sa) = access(ctx, ir, a) else {
            return 0;
        };
        for &b in &targets {
            let Some(sb) = access(ctx, ir, b) else {
                return 0;
            };
            let common = common_loop_count(ctx, ir, a, b);
            for d in 1..=common + 1 {
                if check_dependence(ctx, ir, &sa, &sb, d, Precision::Shadow)
                    != DependenceResult::NoDependence
                {
                    depth = depth.min(d - 1);
                    break;
                }
            }
        }
    }
    depth
}

/// Whether some access under `op_x` conflicts with the accesses in
/// `values` (memref, written).
fn conflicts(ctx: &Context, ir: &Ir, op_x: OpId, values: &[(ValueId, bool)]) -> bool {
    let mut hit = false;
    ir.walk(op_x, &mut |o| {
        if is_read(ctx, ir, o) {
            let m = memref_of(ctx, ir, o);
            hit |= values.iter().any(|&(v, w)| v == m && w);
        } else if is_write(ctx, ir, o) {
            let m = memref_of(ctx, ir, o);
            hit |= values.iter().any(|&(v, _)| v == m);
        }
    });
    hit
}

fn access_summary(ctx: &Context, ir: &Ir, root: OpId) -> Vec<(ValueId, bool)> {
    let mut out: Vec<(ValueId, bool)> = Vec::new();
    ir.walk(root, &mut |o| {
        let w = is_write(ctx, ir, o);
        if is_read(ctx, ir, o) || w {
            let m = memref_of(ctx, ir, o);
            match out.iter_mut().find(|(v, _)| *v == m) {
                Some((_, x)) => *x |= w,
                None => out.push((m, w)),
            }
        }
    });
    out
}

/// Whether a fused nest of `a` (earlier) and `b` can go somewhere in
/// their block (MLIR's op-level `getFusedLoopNestInsertionPoint`).
fn has_insertion_point(ctx: &Context, ir: &Ir, a: OpId, b: OpId) -> bool {
    let va = access_summary(ctx, ir, a);
    let vb = access_summary(ctx, ir, b);
    let mut first_dep_a = None;
    let mut cur = ir.next_op(a);
    let mut pos = 0;
    let mut last_dep_b = None;
    while let Some(o) = cur {
        if o == b {
            break;
        }
        if first_dep_a.is_none() && conflicts(ctx, ir, o, &va) {
            first_dep_a = Some(pos);
        }
        let mut uses_b = conflicts(ctx, ir, o, &vb);
        if !uses_b {
            ir.walk(o, &mut |x| {
                for r in ir.results(x) {
                    for u in ir.uses(r) {
                        if ir.is_ancestor(b, ir.use_owner(u)) {
                            uses_b = true;
                        }
                    }
                }
            });
        }
        if uses_b {
            last_dep_b = Some(pos);
        }
        pos += 1;
        cur = ir.next_op(o);
    }
    !matches!((first_dep_a, last_dep_b), (Some(f), Some(l)) if f <= l)
}

/// Per sliced variable, its bounds from one dependence system (MLIR's
/// `getSliceBounds`): `slice_cols` are the sliced variables' columns,
/// `kept_cols` the other nest's outer induction variables (the maps'
/// dims), the symbols follow.
fn slice_bounds(
    sys: &IntegerSystem,
    slice_cols: &[usize],
    kept_cols: &[usize],
    sym_cols: &[usize],
    detect_dims: bool,
) -> (Vec<Option<AffineMap>>, Vec<Option<AffineMap>>) {
    let nv = sys.num_vars();
    let nd = kept_cols.len() as u32;
    let ns = sym_cols.len() as u32;
    let mut memo: Vec<Option<AffineExpr>> = vec![None; nv];
    for (i, &c) in kept_cols.iter().enumerate() {
        memo[c] = Some(AffineExpr::Dim(i as u32));
    }
    for (i, &c) in sym_cols.iter().enumerate() {
        memo[c] = Some(AffineExpr::Symbol(i as u32));
    }
    let row_expr = |row: &[Int], skip: usize, memo: &[Option<AffineExpr>]| -> Option<AffineExpr> {
        let mut e = AffineExpr::Constant(0);
        for j in 0..nv {
            if j == skip || row[j].is_zero() {
                continue;
            }
            let c = row[j].to_i64()?;
            e = e.plus(memo[j].clone()?.times(AffineExpr::Constant(c)));
        }
        Some(e.plus(AffineExpr::Constant(row[nv].to_i64()?)))
    };
    loop {
        let mut changed = false;
        for pos in 0..nv {
            if memo[pos].is_some() {
                continue;
            }
            let lo = sys.constant_bound(pos, BoundKind::Lower);
            let hi = sys.constant_bound(pos, BoundKind::Upper);
            if let (Some(l), Some(h)) = (lo, hi) {
                if l == h {
                    memo[pos] = Some(AffineExpr::Constant(l));
                    changed = true;
                    continue;
                }
            }
            if detect_dims && slice_cols.contains(&pos) {
                if let Some(e) = dim_plus_constant(sys, pos, kept_cols) {
                    memo[pos] = Some(e);
                    changed = true;
                    continue;
                }
            }
            for row in sys.equalities() {
                if row[pos].is_zero() {
                    continue;
                }
                let Some(rest) = row_expr(row, pos, &memo) else {
                    continue;
                };
                let Some(v) = row[pos].to_i64() else { continue };
                memo[pos] = Some(if v > 0 {
                    rest.negate().floor_div(AffineExpr::Constant(v))
                } else {
                    rest.floor_div(AffineExpr::Constant(-v))
                });
                changed = true;
                break;
            }
            if memo[pos].is_none() {
                if let Some(e) = floor_div_of(sys, pos, &memo, &row_expr) {
                    memo[pos] = Some(e);
                    changed = true;
                }
            }
        }
        if !changed {
            // A variable pinned by an equality up to a remainder of unknown
            // variables whose range is narrower than its coefficient:
            // `a * x + r + k == 0` with `r` in `[lo, hi]`, `hi - lo < a`,
            // gives `x == (-k - lo) floordiv a` (a quotient; the other
            // variables then follow from the equality as remainders).
            for pos in 0..nv {
                if memo[pos].is_some() {
                    continue;
                }
                if let Some(e) = quotient(sys, pos, &memo, &row_expr) {
                    memo[pos] = Some(e);
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let map = |e: AffineExpr| AffineMap {
        num_dims: nd,
        num_symbols: ns,
        results: Box::new([simplify_expr(&e, nd, ns)]),
    };
    let mut lbs = Vec::new();
    let mut ubs = Vec::new();
    let mut bare: Option<IntegerSystem> = None;
    for &pos in slice_cols {
        if let Some(e) = memo[pos].clone() {
            lbs.push(Some(map(e.clone())));
            ubs.push(Some(map(e.plus(AffineExpr::Constant(1)))));
            continue;
        }
        let mut lb = None;
        let mut ub = None;
        if sys.num_locals() == 0 {
            // As MLIR's `getLowerAndUpperBound` on the system without its
            // redundant inequalities: bounds from the constraints of this
            // sliced variable alone among the sliced ones.
            let bare = bare.get_or_insert_with(|| {
                let mut s = sys.clone();
                s.remove_redundant_constraints();
                s
            });
            let mut own =
                IntegerSystem::new(bare.num_dims(), bare.num_symbols(), bare.num_locals());
            let alone = |r: &[Int]| slice_cols.iter().all(|&c| c == pos || r[c].is_zero());
            for r in bare.equalities().iter().filter(|r| alone(r)) {
                own.add_equality_int(r.clone());
            }
            for r in bare.inequalities().iter().filter(|r| alone(r)) {
                own.add_inequality_int(r.clone());
            }
            let keep = |c: usize| kept_cols.contains(&c) || sym_cols.contains(&c);
            let b = own.var_bounds(pos, &keep);
            let to_expr = |be: &crate::presburger::BoundExpr, lower: bool| -> AffineExpr {
                let mut e = AffineExpr::Constant(be.constant);
                for (j, &c) in be.coefficients.iter().enumerate() {
                    if c != 0 {
                        if let Some(m) = &memo[j] {
                            e = e.plus(m.clone().times(AffineExpr::Constant(c)));
                        }
                    }
                }
                if be.divisor == 1 {
                    e
                } else if lower {
                    e.ceil_div(AffineExpr::Constant(be.divisor))
                } else {
                    e.floor_div(AffineExpr::Constant(be.divisor))
                }
            };
            let mut lows: Vec<AffineExpr> = Vec::new();
            for be in &b.lower {
                let e = simplify_expr(&to_expr(be, true), nd, ns);
                if !lows.contains(&e) {
                    lows.push(e);
                }
            }
            let mut highs: Vec<AffineExpr> = Vec::new();
            for be in &b.upper {
                let e = simplify_expr(&to_expr(be, false).plus(AffineExpr::Constant(1)), nd, ns);
                if !highs.contains(&e) {
                    highs.push(e);
                }
            }
            if lows.len() == 1 {
                lb = lows.pop().map(map);
            }
            if highs.len() == 1 {
                ub = highs.pop().map(map);
            }
        }
        if lb.is_none() {
            lb = sys
                .constant_bound(pos, BoundKind::Lower)
                .map(|c| map(AffineExpr::Constant(c)));
        }
        if ub.is_none() {
            ub = sys
                .constant_bound(pos, BoundKind::Upper)
                .map(|c| map(AffineExpr::Constant(c + 1)));
        }
        lbs.push(lb);
        ubs.push(ub);
    }
    (lbs, ubs)
}

/// `x` (column `pos`) as one of the kept dimensions plus a constant,
/// where the system implies it (the bounds of their difference meet).
fn dim_plus_constant(sys: &IntegerSystem, pos: usize, kept_cols: &[usize]) -> Option<AffineExpr> {
    for (j, &kc) in kept_cols.iter().enumerate() {
        let mut s = sys.clone();
        let v = s.append_vars(crate::presburger::VarKind::Dim, 1);
        let width = s.num_cols();
        // Columns after the new dimension moved by one.
        let shift = |c: usize| if c >= v { c + 1 } else { c };
        let mut row = vec![Int::ZERO; width];
        row[v] = Int::ONE;
        row[shift(pos)] = Int::from(-1);
        row[shift(kc)] = Int::ONE;
        s.add_equality_int(row);
        // The real shadow first; the exact integer bounds (costly with
        // local variables) where it is inconclusive.
        let shadow = (
            s.constant_bound(v, BoundKind::Lower),
            s.constant_bound(v, BoundKind::Upper),
        );
        let (lo, hi) = match shadow {
            (Some(lo), Some(hi)) if lo == hi => (lo, hi),
            _ if s.num_locals() == 0 => {
                let (Some(lo), Some(hi)) = (
                    s.exact_constant_bound(v, BoundKind::Lower),
                    s.exact_constant_bound(v, BoundKind::Upper),
                ) else {
                    continue;
                };
                (lo, hi)
            }
            _ => continue,
        };
        if lo == hi {
            return Some(AffineExpr::Dim(j as u32).plus(AffineExpr::Constant(lo)));
        }
    }
    None
}

type RowExpr<'a> = dyn Fn(&[Int], usize, &[Option<AffineExpr>]) -> Option<AffineExpr> + 'a;

/// `x` (column `pos`) as a floor division that a pair of inequalities
/// defines (MLIR's `detectAsFloorDiv`): `c * x <= e + k1` and
/// `c * x >= e - k2` with `k1 + k2 == c - 1` and every variable of `e`
/// known give `x == (e + k1) floordiv c`.
fn floor_div_of(
    sys: &IntegerSystem,
    pos: usize,
    memo: &[Option<AffineExpr>],
    row_expr: &RowExpr<'_>,
) -> Option<AffineExpr> {
    let nv = sys.num_vars();
    let ineqs = sys.inequalities();
    for u in ineqs {
        // u: -c * x + e + k1 >= 0.
        let c = (-&u[pos]).to_i64()?;
        if c <= 1 {
            continue;
        }
        for l in ineqs {
            if l[pos] != -&u[pos] || (0..nv).any(|j| j != pos && l[j] != -&u[j]) {
                continue;
            }
            let (Some(k1), Some(k2)) = (u[nv].to_i64(), l[nv].to_i64()) else {
                continue;
            };
            if k1.checked_add(k2) != Some(c - 1) {
                continue;
            }
            let Some(dividend) = row_expr(u, pos, memo) else {
                continue;
            };
            return Some(dividend.floor_div(AffineExpr::Constant(c)));
        }
    }
    None
}

/// `x` (column `pos`) as the quotient an equality pins it to (see
/// `slice_bounds`).
fn quotient(
    sys: &IntegerSystem,
    pos: usize,
    memo: &[Option<AffineExpr>],
    row_expr: &RowExpr<'_>,
) -> Option<AffineExpr> {
    let nv = sys.num_vars();
    for row in sys.equalities() {
        let a = row[pos].to_i64()?;
        if a == 0 {
            continue;
        }
        let sign = if a > 0 { 1 } else { -1 };
        let a = a * sign;
        let (mut lo, mut hi) = (0i64, 0i64);
        let mut known = row.to_vec();
        known[pos] = Int::ZERO;
        let mut ok = true;
        for j in 0..nv {
            if j == pos || row[j].is_zero() || memo[j].is_some() {
                continue;
            }
            let (Some(b), Some(l), Some(h)) = (
                row[j].to_i64(),
                sys.constant_bound(j, BoundKind::Lower),
                sys.constant_bound(j, BoundKind::Upper),
            ) else {
                ok = false;
                break;
            };
            let b = b * sign;
            let (x, y) = (b.checked_mul(l)?, b.checked_mul(h)?);
            lo = lo.checked_add(x.min(y))?;
            hi = hi.checked_add(x.max(y))?;
            known[j] = Int::ZERO;
        }
        if !ok || hi - lo >= a || (hi == 0 && lo == 0) {
            continue;
        }
        // k: the known part, with the row's sign.
        let k = row_expr(&known, pos, memo)?;
        let k = if sign > 0 { k } else { k.negate() };
        return Some(
            k.negate()
                .minus(AffineExpr::Constant(lo))
                .floor_div(AffineExpr::Constant(a)),
        );
    }
    None
}

/// Unites two single-result bounds whose difference is a constant: the
/// smaller (`lower`) or larger one.
fn unite(
    a: &Option<AffineMap>,
    b: &Option<AffineMap>,
    lower: bool,
) -> Result<Option<AffineMap>, ()> {
    let (Some(a), Some(b)) = (a, b) else {
        return Ok(None);
    };
    if a == b {
        return Ok(Some(a.clone()));
    }
    let diff = simplify_expr(
        &a.results[0].clone().minus(b.results[0].clone()),
        a.num_dims,
        a.num_symbols,
    );
    let AffineExpr::Constant(d) = diff else {
        return Err(());
    };
    let a_smaller = d < 0;
    Ok(Some(if a_smaller == lower {
        a.clone()
    } else {
        b.clone()
    }))
}

/// A variable's constant lower and upper bound (inclusive), where known.
type Range = (Option<i64>, Option<i64>);

/// A slice from one access pair: induction variables, bound operands,
/// lower and upper bounds, and each variable's constant range in the
/// pair's dependence system.
type PairSlice = (
    Vec<ValueId>,
    Vec<ValueId>,
    Vec<Option<AffineMap>>,
    Vec<Option<AffineMap>>,
    Vec<Range>,
);

/// The union of two bounds of one sliced variable (MLIR's
/// `unionBoundingBox`): the smaller lower or larger upper bound when
/// their difference is constant, otherwise the constant bound over both
/// ranges; `Err` when neither applies.
fn unite_or_constant(
    a: &Option<AffineMap>,
    b: &Option<AffineMap>,
    lower: bool,
    (ra, rb): (Range, Range),
) -> Result<Option<AffineMap>, ()> {
    if let Ok(u) = unite(a, b, lower) {
        return Ok(u);
    }
    let (Some(a), Some(_)) = (a, b) else {
        return Ok(None);
    };
    let c = if lower {
        ra.0.zip(rb.0).map(|(x, y)| x.min(y))
    } else {
        ra.1.zip(rb.1).map(|(x, y)| x.max(y) + 1)
    };
    let c = c.ok_or(())?;
    Ok(Some(AffineMap {
        num_dims: a.num_dims,
        num_symbols: a.num_symbols,
        results: Box::new([AffineExpr::Constant(c)]),
    }))
}

/// The least (`lower`) or greatest value of a single-result linear map
/// over the constant domains of the loops of its dims; `None` when a
/// symbol or a dim without constant bounds matters.
fn map_extreme(
    ctx: &Context,
    ir: &Ir,
    map: &AffineMap,
    operands: &[ValueId],
    lower: bool,
) -> Option<i64> {
    let lin =
        silica_ir::affine_flatten::flatten_linear(&map.results[0], map.num_dims, map.num_symbols)?;
    let (coeffs, constant) = lin.split_at(lin.len() - 1);
    let mut acc = constant[0];
    for (j, &c) in coeffs.iter().enumerate() {
        if c == 0 {
            continue;
        }
        if j >= map.num_dims as usize {
            return None;
        }
        let lp = crate::presburger::loop_of_iv(ctx, ir, *operands.get(j)?)?;
        let (l, u) = crate::for_op::bounds(ctx, ir, lp)?;
        let (l, u) = (l.as_constant()?, u.as_constant()?);
        if u <= l {
            return None;
        }
        let at = if (c > 0) == lower { l } else { u - 1 };
        acc = acc.checked_add(c.checked_mul(at)?)?;
    }
    Some(acc)
}

/// A sliced loop's whole constant domain as slice bounds with `nd`
/// dims and `ns` symbols; `None` unless both bounds are constant.
fn whole_domain(
    ctx: &Context,
    ir: &Ir,
    iv: ValueId,
    nd: u32,
    ns: u32,
) -> Option<(Option<AffineMap>, Option<AffineMap>, Range)> {
    let lp = crate::presburger::loop_of_iv(ctx, ir, iv)?;
    let (l, u) = crate::for_op::bounds(ctx, ir, lp)?;
    let (l, u) = (l.as_constant()?, u.as_constant()?);
    let map = |c: i64| AffineMap {
        num_dims: nd,
        num_symbols: ns,
        results: Box::new([AffineExpr::Constant(c)]),
    };
    Some((Some(map(l)), Some(map(u)), (Some(l), Some(u - 1))))
}

/// Unites one side's bounds and range of a sliced variable into the
/// union's (both bounds dropped when either cannot be kept).
fn unite_into(
    (ulb, uub, urange): (&mut Option<AffineMap>, &mut Option<AffineMap>, &mut Range),
    (lb, ub, range): (&Option<AffineMap>, &Option<AffineMap>, Range),
) -> Option<()> {
    let both = (*urange, range);
    *ulb = unite_or_constant(ulb, lb, true, both).ok()?;
    *uub = unite_or_constant(uub, ub, false, both).ok()?;
    let (a, b) = both;
    *urange = (
        a.0.zip(b.0).map(|(x, y)| x.min(y)),
        a.1.zip(b.1).map(|(x, y)| x.max(y)),
    );
    if ulb.is_none() || uub.is_none() {
        *ulb = None;
        *uub = None;
    }
    Some(())
}

/// MLIR's `computeSliceUnion`: the union of the slices of every
/// dependent pair of `ops_a` (the earlier nest) and `ops_b`, sliced on
/// the earlier nest (`backward`) or the later one, inserted at `depth`.
fn slice_union(
    ctx: &Context,
    ir: &Ir,
    ops_a: &[OpId],
    ops_b: &[OpId],
    depth: usize,
    num_common: usize,
    backward: bool,
) -> Option<Slice> {
    let mut union: Option<PairSlice> = None;
    let mut dependent = Vec::new();
    for &a in ops_a {
        let sa = access(ctx, ir, a)?;
        for &b in ops_b {
            if memref_of(ctx, ir, a) != memref_of(ctx, ir, b) {
                continue;
            }
            let sb = access(ctx, ir, b)?;
            let rar = is_read(ctx, ir, a) && is_read(ctx, ir, b);
            let dep = dependence_system(ctx, ir, &sa, &sb, num_common + 1, rar).ok()?;
            let Some(dep) = dep else { continue };
            dependent.push(if backward { b } else { a });
            let (sliced, other) = if backward { (&sa, &sb) } else { (&sb, &sa) };
            let (sliced_cols, other_cols) = if backward {
                (&dep.src_cols, &dep.dst_cols)
            } else {
                (&dep.dst_cols, &dep.src_cols)
            };
            // Only loop induction variables as dims.
            if sliced.domain.system.num_dims() != sliced.num_loops
                || other.domain.system.num_dims() != other.num_loops
                || depth > other.num_loops
            {
                return None;
            }
            let ivs: Vec<ValueId> = sliced.domain.dim_values[..sliced.num_loops]
                .iter()
                .map(|v| v.unwrap_or(sliced.memref))
                .collect();
            let kept: Vec<ValueId> = other.domain.dim_values[..depth]
                .iter()
                .map(|v| v.unwrap_or(other.memref))
                .collect();
            let mut sys = dep.system.clone();
            // Project out the other nest's inner induction variables.
            let mut gone: Vec<usize> = other_cols[depth..other.num_loops].to_vec();
            gone.sort_unstable();
            for &c in gone.iter().rev() {
                sys.project_out(c, 1);
            }
            let shift = |c: usize| c - gone.iter().filter(|&&g| g < c).count();
            let slice_cols: Vec<usize> = sliced_cols[..sliced.num_loops]
                .iter()
                .map(|&c| shift(c))
                .collect();
            let kept_cols: Vec<usize> = other_cols[..depth].iter().map(|&c| shift(c)).collect();
            let s0 = sys.num_dims();
            let sym_cols: Vec<usize> = (s0..s0 + sys.num_symbols()).collect();
            let mut operands = kept.clone();
            for v in &dep.symbol_values {
                operands.push((*v)?);
            }
            // Slice variables pinned to a kept dimension are only looked
            // for when no inner variable of the other nest was projected
            // out (where mlir-opt-22 finds them too).
            let whole = depth == other.num_loops;
            let (mut lbs, mut ubs) = slice_bounds(&sys, &slice_cols, &kept_cols, &sym_cols, whole);
            // No slicing from the first loop marked as a barrier (and, for
            // input reuse, the first sequential loop) on. A loop carrying
            // values (`iter_args`) is never sliced: its results need every
            // iteration.
            let loops: Vec<OpId> = ivs
                .iter()
                .map(|&v| crate::presburger::loop_of_iv(ctx, ir, v))
                .collect::<Option<_>>()?;
            let barrier = |l: OpId| {
                let carries = !crate::loops::build::iter_args(ir, l).is_empty();
                silica_ir::dialect::inherent_attr(ctx, ir, l, "slice_fusion_barrier").is_some()
                    || carries
                    || (rar && !crate::parallelize::is_loop_memory_parallel(ctx, ir, l))
            };
            if let Some(first) = loops.iter().position(|&l| barrier(l)) {
                for i in first..lbs.len() {
                    lbs[i] = None;
                    ubs[i] = None;
                }
            }
            // A variable's range is its bounds' over the other nest's
            // loops (MLIR unites the slices' own constraints), else the
            // pair's.
            let ranges: Vec<Range> = slice_cols
                .iter()
                .enumerate()
                .map(|(k, &c)| {
                    let (lo, hi) = sys.constant_bounds(c);
                    let extreme = |m: &Option<AffineMap>, lower| {
                        m.as_ref()
                            .and_then(|m| map_extreme(ctx, ir, m, &operands, lower))
                    };
                    match (extreme(&lbs[k], true), extreme(&ubs[k], false)) {
                        (Some(l), Some(h)) => (Some(l), Some(h - 1)),
                        _ => (lo, hi),
                    }
                })
                .collect();
            match &mut union {
                None => union = Some((ivs, operands, lbs, ubs, ranges)),
                Some((uivs, uops, ulbs, uubs, uranges)) => {
                    if *uops != operands {
                        return None;
                    }
                    // A loop of one side only gets its whole domain on the
                    // other (MLIR's `addMissingLoopIVBounds`).
                    let (nd, ns) = (depth as u32, (operands.len() - depth) as u32);
                    for i in 0..uivs.len() {
                        if !ivs.contains(&uivs[i]) {
                            let (l, u, r) = whole_domain(ctx, ir, uivs[i], nd, ns)?;
                            unite_into((&mut ulbs[i], &mut uubs[i], &mut uranges[i]), (&l, &u, r))?;
                        }
                    }
                    for (k, iv) in ivs.iter().enumerate() {
                        let i = match uivs.iter().position(|v| v == iv) {
                            Some(i) => i,
                            None => {
                                let (l, u, r) = whole_domain(ctx, ir, *iv, nd, ns)?;
                                uivs.push(*iv);
                                ulbs.push(l);
                                uubs.push(u);
                                uranges.push(r);
                                uivs.len() - 1
                            }
                        };
                        unite_into(
                            (&mut ulbs[i], &mut uubs[i], &mut uranges[i]),
                            (&lbs[k], &ubs[k], ranges[k]),
                        )?;
                    }
                }
            }
        }
    }
    let (ivs, operands, lbs, ubs, _) = union?;
    let loops = innermost_common_loops(ctx, ir, &dependent);
    if depth > loops.len() || depth == 0 {
        return None;
    }
    Some(Slice {
        ivs,
        lbs,
        ubs,
        operands,
        insert_loop: loops[depth - 1],
        at_start: backward,
    })
}

impl Slice {
    /// The sliced variables that are not loops around the insertion point.
    fn own(&self, ctx: &Context, ir: &Ir) -> Vec<usize> {
        let around = enclosing_fors(ctx, ir, self.insert_loop);
        (0..self.ivs.len())
            .filter(|&i| {
                !around.iter().any(|&l| iv_of(ir, l) == self.ivs[i])
                    && iv_of(ir, self.insert_loop) != self.ivs[i]
            })
            .collect()
    }

    /// Whether every slice iteration is an iteration of the sliced nest
    /// (MLIR's `isSliceValid`, decided exactly): the slice's bounds over
    /// the insertion point's domain imply every constraint of the sliced
    /// loops.
    pub fn is_valid(&self, ctx: &Context, ir: &Ir) -> bool {
        let own = self.own(ctx, ir);
        let mut vs = ValueSystem::new();
        for &v in &self.operands {
            if vs.operand_column(ctx, ir, v).is_err() {
                return false;
            }
        }
        for &i in &own {
            let iv = self.ivs[i];
            if self.lbs[i].is_none() || self.ubs[i].is_none() {
                let Some(lp) = crate::presburger::loop_of_iv(ctx, ir, iv) else {
                    return false;
                };
                if vs.add_for_domain(ctx, ir, lp).is_err() {
                    return false;
                }
                continue;
            }
            vs.append_dim(Some(iv));
            for (map, lower) in [(&self.lbs[i], true), (&self.ubs[i], false)] {
                let Some(map) = map else { continue };
                let Ok(rows) = vs.map_rows(ctx, ir, self.insert_loop, map, &self.operands) else {
                    return false;
                };
                let col = vs.find(iv).unwrap_or(usize::MAX);
                for r in rows {
                    // lower: iv - r >= 0; upper: r - 1 - iv >= 0.
                    let mut row: Vec<Int> = if lower {
                        r.iter().map(|x| -x).collect()
                    } else {
                        r
                    };
                    if col >= row.len() {
                        return false;
                    }
                    let n = row.len() - 1;
                    if lower {
                        row[col] = &row[col] + &Int::ONE;
                    } else {
                        row[col] = &row[col] - &Int::ONE;
                        row[n] = &row[n] - &Int::ONE;
                    }
                    vs.system.add_inequality_int(row);
                }
            }
        }
        // The sliced loops' own constraints, by value.
        let mut src = ValueSystem::new();
        for &i in &own {
            if src.operand_column(ctx, ir, self.ivs[i]).is_err() {
                return false;
            }
        }
        if src.system.num_locals() > 0 {
            return false;
        }
        let values: Option<Vec<ValueId>> = src
            .dim_values
            .iter()
            .chain(&src.symbol_values)
            .copied()
            .collect();
        let Some(values) = values else { return false };
        for &v in &values {
            if vs.find(v).is_none() && vs.operand_column(ctx, ir, v).is_err() {
                return false;
            }
        }
        let cols: Option<Vec<usize>> = values.iter().map(|&v| vs.find(v)).collect();
        let Some(cols) = cols else { return false };
        let width = vs.system.num_cols();
        let mapped = |r: &[Int]| -> Vec<Int> {
            let mut out = vec![Int::ZERO; width];
            for (j, x) in r[..r.len() - 1].iter().enumerate() {
                out[cols[j]] = &out[cols[j]] + x;
            }
            out[width - 1] = r[r.len() - 1].clone();
            out
        };
        let violated = |row: Vec<Int>| -> bool {
            // Some point with row <= -1.
            let mut s = vs.system.clone();
            let mut neg: Vec<Int> = row.iter().map(|x| -x).collect();
            let n = neg.len() - 1;
            neg[n] = &neg[n] - &Int::ONE;
            s.add_inequality_int(neg);
            !s.is_empty()
        };
        for r in src.system.inequalities() {
            if violated(mapped(r)) {
                return false;
            }
        }
        for r in src.system.equalities() {
            let m = mapped(r);
            let neg: Vec<Int> = m.iter().map(|x| -x).collect();
            if violated(m) || violated(neg) {
                return false;
            }
        }
        true
    }

    /// Whether the slice runs every iteration of the sliced nest (MLIR's
    /// `isMaximal`, conservatively: `false` when unsure).
    pub fn is_maximal(&self, ctx: &Context, ir: &Ir) -> bool {
        let mut used_dims = Vec::new();
        for i in self.own(ctx, ir) {
            let (Some(lb), Some(ub)) = (&self.lbs[i], &self.ubs[i]) else {
                continue;
            };
            let Some(src_loop) = crate::presburger::loop_of_iv(ctx, ir, self.ivs[i]) else {
                return false;
            };
            let Some((sl, su)) = crate::for_op::bounds(ctx, ir, src_loop) else {
                return false;
            };
            let (Some(sl), Some(su)) = (sl.as_constant(), su.as_constant()) else {
                return false;
            };
            let src_step = crate::for_op::step(ctx, ir, src_loop);
            let (l, u) = (&lb.results[0], &ub.results[0]);
            if let (AffineExpr::Constant(a), AffineExpr::Constant(b)) = (l, u) {
                if !(*a <= sl && *b >= su) {
                    return false;
                }
                continue;
            }
            // `lb = a * d + c`, `ub = lb + w`: over the loop of `d`, the
            // slices cover `[a * L + c, a * (U - 1) + c + w)` when
            // `w >= a`.
            let width = simplify_expr(&u.clone().minus(l.clone()), lb.num_dims, lb.num_symbols);
            let AffineExpr::Constant(w) = width else {
                return false;
            };
            let nd = lb.num_dims as usize;
            let Some(lin) =
                silica_ir::affine_flatten::flatten_linear(l, lb.num_dims, lb.num_symbols)
            else {
                return false;
            };
            let dims: Vec<usize> = (0..nd).filter(|&j| lin[j] != 0).collect();
            if dims.len() != 1 || lin[nd..lin.len() - 1].iter().any(|&x| x != 0) {
                return false;
            }
            let (d, a, c) = (dims[0], lin[dims[0]], lin[lin.len() - 1]);
            if a <= 0 || w < a || used_dims.contains(&d) {
                return false;
            }
            used_dims.push(d);
            let Some(dst_loop) = crate::presburger::loop_of_iv(ctx, ir, self.operands[d]) else {
                return false;
            };
            let Some((dl, du)) = crate::for_op::bounds(ctx, ir, dst_loop) else {
                return false;
            };
            let (Some(dl), Some(du)) = (dl.as_constant(), du.as_constant()) else {
                return false;
            };
            let dst_step = crate::for_op::step(ctx, ir, dst_loop);
            if a == 1 && c == 0 && w == 1 {
                // MLIR's fast check: the same loop bounds.
                if dl != sl || du != su || dst_step != src_step {
                    return false;
                }
                continue;
            }
            if dst_step != 1 || src_step != 1 || du <= dl {
                return false;
            }
            if !(a * dl + c <= sl && a * (du - 1) + c + w >= su) {
                return false;
            }
        }
        true
    }

    /// The trip count of each sliced loop (MLIR's `buildSliceTripCountMap`).
    pub fn trip_counts(&self, ctx: &mut Context, ir: &mut Ir) -> Option<Vec<(OpId, u64)>> {
        let mut out = Vec::new();
        for i in 0..self.ivs.len() {
            let lp = crate::presburger::loop_of_iv(ctx, ir, self.ivs[i])?;
            match (&self.lbs[i], &self.ubs[i]) {
                (Some(lb), Some(ub)) => {
                    let d = simplify_expr(
                        &ub.results[0].clone().minus(lb.results[0].clone()),
                        lb.num_dims,
                        lb.num_symbols,
                    );
                    let AffineExpr::Constant(d) = d else {
                        return None;
                    };
                    out.push((lp, u64::try_from(d).ok()?));
                }
                _ => {
                    let (l, u) = crate::for_op::bounds(ctx, ir, lp)?;
                    if let (Some(l), Some(u)) = (l.as_constant(), u.as_constant()) {
                        out.push((lp, u64::try_from(u - l).unwrap_or(0)));
                    } else {
                        out.push((lp, crate::loops::constant_trip_count(ctx, ir, lp)?));
                    }
                }
            }
        }
        Some(out)
    }
}

/// Why two nests cannot fuse at a depth (MLIR's `FusionResult`).
#[derive(Clone, Debug)]
pub enum FusionFailure {
    /// Depth 0, other blocks, `affine.if`s, or a slice not analysable.
    Precondition,
    /// No place in the block for the fused nest keeps the dependences
    /// of the ops between the two nests.
    BlockDependence,
    /// The destination's own dependences forbid that depth.
    FusionDependence,
    /// The slice runs iterations outside the sliced nest's domain.
    IncorrectSlice(Slice),
}

/// MLIR's `canFuseLoops`: the slice of `src` to fuse into `dst` at
/// (absolute) loop depth `depth`, or why fusion there is illegal or not
/// analysable.
pub fn can_fuse_loops(
    ctx: &Context,
    ir: &Ir,
    src: OpId,
    dst: OpId,
    depth: usize,
    strategy: Strategy,
) -> Result<Slice, FusionFailure> {
    if depth == 0 || ir.op_block(src) != ir.op_block(dst) {
        return Err(FusionFailure::Precondition);
    }
    let src_first = super::graph::is_before_in_block(ir, src, dst);
    let (a, b) = if src_first { (src, dst) } else { (dst, src) };
    if !has_insertion_point(ctx, ir, a, b) {
        return Err(FusionFailure::BlockDependence);
    }
    let ops_a = loads_and_stores(ctx, ir, a).ok_or(FusionFailure::Precondition)?;
    let ops_b = loads_and_stores(ctx, ir, b).ok_or(FusionFailure::Precondition)?;
    if strategy == Strategy::ProducerConsumer
        && (!src_first || max_loop_depth(ctx, ir, &ops_a, &ops_b) < depth)
    {
        return Err(FusionFailure::FusionDependence);
    }
    let num_common = common_loop_count(ctx, ir, src, dst);
    let strategy_ops: Vec<OpId> = match strategy {
        Strategy::Generic => ops_a.clone(),
        Strategy::ProducerConsumer => ops_a
            .iter()
            .copied()
            .filter(|&o| is_write(ctx, ir, o))
            .collect(),
        Strategy::Sibling(m) => ops_a
            .iter()
            .copied()
            .filter(|&o| is_read(ctx, ir, o) && memref_of(ctx, ir, o) == m)
            .collect(),
    };
    let slice = slice_union(ctx, ir, &strategy_ops, &ops_b, depth, num_common, src_first)
        .ok_or(FusionFailure::Precondition)?;
    if slice.is_valid(ctx, ir) {
        Ok(slice)
    } else {
        Err(FusionFailure::IncorrectSlice(slice))
    }
}

/// [`can_fuse_loops`]'s slice, `None` on any failure.
pub fn can_fuse(
    ctx: &Context,
    ir: &Ir,
    src: OpId,
    dst: OpId,
    depth: usize,
    strategy: Strategy,
) -> Option<Slice> {
    can_fuse_loops(ctx, ir, src, dst, depth, strategy).ok()
}
