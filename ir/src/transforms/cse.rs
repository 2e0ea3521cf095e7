//! `cse`: common subexpression elimination as MLIR does it. Ops without
//! memory effects are looked up in a scoped table keyed by name,
//! operands, result types, attributes and properties while walking the
//! dominator tree; read-only ops are reused only within their block with
//! no writing op in between. Isolated ops start a fresh table; graph
//! regions replace only uses in ops not yet recorded.
//! [`merge_equivalent_ops`] is the same walk keeping dead ops: an op
//! nothing uses is neither erased nor merged, so a later check still
//! finds it where it was written.

use crate::context::{Attr, Context, Symbol, Type};
use crate::diag::Diagnostic;
use crate::dialect::{Effects, Traits};
use crate::graph::{BlockId, Ir, OpId, RegionId, ValueId};
use crate::pass::{Pass, PassInfo, PassOptions};
use crate::rewrite::effects::{is_memory_effect_free, is_trivially_dead, only_reads};
use crate::rewrite::{NoListener, Rewriter};
use crate::verify::{compute_idoms, is_graph_region};
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Clone, PartialEq, Eq, Hash)]
struct OpKey {
    name: Symbol,
    attrs: Attr,
    props: Option<Attr>,
    operands: Vec<ValueId>,
    results: Vec<Type>,
    successors: Vec<BlockId>,
}

/// A hash table with nested scopes: leaving a scope forgets what was
/// recorded in it.
#[derive(Default)]
struct ScopedTable {
    map: FxHashMap<OpKey, OpId>,
    recorded: FxHashSet<OpId>,
    /// Keys added per open scope, with what they shadowed.
    scopes: Vec<Vec<(OpKey, Option<OpId>)>>,
}

impl ScopedTable {
    fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    fn pop_scope(&mut self) {
        for (key, old) in self.scopes.pop().expect("open scope").into_iter().rev() {
            if let Some(op) = self.map.get(&key) {
                self.recorded.remove(op);
            }
            match old {
                Some(o) => {
                    self.map.insert(key, o);
                    self.recorded.insert(o);
                }
                None => {
                    self.map.remove(&key);
                }
            }
        }
    }

    fn insert(&mut self, key: OpKey, op: OpId) {
        let old = self.map.insert(key.clone(), op);
        self.recorded.insert(op);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((key, old));
        }
    }
}

struct Cse<'a> {
    ctx: &'a mut Context,
    ir: &'a mut Ir,
    to_erase: Vec<OpId>,
    changed: bool,
    /// Whether unused ops are erased (`cse`) or left in place.
    erase_dead: bool,
}

