//! Loop directives that rewrite the input before it is lifted (on the
//! flow's own copy of the IR; the co-simulation runs the input as
//! written): `interchange` (`interchange.rs`), `jam = K` (unroll-and-jam: the loop's copies fused into the
//! loops inside it, so that an inner loop runs `K` outer iterations side
//! by side; only where no dependence the loop carries would be broken,
//! which is so when the loop could be moved innermost), then `unroll = K`
//! and `unroll = "full"` through the affine
//! layer's loop utilities, and `pipeline` on a loop with loops inside,
//! which unrolls those fully so that the loop becomes innermost and can
//! be pipelined. `scf.for` loops with constant bounds unroll through
//! `scf_unroll.rs`. A loop that cannot be unrolled (no constant trip
//! count, too many copies; an `scf.for` whose trip count the factor does
//! not divide) is left as it is, with a warning.

use super::scf_unroll::{scf_trip_count, unroll_scf, ScfUnrollError};
use crate::model::directives::{Directives, Log, Pipeline, Unroll};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_affine::dependence::loop_carried_dependences;
use silica_affine::for_op::body_ops;
use silica_affine::loops::{
    constant_trip_count, unroll_by_factor, unroll_full, unroll_jam_by_factor, UnrollError,
};
use silica_affine::permute::is_valid_permutation;
use silica_ir::{Context, Ir, OpId, TypeKind, ValueId};

/// Full unrolling makes at most this many copies of a body.
pub const MAX_COPIES: u64 = 1024;

fn is_affine_for(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.str(ir.op_name(op)) == "affine.for"
}

/// The loops inside `op`, innermost first (post-order).
fn inner_loops(ctx: &Context, ir: &Ir, op: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    ir.walk(op, &mut |o| {
        if o != op && matches!(ctx.str(ir.op_name(o)), "affine.for" | "scf.for") {
            out.push(o);
        }
    });
    // Reversed pre-order: every loop after the loops inside it.
    out.reverse();
    out
}

/// The copies of the innermost bodies that unrolling the loops `inside`
/// `op` fully makes: the sum over the loops with none inside them of the
/// product of the trip counts of the loops around them up to `op`
/// (sibling loops add, nested ones multiply).
fn copies_of_body(ir: &Ir, op: OpId, inside: &[OpId], trips: &FxHashMap<OpId, u64>) -> u64 {
    let mut copies: u64 = 0;
    let mut outer = FxHashSet::default();
    for &l in inside {
        let mut p = ir.parent_op(l);
        while let Some(q) = p.filter(|&q| q != op) {
            outer.insert(q);
            p = ir.parent_op(q);
        }
    }
    for &l in inside.iter().filter(|l| !outer.contains(*l)) {
        let mut product = trips.get(&l).copied().unwrap_or(1);
        let mut p = ir.parent_op(l);
        while let Some(q) = p.filter(|&q| q != op) {
            product = product.saturating_mul(trips.get(&q).copied().unwrap_or(1));
            p = ir.parent_op(q);
        }
        copies = copies.saturating_add(product);
    }
    copies.max(1)
}

fn why(e: UnrollError) -> String {
    match e {
        UnrollError::UnknownTripCount => "its trip count is not a constant".into(),
        UnrollError::TripCountBelowFactor => "its trip count is below the factor".into(),
        UnrollError::NoCleanupLoop => {
            "the factor does not divide its trip count and a bound has several results, so no cleanup loop can be built".into()
        }
        UnrollError::VariantInnerBounds => "a bound inside depends on the loop".into(),
        UnrollError::NotALoop => "it is not a well-formed affine.for".into(),
    }
}

fn why_scf(e: ScfUnrollError) -> String {
    match e {
        ScfUnrollError::UnknownTripCount => {
            "its bounds and step are not constants, so its trip count is unknown".into()
        }
        ScfUnrollError::StepOverflows => "the unrolled step does not fit the counter's type".into(),
        ScfUnrollError::FactorDoesNotDivide { trip } => {
            format!(
                "the factor does not divide its trip count ({trip}); scf.for gets no cleanup loop"
            )
        }
    }
}

