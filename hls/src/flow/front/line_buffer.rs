//! Line buffers for stencils. A 2-D window over an array in a loop nest
//! (`O[i][j] = sum A[i + p][j + q] * W[p][q]` with the window's loops
//! unrolled, or jacobi-2d's five points) reads, in every iteration of
//! the inner loop, elements of several rows of `A`; `carry.rs` keeps
//! the columns a row shares with the next iteration in registers, but
//! each row still costs a load an iteration, so with one memory port the
//! rows set the II. Here the nest is turned around to read `A` once, in
//! order: the loops walk the rows and columns the window covers (`r`,
//! `c`), each iteration loads the one element `A[r][c]`, the rows above
//! it come from an on-chip line buffer (`A_lines`: a bank a row, two
//! ports, so each is read and rewritten in the same cycle) that the
//! iteration shifts up a row at column `c`, and the window itself is a
//! rectangle of registers (`iter_args` of the inner loop) that shifts
//! left a column an iteration. The body runs, under an `affine.if`, for
//! the iterations whose window is whole: `i = r - pmax`, `j = c - qmax`.
//!
//! A nest qualifies when: the inner loop is innermost and not asked not
//! to pipeline, both loops step by 1 from constant bounds with no
//! `iter_args`, the outer loop's body is the inner loop alone, the array
//! is a function argument or an allocation that the nest only loads,
//! every load of it in the nest sits directly in the inner body with one
//! subscript `i + p` and one `j + q` (`p`, `q` constants) and the others
//! the same expression of values from outside the nest, the window's
//! rows and columns lie within the array, and the window has two rows
//! or more whose loads (one a row an iteration, once `carry.rs` has
//! run) bound the II on the array's ports above what the other
//! memories' accesses do, so that reading the rows and columns the
//! window covers, one element an iteration, takes fewer cycles. Where
//! the array is the on-chip copy `buffer = true` made and nothing but
//! that copy's fill writes it, the nest reads the external memory
//! instead and the copy goes: each element then crosses the ports once,
//! as the copy would have it, without the copy's time before the nest.

use super::buffer::{create_if, is_copy_loop};
use super::carry::{defined_in, distinct_memory, port_bound, port_counts, subscripts, zero};
use super::directives::{set_attr, write_array_attrs};
use super::names;
use crate::model::directives::{
    ArrayDirectives, Directives, Origin, Partition, PartitionKind, Partitioning, Pipeline, Setting,
};
use rustc_hash::FxHashMap;
use silica_affine::for_op::{
    body, body_ops, bounds, induction_var, is_for, set_bounds, step, Bound,
};
use silica_affine::loops::{
    add_iter_args, create, create_apply, iter_args, loops_post_order, shift_map, terminator,
};
use silica_ir::affine::{AffineExpr, AffineMap, IntegerSet};
use silica_ir::affine_flatten::flatten_linear;
use silica_ir::dialect::inherent_attr;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Type, TypeKind, ValueDef, ValueId};
use std::collections::BTreeSet;

/// Marks the `affine.if` around the body: the lifter records the work
/// under it as guarded (`WindowGuard`), for the roofline's count.
pub const WINDOW_GUARD: &str = "hls.window";

/// A load of the window: the op and its offsets from `(i, j)`.
struct Tap {
    load: OpId,
    row: i64,
    col: i64,
}

/// A window over one array in a nest.
struct Window {
    memref: ValueId,
    /// The subscripts of the element at `(i, j)` itself (offsets zero).
    at: Bound,
    /// Which subscripts move with the outer and the inner loop.
    row_dim: usize,
    col_dim: usize,
    taps: Vec<Tap>,
}

impl Window {
    fn rows(&self) -> (i64, i64) {
        let rows = self.taps.iter().map(|t| t.row);
        (rows.clone().min().unwrap_or(0), rows.max().unwrap_or(0))
    }

    fn cols(&self) -> (i64, i64) {
        let cols = self.taps.iter().map(|t| t.col);
        (cols.clone().min().unwrap_or(0), cols.max().unwrap_or(0))
    }

    fn distinct_rows(&self) -> usize {
        self.taps
            .iter()
            .map(|t| t.row)
            .collect::<BTreeSet<_>>()
            .len()
    }
}

