//! The greedy rewrite driver (MLIR's `applyPatternsGreedily` on regions):
//! a worklist seeded with every nested op (pre-order when top-down,
//! post-order otherwise), constants uniqued and hoisted as they are
//! seen; each popped op is erased if dead, folded, or rewritten by its
//! best matching pattern; changes put the affected ops back on the
//! worklist. Sweeps repeat, with region simplification between them,
//! until nothing changes or the iteration limit is reached.

use super::effects::is_trivially_dead;
use super::fold::{constant_of_op, fold_op, insertion_region, ConstantFolder};
use super::{FoldResult, Listener, OpFoldResult, PatternSet, Rewriter};
use crate::context::Context;
use crate::dialect::Traits;
use crate::graph::{Ir, OpId, RegionId, ValueId};
use rustc_hash::{FxHashMap, FxHashSet};

/// How much the driver simplifies regions between sweeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionSimplify {
    Disabled,
    /// Unreachable blocks and dead ops and block arguments.
    Normal,
    /// Also block arguments that every predecessor passes the same value
    /// dropped (identical blocks are not merged yet).
    Aggressive,
}

/// The driver's settings (MLIR's `GreedyRewriteConfig`).
#[derive(Clone, Copy, Debug)]
pub struct GreedyConfig {
    /// Seed the worklist in pre-order (and process it in that order).
    pub top_down: bool,
    /// Sweeps at most (`None`: no limit).
    pub max_iterations: Option<u64>,
    /// Pattern applications per sweep at most (`None`: no limit).
    pub max_num_rewrites: Option<u64>,
    pub region_simplify: RegionSimplify,
    /// Fold ops (not only apply patterns).
    pub fold: bool,
    /// Unique and hoist constants.
    pub cse_constants: bool,
}

impl Default for GreedyConfig {
    fn default() -> Self {
        GreedyConfig {
            top_down: true,
            max_iterations: Some(10),
            max_num_rewrites: None,
            region_simplify: RegionSimplify::Normal,
            fold: true,
            cse_constants: true,
        }
    }
}

/// The worklist and constant table, told about every change.
struct State {
    worklist: Vec<Option<OpId>>,
    index: FxHashMap<OpId, usize>,
    folder: ConstantFolder,
    scope: RegionId,
    /// In strict mode (rewriting given ops only), the ops the driver may
    /// visit: those given and those the rewrites create or move.
    strict: Option<FxHashSet<OpId>>,
}

impl State {
    fn push(&mut self, op: OpId) {
        if self.index.contains_key(&op) {
            return;
        }
        self.index.insert(op, self.worklist.len());
        self.worklist.push(Some(op));
    }

    fn pop(&mut self) -> Option<Option<OpId>> {
        let op = self.worklist.pop()?;
        if let Some(op) = op {
            self.index.remove(&op);
        }
        Some(op)
    }

    fn remove(&mut self, op: OpId) {
        if let Some(i) = self.index.remove(&op) {
            self.worklist[i] = None;
        }
    }

    /// Adds `op` and its ancestors inside the driver's region (only `op`,
    /// if allowed, in strict mode).
    fn add(&mut self, ir: &Ir, op: OpId) {
        if let Some(allowed) = &self.strict {
            if allowed.contains(&op) {
                self.push(op);
            }
            return;
        }
        let mut chain = Vec::new();
        let mut cur = op;
        loop {
            chain.push(cur);
            let Some(block) = ir.op_block(cur) else {
                return;
            };
            let Some(region) = ir.block_region(block) else {
                return;
            };
            if region == self.scope {
                for o in chain {
                    self.push(o);
                }
                return;
            }
            match ir.region_op(region) {
                Some(parent) => cur = parent,
                None => return,
            }
        }
    }

    /// Adds the defining ops of `op`'s operands that are left with at
    /// most one other user.
    fn add_operand_defs(&mut self, ir: &Ir, op: OpId) {
        for v in ir.operands(op).collect::<Vec<_>>() {
            let Some(def) = ir.defining_op(v) else {
                continue;
            };
            let mut other = None;
            let mut more = false;
            for u in ir.uses(v) {
                let user = ir.use_owner(u);
                if user == op || Some(user) == other {
                    continue;
                }
                if other.is_none() {
                    other = Some(user);
                    continue;
                }
                more = true;
                break;
            }
            if !more {
                self.add(ir, def);
            }
        }
    }
}

impl Listener for State {
    fn inserted(&mut self, ir: &Ir, op: OpId) {
        if let Some(allowed) = &mut self.strict {
            allowed.insert(op);
        }
        self.add(ir, op);
    }
    fn modified(&mut self, ir: &Ir, op: OpId) {
        self.add(ir, op);
    }
    fn erasing(&mut self, ir: &Ir, op: OpId) {
        self.add_operand_defs(ir, op);
        self.remove(op);
        self.folder.remove(op);
    }
}

