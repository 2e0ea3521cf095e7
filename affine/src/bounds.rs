//! Simplification of affine maps with the constant ranges of their
//! operands (the induction variables of `affine.for` loops with constant
//! bounds), as MLIR's canonicalizer does: results of a min/max bound that
//! another result always dominates drop, and `floordiv`/`ceildiv`/`mod`
//! over a bounded range fold.

use silica_ir::affine::{AffineExpr, AffineMap, BinOp};
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId, ValueDef, ValueId};

/// The `affine.for` whose induction variable `v` is.
pub fn for_of_iv(ctx: &Context, ir: &Ir, v: ValueId) -> Option<OpId> {
    let ValueDef::Argument { block, index: 0 } = ir.value_def(v) else {
        return None;
    };
    let op = ir.region_op(ir.block_region(block)?)?;
    (ctx.str(ir.op_name(op)) == "affine.for").then_some(op)
}

/// The bound map `name` of an `affine.for` when it is one constant.
pub fn constant_bound(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<i64> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::AffineMap(m) if m.results.len() == 1 => match m.results[0] {
            AffineExpr::Constant(c) => Some(c),
            _ => None,
        },
        _ => None,
    }
}

/// The step of an `affine.for`.
pub fn step(ctx: &Context, ir: &Ir, op: OpId) -> Option<i64> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "step")?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// The bound map `name` of an `affine.for`.
pub fn bound_map(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<AffineMap> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::AffineMap(m) => Some(m.clone()),
        _ => None,
    }
}

/// The smallest value of `v` when it is an induction variable with a
/// constant lower bound.
fn lower_bound_of(ctx: &Context, ir: &Ir, v: ValueId) -> Option<i64> {
    constant_bound(ctx, ir, for_of_iv(ctx, ir, v)?, "lowerBoundMap")
}

/// The largest value of `v` when it is an induction variable with a
/// constant upper bound (the last value the step reaches when the lower
/// bound is constant too).
fn upper_bound_of(ctx: &Context, ir: &Ir, v: ValueId) -> Option<i64> {
    let f = for_of_iv(ctx, ir, v)?;
    let ub = constant_bound(ctx, ir, f, "upperBoundMap")?;
    match (
        constant_bound(ctx, ir, f, "lowerBoundMap"),
        step(ctx, ir, f),
    ) {
        (Some(lb), Some(s)) if s > 0 => Some(ub - 1 - (ub - lb - 1).rem_euclid(s)),
        _ => Some(ub - 1),
    }
}

/// Constant ranges of a map's operands.
pub struct OperandRanges {
    lower: Vec<Option<i64>>,
    upper: Vec<Option<i64>>,
}

impl OperandRanges {
    pub fn of(ctx: &Context, ir: &Ir, operands: &[ValueId]) -> Self {
        OperandRanges {
            lower: operands
                .iter()
                .map(|&v| lower_bound_of(ctx, ir, v))
                .collect(),
            upper: operands
                .iter()
                .map(|&v| upper_bound_of(ctx, ir, v))
                .collect(),
        }
    }

