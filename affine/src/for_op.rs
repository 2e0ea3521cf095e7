//! `affine.for` as the loop transformations see it: its bounds (a map
//! and its operands each), step, induction variable and body; building
//! a new loop with an empty body; changing the bounds and step of one;
//! and MLIR's perfect nest (`getPerfectlyNestedLoops`). Trip counts are
//! in [`crate::loops`].

use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::{inherent_attr, set_inherent_attr};
use silica_ir::format::segment_sizes;
use silica_ir::{Attr, AttrKind, BlockId, Context, Ir, OpId, OpSpec, ValueId};

/// The name of the loop op.
pub const FOR: &str = "affine.for";

/// One bound of a loop: a map and the values of its dims then symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bound {
    pub map: AffineMap,
    pub operands: Vec<ValueId>,
}

impl Bound {
    /// The bound `c`.
    pub fn constant(c: i64) -> Bound {
        Bound {
            map: AffineMap {
                num_dims: 0,
                num_symbols: 0,
                results: Box::new([AffineExpr::Constant(c)]),
            },
            operands: Vec::new(),
        }
    }

    /// The bound `v + offset` for one dimension operand `v`.
    pub fn shifted_dim(v: ValueId, offset: i64) -> Bound {
        Bound {
            map: AffineMap {
                num_dims: 1,
                num_symbols: 0,
                results: Box::new([AffineExpr::Dim(0).plus(AffineExpr::Constant(offset))]),
            },
            operands: vec![v],
        }
    }

    /// The constant this bound is, when its map is one constant result.
    pub fn as_constant(&self) -> Option<i64> {
        match &*self.map.results {
            [AffineExpr::Constant(c)] => Some(*c),
            _ => None,
        }
    }
}

/// Whether `op` is an `affine.for`.
pub fn is_for(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.str(ir.op_name(op)) == FOR
}

fn map_prop(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<AffineMap> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::AffineMap(m) => Some(m.clone()),
        _ => None,
    }
}

/// The lower and upper bounds of the loop `op`.
pub fn bounds(ctx: &Context, ir: &Ir, op: OpId) -> Option<(Bound, Bound)> {
    let sizes = segment_sizes(ctx, ir, op)?;
    let (nl, nu) = (*sizes.first()?, *sizes.get(1)?);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    if nl + nu > operands.len() {
        return None;
    }
    let lb = Bound {
        map: map_prop(ctx, ir, op, "lowerBoundMap")?,
        operands: operands[..nl].to_vec(),
    };
    let ub = Bound {
        map: map_prop(ctx, ir, op, "upperBoundMap")?,
        operands: operands[nl..nl + nu].to_vec(),
    };
    Some((lb, ub))
}

/// The step of the loop `op` (1 when unreadable).
pub fn step(ctx: &Context, ir: &Ir, op: OpId) -> i64 {
    inherent_attr(ctx, ir, op, "step")
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
            _ => None,
        })
        .unwrap_or(1)
}

/// The body block of the loop `op`.
pub fn body(ir: &Ir, op: OpId) -> Option<BlockId> {
    ir.entry_block(ir.regions(op).next()?)
}

/// The induction variable of the loop `op`.
pub fn induction_var(ir: &Ir, op: OpId) -> Option<ValueId> {
    body(ir, op).and_then(|b| ir.block_args(b).first().copied())
}

/// The ops of the loop's body before its terminator.
pub fn body_ops(ir: &Ir, op: OpId) -> Vec<OpId> {
    let Some(b) = body(ir, op) else {
        return Vec::new();
    };
    let mut ops: Vec<OpId> = ir.block_ops(b).collect();
    ops.pop();
    ops
}

/// The loop that `v` is the induction variable of.
pub fn loop_of_iv(ctx: &Context, ir: &Ir, v: ValueId) -> Option<OpId> {
    let silica_ir::ValueDef::Argument { block, index: 0 } = ir.value_def(v) else {
        return None;
    };
    let op = ir.region_op(ir.block_region(block)?)?;
    is_for(ctx, ir, op).then_some(op)
}

fn map_attr(ctx: &mut Context, map: &AffineMap) -> Attr {
    ctx.intern_attr(AttrKind::AffineMap(map.clone()))
}

/// Sets the bounds and step of the loop `op`, keeping its `iter_args`.
pub fn set_bounds(ctx: &mut Context, ir: &mut Ir, op: OpId, lb: &Bound, ub: &Bound, step: i64) {
    let inits: Vec<ValueId> = match segment_sizes(ctx, ir, op) {
        Some(s) if s.len() == 3 => ir.operands(op).skip(s[0] + s[1]).collect(),
        _ => Vec::new(),
    };
    let mut operands = lb.operands.clone();
    operands.extend_from_slice(&ub.operands);
    operands.extend_from_slice(&inits);
    ir.set_operands(op, &operands);
    let sizes = [lb.operands.len(), ub.operands.len(), inits.len()].map(|n| n as i64);
    let segments = ctx.int_array_attr(32, &sizes);
    let (lb_map, ub_map) = (map_attr(ctx, &lb.map), map_attr(ctx, &ub.map));
    let index = ctx.index_type();
    let step = ctx.int_attr(index, step);
    set_inherent_attr(ctx, ir, op, "lowerBoundMap", lb_map);
    set_inherent_attr(ctx, ir, op, "upperBoundMap", ub_map);
    set_inherent_attr(ctx, ir, op, "operandSegmentSizes", segments);
    set_inherent_attr(ctx, ir, op, "step", step);
}

/// A new, detached `affine.for` from `lb` to `ub` by `step` at `loc`
/// whose body holds only its `affine.yield`.
pub fn create_for(
    ctx: &mut Context,
    ir: &mut Ir,
    loc: Attr,
    lb: &Bound,
    ub: &Bound,
    step: i64,
) -> OpId {
    let index = ctx.index_type();
    let region = ir.create_region();
    let block = ir.create_block();
    ir.add_block_arg(block, index, Some(loc));
    ir.append_block(region, block);
    let empty = ctx.empty_dict();
    let yield_name = ctx.sym("affine.yield");
    let terminator = ir.create_op(OpSpec {
        name: yield_name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs: empty,
        props: None,
    });
    ir.append_op(block, terminator);
    let name = ctx.sym(FOR);
    let op = ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs: empty,
        props: None,
    });
    set_bounds(ctx, ir, op, lb, ub, step);
    op
}

/// MLIR's `getPerfectlyNestedLoops`: `root` and the loops below it while
/// each body is one `affine.for` and the terminator.
pub fn perfect_nest(ctx: &Context, ir: &Ir, root: OpId) -> Vec<OpId> {
    let mut nest = vec![root];
    let mut at = root;
    loop {
        let ops = body_ops(ir, at);
        match ops[..] {
            [inner] if is_for(ctx, ir, inner) => {
                nest.push(inner);
                at = inner;
            }
            _ => return nest,
        }
    }
}

/// Whether each loop of `loops` is the only op (but the terminator) of
/// the one before (MLIR's `isPerfectlyNested`).
pub fn is_perfectly_nested(ir: &Ir, loops: &[OpId]) -> bool {
    loops.windows(2).all(|w| body_ops(ir, w[0]) == [w[1]])
}
