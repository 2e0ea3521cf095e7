//! Folds of hw's aggregate ops, as CIRCT's canonicalizer has them: a
//! field read from the struct made with it or injected into it, an
//! element at a constant index of an array made of its elements or of a
//! constant array, a union field read back from the union made with it
//! (or with another field of the same type at the same offset), bitcasts
//! to the same type or undoing one another, a one-operand concatenation.
//! Each keeps the evaluator's value ([`crate::eval::eval_op`]).

use crate::hw::aggregates::{array_of, field_of};
use crate::hw::unions::union_fields;
use crate::types;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::{FoldCtx, FoldResult};
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, ValueId};

/// The fold hook of the aggregate ops.
pub fn fold_aggregate(fc: &mut FoldCtx<'_>, op: OpId, consts: &[Option<Attr>]) -> FoldResult {
    let (ctx, ir) = (&*fc.ctx, &*fc.ir);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let Some(&input) = operands.first() else {
        return FoldResult::Fail;
    };
    let producer = ir.defining_op(input);
    let made_by = |name: &str| producer.filter(|&p| ctx.str(ir.op_name(p)) == name);
    match ctx.str(ir.op_name(op)) {
        "hw.struct_extract" => {
            let index = field_of(ctx, ir, op);
            if let Some(p) = made_by("hw.struct_create") {
                return index.map_or(FoldResult::Fail, |i| value(ir, p, i));
            }
            if let (Some(p), Some(_)) = (made_by("hw.struct_inject"), index) {
                if field_of(ctx, ir, p) == index {
                    return value(ir, p, 1);
                }
                // Another field: read it from the struct injected into.
                let inner = ir.operand(p, 0);
                fc.ir.set_operand(op, 0, inner);
                return FoldResult::InPlace;
            }
            FoldResult::Fail
        }
        "hw.struct_inject" => match made_by("hw.struct_inject") {
            // The same field injected twice: the first is overwritten.
            Some(p) if field_of(ctx, ir, p) == field_of(ctx, ir, op) => {
                let inner = ir.operand(p, 0);
                fc.ir.set_operand(op, 0, inner);
                FoldResult::InPlace
            }
            _ => FoldResult::Fail,
        },
        "hw.array_get" => {
            let Some(n) = array_of(ctx, ir.value_type(input)).map(|a| a.0) else {
                return FoldResult::Fail;
            };
            let Some(i) = consts.get(1).copied().flatten().and_then(|a| index(ctx, a)) else {
                return FoldResult::Fail;
            };
            // Element `i` is the `i`-th from the end of the operand list.
            let Some(position) = n.checked_sub(i + 1).map(|p| p as usize) else {
                return FoldResult::Fail;
            };
            if let Some(p) = made_by("hw.array_create") {
                return value(ir, p, position);
            }
            if let Some(p) = made_by("hw.aggregate_constant") {
                return constant_element(ctx, ir, p, position);
            }
            FoldResult::Fail
        }
        "hw.union_extract" => {
            let Some(p) = made_by("hw.union_create") else {
                return FoldResult::Fail;
            };
            let Some(fields) = union_fields(ctx, ir.value_type(input)) else {
                return FoldResult::Fail;
            };
            let (Some(read), Some(made)) = (
                field_of(ctx, ir, op).and_then(|i| fields.get(i)),
                field_of(ctx, ir, p).and_then(|i| fields.get(i)),
            ) else {
                return FoldResult::Fail;
            };
            if read.ty == made.ty && read.offset == made.offset {
                value(ir, p, 0)
            } else {
                FoldResult::Fail
            }
        }
        "hw.bitcast" => {
            let result = ir.value_type(ir.result(op, 0));
            if types::canonical(ctx, ir.value_type(input)) == types::canonical(ctx, result) {
                return FoldResult::value(input);
            }
            match made_by("hw.bitcast") {
                Some(p) => {
                    let inner = ir.operand(p, 0);
                    if types::canonical(ctx, ir.value_type(inner)) == types::canonical(ctx, result)
                    {
                        return FoldResult::value(inner);
                    }
                    fc.ir.set_operand(op, 0, inner);
                    FoldResult::InPlace
                }
                None => FoldResult::Fail,
            }
        }
        "hw.array_concat" if operands.len() == 1 => FoldResult::value(input),
        _ => FoldResult::Fail,
    }
}

/// Operand `i` of `producer` as the folded value.
fn value(ir: &Ir, producer: OpId, i: usize) -> FoldResult {
    match ir.operands(producer).nth(i) {
        Some(v) => FoldResult::value(v),
        None => FoldResult::Fail,
    }
}

/// An integer constant as an index.
fn index(ctx: &Context, a: Attr) -> Option<u64> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, ty } => {
            // Indices are unsigned: read the stored (signed) value modulo
            // its width.
            let w = ctx.int_width(*ty)?;
            let m = num_bigint::BigInt::from(1) << w;
            u64::try_from(((value % &m) + &m) % &m).ok()
        }
        _ => None,
    }
}

/// Element `position` (in attribute order) of an `hw.aggregate_constant`
/// array, when it is an integer.
fn constant_element(ctx: &Context, ir: &Ir, constant: OpId, position: usize) -> FoldResult {
    let Some(AttrKind::Array(items)) =
        inherent_attr(ctx, ir, constant, "fields").map(|a| ctx.attr_kind(a))
    else {
        return FoldResult::Fail;
    };
    match items.get(position) {
        Some(&item) if matches!(ctx.attr_kind(item), AttrKind::Integer { .. }) => {
            let element = array_of(ctx, ir.value_type(ir.result(constant, 0))).map(|a| a.1);
            if element.is_some_and(|e| ctx.int_width(e).is_some()) {
                FoldResult::attr(item)
            } else {
                FoldResult::Fail
            }
        }
        _ => FoldResult::Fail,
    }
}
