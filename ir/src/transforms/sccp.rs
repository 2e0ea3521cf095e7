//! `sccp`: sparse conditional constant propagation, as MLIR's. Values
//! carry a lattice (unknown, a constant, overdefined); blocks become
//! executable from function entries through branches whose conditions
//! allow them; ops are simulated with their fold hooks on the constant
//! operand values (in-place folds do not count and are undone). Then
//! every value known constant is replaced by a constant uniqued at the
//! entry of its isolated region, and ops left dead are erased.
//! `scf.if`, `scf.for` and `scf.execute_region` are followed as MLIR's
//! region-branch interface describes them (an `if` on a constant runs one
//! branch; loop-carried values join their inits and what the body
//! yields); other ops with regions are not simulated: their results are
//! overdefined and their blocks executable with overdefined arguments.

use super::sccp_calls::CallGraph;
use crate::context::{Attr, Context};
use crate::diag::Diagnostic;
use crate::dialect::Traits;
use crate::graph::{BlockId, Ir, OpId, RegionId, ValueId};
use crate::pass::{Pass, PassInfo, PassOptions};
use crate::rewrite::effects::would_be_trivially_dead;
use crate::rewrite::fold::{insertion_region, FoldCtx};
use crate::rewrite::{FoldResult, NoListener, OpFoldResult, Rewriter};
use crate::AttrKind;
use rustc_hash::{FxHashMap, FxHashSet};

/// What is known about a value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lattice {
    Unknown,
    /// A constant, with the dialect whose op produced it.
    Constant(Attr, crate::context::Symbol),
    Overdefined,
}

impl Lattice {
    fn join(self, other: Lattice) -> Lattice {
        match (self, other) {
            (Lattice::Unknown, x) | (x, Lattice::Unknown) => x,
            (Lattice::Constant(a, d), Lattice::Constant(b, _)) if a == b => Lattice::Constant(a, d),
            _ => Lattice::Overdefined,
        }
    }
}

struct Solver<'a> {
    ctx: &'a mut Context,
    ir: &'a mut Ir,
    values: FxHashMap<ValueId, Lattice>,
    executable: FxHashSet<BlockId>,
    edges: FxHashSet<(BlockId, BlockId)>,
    block_work: Vec<BlockId>,
    op_work: Vec<OpId>,
    /// The calls followed into function bodies (none: calls are opaque).
    calls: CallGraph,
}

impl<'a> Solver<'a> {
    fn new(ctx: &'a mut Context, ir: &'a mut Ir, calls: CallGraph) -> Self {
        Solver {
            ctx,
            ir,
            values: FxHashMap::default(),
            executable: FxHashSet::default(),
            edges: FxHashSet::default(),
            block_work: Vec::new(),
            op_work: Vec::new(),
            calls,
        }
    }
}

