//! Folds of llvm ops as MLIR's: `llvm.mlir.undef`/`poison`/`zero` are
//! constants (`#llvm.undef`, `#llvm.poison`, `#llvm.zero`), so the
//! canonicalizer hoists and merges them; `icmp eq/ne` of a value with
//! itself or of a stack address with null; chains of `bitcast` and
//! `addrspacecast`; `getelementptr` with constant indices; one-element
//! `shufflevector`; and the dialect's constant materialisation.

use silica_ir::dialect::{inherent_attr, set_inherent_attr};
use silica_ir::rewrite::{FoldCtx, FoldResult, Rewriter};
use silica_ir::{Attr, AttrKind, Context, OpId, Type, TypeKind, ValueId};

/// The value kinds with an op and an attribute of their own.
const VALUE_KINDS: [&str; 3] = ["undef", "poison", "zero"];

/// The attribute an undef, poison or zero op folds to (`#llvm.<kind>`).
pub(crate) fn value_attr(ctx: &mut Context, kind: &str) -> Attr {
    crate::dialect::attrs::raw_attr(ctx, kind, "")
}

/// `undef`, `poison` or `zero` when `a` is the attribute of one.
pub(crate) fn value_attr_kind(ctx: &Context, a: Attr) -> Option<&'static str> {
    let AttrKind::Dialect {
        dialect,
        name,
        params,
    } = ctx.attr_kind(a)
    else {
        return None;
    };
    let bare = matches!(&params[..], [m, t] if matches!(ctx.attr_kind(*m), AttrKind::Unit)
        && matches!(ctx.attr_kind(*t), AttrKind::String { value, .. } if value.is_empty()));
    if ctx.str(*dialect) != "llvm" || !bare {
        return None;
    }
    VALUE_KINDS.into_iter().find(|k| ctx.str(*name) == *k)
}

/// The fold of `llvm.mlir.undef`, `poison` and `zero`: their attribute.
pub(crate) fn fold_value_op(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let name = fc.ctx.str(fc.ir.op_name(op)).to_string();
    let kind = name.trim_start_matches("llvm.mlir.");
    FoldResult::attr(value_attr(fc.ctx, kind))
}

/// The fold of `llvm.mlir.addressof`: the symbol it names (a constant
/// the dialect materialises as an `addressof` again).
pub(crate) fn fold_addressof(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    match silica_ir::dialect::inherent_attr(fc.ctx, fc.ir, op, "global_name") {
        Some(a) => FoldResult::attr(a),
        None => FoldResult::Fail,
    }
}

/// MLIR's `LLVMDialect::materializeConstant`: symbol references as
/// `addressof`, undef/poison/zero as their ops, other attributes as
/// `llvm.mlir.constant` where they fit the type.
pub(crate) fn materialize_constant(
    rw: &mut Rewriter<'_>,
    value: Attr,
    ty: Type,
    loc: Attr,
) -> Option<OpId> {
    if let Some(kind) = value_attr_kind(rw.ctx, value) {
        let name = format!("llvm.mlir.{kind}");
        return Some(rw.create_simple(&name, &[], &[ty], None, loc));
    }
    let (name, key) = match rw.ctx.attr_kind(value) {
        AttrKind::SymbolRef { nested, .. }
            if nested.is_empty() && crate::dialect::types::is_ptr(rw.ctx, ty) =>
        {
            ("llvm.mlir.addressof", "global_name")
        }
        AttrKind::Integer { ty: t, .. } | AttrKind::Float { ty: t, .. } if *t == ty => {
            ("llvm.mlir.constant", "value")
        }
        AttrKind::DenseElements { ty: t, .. }
            if rw.ctx.shaped(*t).map(|s| s.1) == rw.ctx.shaped(ty).map(|s| s.1) =>
        {
            ("llvm.mlir.constant", "value")
        }
        _ => return None,
    };
    let key = rw.ctx.sym(key);
    let props = rw.ctx.dict_attr(vec![(key, value)]);
    Some(rw.create_simple(name, &[], &[ty], Some(props), loc))
}

/// The name of the op defining `v`, if an op does.
fn defining_name<'c>(fc: &'c FoldCtx<'_>, v: ValueId) -> Option<&'c str> {
    let def = fc.ir.defining_op(v)?;
    Some(fc.ctx.str(fc.ir.op_name(def)))
}

/// A boolean constant of the comparison's result type (`i1` or a vector
/// of `i1`).
fn bool_attr(ctx: &mut Context, ty: Type, value: bool) -> Attr {
    let i1 = ctx.signless(1);
    let b = ctx.int_attr(i1, i64::from(value));
    match ctx.type_kind(ty) {
        TypeKind::Vector { .. } => ctx.intern_attr(AttrKind::DenseElements {
            ty,
            values: Box::new([b]),
        }),
        _ => b,
    }
}