struct Driver<'a> {
    ctx: &'a mut Context,
    ir: &'a mut Ir,
    patterns: &'a PatternSet,
    config: GreedyConfig,
    state: State,
    /// A sweep was cut short by the safety limit on changes.
    hit_safety_limit: bool,
}

impl<'a> Driver<'a> {
    fn new(
        ctx: &'a mut Context,
        ir: &'a mut Ir,
        patterns: &'a PatternSet,
        config: GreedyConfig,
        scope: RegionId,
        strict: Option<FxHashSet<OpId>>,
    ) -> Self {
        Driver {
            ctx,
            ir,
            patterns,
            config,
            state: State {
                worklist: Vec::new(),
                index: FxHashMap::default(),
                folder: ConstantFolder::default(),
                scope,
                strict,
            },
            hit_safety_limit: false,
        }
    }
}

impl Driver<'_> {
    fn rewriter(&mut self) -> Rewriter<'_> {
        Rewriter::new(self.ctx, self.ir, &mut self.state)
    }

    /// Registers an existing constant with the folder; returns false if
    /// it was replaced by an equal constant already kept (and erased).
    fn insert_known_constant(&mut self, op: OpId, value: crate::Attr) -> bool {
        let block = self.ir.op_block(op).expect("op in a block");
        if self.state.folder.owns(op) {
            self.rehoist(op, block);
            return true;
        }
        let region = insertion_region(self.ctx, self.ir, block);
        let ty = self.ir.value_type(self.ir.result(op, 0));
        let key = (self.ir.op_name(op), value, ty);
        if let Some(existing) = self.state.folder.lookup(region, key) {
            let with = self.ir.result(existing, 0);
            self.rewriter().replace_op(op, &[with]);
            let unknown = self.ctx.unknown_loc();
            self.ir.set_op_loc(existing, unknown);
            return false;
        }
        let entry = self.ir.entry_block(region).expect("region with a block");
        let first = self.ir.first_op(entry).expect("block holds op");
        let in_place = block == entry
            && (first == op
                || self
                    .ir
                    .prev_op(op)
                    .is_some_and(|p| self.state.folder.owns(p)));
        if !in_place {
            self.ir.move_op_before(op, first);
            if block != entry {
                // Hoisted out of its block: its location no longer applies.
                let unknown = self.ctx.unknown_loc();
                self.ir.set_op_loc(op, unknown);
            }
        }
        self.state.folder.insert(region, key, op);
        true
    }

    fn rehoist(&mut self, op: OpId, block: crate::BlockId) {
        let first = self.ir.first_op(block).expect("block holds op");
        if first != op
            && !self
                .ir
                .prev_op(op)
                .is_some_and(|p| self.state.folder.owns(p))
        {
            self.ir.move_op_before(op, first);
        }
    }

    fn is_constant(&self, op: OpId) -> bool {
        self.ctx
            .op_def(self.ir.op_name(op))
            .is_some_and(|d| d.traits.has(Traits::CONSTANT_LIKE))
    }

    /// Fills the worklist for one sweep.
    fn seed(&mut self, region: RegionId) {
        self.state.worklist.clear();
        self.state.index.clear();
        let mut order = Vec::new();
        let mut block = self.ir.entry_block(region);
        while let Some(b) = block {
            let mut cur = self.ir.first_op(b);
            while let Some(op) = cur {
                let next = self.ir.next_op(op);
                self.collect(op, &mut order);
                cur = next;
            }
            block = self.ir.next_block(b);
        }
        if self.config.top_down {
            order.reverse();
        }
        for op in order {
            self.state.push(op);
        }
    }

    /// Walks `op` (pre- or post-order), registering constants.
    fn collect(&mut self, op: OpId, order: &mut Vec<OpId>) {
        let known_constant = |d: &mut Self, op| {
            if !d.config.cse_constants || !d.is_constant(op) {
                return false;
            }
            match constant_of_op(d.ctx, d.ir, op) {
                Some(value) => !d.insert_known_constant(op, value),
                None => false,
            }
        };
        if self.config.top_down {
            if known_constant(self, op) {
                return;
            }
            order.push(op);
        }
        for ri in 0..self.ir.num_regions(op) {
            let r = self.ir.regions(op).nth(ri).expect("region index in range");
            let mut block = self.ir.entry_block(r);
            while let Some(b) = block {
                let mut cur = self.ir.first_op(b);
                while let Some(o) = cur {
                    let next = self.ir.next_op(o);
                    self.collect(o, order);
                    cur = next;
                }
                block = self.ir.next_block(b);
            }
        }
        if !self.config.top_down && !known_constant(self, op) {
            order.push(op);
        }
    }

    /// Processes the worklist; returns whether anything changed.
    fn process(&mut self) -> bool {
        let mut changed = false;
        let mut rewrites = 0u64;
        // Patterns that undo each other (or chase a cycle of blocks) would
        // otherwise never stop: a sweep ends after this many changes.
        let safety = 64 * self.state.worklist.len() as u64 + 100_000;
        let mut steps = 0u64;
        while let Some(entry) = self.state.pop() {
            if self.config.max_num_rewrites.is_some_and(|m| rewrites >= m) {
                break;
            }
            steps += 1;
            if steps > safety {
                self.hit_safety_limit = true;
                break;
            }
            let Some(op) = entry else {
                continue;
            };
            if is_trivially_dead(self.ctx, self.ir, op) {
                self.rewriter().erase_op(op);
                changed = true;
                continue;
            }
            if self.config.fold && !self.is_constant(op) && self.try_fold(op) {
                changed = true;
                continue;
            }
            let name = self.ir.op_name(op);
            let patterns = self.patterns.for_op(name);
            for p in patterns {
                let mut rw = Rewriter::new(self.ctx, self.ir, &mut self.state);
                rw.set_insertion_point(op);
                if (p.apply)(&mut rw, op) {
                    changed = true;
                    rewrites += 1;
                    break;
                }
            }
        }
        changed
    }

    /// Folds `op`; returns whether it changed or was replaced.
    fn try_fold(&mut self, op: OpId) -> bool {
        match fold_op(self.ctx, self.ir, op) {
            FoldResult::Fail => false,
            FoldResult::InPlace => {
                self.state.add(self.ir, op);
                true
            }
            FoldResult::Results(results) => self.replace_with_folded(op, &results),
        }
    }

    fn replace_with_folded(&mut self, op: OpId, results: &[OpFoldResult]) -> bool {
        let dialect = {
            let name = self.ctx.str(self.ir.op_name(op));
            name.split('.').next().unwrap_or(name).to_string()
        };
        let materialize = self
            .ctx
            .dialect(&dialect)
            .and_then(|d| d.materialize_constant);
        let loc = self.ir.op_loc(op);
        let mut values: Vec<ValueId> = Vec::with_capacity(results.len());
        let mut created = Vec::new();
        for (i, r) in results.iter().enumerate() {
            let ty = self.ir.value_type(self.ir.result(op, i));
            match *r {
                OpFoldResult::Value(v) => values.push(v),
                OpFoldResult::Attr(a) => {
                    let made = materialize.and_then(|m| {
                        let mut rw = self.rewriter();
                        rw.set_insertion_point(op);
                        m(&mut rw, a, ty, loc)
                    });
                    match made {
                        Some(c) => {
                            created.push(c);
                            values.push(self.ir.result(c, 0));
                        }
                        None => {
                            for c in created {
                                self.rewriter().erase_op(c);
                            }
                            return false;
                        }
                    }
                }
            }
        }
        self.rewriter().replace_op(op, &values);
        true
    }
}

