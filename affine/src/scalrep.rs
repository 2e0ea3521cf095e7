//! `affine-scalrep`: MLIR's `affineScalarReplace`. Store-to-load
//! forwarding (a load takes the value of a store to the same element —
//! equal access maps after composition — that dominates it, reaches it at
//! the innermost common loop and is followed by no op that may overwrite
//! the element), dead store elimination (a store followed in its block by
//! a store to the same element with no read in between), removal of
//! allocations left with only stores and deallocations, and redundant load
//! elimination. Whether an access in between may touch the element is the
//! dependence analysis of [`crate::dependence`]; ops of unknown effects
//! always may. Values that are distinct allocations (or an allocation and
//! a function argument) do not alias.

use crate::dependence::{accesses_of, check_dependence, num_common_loops, Precision};
use crate::dependence::{DependenceResult, MemoryAccess};
use crate::for_op::Bound;
use crate::licm::affine_access;
use crate::value_map::difference;
use silica_ir::affine::AffineExpr;
use silica_ir::dialect::{op_effects, Effects};
use silica_ir::pass::{Pass, PassInfo};
use silica_ir::{AttrKind, BlockId, Context, Diagnostic, Ir, OpId, TypeKind, ValueDef, ValueId};

/// The access map of an affine load or store with its operands.
fn access_map(ctx: &Context, ir: &Ir, op: OpId) -> Option<Bound> {
    let (_, writes) = affine_access(ctx, ir, op)?;
    let map = match ctx.attr_kind(silica_ir::dialect::inherent_attr(ctx, ir, op, "map")?) {
        AttrKind::AffineMap(m) => m.clone(),
        _ => return None,
    };
    let first = if writes { 2 } else { 1 };
    Some(Bound {
        map,
        operands: ir.operands(op).skip(first).collect(),
    })
}

/// Whether two affine accesses of one memref touch the same element at
/// every point (MLIR's `MemRefAccess::operator==`).
fn same_element(ctx: &mut Context, ir: &mut Ir, a: OpId, b: OpId) -> bool {
    let (Some((ma, _)), Some((mb, _))) = (affine_access(ctx, ir, a), affine_access(ctx, ir, b))
    else {
        return false;
    };
    if ma != mb {
        return false;
    }
    let (Some(x), Some(y)) = (access_map(ctx, ir, a), access_map(ctx, ir, b)) else {
        return false;
    };
    if x.map.results.len() != y.map.results.len() {
        return false;
    }
    let d = difference(ctx, ir, &x, &y);
    d.map.results.iter().all(|e| *e == AffineExpr::Constant(0))
}

/// The ancestor of `op` (or `op`) directly in `block`.
fn ancestor_in(ir: &Ir, block: BlockId, mut op: OpId) -> Option<OpId> {
    loop {
        if ir.op_block(op) == Some(block) {
            return Some(op);
        }
        op = ir.parent_op(op)?;
    }
}

/// Whether `op` comes strictly before `other` in their block.
fn before_in_block(ir: &Ir, op: OpId, other: OpId) -> bool {
    let mut cur = ir.next_op(op);
    while let Some(o) = cur {
        if o == other {
            return true;
        }
        cur = ir.next_op(o);
    }
    false
}

/// Whether `a` dominates `b` (structurally: `b` is after `a` in `a`'s
/// block or nested in an op after it; other blocks are not considered).
fn dominates(ir: &Ir, a: OpId, b: OpId) -> bool {
    if a == b {
        return true;
    }
    let Some(block) = ir.op_block(a) else {
        return false;
    };
    ancestor_in(ir, block, b).is_some_and(|x| before_in_block(ir, a, x))
}

/// The value a view of a memref was made from, followed to its source.
fn underlying(ctx: &Context, ir: &Ir, mut v: ValueId) -> ValueId {
    while let Some(d) = ir.defining_op(v) {
        match ctx.str(ir.op_name(d)) {
            "memref.cast"
            | "memref.subview"
            | "memref.reinterpret_cast"
            | "memref.view"
            | "memref.collapse_shape"
            | "memref.expand_shape"
            | "memref.transpose" => {
                v = ir.operand(d, 0);
            }
            _ => break,
        }
    }
    v
}

fn is_allocation(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    ir.defining_op(v)
        .is_some_and(|d| matches!(ctx.str(ir.op_name(d)), "memref.alloc" | "memref.alloca"))
}

