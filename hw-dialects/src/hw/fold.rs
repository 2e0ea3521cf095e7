//! `hw.constant`'s fold, and the constant materializer of the hw, comb
//! and seq dialects: the op a fold's constant becomes (`hw.constant`, or
//! `seq.const_clock` for a clock).

use silica_ir::dialect::inherent_attr;
use silica_ir::graph::OpSpec;
use silica_ir::rewrite::{FoldCtx, FoldResult, Rewriter};
use silica_ir::{Attr, AttrKind, OpId, Type};

/// `hw.constant`'s value.
pub fn fold_constant(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    match inherent_attr(fc.ctx, fc.ir, op, "value") {
        Some(v) => FoldResult::attr(v),
        None => FoldResult::Fail,
    }
}

/// Builds `hw.constant` for an integer value, and `seq.const_clock` for
/// a clock (whose constant value is an `i1`).
pub fn materialize_constant(
    rw: &mut Rewriter<'_>,
    value: Attr,
    ty: Type,
    loc: Attr,
) -> Option<OpId> {
    if crate::types::is_clock(rw.ctx, ty) {
        let AttrKind::Integer { ty: bit, .. } = rw.ctx.attr_kind(value) else {
            return None;
        };
        if rw.ctx.int_width(*bit) != Some(1) {
            return None;
        }
        let key = rw.ctx.sym("value");
        let props = rw.ctx.dict_attr(vec![(key, value)]);
        return Some(rw.create_simple("seq.const_clock", &[], &[ty], Some(props), loc));
    }
    let ok = matches!(rw.ctx.attr_kind(value), AttrKind::Integer { ty: t, .. } if *t == ty);
    if !ok {
        return None;
    }
    let key = rw.ctx.sym("value");
    let attrs = rw.ctx.dict_attr(vec![(key, value)]);
    let name = rw.ctx.sym("hw.constant");
    Some(rw.create(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}
