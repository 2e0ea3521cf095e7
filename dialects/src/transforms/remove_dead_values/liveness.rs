//! Which values are live (MLIR's `LivenessAnalysis`, run backward from
//! the uses that matter). A value is live when it is an operand of an op
//! with memory effects, is returned from a function whose callers are
//! unknown, is yielded by a terminator of an op whose region semantics
//! are unknown, steers control flow that matters (a branch condition, the
//! bounds of a loop with effects or live results), or is needed to
//! compute a live value: through an op's results, a call's callee
//! arguments and results, a branch's block arguments and a region-branch
//! op's edges. Only ops in blocks control may reach count
//! ([`silica_ir::transforms::executable_blocks`]); private functions are
//! reached through their calls.

use super::calls::CallGraph;
use rustc_hash::FxHashSet;
use silica_ir::dialect::{RegionBranchDef, RegionEdge, RegionPoint, Traits};
use silica_ir::rewrite::effects::is_memory_effect_free;
use silica_ir::{BlockId, Context, Ir, OpId, ValueDef, ValueId};
use std::ops::Range;

/// The live values.
pub(crate) struct Liveness {
    live: FxHashSet<ValueId>,
}

impl Liveness {
    pub(crate) fn is_live(&self, v: ValueId) -> bool {
        self.live.contains(&v)
    }
}

/// The region-branch description of `op`, if it has one.
pub(crate) fn region_branch(ctx: &Context, ir: &Ir, op: OpId) -> Option<&'static RegionBranchDef> {
    ctx.op_def(ir.op_name(op)).and_then(|d| d.region_branch)
}

/// The terminators of `op`'s regions that give control back to it, with
/// the region index and their edges.
pub(crate) fn region_exits(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    def: &RegionBranchDef,
) -> Vec<(OpId, Vec<RegionEdge>)> {
    let mut out = Vec::new();
    for (i, r) in ir.regions(op).enumerate() {
        for b in ir.region_blocks(r) {
            let Some(t) = ir.last_op(b) else { continue };
            if let Some(edges) = (def.exit_edges)(ctx, ir, op, i, t) {
                out.push((t, edges));
            }
        }
    }
    out
}

/// The operand indices of `edges` that are not forwarded along any.
pub(crate) fn non_forwarded(num_operands: usize, edges: &[RegionEdge]) -> Vec<usize> {
    (0..num_operands)
        .filter(|i| !edges.iter().any(|e| e.operands.contains(i)))
        .collect()
}

/// The operands forwarded along `edges` to input `input` of `to`.
fn forwarded_to(
    edges: &[RegionEdge],
    to: RegionPoint,
    input: usize,
) -> impl Iterator<Item = usize> + '_ {
    edges
        .iter()
        .filter(move |e| e.to == to && e.inputs.contains(&input))
        .map(move |e| e.operands.start + (input - e.inputs.start))
}

struct Solver<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    calls: &'a CallGraph,
    executable: &'a FxHashSet<BlockId>,
    live: FxHashSet<ValueId>,
    work: Vec<ValueId>,
}