impl Cse<'_> {
    fn key(&self, op: OpId) -> OpKey {
        let ir = &*self.ir;
        let mut operands: Vec<ValueId> = ir.operands(op).collect();
        let commutative = self
            .ctx
            .op_def(ir.op_name(op))
            .is_some_and(|d| d.traits.has(Traits::COMMUTATIVE));
        if commutative {
            // `a * b` and `b * a` are the same value.
            operands.sort_unstable_by_key(|v| v.0);
        }
        OpKey {
            name: ir.op_name(op),
            attrs: ir.op_attrs(op),
            props: ir.op_props(op),
            operands,
            results: ir.results(op).map(|v| ir.value_type(v)).collect(),
            successors: ir.successors(op).to_vec(),
        }
    }

    fn region(&mut self, table: &mut ScopedTable, region: RegionId) {
        let blocks: Vec<BlockId> = self.ir.region_blocks(region).collect();
        let graph = is_graph_region(self.ctx, self.ir, region);
        match blocks.len() {
            0 => {}
            1 => {
                table.push_scope();
                self.block(table, blocks[0], !graph);
                table.pop_scope();
            }
            _ => {
                let idoms = compute_idoms(self.ir, region);
                let mut children: FxHashMap<BlockId, Vec<BlockId>> = FxHashMap::default();
                for &b in &blocks[1..] {
                    if let Some(Some(d)) = idoms.get(&b) {
                        children.entry(*d).or_default().push(b);
                    }
                }
                self.dom_subtree(table, blocks[0], &children);
            }
        }
    }

    fn dom_subtree(
        &mut self,
        table: &mut ScopedTable,
        block: BlockId,
        children: &FxHashMap<BlockId, Vec<BlockId>>,
    ) {
        table.push_scope();
        self.block(table, block, true);
        for &c in children.get(&block).map(|v| v.as_slice()).unwrap_or(&[]) {
            self.dom_subtree(table, c, children);
        }
        table.pop_scope();
    }

    fn block(&mut self, table: &mut ScopedTable, block: BlockId, dominance: bool) {
        let ops: Vec<OpId> = self.ir.block_ops(block).collect();
        for op in ops {
            if self.ir.num_regions(op) > 0 {
                let isolated = self
                    .ctx
                    .op_def(self.ir.op_name(op))
                    .is_none_or(|d| d.traits.has(Traits::ISOLATED_FROM_ABOVE));
                let regions: Vec<RegionId> = self.ir.regions(op).collect();
                if isolated {
                    let mut fresh = ScopedTable::default();
                    for r in regions {
                        self.region(&mut fresh, r);
                    }
                } else {
                    for r in regions {
                        self.region(table, r);
                    }
                }
            }
            self.simplify(table, op, dominance);
        }
    }

    fn simplify(&mut self, table: &mut ScopedTable, op: OpId, dominance: bool) {
        let def = self.ctx.op_def(self.ir.op_name(op));
        if def.is_some_and(|d| d.traits.has(Traits::TERMINATOR)) {
            return;
        }
        if !self.ir.results(op).any(|v| self.ir.has_uses(v)) && !self.erase_dead {
            return;
        }
        if is_trivially_dead(self.ctx, self.ir, op) {
            self.to_erase.push(op);
            return;
        }
        // Ops with regions are reused only when they have none (region
        // equivalence is not compared).
        if self.ir.num_regions(op) > 0 {
            return;
        }
        let key = self.key(op);
        if !is_memory_effect_free(self.ctx, self.ir, op) {
            if !only_reads(self.ctx, self.ir, op) {
                return;
            }
            if let Some(&existing) = table.map.get(&key) {
                if self.ir.op_block(existing) == self.ir.op_block(op)
                    && !self.writes_between(existing, op)
                {
                    self.replace(table, op, existing, dominance);
                    return;
                }
            }
            table.insert(key, op);
            return;
        }
        if let Some(&existing) = table.map.get(&key) {
            self.replace(table, op, existing, dominance);
            return;
        }
        table.insert(key, op);
    }

    fn writes_between(&self, from: OpId, to: OpId) -> bool {
        let mut cur = self.ir.next_op(from);
        while let Some(o) = cur {
            if o == to {
                return false;
            }
            if !only_reads(self.ctx, self.ir, o) && self.has_write(o) {
                return true;
            }
            cur = self.ir.next_op(o);
        }
        false
    }

    fn has_write(&self, op: OpId) -> bool {
        let effects = crate::dialect::op_effects(self.ctx, self.ir, op);
        !matches!(effects, Effects::None | Effects::Read | Effects::Alloc)
    }

    fn replace(&mut self, table: &ScopedTable, op: OpId, existing: OpId, dominance: bool) {
        let results: Vec<(ValueId, ValueId)> =
            self.ir.results(op).zip(self.ir.results(existing)).collect();
        for (from, to) in results {
            if dominance {
                self.ir.replace_all_uses(from, to);
            } else {
                let uses: Vec<_> = self
                    .ir
                    .uses(from)
                    .filter(|&u| !table.recorded.contains(&self.ir.use_owner(u)))
                    .collect();
                for u in uses {
                    self.ir.set_use(u, to);
                }
            }
        }
        if self.ir.results(op).all(|v| !self.ir.has_uses(v)) {
            self.to_erase.push(op);
        }
        let unknown = self.ctx.unknown_loc();
        let op_loc = self.ir.op_loc(op);
        if self.ir.op_loc(existing) == unknown && op_loc != unknown {
            self.ir.set_op_loc(existing, op_loc);
        }
        self.changed = true;
    }
}

/// Eliminates common subexpressions in the regions of `op`; returns
/// whether anything changed.
pub fn eliminate_common_subexpressions(ctx: &mut Context, ir: &mut Ir, op: OpId) -> bool {
    run(ctx, ir, op, true)
}

/// Merges the equivalent ops in the regions of `op` as `cse` does (an
/// op computing what a dominating one computes takes its place) but
/// erases no op that was unused before: unused ops are left as they
/// are, neither erased nor merged. Returns the number of ops merged.
pub fn merge_equivalent_ops(ctx: &mut Context, ir: &mut Ir, op: OpId) -> usize {
    let before = count_ops(ir, op);
    run(ctx, ir, op, false);
    before - count_ops(ir, op)
}

fn count_ops(ir: &Ir, op: OpId) -> usize {
    let mut n = 0;
    ir.walk(op, &mut |_| n += 1);
    n
}

fn run(ctx: &mut Context, ir: &mut Ir, op: OpId, erase_dead: bool) -> bool {
    let mut cse = Cse {
        ctx,
        ir,
        to_erase: Vec::new(),
        changed: false,
        erase_dead,
    };
    let mut table = ScopedTable::default();
    let regions: Vec<RegionId> = cse.ir.regions(op).collect();
    for r in regions {
        cse.region(&mut table, r);
    }
    let to_erase = std::mem::take(&mut cse.to_erase);
    let changed = cse.changed || !to_erase.is_empty();
    let mut listener = NoListener;
    let mut rw = Rewriter::new(cse.ctx, cse.ir, &mut listener);
    for o in to_erase {
        rw.erase_op(o);
    }
    changed
}

struct CsePass;

impl Pass for CsePass {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        eliminate_common_subexpressions(ctx, ir, op);
        Ok(())
    }
}

fn create(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(CsePass))
}

/// The `cse` pass.
pub static CSE: PassInfo = PassInfo {
    argument: "cse",
    name: "CSE",
    description: "Eliminate common sub-expressions",
    anchor: None,
    options: &[],
    create,
};