impl Solver<'_> {
    fn get(&self, v: ValueId) -> Lattice {
        self.values.get(&v).copied().unwrap_or(Lattice::Unknown)
    }

    fn set(&mut self, v: ValueId, l: Lattice) {
        let old = self.get(v);
        let new = old.join(l);
        if new != old {
            self.values.insert(v, new);
            let users: Vec<OpId> = self.ir.uses(v).map(|u| self.ir.use_owner(u)).collect();
            self.op_work.extend(users);
        }
    }

    fn mark_executable(&mut self, b: BlockId) {
        if self.executable.insert(b) {
            self.block_work.push(b);
        }
    }

    fn mark_region_entry(&mut self, r: RegionId) {
        if let Some(entry) = self.ir.entry_block(r) {
            for a in self.ir.block_args(entry).to_vec() {
                self.set(a, Lattice::Overdefined);
            }
            self.mark_executable(entry);
        }
    }

    fn visit_edge(&mut self, from: BlockId, succ_index: usize, term: OpId) {
        let succ = self.ir.successors(term)[succ_index];
        let branch = self
            .ctx
            .op_def(self.ir.op_name(term))
            .and_then(|d| d.branch);
        if let Some(branch) = branch {
            let range = (branch.successor_operands)(self.ctx, self.ir, term, succ_index);
            let operands: Vec<ValueId> = self.ir.operands(term).collect();
            let args = self.ir.block_args(succ).to_vec();
            for (j, a) in args.into_iter().enumerate() {
                let l = operands
                    .get(range.start + j)
                    .filter(|_| range.start + j < range.end)
                    .map_or(Lattice::Overdefined, |&v| self.get(v));
                self.set(a, l);
            }
        } else {
            for a in self.ir.block_args(succ).to_vec() {
                self.set(a, Lattice::Overdefined);
            }
        }
        self.edges.insert((from, succ));
        self.mark_executable(succ);
    }

    fn visit_terminator(&mut self, term: OpId) {
        let Some(block) = self.ir.op_block(term) else {
            return;
        };
        let n = self.ir.successors(term).len();
        if n == 0 {
            return;
        }
        let name = self.ctx.str(self.ir.op_name(term)).to_string();
        let taken: Vec<usize> = match name.as_str() {
            "cf.cond_br" => match self.get(self.ir.operand(term, 0)) {
                Lattice::Unknown => Vec::new(),
                Lattice::Constant(a, _) => match self.ctx.attr_kind(a) {
                    AttrKind::Integer { value, .. } => vec![if value == &0.into() { 1 } else { 0 }],
                    _ => (0..n).collect(),
                },
                Lattice::Overdefined => (0..n).collect(),
            },
            "cf.switch" => match self.get(self.ir.operand(term, 0)) {
                Lattice::Unknown => Vec::new(),
                Lattice::Constant(a, _) => self
                    .switch_target(term, a)
                    .map_or((0..n).collect(), |t| vec![t]),
                Lattice::Overdefined => (0..n).collect(),
            },
            _ => (0..n).collect(),
        };
        for s in taken {
            self.visit_edge(block, s, term);
        }
    }

    fn switch_target(&self, term: OpId, flag: Attr) -> Option<usize> {
        let AttrKind::Integer { value, .. } = self.ctx.attr_kind(flag) else {
            return None;
        };
        let cases = crate::dialect::inherent_attr(self.ctx, self.ir, term, "case_values")?;
        match self.ctx.attr_kind(cases) {
            AttrKind::DenseElements { values, .. } => {
                for (i, &c) in values.iter().enumerate() {
                    if let AttrKind::Integer { value: cv, .. } = self.ctx.attr_kind(c) {
                        if cv == value {
                            return Some(i + 1);
                        }
                    }
                }
                Some(0)
            }
            _ => None,
        }
    }

    fn visit_op(&mut self, op: OpId) {
        if self.ir.is_erased(op) {
            return;
        }
        let Some(block) = self.ir.op_block(op) else {
            return;
        };
        if !self.executable.contains(&block) {
            return;
        }
        if let Some(f) = self.calls.callee(op) {
            self.visit_call(op, f);
            return;
        }
        let def = self.ctx.op_def(self.ir.op_name(op));
        match self.ctx.str(self.ir.op_name(op)) {
            "scf.if" => return self.visit_if(op),
            "scf.for" => {
                let inits = self.ir.operands(op).skip(3).collect();
                return self.visit_for(op, inits);
            }
            "affine.for" => {
                let n = self.ir.num_results(op);
                let all: Vec<ValueId> = self.ir.operands(op).collect();
                let inits = all[all.len().saturating_sub(n)..].to_vec();
                return self.visit_for(op, inits);
            }
            "scf.execute_region" => return self.visit_execute_region(op),
            "scf.while" => return self.visit_while(op),
            "scf.condition" => {
                if let Some(parent) = self.ir.parent_op(op) {
                    self.op_work.push(parent);
                }
                return;
            }
            "scf.yield" | "affine.yield" => {
                // What a region yields flows into its parent's results.
                if let Some(parent) = self.ir.parent_op(op) {
                    self.op_work.push(parent);
                }
                return;
            }
            _ => {}
        }
        if def.is_some_and(|d| d.traits.has(Traits::TERMINATOR)) {
            if self.ctx.str(self.ir.op_name(op)) == "func.return" {
                if let Some(f) = self.ir.parent_op(op) {
                    self.op_work.extend_from_slice(self.calls.calls_of(f));
                }
            }
            self.visit_terminator(op);
            return;
        }
        let results: Vec<ValueId> = self.ir.results(op).collect();
        if def.is_none_or(|d| d.traits.has(Traits::ISOLATED_FROM_ABOVE))
            && self.ir.num_regions(op) > 0
        {
            // Functions and modules: their entries were seeded.
            for r in results {
                self.set(r, Lattice::Overdefined);
            }
            return;
        }
        if self.ir.num_regions(op) > 0 {
            for r in self.ir.regions(op).collect::<Vec<_>>() {
                let blocks: Vec<BlockId> = self.ir.region_blocks(r).collect();
                for b in blocks {
                    for a in self.ir.block_args(b).to_vec() {
                        self.set(a, Lattice::Overdefined);
                    }
                    self.mark_executable(b);
                }
            }
            for r in results {
                self.set(r, Lattice::Overdefined);
            }
            return;
        }
        if results.is_empty() {
            return;
        }
        let operands: Vec<ValueId> = self.ir.operands(op).collect();
        let states: Vec<Lattice> = operands.iter().map(|&v| self.get(v)).collect();
        if states.contains(&Lattice::Unknown) {
            return;
        }
        let Some(fold) = def.and_then(|d| d.fold) else {
            for r in results {
                self.set(r, Lattice::Overdefined);
            }
            return;
        };
        let constants: Vec<Option<Attr>> = states
            .iter()
            .map(|s| match s {
                Lattice::Constant(a, _) => Some(*a),
                _ => None,
            })
            .collect();
        let (attrs, props) = (self.ir.op_attrs(op), self.ir.op_props(op));
        let outcome = fold(
            &mut FoldCtx {
                ctx: self.ctx,
                ir: self.ir,
            },
            op,
            &constants,
        );
        let dialect = {
            let name = self.ctx.str(self.ir.op_name(op)).to_string();
            let d = name.split('.').next().unwrap_or(&name).to_string();
            self.ctx.sym(&d)
        };
        match outcome {
            FoldResult::Results(values) if values.len() == results.len() => {
                for (r, v) in results.into_iter().zip(values) {
                    let l = match v {
                        OpFoldResult::Attr(a) => Lattice::Constant(a, dialect),
                        OpFoldResult::Value(v) => self.get(v),
                    };
                    self.set(r, l);
                }
            }
            FoldResult::InPlace => {
                self.ir.set_operands(op, &operands);
                self.ir.set_op_attrs(op, attrs);
                self.ir.set_op_props(op, props);
                for r in results {
                    self.set(r, Lattice::Overdefined);
                }
            }
            _ => {
                for r in results {
                    self.set(r, Lattice::Overdefined);
                }
            }
        }
    }

    /// Joins `states` into `op`'s results, one each.
    fn set_results(&mut self, op: OpId, states: Vec<Lattice>) {
        let results: Vec<ValueId> = self.ir.results(op).collect();
        for (r, l) in results.into_iter().zip(states) {
            self.set(r, l);
        }
    }

    /// The lattice of each value the executable blocks of `region` yield,
    /// joined into `states`.
    fn join_yields(&self, region: RegionId, states: &mut [Lattice]) {
        for b in self.ir.region_blocks(region) {
            if !self.executable.contains(&b) {
                continue;
            }
            let Some(t) = self.ir.last_op(b) else {
                continue;
            };
            if !matches!(
                self.ctx.str(self.ir.op_name(t)),
                "scf.yield" | "affine.yield"
            ) {
                continue;
            }
            for (i, s) in states.iter_mut().enumerate() {
                if i < self.ir.num_operands(t) {
                    *s = s.join(self.get(self.ir.operand(t, i)));
                }
            }
        }
    }

    /// `scf.if`: the branches the condition allows run; the results join
    /// what they yield.
    fn visit_if(&mut self, op: OpId) {
        let regions: Vec<RegionId> = self.ir.regions(op).collect();
        let taken: Vec<usize> = match self.get(self.ir.operand(op, 0)) {
            Lattice::Unknown => return,
            Lattice::Constant(a, _) => match self.ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => vec![usize::from(value == &0.into())],
                _ => vec![0, 1],
            },
            Lattice::Overdefined => vec![0, 1],
        };
        let mut states = vec![Lattice::Unknown; self.ir.num_results(op)];
        for &i in &taken {
            let Some(&r) = regions.get(i) else {
                continue;
            };
            if let Some(entry) = self.ir.entry_block(r) {
                self.mark_executable(entry);
            }
            self.join_yields(r, &mut states);
        }
        self.set_results(op, states);
    }

    /// The trip count of an `scf.for` or `affine.for` with constant
    /// bounds and step.
    fn trip_count(&self, op: OpId) -> Option<i128> {
        let (lb, ub, step) = if self.ctx.str(self.ir.op_name(op)) == "scf.for" {
            let constant = |i: usize| match self.get(self.ir.operand(op, i)) {
                Lattice::Constant(a, _) => match self.ctx.attr_kind(a) {
                    AttrKind::Integer { value, .. } => i128::try_from(value).ok(),
                    _ => None,
                },
                _ => None,
            };
            (constant(0)?, constant(1)?, constant(2)?)
        } else {
            let bound = |name: &str| match self
                .ctx
                .attr_kind(crate::dialect::inherent_attr(self.ctx, self.ir, op, name)?)
            {
                AttrKind::AffineMap(m) if m.results.len() == 1 => match m.results[0] {
                    crate::affine::AffineExpr::Constant(c) => Some(i128::from(c)),
                    _ => None,
                },
                _ => None,
            };
            let step = match self.ctx.attr_kind(crate::dialect::inherent_attr(
                self.ctx, self.ir, op, "step",
            )?) {
                AttrKind::Integer { value, .. } => i128::try_from(value).ok()?,
                _ => return None,
            };
            (bound("lowerBoundMap")?, bound("upperBoundMap")?, step)
        };
        if step <= 0 {
            return None;
        }
        Some(if ub <= lb {
            0
        } else {
            (ub - lb + step - 1) / step
        })
    }

    /// `scf.for` / `affine.for`: the body runs (unless the trip count is
    /// zero) with an unknown induction variable and loop-carried values
    /// joining the inits (entering) and what the body yields (looping, not
    /// when it runs once); the results join the inits (unless it runs at
    /// least once) and the yields.
    fn visit_for(&mut self, op: OpId, inits: Vec<ValueId>) {
        let Some(body) = self.ir.regions(op).next() else {
            return;
        };
        let trips = self.trip_count(op);
        let init_states: Vec<Lattice> = inits.iter().map(|&v| self.get(v)).collect();
        let mut yielded = vec![Lattice::Unknown; inits.len()];
        self.join_yields(body, &mut yielded);
        let join = |a: &[Lattice], b: &[Lattice]| -> Vec<Lattice> {
            a.iter().zip(b).map(|(x, y)| x.join(*y)).collect()
        };
        let results = match trips {
            Some(0) => init_states.clone(),
            Some(_) => yielded.clone(),
            None => join(&init_states, &yielded),
        };
        if trips != Some(0) {
            let carried = if trips == Some(1) {
                init_states
            } else {
                join(&init_states, &yielded)
            };
            if let Some(entry) = self.ir.entry_block(body) {
                let args = self.ir.block_args(entry).to_vec();
                if let Some((&iv, rest)) = args.split_first() {
                    self.set(iv, Lattice::Overdefined);
                    for (&a, &l) in rest.iter().zip(&carried) {
                        self.set(a, l);
                    }
                }
                self.mark_executable(entry);
            }
        }
        self.set_results(op, results);
    }

    /// `scf.while`: the before region runs on the inits joined with what
    /// the after region yields; `scf.condition` forwards its values to the
    /// after region when the condition may hold and to the results when it
    /// may not.
    fn visit_while(&mut self, op: OpId) {
        let regions: Vec<RegionId> = self.ir.regions(op).collect();
        let (Some(before), Some(after)) = (
            regions.first().and_then(|&r| self.ir.entry_block(r)),
            regions.get(1).and_then(|&r| self.ir.entry_block(r)),
        ) else {
            return;
        };
        let mut states: Vec<Lattice> = self.ir.operands(op).map(|v| self.get(v)).collect();
        self.join_yields(regions[1], &mut states);
        for (a, l) in self.ir.block_args(before).to_vec().into_iter().zip(states) {
            self.set(a, l);
        }
        self.mark_executable(before);
        let Some(cond_op) = self
            .ir
            .last_op(before)
            .filter(|&t| self.ctx.str(self.ir.op_name(t)) == "scf.condition")
        else {
            return;
        };
        let (may_hold, may_fail) = match self.get(self.ir.operand(cond_op, 0)) {
            Lattice::Unknown => return,
            Lattice::Constant(a, _) => match self.ctx.attr_kind(a) {
                AttrKind::Integer { value, .. } => (value != &0.into(), value == &0.into()),
                _ => (true, true),
            },
            Lattice::Overdefined => (true, true),
        };
        let forwarded: Vec<Lattice> = self
            .ir
            .operands(cond_op)
            .skip(1)
            .map(|v| self.get(v))
            .collect();
        if may_hold {
            for (a, &l) in self
                .ir
                .block_args(after)
                .to_vec()
                .into_iter()
                .zip(&forwarded)
            {
                self.set(a, l);
            }
            self.mark_executable(after);
        }
        if may_fail {
            self.set_results(op, forwarded);
        }
    }

    /// `scf.execute_region`: its blocks run from the entry; the results
    /// join what its yields give.
    fn visit_execute_region(&mut self, op: OpId) {
        let Some(r) = self.ir.regions(op).next() else {
            return;
        };
        if let Some(entry) = self.ir.entry_block(r) {
            self.mark_executable(entry);
        }
        let mut states = vec![Lattice::Unknown; self.ir.num_results(op)];
        self.join_yields(r, &mut states);
        self.set_results(op, states);
    }

    /// A call of `f`: its operands flow into `f`'s arguments (when `f`
    /// has only known callers), its results are what `f`'s reachable
    /// returns give (overdefined if `f` ends a block any other way).
    fn visit_call(&mut self, call: OpId, f: OpId) {
        let Some(region) = self.ir.regions(f).next() else {
            return;
        };
        if self.calls.is_tracked(f) {
            if let Some(entry) = self.ir.entry_block(region) {
                let args = self.ir.block_args(entry).to_vec();
                let operands: Vec<ValueId> = self.ir.operands(call).collect();
                for (a, v) in args.into_iter().zip(operands) {
                    let l = self.get(v);
                    self.set(a, l);
                }
                self.mark_executable(entry);
            }
        }
        let results: Vec<ValueId> = self.ir.results(call).collect();
        let mut states = vec![Lattice::Unknown; results.len()];
        let blocks: Vec<BlockId> = self.ir.region_blocks(region).collect();
        for b in blocks {
            let Some(t) = self.ir.last_op(b) else {
                continue;
            };
            if !self.ir.successors(t).is_empty() {
                continue;
            }
            if self.ctx.str(self.ir.op_name(t)) != "func.return" {
                states.fill(Lattice::Overdefined);
                break;
            }
            if self.executable.contains(&b) {
                for (i, s) in states.iter_mut().enumerate() {
                    if i < self.ir.num_operands(t) {
                        *s = s.join(self.get(self.ir.operand(t, i)));
                    }
                }
            }
        }
        for (r, l) in results.into_iter().zip(states) {
            self.set(r, l);
        }
    }

    fn solve(&mut self) {
        loop {
            if let Some(b) = self.block_work.pop() {
                let ops: Vec<OpId> = self.ir.block_ops(b).collect();
                for o in ops {
                    self.visit_op(o);
                }
                continue;
            }
            if let Some(o) = self.op_work.pop() {
                self.visit_op(o);
                continue;
            }
            break;
        }
    }
}