/// A nest of two loops: the outer (`i`) and the inner (`j`) loop, and
/// their constant bounds.
struct Nest {
    outer: OpId,
    inner: OpId,
    i: (i64, i64),
    j: (i64, i64),
}

/// The nest whose inner loop is `inner`, if it has the form a line
/// buffer takes.
fn nest_of(ctx: &Context, ir: &Ir, inner: OpId, d: &Directives) -> Option<Nest> {
    let outer = ir.parent_op(inner).filter(|&o| is_for(ctx, ir, o))?;
    let off = |l: OpId| {
        d.loops
            .get(&l)
            .and_then(|ld| ld.pipeline.as_ref())
            .is_some_and(|p| p.value == Pipeline::Off)
    };
    if off(inner) {
        return None;
    }
    let mut nested = false;
    for op in body_ops(ir, inner) {
        ir.walk(op, &mut |o| {
            nested |= is_for(ctx, ir, o) || ctx.str(ir.op_name(o)) == "scf.for";
        });
    }
    let alone = body_ops(ir, outer) == [inner];
    let plain = |l: OpId| ir.results(l).next().is_none() && step(ctx, ir, l) == 1;
    if nested || !alone || !plain(outer) || !plain(inner) {
        return None;
    }
    let constant = |l: OpId| {
        let (lb, ub) = bounds(ctx, ir, l)?;
        Some((lb.as_constant()?, ub.as_constant()?)).filter(|(a, b)| a < b)
    };
    Some(Nest {
        outer,
        inner,
        i: constant(outer)?,
        j: constant(inner)?,
    })
}

/// How one subscript of a load moves with the nest's counters.
#[derive(PartialEq)]
enum Subscript {
    Row(i64),
    Col(i64),
    /// Invariant in the nest: its coefficients on the outside values and
    /// its constant.
    Fixed(Vec<(ValueId, i64)>, i64),
}

/// The subscripts of the load `load`, read against the nest's counters
/// `(iv_i, iv_j)`, and its subscripts composed.
fn classify(
    ctx: &mut Context,
    ir: &mut Ir,
    nest: &Nest,
    ivs: (ValueId, ValueId),
    load: OpId,
) -> Option<(Vec<Subscript>, Bound)> {
    let b = subscripts(ctx, ir, load)?;
    let (nd, ns) = (b.map.num_dims, b.map.num_symbols);
    let mut out = Vec::new();
    for e in b.map.results.iter() {
        let coefficients = flatten_linear(e, nd, ns)?;
        let (mut ci, mut cj) = (0, 0);
        let mut rest = Vec::new();
        for (k, &v) in b.operands.iter().enumerate() {
            let c = coefficients[k];
            if c == 0 {
                continue;
            }
            if v == ivs.0 {
                ci = c;
            } else if v == ivs.1 {
                cj = c;
            } else if defined_in(ir, nest.outer, v) {
                return None;
            } else {
                rest.push((v, c));
            }
        }
        let constant = *coefficients.last()?;
        out.push(match (ci, cj, rest.is_empty()) {
            (1, 0, true) => Subscript::Row(constant),
            (0, 1, true) => Subscript::Col(constant),
            (0, 0, _) => {
                rest.sort_unstable_by_key(|&(v, _)| v);
                Subscript::Fixed(rest, constant)
            }
            _ => return None,
        });
    }
    Some((out, b))
}

