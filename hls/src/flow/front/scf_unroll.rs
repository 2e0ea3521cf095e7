//! Unrolling `scf.for` loops whose bounds and step are constants (the
//! affine layer's utilities unroll `affine.for`): by a factor that divides
//! the trip count (the body repeated with the counter advanced by
//! `k * step`, the carried values threaded through the copies, the step
//! multiplied), or fully (one copy of the body per iteration in front of
//! the loop, with the counter a constant, and the loop removed). Loops
//! over `index` and over integer types alike, `scf.for unsigned`
//! comparing its bounds unsigned.

use silica_affine::loops::{clone_mapped, create};
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId, Type, TypeKind, ValueId};

/// Why an `scf.for` was not unrolled.
#[derive(Debug, PartialEq, Eq)]
pub enum ScfUnrollError {
    /// Its bounds or step are not constants.
    UnknownTripCount,
    /// The factor does not divide its trip count.
    FactorDoesNotDivide { trip: u64 },
    /// The unrolled step does not fit the counter's type.
    StepOverflows,
}

/// The constant value of `v`, when an `arith.constant` defines it.
fn constant(ctx: &Context, ir: &Ir, v: ValueId) -> Option<i128> {
    let def = ir.defining_op(v)?;
    if ctx.str(ir.op_name(def)) != "arith.constant" {
        return None;
    }
    match ctx.attr_kind(inherent_attr(ctx, ir, def, "value")?) {
        AttrKind::Integer { value, .. } => i128::try_from(value).ok(),
        _ => None,
    }
}

/// How an `scf.for`'s counter compares: its width (64 for `index`) and
/// whether it is `scf.for unsigned`.
#[derive(Clone, Copy, Debug)]
pub struct Counter {
    pub width: u32,
    pub unsigned: bool,
}

impl Counter {
    /// The counter of `scf.for` `op`.
    pub fn of(ctx: &Context, ir: &Ir, op: OpId) -> Option<Counter> {
        let lower = ir.operands(op).next()?;
        let width = match ctx.type_kind(ir.value_type(lower)) {
            TypeKind::Index => 64,
            TypeKind::Integer { width, .. } => *width,
            _ => return None,
        };
        let unsigned = inherent_attr(ctx, ir, op, "unsignedCmp").is_some();
        Some(Counter { width, unsigned })
    }

    /// `c` (a constant of the counter's type, as its signed value) as the
    /// loop compares it.
    pub fn value(self, c: i128) -> i128 {
        if self.unsigned && c < 0 && self.width < 128 {
            c + (1i128 << self.width)
        } else {
            c
        }
    }

    /// Whether `v` (as the loop compares values) fits the counter's type.
    pub fn fits(self, v: i128) -> bool {
        let w = self.width.min(127);
        if self.unsigned {
            (0..(1i128 << w)).contains(&v)
        } else {
            (-(1i128 << (w - 1))..(1i128 << (w - 1))).contains(&v)
        }
    }
}

/// The lower bound, upper bound and step of `scf.for` `op` as it compares
/// them (signed, or unsigned for `scf.for unsigned`), when all three are
/// constants and the step is positive.
pub fn scf_constant_bounds(ctx: &Context, ir: &Ir, op: OpId) -> Option<(i128, i128, i128)> {
    let counter = Counter::of(ctx, ir, op)?;
    let operands: Vec<ValueId> = ir.operands(op).take(3).collect();
    let [lower, upper, step] = operands[..] else {
        return None;
    };
    let read = |v| constant(ctx, ir, v).map(|c| counter.value(c));
    let (lower, upper, step) = (read(lower)?, read(upper)?, read(step)?);
    (step > 0).then_some((lower, upper, step))
}

/// The number of iterations of a loop from `lower` to `upper` by `step`.
pub fn trips(lower: i128, upper: i128, step: i128) -> i128 {
    if upper <= lower {
        0
    } else {
        (upper - lower + step - 1) / step
    }
}

/// The trip count of `scf.for` `op`, when its bounds and step are
/// constants.
pub fn scf_trip_count(ctx: &Context, ir: &Ir, op: OpId) -> Option<u64> {
    let (lower, upper, step) = scf_constant_bounds(ctx, ir, op)?;
    u64::try_from(trips(lower, upper, step)).ok()
}

/// A new `arith.constant value : ty` (`value` as the loop compares it),
/// inserted before `before`.
fn constant_before(ctx: &mut Context, ir: &mut Ir, ty: Type, value: i128, before: OpId) -> ValueId {
    let loc = ir.op_loc(before);
    // The attribute holds the signed value of the type's bits.
    let value = match ctx.type_kind(ty) {
        TypeKind::Integer { width, .. } if *width < 128 => {
            let w = *width;
            let bits = value.rem_euclid(1i128 << w);
            if bits >> (w - 1) == 1 {
                bits - (1i128 << w)
            } else {
                bits
            }
        }
        _ => value,
    };
    let v = ctx.int_attr(ty, value);
    let op = create(
        ctx,
        ir,
        "arith.constant",
        &[],
        &[ty],
        vec![("value", v)],
        loc,
    );
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
    let (lower, upper, step) =
        scf_constant_bounds(ctx, ir, op).ok_or(ScfUnrollError::UnknownTripCount)?;
    let counter = Counter::of(ctx, ir, op).ok_or(ScfUnrollError::UnknownTripCount)?;
    let trip = u64::try_from(trips(lower, upper, step)).unwrap_or(u64::MAX);
    let b = body(ir, op).ok_or(ScfUnrollError::UnknownTripCount)?;
    let ty = ir.value_type(b.iv);
    match factor {
        None => {
            let mut carried: Vec<ValueId> = ir.operands(op).skip(3).collect();
            for t in 0..trip {
                let iv = constant_before(ctx, ir, ty, lower + step * i128::from(t), op);
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
            let wide = step * i128::from(k);
            if !counter.fits(wide) {
                return Err(ScfUnrollError::StepOverflows);
            }
            let mut carried: Vec<ValueId> = ir.operands(b.yield_op).collect();
            for copy in 1..k {
                let offset = constant_before(ctx, ir, ty, step * i128::from(copy), b.yield_op);
                let add = advanced(ctx, ir, b.iv, offset, b.yield_op);
                carried = copy_body(ir, &b, add, &carried, b.yield_op);
            }
            ir.set_operands(b.yield_op, &carried);
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
    let op = create(ctx, ir, "arith.addi", &[iv, offset], &[ty], vec![], loc);
    ir.insert_op_before(before, op);
    ir.results(op).next().expect("an addition has a result")
}