/// Constants created by the rewrite, unique per (dialect, value, type)
/// in each isolated region, created at its entry.
#[derive(Default)]
struct Constants {
    made: FxHashMap<(RegionId, crate::context::Symbol, Attr, crate::context::Type), ValueId>,
}

fn constant_for(
    rw: &mut Rewriter<'_>,
    constants: &mut Constants,
    block: BlockId,
    attr: Attr,
    dialect: crate::context::Symbol,
    ty: crate::context::Type,
) -> Option<ValueId> {
    let region = insertion_region(rw.ctx, rw.ir, block);
    if let Some(&v) = constants.made.get(&(region, dialect, attr, ty)) {
        return Some(v);
    }
    let materialize = rw.ctx.dialect(rw.ctx.str(dialect))?.materialize_constant?;
    let entry = rw.ir.entry_block(region)?;
    let saved = rw.insertion_point();
    rw.set_insertion_point_to_start(entry);
    let loc = rw.ctx.unknown_loc();
    let op = materialize(rw, attr, ty, loc);
    rw.restore_insertion_point(saved);
    let v = rw.ir.result(op?, 0);
    constants.made.insert((region, dialect, attr, ty), v);
    Some(v)
}

fn replace_with_constant(
    rw: &mut Rewriter<'_>,
    constants: &mut Constants,
    values: &FxHashMap<ValueId, Lattice>,
    block: BlockId,
    v: ValueId,
) -> bool {
    let Some(Lattice::Constant(attr, dialect)) = values.get(&v).copied() else {
        return false;
    };
    let ty = rw.ir.value_type(v);
    match constant_for(rw, constants, block, attr, dialect, ty) {
        Some(c) if c != v => {
            rw.ir.replace_all_uses(v, c);
            true
        }
        Some(_) => true,
        None => false,
    }
}

