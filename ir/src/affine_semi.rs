//! Semi-affine simplification, as MLIR's `simplifyAffineExpr` does before
//! and after flattening a non-pure expression: a `mod`, `floordiv` or
//! `ceildiv` by a symbol whose dividend is a multiple of that symbol is
//! divided out (`(s0 * 42 + s0) floordiv s0` is `43`, `(s0 * s1) mod s0`
//! is `0`), `(e - e mod q) mod q` is `0`, and a flattened semi-affine sum
//! is rebuilt with its terms ordered by the positions of the dims and
//! symbols they involve (`d0 + d0 * s0 + s0 + d1 * s1 + s1`).

use crate::affine::{AffineExpr, BinOp};

/// Whether dividing `e` by symbol `pos` with `op` can be done term by term:
/// every summand has the symbol as a factor (`under_mul`: a product lies
/// between `e` and the division being checked; a nested division of the
/// same kind only commutes with the outer one outside products).
fn divisible_by_symbol(e: &AffineExpr, pos: u32, op: BinOp, under_mul: bool) -> bool {
    match e {
        AffineExpr::Constant(c) => *c == 0,
        AffineExpr::Dim(_) => false,
        AffineExpr::Symbol(p) => *p == pos,
        AffineExpr::Binary(b) => {
            let (kind, l, r) = (b.0, &b.1, &b.2);
            match kind {
                BinOp::Add => {
                    divisible_by_symbol(l, pos, op, under_mul)
                        && divisible_by_symbol(r, pos, op, under_mul)
                }
                BinOp::Mod => {
                    divisible_by_symbol(l, pos, BinOp::Mod, under_mul)
                        && divisible_by_symbol(r, pos, BinOp::Mod, under_mul)
                }
                BinOp::Mul => {
                    divisible_by_symbol(l, pos, op, true) || divisible_by_symbol(r, pos, op, true)
                }
                BinOp::FloorDiv | BinOp::CeilDiv => {
                    kind == op && !under_mul && divisible_by_symbol(l, pos, kind, under_mul)
                }
            }
        }
    }
}

/// `e` divided by symbol `pos` (checked divisible first); `None` where a
/// term does not divide.
fn symbolic_divide(e: &AffineExpr, pos: u32, op: BinOp) -> Option<AffineExpr> {
    match e {
        AffineExpr::Constant(c) => (*c == 0).then_some(AffineExpr::Constant(0)),
        AffineExpr::Dim(_) => None,
        AffineExpr::Symbol(_) => Some(AffineExpr::Constant(1)),
        AffineExpr::Binary(b) => {
            let (kind, l, r) = (b.0, &b.1, &b.2);
            match kind {
                BinOp::Add => Some(symbolic_divide(l, pos, op)?.plus(symbolic_divide(r, pos, op)?)),
                BinOp::Mod => {
                    Some(symbolic_divide(l, pos, kind)?.modulo(symbolic_divide(r, pos, kind)?))
                }
                BinOp::Mul => {
                    if divisible_by_symbol(l, pos, op, false) {
                        Some(symbolic_divide(l, pos, op)?.times(r.clone()))
                    } else {
                        Some(l.clone().times(symbolic_divide(r, pos, op)?))
                    }
                }
                BinOp::FloorDiv | BinOp::CeilDiv => {
                    Some(symbolic_divide(l, pos, kind)?.apply(kind, r.clone()))
                }
            }
        }
    }
}

fn summands<'a>(e: &'a AffineExpr, out: &mut Vec<&'a AffineExpr>) {
    match e.as_binary() {
        Some((BinOp::Add, l, r)) => {
            summands(l, out);
            summands(r, out);
        }
        _ => out.push(e),
    }
}

/// Whether `lhs` is `x - x mod rhs` (in any order of its summands), so
/// that `lhs mod rhs` is zero.
fn is_mod_of_mod_subtraction(lhs: &AffineExpr, rhs: &AffineExpr, nd: u32, ns: u32) -> bool {
    let mut terms = Vec::new();
    summands(lhs, &mut terms);
    terms.iter().enumerate().any(|(i, t)| {
        let Some((BinOp::Mul, negated, minus_one)) = t.as_binary() else {
            return false;
        };
        if minus_one != &AffineExpr::Constant(-1) {
            return false;
        }
        let Some((BinOp::Mod, x, q)) = negated.as_binary() else {
            return false;
        };
        if q != rhs {
            return false;
        }
        let rest = terms
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .fold(AffineExpr::Constant(0), |acc, (_, t)| {
                acc.plus((*t).clone())
            });
        let diff = rest.minus(x.clone());
        crate::affine_flatten::simplify_expr(&diff, nd, ns) == AffineExpr::Constant(0)
    })
}

