//! Loads carried across the iterations of innermost loops (rotating
//! registers). A stencil such as `B[i] = A[i-1] + A[i] + A[i+1]` reads
//! A three times per iteration, although two of the three elements were
//! read by the iteration before: with one memory port the loads alone
//! set the II to 3. For an innermost `affine.for` whose trip count is
//! not a constant below two, each array whose uses in the loop are
//! `affine.load`s in the body, directly or under `affine.if`s (and
//! stores, see below; the array is a function argument or an
//! allocation, so no other value names it)
//! and whose loads differ only by constants in one subscript, the one
//! that moves by `g` per iteration, forms a window of offsets `O`. The
//! value at offset `o` in the next iteration is the value at `o + g` in
//! this one, so every `o` with `o + g` in `O` becomes an `iter_arg`: its
//! first value is loaded before the loop (the first iteration's load,
//! so nothing outside the loop's footprint is read), the loads of it in
//! the body are replaced by the `iter_arg`, and the body yields the
//! value at `o + g` (an `iter_arg` or a load that stays). Only the
//! offsets entering the window are loaded in the body: one load per
//! iteration for the 3-point stencil. Offsets are exact: the subscripts
//! are composed with their `affine.apply` producers and compared by the
//! affine layer's map difference, which must be constant. It runs on the
//! flow's copy of the input, after unrolling and `reuse.rs`, so an
//! unrolled stencil (step 2, offsets -1..2) carries two elements. The
//! loads before the loop lengthen every entry of it, so a loop is
//! rewritten only where carrying lowers the bound its memory ports put
//! on the II (accesses per iteration over ports, from the directives).
//!
//! The loop may also store the array (seidel-2d's `A[i][j]`, read by
//! the next iteration as `A[i][j-1]`): the stores must sit directly in
//! the body after every load of the array, each in a window (its
//! element at an offset of the moving subscript), and any two windows
//! of the array must differ by constants elsewhere (never the same
//! element). The element a store writes at offset `s` is the next
//! iteration's offset `s - g`, so that register takes the stored value
//! instead of the one loaded: a value stored in one iteration and read
//! in the next passes through a register, not through memory.
//!
//! Loads may sit under `affine.if`s in the body, and the bounds may
//! depend on outer loops (a triangular loop: no constant trip count).
//! A register must hold its element in every iteration, so each
//! entering offset gets one load directly in the body, and the loads of
//! it under the `if`s read that value. A load the input does not make
//! in every iteration (only under an `if`, or before a loop that may run
//! no iteration) may address past the array: it is guarded, `affine.if`
//! on its subscripts being within the shape, zero otherwise. Where the
//! input reads the element the guard holds, so the value is the same.

use crate::flow::front::names;
use crate::model::directives::Directives;
use rustc_hash::FxHashMap;
use silica_affine::canonicalize::{canonicalize_map, compose_map};
use silica_affine::for_op::{body, bounds, induction_var, is_for, step, Bound};
use silica_affine::loops::{
    add_iter_args, constant_trip_count, create, create_apply, create_op, iter_args,
    loops_post_order, terminator, NewOp,
};
use silica_affine::value_map::difference;
use silica_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId, TypeKind, ValueDef, ValueId};
use std::collections::BTreeSet;

mod warm;

/// The loads of one array in a loop, each with the offset of its element
/// along the moving subscript (and the loop's stores of it).
struct Window {
    memref: ValueId,
    loads: Vec<(OpId, i64)>,
    /// The loads directly in the body (made in every iteration); the
    /// others are under `affine.if`s.
    direct: BTreeSet<OpId>,
    /// How far the moving subscript advances per iteration.
    advance: i64,
    /// The stores of the array in the body (after all its loads), each
    /// with its offset: the element a store writes at offset `s` is the
    /// next iteration's offset `s - advance`, whose register takes the
    /// stored value.
    stores: Vec<(OpId, i64)>,
}

impl Window {
    fn offsets(&self) -> BTreeSet<i64> {
        self.loads.iter().map(|&(_, o)| o).collect()
    }