/// The window of `memref` in `nest`, if every access of it in the nest
/// is a load of the window's form.
fn window_of(ctx: &mut Context, ir: &mut Ir, nest: &Nest, memref: ValueId) -> Option<Window> {
    let ivs = (
        induction_var(ir, nest.outer)?,
        induction_var(ir, nest.inner)?,
    );
    let inner_body = body(ir, nest.inner)?;
    let users: Vec<OpId> = ir.uses(memref).map(|u| ir.use_owner(u)).collect();
    let mut taps = Vec::new();
    let mut shape: Option<(Vec<Subscript>, usize, usize, Bound)> = None;
    for op in users {
        if !ir.is_ancestor(nest.outer, op) {
            continue;
        }
        let direct = ir.op_block(op) == Some(inner_body);
        if ctx.str(ir.op_name(op)) != "affine.load" || !direct {
            return None;
        }
        let (subs, b) = classify(ctx, ir, nest, ivs, op)?;
        let row_dim = subs.iter().position(|s| matches!(s, Subscript::Row(_)))?;
        let col_dim = subs.iter().position(|s| matches!(s, Subscript::Col(_)))?;
        let count = |f: fn(&Subscript) -> bool| subs.iter().filter(|s| f(s)).count();
        if count(|s| matches!(s, Subscript::Row(_))) != 1
            || count(|s| matches!(s, Subscript::Col(_))) != 1
        {
            return None;
        }
        let (Subscript::Row(row), Subscript::Col(col)) = (&subs[row_dim], &subs[col_dim]) else {
            return None;
        };
        taps.push(Tap {
            load: op,
            row: *row,
            col: *col,
        });
        let fixed = |s: &[Subscript]| -> Vec<(usize, bool)> {
            (s.iter().enumerate())
                .map(|(k, x)| (k, matches!(x, Subscript::Fixed(..))))
                .collect()
        };
        match &shape {
            None => shape = Some((subs, row_dim, col_dim, b)),
            Some((first, r, c, _)) => {
                let same_fixed = fixed(first) == fixed(&subs)
                    && first.iter().zip(&subs).all(|(a, b)| match (a, b) {
                        (Subscript::Fixed(..), Subscript::Fixed(..)) => a == b,
                        _ => true,
                    });
                if *r != row_dim || *c != col_dim || !same_fixed {
                    return None;
                }
            }
        }
    }
    let (subs, row_dim, col_dim, b) = shape?;
    // The element at (i, j): the row and column subscripts without
    // their offsets.
    let position = |v: ValueId| {
        let k = b.operands.iter().position(|&o| o == v)?;
        let nd = b.map.num_dims as usize;
        Some(if k < nd {
            AffineExpr::Dim(k as u32)
        } else {
            AffineExpr::Symbol((k - nd) as u32)
        })
    };
    let mut results: Vec<AffineExpr> = b.map.results.to_vec();
    results[row_dim] = position(ivs.0)?;
    results[col_dim] = position(ivs.1)?;
    debug_assert_eq!(subs.len(), results.len());
    let at = Bound {
        map: AffineMap {
            num_dims: b.map.num_dims,
            num_symbols: b.map.num_symbols,
            results: results.into(),
        },
        operands: b.operands,
    };
    Some(Window {
        memref,
        at,
        row_dim,
        col_dim,
        taps,
    })
}

/// The external memory an on-chip copy `memref` was filled from, where
/// the copy's only other accesses are that fill (stores of loads of the
/// memory, in the copy loops or around them, outside `nest`).
fn filled_from(ctx: &Context, ir: &Ir, memref: ValueId, outer: OpId) -> Option<ValueId> {
    ir.defining_op(memref)
        .filter(|&a| ctx.str(ir.op_name(a)) == "memref.alloc")?;
    let mut source = None;
    for u in ir.uses(memref) {
        let op = ir.use_owner(u);
        if ir.is_ancestor(outer, op) {
            continue;
        }
        if ctx.str(ir.op_name(op)) != "affine.store" || ir.operand(op, 1) != memref {
            return None;
        }
        let load = ir
            .defining_op(ir.operand(op, 0))
            .filter(|&l| ctx.str(ir.op_name(l)) == "affine.load")?;
        let from = ir.operand(load, 0);
        let argument = matches!(ir.value_def(from), ValueDef::Argument { .. });
        if !argument || source.is_some_and(|s| s != from) {
            return None;
        }
        source = Some(from);
    }
    source
}

/// The element type and shape of a memref value.
fn memref_type(ctx: &Context, ir: &Ir, m: ValueId) -> Option<(Type, Vec<i64>)> {
    match ctx.type_kind(ir.value_type(m)) {
        TypeKind::MemRef { shape, element, .. } => Some((*element, shape.to_vec())),
        _ => None,
    }
}

fn map_attr(ctx: &mut Context, map: AffineMap) -> Attr {
    ctx.intern_attr(AttrKind::AffineMap(map))
}