    /// A constant bound (upper when `upper`) of `e`: sums of constant
    /// multiples of bounded operands, and `floordiv`/`ceildiv`/`mod` by
    /// positive constants of such expressions.
    pub fn bound(&self, e: &AffineExpr, num_dims: u32, upper: bool) -> Option<i64> {
        if let AffineExpr::Binary(b) = e {
            let (op, l, r) = &**b;
            let c = match r {
                AffineExpr::Constant(c) if *c >= 1 => Some(*c),
                _ => None,
            };
            match (op, c) {
                (BinOp::FloorDiv, Some(c)) => {
                    return Some(self.bound(l, num_dims, upper)?.div_euclid(c))
                }
                (BinOp::CeilDiv, Some(c)) => {
                    let v = self.bound(l, num_dims, upper)?;
                    return Some(-(-v).div_euclid(c));
                }
                (BinOp::Mod, Some(c)) => {
                    let lo = self.bound(l, num_dims, false);
                    let hi = self.bound(l, num_dims, true);
                    if let (Some(lo), Some(hi)) = (lo, hi) {
                        if lo.div_euclid(c) == hi.div_euclid(c) {
                            return Some(if upper { hi } else { lo }.rem_euclid(c));
                        }
                    }
                    return Some(if upper { c - 1 } else { 0 });
                }
                (BinOp::FloorDiv | BinOp::CeilDiv | BinOp::Mod, None) => return None,
                _ => {}
            }
        }
        let (coefficients, constant) = linear_form(e, num_dims)?;
        let mut total = constant;
        for (i, c) in coefficients.into_iter().enumerate() {
            if c == 0 {
                continue;
            }
            let use_upper = (c > 0) == upper;
            let b = if use_upper {
                self.upper.get(i).copied().flatten()
            } else {
                self.lower.get(i).copied().flatten()
            }?;
            total = total.checked_add(b.checked_mul(c)?)?;
        }
        Some(total)
    }
}

/// The coefficients of each dim then symbol of a linear expression (in
/// operand order) and its constant; `None` when not linear.
fn linear_form(e: &AffineExpr, num_dims: u32) -> Option<(Vec<i64>, i64)> {
    let mut coefficients = Vec::new();
    let constant = collect_linear(e, 1, num_dims, &mut coefficients)?;
    Some((coefficients, constant))
}

fn collect_linear(e: &AffineExpr, scale: i64, num_dims: u32, out: &mut Vec<i64>) -> Option<i64> {
    let mut add = |pos: usize, c: i64| {
        if out.len() <= pos {
            out.resize(pos + 1, 0);
        }
        out[pos] += c;
    };
    match e {
        AffineExpr::Constant(c) => c.checked_mul(scale),
        AffineExpr::Dim(i) => {
            add(*i as usize, scale);
            Some(0)
        }
        AffineExpr::Symbol(i) => {
            add((num_dims + i) as usize, scale);
            Some(0)
        }
        AffineExpr::Binary(b) => match &**b {
            (BinOp::Add, l, r) => Some(
                collect_linear(l, scale, num_dims, out)?
                    .checked_add(collect_linear(r, scale, num_dims, out)?)?,
            ),
            (BinOp::Mul, x, AffineExpr::Constant(c)) | (BinOp::Mul, AffineExpr::Constant(c), x) => {
                collect_linear(x, scale.checked_mul(*c)?, num_dims, out)
            }
            _ => None,
        },
    }
}

/// Drops the results of a min (or max, when `max`) map that another
/// result always undercuts (exceeds), using the operands' constant
/// ranges; results with a single possible value become that constant
/// (MLIR's `simplifyMinOrMaxExprWithOperands`).
pub fn simplify_min_max(
    ctx: &Context,
    ir: &Ir,
    map: &AffineMap,
    operands: &[ValueId],
    max: bool,
) -> AffineMap {
    if operands.is_empty() {
        return map.clone();
    }
    let ranges = OperandRanges::of(ctx, ir, operands);
    let nd = map.num_dims;
    let bounds: Vec<(Option<i64>, Option<i64>)> = map
        .results
        .iter()
        .map(|e| match e {
            AffineExpr::Constant(c) => (Some(*c), Some(*c)),
            _ => (ranges.bound(e, nd, false), ranges.bound(e, nd, true)),
        })
        .collect();
    let mut kept = Vec::new();
    for (i, e) in map.results.iter().enumerate() {
        let (lo, hi) = bounds[i];
        let e = match (lo, hi) {
            (Some(a), Some(b)) if a == b => AffineExpr::Constant(a),
            _ => e.clone(),
        };
        // For a max, this result is redundant when another's lowest value
        // reaches its highest (for a min, mirrored); of equal constants
        // the first stays.
        let (mine, theirs) = if max { (hi, 0) } else { (lo, 1) };
        let Some(mine) = mine else {
            kept.push(e);
            continue;
        };
        let redundant = bounds.iter().enumerate().any(|(j, other)| {
            let other_bound = if theirs == 0 { other.0 } else { other.1 };
            let Some(o) = other_bound else {
                return false;
            };
            if j == i {
                return false;
            }
            let beats = if max { o > mine } else { o < mine };
            if beats {
                return true;
            }
            if o != mine {
                return false;
            }
            let other_fixed = other.0.is_some() && other.0 == other.1;
            let mine_fixed = lo.is_some() && lo == hi;
            !(other_fixed && mine_fixed && i < j)
        });
        if !redundant {
            kept.push(e);
        }
    }
    AffineMap {
        num_dims: map.num_dims,
        num_symbols: map.num_symbols,
        results: kept.into_boxed_slice(),
    }
}

