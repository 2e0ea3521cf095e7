//! Dependence distances between the affine accesses of a loop nest
//! (pairs on one memref, one of them a write), each component exact
//! where a subscript pins it and otherwise free over its loop's range —
//! a sound over-approximation of what the polyhedral analysis computes,
//! exact for uniform dependences — for loop permutation, and whether
//! hyper-rectangular tiling of a band is legal ([`is_tiling_valid`]:
//! MLIR's check on the exact dependence analysis, plus constant negative
//! distances).

use crate::for_op;
use crate::loops::constant_trip_count;
use silica_ir::affine_flatten::flatten_linear;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::{AttrKind, Context, Ir, OpId, ValueId};

/// A subscript: coefficients over values, and a constant.
type Subscript = (Vec<(ValueId, i64)>, i64);

/// An affine access: its memref, whether it writes, and each subscript
/// as coefficients over values plus a constant.
#[derive(Clone)]
pub struct Access {
    op: OpId,
    memref: ValueId,
    write: bool,
    subscripts: Option<Vec<Subscript>>,
}

fn linear(ctx: &Context, ir: &Ir, op: OpId, first: usize) -> Option<Vec<Subscript>> {
    let map = match ctx.attr_kind(inherent_attr(ctx, ir, op, "map")?) {
        AttrKind::AffineMap(m) => m.clone(),
        _ => return None,
    };
    let operands: Vec<ValueId> = ir.operands(op).skip(first).collect();
    map.results
        .iter()
        .map(|e| {
            let v = flatten_linear(e, map.num_dims, map.num_symbols)?;
            let (&c, coeffs) = v.split_last()?;
            let mut terms: Vec<(ValueId, i64)> = Vec::new();
            let mut constant = c;
            for (&k, &value) in coeffs.iter().zip(&operands) {
                if k == 0 {
                    continue;
                }
                if let Some(x) = constant_i64(ctx, ir, value) {
                    constant += k * x;
                    continue;
                }
                match terms.iter_mut().find(|(x, _)| *x == value) {
                    Some(t) => t.1 += k,
                    None => terms.push((value, k)),
                }
            }
            terms.retain(|&(_, k)| k != 0);
            terms.sort_by_key(|&(v, _)| v);
            Some((terms, constant))
        })
        .collect()
}

fn accesses(ctx: &Context, ir: &Ir, root: OpId) -> Vec<Access> {
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| ops.push(o));
    ops.into_iter()
        .filter_map(|op| {
            let (memref, first, write) = match ctx.str(ir.op_name(op)) {
                "affine.load" | "affine.vector_load" => (ir.operand(op, 0), 1, false),
                "affine.store" | "affine.vector_store" => (ir.operand(op, 1), 2, true),
                _ => return None,
            };
            Some(Access {
                op,
                memref,
                write,
                subscripts: linear(ctx, ir, op, first),
            })
        })
        .collect()
}

/// The induction variables of the loops enclosing `op`.
fn enclosing_ivs(ctx: &Context, ir: &Ir, op: OpId) -> Vec<ValueId> {
    let mut ivs = Vec::new();
    let mut at = ir.parent_op(op);
    while let Some(p) = at {
        if for_op::is_for(ctx, ir, p) {
            ivs.extend(for_op::induction_var(ir, p));
        }
        at = ir.parent_op(p);
    }
    ivs
}

/// The ordered pairs (source, destination) of affine accesses in the
/// nest rooted at `root` on one memref, one of them a write (an access
/// paired with itself included).
pub fn dependence_pairs(ctx: &Context, ir: &Ir, root: OpId) -> Vec<(Access, Access)> {
    let all = accesses(ctx, ir, root);
    let mut pairs = Vec::new();
    for a in &all {
        for b in &all {
            if a.memref == b.memref && (a.write || b.write) {
                pairs.push((a.clone(), b.clone()));
            }
        }
    }
    pairs
}

/// One component of a dependence distance (destination
/// iteration minus source iteration) along a loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// Always this value.
    Exact(i64),
    /// Any value the loop allows: within the trip count when constant.
    Free(Option<i64>),
}