/// `(d0) -> (row, d0 - origin)`: a line buffer's element at column `d0`.
fn line_map(row: i64, origin: i64) -> AffineMap {
    AffineMap {
        num_dims: 1,
        num_symbols: 0,
        results: vec![
            AffineExpr::Constant(row),
            AffineExpr::Dim(0).plus(AffineExpr::Constant(-origin)),
        ]
        .into(),
    }
}

/// What a line buffer for `w` in `nest`, reading `source`, needs.
struct Plan<'a> {
    nest: &'a Nest,
    w: &'a Window,
    source: ValueId,
    name: String,
}

/// Rewrites the nest of `plan` (see the module doc); the note.
fn rewrite(
    ctx: &mut Context,
    ir: &mut Ir,
    func: OpId,
    plan: &Plan<'_>,
    d: &mut Directives,
) -> Option<String> {
    let Plan {
        nest, w, source, ..
    } = *plan;
    let (element, _) = memref_type(ctx, ir, source)?;
    hoist_invariant(ctx, ir, nest);
    let ((pmin, pmax), (qmin, qmax)) = (w.rows(), w.cols());
    let (kh, kw) = (pmax - pmin + 1, qmax - qmin + 1);
    let (r0, r1) = (nest.i.0 + pmin, nest.i.1 + pmax);
    let (c0, c1) = (nest.j.0 + qmin, nest.j.1 + qmax);
    let loc = ir.op_loc(nest.inner);
    let iv_i = induction_var(ir, nest.outer)?;
    let iv_j = induction_var(ir, nest.inner)?;

    // The body's i and j, from the counters of the rows and columns read.
    let ai = create_apply(ctx, ir, shift_map(-pmax), &[iv_i], loc);
    let aj = create_apply(ctx, ir, shift_map(-qmax), &[iv_j], loc);
    let (i, j) = (ir.result(ai, 0), ir.result(aj, 0));
    ir.replace_all_uses(iv_i, i);
    ir.replace_all_uses(iv_j, j);
    ir.set_operands(ai, &[iv_i]);
    ir.set_operands(aj, &[iv_j]);
    set_bounds(
        ctx,
        ir,
        nest.outer,
        &Bound::constant(r0),
        &Bound::constant(r1),
        1,
    );
    set_bounds(
        ctx,
        ir,
        nest.inner,
        &Bound::constant(c0),
        &Bound::constant(c1),
        1,
    );

    // The window's registers: every column but the newest, row by row.
    let registers = (kh * (kw - 1)) as usize;
    let old_body: Vec<OpId> = body_ops(ir, nest.inner);
    let inner = if registers > 0 {
        let z = zero(ctx, ir, element, loc);
        ir.insert_op_before(nest.outer, z);
        let inits = vec![ir.result(z, 0); registers];
        let attrs = ir.op_attrs(nest.inner);
        let new = add_iter_args(ctx, ir, nest.inner, &inits, &[])?;
        ir.set_op_attrs(new, attrs);
        if let Some(l) = d.loops.remove(&nest.inner) {
            d.loops.insert(new, l);
        }
        if let Some(p) = d.loop_paths.remove(&nest.inner) {
            d.loop_paths.insert(new, p);
        }
        new
    } else {
        nest.inner
    };
    let regs = iter_args(ir, inner);
    let end = terminator(ir, inner)?;

    // The line buffer: a row of the columns read per row above the newest.
    let lines_name = format!("{}_lines", plan.name);
    let lines_type = ctx.intern_type(TypeKind::MemRef {
        shape: vec![kh - 1, c1 - c0].into(),
        element,
        layout: None,
        memory_space: None,
    });
    let seg = ctx.int_array_attr(32, &[0, 0]);
    let alloc = create(
        ctx,
        ir,
        "memref.alloc",
        &[],
        &[lines_type],
        vec![("operandSegmentSizes", seg)],
        loc,
    );
    let entry = ir.regions(func).next().and_then(|r| ir.entry_block(r))?;
    let first = ir.first_op(entry)?;
    ir.insert_op_before(first, alloc);
    let name_attr = ctx.string_attr(lines_name.as_bytes());
    set_attr(ctx, ir, alloc, "hls.name", name_attr);
    let fn_loc = ir.op_loc(func);
    let mut own = ArrayDirectives {
        ports: Some(Setting::new(2, fn_loc, Origin::Derived)),
        ..ArrayDirectives::default()
    };
    if kh > 2 {
        let complete = Partition {
            dim: 1,
            kind: PartitionKind::Complete,
            factor: 0,
        };
        own.partition = Some(Setting::new(
            Partitioning::one(complete),
            fn_loc,
            Origin::Derived,
        ));
    }
    write_array_attrs(ctx, ir, alloc, &own);
    d.arrays.insert(lines_name.clone(), own);
    let lines = ir.result(alloc, 0);

    // The newest element, the rows above it, and the rows shifted up.
    let before = old_body.first().copied().unwrap_or(end);
    let mut at_operands = vec![source];
    at_operands.extend(&w.at.operands);
    let at_map = map_attr(ctx, w.at.map.clone());
    let newest = create(
        ctx,
        ir,
        "affine.load",
        &at_operands,
        &[element],
        vec![("map", at_map)],
        ir.op_loc(w.taps[0].load),
    );
    ir.insert_op_before(before, newest);
    let mut column = Vec::new();
    for p in 0..kh - 1 {
        let map = map_attr(ctx, line_map(p, c0));
        let l = create(
            ctx,
            ir,
            "affine.load",
            &[lines, iv_j],
            &[element],
            vec![("map", map)],
            loc,
        );
        ir.insert_op_before(before, l);
        column.push(ir.result(l, 0));
    }
    column.push(ir.result(newest, 0));
    for p in 0..kh - 1 {
        let map = map_attr(ctx, line_map(p, c0));
        let operands = [column[p as usize + 1], lines, iv_j];
        let s = create(
            ctx,
            ir,
            "affine.store",
            &operands,
            &[],
            vec![("map", map)],
            loc,
        );
        ir.insert_op_before(before, s);
    }
    let window = |p: i64, q: i64| -> ValueId {
        if q == kw - 1 {
            column[p as usize]
        } else {
            regs[(p * (kw - 1) + q) as usize]
        }
    };

    // The body, where the window is whole.
    let mut constraints = vec![AffineExpr::Dim(0).plus(AffineExpr::Constant(-(r0 + kh - 1)))];
    if kw > 1 {
        constraints.push(AffineExpr::Dim(1).plus(AffineExpr::Constant(-(c0 + kw - 1))));
    }
    let eq = vec![false; constraints.len()].into();
    let set = IntegerSet {
        num_dims: 2,
        num_symbols: 0,
        constraints: constraints.into(),
        eq,
    };
    let (guard, then_end) = create_if(ctx, ir, set, &[iv_i, iv_j], loc);
    ir.insert_op_before(end, guard);
    let unit = ctx.unit_attr();
    set_attr(ctx, ir, guard, WINDOW_GUARD, unit);
    ir.insert_op_before(then_end, ai);
    ir.insert_op_before(then_end, aj);
    for &op in &old_body {
        ir.move_op_before(op, then_end);
    }
    for t in &w.taps {
        let v = window(t.row - pmin, t.col - qmin);
        ir.replace_all_uses(ir.result(t.load, 0), v);
        ir.erase_op(t.load);
    }
    let mut yields = Vec::new();
    for p in 0..kh {
        for q in 0..kw - 1 {
            yields.push(window(p, q + 1));
        }
    }
    ir.set_operands(end, &yields);
    let mut note = format!(
        "{kh} rows x {kw} columns of {}, read once in order: {} rows of {} in {lines_name}, the window in {} registers",
        plan.name,
        kh - 1,
        c1 - c0,
        kh * kw
    );
    if source != w.memref {
        drop_copy(ctx, ir, func, w.memref);
        note.push_str(", from the external memory (its on-chip copy is not made)");
    }
    Some(note)
}