impl Solver<'_> {
    fn mark(&mut self, v: ValueId) {
        if self.live.insert(v) {
            self.work.push(v);
        }
    }

    fn mark_operands(&mut self, op: OpId, indices: impl IntoIterator<Item = usize>) {
        for i in indices {
            if i < self.ir.num_operands(op) {
                let v = self.ir.operand(op, i);
                self.mark(v);
            }
        }
    }

    fn reachable(&self, op: OpId) -> bool {
        self.ir
            .op_block(op)
            .is_some_and(|b| self.executable.contains(&b))
    }

    /// The operands of a region-branch op and of its terminators that
    /// only steer control (loop bounds, conditions).
    fn mark_control_operands(&mut self, op: OpId, def: &RegionBranchDef) {
        let entry = (def.entry_edges)(self.ctx, self.ir, op);
        self.mark_operands(op, non_forwarded(self.ir.num_operands(op), &entry));
        for (t, edges) in region_exits(self.ctx, self.ir, op, def) {
            if self.reachable(t) {
                self.mark_operands(t, non_forwarded(self.ir.num_operands(t), &edges));
            }
        }
    }

    fn seed(&mut self, op: OpId) {
        let (ctx, ir) = (self.ctx, self.ir);
        let def = ctx.op_def(ir.op_name(op));
        if let Some(branch) = def.and_then(|d| d.branch) {
            let mut forwarded: Vec<Range<usize>> = Vec::new();
            for s in 0..ir.successors(op).len() {
                forwarded.push((branch.successor_operands)(ctx, ir, op, s));
            }
            let n = ir.num_operands(op);
            self.mark_operands(
                op,
                (0..n).filter(|i| !forwarded.iter().any(|r| r.contains(i))),
            );
            return;
        }
        if let Some(rb) = region_branch(ctx, ir, op) {
            if !is_memory_effect_free(ctx, ir, op) {
                self.mark_control_operands(op, rb);
            }
            return;
        }
        if self.calls.callee(op).is_some() {
            return;
        }
        let terminator = def.is_none_or(|d| d.traits.has(Traits::TERMINATOR));
        if terminator {
            if let Some(parent) = ir.parent_op(op) {
                if let Some(rb) = region_branch(ctx, ir, parent) {
                    let region = ir.op_block(op).and_then(|b| ir.block_region(b));
                    let index = region.and_then(|r| ir.regions(parent).position(|x| x == r));
                    if index.is_some_and(|i| (rb.exit_edges)(ctx, ir, parent, i, op).is_some()) {
                        return;
                    }
                }
                if self.calls.is_internal(parent) {
                    return;
                }
            }
            self.mark_operands(op, 0..ir.num_operands(op));
            return;
        }
        if !is_memory_effect_free(ctx, ir, op) {
            self.mark_operands(op, 0..ir.num_operands(op));
        }
    }

    fn visit_result(&mut self, op: OpId, index: usize) {
        let (ctx, ir) = (self.ctx, self.ir);
        if !self.reachable(op) {
            return;
        }
        if let Some(f) = self.calls.callee(op) {
            for ret in self.calls.returns(ir, f) {
                if self.reachable(ret) {
                    self.mark_operands(ret, [index]);
                }
            }
            return;
        }
        if let Some(def) = region_branch(ctx, ir, op) {
            let entry = (def.entry_edges)(ctx, ir, op);
            let from_op: Vec<usize> = forwarded_to(&entry, RegionPoint::Parent, index).collect();
            self.mark_operands(op, from_op);
            for (t, edges) in region_exits(ctx, ir, op, def) {
                if self.reachable(t) {
                    let from_t: Vec<usize> =
                        forwarded_to(&edges, RegionPoint::Parent, index).collect();
                    self.mark_operands(t, from_t);
                }
            }
            self.mark_control_operands(op, def);
            return;
        }
        self.mark_operands(op, 0..ir.num_operands(op));
    }

    fn visit_argument(&mut self, block: BlockId, index: usize) {
        let (ctx, ir) = (self.ctx, self.ir);
        let Some(region) = ir.block_region(block) else {
            return;
        };
        let Some(owner) = ir.region_op(region) else {
            return;
        };
        if ir.entry_block(region) != Some(block) {
            for b in ir.region_blocks(region) {
                let Some(t) = ir.last_op(b) else { continue };
                if !self.executable.contains(&b) {
                    continue;
                }
                let Some(branch) = ctx.op_def(ir.op_name(t)).and_then(|d| d.branch) else {
                    continue;
                };
                for (s, &succ) in ir.successors(t).iter().enumerate() {
                    if succ == block {
                        let range = (branch.successor_operands)(ctx, ir, t, s);
                        if range.start + index < range.end {
                            self.mark_operands(t, [range.start + index]);
                        }
                    }
                }
            }
            return;
        }
        if self.calls.is_internal(owner) {
            for &call in self.calls.calls_of(owner) {
                if self.reachable(call) {
                    self.mark_operands(call, [index]);
                }
            }
            return;
        }
        if let Some(def) = region_branch(ctx, ir, owner) {
            let Some(ri) = ir.regions(owner).position(|r| r == region) else {
                return;
            };
            let to = RegionPoint::Region(ri);
            let entry = (def.entry_edges)(ctx, ir, owner);
            let from_op: Vec<usize> = forwarded_to(&entry, to, index).collect();
            self.mark_operands(owner, from_op);
            for (t, edges) in region_exits(ctx, ir, owner, def) {
                if self.reachable(t) {
                    let from_t: Vec<usize> = forwarded_to(&edges, to, index).collect();
                    self.mark_operands(t, from_t);
                }
            }
        }
    }

    fn run(&mut self) {
        while let Some(v) = self.work.pop() {
            match self.ir.value_def(v) {
                ValueDef::Result { op, index } => self.visit_result(op, index as usize),
                ValueDef::Argument { block, index } => self.visit_argument(block, index as usize),
                ValueDef::Placeholder => {}
            }
        }
    }
}

/// Computes liveness for everything under `root`.
pub(crate) fn analyze(
    ctx: &Context,
    ir: &Ir,
    calls: &CallGraph,
    executable: FxHashSet<BlockId>,
) -> Liveness {
    let mut solver = Solver {
        ctx,
        ir,
        calls,
        executable: &executable,
        live: FxHashSet::default(),
        work: Vec::new(),
    };
    let mut blocks: Vec<BlockId> = executable.iter().copied().collect();
    blocks.sort_unstable();
    for b in blocks {
        for op in ir.block_ops(b) {
            solver.seed(op);
        }
    }
    solver.run();
    Liveness { live: solver.live }
}
