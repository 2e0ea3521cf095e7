//! Memory accesses as constraint systems: the iteration domain of an op
//! (the affine loops and conditions around it inside its affine scope,
//! as MLIR's `getOpIndexSet`) and the elements it touches
//! (`affine.load`/`affine.store` subscripts; for `affine.dma_start`, a
//! read of its source and a write of its destination, each a contiguous
//! run of elements in row-major order when the memref's shape is
//! static, else the whole memref).

use crate::presburger::{map_attr, DomainError, Int, ValueSystem};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::Traits;
use silica_ir::rewrite::fold::constant_i64;
use silica_ir::{AttrKind, Context, Ir, OpId, TypeKind, ValueId};

/// Whether an access reads or writes memory.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AccessKind {
    Read,
    Write,
}

/// The elements one execution of an access touches.
#[derive(Clone, PartialEq, Debug)]
pub enum Elements {
    /// One element: a row (over the domain's columns) per memref
    /// dimension, plus the row of its row-major linear index when the
    /// shape is static with the identity layout.
    Point {
        subscripts: Vec<Vec<Int>>,
        linear: Option<Vec<Int>>,
    },
    /// `count` consecutive elements in row-major order from the linear
    /// index `first`.
    Run { first: Vec<Int>, count: i64 },
    /// Any element.
    Whole,
}

/// One memory access of an op.
#[derive(Clone, Debug)]
pub struct MemoryAccess {
    /// The accessing op.
    pub op: OpId,
    /// The memref accessed.
    pub memref: ValueId,
    pub kind: AccessKind,
    /// The iteration domain: its first `num_loops` dimensions are the
    /// induction variables of the enclosing `affine.for`/`affine.parallel`
    /// loops, outermost first.
    pub domain: ValueSystem,
    pub num_loops: usize,
    pub elements: Elements,
}

fn name_of<'a>(ctx: &'a Context, ir: &Ir, op: OpId) -> &'a str {
    ctx.str(ir.op_name(op))
}

fn is_affine_scope(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op))
        .is_some_and(|d| d.traits.has(Traits::AFFINE_SCOPE))
}

/// The `affine.for`, `affine.if` and `affine.parallel` ops around `op`
/// inside its affine scope, outermost first.
pub fn enclosing_affine_ops(ctx: &Context, ir: &Ir, op: OpId) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if is_affine_scope(ctx, ir, p) {
            break;
        }
        if matches!(
            name_of(ctx, ir, p),
            "affine.for" | "affine.if" | "affine.parallel"
        ) {
            out.push(p);
        }
        cur = ir.parent_op(p);
    }
    out.reverse();
    out
}

/// The induction variables of the affine loops around `op`, outermost
/// first.
pub fn enclosing_loop_ivs(ctx: &Context, ir: &Ir, op: OpId) -> Vec<(OpId, ValueId)> {
    let mut out = Vec::new();
    for lp in enclosing_affine_ops(ctx, ir, op) {
        let n = match name_of(ctx, ir, lp) {
            "affine.for" => 1,
            "affine.parallel" => usize::MAX,
            _ => 0,
        };
        if let Some(region) = ir.regions(lp).next() {
            if let Some(block) = ir.entry_block(region) {
                for &iv in ir.block_args(block).iter().take(n) {
                    out.push((lp, iv));
                }
            }
        }
    }
    out
}

/// The iteration domain of `op` and how many of its leading dimensions
/// are loop induction variables.
pub fn iteration_domain(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
) -> Result<(ValueSystem, usize), DomainError> {
    let mut vs = ValueSystem::new();
    let ivs = enclosing_loop_ivs(ctx, ir, op);
    for &(_, iv) in &ivs {
        vs.append_dim(Some(iv));
    }
    for p in enclosing_affine_ops(ctx, ir, op) {
        match name_of(ctx, ir, p) {
            "affine.for" => vs.add_for_domain(ctx, ir, p)?,
            "affine.parallel" => vs.add_parallel_domain(ctx, ir, p)?,
            _ => vs.add_if_domain(ctx, ir, p)?,
        }
    }
    Ok((vs, ivs.len()))
}

/// The static shape of a memref with the identity layout.
fn static_identity_shape(ctx: &Context, ir: &Ir, memref: ValueId) -> Option<Vec<i64>> {
    let TypeKind::MemRef { shape, layout, .. } = ctx.type_kind(ir.value_type(memref)) else {
        return None;
    };
    if shape.iter().any(|&d| d < 0) {
        return None;
    }
    let identity = match layout {
        None => true,
        Some(l) => match ctx.attr_kind(*l) {
            AttrKind::AffineMap(m) => {
                m.num_symbols == 0
                    && m.results.len() == m.num_dims as usize
                    && m.results
                        .iter()
                        .enumerate()
                        .all(|(i, r)| *r == AffineExpr::Dim(i as u32))
            }
            _ => false,
        },
    };
    identity.then(|| shape.to_vec())
}

