//! `affine.load`'s fold: a load from a constant `memref.global` (through
//! `memref.get_global`) is the element at constant subscripts, or the
//! splat value at any.

use crate::canonicalize::map_attr_of;
use silica_ir::affine::AffineExpr;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::{FoldCtx, FoldResult};
use silica_ir::{Attr, AttrKind, Context, Ir, OpId};

/// The initial value of the constant `memref.global` that
/// `memref.get_global` op `get` names.
fn constant_global_value(ctx: &Context, ir: &Ir, get: OpId) -> Option<Attr> {
    let sym = inherent_attr(ctx, ir, get, "name")?;
    let global = silica_ir::symbols::lookup_from(ctx, ir, get, sym)
        .filter(|&g| ctx.str(ir.op_name(g)) == "memref.global")?;
    inherent_attr(ctx, ir, global, "constant")?;
    let value = inherent_attr(ctx, ir, global, "initial_value")?;
    matches!(ctx.attr_kind(value), AttrKind::DenseElements { .. }).then_some(value)
}

/// `affine.load` of a constant global.
pub fn fold_load(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let (ctx, ir) = (&*fc.ctx, &*fc.ir);
    let Some(get) = ir
        .operands(op)
        .next()
        .and_then(|m| ir.defining_op(m))
        .filter(|&g| ctx.str(ir.op_name(g)) == "memref.get_global")
    else {
        return FoldResult::Fail;
    };
    let Some(value) = constant_global_value(ctx, ir, get) else {
        return FoldResult::Fail;
    };
    let AttrKind::DenseElements { ty, values } = ctx.attr_kind(value) else {
        return FoldResult::Fail;
    };
    if values.len() == 1 {
        return FoldResult::attr(values[0]);
    }
    let Some(map) = map_attr_of(ctx, ir, op) else {
        return FoldResult::Fail;
    };
    let subscripts: Option<Vec<i64>> = map
        .results
        .iter()
        .map(|e| match e {
            AffineExpr::Constant(c) => Some(*c),
            _ => None,
        })
        .collect();
    let (Some(subscripts), Some((Some(shape), _))) = (subscripts, ctx.shaped(*ty)) else {
        return FoldResult::Fail;
    };
    if subscripts.len() != shape.len() {
        return FoldResult::Fail;
    }
    let mut index = 0i64;
    for (&s, &d) in subscripts.iter().zip(shape) {
        if s < 0 || s >= d {
            return FoldResult::Fail;
        }
        index = index * d + s;
    }
    match values.get(index as usize) {
        Some(&v) => FoldResult::attr(v),
        None => FoldResult::Fail,
    }
}
