//! What the loop transformations need beyond `crate::for_op`'s bounds,
//! step and body: a loop's iteration arguments, their initial values and
//! its terminator; single-bound replacement; small builders (ops with
//! properties, `affine.apply`, index constants); copies of ops under a
//! value mapping; and the post-order list of loops.

use crate::for_op::{body, bounds, is_for, set_bounds, step, Bound};
use rustc_hash::FxHashMap;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::format::segment_sizes;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, RegionId, ValueId};

/// The number of bound operands (MLIR's control operands).
pub fn num_control_operands(ctx: &Context, ir: &Ir, op: OpId) -> usize {
    segment_sizes(ctx, ir, op).map_or(0, |s| s.iter().take(2).sum())
}

/// The initial values of the loop's iteration arguments.
pub fn inits(ctx: &Context, ir: &Ir, op: OpId) -> Vec<ValueId> {
    let n = num_control_operands(ctx, ir, op);
    ir.operands(op).skip(n).collect()
}

/// The iteration arguments (the body's arguments after the induction
/// variable).
pub fn iter_args(ir: &Ir, op: OpId) -> Vec<ValueId> {
    body(ir, op).map_or_else(Vec::new, |b| {
        ir.block_args(b).get(1..).unwrap_or(&[]).to_vec()
    })
}

/// The body's terminator (its `affine.yield`).
pub fn terminator(ir: &Ir, op: OpId) -> Option<OpId> {
    ir.last_op(body(ir, op)?)
}

/// The lower bound of the loop `op`.
pub fn lower_bound(ctx: &Context, ir: &Ir, op: OpId) -> Option<Bound> {
    bounds(ctx, ir, op).map(|(lb, _)| lb)
}

/// The upper bound of the loop `op`.
pub fn upper_bound(ctx: &Context, ir: &Ir, op: OpId) -> Option<Bound> {
    bounds(ctx, ir, op).map(|(_, ub)| ub)
}

/// Replaces the lower bound of `op`.
pub fn set_lower_bound(ctx: &mut Context, ir: &mut Ir, op: OpId, lower: &Bound) {
    if let Some((_, upper)) = bounds(ctx, ir, op) {
        let s = step(ctx, ir, op);
        set_bounds(ctx, ir, op, lower, &upper, s);
    }
}

/// Replaces the upper bound of `op`.
pub fn set_upper_bound(ctx: &mut Context, ir: &mut Ir, op: OpId, upper: &Bound) {
    if let Some((lower, _)) = bounds(ctx, ir, op) {
        let s = step(ctx, ir, op);
        set_bounds(ctx, ir, op, &lower, upper, s);
    }
}

/// Replaces the step of `op`.
pub fn set_step(ctx: &mut Context, ir: &mut Ir, op: OpId, new_step: i64) {
    if let Some((lower, upper)) = bounds(ctx, ir, op) {
        set_bounds(ctx, ir, op, &lower, &upper, new_step);
    }
}

/// The parts of an op to create.
pub struct NewOp<'a> {
    pub name: &'a str,
    pub operands: &'a [ValueId],
    pub result_types: &'a [silica_ir::Type],
    pub regions: &'a [RegionId],
    /// Its properties (none when empty).
    pub props: Vec<(&'a str, Attr)>,
    pub loc: Attr,
}

/// Creates a detached op.
pub fn create_op(ctx: &mut Context, ir: &mut Ir, op: NewOp<'_>) -> OpId {
    let entries: Vec<_> = op.props.into_iter().map(|(k, v)| (ctx.sym(k), v)).collect();
    let props = (!entries.is_empty()).then(|| ctx.dict_attr(entries));
    let name = ctx.sym(op.name);
    let attrs = ctx.empty_dict();
    ir.create_op(OpSpec {
        name,
        loc: op.loc,
        operands: op.operands,
        result_types: op.result_types,
        successors: &[],
        regions: op.regions,
        attrs,
        props,
    })
}

/// Creates a detached op without regions.
pub fn create(
    ctx: &mut Context,
    ir: &mut Ir,
    name: &str,
    operands: &[ValueId],
    result_types: &[silica_ir::Type],
    props: Vec<(&str, Attr)>,
    loc: Attr,
) -> OpId {
    create_op(
        ctx,
        ir,
        NewOp {
            name,
            operands,
            result_types,
            regions: &[],
            props,
            loc,
        },
    )
}

/// A detached `affine.apply map(operands)`.
pub fn create_apply(
    ctx: &mut Context,
    ir: &mut Ir,
    map: AffineMap,
    operands: &[ValueId],
    loc: Attr,
) -> OpId {
    let index = ctx.index_type();
    let m = ctx.intern_attr(AttrKind::AffineMap(map));
    create(
        ctx,
        ir,
        "affine.apply",
        operands,
        &[index],
        vec![("map", m)],
        loc,
    )
}

/// A detached `arith.constant value : index`.
pub fn create_index_constant(ctx: &mut Context, ir: &mut Ir, value: i64, loc: Attr) -> OpId {
    let index = ctx.index_type();
    let v = ctx.int_attr(index, value);
    create(
        ctx,
        ir,
        "arith.constant",
        &[],
        &[index],
        vec![("value", v)],
        loc,
    )
}

/// `(d0) -> (d0 + offset)`
pub fn shift_map(offset: i64) -> AffineMap {
    AffineMap {
        num_dims: 1,
        num_symbols: 0,
        results: Box::new([AffineExpr::Dim(0).plus(AffineExpr::Constant(offset))]),
    }
}

/// A detached copy of `op` (as MLIR's `clone(op, mapping)`): uses of
/// values `map` renames are renamed in the copy and everything nested in
/// it, and the copy's results are recorded in `map` as the renaming of
/// `op`'s.
pub fn clone_mapped(ir: &mut Ir, op: OpId, map: &mut FxHashMap<ValueId, ValueId>) -> OpId {
    let new = ir.clone_op(op);
    let mut renamed = Vec::new();
    ir.walk(new, &mut |o| {
        for u in ir.operand_uses(o) {
            if let Some(&v) = map.get(&ir.use_value(u)) {
                renamed.push((u, v));
            }
        }
    });
    for (u, v) in renamed {
        ir.set_use(u, v);
    }
    let pairs: Vec<(ValueId, ValueId)> = ir.results(op).zip(ir.results(new)).collect();
    map.extend(pairs);
    new
}

/// The `affine.for` ops nested in `root` (itself included), inner loops
/// before the loops around them (MLIR's post-order walk).
pub fn loops_post_order(ctx: &Context, ir: &Ir, root: OpId) -> Vec<OpId> {
    // A pre-order walk that visits children last to first, reversed.
    let mut order = Vec::new();
    let mut stack = vec![root];
    while let Some(op) = stack.pop() {
        order.push(op);
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                stack.extend(ir.block_ops(b));
            }
        }
    }
    order.reverse();
    order.retain(|&op| is_for(ctx, ir, op));
    order
}