/// Runs SCCP on the regions of `op`.
pub fn propagate_constants(ctx: &mut Context, ir: &mut Ir, op: OpId) {
    let calls = CallGraph::build(ctx, ir, op);
    let mut solver = Solver::new(ctx, ir, calls);
    // Every isolated op's regions start executable, but those of functions
    // with only known callers, which run when called.
    let mut entries = Vec::new();
    solver.ir.walk(op, &mut |o| {
        let isolated = solver
            .ctx
            .op_def(solver.ir.op_name(o))
            .is_none_or(|d| d.traits.has(Traits::ISOLATED_FROM_ABOVE));
        if isolated && !solver.calls.is_tracked(o) {
            entries.extend(solver.ir.regions(o));
        }
    });
    for r in entries {
        solver.mark_region_entry(r);
    }
    solver.solve();
    let values = std::mem::take(&mut solver.values);
    let (ctx, ir) = (solver.ctx, solver.ir);
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    let mut constants = Constants::default();
    let mut worklist: Vec<BlockId> = Vec::new();
    let push_regions = |rw: &Rewriter<'_>, o: OpId, worklist: &mut Vec<BlockId>| {
        for r in rw.ir.regions(o).collect::<Vec<_>>() {
            let blocks: Vec<BlockId> = rw.ir.region_blocks(r).collect();
            worklist.extend(blocks.into_iter().rev());
        }
    };
    push_regions(&rw, op, &mut worklist);
    while let Some(block) = worklist.pop() {
        let mut cur = rw.ir.first_op(block);
        while let Some(o) = cur {
            cur = rw.ir.next_op(o);
            let results: Vec<ValueId> = rw.ir.results(o).collect();
            let mut replaced_all = !results.is_empty();
            for r in results {
                replaced_all &= replace_with_constant(&mut rw, &mut constants, &values, block, r);
            }
            let created = constants
                .made
                .values()
                .any(|&v| rw.ir.defining_op(v) == Some(o));
            if replaced_all && !created && would_be_trivially_dead(rw.ctx, rw.ir, o) {
                rw.erase_op(o);
                continue;
            }
            push_regions(&rw, o, &mut worklist);
        }
        for a in rw.ir.block_args(block).to_vec() {
            replace_with_constant(&mut rw, &mut constants, &values, block, a);
        }
    }
}

