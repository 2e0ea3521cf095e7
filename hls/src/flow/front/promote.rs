//! Scalar promotion: an element a loop reads and writes at an address
//! that does not move with the loop (gesummv's `tmp[i] += A[i][j] *
//! x[j]` in the `j` loop) is held in a register across the loop instead
//! of going through memory in every iteration. Through memory the
//! load, the addition and the store form a recurrence of at least two
//! cycles (the II of a pipelined loop); in a register only the
//! addition is left, and the loop makes two accesses fewer per
//! iteration. Nothing is reassociated (the body's operations stay in
//! their order), so floating-point elements are promoted too.
//!
//! For an `affine.for`, an array (a function argument or an allocation,
//! no view of it in the loop) whose accesses in the loop include loads
//! and stores of one element whose subscripts do not depend on the loop,
//! all directly in its body (made in every iteration), is promoted when
//! every other access of the array in the loop touches another element
//! at every iteration: the affine dependence analysis' system of the
//! two accesses with the loops around the loop equal must be empty.
//! The element becomes an `iter_arg`: its first value is loaded before
//! the loop, the loads in the body read the value the body last stored
//! (or the `iter_arg`), the body yields it and it is stored after the
//! loop. Where the code just before the loop stores the element (with
//! no access of the array in between), that value is the initial one
//! and the store goes (the one after the loop overwrites it); loads of
//! the element just after the loop read the result, and the store after
//! the loop goes where a store of the element follows with no other
//! access in between. So a nest of `flatten` keeps no load before its
//! inner loop. Loops are taken innermost first, so an element promoted
//! out of an inner loop may be promoted out of the loop around it.
//!
//! A loop whose trip count is not a constant (a triangular loop, `k <
//! i`) may run no iteration; the promoted loop then loads the element
//! and stores the same value back, which changes nothing provided the
//! address is within the array. That holds where a store just before
//! the loop writes the element (it is accessed anyway), or where the
//! affine analysis proves it: the iteration domain of the loops around
//! the loop, with one subscript below zero or past its extent, has no
//! integer point. Otherwise the element stays in memory. A loop of
//! constant trip count zero is left alone.

use super::carry::{defined_in, distinct_memory, subscripts};
use crate::model::directives::Directives;
use silica_affine::dependence::{
    accesses_of, enclosing_loop_ivs, iteration_domain, pair_system, MemoryAccess,
};
use silica_affine::for_op::{body, is_for};
use silica_affine::loops::{
    add_iter_args, constant_trip_count, create, iter_args, loops_post_order, terminator,
};
use silica_affine::presburger::Int;
use silica_affine::value_map::difference;
use silica_ir::affine::AffineExpr;
use silica_ir::dialect::set_inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId, TypeKind, ValueId};

/// One promotable element of a loop: its array and the loads and stores
/// of it in the body, in order.
struct Element {
    memref: ValueId,
    accesses: Vec<OpId>,
}

fn is_load(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.str(ir.op_name(op)) == "affine.load"
}

/// The array an `affine.load` or `affine.store` accesses.
fn memref_of(ctx: &Context, ir: &Ir, op: OpId) -> Option<ValueId> {
    match ctx.str(ir.op_name(op)) {
        "affine.load" => Some(ir.operand(op, 0)),
        "affine.store" => Some(ir.operand(op, 1)),
        _ => None,
    }
}

/// Whether the affine accesses `a` and `b` touch the same element at
/// every point (their composed subscripts differ by zero).
fn same_element(ctx: &mut Context, ir: &mut Ir, a: OpId, b: OpId) -> bool {
    if memref_of(ctx, ir, a) != memref_of(ctx, ir, b) {
        return false;
    }
    let (Some(x), Some(y)) = (subscripts(ctx, ir, a), subscripts(ctx, ir, b)) else {
        return false;
    };
    x.map.results.len() == y.map.results.len()
        && difference(ctx, ir, &x, &y)
            .map
            .results
            .iter()
            .all(|e| *e == AffineExpr::Constant(0))
}

/// Whether the affine accesses `a` and `b` of one array touch different
/// elements at every point (a subscript differs by a constant other than
/// zero: the copies of an unrolled or jammed body).
fn other_element(ctx: &mut Context, ir: &mut Ir, a: OpId, b: OpId) -> bool {
    if memref_of(ctx, ir, a) != memref_of(ctx, ir, b) {
        return false;
    }
    let (Some(x), Some(y)) = (subscripts(ctx, ir, a), subscripts(ctx, ir, b)) else {
        return false;
    };
    x.map.results.len() == y.map.results.len()
        && difference(ctx, ir, &x, &y)
            .map
            .results
            .iter()
            .any(|e| matches!(e, AffineExpr::Constant(c) if *c != 0))
}