    /// The offsets whose value the iteration before already has.
    fn carried(&self) -> Vec<i64> {
        let all = self.offsets();
        all.iter()
            .copied()
            .filter(|o| all.contains(&(o + self.advance)))
            .collect()
    }

    /// The offsets that enter the window each iteration: those the
    /// next iteration's registers take their values from.
    fn entering(&self) -> Vec<i64> {
        let carried = self.carried();
        let mut out: Vec<i64> = carried
            .iter()
            .map(|o| o + self.advance)
            .filter(|e| !carried.contains(e))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The value the last store at offset `o` writes, if one does.
    fn stored_at(&self, ir: &Ir, o: i64) -> Option<ValueId> {
        self.stores
            .iter()
            .rev()
            .find(|&&(_, x)| x == o)
            .map(|&(st, _)| ir.operand(st, 0))
    }

    /// The loads of the element at offset `o`, in program order.
    fn loads_at(&self, o: i64) -> Vec<OpId> {
        self.loads
            .iter()
            .filter(|&&(_, x)| x == o)
            .map(|&(l, _)| l)
            .collect()
    }

    /// A load of the element at offset `o` made in every iteration.
    fn direct_at(&self, o: i64) -> Option<OpId> {
        self.loads_at(o)
            .into_iter()
            .find(|l| self.direct.contains(l))
    }

    /// The loads an iteration makes fewer: every carried offset's, and
    /// all but one of each entering offset's.
    fn saved(&self) -> usize {
        let carried = self.carried();
        let at_carried = self
            .loads
            .iter()
            .filter(|(_, o)| carried.contains(o))
            .count();
        let merged: usize = self
            .entering()
            .iter()
            .map(|&e| self.loads_at(e).len().saturating_sub(1))
            .sum();
        at_carried + merged
    }
}

/// Loads of one array whose subscripts differ by constants: the first
/// one's subscripts, the position that moves (with how far per
/// iteration), and the loads with their offsets along it.
type Group = (Bound, Option<(usize, i64)>, Vec<(OpId, i64)>);

/// The subscripts of the `affine.load` or `affine.store` `op`, composed
/// with the `affine.apply` ops that feed them.
pub(super) fn subscripts(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Option<Bound> {
    let map = match ctx.attr_kind(inherent_attr(ctx, ir, op, "map")?) {
        AttrKind::AffineMap(m) => m.clone(),
        _ => return None,
    };
    // A store's value and memref, a load's memref, before the subscripts.
    let first = if ctx.str(ir.op_name(op)) == "affine.store" {
        2
    } else {
        1
    };
    let operands: Vec<ValueId> = ir.operands(op).skip(first).collect();
    let (map, operands) = compose_map(ctx, ir, &map, &operands);
    let (map, operands) = canonicalize_map(ctx, ir, &map, &operands);
    Some(Bound { map, operands })
}

/// Whether `m` names a memory no other value names: an argument of the
/// function or an allocation.
pub(super) fn distinct_memory(ctx: &Context, ir: &Ir, m: ValueId) -> bool {
    match ir.value_def(m) {
        ValueDef::Argument { block, .. } => ir
            .block_region(block)
            .and_then(|r| ir.region_op(r))
            .is_some_and(|f| ctx.str(ir.op_name(f)) == "func.func"),
        _ => ir.defining_op(m).is_some_and(|d| {
            matches!(
                ctx.str(ir.op_name(d)),
                "memref.alloc" | "memref.alloca" | "memref.get_global"
            )
        }),
    }
}

/// Whether `v` is defined in the loop `lp` (its induction variable,
/// `iter_args` or an op of its body).
pub(super) fn defined_in(ir: &Ir, lp: OpId, v: ValueId) -> bool {
    match ir.value_def(v) {
        ValueDef::Argument { block, .. } => ir
            .block_region(block)
            .and_then(|r| ir.region_op(r))
            .is_some_and(|o| ir.is_ancestor(lp, o)),
        _ => ir.defining_op(v).is_some_and(|d| ir.is_ancestor(lp, d)),
    }
}

/// The constants of a map without dims or symbols left, if it is one.
fn constants(map: &AffineMap) -> Option<Vec<i64>> {
    map.results
        .iter()
        .map(|e| match e {
            AffineExpr::Constant(c) => Some(*c),
            _ => None,
        })
        .collect()
}

/// `b` with the induction variable `iv` advanced by `s`.
fn advanced(b: &Bound, iv: ValueId, s: i64) -> Bound {
    let nd = b.map.num_dims as usize;
    let shift = |e: AffineExpr, v: ValueId| {
        if v == iv {
            e.plus(AffineExpr::Constant(s))
        } else {
            e
        }
    };
    let dims: Vec<AffineExpr> = (0..nd)
        .map(|i| shift(AffineExpr::Dim(i as u32), b.operands[i]))
        .collect();
    let syms: Vec<AffineExpr> = (0..b.map.num_symbols as usize)
        .map(|j| shift(AffineExpr::Symbol(j as u32), b.operands[nd + j]))
        .collect();
    Bound {
        map: AffineMap {
            num_dims: b.map.num_dims,
            num_symbols: b.map.num_symbols,
            results: b
                .map
                .results
                .iter()
                .map(|e| e.replace(&dims, &syms))
                .collect(),
        },
        operands: b.operands.clone(),
    }
}

/// Whether `op` is in the body of the loop `lp`, directly or under
/// `affine.if`s only.
fn under_ifs(ctx: &Context, ir: &Ir, lp: OpId, op: OpId) -> bool {
    let mut at = ir.parent_op(op);
    while let Some(p) = at {
        if p == lp {
            return true;
        }
        if ctx.str(ir.op_name(p)) != "affine.if" {
            return false;
        }
        at = ir.parent_op(p);
    }
    false
}

/// The windows of the loads of `memref` in the loop `lp`: all its uses
/// in the loop must be `affine.load`s in the body, directly or under
/// `affine.if`s. Loads whose
/// subscripts differ by constants in the one position that moves with
/// the induction variable (and nowhere else) form a window: a row of a
/// 2-D stencil. Groups never share registers, so two groups
/// reading one element (possible: nothing in the loop writes the array)
/// each have it.
fn windows_of(
    ctx: &mut Context,
    ir: &mut Ir,
    lp: OpId,
    memref: ValueId,
    warm: bool,
) -> Vec<Window> {
    let (Some(block), Some(iv)) = (body(ir, lp), induction_var(ir, lp)) else {
        return Vec::new();
    };
    if defined_in(ir, lp, memref) || !distinct_memory(ctx, ir, memref) {
        return Vec::new();
    }
    // A global may be named by other values (and written by calls).
    if ir
        .defining_op(memref)
        .is_some_and(|d| ctx.str(ir.op_name(d)) == "memref.get_global")
    {
        return Vec::new();
    }
    let mut loads = Vec::new();
    let mut stores = Vec::new();
    let mut direct = BTreeSet::new();
    for u in ir.uses(memref) {
        let owner = ir.use_owner(u);
        if !ir.is_ancestor(lp, owner) {
            continue;
        }
        // Stores of the element, directly in the body (under `affine.if`s
        // too with warm-up iterations), with the memref as their memref
        // operand (not as the value stored).
        if ctx.str(ir.op_name(owner)) == "affine.store"
            && (ir.op_block(owner) == Some(block) || warm && under_ifs(ctx, ir, lp, owner))
            && ir.operand(owner, 1) == memref
            && ir.operand(owner, 0) != memref
        {
            stores.push(owner);
            continue;
        }
        if ctx.str(ir.op_name(owner)) != "affine.load" || !under_ifs(ctx, ir, lp, owner) {
            return Vec::new();
        }
        if ir.op_block(owner) == Some(block) {
            direct.insert(owner);
        }
        loads.push(owner);
    }
    let mut order = FxHashMap::default();
    ir.walk(lp, &mut |o| {
        let n = order.len();
        order.insert(o, n);
    });
    loads.sort_by_key(|l| order.get(l).copied());
    stores.sort_by_key(|l| order.get(l).copied());
    // Every load (or the `if` holding it) comes before every store in
    // the body: a load after a store would read the stored value (with
    // warm-up iterations, `warm.rs` orders them per offset).
    if let Some(&first) = stores.first().filter(|_| !warm) {
        let top = |o: OpId| {
            let mut a = o;
            while ir.op_block(a) != Some(block) {
                a = ir.parent_op(a).unwrap_or(a);
            }
            a
        };
        let before = |a: OpId, b: OpId| {
            let mut at = ir.next_op(a);
            while let Some(o) = at {
                if o == b {
                    return true;
                }
                at = ir.next_op(o);
            }
            false
        };
        if loads.iter().any(|&l| !before(top(l), first)) {
            return Vec::new();
        }
    }
    let s = step(ctx, ir, lp);
    let mut groups: Vec<Group> = Vec::new();
    for l in loads {
        let Some(b) = subscripts(ctx, ir, l) else {
            return Vec::new();
        };
        if b.operands.iter().any(|&v| v != iv && defined_in(ir, lp, v)) {
            return Vec::new();
        }
        let mut placed = false;
        for (first, moving, members) in groups.iter_mut() {
            let Some(d) = constants(&difference(ctx, ir, &b, first).map) else {
                continue;
            };
            let at = moving.map(|(p, _)| p);
            if d.len() == first.map.results.len()
                && (0..d.len()).all(|q| Some(q) == at || d[q] == 0)
            {
                members.push((l, at.map_or(0, |p| d[p])));
                placed = true;
                break;
            }
        }
        if !placed {
            let next = advanced(&b, iv, s);
            let delta = constants(&difference(ctx, ir, &next, &b).map).unwrap_or_default();
            let nonzero: Vec<usize> = (0..delta.len()).filter(|&p| delta[p] != 0).collect();
            let moving = match nonzero.as_slice() {
                &[p] => Some((p, delta[p])),
                _ => None,
            };
            groups.push((b, moving, vec![(l, 0)]));
        }
    }
    // With stores, every store belongs to a group with a moving subscript
    // (its element at a known offset), and any two groups differ by
    // constants (in a position that does not move, so they never touch
    // the same element).
    let mut written: Vec<Vec<(OpId, i64)>> = vec![Vec::new(); groups.len()];
    if !stores.is_empty() {
        for &st in &stores {
            let Some(b) = subscripts(ctx, ir, st) else {
                return Vec::new();
            };
            if b.operands.iter().any(|&v| v != iv && defined_in(ir, lp, v)) {
                return Vec::new();
            }
            let mut placed = false;
            for (g, (first, moving, _)) in groups.iter().enumerate() {
                let Some((p, _)) = *moving else { continue };
                let Some(d) = constants(&difference(ctx, ir, &b, first).map) else {
                    continue;
                };
                if d.len() == first.map.results.len() && (0..d.len()).all(|q| q == p || d[q] == 0) {
                    written[g].push((st, d[p]));
                    placed = true;
                    break;
                }
            }
            if !placed {
                return Vec::new();
            }
        }
        for a in 0..groups.len() {
            for b in a + 1..groups.len() {
                if constants(&difference(ctx, ir, &groups[a].0, &groups[b].0).map).is_none() {
                    return Vec::new();
                }
            }
        }
    }
    let mut out = Vec::new();
    for ((_, moving, loads), stores) in groups.into_iter().zip(written) {
        let Some((_, advance)) = moving else { continue };
        let direct = loads
            .iter()
            .map(|&(l, _)| l)
            .filter(|l| direct.contains(l))
            .collect();
        let w = Window {
            memref,
            loads,
            direct,
            advance,
            stores,
        };
        if !w.carried().is_empty() && (!warm || warm::ordered(ir, lp, &w)) {
            out.push(w);
        }
    }
    out
}

/// The windows of the innermost loop `lp`, if it is one the rewrite
/// applies to (a trip count that is not a constant below two, one lower
/// bound, no DMA transfer or wait in it: a wait in the loop would make
/// the elements loaded before the loop stale).
fn windows(ctx: &mut Context, ir: &mut Ir, lp: OpId, warm: bool) -> Vec<Window> {
    let mut nested = false;
    ir.walk(lp, &mut |o| {
        nested |= o != lp
            && matches!(
                ctx.str(ir.op_name(o)),
                "affine.for"
                    | "scf.for"
                    | "scf.while"
                    | "affine.parallel"
                    | "affine.dma_start"
                    | "affine.dma_wait"
                    | "memref.dma_start"
                    | "memref.dma_wait"
            );
    });
    let single_lower = bounds(ctx, ir, lp).is_some_and(|(lb, _)| lb.map.results.len() == 1);
    if nested || !single_lower || constant_trip_count(ctx, ir, lp).is_some_and(|t| t < 2) {
        return Vec::new();
    }
    let mut memrefs = Vec::new();
    ir.walk(lp, &mut |o| {
        if ctx.str(ir.op_name(o)) == "affine.load" {
            let m = ir.operand(o, 0);
            if !memrefs.contains(&m) {
                memrefs.push(m);
            }
        }
    });
    // Another value naming a memory (a view, a cast) may alias any array.
    let mut views = false;
    ir.walk(lp, &mut |o| {
        for v in ir.operands(o) {
            let ty = ir.value_type(v);
            views |= matches!(ctx.type_kind(ty), TypeKind::MemRef { .. })
                && !distinct_memory(ctx, ir, v);
        }
    });
    if views {
        return Vec::new();
    }
    memrefs
        .into_iter()
        .flat_map(|m| windows_of(ctx, ir, lp, m, warm))
        .collect()
}

/// Inserts `load` before `before` and gives its value to every use of
/// `loads`, which are erased.
fn take_over(ir: &mut Ir, load: OpId, before: OpId, loads: Vec<OpId>) -> ValueId {
    ir.insert_op_before(before, load);
    let v = ir.result(load, 0);
    for l in loads {
        ir.replace_all_uses(ir.result(l, 0), v);
        ir.erase_op(l);
    }
    v
}

/// A detached `affine.load` of `memref` at `at`.
fn create_load(
    ctx: &mut Context,
    ir: &mut Ir,
    memref: ValueId,
    at: &Bound,
    result: silica_ir::Type,
    loc: silica_ir::Attr,
) -> OpId {
    let map = ctx.intern_attr(AttrKind::AffineMap(at.map.clone()));
    let mut operands = vec![memref];
    operands.extend(&at.operands);
    create(
        ctx,
        ir,
        "affine.load",
        &operands,
        &[result],
        vec![("map", map)],
        loc,
    )
}

/// A detached zero constant of type `ty`.
pub(super) fn zero(
    ctx: &mut Context,
    ir: &mut Ir,
    ty: silica_ir::Type,
    loc: silica_ir::Attr,
) -> OpId {
    let value = match ctx.float_kind(ty) {
        Some(_) => ctx.intern_attr(AttrKind::Float { ty, bits: 0 }),
        None => ctx.int_attr(ty, 0),
    };
    create(
        ctx,
        ir,
        "arith.constant",
        &[],
        &[ty],
        vec![("value", value)],
        loc,
    )
}

/// A detached `affine.if` that loads `memref` at `at` where every
/// subscript is within the shape, and gives zero where one is not.
fn create_guarded_load(
    ctx: &mut Context,
    ir: &mut Ir,
    memref: ValueId,
    at: &Bound,
    result: silica_ir::Type,
    loc: silica_ir::Attr,
) -> Option<OpId> {
    let shape = match ctx.type_kind(ir.value_type(memref)) {
        TypeKind::MemRef { shape, .. } => shape.clone(),
        _ => return None,
    };
    let mut constraints = Vec::new();
    for (e, &n) in at.map.results.iter().zip(shape.iter()) {
        constraints.push(e.clone());
        constraints.push(AffineExpr::Constant(n - 1).minus(e.clone()));
    }
    let set = IntegerSet {
        num_dims: at.map.num_dims,
        num_symbols: at.map.num_symbols,
        eq: vec![false; constraints.len()].into(),
        constraints: constraints.into(),
    };
    let branch = |ir: &mut Ir| {
        let region = ir.create_region();
        let block = ir.create_block();
        ir.append_block(region, block);
        (region, block)
    };
    let (then_region, then_block) = branch(ir);
    let load = create_load(ctx, ir, memref, at, result, loc);
    ir.append_op(then_block, load);
    let loaded = ir.result(load, 0);
    let yield_then = create(ctx, ir, "affine.yield", &[loaded], &[], vec![], loc);
    ir.append_op(then_block, yield_then);
    let (else_region, else_block) = branch(ir);
    let zero = zero(ctx, ir, result, loc);
    ir.append_op(else_block, zero);
    let zero = ir.result(zero, 0);
    let yield_else = create(ctx, ir, "affine.yield", &[zero], &[], vec![], loc);
    ir.append_op(else_block, yield_else);
    let condition = ctx.intern_attr(AttrKind::IntegerSet(set));
    Some(create_op(
        ctx,
        ir,
        NewOp {
            name: "affine.if",
            operands: &at.operands,
            result_types: &[result],
            regions: &[then_region, else_region],
            props: vec![("condition", condition)],
            loc,
        },
    ))
}

/// A detached load of `memref` at `at` like the load `like`, guarded
/// (see [`create_guarded_load`]) if `guard`.
fn load_like(
    ctx: &mut Context,
    ir: &mut Ir,
    memref: ValueId,
    at: &Bound,
    like: OpId,
    guard: bool,
) -> Option<OpId> {
    let ty = ir.value_type(ir.result(like, 0));
    let loc = ir.op_loc(like);
    if guard {
        create_guarded_load(ctx, ir, memref, at, ty, loc)
    } else {
        Some(create_load(ctx, ir, memref, at, ty, loc))
    }
}

/// Loads each entering offset of `w` once at the top of the body of
/// `lp`, where it is loaded under an `if` or more than once, and makes
/// its loads read that value; the value of each entering offset.
fn load_entering(
    ctx: &mut Context,
    ir: &mut Ir,
    lp: OpId,
    w: &Window,
) -> Option<FxHashMap<i64, ValueId>> {
    let top = ir.first_op(body(ir, lp)?)?;
    let mut values = FxHashMap::default();
    for e in w.entering() {
        let loads = w.loads_at(e);
        let direct = w.direct_at(e);
        let value = match (loads.as_slice(), direct) {
            (&[only], Some(_)) => ir.result(only, 0),
            _ => {
                let like = *loads.first()?;
                let at = subscripts(ctx, ir, like)?;
                let load = load_like(ctx, ir, w.memref, &at, like, direct.is_none())?;
                take_over(ir, load, top, loads)
            }
        };
        values.insert(e, value);
    }
    Some(values)
}

/// Rewrites the loop `lp` (of constant trip count `trip`, if it has one)
/// for its `windows`; the new loop (the old one is replaced, its
/// directives move over).
fn rewrite(
    ctx: &mut Context,
    ir: &mut Ir,
    lp: OpId,
    windows: &[Window],
    trip: Option<u64>,
    d: &mut Directives,
) -> Option<OpId> {
    let iv = induction_var(ir, lp)?;
    let (lower, _) = bounds(ctx, ir, lp)?;
    let loc = ir.op_loc(lp);
    let start = create_apply(ctx, ir, lower.map, &lower.operands, loc);
    ir.insert_op_before(lp, start);
    let start = ir.result(start, 0);
    // The first iteration's elements, loaded before the loop: guarded
    // unless the first iteration surely loads them.
    let mut inits = Vec::new();
    for w in windows {
        for o in w.carried() {
            let (like, guard) = match w.direct_at(o) {
                Some(l) => (l, trip.is_none()),
                None => (*w.loads_at(o).first()?, true),
            };
            let mut at = subscripts(ctx, ir, like)?;
            for v in at.operands.iter_mut().filter(|v| **v == iv) {
                *v = start;
            }
            let first = load_like(ctx, ir, w.memref, &at, like, guard)?;
            ir.insert_op_before(lp, first);
            inits.push(ir.result(first, 0));
        }
    }
    let entering: Vec<FxHashMap<i64, ValueId>> = windows
        .iter()
        .map(|w| load_entering(ctx, ir, lp, w))
        .collect::<Option<_>>()?;
    add_registers(ctx, ir, lp, windows, &entering, &inits, true, d)
}

/// Replaces `lp` by a loop carrying one register per carried offset of
/// each window (starting as `inits`, in order): a load of a carried
/// element reads its register, and each register takes the next
/// iteration's element from a store of it in the body (where
/// `forward_stores`), the register after it, or the `entering` load. The
/// new loop keeps `lp`'s attributes and directives.
#[allow(clippy::too_many_arguments)]
fn add_registers(
    ctx: &mut Context,
    ir: &mut Ir,
    lp: OpId,
    windows: &[Window],
    entering: &[FxHashMap<i64, ValueId>],
    inits: &[ValueId],
    forward_stores: bool,
    d: &mut Directives,
) -> Option<OpId> {
    let attrs = ir.op_attrs(lp);
    let new = add_iter_args(ctx, ir, lp, inits, &[])?;
    ir.set_op_attrs(new, attrs);
    let args = iter_args(ir, new);
    let mut args = args[args.len() - inits.len()..].iter().copied();
    let mut yields = Vec::new();
    for (w, entering) in windows.iter().zip(entering) {
        let carried = w.carried();
        let regs: Vec<ValueId> = carried.iter().map(|_| args.next()).collect::<Option<_>>()?;
        let reg = |o: i64| carried.iter().position(|&c| c == o).map(|i| regs[i]);
        for &o in &carried {
            let next = o + w.advance;
            let stored = w.stored_at(ir, next).filter(|_| forward_stores);
            yields.push(match (stored, reg(next)) {
                (Some(v), _) => v,
                (None, Some(r)) => r,
                (None, None) => *entering.get(&next)?,
            });
        }
        for &(l, o) in &w.loads {
            if let Some(r) = reg(o) {
                ir.replace_all_uses(ir.result(l, 0), r);
                ir.erase_op(l);
            }
        }
    }
    let terminator = terminator(ir, new)?;
    let mut operands: Vec<ValueId> = ir.operands(terminator).collect();
    operands.extend(yields);
    ir.set_operands(terminator, &operands);
    if let Some(l) = d.loops.remove(&lp) {
        d.loops.insert(new, l);
    }
    if let Some(p) = d.loop_paths.remove(&lp) {
        d.loop_paths.insert(new, p);
    }
    Some(new)
}

/// The ports of each array of `func` the directives give (one unless
/// `ports` says otherwise); `None` for a partitioned array, whose banks
/// the flow decides later.
pub(in crate::flow::front) fn port_counts(
    ctx: &Context,
    ir: &Ir,
    func: OpId,
    top: &str,
    d: &Directives,
) -> FxHashMap<ValueId, Option<u32>> {
    let (_, arrays) = names::collect(ctx, ir, func, top);
    let args = ir
        .regions(func)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map(|b| ir.block_args(b).to_vec())
        .unwrap_or_default();
    let mut out = FxHashMap::default();
    for a in arrays {
        let value = match (a.arg, a.alloc) {
            (Some(i), _) => args.get(i).copied(),
            (None, Some(op)) => ir.results(op).next(),
            (None, None) => None,
        };
        let Some(v) = value else { continue };
        let ports = match d.arrays.get(&a.name) {
            Some(ad) if ad.partition.is_some() => None,
            Some(ad) => Some(ad.ports.as_ref().map_or(1, |p| p.value.max(1))),
            None => Some(1),
        };
        out.insert(v, ports);
    }
    out
}

/// The bound the memory ports put on the II of `lp` (accesses per
/// iteration over ports, the largest over its arrays), with `removed`
/// loads of some arrays taken away. Partitioned arrays are left out.
pub(in crate::flow::front) fn port_bound(
    ctx: &Context,
    ir: &Ir,
    lp: OpId,
    ports: &FxHashMap<ValueId, Option<u32>>,
    removed: &FxHashMap<ValueId, usize>,
) -> usize {
    let mut accesses: FxHashMap<ValueId, usize> = FxHashMap::default();
    ir.walk(lp, &mut |o| {
        let m = match ctx.str(ir.op_name(o)) {
            "affine.load" | "memref.load" => ir.operand(o, 0),
            "affine.store" | "memref.store" => ir.operand(o, 1),
            _ => return,
        };
        *accesses.entry(m).or_default() += 1;
    });
    accesses
        .into_iter()
        .filter_map(|(m, n)| {
            let p = ports.get(&m).copied().unwrap_or(Some(1))? as usize;
            Some((n - removed.get(&m).copied().unwrap_or(0)).div_ceil(p))
        })
        .max()
        .unwrap_or(0)
}

/// Carries loaded values across the iterations of the innermost loops of
/// `func`; a note saying, per rewritten loop, how many loads an
/// iteration makes before and after, if any loop was rewritten.
pub fn carry(
    ctx: &mut Context,
    ir: &mut Ir,
    func: OpId,
    top: &str,
    d: &mut Directives,
) -> Option<String> {
    let ports = port_counts(ctx, ir, func, top, d);
    let (copies, _) = names::collect(ctx, ir, func, top);
    let mut done = Vec::new();
    for lp in loops_post_order(ctx, ir, func) {
        if !is_for(ctx, ir, lp) || ir.is_erased(lp) {
            continue;
        }
        // A nest `flatten` folds takes no code between its loops: no
        // loads before the loop, warm-up iterations instead (`warm.rs`).
        let mut outer = ir.parent_op(lp);
        let mut flattened = false;
        while let Some(o) = outer {
            flattened |= d
                .loops
                .get(&o)
                .and_then(|l| l.flatten.as_ref())
                .is_some_and(|f| f.value);
            outer = ir.parent_op(o);
        }
        if flattened && !warm::eligible(ctx, ir, lp) {
            continue;
        }
        let ws: Vec<Window> = windows(ctx, ir, lp, flattened)
            .into_iter()
            .filter(|w| ports.get(&w.memref).is_some_and(|p| p.is_some()))
            .collect();
        let mut removed: FxHashMap<ValueId, usize> = FxHashMap::default();
        for w in &ws {
            *removed.entry(w.memref).or_default() += w.saved();
        }
        // The loads before the loop lengthen every entry of it: worth it
        // only where the ports bound the II and carrying lowers that bound.
        let none = FxHashMap::default();
        if ws.is_empty()
            || port_bound(ctx, ir, lp, &ports, &removed) >= port_bound(ctx, ir, lp, &ports, &none)
        {
            continue;
        }
        let mut before = 0;
        ir.walk(lp, &mut |o| {
            before += usize::from(ctx.str(ir.op_name(o)) == "affine.load");
        });
        let carried: usize = ws.iter().map(|w| w.carried().len()).sum();
        let after = before - removed.values().sum::<usize>();
        // A copy that unrolling made has no path in the input: its path
        // in the flow's copy, as the report's loops have it.
        let path = d
            .loop_paths
            .get(&lp)
            .or_else(|| copies.iter().find(|l| l.op == lp).map(|l| &l.path))
            .cloned()
            .unwrap_or_default();
        let trip = constant_trip_count(ctx, ir, lp);
        if flattened {
            if let Some(w) = warm::rewrite(ctx, ir, func, lp, &ws, d) {
                let plural = if w == 1 { "" } else { "s" };
                done.push(format!(
                    "{path}: {before} -> {after} loads per iteration, {carried} element(s) carried, {w} warm-up iteration{plural} instead of loads before the loop"
                ));
            }
        } else if rewrite(ctx, ir, lp, &ws, trip, d).is_some() {
            done.push(format!(
                "{path}: {before} -> {after} loads per iteration, {carried} element(s) carried"
            ));
        }
    }
    (!done.is_empty()).then(|| {
        format!(
            "loads carried across iterations (rotating registers): {}",
            done.join("; ")
        )
    })
}
