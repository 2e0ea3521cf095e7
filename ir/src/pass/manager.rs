//! The pass manager: a pipeline of passes and nested pipelines anchored
//! on op names; runs them on an op and on the ops directly inside its
//! regions, with IR dumps before/after passes, per-pass timing and
//! verification after each pass.

use super::options::PassOptions;
use super::{Pass, PassInfo};
use crate::context::Context;
use crate::diag::Diagnostic;
use crate::graph::{Ir, OpId};
use crate::printer::{op_to_string_generic, print_module_to, PrintFlags};
use crate::resources::Resources;
use std::io::Write;
use std::time::{Duration, Instant};

/// What to do around each pass (mlir-opt's `--mlir-print-ir-*`,
/// `--verify-each`, `--mlir-timing`).
#[derive(Clone, Debug, Default)]
pub struct Instrumentation {
    /// Passes (command-line names) to dump the IR before.
    pub print_before: Vec<String>,
    /// Passes to dump the IR after.
    pub print_after: Vec<String>,
    pub print_before_all: bool,
    pub print_after_all: bool,
    /// Dump after a pass only if it changed the IR.
    pub print_after_change: bool,
    /// Dump after a pass that failed.
    pub print_after_failure: bool,
    /// Dump the whole top-level op, not only the op the pass ran on.
    pub print_module_scope: bool,
    /// How dumps are printed.
    pub print_flags: PrintFlags,
    /// Verify the op after each pass.
    pub verify_each: bool,
    /// Measure time per pass.
    pub timing: bool,
    /// Run nested pipelines on isolated-from-above ops across threads
    /// (never while IR is dumped around passes).
    pub threading: bool,
}

impl Instrumentation {
    fn dumps_before(&self, arg: &str) -> bool {
        self.print_before_all || self.print_before.iter().any(|p| p == arg)
    }
    fn dumps_after(&self, arg: &str) -> bool {
        self.print_after_all || self.print_after.iter().any(|p| p == arg)
    }

    /// Whether any IR is dumped around passes.
    fn dumps_ir(&self) -> bool {
        self.print_before_all
            || self.print_after_all
            || self.print_after_failure
            || !self.print_before.is_empty()
            || !self.print_after.is_empty()
    }
}

/// A pipeline's passes and options, to build it again on another thread.
pub(super) enum PlanEntry {
    Pass(&'static PassInfo, PassOptions),
    Nested(String, Vec<PlanEntry>),
}

/// One row of the timing report: nesting depth, name, time.
pub type PassTimingRow = (usize, String, Duration);

enum Entry {
    Pass {
        info: &'static PassInfo,
        pass: Box<dyn Pass>,
        options: PassOptions,
        time: Duration,
    },
    Nested {
        pm: OpPassManager,
        time: Duration,
    },
}

/// A pipeline anchored on an op name (`any` for any op).
pub struct OpPassManager {
    anchor: String,
    entries: Vec<Entry>,
}

impl OpPassManager {
    /// An empty pipeline on ops named `anchor`.
    pub fn new(anchor: &str) -> Self {
        OpPassManager {
            anchor: anchor.to_string(),
            entries: Vec::new(),
        }
    }

    /// The op name this pipeline runs on.
    pub fn anchor(&self) -> &str {
        &self.anchor
    }

    /// Whether the pipeline has no passes.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The pipeline nested on `anchor` at the end (reusing a trailing
    /// one on the same op, as MLIR merges adjacent adaptors).
    pub fn nest(&mut self, anchor: &str) -> &mut OpPassManager {
        let reuse =
            matches!(self.entries.last(), Some(Entry::Nested { pm, .. }) if pm.anchor == anchor);
        if !reuse {
            return self.nest_new(anchor);
        }
        match self.entries.last_mut() {
            Some(Entry::Nested { pm, .. }) => pm,
            _ => unreachable!("a trailing nested pipeline was just found"),
        }
    }