/// Whether `a` and `b` (accesses of one array) may touch the same element
/// at some iterations with the `outer` loops around both equal; `true`
/// where the analysis cannot tell.
fn may_alias(a: &MemoryAccess, b: &MemoryAccess, outer: usize) -> bool {
    let mut p = pair_system(a, b);
    let width = p.system.num_cols();
    for i in 0..outer {
        let mut row = vec![Int::ZERO; width];
        row[p.src_cols[i]] = Int::from(-1);
        row[p.dst_cols[i]] = Int::ONE;
        p.system.add_equality_int(row);
    }
    !p.system.is_empty()
}

/// The one access of the load or store `op`, if the analysis has it.
fn access(ctx: &Context, ir: &Ir, op: OpId) -> Option<MemoryAccess> {
    accesses_of(ctx, ir, op).ok()?.into_iter().next()
}

/// The ops under `lp` that use a memref and are not affine loads or
/// stores of it, or that have effects the analysis cannot see (calls,
/// transfers); or a memref value that may be a view of another array.
fn opaque(ctx: &Context, ir: &Ir, lp: OpId) -> bool {
    let mut found = false;
    ir.walk(lp, &mut |o| {
        let name = ctx.str(ir.op_name(o));
        found |= matches!(
            name,
            "func.call"
                | "func.call_indirect"
                | "affine.dma_start"
                | "affine.dma_wait"
                | "memref.dma_start"
                | "memref.dma_wait"
        );
        for (i, v) in ir.operands(o).enumerate() {
            if !matches!(ctx.type_kind(ir.value_type(v)), TypeKind::MemRef { .. }) {
                continue;
            }
            let direct = match name {
                "affine.load" => i == 0,
                "affine.store" => i == 1,
                _ => false,
            };
            found |= !direct || !distinct_memory(ctx, ir, v);
        }
    });
    found
}

/// Whether the element the access `op` (at subscripts invariant in the
/// loop `lp`) touches is within its array's static shape at every
/// iteration of the loops around `lp`: the domain of those loops with a
/// subscript below zero or past its extent is empty, so the element may
/// be loaded and stored back where `lp` runs no iteration.
fn in_bounds(ctx: &mut Context, ir: &mut Ir, lp: OpId, op: OpId, memref: ValueId) -> bool {
    let shape = match ctx.type_kind(ir.value_type(memref)) {
        TypeKind::MemRef { shape, .. } => shape.clone(),
        _ => return false,
    };
    let Some(at) = subscripts(ctx, ir, op) else {
        return false;
    };
    if shape.len() != at.map.results.len() || shape.iter().any(|&n| n < 0) {
        return false;
    }
    let Ok((mut domain, _)) = iteration_domain(ctx, ir, lp) else {
        return false;
    };
    let Ok(rows) = domain.map_rows(ctx, ir, op, &at.map, &at.operands) else {
        return false;
    };
    let last = domain.system.num_cols() - 1;
    let outside = |row: &[Int], extent: i64| {
        // row <= -1, that is -row - 1 >= 0; row >= extent, row - extent >= 0.
        let mut below: Vec<Int> = row.iter().map(|v| -v).collect();
        below[last] = &below[last] - &Int::ONE;
        let mut above = row.to_vec();
        above[last] = &above[last] - &Int::from(extent);
        [below, above]
    };
    rows.iter().zip(&shape).all(|(row, &n)| {
        outside(row, n).into_iter().all(|r| {
            let mut s = domain.system.clone();
            s.add_inequality_int(r);
            s.is_empty()
        })
    })
}