/// MLIR's `simplifySemiAffine`: divisions and remainders by a symbol that
/// divides their dividend are carried out.
pub(crate) fn simplify_semi_affine(e: &AffineExpr, nd: u32, ns: u32) -> AffineExpr {
    let Some((op, l, r)) = e.as_binary() else {
        return e.clone();
    };
    let sl = simplify_semi_affine(l, nd, ns);
    let sr = simplify_semi_affine(r, nd, ns);
    if matches!(op, BinOp::Add | BinOp::Mul) {
        return sl.apply(op, sr);
    }
    // `(x - x mod q) mod q` is zero. (MLIR also folds the divisions of
    // such a dividend to zero, which is wrong: they are `x floordiv q`.)
    if op == BinOp::Mod && is_mod_of_mod_subtraction(&sl, &sr, nd, ns) {
        return AffineExpr::Constant(0);
    }
    let AffineExpr::Symbol(pos) = sr else {
        return sl.apply(op, sr);
    };
    if !divisible_by_symbol(&sl, pos, op, false) {
        return sl.apply(op, sr);
    }
    if op == BinOp::Mod {
        return AffineExpr::Constant(0);
    }
    match symbolic_divide(&sl, pos, op) {
        Some(q) => q,
        None => sl.apply(op, sr),
    }
}

/// Where a term goes in the rebuilt sum: `(position, rank)`, sorted.
type TermKey = (u32, i64);

/// MLIR's `getSemiAffineExprFromFlatForm`: the flat form `v` (dims,
/// symbols, locals, constant) rebuilt with dims, symbols and the locals
/// that are a dim or symbol times, mod or divided by a dim, symbol or
/// constant ordered by the position of their first id; the other locals
/// follow in order, then the constant.
pub(crate) fn from_flat_semi_affine(
    v: &[i64],
    nd: u32,
    ns: u32,
    locals: &[AffineExpr],
) -> AffineExpr {
    let (nd_, ns_) = (nd as usize, ns as usize);
    let base = i64::from(nd.max(ns));
    let mut terms: Vec<(TermKey, i64, AffineExpr)> = Vec::new();
    let mut sym_rank = 0i64;
    let mut dim_rank = -1i64;
    for j in 0..ns_ {
        if v[nd_ + j] != 0 {
            terms.push((
                (j as u32, base + sym_rank),
                v[nd_ + j],
                AffineExpr::Symbol(j as u32),
            ));
            sym_rank += 1;
        }
    }
    let mut placed = vec![false; locals.len()];
    for (k, local) in locals.iter().enumerate() {
        let c = v[nd_ + ns_ + k];
        if c == 0 {
            continue;
        }
        let Some((_, l, r)) = local.as_binary() else {
            continue;
        };
        let key = match (l, r) {
            (AffineExpr::Dim(p), AffineExpr::Constant(_)) => {
                dim_rank -= 1;
                (*p, dim_rank + 1)
            }
            (AffineExpr::Dim(p), AffineExpr::Symbol(q)) => (*p, i64::from(*q)),
            (AffineExpr::Symbol(p), AffineExpr::Constant(_) | AffineExpr::Symbol(_)) => {
                sym_rank += 1;
                (*p, base + sym_rank - 1)
            }
            _ => continue,
        };
        terms.push((key, c, local.clone()));
        placed[k] = true;
    }
    for (j, &c) in v[..nd_].iter().enumerate() {
        if c != 0 {
            terms.push(((j as u32, dim_rank), c, AffineExpr::Dim(j as u32)));
            dim_rank -= 1;
        }
    }
    terms.sort_by_key(|t| t.0);
    let mut e = AffineExpr::Constant(0);
    for (_, c, t) in terms {
        e = e.plus(t.times(AffineExpr::Constant(c)));
    }
    for (k, local) in locals.iter().enumerate() {
        let c = v[nd_ + ns_ + k];
        if c != 0 && !placed[k] {
            e = e.plus(local.clone().times(AffineExpr::Constant(c)));
        }
    }
    let c = v[v.len() - 1];
    if c != 0 {
        e = e.plus(AffineExpr::Constant(c));
    }
    e
}
