//! How values flow through the regions of `scf.for`, `scf.while`,
//! `scf.if`, `scf.index_switch` and `scf.execute_region` (MLIR's
//! `RegionBranchOpInterface` for them): which operands reach which
//! block arguments and results along each control edge.

use silica_ir::dialect::{RegionBranchDef, RegionEdge, RegionPoint};
use silica_ir::{Context, Ir, OpId};

fn edge(
    to: RegionPoint,
    operands: std::ops::Range<usize>,
    inputs: std::ops::Range<usize>,
) -> RegionEdge {
    RegionEdge {
        to,
        operands,
        inputs,
    }
}

fn is(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.str(ir.op_name(op)) == name
}

/// `scf.yield` back to the parent: all its operands become the results.
fn yield_to_parent(ctx: &Context, ir: &Ir, op: OpId, term: OpId) -> Option<Vec<RegionEdge>> {
    if !is(ctx, ir, term, "scf.yield") {
        return None;
    }
    let n = ir.num_operands(term);
    Some(vec![edge(RegionPoint::Parent, 0..n, 0..ir.num_results(op))])
}

/// `scf.for`: the inits enter the body after the induction variable, or
/// become the results when no iteration runs (not when constant bounds
/// make it run); the yield feeds the next iteration or the results.
pub(crate) static FOR: RegionBranchDef = RegionBranchDef {
    entry_edges: |ctx, ir, op| {
        let n = ir.num_results(op);
        let mut edges = vec![edge(RegionPoint::Region(0), 3..3 + n, 1..1 + n)];
        if trip_count(ctx, ir, op).is_none_or(|t| t == 0) {
            edges.push(edge(RegionPoint::Parent, 3..3 + n, 0..n));
        }
        edges
    },
    exit_edges: |ctx, ir, op, _, term| {
        if !is(ctx, ir, term, "scf.yield") {
            return None;
        }
        // The back edge stays even for one iteration: it ties each
        // iteration argument to its result, which only go together.
        let n = ir.num_operands(term);
        Some(vec![
            edge(RegionPoint::Region(0), 0..n, 1..1 + n),
            edge(RegionPoint::Parent, 0..n, 0..ir.num_results(op)),
        ])
    },
};

/// The number of iterations of an `scf.for` with constant bounds.
fn trip_count(ctx: &Context, ir: &Ir, op: OpId) -> Option<i128> {
    let v = |i| ir.operand(op, i);
    constant_trip_count(ctx, ir, v(0), v(1), v(2))
}

/// The number of iterations from `lb` to `ub` by `step`, when all are
/// constants and the step is positive.
pub(crate) fn constant_trip_count(
    ctx: &Context,
    ir: &Ir,
    lb: silica_ir::ValueId,
    ub: silica_ir::ValueId,
    step: silica_ir::ValueId,
) -> Option<i128> {
    let c = |v| silica_ir::rewrite::fold::constant_i64(ctx, ir, v).map(i128::from);
    let (lb, ub, step) = (c(lb)?, c(ub)?, c(step)?);
    if step <= 0 {
        return None;
    }
    Some(if ub <= lb {
        0
    } else {
        (ub - lb + step - 1) / step
    })
}

/// `scf.while`: the inits enter the before region; `scf.condition`
/// passes its values to the after region or out as results; the after
/// region's yield goes back to the before region.
pub(crate) static WHILE: RegionBranchDef = RegionBranchDef {
    entry_edges: |_, ir, op| {
        let n = ir.num_operands(op);
        vec![edge(RegionPoint::Region(0), 0..n, 0..n)]
    },
    exit_edges: |ctx, ir, op, region, term| {
        let n = ir.num_operands(term);
        match region {
            0 if is(ctx, ir, term, "scf.condition") => Some(vec![
                edge(RegionPoint::Region(1), 1..n, 0..n - 1),
                edge(RegionPoint::Parent, 1..n, 0..ir.num_results(op)),
            ]),
            1 if is(ctx, ir, term, "scf.yield") => {
                Some(vec![edge(RegionPoint::Region(0), 0..n, 0..n)])
            }
            _ => None,
        }
    },
};

/// Ops whose regions are entered without values and yield their
/// results: `scf.if` (a missing else goes straight to the results),
/// `scf.index_switch` and `scf.execute_region`.
pub(crate) static CONDITIONAL: RegionBranchDef = RegionBranchDef {
    entry_edges: |_, ir, op| {
        ir.regions(op)
            .enumerate()
            .map(|(i, r)| {
                if ir.region_is_empty(r) {
                    edge(RegionPoint::Parent, 0..0, 0..0)
                } else {
                    edge(RegionPoint::Region(i), 0..0, 0..0)
                }
            })
            .collect()
    },
    exit_edges: |ctx, ir, op, _, term| yield_to_parent(ctx, ir, op, term),
};