/// Moves the code of the inner loop's body that does not vary with the
/// nest (pure operations and loads of memories the nest does not write,
/// on values from outside the nest) before the nest, so that it stays
/// out of the guard and out of the pipeline: a stencil's weights are
/// loaded once. Every op of the body ran in every iteration of the
/// input, which runs at least one, so the loads are within bounds.
fn hoist_invariant(ctx: &Context, ir: &mut Ir, nest: &Nest) {
    for op in invariant(ctx, ir, nest) {
        ir.move_op_before(op, nest.outer);
    }
}

/// The ops of the inner loop's body, in order, that [`hoist_invariant`]
/// moves.
fn invariant(ctx: &Context, ir: &Ir, nest: &Nest) -> Vec<OpId> {
    let read_only = |m: ValueId| {
        ir.uses(m).all(|u| {
            let o = ir.use_owner(u);
            !ir.is_ancestor(nest.outer, o)
                || matches!(ctx.str(ir.op_name(o)), "affine.load" | "memref.load")
        })
    };
    let mut out: Vec<OpId> = Vec::new();
    for op in body_ops(ir, nest.inner) {
        let name = ctx.str(ir.op_name(op));
        let movable = match name {
            "affine.load" | "memref.load" => read_only(ir.operand(op, 0)),
            _ => name.starts_with("arith.") || name.starts_with("math.") || name == "affine.apply",
        };
        let invariant = ir.operands(op).all(|v| {
            !defined_in(ir, nest.outer, v) || ir.defining_op(v).is_some_and(|d| out.contains(&d))
        });
        if movable && invariant && ir.regions(op).next().is_none() {
            out.push(op);
        }
    }
    out
}