/// The distance components along `loops` (a perfect nest enclosing
/// both accesses) of the dependence from `src` to `dst`, or `None` when
/// the accesses never touch the same element. A component is exact when
/// a subscript pins it — the loop's induction variable is the only
/// variable of that subscript in both accesses, with the same
/// coefficient, the symbolic terms equal — and otherwise free over the
/// loop's range, which over-approximates every distance the accesses
/// allow.
pub fn dependence_distance(
    ctx: &mut Context,
    ir: &mut Ir,
    src: &Access,
    dst: &Access,
    loops: &[OpId],
) -> Option<Vec<Distance>> {
    let ivs: Vec<Option<ValueId>> = loops
        .iter()
        .map(|&l| for_op::induction_var(ir, l))
        .collect();
    let mut exact: Vec<Option<i64>> = vec![None; loops.len()];
    if let (Some(sa), Some(sb)) = (&src.subscripts, &dst.subscripts) {
        let ivs_a = enclosing_ivs(ctx, ir, src.op);
        let ivs_b = enclosing_ivs(ctx, ir, dst.op);
        for ((ta, ca), (tb, cb)) in sa.iter().zip(sb) {
            // With the same terms on both sides, src + ca = dst + cb pins
            // the one band loop they use: coefficient * distance = ca - cb.
            if ta != tb {
                continue;
            }
            // Induction variables, and values computed inside the nest,
            // differ between the two accesses' iterations.
            let is_loop = |v: &ValueId| {
                ivs_a.contains(v)
                    || ivs_b.contains(v)
                    || ir
                        .defining_op(*v)
                        .is_some_and(|d| loops.iter().any(|&l| ir.is_ancestor(l, d)))
            };
            let loop_terms: Vec<(ValueId, i64)> =
                ta.iter().copied().filter(|(v, _)| is_loop(v)).collect();
            let rhs = ca - cb;
            match loop_terms[..] {
                [] if rhs != 0 => return None,
                [(v, k)] => {
                    let Some(at) = ivs.iter().position(|&x| x == Some(v)) else {
                        continue;
                    };
                    if !ivs_a.contains(&v) || !ivs_b.contains(&v) {
                        continue;
                    }
                    if rhs % k != 0 {
                        return None;
                    }
                    let value = rhs / k;
                    match exact[at] {
                        Some(e) if e != value => return None,
                        _ => exact[at] = Some(value),
                    }
                }
                _ => {}
            }
        }
    }
    Some(
        exact
            .iter()
            .zip(loops)
            .map(|(e, &l)| match e {
                Some(v) => Distance::Exact(*v),
                None => Distance::Free(
                    constant_trip_count(ctx, ir, l).and_then(|t| i64::try_from(t).ok()),
                ),
            })
            .collect(),
    )
}

/// The lower bounds of the components of a dependence with
/// `distance` when carried at depth `d` of its loops (the loops above
/// equal, loop `d` forward; `d` equal to their number for a dependence
/// within one iteration): `None` when there is no such dependence; a
/// component with no lower bound is `None`.
pub fn carried_lower_bounds(distance: &[Distance], d: usize) -> Option<Vec<Option<i64>>> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let mut lower = Vec::with_capacity(distance.len());
    for (k, c) in distance.iter().enumerate() {
        let lb = match (*c, k.cmp(&d)) {
            (Distance::Exact(v), Less) if v != 0 => return None,
            (Distance::Exact(v), Equal) if v < 1 => return None,
            (Distance::Exact(v), _) => Some(v),
            (Distance::Free(_), Less) => Some(0),
            (Distance::Free(Some(t)), Equal) if t < 2 => return None,
            (Distance::Free(_), Equal) => Some(1),
            (Distance::Free(Some(t)), Greater) => Some(1 - t.max(1)),
            (Distance::Free(None), Greater) => None,
        };
        lower.push(lb);
    }
    Some(lower)
}

/// Whether tiling `band` (a perfect nest, outermost first) is legal:
/// MLIR's `checkTilingLegality` — for every pair of affine accesses of
/// the nest and every loop depth from 1 to one past the band, no
/// dependence component whose bounds are constant, differ, and are both
/// negative — and, beyond it, no component along a band loop that is a
/// constant negative distance. MLIR's check lets those through (its
/// `lb < ub` test), and tiling then reverses the dependence whenever the
/// tile is smaller than the loop (a Gauss-Seidel stencil computes
/// something else); silica keeps those bands untiled. Accesses the
/// analysis cannot represent, and pairs it fails on, are skipped as MLIR
/// skips them.
pub fn is_tiling_valid(ctx: &mut Context, ir: &mut Ir, band: &[OpId]) -> bool {
    use crate::dependence::{has_reversed_component, num_common_loops, DependenceComponent};
    let Some(&root) = band.first() else {
        return true;
    };
    let mut ops = Vec::new();
    ir.walk(root, &mut |o| {
        if matches!(ctx.str(ir.op_name(o)), "affine.load" | "affine.store") {
            ops.push(o);
        }
    });
    let all: Vec<_> = ops
        .into_iter()
        .filter_map(|o| crate::dependence::accesses_of(ctx, ir, o).ok())
        .flatten()
        .collect();
    let reversed = |c: &DependenceComponent| match (c.lower, c.upper) {
        (Some(l), Some(u)) => u < 0 && (l < u || band.contains(&c.loop_op)),
        _ => false,
    };
    // At a depth `d`, the components of the loops above `d` are zero and
    // the one of loop `d` at least one (an integer point of the system
    // lies in every projection of it): only the loops below `d` can
    // have a negative component, so the dependences carried by the
    // innermost common loop, and the loop-independent ones, never fail.
    for src in &all {
        for dst in &all {
            if src.memref != dst.memref {
                continue;
            }
            let deepest = num_common_loops(src, dst).saturating_sub(1);
            for depth in 1..=deepest.min(band.len() + 1) {
                if has_reversed_component(ctx, ir, src, dst, depth, &reversed) {
                    return false;
                }
            }
        }
    }
    true
}
