//! Running a nested pipeline on isolated-from-above ops (functions)
//! across threads, with the result a single thread gives.
//!
//! The targets are split into contiguous runs, one per thread. Each
//! thread gets a fork of the context and a copy of the whole graph (so
//! passes and verification see the enclosing module, symbols included),
//! builds its own passes from the pipeline's plan, and runs them on its
//! targets in order. The main thread then imports what each fork
//! interned, absorbs each copy's graph and swaps the processed targets in
//! for the originals, in place. An error is reported for the first
//! failing target in op order, as one thread would have stopped there.
//! When the context cannot fork (dialects defined at run time) or a fork
//! made `distinct` attributes, nothing has changed and the caller runs
//! the pipeline on one thread.

use super::manager::{Instrumentation, OpPassManager};
use crate::context::{Context, Import};
use crate::diag::Diagnostic;
use crate::graph::{Ir, OpId};
use std::time::Duration;

/// What one thread brings back.
struct Outcome {
    ctx: Context,
    ir: Ir,
    times: Vec<Duration>,
    result: Result<(), Box<Diagnostic>>,
}

/// The number of threads for `targets` ops: the machine's parallelism,
/// at most one per op; 1 means "do not split".
fn thread_count(targets: usize) -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(targets)
}

/// The diagnostic `d` of a fork, its locations translated by `import`.
fn translate(d: Diagnostic, import: &Import) -> Diagnostic {
    Diagnostic {
        severity: d.severity,
        loc: import.attr(d.loc),
        message: d.message,
        notes: d.notes.into_iter().map(|n| translate(n, import)).collect(),
    }
}

/// Runs `pm` on each of `targets` (isolated ops directly nested in one op
/// of `ir`) across threads; `None` when it cannot, before changing
/// anything. This thread takes the first run of targets in place; each
/// other run goes to a thread with a fork of the context and a copy of
/// the graph.
pub(super) fn run_nested(
    pm: &mut OpPassManager,
    ctx: &mut Context,
    ir: &mut Ir,
    targets: &[OpId],
    instr: &Instrumentation,
) -> Option<Result<(), Box<Diagnostic>>> {
    let threads = thread_count(targets.len());
    if threads < 2 {
        return None;
    }
    let chunk = targets.len().div_ceil(threads);
    let runs: Vec<&[OpId]> = targets.chunks(chunk).collect();
    let (&own, others) = runs.split_first()?;
    let mut forks = Vec::with_capacity(others.len());
    let mut fork_point = None;
    for _ in others {
        let (fork, at) = ctx.fork()?;
        forks.push((fork, ir.clone()));
        fork_point = Some(at);
    }
    let at = fork_point?;
    let plan = pm.plan();
    // Threads do not split their own nested pipelines again.
    let inner = Instrumentation {
        threading: false,
        ..instr.clone()
    };
    let (own_result, outcomes) = std::thread::scope(|s| {
        let handles: Vec<_> = others
            .iter()
            .zip(forks)
            .map(|(&run, (mut fork_ctx, mut fork_ir))| {
                let (plan, inner) = (&plan, &inner);
                s.spawn(move || {
                    let mut pm = OpPassManager::from_plan(plan);
                    let result = run
                        .iter()
                        .try_for_each(|&t| pm.run_on_target(&mut fork_ctx, &mut fork_ir, t, inner));
                    Outcome {
                        ctx: fork_ctx,
                        ir: fork_ir,
                        times: pm.entry_times(),
                        result,
                    }
                })
            })
            .collect();
        let own_result = own
            .iter()
            .try_for_each(|&t| pm.run_on_target(ctx, ir, t, &inner));
        let outcomes: Vec<Outcome> = handles
            .into_iter()
            .map(|h| h.join().expect("a pass thread panicked"))
            .collect();
        (own_result, outcomes)
    });
    if let Err(e) = own_result {
        return Some(Err(e));
    }
    let mut imports = Vec::with_capacity(outcomes.len());
    for o in &outcomes {
        match Import::new(ctx, &o.ctx, at) {
            Some(import) => imports.push(import),
            // A fork made `distinct` attributes: the other runs again here.
            None => {
                let rest = others.iter().flat_map(|run| run.iter());
                return Some(
                    rest.into_iter()
                        .try_for_each(|&t| pm.run_on_target(ctx, ir, t, instr)),
                );
            }
        }
    }
    let mut graphs = Vec::with_capacity(outcomes.len());
    for (mut o, import) in outcomes.into_iter().zip(&imports) {
        pm.add_entry_times(&o.times);
        for d in o.ctx.take_emitted() {
            ctx.emit(translate(d, import));
        }
        if let Err(d) = o.result {
            return Some(Err(Box::new(translate(*d, import))));
        }
        graphs.push(o.ir);
    }
    // The processed targets replace the originals, which stay behind
    // detached and unreachable with the rest of each copy (erasing them
    // would cost another walk of the module).
    for ((graph, import), &run) in graphs.into_iter().zip(&imports).zip(others) {
        let shift = ir.absorb(graph, import);
        for &t in run {
            ir.move_op_before(shift.op(t), t);
            ir.detach_op(t);
        }
    }
    Some(Ok(()))
}