/// Applies `patterns` and folding to the ops nested in each region of
/// `op` until a fixpoint; returns whether it converged.
pub fn apply_patterns_greedily(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    patterns: &PatternSet,
    config: GreedyConfig,
) -> bool {
    let regions: Vec<RegionId> = ir.regions(op).collect();
    let mut converged = true;
    for region in regions {
        let mut d = Driver::new(&mut *ctx, &mut *ir, patterns, config, region, None);
        converged &= d.run(region) && !d.hit_safety_limit;
    }
    converged
}

/// Applies `patterns` and folding to `ops` (in order) and to the ops the
/// rewrites create or move, and to no others (MLIR's
/// `applyOpPatternsGreedily` in its default strict mode); returns whether
/// the worklist ran out.
pub fn apply_op_patterns_greedily(
    ctx: &mut Context,
    ir: &mut Ir,
    ops: &[OpId],
    patterns: &PatternSet,
    config: GreedyConfig,
) -> bool {
    let Some(scope) = ops
        .first()
        .and_then(|&o| ir.op_block(o))
        .and_then(|b| ir.block_region(b))
    else {
        return true;
    };
    let strict = Some(ops.iter().copied().collect());
    let mut d = Driver::new(ctx, ir, patterns, config, scope, strict);
    for &op in ops.iter().rev() {
        d.state.push(op);
    }
    d.process();
    !d.hit_safety_limit
}

impl Driver<'_> {
    fn run(&mut self, region: RegionId) -> bool {
        let mut iteration = 0u64;
        loop {
            iteration += 1;
            if self.config.max_iterations.is_some_and(|m| iteration > m) {
                return false;
            }
            self.seed(region);
            let mut changed = self.process();
            if self.hit_safety_limit {
                return false;
            }
            if self.config.region_simplify != RegionSimplify::Disabled {
                let mut rw = Rewriter::new(self.ctx, self.ir, &mut self.state);
                let aggressive = self.config.region_simplify == RegionSimplify::Aggressive;
                changed |= super::simplify_regions(&mut rw, &[region], aggressive);
            }
            if !changed {
                return true;
            }
        }
    }
}
