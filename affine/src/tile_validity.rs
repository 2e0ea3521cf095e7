//! Whether hyper-rectangular tiling of a band keeps the order of its
//! memory dependences (MLIR's `isTilingValid`): MLIR rejects a band when
//! some dependence between two affine accesses in the nest (one of them
//! a write, on the same memref) has a component whose whole range is
//! negative. A uniform dependence — both accesses with the same
//! coefficients on the loops they share, no other loop in their
//! subscripts and the same symbolic terms — has constant or unbounded
//! distance components and never such a range, so it never blocks.
//! Other pairs of accesses need the polyhedral dependence analysis;
//! until it is available here, a band with such a pair is conservatively
//! not tiled.

use crate::for_op;
use silica_ir::affine_flatten::flatten_linear;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::{AttrKind, Context, Ir, OpId, ValueId};

/// A subscript: coefficients over values, and a constant.
type Subscript = (Vec<(ValueId, i64)>, i64);

/// An affine access: its memref, whether it writes, and each subscript
/// as coefficients over values plus a constant.
struct Access {
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

/// Whether the dependence between `a` and `b` is uniform.
fn uniform(ctx: &Context, ir: &Ir, a: &Access, b: &Access) -> bool {
    let (Some(sa), Some(sb)) = (&a.subscripts, &b.subscripts) else {
        return false;
    };
    let ivs_a = enclosing_ivs(ctx, ir, a.op);
    let ivs_b = enclosing_ivs(ctx, ir, b.op);
    let own =
        |v: &ValueId, mine: &[ValueId], other: &[ValueId]| mine.contains(v) && !other.contains(v);
    sa.iter().zip(sb).all(|((ta, _), (tb, _))| {
        ta == tb
            && !ta
                .iter()
                .any(|(v, _)| own(v, &ivs_a, &ivs_b) || own(v, &ivs_b, &ivs_a))
    })
}

/// Whether tiling the band rooted at `root` keeps its dependences, as
/// far as can be shown without the polyhedral dependence analysis (see
/// the module documentation).
pub fn is_tiling_valid(ctx: &Context, ir: &Ir, root: OpId) -> bool {
    let all = accesses(ctx, ir, root);
    for (i, a) in all.iter().enumerate() {
        for b in &all[i..] {
            if a.memref != b.memref || !(a.write || b.write) {
                continue;
            }
            if !uniform(ctx, ir, a, b) {
                return false;
            }
        }
    }
    true
}