/// `icmp eq`/`ne`: of a value with itself, constant; a stack address is
/// never null.
pub(crate) fn fold_icmp(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let Some(pred) = inherent_attr(fc.ctx, fc.ir, op, "predicate") else {
        return FoldResult::Fail;
    };
    let pred = crate::dialect::attrs::ICMP_PREDICATES
        .get(crate::dialect::attrs::bits_of(fc.ctx, pred) as usize)
        .copied()
        .unwrap_or("");
    let (lhs, rhs) = (fc.ir.operand(op, 0), fc.ir.operand(op, 1));
    let ty = fc.ir.value_type(fc.ir.result(op, 0));
    // Only equality predicates fold, as in MLIR.
    if !matches!(pred, "eq" | "ne") {
        return FoldResult::Fail;
    }
    if lhs == rhs {
        return FoldResult::attr(bool_attr(fc.ctx, ty, pred == "eq"));
    }
    match (defining_name(fc, lhs), defining_name(fc, rhs)) {
        (Some("llvm.alloca"), Some("llvm.mlir.zero")) => {
            FoldResult::attr(bool_attr(fc.ctx, ty, pred == "ne"))
        }
        (Some("llvm.mlir.zero"), Some("llvm.alloca")) => {
            fc.ir.set_operand(op, 0, rhs);
            fc.ir.set_operand(op, 1, lhs);
            FoldResult::InPlace
        }
        _ => FoldResult::Fail,
    }
}

/// `bitcast` and `addrspacecast`: a cast to the same type is its operand,
/// a round trip through another cast is the original value, and a chain
/// of two casts becomes one.
pub(crate) fn fold_chainable_cast(
    fc: &mut FoldCtx<'_>,
    op: OpId,
    _: &[Option<Attr>],
) -> FoldResult {
    let arg = fc.ir.operand(op, 0);
    let ty = fc.ir.value_type(fc.ir.result(op, 0));
    if fc.ir.value_type(arg) == ty {
        return FoldResult::value(arg);
    }
    let Some(prev) = fc.ir.defining_op(arg) else {
        return FoldResult::Fail;
    };
    if fc.ir.op_name(prev) != fc.ir.op_name(op) {
        return FoldResult::Fail;
    }
    let source = fc.ir.operand(prev, 0);
    if fc.ir.value_type(source) == ty {
        return FoldResult::value(source);
    }
    fc.ir.set_operand(op, 0, source);
    FoldResult::InPlace
}

/// `getelementptr`: one zero index on the base's type is the base;
/// dynamic indices with constant values that fit 32 bits become constant
/// indices.
pub(crate) fn fold_gep(fc: &mut FoldCtx<'_>, op: OpId, constants: &[Option<Attr>]) -> FoldResult {
    let Some(raw) = inherent_attr(fc.ctx, fc.ir, op, "rawConstantIndices")
        .and_then(|a| fc.ctx.int_array_values(a))
    else {
        return FoldResult::Fail;
    };
    let operands: Vec<ValueId> = fc.ir.operands(op).collect();
    let constant_of = |fc: &FoldCtx<'_>, i: usize| -> Option<i64> {
        match constants
            .get(i)
            .copied()
            .flatten()
            .map(|a| fc.ctx.attr_kind(a))
        {
            Some(AttrKind::Integer { value, .. }) => i64::try_from(value).ok(),
            _ => None,
        }
    };
    // The value of each index: constant or dynamic (its operand number).
    let mut next = 1;
    let mut indices = Vec::with_capacity(raw.len());
    for &r in &raw {
        if r == crate::dialect::DYNAMIC_INDEX {
            indices.push((constant_of(fc, next), Some(next)));
            next += 1;
        } else {
            indices.push((Some(r), None));
        }
    }
    let base = operands[0];
    let result_ty = fc.ir.value_type(fc.ir.result(op, 0));
    if fc.ir.value_type(base) == result_ty && matches!(indices[..], [(Some(0), _)]) {
        return FoldResult::value(base);
    }
    let fits =
        |c: i64| i32::try_from(c).is_ok_and(|c| i64::from(c) != crate::dialect::DYNAMIC_INDEX);
    if !indices
        .iter()
        .any(|(c, operand)| operand.is_some() && c.is_some_and(fits))
    {
        return FoldResult::Fail;
    }
    let mut new_raw = Vec::with_capacity(raw.len());
    let mut new_operands = vec![base];
    for (c, operand) in indices {
        match (c, operand) {
            (Some(c), Some(_)) if fits(c) => new_raw.push(c),
            (_, Some(i)) => {
                new_raw.push(crate::dialect::DYNAMIC_INDEX);
                new_operands.push(operands[i]);
            }
            (c, None) => new_raw.push(c.unwrap_or(0)),
        }
    }
    fc.ir.set_operands(op, &new_operands);
    let a = fc.ctx.int_array_attr(32, &new_raw);
    set_inherent_attr(fc.ctx, fc.ir, op, "rawConstantIndices", a);
    FoldResult::InPlace
}

/// `shufflevector` of one-element vectors picking element 0: the first
/// operand.
pub(crate) fn fold_shufflevector(fc: &mut FoldCtx<'_>, op: OpId, _: &[Option<Attr>]) -> FoldResult {
    let v1 = fc.ir.operand(op, 0);
    let ty = fc.ir.value_type(v1);
    let one_element = matches!(fc.ctx.type_kind(ty), TypeKind::Vector { shape, scalable, .. }
        if shape[..] == [1] && !scalable.iter().any(|s| *s));
    if !one_element || fc.ir.value_type(fc.ir.result(op, 0)) != ty {
        return FoldResult::Fail;
    }
    let mask = inherent_attr(fc.ctx, fc.ir, op, "mask").and_then(|a| fc.ctx.int_array_values(a));
    match mask.as_deref() {
        Some([0]) => FoldResult::value(v1),
        _ => FoldResult::Fail,
    }
}