fn is_function_argument(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    let ValueDef::Argument { block, .. } = ir.value_def(v) else {
        return false;
    };
    ir.block_region(block)
        .and_then(|r| ir.region_op(r))
        .is_some_and(|f| ctx.str(ir.op_name(f)) == "func.func")
}

/// Whether two memrefs may share memory (two function arguments may,
/// unless `distinct_arguments`).
fn may_alias(ctx: &Context, ir: &Ir, a: ValueId, b: ValueId, distinct_arguments: bool) -> bool {
    let (a, b) = (underlying(ctx, ir, a), underlying(ctx, ir, b));
    if a == b {
        return true;
    }
    let (aa, ba) = (is_allocation(ctx, ir, a), is_allocation(ctx, ir, b));
    let (fa, fb) = (
        is_function_argument(ctx, ir, a),
        is_function_argument(ctx, ir, b),
    );
    let distinct = (aa && (ba || fb)) || (ba && fa) || (distinct_arguments && fa && fb);
    !distinct
}

fn is_memref(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    matches!(
        ctx.type_kind(ir.value_type(v)),
        TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
    )
}

/// The effect looked for between two accesses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Effect {
    Read,
    Write,
}

/// Finds whether some op between `start` and `mem_op` may have `effect`
/// on the element `mem_op` accesses (MLIR's `hasNoInterveningEffect`).
struct Intervening<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    start: OpId,
    mem_op: OpId,
    memref: ValueId,
    effect: Effect,
    distinct_arguments: bool,
    found: bool,
}

fn access(ctx: &Context, ir: &Ir, op: OpId) -> Option<MemoryAccess> {
    match accesses_of(ctx, ir, op) {
        Ok(mut v) if v.len() == 1 => v.pop(),
        _ => None,
    }
}

/// How many loops surround both ops (MLIR's `getNumCommonSurroundingLoops`).
fn common_loops(ctx: &Context, ir: &Ir, a: OpId, b: OpId) -> usize {
    let loops = |op: OpId| crate::dependence::enclosing_loop_ivs(ctx, ir, op);
    let (la, lb) = (loops(a), loops(b));
    la.iter().zip(lb.iter()).take_while(|(x, y)| x == y).count()
}

impl Intervening<'_> {
    /// Whether the affine access `src` may touch what `mem_op` does within
    /// the outer `min_loops` common loops (MLIR's `mayHaveEffect`).
    fn may_have_effect(&self, src: OpId, min_loops: usize) -> bool {
        let (Some(a), Some(b)) = (
            access(self.ctx, self.ir, src),
            access(self.ctx, self.ir, self.mem_op),
        ) else {
            return true;
        };
        if a.memref != b.memref {
            return true;
        }
        let common = num_common_loops(&a, &b);
        ((min_loops + 1)..=(common + 1)).rev().any(|d| {
            !matches!(
                check_dependence(self.ctx, self.ir, &a, &b, d, Precision::Shadow),
                DependenceResult::NoDependence
            )
        })
    }

    fn check(&mut self, op: OpId) {
        if self.found {
            return;
        }
        let (ctx, ir) = (self.ctx, self.ir);
        let effects = op_effects(ctx, ir, op);
        let relevant = match effects {
            Effects::None | Effects::Alloc => return,
            Effects::Recursive => {
                let nested: Vec<OpId> = ir
                    .regions(op)
                    .flat_map(|r| ir.region_blocks(r))
                    .flat_map(|b| ir.block_ops(b))
                    .collect();
                for o in nested {
                    self.check(o);
                }
                return;
            }
            Effects::Read => self.effect == Effect::Read,
            Effects::Write => {
                // Stores only write; other writers may read too.
                self.effect == Effect::Write
                    || !matches!(ctx.str(ir.op_name(op)), "affine.store" | "memref.store")
            }
            Effects::Unknown | Effects::Dynamic(_) => {
                self.found = true;
                return;
            }
        };
        if !relevant {
            return;
        }
        let memrefs: Vec<ValueId> = ir.operands(op).filter(|&v| is_memref(ctx, ir, v)).collect();
        if !memrefs.is_empty()
            && memrefs.iter().all(|&m| {
                m != self.memref && !may_alias(ctx, ir, m, self.memref, self.distinct_arguments)
            })
        {
            return;
        }
        if affine_access(ctx, ir, op).is_some() {
            let min_loops = common_loops(ctx, ir, self.start, self.mem_op);
            if self.may_have_effect(op, min_loops) {
                self.found = true;
            }
            return;
        }
        self.found = true;
    }

    /// Checks every op on the paths from `from` to `until`.
    fn paths(&mut self, from: OpId, until: OpId) {
        let (ir, from_block, until_block) =
            (self.ir, self.ir.op_block(from), self.ir.op_block(until));
        let (Some(fb), Some(ub)) = (from_block, until_block) else {
            self.found = true;
            return;
        };
        if ir.block_region(fb) != ir.block_region(ub) {
            let Some(parent) = ir.parent_op(until) else {
                self.found = true;
                return;
            };
            self.paths(from, parent);
            self.check(parent);
            return;
        }
        let mut cur = ir.next_op(from);
        while let Some(o) = cur {
            if o == until {
                break;
            }
            self.check(o);
            cur = ir.next_op(o);
        }
        if fb == ub {
            return;
        }
        let mut todo: Vec<BlockId> = ir
            .last_op(fb)
            .map(|t| ir.successors(t).to_vec())
            .unwrap_or_default();
        let mut done = Vec::new();
        while let Some(b) = todo.pop() {
            if done.contains(&b) {
                continue;
            }
            done.push(b);
            for o in ir.block_ops(b).collect::<Vec<_>>() {
                if o == until {
                    break;
                }
                self.check(o);
                if Some(o) == ir.last_op(b) {
                    todo.extend(ir.successors(o).iter().copied());
                }
            }
        }
    }
}