    /// A new pipeline nested on `anchor` at the end: an explicit
    /// `anchor(...)` in a textual pipeline, kept apart from its
    /// neighbours as MLIR keeps it.
    pub fn nest_new(&mut self, anchor: &str) -> &mut OpPassManager {
        self.entries.push(Entry::Nested {
            pm: OpPassManager::new(anchor),
            time: Duration::ZERO,
        });
        match self.entries.last_mut() {
            Some(Entry::Nested { pm, .. }) => pm,
            _ => unreachable!("a nested pipeline was just pushed"),
        }
    }

    /// Adds the pass `info` with `options`, nesting it under its anchor
    /// op when that differs from this pipeline's (implicit nesting).
    pub fn add_pass(
        &mut self,
        info: &'static PassInfo,
        options: Vec<(String, String)>,
    ) -> Result<(), String> {
        if let Some(anchor) = info.anchor {
            if anchor != self.anchor && self.anchor != "any" {
                return self.nest(anchor).add_pass(info, options);
            }
        }
        let options = PassOptions::parse(info.argument, info.options, options)?;
        let pass = (info.create)(&options)?;
        self.entries.push(Entry::Pass {
            info,
            pass,
            options,
            time: Duration::ZERO,
        });
        Ok(())
    }

    /// What to build this pipeline again from.
    pub(super) fn plan(&self) -> Vec<PlanEntry> {
        self.entries
            .iter()
            .map(|e| match e {
                Entry::Pass { info, options, .. } => PlanEntry::Pass(info, options.clone()),
                Entry::Nested { pm, .. } => PlanEntry::Nested(pm.anchor.clone(), pm.plan()),
            })
            .collect()
    }

    /// A pipeline built from `plan`, made by [`OpPassManager::plan`] of a
    /// pipeline whose passes were built from the same options before.
    pub(super) fn from_plan_anchored(anchor: &str, plan: &[PlanEntry]) -> OpPassManager {
        let entries = plan
            .iter()
            .map(|e| match e {
                PlanEntry::Pass(info, options) => Entry::Pass {
                    info,
                    pass: (info.create)(options).expect("a pass built once builds again"),
                    options: options.clone(),
                    time: Duration::ZERO,
                },
                PlanEntry::Nested(anchor, plan) => Entry::Nested {
                    pm: OpPassManager::from_plan_anchored(anchor, plan),
                    time: Duration::ZERO,
                },
            })
            .collect();
        OpPassManager {
            anchor: anchor.to_string(),
            entries,
        }
    }

    /// [`OpPassManager::from_plan_anchored`] for a pipeline whose anchor
    /// does not matter (it runs through [`OpPassManager::run_on_target`]).
    pub(super) fn from_plan(plan: &[PlanEntry]) -> OpPassManager {
        OpPassManager::from_plan_anchored("any", plan)
    }

    /// The time of every entry, nested ones included, in pipeline order.
    pub(super) fn entry_times(&self) -> Vec<Duration> {
        let mut out = Vec::new();
        for e in &self.entries {
            match e {
                Entry::Pass { time, .. } => out.push(*time),
                Entry::Nested { pm, time } => {
                    out.push(*time);
                    out.extend(pm.entry_times());
                }
            }
        }
        out
    }

    /// Adds `times` (as [`OpPassManager::entry_times`] lists them) to the
    /// entries' times.
    pub(super) fn add_entry_times(&mut self, times: &[Duration]) {
        let mut it = times.iter();
        self.add_times_from(&mut it);
    }

    fn add_times_from(&mut self, it: &mut std::slice::Iter<'_, Duration>) {
        for e in &mut self.entries {
            match e {
                Entry::Pass { time, .. } => *time += it.next().copied().unwrap_or_default(),
                Entry::Nested { pm, time } => {
                    *time += it.next().copied().unwrap_or_default();
                    pm.add_times_from(it);
                }
            }
        }
    }

    /// Runs the pipeline on `op` without checking its anchor.
    pub(super) fn run_on_target(
        &mut self,
        ctx: &mut Context,
        ir: &mut Ir,
        op: OpId,
        instr: &Instrumentation,
    ) -> Result<(), Box<Diagnostic>> {
        self.run_on(ctx, ir, op, instr)
    }

    /// The pipeline as mlir-opt's `--dump-pass-pipeline` shows it: one
    /// entry per line, every option of a pass with its value (sorted by
    /// name), nested pipelines indented.
    pub fn dump_pipeline(&self) -> String {
        let mut out = format!("Pass Manager with {} passes:\n", self.entries.len());
        self.pretty(0, &mut out);
        out.push_str("\n\n");
        out
    }