/// Applies an `unroll` directive to an `scf.for`; says what it did.
fn unroll_scf_directive(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    u: Unroll,
) -> Result<String, String> {
    let trip = scf_trip_count(ctx, ir, op);
    match (u, trip) {
        (Unroll::Full, Some(t)) if t > MAX_COPIES => Err(format!(
            "it would make {t} copies of the body (at most {MAX_COPIES})"
        )),
        (Unroll::Factor(k), Some(t)) if t < k => Err("its trip count is below the factor".into()),
        _ => {
            let factor = match u {
                Unroll::Full => None,
                Unroll::Factor(k) => Some(k),
            };
            unroll_scf(ctx, ir, op, factor).map_err(why_scf)?;
            Ok(match (u, trip) {
                (Unroll::Full, Some(t)) => format!("body repeated {t} times, loop removed"),
                (Unroll::Factor(k), _) => format!("body repeated {k} times"),
                (Unroll::Full, None) => "body repeated".into(),
            })
        }
    }
}

/// Why unroll-and-jam of `op` would change what the kernel computes: a
/// value it carries that is not a reduction, or a dependence it carries
/// that the copies, side by side in the loops inside, would break. None
/// where it carries none, where moving it innermost through the chain of
/// single loops inside it keeps every dependence (jamming then keeps
/// them too), or where the copies keep them item by item
/// ([`copies_keep_order`]).
pub fn jam_breaks(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Option<String> {
    // The copies' partial values of a carried value are combined after
    // the loop only where it is a reduction the affine layer knows.
    let carried = silica_affine::loops::inits(ctx, ir, op).len();
    if carried > silica_affine::loops::supported_reductions(ctx, ir, op).len() {
        return Some(
            "it carries a value from one iteration to the next that is not a reduction its copies' values could be combined by".into(),
        );
    }
    if unanalysed_memory(ctx, ir, op) {
        return Some(
            "it writes memory that it also accesses through operations whose dependences are not analysed (a memref.load or memref.store, a call given the memref)".into(),
        );
    }
    if loop_carried_dependences(ctx, ir, op).is_empty() {
        return None;
    }
    let mut chain = vec![op];
    loop {
        let inner: Vec<OpId> = body_ops(ir, chain[chain.len() - 1])
            .into_iter()
            .filter(|&o| is_affine_for(ctx, ir, o))
            .collect();
        match inner[..] {
            [only] => chain.push(only),
            _ => break,
        }
    }
    let innermost: Vec<usize> = (0..chain.len())
        .map(|i| if i == 0 { chain.len() - 1 } else { i - 1 })
        .collect();
    if chain.len() > 1 && is_valid_permutation(ctx, ir, &chain, &innermost) {
        return None;
    }
    if copies_keep_order(ctx, ir, op) {
        return None;
    }
    Some(
        "it carries a memory dependence that its copies, side by side in the loops inside, would break"
            .into(),
    )
}

/// Whether `op` writes a memref that an operation inside it accesses
/// where the dependence analysis (which reads `affine.load`,
/// `affine.store` and `affine.dma_start`) does not see it: a
/// `memref.load` or `memref.store` (subscripts the front could not
/// raise to affine ones), a call or any other operation given the
/// memref (taken as writing it). The dependences it carries are then
/// unknown.
fn unanalysed_memory(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let mut written: FxHashSet<ValueId> = FxHashSet::default();
    let mut unseen: Vec<ValueId> = Vec::new();
    ir.walk(op, &mut |o| {
        let memrefs = ir
            .operands(o)
            .filter(|&v| matches!(ctx.type_kind(ir.value_type(v)), TypeKind::MemRef { .. }));
        match ctx.str(ir.op_name(o)) {
            "affine.load" | "affine.dma_start" | "affine.dma_wait" => {}
            "affine.store" => written.extend(memrefs),
            "memref.load" => unseen.extend(memrefs),
            _ => {
                let memrefs: Vec<ValueId> = memrefs.collect();
                written.extend(memrefs.iter().copied());
                unseen.extend(memrefs);
            }
        }
    });
    unseen.iter().any(|m| written.contains(m))
}

/// Whether the copies of `op`, side by side, keep every dependence it
/// carries, whatever its body holds. Unroll-and-jam puts the copies of
/// each item of a body (a run of operations, a loop) right after it,
/// each loop fused with its copies: a dependence from an item to a later
/// one is kept and one to an earlier one broken; within a run the copies
/// follow one another in order; within a loop it is kept where the
/// loop's iterations go forward from source to destination, or stay (and
/// then the same holds one level in). atax's row loop, whose two loops
/// inside both update their elements in place, is jammed so.
fn copies_keep_order(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    use silica_affine::dependence::{
        accesses_of, check_dependence_at, enclosing_loop_ivs, AccessKind, DependenceKind,
        MemoryAccess, Precision,
    };
    let access = |at: OpId, memref, kind| -> Option<MemoryAccess> {
        let all = accesses_of(ctx, ir, at).ok()?;
        all.into_iter()
            .find(|a| a.memref == memref && a.kind == kind)
    };
    // The op of `level`'s body that holds `at`.
    let item = |level: OpId, at: OpId| -> Option<OpId> {
        let mut o = at;
        while ir.parent_op(o)? != level {
            o = ir.parent_op(o)?;
        }
        Some(o)
    };
    let keeps = |d: &silica_affine::dependence::LoopCarriedDependence| -> Option<bool> {
        let (from, to) = match d.kind {
            DependenceKind::Flow => (AccessKind::Write, AccessKind::Read),
            DependenceKind::Anti => (AccessKind::Read, AccessKind::Write),
            DependenceKind::Output => (AccessKind::Write, AccessKind::Write),
        };
        let (src, dst) = (access(d.src, d.memref, from)?, access(d.dst, d.memref, to)?);
        let loops = enclosing_loop_ivs(ctx, ir, d.src);
        let depth = loops.iter().position(|&(l, _)| l == op)? + 1;
        let mut level = op;
        loop {
            let (s, t) = (item(level, d.src)?, item(level, d.dst)?);
            if s != t || !is_affine_for(ctx, ir, s) {
                // An operation holding a loop (an `affine.if` around
                // one) is cut by the jam in ways not followed here.
                let loose =
                    |o: OpId| !is_affine_for(ctx, ir, o) && !inner_loops(ctx, ir, o).is_empty();
                let order = run_of(ctx, ir, level, s)? <= run_of(ctx, ir, level, t)?;
                return Some(!loose(s) && !loose(t) && order);
            }
            let k = loops.iter().position(|&(l, _)| l == s)?;
            let c = check_dependence_at(ctx, ir, &src, &dst, depth, Precision::Exact, k).ok()?;
            match c.map(|c| c.lower) {
                None => return Some(true),
                Some(Some(lower)) if lower > 0 => return Some(true),
                Some(Some(0)) => level = s,
                _ => return Some(false),
            }
        }
    };
    loop_carried_dependences(ctx, ir, op)
        .iter()
        .all(|d| keeps(d) == Some(true))
}

/// The place of `o` in `level`'s body as unroll-and-jam cuts it: the
/// operations between two loops form one run, and the runs and loops are
/// numbered in order.
fn run_of(ctx: &Context, ir: &Ir, level: OpId, o: OpId) -> Option<usize> {
    let mut place = 0;
    for b in body_ops(ir, level) {
        if is_affine_for(ctx, ir, b) {
            place += 1;
            if b == o {
                return Some(place);
            }
            place += 1;
        } else if b == o {
            return Some(place);
        }
    }
    None
}

/// Applies the `jam` directives of `func`, outermost loop first.
fn jam(ctx: &mut Context, ir: &mut Ir, func: OpId, d: &Directives, log: &mut Log) {
    let mut order = inner_loops(ctx, ir, func);
    order.reverse();
    for op in order {
        let Some(s) = d.loops.get(&op).and_then(|l| l.jam.clone()) else {
            continue;
        };
        let path = d.loop_paths.get(&op).cloned().unwrap_or_default();
        let directive = format!("jam {}", s.value);
        if ir.is_erased(op) {
            continue;
        }
        if !is_affine_for(ctx, ir, op) {
            log.refused(&s, &path, directive, "it is not an affine.for".into());
            continue;
        }
        if let Some(why) = jam_breaks(ctx, ir, op) {
            log.refused(&s, &path, directive, why);
            continue;
        }
        let trip = constant_trip_count(ctx, ir, op);
        match unroll_jam_by_factor(ctx, ir, op, s.value) {
            Ok(()) => {
                let k = s.value;
                let what = match trip {
                    Some(t) if t % k != 0 => {
                        format!(
                            "{k} iterations side by side in the loops inside, with a cleanup loop"
                        )
                    }
                    _ => format!("{k} iterations side by side in the loops inside"),
                };
                log.honoured(&s, &path, directive, what);
            }
            Err(e) => log.refused(&s, &path, directive, why(e)),
        }
    }
}

/// Applies the `interchange` directives (`interchange.rs`), the `jam`
/// directives, then the `unroll` directives, then the `pipeline`
/// directives of loops with loops inside (unrolling those fully), to
/// the loops of `ir`.
pub fn unroll(ctx: &mut Context, ir: &mut Ir, func: OpId, d: &Directives, log: &mut Log) {
    super::interchange::interchange(ctx, ir, func, d, log);
    jam(ctx, ir, func, d, log);
    // Innermost first, so an outer loop unrolls the already unrolled body.
    let order = inner_loops(ctx, ir, func);
    for &op in &order {
        let Some(s) = d.loops.get(&op).and_then(|l| l.unroll.clone()) else {
            continue;
        };
        let path = d.loop_paths.get(&op).cloned().unwrap_or_default();
        let directive = s.value.describe();
        if !is_affine_for(ctx, ir, op) {
            match unroll_scf_directive(ctx, ir, op, s.value) {
                Ok(what) => log.honoured(&s, &path, directive, what),
                Err(why) => log.refused(&s, &path, directive, why),
            }
            continue;
        }
        let trip = constant_trip_count(ctx, ir, op);
        let result = match s.value {
            Unroll::Factor(1) => Ok(()),
            Unroll::Factor(k) => unroll_by_factor(ctx, ir, op, k, false),
            Unroll::Full => match trip {
                Some(t) if t > MAX_COPIES => {
                    log.refused(
                        &s,
                        &path,
                        directive,
                        format!("it would make {t} copies of the body (at most {MAX_COPIES})"),
                    );
                    continue;
                }
                _ => unroll_full(ctx, ir, op),
            },
        };
        match result {
            Ok(()) => {
                let what = match (s.value, trip) {
                    (Unroll::Full, Some(t)) => format!("body repeated {t} times, loop removed"),
                    (Unroll::Factor(k), Some(t)) if t % k != 0 => {
                        format!("body repeated {k} times, with a cleanup loop")
                    }
                    (Unroll::Factor(k), _) => format!("body repeated {k} times"),
                    (Unroll::Full, None) => "body repeated".into(),
                };
                log.honoured(&s, &path, directive, what);
            }
            Err(e) => log.refused(&s, &path, directive, why(e)),
        }
    }
    for &op in &order {
        let Some(dl) = d.loops.get(&op) else { continue };
        let Some(s) = dl.pipeline.clone() else {
            continue;
        };
        if s.value == Pipeline::Off || dl.flatten.as_ref().is_some_and(|f| f.value) {
            continue;
        }
        if ir.is_erased(op) {
            continue;
        }
        let inside = inner_loops(ctx, ir, op);
        if inside.is_empty() {
            continue;
        }
        let path = d.loop_paths.get(&op).cloned().unwrap_or_default();
        let directive = s.value.describe();
        let mut trips = FxHashMap::default();
        let mut blocker = None;
        for &inner in &inside {
            let name = d.loop_paths.get(&inner).cloned().unwrap_or_default();
            let trip = if is_affine_for(ctx, ir, inner) {
                constant_trip_count(ctx, ir, inner)
            } else {
                scf_trip_count(ctx, ir, inner)
            };
            match trip {
                Some(t) => {
                    trips.insert(inner, t.max(1));
                }
                None => {
                    blocker = Some(format!("{name} has no constant trip count"));
                    break;
                }
            }
        }
        let copies = copies_of_body(ir, op, &inside, &trips);
        if blocker.is_none() && copies > MAX_COPIES {
            blocker = Some(format!(
                "that would make {copies} copies of the body (at most {MAX_COPIES})"
            ));
        }
        if let Some(b) = blocker {
            log.refused(
                &s,
                &path,
                directive,
                format!("pipelining a loop unrolls the loops inside it fully, and {b}"),
            );
            continue;
        }
        let mut failed = None;
        for &inner in &inside {
            let done = if is_affine_for(ctx, ir, inner) {
                unroll_full(ctx, ir, inner).map_err(why)
            } else {
                unroll_scf(ctx, ir, inner, None).map_err(why_scf)
            };
            if let Err(e) = done {
                failed = Some(e);
                break;
            }
        }
        match failed {
            None => log.honoured(
                &s,
                &path,
                directive.clone(),
                format!(
                    "the {} loop(s) inside unrolled fully ({copies} copies of the body)",
                    inside.len()
                ),
            ),
            Some(w) => log.refused(
                &s,
                &path,
                directive,
                format!("a loop inside could not be unrolled fully: {w}"),
            ),
        }
    }
}
