//! Folding of comb ops through the one evaluator ([`crate::eval`]):
//! ops whose operands are all constants fold to `hw.constant`, and
//! CIRCT's identities fold ops to one of their operands (`x + 0`,
//! `x & ~0`, `x * 1`, a mux on a constant or between equal values, a
//! full-width extract, a one-operand concat, shifts by zero, `x ^ x`,
//! comparisons of a value with itself). Used by `--canonicalize`.

use crate::eval::{eval_op, Bits, Predicate};
use crate::types::bit_width;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::{FoldCtx, FoldResult};
use silica_ir::{Attr, AttrKind, Context, OpId};

fn bits_of(ctx: &Context, a: Attr, width: u32) -> Option<Bits> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(Bits::from_bigint(width, value)),
        _ => None,
    }
}

fn is_zero(ctx: &Context, a: Option<Attr>) -> bool {
    matches!(a.map(|a| ctx.attr_kind(a)), Some(AttrKind::Integer { value, .. }) if *value == 0.into())
}

fn is_all_ones(ctx: &Context, a: Option<Attr>) -> bool {
    // Constants are stored signed: all ones is -1 (or 1 for `i1`, which
    // prints as `true`).
    match a.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, ty }) => {
            *value == (-1).into() || (ctx.int_width(*ty) == Some(1) && *value != 0.into())
        }
        _ => false,
    }
}

fn is_one(ctx: &Context, a: Option<Attr>) -> bool {
    match a.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, ty }) => {
            *value == 1.into() || (ctx.int_width(*ty) == Some(1) && *value != 0.into())
        }
        _ => false,
    }
}

/// The fold hook of every comb op.
pub fn fold_comb(fc: &mut FoldCtx<'_>, op: OpId, consts: &[Option<Attr>]) -> FoldResult {
    let (ctx, ir) = (&*fc.ctx, &*fc.ir);
    let name = ctx.str(ir.op_name(op));
    let operands: Vec<_> = ir.operands(op).collect();
    let Some(result) = ir.results(op).next() else {
        return FoldResult::Fail;
    };
    let rty = ir.value_type(result);
    if ctx.int_width(rty).is_none() || operands.is_empty() || consts.len() != operands.len() {
        return FoldResult::Fail;
    }
    // Every operand constant: evaluate.
    if consts.iter().all(Option::is_some) {
        let args: Option<Vec<Bits>> = operands
            .iter()
            .zip(consts)
            .map(|(&v, c)| bits_of(ctx, (*c)?, bit_width(ctx, ir.value_type(v))? as u32))
            .collect();
        let divides_by_zero = matches!(name, "comb.divu" | "comb.divs" | "comb.modu" | "comb.mods")
            && is_zero(ctx, consts[1]);
        if let (Some(args), false) = (args, divides_by_zero) {
            if let Ok(b) = eval_op(ctx, ir, op, &args) {
                let v = b.signed();
                return FoldResult::attr(fc.ctx.int_attr(rty, v));
            }
        }
        return FoldResult::Fail;
    }
    let same = |i: usize, j: usize| operands[i] == operands[j];
    let value = |i: usize| FoldResult::value(operands[i]);
    let two = operands.len() == 2;
    match name {
        "comb.add" | "comb.or" | "comb.xor" if two && is_zero(ctx, consts[1]) => value(0),
        "comb.and" if two && is_all_ones(ctx, consts[1]) => value(0),
        "comb.mul" if two && is_one(ctx, consts[1]) => value(0),
        "comb.and" | "comb.or" if two && same(0, 1) => value(0),
        "comb.and" | "comb.mul" if two && is_zero(ctx, consts[1]) => {
            FoldResult::attr(fc.ctx.int_attr(rty, 0))
        }
        "comb.xor" if two && same(0, 1) => FoldResult::attr(fc.ctx.int_attr(rty, 0)),
        "comb.add" | "comb.mul" | "comb.and" | "comb.or" | "comb.xor" if operands.len() == 1 => {
            value(0)
        }
        "comb.sub" | "comb.shl" | "comb.shru" | "comb.shrs" if is_zero(ctx, consts[1]) => value(0),
        "comb.sub" if same(0, 1) => FoldResult::attr(fc.ctx.int_attr(rty, 0)),
        "comb.divu" | "comb.divs" if is_one(ctx, consts[1]) && ctx.int_width(rty) != Some(1) => {
            value(0)
        }
        "comb.mux" if consts[0].is_some() => {
            if is_zero(ctx, consts[0]) {
                value(2)
            } else {
                value(1)
            }
        }
        "comb.mux" if same(1, 2) => value(1),
        "comb.extract" if ctx.int_width(ir.value_type(operands[0])) == ctx.int_width(rty) => {
            value(0)
        }
        "comb.concat" | "comb.replicate"
            if operands.len() == 1 && ir.value_type(operands[0]) == rty =>
        {
            value(0)
        }
        "comb.icmp" if same(0, 1) => {
            let code = match inherent_attr(ctx, ir, op, "predicate").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::Integer { value, .. }) => i64::try_from(value).ok(),
                _ => None,
            };
            let holds = match code.and_then(Predicate::from_code) {
                Some(
                    Predicate::Eq
                    | Predicate::Sle
                    | Predicate::Sge
                    | Predicate::Ule
                    | Predicate::Uge,
                ) => true,
                Some(_) => false,
                None => return FoldResult::Fail,
            };
            FoldResult::attr(fc.ctx.int_attr(rty, i64::from(holds)))
        }
        _ => FoldResult::Fail,
    }
}
