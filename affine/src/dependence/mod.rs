//! Memory dependence analysis of affine code, with MLIR's semantics
//! (`checkMemrefAccessDependence`).
//!
//! Accesses ([`MemoryAccess`], from [`accesses_of`]) are `affine.load`,
//! `affine.store` and both sides of `affine.dma_start` (its source read
//! and destination write); `affine.vector_*` ops are not analysed. For a
//! source and a destination access to the same memref, at least one of
//! them a write, and a loop depth `d` (1-based, up to the number of
//! common loops plus one, which stands for the loop-independent
//! dependence), [`check_dependence`] decides whether some source
//! iteration touches an element that a later destination iteration
//! touches too, "later" meaning: the same iterations of the `d - 1` outer
//! common loops and a later one of loop `d` (at depth common + 1: the same
//! iterations of every common loop, with the source op before the
//! destination op in program order). The test is exact over the integers
//! (it never reports independence where a dependence exists); for a
//! dependence, each common loop gets the bounds of `dst_iv - src_iv`
//! ([`DependenceComponent`]).
//!
//! For clients:
//! * [`dependences`]: every dependence among the accesses under an op
//!   (a function, a loop), at every depth, with MLIR's distance bounds
//!   ([`Precision::Shadow`]) or the exact integer ones
//!   ([`Precision::Exact`]);
//! * [`loop_carried_dependences`]: the dependences an `affine.for` carries
//!   (distance bounds at its depth, and the kind: flow, anti, output),
//!   what a pipeline scheduler turns into recurrence constraints.
//!
//! `test_pass` is MLIR's `test-memref-dependence-check`.

mod access;
mod check;
mod order;
pub mod test_pass;

#[cfg(test)]
mod api_tests;
#[cfg(test)]
mod proptests;

pub use access::{
    accesses_of, enclosing_affine_ops, enclosing_loop_ivs, iteration_domain, AccessKind, Elements,
    MemoryAccess,
};
pub use check::{
    check_dependence, check_dependence_at, dependence_system, has_reversed_component,
    num_common_loops, pair_system, DependenceComponent, DependenceResult, DependenceSystem,
    NotAnalysable, Precision,
};

use silica_ir::{Context, Ir, OpId, ValueId};
use std::collections::HashMap;

/// What a dependence orders.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum DependenceKind {
    /// A write then a read of the same element (true dependence).
    Flow,
    /// A read then a write.
    Anti,
    /// Two writes.
    Output,
}

impl DependenceKind {
    fn of(src: AccessKind, dst: AccessKind) -> Option<Self> {
        match (src, dst) {
            (AccessKind::Write, AccessKind::Read) => Some(DependenceKind::Flow),
            (AccessKind::Read, AccessKind::Write) => Some(DependenceKind::Anti),
            (AccessKind::Write, AccessKind::Write) => Some(DependenceKind::Output),
            (AccessKind::Read, AccessKind::Read) => None,
        }
    }
}

/// One dependence between two accesses.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Dependence {
    pub src: OpId,
    pub dst: OpId,
    pub memref: ValueId,
    pub kind: DependenceKind,
    /// The loop depth (1-based) it was found at; `common_loops + 1` is
    /// loop-independent.
    pub depth: usize,
    /// The loop carrying it (`None` when loop-independent).
    pub carried_by: Option<OpId>,
    /// `dst_iv - src_iv` bounds for every common loop, outermost first.
    pub components: Vec<DependenceComponent>,
    /// Whether the analysis failed and the dependence is assumed.
    pub assumed: bool,
}

/// A dependence carried by a loop, with the distance (in iterations of
/// the induction variable's value, so a multiple of the step) between
/// the source and the destination instance.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LoopCarriedDependence {
    pub src: OpId,
    pub dst: OpId,
    pub memref: ValueId,
    pub kind: DependenceKind,
    /// Smallest `dst_iv - src_iv` (at least 1; `None` when unknown).
    pub min_distance: Option<i64>,
    /// Largest `dst_iv - src_iv` (`None`: unbounded or unknown).
    pub max_distance: Option<i64>,
}

/// Every memory access under `root`, in program order (ops whose
/// domain is not affine are left out).
fn collect_accesses(ctx: &Context, ir: &Ir, root: OpId) -> (Vec<MemoryAccess>, Vec<OpId>) {
    let mut ops = Vec::new();
    ir.walk(root, &mut |op| {
        if matches!(
            ctx.str(ir.op_name(op)),
            "affine.load" | "affine.store" | "affine.dma_start"
        ) {
            ops.push(op);
        }
    });
    let mut accesses = Vec::new();
    let mut failed = Vec::new();
    for op in ops {
        match accesses_of(ctx, ir, op) {
            Ok(a) => accesses.extend(a),
            Err(_) => failed.push(op),
        }
    }
    (accesses, failed)
}