/// The elements of the loop `lp` to promote; where `lp` may run no
/// iteration, only those accessed in bounds then (see [`in_bounds`]).
fn elements(ctx: &mut Context, ir: &mut Ir, lp: OpId, may_be_empty: bool) -> Vec<Element> {
    let Some(block) = body(ir, lp) else {
        return Vec::new();
    };
    if opaque(ctx, ir, lp) {
        return Vec::new();
    }
    let mut all: Vec<OpId> = Vec::new();
    ir.walk(lp, &mut |o| {
        if matches!(ctx.str(ir.op_name(o)), "affine.load" | "affine.store") {
            all.push(o);
        }
    });
    let direct: Vec<OpId> = ir
        .block_ops(block)
        .filter(|&o| matches!(ctx.str(ir.op_name(o)), "affine.load" | "affine.store"))
        .collect();
    // The loops around `lp`, the first columns of its accesses' domains.
    let outer = enclosing_loop_ivs(ctx, ir, lp).len();
    let mut out: Vec<Element> = Vec::new();
    for &s in &direct {
        if is_load(ctx, ir, s) || out.iter().any(|e| e.accesses.contains(&s)) {
            continue;
        }
        let Some(memref) = memref_of(ctx, ir, s) else {
            continue;
        };
        if defined_in(ir, lp, memref) || !distinct_memory(ctx, ir, memref) {
            continue;
        }
        let Some(at) = subscripts(ctx, ir, s) else {
            continue;
        };
        if at.operands.iter().any(|&v| defined_in(ir, lp, v)) {
            continue;
        }
        let same: Vec<OpId> = direct
            .iter()
            .copied()
            .filter(|&o| same_element(ctx, ir, o, s))
            .collect();
        if !same.iter().any(|&o| is_load(ctx, ir, o)) {
            continue;
        }
        if may_be_empty
            && store_before(ctx, ir, lp, s, memref).is_none()
            && !in_bounds(ctx, ir, lp, s, memref)
        {
            continue;
        }
        let Some(this) = access(ctx, ir, s) else {
            continue;
        };
        let others: Vec<OpId> = all
            .iter()
            .copied()
            .filter(|&o| memref_of(ctx, ir, o) == Some(memref) && !same.contains(&o))
            .collect();
        let apart = others
            .iter()
            .all(|&o| access(ctx, ir, o).is_some_and(|other| !may_alias(&this, &other, outer)));
        if apart {
            out.push(Element {
                memref,
                accesses: same,
            });
        }
    }
    out
}

/// The op before `lp` in its block that stores `like`'s element, with
/// nothing touching the array in between but loads and stores of other
/// elements (a jammed body's copies store their elements one after
/// another).
fn store_before(
    ctx: &mut Context,
    ir: &mut Ir,
    lp: OpId,
    like: OpId,
    memref: ValueId,
) -> Option<OpId> {
    let mut at = ir.prev_op(lp);
    while let Some(o) = at {
        if ctx.str(ir.op_name(o)) == "affine.store" && same_element(ctx, ir, o, like) {
            return Some(o);
        }
        let elsewhere = matches!(ctx.str(ir.op_name(o)), "affine.load" | "affine.store")
            && other_element(ctx, ir, o, like);
        if !elsewhere && touches(ctx, ir, o, memref) {
            return None;
        }
        at = ir.prev_op(o);
    }
    None
}

/// Whether `op` or an op inside it uses `memref` or has effects the
/// analysis cannot see.
fn touches(ctx: &Context, ir: &Ir, op: OpId, memref: ValueId) -> bool {
    let mut found = false;
    ir.walk(op, &mut |o| {
        found |= ir.operands(o).any(|v| v == memref)
            || matches!(ctx.str(ir.op_name(o)), "func.call" | "func.call_indirect");
    });
    found
}

/// After the promoted loop: loads of the element read `value` (until
/// something else touches the array); the store `store` goes where a
/// store of the element follows first.
fn forward_after(ctx: &mut Context, ir: &mut Ir, store: OpId, memref: ValueId, value: ValueId) {
    let mut at = ir.next_op(store);
    while let Some(o) = at {
        let next = ir.next_op(o);
        let name = ctx.str(ir.op_name(o)).to_string();
        if name == "affine.load" && same_element(ctx, ir, o, store) {
            ir.replace_all_uses(ir.result(o, 0), value);
            ir.erase_op(o);
        } else if name == "affine.store" && same_element(ctx, ir, o, store) {
            ir.erase_op(store);
            return;
        } else if touches(ctx, ir, o, memref) {
            return;
        }
        at = next;
    }
}