/// Erases the on-chip copy `copy` (its fill and allocation) and the copy
/// loops its fill leaves with nothing to do.
fn drop_copy(ctx: &mut Context, ir: &mut Ir, func: OpId, copy: ValueId) {
    let stores: Vec<OpId> = ir.uses(copy).map(|u| ir.use_owner(u)).collect();
    for s in stores {
        let value = ir.operand(s, 0);
        ir.erase_op(s);
        if let Some(load) = ir.defining_op(value).filter(|_| !ir.has_uses(value)) {
            ir.erase_op(load);
        }
    }
    if let Some(alloc) = ir.defining_op(copy).filter(|_| !ir.has_uses(copy)) {
        ir.erase_op(alloc);
    }
    let Some(entry) = ir.regions(func).next().and_then(|r| ir.entry_block(r)) else {
        return;
    };
    let loops: Vec<OpId> = (ir.block_ops(entry))
        .filter(|&o| is_for(ctx, ir, o) && is_copy_loop(ctx, ir, o))
        .collect();
    for l in loops {
        if !has_effects(ctx, ir, l) {
            ir.erase_op(l);
        } else {
            shorten(ctx, ir, l);
        }
    }
}

/// Whether `op` reads or writes memory or calls.
fn has_effects(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    let mut effects = false;
    ir.walk(op, &mut |o| {
        effects |= matches!(
            ctx.str(ir.op_name(o)),
            "affine.load" | "affine.store" | "memref.load" | "memref.store" | "func.call"
        );
    });
    effects
}

/// Ends the copy loop `l` where the copies left in it end: where each
/// sits under an `affine.if` on `d0 <= K` (a memory of fewer words than
/// the loop had steps for), the loop needs to run only to the largest
/// `K`.
fn shorten(ctx: &mut Context, ir: &mut Ir, l: OpId) {
    let mut end = i64::MIN;
    for op in body_ops(ir, l) {
        if !has_effects(ctx, ir, op) {
            continue;
        }
        let set = match inherent_attr(ctx, ir, op, "condition").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::IntegerSet(s)) if ctx.str(ir.op_name(op)) == "affine.if" => s.clone(),
            _ => return,
        };
        match (set.constraints.iter().zip(set.eq.iter())).collect::<Vec<_>>()[..] {
            [(e, false)] => match flatten_linear(e, set.num_dims, set.num_symbols).as_deref() {
                Some(&[-1, k]) => end = end.max(k + 1),
                _ => return,
            },
            _ => return,
        }
    }
    let Some((lower, upper)) = bounds(ctx, ir, l) else {
        return;
    };
    if upper
        .as_constant()
        .is_some_and(|u| end > i64::MIN && end < u)
    {
        set_bounds(ctx, ir, l, &lower, &Bound::constant(end), step(ctx, ir, l));
    }
}