/// Every dependence among the accesses under `root`, at every depth,
/// with distance bounds of the given precision. Accesses whose domain is
/// not affine cannot be analysed: they are reported as dependent on
/// themselves (with `assumed` set), and pairs the analysis fails on too.
pub fn dependences(ctx: &Context, ir: &Ir, root: OpId, precision: Precision) -> Vec<Dependence> {
    let (accesses, failed) = collect_accesses(ctx, ir, root);
    let class = classes(ctx, ir, &accesses);
    // The result per pair of classes at a depth the two share a loop of
    // (program order, which the classes ignore, only matters deeper).
    let mut memo: HashMap<(usize, usize, usize), DependenceResult> = HashMap::new();
    let mut out = Vec::new();
    for (si, src) in accesses.iter().enumerate() {
        for (di, dst) in accesses.iter().enumerate() {
            let Some(kind) = DependenceKind::of(src.kind, dst.kind) else {
                continue;
            };
            if src.memref != dst.memref {
                continue;
            }
            let common = num_common_loops(src, dst);
            for depth in 1..=common + 1 {
                let result = if depth <= common {
                    memo.entry((class[si], class[di], depth))
                        .or_insert_with(|| check_dependence(ctx, ir, src, dst, depth, precision))
                        .clone()
                } else {
                    check_dependence(ctx, ir, src, dst, depth, precision)
                };
                let (components, assumed) = match result {
                    DependenceResult::NoDependence => continue,
                    DependenceResult::Dependence(c) => (c, false),
                    DependenceResult::Failure => (Vec::new(), true),
                };
                let carried_by = (depth <= common)
                    .then(|| src.domain.dim_values[depth - 1])
                    .flatten()
                    .and_then(|iv| crate::presburger::loop_of_iv(ctx, ir, iv));
                out.push(Dependence {
                    src: src.op,
                    dst: dst.op,
                    memref: src.memref,
                    kind,
                    depth,
                    carried_by,
                    components,
                    assumed,
                });
            }
        }
    }
    for op in failed {
        for m in ir.operands(op).filter(|&v| {
            matches!(
                ctx.type_kind(ir.value_type(v)),
                silica_ir::TypeKind::MemRef { .. }
            )
        }) {
            out.push(Dependence {
                src: op,
                dst: op,
                memref: m,
                kind: DependenceKind::Output,
                depth: 1,
                carried_by: None,
                components: Vec::new(),
                assumed: true,
            });
        }
    }
    out
}

/// The dependences carried by the `affine.for` `for_op`: pairs of
/// accesses in its body touching a common element in different
/// iterations of it (same iterations of the loops around it), the
/// source iteration first, with exact distance bounds. An access whose domain is not affine makes
/// every access of its memref (and itself) dependent with unknown
/// distance.
pub fn loop_carried_dependences(
    ctx: &Context,
    ir: &Ir,
    for_op: OpId,
) -> Vec<LoopCarriedDependence> {
    let (accesses, failed) = collect_accesses(ctx, ir, for_op);
    let class = classes(ctx, ir, &accesses);
    // The bounds at the loop's depth per pair of classes (`None`: no
    // dependence): an unrolled body repeats the same access many times.
    let mut memo: HashMap<(usize, usize, usize), Option<DistanceBounds>> = HashMap::new();
    let mut out = Vec::new();
    for (si, src) in accesses.iter().enumerate() {
        let ivs = enclosing_loop_ivs(ctx, ir, src.op);
        let Some(depth) = ivs.iter().position(|&(l, _)| l == for_op).map(|i| i + 1) else {
            continue;
        };
        for (di, dst) in accesses.iter().enumerate() {
            let Some(kind) = DependenceKind::of(src.kind, dst.kind) else {
                continue;
            };
            if src.memref != dst.memref {
                continue;
            }
            let test =
                || match check_dependence_at(ctx, ir, src, dst, depth, Precision::Exact, depth - 1)
                {
                    Ok(None) => None,
                    Ok(Some(c)) => Some((c.lower, c.upper)),
                    Err(NotAnalysable) => Some((None, None)),
                };
            // Program order (which the classes ignore) only matters for
            // loop-independent dependences.
            let bounds = if depth <= num_common_loops(src, dst) {
                *memo
                    .entry((class[si], class[di], depth))
                    .or_insert_with(test)
            } else {
                test()
            };
            let Some((min_distance, max_distance)) = bounds else {
                continue;
            };
            out.push(LoopCarriedDependence {
                src: src.op,
                dst: dst.op,
                memref: src.memref,
                kind,
                min_distance: min_distance.map(|d| d.max(1)),
                max_distance,
            });
        }
    }
    for op in failed {
        for m in ir.operands(op).filter(|&v| {
            matches!(
                ctx.type_kind(ir.value_type(v)),
                silica_ir::TypeKind::MemRef { .. }
            )
        }) {
            for a in accesses.iter().filter(|a| a.memref == m) {
                for (src, dst) in [(op, a.op), (a.op, op)] {
                    out.push(LoopCarriedDependence {
                        src,
                        dst,
                        memref: m,
                        kind: DependenceKind::Output,
                        min_distance: None,
                        max_distance: None,
                    });
                }
            }
            out.push(LoopCarriedDependence {
                src: op,
                dst: op,
                memref: m,
                kind: DependenceKind::Output,
                min_distance: None,
                max_distance: None,
            });
        }
    }
    out
}

/// The lower and upper bounds of a dependence distance (`None`: unknown).
type DistanceBounds = (Option<i64>, Option<i64>);

/// A class number per access: accesses the dependence test cannot tell
/// apart (the same memref, kind, iteration domain, elements and affine
/// scope) share one.
fn classes(ctx: &Context, ir: &Ir, accesses: &[MemoryAccess]) -> Vec<usize> {
    let scope: Vec<_> = accesses
        .iter()
        .map(|a| order::analysis_scope(ctx, ir, a.op))
        .collect();
    let same = |a: usize, b: usize| {
        let (x, y) = (&accesses[a], &accesses[b]);
        x.memref == y.memref
            && x.kind == y.kind
            && x.num_loops == y.num_loops
            && scope[a] == scope[b]
            && x.domain.dim_values == y.domain.dim_values
            && x.domain.symbol_values == y.domain.symbol_values
            && x.domain.system == y.domain.system
            && x.elements == y.elements
    };
    let mut first: Vec<usize> = Vec::new();
    (0..accesses.len())
        .map(|i| match first.iter().position(|&f| same(f, i)) {
            Some(c) => c,
            None => {
                first.push(i);
                first.len() - 1
            }
        })
        .collect()
}