fn no_intervening(
    ctx: &Context,
    ir: &Ir,
    start: OpId,
    mem_op: OpId,
    effect: Effect,
    distinct_arguments: bool,
) -> bool {
    let Some((memref, _)) = affine_access(ctx, ir, mem_op) else {
        return false;
    };
    let mut it = Intervening {
        ctx,
        ir,
        start,
        mem_op,
        memref,
        effect,
        distinct_arguments,
        found: false,
    };
    it.paths(start, mem_op);
    !it.found
}

/// Whether the store `src` reaches the load `dst` at their innermost
/// common loop (MLIR's `mustReachAtInnermost`).
fn reaches_at_innermost(ctx: &Context, ir: &Ir, src: OpId, dst: OpId) -> bool {
    let (Some(a), Some(b)) = (access(ctx, ir, src), access(ctx, ir, dst)) else {
        return false;
    };
    let depth = num_common_loops(&a, &b) + 1;
    matches!(
        check_dependence(ctx, ir, &a, &b, depth, Precision::Shadow),
        DependenceResult::Dependence(_)
    )
}

fn users(ir: &Ir, v: ValueId) -> Vec<OpId> {
    let mut out: Vec<OpId> = Vec::new();
    for u in ir.uses(v) {
        let o = ir.use_owner(u);
        if !out.contains(&o) {
            out.push(o);
        }
    }
    out
}

/// The affine loads and stores under `root`, in program order.
fn accesses(ctx: &Context, ir: &Ir, root: OpId, writes: bool) -> Vec<OpId> {
    let mut out = Vec::new();
    ir.walk(root, &mut |o| {
        if affine_access(ctx, ir, o).is_some_and(|(_, w)| w == writes) {
            out.push(o);
        }
    });
    out
}

/// Store-to-load forwarding for `load`; returns the forwarded memref.
fn forward_store(ctx: &mut Context, ir: &mut Ir, load: OpId, distinct: bool) -> Option<ValueId> {
    let (memref, _) = affine_access(ctx, ir, load)?;
    let mut found = None;
    for store in users(ir, memref) {
        if !affine_access(ctx, ir, store).is_some_and(|(m, w)| w && m == memref) {
            continue;
        }
        if !same_element(ctx, ir, store, load)
            || !dominates(ir, store, load)
            || !reaches_at_innermost(ctx, ir, store, load)
            || !no_intervening(ctx, ir, store, load, Effect::Write, distinct)
        {
            continue;
        }
        found = Some(store);
    }
    let stored = ir.operand(found?, 0);
    let loaded = ir.result(load, 0);
    if ir.value_type(stored) != ir.value_type(loaded) {
        return None;
    }
    ir.replace_all_uses(loaded, stored);
    Some(memref)
}