/// `sum(subscript_k * stride_k)` for a row-major static shape.
fn linearize(subscripts: &[Vec<Int>], shape: &[i64]) -> Option<Vec<Int>> {
    let width = subscripts.first()?.len();
    let mut out = vec![Int::ZERO; width];
    let mut stride = Int::ONE;
    for (row, &extent) in subscripts.iter().zip(shape).rev() {
        for (o, v) in out.iter_mut().zip(row) {
            *o = &*o + &(v * &stride);
        }
        stride = &stride * &Int::from(extent);
    }
    Some(out)
}

/// Widens rows to the domain's final width.
fn widen_all(rows: Vec<Vec<Int>>, width: usize) -> Vec<Vec<Int>> {
    rows.into_iter()
        .map(|mut r| {
            let c = r.pop().unwrap_or_default();
            r.resize(width - 1, Int::ZERO);
            r.push(c);
            r
        })
        .collect()
}

/// One access through `map` applied to `indices` of `memref`.
fn access(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    kind: AccessKind,
    memref: ValueId,
    (map, indices): (&AffineMap, &[ValueId]),
    run: Option<i64>,
) -> Result<MemoryAccess, DomainError> {
    let (mut domain, num_loops) = iteration_domain(ctx, ir, op)?;
    let subscripts = domain.map_rows(ctx, ir, op, map, indices)?;
    let width = domain.system.num_cols();
    let subscripts = widen_all(subscripts, width);
    let shape = static_identity_shape(ctx, ir, memref);
    let linear = shape
        .as_deref()
        .filter(|s| s.len() == subscripts.len())
        .and_then(|s| {
            if s.is_empty() {
                Some(vec![Int::ZERO; width])
            } else {
                linearize(&subscripts, s)
            }
        });
    let elements = match run {
        None => Elements::Point { subscripts, linear },
        Some(count) => match linear {
            Some(first) if count >= 1 => Elements::Run { first, count },
            _ => Elements::Whole,
        },
    };
    Ok(MemoryAccess {
        op,
        memref,
        kind,
        domain,
        num_loops,
        elements,
    })
}

/// The memory accesses of `op`: one for `affine.load`/`affine.store`, a
/// read and a write for `affine.dma_start`, none for any other op.
pub fn accesses_of(ctx: &Context, ir: &Ir, op: OpId) -> Result<Vec<MemoryAccess>, DomainError> {
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let map = |name: &str| map_attr(ctx, ir, op, name).ok_or(DomainError::NotAffine(op));
    let arity = |m: &AffineMap| (m.num_dims + m.num_symbols) as usize;
    let slice = |from: usize, n: usize| {
        operands
            .get(from..from + n)
            .ok_or(DomainError::NotAffine(op))
    };
    match name_of(ctx, ir, op) {
        "affine.load" => {
            let m = map("map")?;
            let memref = *operands.first().ok_or(DomainError::NotAffine(op))?;
            let idx = slice(1, arity(&m))?;
            Ok(vec![access(
                ctx,
                ir,
                op,
                AccessKind::Read,
                memref,
                (&m, idx),
                None,
            )?])
        }
        "affine.store" => {
            let m = map("map")?;
            let memref = *operands.get(1).ok_or(DomainError::NotAffine(op))?;
            let idx = slice(2, arity(&m))?;
            Ok(vec![access(
                ctx,
                ir,
                op,
                AccessKind::Write,
                memref,
                (&m, idx),
                None,
            )?])
        }
        "affine.dma_start" => {
            let (src_map, dst_map, tag_map) = (map("src_map")?, map("dst_map")?, map("tag_map")?);
            let src = *operands.first().ok_or(DomainError::NotAffine(op))?;
            let src_idx = slice(1, arity(&src_map))?;
            let dst_at = 1 + arity(&src_map);
            let dst = *operands.get(dst_at).ok_or(DomainError::NotAffine(op))?;
            let dst_idx = slice(dst_at + 1, arity(&dst_map))?;
            let rest = dst_at + 1 + arity(&dst_map) + 1 + arity(&tag_map);
            // A strided transfer touches a sparser set: take the whole memref.
            let count = match &operands[rest.min(operands.len())..] {
                [n] => constant_i64(ctx, ir, *n).unwrap_or(0),
                _ => 0,
            };
            Ok(vec![
                access(
                    ctx,
                    ir,
                    op,
                    AccessKind::Read,
                    src,
                    (&src_map, src_idx),
                    Some(count),
                )?,
                access(
                    ctx,
                    ir,
                    op,
                    AccessKind::Write,
                    dst,
                    (&dst_map, dst_idx),
                    Some(count),
                )?,
            ])
        }
        _ => Ok(Vec::new()),
    }
}