/// Promotes the elements `es` of the loop `lp`; the new loop (its
/// directives move over).
fn rewrite(
    ctx: &mut Context,
    ir: &mut Ir,
    lp: OpId,
    es: &[Element],
    d: &mut Directives,
) -> Option<OpId> {
    let mut inits = Vec::new();
    for e in es {
        let like = e.accesses[0];
        let init = match store_before(ctx, ir, lp, like, e.memref) {
            Some(s) => {
                let v = ir.operand(s, 0);
                ir.erase_op(s);
                v
            }
            None => {
                let at = subscripts(ctx, ir, like)?;
                let ty = match ctx.type_kind(ir.value_type(e.memref)) {
                    TypeKind::MemRef { element, .. } => *element,
                    _ => return None,
                };
                let map = ctx.intern_attr(AttrKind::AffineMap(at.map.clone()));
                let mut operands = vec![e.memref];
                operands.extend(&at.operands);
                let loc = ir.op_loc(like);
                let load = create(
                    ctx,
                    ir,
                    "affine.load",
                    &operands,
                    &[ty],
                    vec![("map", map)],
                    loc,
                );
                ir.insert_op_before(lp, load);
                ir.result(load, 0)
            }
        };
        inits.push(init);
    }
    let attrs = ir.op_attrs(lp);
    let new = add_iter_args(ctx, ir, lp, &inits, &[])?;
    ir.set_op_attrs(new, attrs);
    let args = iter_args(ir, new);
    let regs = &args[args.len() - es.len()..];
    let mut yields = Vec::new();
    for (e, &reg) in es.iter().zip(regs) {
        let mut current = reg;
        for &a in &e.accesses {
            if is_load(ctx, ir, a) {
                ir.replace_all_uses(ir.result(a, 0), current);
            } else {
                current = ir.operand(a, 0);
            }
        }
        yields.push(current);
    }
    let results: Vec<ValueId> = ir.results(new).collect();
    let results = &results[results.len() - es.len()..];
    let mut after = new;
    for (e, &r) in es.iter().zip(results) {
        // A store of the body, moved after the loop with the result.
        let Some(&last) = e.accesses.iter().rev().find(|&&a| !is_load(ctx, ir, a)) else {
            continue;
        };
        // Its subscripts as the loop's invariant operands give them: an
        // index computed in the body has no value after a loop that ran
        // no iteration.
        let at = subscripts(ctx, ir, last)?;
        for &a in &e.accesses {
            if a != last {
                ir.erase_op(a);
            }
        }
        ir.detach_op(last);
        ir.insert_op_after(after, last);
        let mut operands = vec![r, e.memref];
        operands.extend(&at.operands);
        ir.set_operands(last, &operands);
        let map = ctx.intern_attr(AttrKind::AffineMap(at.map));
        set_inherent_attr(ctx, ir, last, "map", map);
        after = last;
    }
    let terminator = terminator(ir, new)?;
    let mut operands: Vec<ValueId> = ir.operands(terminator).collect();
    operands.extend(yields);
    ir.set_operands(terminator, &operands);
    for (e, &r) in es.iter().zip(results) {
        let store = *e.accesses.iter().rev().find(|&&a| !is_load(ctx, ir, a))?;
        forward_after(ctx, ir, store, e.memref, r);
    }
    if let Some(l) = d.loops.remove(&lp) {
        d.loops.insert(new, l);
    }
    if let Some(p) = d.loop_paths.remove(&lp) {
        d.loop_paths.insert(new, p);
    }
    Some(new)
}

/// Promotes the elements read and written at addresses invariant in
/// the loops of `func`; a note saying, per rewritten loop, how many
/// elements, if any loop was rewritten.
pub fn promote(ctx: &mut Context, ir: &mut Ir, func: OpId, d: &mut Directives) -> Option<String> {
    let mut done = Vec::new();
    for lp in loops_post_order(ctx, ir, func) {
        if !is_for(ctx, ir, lp) || ir.is_erased(lp) {
            continue;
        }
        let trip = constant_trip_count(ctx, ir, lp);
        if trip.is_some_and(|t| t < 1) {
            continue;
        }
        let es = elements(ctx, ir, lp, trip.is_none());
        if es.is_empty() {
            continue;
        }
        let path = d.loop_paths.get(&lp).cloned().unwrap_or_default();
        let n = es.len();
        if rewrite(ctx, ir, lp, &es, d).is_some() {
            done.push(format!("{path}: {n} element(s)"));
        }
    }
    (!done.is_empty()).then(|| {
        format!(
            "read-modify-writes of loop-invariant elements held in registers (scalar promotion): {}",
            done.join("; ")
        )
    })
}