/// Puts a line buffer in every nest of `func` (named `top`) where the
/// module doc says it pays; a note per nest.
pub fn line_buffer(
    ctx: &mut Context,
    ir: &mut Ir,
    func: OpId,
    top: &str,
    d: &mut Directives,
) -> Option<String> {
    let (_, arrays) = names::collect(ctx, ir, func, top);
    let mut done = Vec::new();
    for lp in loops_post_order(ctx, ir, func) {
        if !is_for(ctx, ir, lp) || ir.is_erased(lp) {
            continue;
        }
        let Some(nest) = nest_of(ctx, ir, lp, d) else {
            continue;
        };
        let port_map = port_counts(ctx, ir, func, top, d);
        let mut memrefs: Vec<ValueId> = (body_ops(ir, nest.inner).into_iter())
            .filter(|&o| ctx.str(ir.op_name(o)) == "affine.load")
            .map(|o| ir.operand(o, 0))
            .collect();
        memrefs.sort_unstable();
        memrefs.dedup();
        let mut best: Option<(Window, ValueId, u32)> = None;
        for m in memrefs {
            if !distinct_memory(ctx, ir, m) {
                continue;
            }
            let Some(w) = window_of(ctx, ir, &nest, m) else {
                continue;
            };

            let source = filled_from(ctx, ir, m, nest.outer).unwrap_or(m);
            let Some(Some(p)) = port_map.get(&source).copied() else {
                continue;
            };
            if best
                .as_ref()
                .is_none_or(|(b, _, _)| w.taps.len() > b.taps.len())
            {
                best = Some((w, source, p));
            }
        }
        let Some((w, source, ports)) = best else {
            continue;
        };
        let Some((_, shape)) = memref_type(ctx, ir, source) else {
            continue;
        };
        let ((pmin, pmax), (qmin, qmax)) = (w.rows(), w.cols());
        let inside =
            |lo: i64, hi: i64, dim: usize| lo >= 0 && shape.get(dim).is_some_and(|&s| hi <= s);
        let rows_read = (nest.i.0 + pmin, nest.i.1 + pmax);
        let cols_read = (nest.j.0 + qmin, nest.j.1 + qmax);
        if !inside(rows_read.0, rows_read.1, w.row_dim)
            || !inside(cols_read.0, cols_read.1, w.col_dim)
        {
            continue;
        }
        // Iterations at the II the rows' loads (one a row, once carried)
        // and the other memories' accesses set, against the window's
        // reading of every element once at the II the others set.
        let rows = w.distinct_rows() as i64;
        let ii = (rows as u64).div_ceil(u64::from(ports.max(1))) as i64;
        // The window's loads go, and the invariant loads move out.
        let mut removed = FxHashMap::from_iter([(w.memref, w.taps.len())]);
        for op in invariant(ctx, ir, &nest) {
            if matches!(ctx.str(ir.op_name(op)), "affine.load" | "memref.load") {
                *removed.entry(ir.operand(op, 0)).or_default() += 1;
            }
        }
        let others = port_bound(ctx, ir, nest.inner, &port_map, &removed).max(1) as i64;
        let trips = (nest.i.1 - nest.i.0) * (nest.j.1 - nest.j.0);
        let read = (rows_read.1 - rows_read.0) * (cols_read.1 - cols_read.0);
        if rows < 2 || read * others >= trips * ii.max(others) {
            continue;
        }
        let name = (arrays.iter())
            .find(|a| {
                a.arg.is_some_and(|k| {
                    let entry = ir.regions(func).next().and_then(|r| ir.entry_block(r));
                    entry.is_some_and(|b| ir.block_args(b).get(k) == Some(&source))
                }) || a
                    .alloc
                    .is_some_and(|o| ir.results(o).next() == Some(source))
            })
            .map_or_else(|| "array".to_string(), |a| a.name.clone());
        let path = d.loop_paths.get(&nest.outer).cloned().unwrap_or_default();
        let plan = Plan {
            nest: &nest,
            w: &w,
            source,
            name,
        };
        if let Some(note) = rewrite(ctx, ir, func, &plan, d) {
            done.push(format!("{path}: {note}"));
        }
    }
    (!done.is_empty()).then(|| format!("line buffers for stencils: {}", done.join("; ")))
}