/// The blocks control may reach, as SCCP sees it (a branch on a known
/// constant takes one side): from the regions `entries`, and from each
/// callable region that `callee` names for an op in a reachable block.
pub fn executable_blocks(
    ctx: &mut Context,
    ir: &mut Ir,
    entries: &[RegionId],
    callee: &dyn Fn(&Context, &Ir, OpId) -> Option<RegionId>,
) -> FxHashSet<BlockId> {
    let mut solver = Solver::new(ctx, ir, CallGraph::default());
    let mut entered: FxHashSet<RegionId> = entries.iter().copied().collect();
    for &r in entries {
        solver.mark_region_entry(r);
    }
    loop {
        solver.solve();
        let mut new = Vec::new();
        for &b in &solver.executable {
            for o in solver.ir.block_ops(b) {
                if let Some(r) = callee(solver.ctx, solver.ir, o) {
                    if !entered.contains(&r) {
                        new.push(r);
                    }
                }
            }
        }
        if new.is_empty() {
            return solver.executable;
        }
        for r in new {
            if entered.insert(r) {
                solver.mark_region_entry(r);
            }
        }
    }
}

struct Sccp;

impl Pass for Sccp {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        propagate_constants(ctx, ir, op);
        Ok(())
    }
}

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(Sccp))
}

/// The `sccp` pass.
pub static SCCP: PassInfo = PassInfo {
    argument: "sccp",
    name: "SCCP",
    description: "Sparse Conditional Constant Propagation",
    anchor: None,
    options: &[],
    create,
};