/// Whether `0 <= e < k`: a constant, or an induction variable whose
/// constant range lies in it.
fn non_negative_below(
    ctx: &Context,
    ir: &Ir,
    e: &AffineExpr,
    operands: &[ValueId],
    k: i64,
) -> bool {
    if k <= 0 {
        return false;
    }
    match e {
        AffineExpr::Constant(c) => (0..k).contains(c),
        AffineExpr::Dim(i) => operands.get(*i as usize).is_some_and(|&v| {
            for_of_iv(ctx, ir, v).is_some_and(|f| {
                constant_bound(ctx, ir, f, "lowerBoundMap").is_some_and(|lb| lb >= 0)
                    && constant_bound(ctx, ir, f, "upperBoundMap").is_some_and(|ub| ub <= k)
            })
        }),
        _ => false,
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

/// The largest known divisor of `e`; an induction variable's is its
/// step (with its lower bound's divisor when that is not zero).
fn known_divisor(ctx: &Context, ir: &Ir, e: &AffineExpr, operands: &[ValueId]) -> i64 {
    let AffineExpr::Dim(i) = e else {
        return e.largest_known_divisor();
    };
    let Some(f) = operands
        .get(*i as usize)
        .and_then(|&v| for_of_iv(ctx, ir, v))
    else {
        return 1;
    };
    let s = step(ctx, ir, f).unwrap_or(1);
    if constant_bound(ctx, ir, f, "lowerBoundMap") == Some(0) {
        return s;
    }
    let lb_divisor = bound_map(ctx, ir, f, "lowerBoundMap")
        .map(|m| {
            m.results
                .iter()
                .fold(0, |g, r| gcd(g, r.largest_known_divisor()))
        })
        .unwrap_or(1);
    gcd(lb_divisor, s)
}

/// `q + r` where `q` is a multiple of `d` and `0 <= r < d`: `(d, q, r)`.
fn quotient_times_divisor_plus_rest(
    ctx: &Context,
    ir: &Ir,
    e: &AffineExpr,
    operands: &[ValueId],
) -> Option<(i64, AffineExpr, AffineExpr)> {
    let AffineExpr::Binary(b) = e else {
        return None;
    };
    let (BinOp::Add, l, r) = &**b else {
        return None;
    };
    let d = known_divisor(ctx, ir, l, operands);
    if non_negative_below(ctx, ir, r, operands, d) {
        return Some((d, l.clone(), r.clone()));
    }
    let d = known_divisor(ctx, ir, r, operands);
    if non_negative_below(ctx, ir, l, operands, d) {
        return Some((d, r.clone(), l.clone()));
    }
    None
}

/// `floordiv`, `ceildiv` and `mod` by constants simplified with the
/// operands' ranges and divisors (MLIR's `simplifyExprAndOperands`).
pub fn simplify_expr(
    ctx: &Context,
    ir: &Ir,
    e: &AffineExpr,
    num_dims: u32,
    operands: &[ValueId],
    ranges: &OperandRanges,
) -> AffineExpr {
    let AffineExpr::Binary(b) = e else {
        return e.clone();
    };
    let (op, l, r) = &**b;
    let l = simplify_expr(ctx, ir, l, num_dims, operands, ranges);
    let r = simplify_expr(ctx, ir, r, num_dims, operands, ranges);
    let e = l.apply(*op, r);
    let AffineExpr::Binary(b) = &e else {
        return e;
    };
    let (op, lhs, rhs) = &**b;
    if !matches!(op, BinOp::FloorDiv | BinOp::CeilDiv | BinOp::Mod) {
        return e;
    }
    let AffineExpr::Constant(c) = *rhs else {
        return e;
    };
    if c <= 0 {
        return e;
    }
    let lo = match lhs {
        AffineExpr::Constant(v) => Some(*v),
        _ => ranges.bound(lhs, num_dims, false),
    };
    let hi = match lhs {
        AffineExpr::Constant(v) => Some(*v),
        _ => ranges.bound(lhs, num_dims, true),
    };
    if let (Some(lo), Some(hi)) = (lo, hi) {
        match op {
            BinOp::FloorDiv if lo.div_euclid(c) == hi.div_euclid(c) => {
                return AffineExpr::Constant(lo.div_euclid(c))
            }
            BinOp::CeilDiv if -(-lo).div_euclid(c) == -(-hi).div_euclid(c) => {
                return AffineExpr::Constant(-(-lo).div_euclid(c))
            }
            BinOp::Mod if lo >= 0 && lo < c && hi < c => return lhs.clone(),
            _ => {}
        }
    }
    if let Some((d, q, rest)) = quotient_times_divisor_plus_rest(ctx, ir, lhs, operands) {
        return match op {
            BinOp::FloorDiv if d != 0 && c % d == 0 => q.floor_div(AffineExpr::Constant(c)),
            BinOp::Mod if d % c == 0 => rest.modulo(AffineExpr::Constant(c)),
            _ => e.clone(),
        };
    }
    let zero = match op {
        BinOp::FloorDiv => non_negative_below(ctx, ir, lhs, operands, c),
        BinOp::Mod => known_divisor(ctx, ir, lhs, operands) % c == 0,
        _ => false,
    };
    if zero {
        AffineExpr::Constant(0)
    } else {
        e.clone()
    }
}

/// Every result of `map` simplified with [`simplify_expr`] (MLIR's
/// `simplifyMapWithOperands`).
pub fn simplify_map_with_operands(
    ctx: &Context,
    ir: &Ir,
    map: &AffineMap,
    operands: &[ValueId],
) -> AffineMap {
    // Only divisions and remainders change; maps without them (most)
    // skip the range lookups and the rebuilding.
    if !map.results.iter().any(has_division) {
        return map.clone();
    }
    let ranges = OperandRanges::of(ctx, ir, operands);
    AffineMap {
        num_dims: map.num_dims,
        num_symbols: map.num_symbols,
        results: map
            .results
            .iter()
            .map(|e| simplify_expr(ctx, ir, e, map.num_dims, operands, &ranges))
            .collect(),
    }
}

/// The value of every result of `map` when each operand it uses is a
/// known constant (`values` per operand); `None` otherwise.
pub fn eval_results(map: &AffineMap, values: &[Option<i64>]) -> Option<Vec<i64>> {
    let nd = map.num_dims as usize;
    let known: Vec<i64> = values.iter().map(|v| v.unwrap_or(0)).collect();
    map.results
        .iter()
        .map(|e| {
            let mut all_known = true;
            e.walk_ids(&mut |is_dim, i| {
                let at = if is_dim { i as usize } else { nd + i as usize };
                all_known &= values.get(at).copied().flatten().is_some();
            });
            if all_known {
                e.eval(&known[..nd], &known[nd..])
            } else {
                None
            }
        })
        .collect()
}

/// Whether `e` has a `floordiv`, `ceildiv` or `mod`.
fn has_division(e: &AffineExpr) -> bool {
    match e {
        AffineExpr::Binary(b) => {
            matches!(b.0, BinOp::FloorDiv | BinOp::CeilDiv | BinOp::Mod)
                || has_division(&b.1)
                || has_division(&b.2)
        }
        _ => false,
    }
}
