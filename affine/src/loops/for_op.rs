//! Reading and rewriting the parts of an `affine.for`: its bound maps and
//! their operands, step, induction variable, iteration arguments, body and
//! terminator; and the small builders the loop transformations share
//! (`affine.apply`, index constants, copies of ops under a value mapping).

use crate::bounds::{bound_map, step};
use rustc_hash::FxHashMap;
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::set_inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::{Attr, AttrKind, BlockId, Context, Ir, OpId, OpSpec, RegionId, ValueId};

pub(crate) const FOR: &str = "affine.for";
const LOWER: &str = "lowerBoundMap";
const UPPER: &str = "upperBoundMap";

/// Whether `op` is an `affine.for`.
pub fn is_for(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.str(ir.op_name(op)) == FOR
}

/// A bound: its map and the operands the map applies to.
#[derive(Clone, Debug)]
pub struct Bound {
    pub map: AffineMap,
    pub operands: Vec<ValueId>,
}

/// The operand group sizes of an `affine.for` (lower, upper, inits).
fn groups(ctx: &Context, ir: &Ir, op: OpId) -> Option<(usize, usize, usize)> {
    let sizes = segment_sizes(ctx, ir, op)?;
    Some((*sizes.first()?, *sizes.get(1)?, *sizes.get(2)?))
}

/// The lower bound of the loop `op`.
pub fn lower_bound(ctx: &Context, ir: &Ir, op: OpId) -> Option<Bound> {
    let (nl, _, _) = groups(ctx, ir, op)?;
    Some(Bound {
        map: bound_map(ctx, ir, op, LOWER)?,
        operands: ir.operands(op).take(nl).collect(),
    })
}

/// The upper bound of the loop `op`.
pub fn upper_bound(ctx: &Context, ir: &Ir, op: OpId) -> Option<Bound> {
    let (nl, nu, _) = groups(ctx, ir, op)?;
    Some(Bound {
        map: bound_map(ctx, ir, op, UPPER)?,
        operands: ir.operands(op).skip(nl).take(nu).collect(),
    })
}

/// The number of bound operands (MLIR's control operands).
pub fn num_control_operands(ctx: &Context, ir: &Ir, op: OpId) -> usize {
    groups(ctx, ir, op).map_or(0, |(nl, nu, _)| nl + nu)
}

/// The initial values of the loop's iteration arguments.
pub fn inits(ctx: &Context, ir: &Ir, op: OpId) -> Vec<ValueId> {
    let n = num_control_operands(ctx, ir, op);
    ir.operands(op).skip(n).collect()
}

/// The loop's step (1 when unreadable).
pub fn loop_step(ctx: &Context, ir: &Ir, op: OpId) -> i64 {
    step(ctx, ir, op).unwrap_or(1)
}

/// The loop body.
pub fn body(ir: &Ir, op: OpId) -> Option<BlockId> {
    ir.entry_block(ir.regions(op).next()?)
}

/// The induction variable.
pub fn induction_var(ir: &Ir, op: OpId) -> Option<ValueId> {
    ir.block_args(body(ir, op)?).first().copied()
}

/// The iteration arguments (the body's arguments after the induction
/// variable).
pub fn iter_args(ir: &Ir, op: OpId) -> Vec<ValueId> {
    body(ir, op).map_or_else(Vec::new, |b| ir.block_args(b)[1..].to_vec())
}

/// The body's terminator (its `affine.yield`).
pub fn terminator(ir: &Ir, op: OpId) -> Option<OpId> {
    ir.last_op(body(ir, op)?)
}

/// The loop's constant lower and upper bounds, when both are one constant.
pub fn constant_bounds(ctx: &Context, ir: &Ir, op: OpId) -> Option<(i64, i64)> {
    let lb = single_constant(&bound_map(ctx, ir, op, LOWER)?)?;
    let ub = single_constant(&bound_map(ctx, ir, op, UPPER)?)?;
    Some((lb, ub))
}

/// The constant of a map with one constant result.
pub fn single_constant(m: &AffineMap) -> Option<i64> {
    match &*m.results {
        [AffineExpr::Constant(c)] => Some(*c),
        _ => None,
    }
}

/// Rewrites the operand list and group sizes of `op` from its parts.
fn store(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    lower: &Bound,
    upper: &Bound,
    inits: &[ValueId],
) {
    let mut operands = lower.operands.clone();
    operands.extend(&upper.operands);
    operands.extend(inits);
    ir.set_operands(op, &operands);
    let sizes = [lower.operands.len(), upper.operands.len(), inits.len()].map(|n| n as i64);
    let segments = ctx.int_array_attr(32, &sizes);
    set_inherent_attr(ctx, ir, op, "operandSegmentSizes", segments);
    let l = ctx.intern_attr(AttrKind::AffineMap(lower.map.clone()));
    set_inherent_attr(ctx, ir, op, LOWER, l);
    let u = ctx.intern_attr(AttrKind::AffineMap(upper.map.clone()));
    set_inherent_attr(ctx, ir, op, UPPER, u);
}

/// Replaces the lower bound of `op`.
pub fn set_lower_bound(ctx: &mut Context, ir: &mut Ir, op: OpId, lower: &Bound) {
    if let Some(upper) = upper_bound(ctx, ir, op) {
        let inits = inits(ctx, ir, op);
        store(ctx, ir, op, lower, &upper, &inits);
    }
}

/// Replaces the upper bound of `op`.
pub fn set_upper_bound(ctx: &mut Context, ir: &mut Ir, op: OpId, upper: &Bound) {
    if let Some(lower) = lower_bound(ctx, ir, op) {
        let inits = inits(ctx, ir, op);
        store(ctx, ir, op, &lower, upper, &inits);
    }
}

/// Replaces the step of `op`.
pub fn set_step(ctx: &mut Context, ir: &mut Ir, op: OpId, step: i64) {
    let index = ctx.index_type();
    let a = ctx.int_attr(index, step);
    set_inherent_attr(ctx, ir, op, "step", a);
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