    fn pretty(&self, depth: usize, out: &mut String) {
        let pad = |d: usize| "  ".repeat(d);
        out.push_str(&format!("{}(\n", self.anchor));
        for (i, e) in self.entries.iter().enumerate() {
            out.push_str(&pad(depth + 1));
            match e {
                Entry::Pass { info, options, .. } => {
                    out.push_str(info.argument);
                    if !info.options.is_empty() {
                        let mut names: Vec<&str> = info.options.iter().map(|o| o.name).collect();
                        names.sort_unstable();
                        let values: Vec<String> = names
                            .iter()
                            .map(|n| match options.shown(n) {
                                Some(v) => format!("{n}={v}"),
                                None => String::new(),
                            })
                            .collect();
                        out.push_str(&format!("{{{}}}", values.join(" ")));
                    }
                }
                Entry::Nested { pm, .. } => pm.pretty(depth + 1, out),
            }
            if i + 1 < self.entries.len() {
                out.push(',');
            }
            out.push('\n');
        }
        out.push_str(&format!("{})", pad(depth)));
    }

    /// The pipeline in MLIR's textual syntax.
    pub fn to_pipeline_string(&self) -> String {
        let items: Vec<String> = self
            .entries
            .iter()
            .map(|e| match e {
                Entry::Pass { info, options, .. } => {
                    if options.given.is_empty() {
                        info.argument.to_string()
                    } else {
                        let opts: Vec<String> = options
                            .given
                            .iter()
                            .map(|(k, v)| format!("{k}={v}"))
                            .collect();
                        format!("{}{{{}}}", info.argument, opts.join(" "))
                    }
                }
                Entry::Nested { pm, .. } => pm.to_pipeline_string(),
            })
            .collect();
        format!("{}({})", self.anchor, items.join(","))
    }

    /// The timing report rows, in pipeline order.
    pub fn timing_rows(&self) -> Vec<PassTimingRow> {
        let mut rows = Vec::new();
        self.collect_rows(0, &mut rows);
        rows
    }

    fn collect_rows(&self, depth: usize, rows: &mut Vec<PassTimingRow>) {
        for e in &self.entries {
            match e {
                Entry::Pass { info, time, .. } => rows.push((depth, info.name.to_string(), *time)),
                Entry::Nested { pm, time } => {
                    rows.push((depth, format!("'{}' Pipeline", pm.anchor), *time));
                    pm.collect_rows(depth + 1, rows);
                }
            }
        }
    }

    /// Runs the pipeline on `op`, which must be named as its anchor.
    pub fn run(
        &mut self,
        ctx: &mut Context,
        ir: &mut Ir,
        op: OpId,
        instr: &Instrumentation,
    ) -> Result<(), Box<Diagnostic>> {
        let name = ctx.str(ir.op_name(op)).to_string();
        if self.anchor != "any" && self.anchor != name {
            return Err(Box::new(Diagnostic::error(
                ir.op_loc(op),
                format!("can't run '{}' pass manager on '{}' op", self.anchor, name),
            )));
        }
        self.run_on(ctx, ir, op, instr)
    }

