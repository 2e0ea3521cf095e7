//! Unrolling `scf.for` loops whose bounds and step are constants (the
//! affine layer's utilities unroll `affine.for`): by a factor that divides
//! the trip count (the body repeated with the counter advanced by
//! `k * step`, the carried values threaded through the copies, the step
//! multiplied), or fully (one copy of the body per iteration in front of
//! the loop, with the counter a constant, and the loop removed). Loops
//! over `index` and over integer types alike.

use silica_affine::loops::clone_mapped;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId, OpSpec, Type, ValueId};

/// Why an `scf.for` was not unrolled.
#[derive(Debug, PartialEq, Eq)]
pub enum ScfUnrollError {
    /// Its bounds or step are not constants.
    UnknownTripCount,
    /// The factor does not divide its trip count.
    FactorDoesNotDivide { trip: u64 },
}

/// The constant value of `v`, when an `arith.constant` defines it.
fn constant(ctx: &Context, ir: &Ir, v: ValueId) -> Option<i64> {
    let def = ir.defining_op(v)?;
    if ctx.str(ir.op_name(def)) != "arith.constant" {
        return None;
    }
    match ctx.attr_kind(inherent_attr(ctx, ir, def, "value")?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// The trip count of `scf.for` `op`, when its bounds and step are
/// constants (bounds compared signed, as `scf.for` does).
pub fn scf_trip_count(ctx: &Context, ir: &Ir, op: OpId) -> Option<u64> {
    let operands: Vec<ValueId> = ir.operands(op).take(3).collect();
    let [lower, upper, step] = operands[..] else {
        return None;
    };
    let (lower, upper, step) = (
        constant(ctx, ir, lower)?,
        constant(ctx, ir, upper)?,
        constant(ctx, ir, step)?,
    );
    if step <= 0 {
        return None;
    }
    let span = i128::from(upper) - i128::from(lower);
    u64::try_from(if span <= 0 {
        0
    } else {
        (span + i128::from(step) - 1) / i128::from(step)
    })
    .ok()
}

/// A new `arith.constant value : ty`, inserted before `before`.
fn constant_before(ctx: &mut Context, ir: &mut Ir, ty: Type, value: i64, before: OpId) -> ValueId {
    let loc = ir.op_loc(before);
    let v = ctx.int_attr(ty, value);
    let key = ctx.sym("value");
    let props = ctx.dict_attr(vec![(key, v)]);
    let name = ctx.sym("arith.constant");
    let attrs = ctx.empty_dict();
    let op = ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    });
    ir.insert_op_before(before, op);
    ir.results(op).next().expect("a constant has a result")
}

/// The parts of an `scf.for` body: its counter, carried values, the ops
/// before its `scf.yield`, and the `scf.yield`.
struct Body {
    iv: ValueId,
    carried: Vec<ValueId>,
    ops: Vec<OpId>,
    yield_op: OpId,
}

fn body(ir: &Ir, op: OpId) -> Option<Body> {
    let block = ir.regions(op).next().and_then(|r| ir.entry_block(r))?;
    let args = ir.block_args(block);
    let (&iv, carried) = args.split_first()?;
    let mut ops: Vec<OpId> = ir.block_ops(block).collect();
    let yield_op = ops.pop()?;
    Some(Body {
        iv,
        carried: carried.to_vec(),
        ops,
        yield_op,
    })
}

/// Copies `b`'s ops in front of `before` with the counter as `iv` and
/// the carried values as `carried`; returns what the copy yields.
fn copy_body(
    ir: &mut Ir,
    b: &Body,
    iv: ValueId,
    carried: &[ValueId],
    before: OpId,
) -> Vec<ValueId> {
    let mut map: rustc_hash::FxHashMap<ValueId, ValueId> = std::iter::once((b.iv, iv))
        .chain(b.carried.iter().copied().zip(carried.iter().copied()))
        .collect();
    for &op in &b.ops {
        let copy = clone_mapped(ir, op, &mut map);
        ir.insert_op_before(before, copy);
    }
    ir.operands(b.yield_op)
        .map(|v| map.get(&v).copied().unwrap_or(v))
        .collect()
}

/// Unrolls `scf.for` `op` by `factor`, or fully with `None`.
pub fn unroll_scf(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    factor: Option<u64>,
) -> Result<(), ScfUnrollError> {
    let trip = scf_trip_count(ctx, ir, op).ok_or(ScfUnrollError::UnknownTripCount)?;
    let b = body(ir, op).ok_or(ScfUnrollError::UnknownTripCount)?;
    let ty = ir.value_type(b.iv);
    let step = ir
        .operands(op)
        .nth(2)
        .and_then(|s| constant(ctx, ir, s))
        .ok_or(ScfUnrollError::UnknownTripCount)?;
    match factor {
        None => {
            let lower = ir
                .operands(op)
                .next()
                .and_then(|l| constant(ctx, ir, l))
                .ok_or(ScfUnrollError::UnknownTripCount)?;
            let mut carried: Vec<ValueId> = ir.operands(op).skip(3).collect();
            for t in 0..trip {
                let at = lower + step * i64::try_from(t).unwrap_or(i64::MAX);
                let iv = constant_before(ctx, ir, ty, at, op);
                carried = copy_body(ir, &b, iv, &carried, op);
            }
            let results: Vec<ValueId> = ir.results(op).collect();
            for (r, v) in results.into_iter().zip(carried) {
                ir.replace_all_uses(r, v);
            }
            ir.erase_op(op);
        }
        Some(k) if k <= 1 => {}
        Some(k) => {
            if trip % k != 0 {
                return Err(ScfUnrollError::FactorDoesNotDivide { trip });
            }
            let mut carried: Vec<ValueId> = ir.operands(b.yield_op).collect();
            for copy in 1..k {
                let offset = constant_before(
                    ctx,
                    ir,
                    ty,
                    step * i64::try_from(copy).unwrap_or(i64::MAX),
                    b.yield_op,
                );
                let add = advanced(ctx, ir, b.iv, offset, b.yield_op);
                carried = copy_body(ir, &b, add, &carried, b.yield_op);
            }
            ir.set_operands(b.yield_op, &carried);
            let wide = step * i64::try_from(k).unwrap_or(i64::MAX);
            let new_step = constant_before(ctx, ir, ty, wide, op);
            ir.set_operand(op, 2, new_step);
        }
    }
    Ok(())
}

/// `arith.addi iv, offset`, inserted before `before`.
fn advanced(ctx: &mut Context, ir: &mut Ir, iv: ValueId, offset: ValueId, before: OpId) -> ValueId {
    let loc = ir.op_loc(before);
    let ty = ir.value_type(iv);
    let name = ctx.sym("arith.addi");
    let attrs = ctx.empty_dict();
    let op = ir.create_op(OpSpec {
        name,
        loc,
        operands: &[iv, offset],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    });
    ir.insert_op_before(before, op);
    ir.results(op).next().expect("an addition has a result")
}
