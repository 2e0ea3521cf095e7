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
    Conv2d,
    Conv2dNchwFchw,
    Conv2dNhwcHwcf,
    Conv2dNgchwGfchw,
    Conv2dNgchwFgchw,
    DepthwiseConv2dNchwChw,
    DepthwiseConv2dNhwcHwc,
    PoolingNchwMax,
    PoolingNchwSum,
    PoolingNhwcMax,
    PoolingNhwcSum,
}

/// What a named op's payload computes from an input element `a`, a
/// second input element `b` and the output element `out`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Payload {
    /// `a`.
    First,
    /// `out + a * b`.
    MulAdd,
    /// `max(out, a)`.
    Max,
    /// `out + a`.
    Sum,
}

/// A convolution's or pooling's strides and dilations (each of the two
/// spatial dimensions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub strides: [i64; 2],
    pub dilations: [i64; 2],
}

impl Default for Window {
    fn default() -> Self {
        Window {
            strides: [1, 1],
            dilations: [1, 1],
        }
    }
}

impl Named {
    /// Every named op, with its name.
    pub const ALL: [(Named, &'static str); 17] = [
        (Named::Fill, "linalg.fill"),
        (Named::Copy, "linalg.copy"),
        (Named::Matmul, "linalg.matmul"),
        (Named::BatchMatmul, "linalg.batch_matmul"),
        (Named::Matvec, "linalg.matvec"),
        (Named::Dot, "linalg.dot"),
        (Named::Conv2d, "linalg.conv_2d"),
        (Named::Conv2dNchwFchw, "linalg.conv_2d_nchw_fchw"),
        (Named::Conv2dNhwcHwcf, "linalg.conv_2d_nhwc_hwcf"),
        (Named::Conv2dNgchwGfchw, "linalg.conv_2d_ngchw_gfchw"),
        (Named::Conv2dNgchwFgchw, "linalg.conv_2d_ngchw_fgchw"),
        (
            Named::DepthwiseConv2dNchwChw,
            "linalg.depthwise_conv_2d_nchw_chw",
        ),
        (
            Named::DepthwiseConv2dNhwcHwc,
            "linalg.depthwise_conv_2d_nhwc_hwc",
        ),
        (Named::PoolingNchwMax, "linalg.pooling_nchw_max"),
        (Named::PoolingNchwSum, "linalg.pooling_nchw_sum"),
        (Named::PoolingNhwcMax, "linalg.pooling_nhwc_max"),
        (Named::PoolingNhwcSum, "linalg.pooling_nhwc_sum"),
    ];

    fn payload(self) -> Payload {
        match self {
            Named::Fill | Named::Copy => Payload::First,
            Named::PoolingNchwMax | Named::PoolingNhwcMax => Payload::Max,
            Named::PoolingNchwSum | Named::PoolingNhwcSum => Payload::Sum,
            _ => Payload::MulAdd,
        }
    }

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

    /// Its indexing maps, for outputs of rank `rank` (fill and copy) and
    /// the window `w`.
    pub fn maps(self, rank: usize, w: Window) -> Vec<AffineMap> {
        let d = AffineExpr::Dim;
        let map = |n: u32, results: &[AffineExpr]| AffineMap {
            num_dims: n,
            num_symbols: 0,
            results: results
                .iter()
                .map(|e| silica_ir::affine_flatten::simplify_expr(e, n, 0))
                .collect(),
        };
        // Output position `o` and window position `k` of spatial dim `i`.
        let at = |i: usize, o: u32, k: u32| {
            d(o).times(AffineExpr::Constant(w.strides[i]))
                .plus(d(k).times(AffineExpr::Constant(w.dilations[i])))
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
            Named::Conv2d => vec![
                map(4, &[d(0).plus(d(2)), d(1).plus(d(3))]),
                map(4, &[d(2), d(3)]),
                map(4, &[d(0), d(1)]),
            ],
            // (n, f, oh, ow, c, kh, kw)
            Named::Conv2dNchwFchw => vec![
                map(7, &[d(0), d(4), at(0, 2, 5), at(1, 3, 6)]),
                map(7, &[d(1), d(4), d(5), d(6)]),
                map(7, &[d(0), d(1), d(2), d(3)]),
            ],
            // (n, oh, ow, f, kh, kw, c)
            Named::Conv2dNhwcHwcf => vec![
                map(7, &[d(0), at(0, 1, 4), at(1, 2, 5), d(6)]),
                map(7, &[d(4), d(5), d(6), d(3)]),
                map(7, &[d(0), d(1), d(2), d(3)]),
            ],
            // (n, g, f, oh, ow, c, kh, kw)
            Named::Conv2dNgchwGfchw => vec![
                map(8, &[d(0), d(1), d(5), at(0, 3, 6), at(1, 4, 7)]),
                map(8, &[d(1), d(2), d(5), d(6), d(7)]),
                map(8, &[d(0), d(1), d(2), d(3), d(4)]),
            ],
            Named::Conv2dNgchwFgchw => vec![
                map(8, &[d(0), d(1), d(5), at(0, 3, 6), at(1, 4, 7)]),
                map(8, &[d(2), d(1), d(5), d(6), d(7)]),
                map(8, &[d(0), d(1), d(2), d(3), d(4)]),
            ],
            // (n, oh, ow, c, kh, kw)
            Named::DepthwiseConv2dNchwChw => vec![
                map(6, &[d(0), d(3), at(0, 1, 4), at(1, 2, 5)]),
                map(6, &[d(3), d(4), d(5)]),
                map(6, &[d(0), d(3), d(1), d(2)]),
            ],
            Named::DepthwiseConv2dNhwcHwc => vec![
                map(6, &[d(0), at(0, 1, 4), at(1, 2, 5), d(3)]),
                map(6, &[d(4), d(5), d(3)]),
                map(6, &[d(0), d(1), d(2), d(3)]),
            ],
            // (n, c, oh, ow, kh, kw)
            Named::PoolingNchwMax | Named::PoolingNchwSum => vec![
                map(6, &[d(0), d(1), at(0, 2, 4), at(1, 3, 5)]),
                map(6, &[d(4), d(5)]),
                map(6, &[d(0), d(1), d(2), d(3)]),
            ],
            // (n, oh, ow, c, kh, kw)
            Named::PoolingNhwcMax | Named::PoolingNhwcSum => vec![
                map(6, &[d(0), at(0, 1, 4), at(1, 2, 5), d(3)]),
                map(6, &[d(4), d(5)]),
                map(6, &[d(0), d(1), d(2), d(3)]),
            ],
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
            Named::Conv2d => vec![false, false, true, true],
            Named::Conv2dNchwFchw | Named::Conv2dNhwcHwcf => {
                vec![false, false, false, false, true, true, true]
            }
            Named::Conv2dNgchwGfchw | Named::Conv2dNgchwFgchw => {
                vec![false, false, false, false, false, true, true, true]
            }
            _ => vec![false, false, false, false, true, true],
        }
    }
}

/// The window of op `op` (its `strides` and `dilations`, one value for
/// both dimensions or one each; 1 where absent); `None` where one is
/// malformed.
pub fn window(ctx: &Context, ir: &Ir, op: OpId) -> Option<Window> {
    let pair = |name: &str| -> Option<[i64; 2]> {
        let Some(a) = inherent_attr(ctx, ir, op, name) else {
            return Some([1, 1]);
        };
        let values: Vec<i64> = match ctx.attr_kind(a) {
            AttrKind::DenseElements { values, .. } => values
                .iter()
                .map(|&v| match ctx.attr_kind(v) {
                    AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
                    _ => None,
                })
                .collect::<Option<_>>()?,
            _ => ctx.int_array_values(a)?,
        };
        match values[..] {
            [v] if v > 0 => Some([v, v]),
            [a, b] if a > 0 && b > 0 => Some([a, b]),
            _ => None,
        }
    };
    Some(Window {
        strides: pair("strides")?,
        dilations: pair("dilations")?,
    })
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
        let w = window(ctx, ir, op)?;
        return Some((named.maps(r, w), named.reductions(r)));
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
    let payload = named.payload();
    // The element types must agree (the window's aside): MLIR would cast.
    let out = args[args.len() - 1];
    if args[0] != out || payload == Payload::MulAdd && args[1] != out {
        return None;
    }
    let float = matches!(ctx.type_kind(out), TypeKind::Float(_));
    let out_value = values[values.len() - 1];
    let yielded = match payload {
        Payload::First => values[0],
        Payload::MulAdd => {
            let (mul, add) = if float {
                ("arith.mulf", "arith.addf")
            } else {
                ("arith.muli", "arith.addi")
            };
            let m = append(ctx, ir, block, mul, &[values[0], values[1]], out, loc);
            append(ctx, ir, block, add, &[out_value, m], out, loc)
        }
        Payload::Max => {
            let max = if float {
                "arith.maximumf"
            } else {
                "arith.maxsi"
            };
            append(ctx, ir, block, max, &[out_value, values[0]], out, loc)
        }
        Payload::Sum => {
            let add = if float { "arith.addf" } else { "arith.addi" };
            append(ctx, ir, block, add, &[out_value, values[0]], out, loc)
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