/// Whether the store `a` is overwritten by a later store to the same
/// element in its block with no read in between.
fn is_unused_store(ctx: &mut Context, ir: &mut Ir, a: OpId, distinct: bool) -> bool {
    let Some((memref, _)) = affine_access(ctx, ir, a) else {
        return false;
    };
    for b in users(ir, memref) {
        if b == a || !affine_access(ctx, ir, b).is_some_and(|(m, w)| w && m == memref) {
            continue;
        }
        let same_region = ir.op_block(a).and_then(|x| ir.block_region(x))
            == ir.op_block(b).and_then(|x| ir.block_region(x));
        if !same_region || !same_element(ctx, ir, b, a) {
            continue;
        }
        // `b` post-dominates `a`: later in the same block.
        if ir.op_block(a) != ir.op_block(b) || !before_in_block(ir, a, b) {
            continue;
        }
        if no_intervening(ctx, ir, a, b, Effect::Read, distinct) {
            return true;
        }
    }
    false
}

/// Redundant load elimination for `a`.
fn load_cse(ctx: &mut Context, ir: &mut Ir, a: OpId, distinct: bool) -> bool {
    let Some((memref, _)) = affine_access(ctx, ir, a) else {
        return false;
    };
    let mut candidates = Vec::new();
    for b in users(ir, memref) {
        if b == a || !affine_access(ctx, ir, b).is_some_and(|(m, w)| !w && m == memref) {
            continue;
        }
        if !same_element(ctx, ir, b, a)
            || !dominates(ir, b, a)
            || !no_intervening(ctx, ir, b, a, Effect::Write, distinct)
            || ir.value_type(ir.result(b, 0)) != ir.value_type(ir.result(a, 0))
        {
            continue;
        }
        candidates.push(b);
    }
    let chosen = candidates
        .iter()
        .copied()
        .find(|&o| candidates.iter().all(|&c| c == o || dominates(ir, o, c)));
    let Some(b) = chosen else {
        return false;
    };
    let (from, to) = (ir.result(a, 0), ir.result(b, 0));
    ir.replace_all_uses(from, to);
    true
}

/// Runs store-to-load forwarding, dead store and allocation removal and
/// redundant load elimination on `func`.
pub fn scalar_replace(ctx: &mut Context, ir: &mut Ir, func: OpId) {
    scalar_replace_under(ctx, ir, func, false);
}

/// [`scalar_replace`] on the accesses under `root` (any op); with
/// `distinct_arguments`, memref arguments of the function are taken to
/// be distinct memories (as hardware with one interface per argument
/// has them), so a store through one never intervenes on another.
pub fn scalar_replace_under(ctx: &mut Context, ir: &mut Ir, root: OpId, distinct_arguments: bool) {
    let (func, distinct) = (root, distinct_arguments);
    let mut erase = Vec::new();
    let mut memrefs: Vec<ValueId> = Vec::new();
    for load in accesses(ctx, ir, func, false) {
        if let Some(m) = forward_store(ctx, ir, load, distinct) {
            erase.push(load);
            if !memrefs.contains(&m) {
                memrefs.push(m);
            }
        }
    }
    for op in erase.drain(..) {
        ir.erase_op(op);
    }
    for store in accesses(ctx, ir, func, true) {
        if is_unused_store(ctx, ir, store, distinct) {
            erase.push(store);
        }
    }
    for op in erase.drain(..) {
        ir.erase_op(op);
    }
    for m in memrefs {
        let Some(def) = ir.defining_op(m).filter(|_| is_allocation(ctx, ir, m)) else {
            continue;
        };
        let all_users = users(ir, m);
        let removable = all_users.iter().all(|&u| {
            affine_access(ctx, ir, u).is_some_and(|(mm, w)| w && mm == m && ir.operand(u, 0) != m)
                || ctx.str(ir.op_name(u)) == "memref.dealloc"
        });
        if !removable {
            continue;
        }
        for u in all_users {
            ir.erase_op(u);
        }
        ir.erase_op(def);
    }
    for load in accesses(ctx, ir, func, false) {
        if load_cse(ctx, ir, load, distinct) {
            erase.push(load);
        }
    }
    for op in erase {
        ir.erase_op(op);
    }
}

struct ScalarReplacement;

impl Pass for ScalarReplacement {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        scalar_replace(ctx, ir, op);
        Ok(())
    }
}

/// The `affine-scalrep` pass.
pub static AFFINE_SCALREP: PassInfo = PassInfo {
    argument: "affine-scalrep",
    name: "AffineScalarReplacement",
    description: "Replace affine memref accesses by scalars by forwarding stores to loads and eliminating redundant loads",
    anchor: Some("func.func"),
    options: &[],
    create: |_| Ok(Box::new(ScalarReplacement)),
};
