//! What every structured op is: its inputs and outputs (the
//! `operandSegmentSizes`), one indexing map an operand from the loop
//! dimensions to the operand's indices, an iterator type a dimension
//! (parallel or reduction), and a payload region over one element of each
//! operand that yields the outputs' new elements. `linalg.generic` states
//! them; each named op has them by definition ([`Named`]), its payload
//! built as MLIR builds it ([`build_payload`]).

use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::inherent_attr;
use silica_ir::format::segment_sizes;
use silica_ir::{AttrKind, BlockId, Context, Ir, OpId, OpSpec, RegionId, Type, TypeKind, ValueId};

/// The named structured ops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    Fill,
    Copy,
    Matmul,
    BatchMatmul,
    Matvec,
    Dot,
}

impl Named {
    /// Every named op, with its name.
    pub const ALL: [(Named, &'static str); 6] = [
        (Named::Fill, "linalg.fill"),
        (Named::Copy, "linalg.copy"),
        (Named::Matmul, "linalg.matmul"),
        (Named::BatchMatmul, "linalg.batch_matmul"),
        (Named::Matvec, "linalg.matvec"),
        (Named::Dot, "linalg.dot"),
    ];

    /// The named op called `name`.
    pub fn of(name: &str) -> Option<Named> {
        Named::ALL.iter().find(|(_, n)| *n == name).map(|&(k, _)| k)
    }

    /// The number of inputs it takes.
    pub fn inputs(self) -> usize {
        match self {
            Named::Fill | Named::Copy => 1,
            _ => 2,
        }
    }

    /// Its indexing maps, for outputs of rank `rank` (fill and copy).
    pub fn maps(self, rank: usize) -> Vec<AffineMap> {
        let d = AffineExpr::Dim;
        let map = |n: u32, results: &[AffineExpr]| AffineMap {
            num_dims: n,
            num_symbols: 0,
            results: results.to_vec().into(),
        };
        let identity: Vec<AffineExpr> = (0..rank as u32).map(d).collect();
        match self {
            Named::Fill => vec![map(rank as u32, &[]), map(rank as u32, &identity)],
            Named::Copy => vec![map(rank as u32, &identity), map(rank as u32, &identity)],
            Named::Matmul => vec![
                map(3, &[d(0), d(2)]),
                map(3, &[d(2), d(1)]),
                map(3, &[d(0), d(1)]),
            ],
            Named::BatchMatmul => vec![
                map(4, &[d(0), d(1), d(3)]),
                map(4, &[d(0), d(3), d(2)]),
                map(4, &[d(0), d(1), d(2)]),
            ],
            Named::Matvec => vec![map(2, &[d(0), d(1)]), map(2, &[d(1)]), map(2, &[d(0)])],
            Named::Dot => vec![map(1, &[d(0)]), map(1, &[d(0)]), map(1, &[])],
        }
    }

    /// Which of its dimensions reduce, for outputs of rank `rank`.
    pub fn reductions(self, rank: usize) -> Vec<bool> {
        match self {
            Named::Fill | Named::Copy => vec![false; rank],
            Named::Matmul => vec![false, false, true],
            Named::BatchMatmul => vec![false, false, false, true],
            Named::Matvec => vec![false, true],
            Named::Dot => vec![true],
        }
    }
}

/// The element type of `t` (a memref's or a tensor's), or `t` itself.
pub fn element_type(ctx: &Context, t: Type) -> Type {
    match ctx.type_kind(t) {
        TypeKind::MemRef { element, .. } | TypeKind::RankedTensor { element, .. } => *element,
        _ => t,
    }
}

/// The inputs and outputs of structured op `op`.
pub fn operands(ctx: &Context, ir: &Ir, op: OpId) -> (Vec<ValueId>, Vec<ValueId>) {
    let all: Vec<ValueId> = ir.operands(op).collect();
    let inputs = segment_sizes(ctx, ir, op)
        .and_then(|s| s.first().copied())
        .unwrap_or(0)
        .min(all.len());
    (all[..inputs].to_vec(), all[inputs..].to_vec())
}

/// The rank of `v`'s shaped type (0 for a scalar).
pub fn rank(ctx: &Context, ir: &Ir, v: ValueId) -> usize {
    match ctx.type_kind(ir.value_type(v)) {
        TypeKind::MemRef { shape, .. } | TypeKind::RankedTensor { shape, .. } => shape.len(),
        _ => 0,
    }
}

/// The indexing maps and reduction dimensions of structured op `op`.
pub fn structure(ctx: &Context, ir: &Ir, op: OpId) -> Option<(Vec<AffineMap>, Vec<bool>)> {
    let name = ctx.str(ir.op_name(op));
    if let Some(named) = Named::of(name) {
        let (_, outputs) = operands(ctx, ir, op);
        let r = rank(ctx, ir, *outputs.first()?);
        return Some((named.maps(r), named.reductions(r)));
    }
    let maps = match ctx.attr_kind(inherent_attr(ctx, ir, op, "indexing_maps")?) {
        AttrKind::Array(maps) => maps
            .iter()
            .map(|&m| match ctx.attr_kind(m) {
                AttrKind::AffineMap(m) => Some(m.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?,
        _ => return None,
    };
    let reductions = match ctx.attr_kind(inherent_attr(ctx, ir, op, "iterator_types")?) {
        AttrKind::Array(kinds) => kinds
            .iter()
            .map(|&k| crate::dialect::iterator_kind(ctx, k).map(|k| k == "reduction"))
            .collect::<Option<Vec<_>>>()?,
        _ => return None,
    };
    Some((maps, reductions))
}

/// Creates the payload of named op `named` over `args` (one element
/// type an operand) as a region of one block: the block's arguments, its
/// ops and its `linalg.yield`; `None` where the element types differ
/// (MLIR would insert casts).
pub fn build_payload(
    ctx: &mut Context,
    ir: &mut Ir,
    named: Named,
    args: &[Type],
    loc: silica_ir::Attr,
) -> Option<RegionId> {
    let region = ir.create_region();
    let block: BlockId = ir.create_block();
    ir.append_block(region, block);
    let values: Vec<ValueId> = args
        .iter()
        .map(|&t| ir.add_block_arg(block, t, Some(loc)))
        .collect();
    let yielded = match named {
        Named::Fill | Named::Copy => values[0],
        _ => {
            if args.iter().any(|&t| t != args[0]) {
                return None;
            }
            let float = matches!(ctx.type_kind(args[0]), TypeKind::Float(_));
            let (mul, add) = if float {
                ("arith.mulf", "arith.addf")
            } else {
                ("arith.muli", "arith.addi")
            };
            let m = append(ctx, ir, block, mul, &[values[0], values[1]], args[0], loc);
            append(ctx, ir, block, add, &[values[2], m], args[0], loc)
        }
    };
    let name = ctx.sym("linalg.yield");
    let attrs = ctx.empty_dict();
    let y = ir.create_op(OpSpec {
        name,
        loc,
        operands: &[yielded],
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    });
    ir.append_op(block, y);
    Some(region)
}

fn append(
    ctx: &mut Context,
    ir: &mut Ir,
    block: BlockId,
    name: &str,
    operands: &[ValueId],
    ty: Type,
    loc: silica_ir::Attr,
) -> ValueId {
    let name = ctx.sym(name);
    let attrs = ctx.empty_dict();
    let op = ir.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    });
    ir.append_op(block, op);
    ir.result(op, 0)
}