    fn run_on(
        &mut self,
        ctx: &mut Context,
        ir: &mut Ir,
        op: OpId,
        instr: &Instrumentation,
    ) -> Result<(), Box<Diagnostic>> {
        for entry in &mut self.entries {
            let start = instr.timing.then(Instant::now);
            let result = match entry {
                Entry::Pass { info, pass, .. } => run_pass(ctx, ir, op, info, pass.as_ref(), instr),
                Entry::Nested { pm, .. } => {
                    let targets = nested_ops(ctx, ir, op, &pm.anchor);
                    let parallel = instr.threading
                        && !instr.dumps_ir()
                        && targets.len() >= 2
                        && isolated_from_above(ctx, &pm.anchor);
                    let threaded = if parallel {
                        super::parallel::run_nested(pm, ctx, ir, &targets, instr)
                    } else {
                        None
                    };
                    threaded.unwrap_or_else(|| {
                        targets
                            .into_iter()
                            .try_for_each(|t| pm.run_on(ctx, ir, t, instr))
                    })
                }
            };
            if let Some(start) = start {
                let elapsed = start.elapsed();
                match entry {
                    Entry::Pass { time, .. } | Entry::Nested { time, .. } => *time += elapsed,
                }
            }
            result?;
        }
        Ok(())
    }
}

/// Whether ops named `anchor` are isolated from above.
fn isolated_from_above(ctx: &mut Context, anchor: &str) -> bool {
    if anchor == "any" {
        return false;
    }
    let name = ctx.sym(anchor);
    ctx.op_def(name)
        .is_some_and(|d| d.traits.has(crate::dialect::Traits::ISOLATED_FROM_ABOVE))
}

/// The ops directly inside `op`'s regions named `anchor` (any for `any`).
fn nested_ops(ctx: &Context, ir: &Ir, op: OpId, anchor: &str) -> Vec<OpId> {
    let mut out = Vec::new();
    for r in ir.regions(op) {
        for b in ir.region_blocks(r) {
            for o in ir.block_ops(b) {
                if anchor == "any" || ctx.str(ir.op_name(o)) == anchor {
                    out.push(o);
                }
            }
        }
    }
    out
}

fn top_of(ir: &Ir, mut op: OpId) -> OpId {
    while let Some(p) = ir.parent_op(op) {
        op = p;
    }
    op
}

fn dump(ctx: &Context, ir: &Ir, op: OpId, header: &str, instr: &Instrumentation) {
    let target = if instr.print_module_scope {
        top_of(ir, op)
    } else {
        op
    };
    let mut out = Vec::new();
    let _ = writeln!(out, "// -----// {header} //----- //");
    let _ = print_module_to(
        ctx,
        ir,
        target,
        &Resources::default(),
        instr.print_flags,
        &mut out,
    );
    if ir.parent_op(target).is_none() {
        out.push(b'\n');
    }
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(&out);
}

fn fingerprint(ctx: &Context, ir: &Ir, op: OpId) -> u64 {
    use std::hash::{Hash, Hasher};
    let text = op_to_string_generic(ctx, ir, op, op, true);
    let mut h = rustc_hash::FxHasher::default();
    text.hash(&mut h);
    h.finish()
}

fn run_pass(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    info: &PassInfo,
    pass: &dyn Pass,
    instr: &Instrumentation,
) -> Result<(), Box<Diagnostic>> {
    if let Some(anchor) = info.anchor {
        let name = ctx.str(ir.op_name(op));
        if anchor != name {
            return Err(Box::new(Diagnostic::error(
                ir.op_loc(op),
                format!("can't run '{}' pass on '{}' op", info.argument, name),
            )));
        }
    }
    let title = format!("{} ({})", info.name, info.argument);
    if instr.dumps_before(info.argument) {
        dump(ctx, ir, op, &format!("IR Dump Before {title}"), instr);
    }
    let wants_after = instr.dumps_after(info.argument);
    let before = (wants_after && instr.print_after_change).then(|| fingerprint(ctx, ir, op));
    if let Err(e) = pass.run(ctx, ir, op) {
        if instr.print_after_failure {
            dump(
                ctx,
                ir,
                op,
                &format!("IR Dump After {} Failed ({})", info.name, info.argument),
                instr,
            );
        }
        return Err(e);
    }
    if wants_after && before.is_none_or(|b| b != fingerprint(ctx, ir, op)) {
        dump(ctx, ir, op, &format!("IR Dump After {title}"), instr);
    }
    if instr.verify_each {
        let opts = crate::verify::VerifyOptions {
            print_op: true,
            debug_info: instr.print_flags.debug_info,
        };
        crate::verify::verify(ctx, ir, op, opts).map_err(|mut d| {
            let loc = ir.op_loc(op);
            d.notes.push(Diagnostic {
                severity: crate::diag::Severity::Note,
                loc,
                message: format!(
                    "the IR is invalid after pass '{}' ({}) ran on this op",
                    info.argument, info.name
                ),
                notes: Vec::new(),
            });
            d
        })?;
    }
    Ok(())
}
