//! The checks of `llvm.mlir.constant`, with MLIR's messages: the value
//! attribute's kind, types and sizes against the result type (strings as
//! `i8` arrays, structs from arrays of scalars, arrays of structs from
//! nested arrays, dense elements as vectors or arrays of matching
//! elements, floats kept to their semantics).

use crate::dialect::types::{llvm_type, LlvmType};
use silica_ir::dialect::inherent_attr;
use silica_ir::parser::PResult;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, OpId, Type, TypeKind};

/// The element type of a shaped (tensor or vector) type.
fn element_of(ctx: &Context, t: Type) -> Type {
    match ctx.type_kind(t) {
        TypeKind::Vector { element, .. } | TypeKind::RankedTensor { element, .. } => *element,
        TypeKind::UnrankedTensor { element } => *element,
        _ => t,
    }
}

fn is_int(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { .. })
}

fn is_scalar(ctx: &Context, t: Type) -> bool {
    matches!(
        ctx.type_kind(t),
        TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_)
    )
}

/// `#llvm.zero` or `#llvm.undef`.
fn is_zero_or_undef(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Dialect { dialect, name, .. }
        if ctx.str(*dialect) == "llvm" && matches!(ctx.str(*name), "zero" | "undef"))
}

/// A float attribute of type `attr_ty` where values of `ty` are made:
/// the same float type, or an integer of its width.
fn float_fits(attr_ty: Type, ty: Type, ctx: &Context) -> Result<(), String> {
    let TypeKind::Float(a) = ctx.type_kind(attr_ty) else {
        return Ok(());
    };
    match ctx.type_kind(ty) {
        TypeKind::Float(b) if a.bit_width() != b.bit_width() => {
            Err(format!("expected float type of width {}", a.bit_width()))
        }
        TypeKind::Float(b) if a != b => {
            Err("attribute and type have different float semantics".into())
        }
        TypeKind::Integer { width, .. } if *width != a.bit_width() => {
            Err(format!("expected integer type of width {}", a.bit_width()))
        }
        _ => Ok(()),
    }
}

/// The checks of `llvm.mlir.constant`.
pub(crate) fn verify_constant(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (Some(value), Some(res)) = (inherent_attr(ctx, ir, op, "value"), ir.results(op).next())
    else {
        return Ok(());
    };
    match check(ctx, value, ir.value_type(res)) {
        Ok(()) => Ok(()),
        Err(msg) => Err(v.op_error(op, msg)),
    }
}

fn check(ctx: &Context, value: Attr, ty: Type) -> Result<(), String> {
    let llvm = llvm_type(ctx, ty);
    if let AttrKind::String { value: s, .. } = ctx.attr_kind(value) {
        let ok = matches!(llvm, Some(LlvmType::Array(n, e)) if n == s.len() as u64 && ctx.int_width(e) == Some(8));
        if !ok {
            return Err(format!(
                "expected array type of {} i8 elements for the string constant",
                s.len()
            ));
        }
        return Ok(());
    }
    if let Some(LlvmType::Struct { body, .. }) = &llvm {
        let AttrKind::Array(items) = ctx.attr_kind(value) else {
            return Err("expected array attribute for struct type".into());
        };
        if items.len() != body.len() {
            return Err(format!("expected array attribute of size {}", body.len()));
        }
        for (i, (&item, &t)) in items.iter().zip(body).enumerate() {
            if !is_scalar(ctx, t) {
                return Err(
                    "expected struct element types to be floating point type or integer type"
                        .into(),
                );
            }
            let item_ty = match ctx.attr_kind(item) {
                AttrKind::Integer { ty, .. } | AttrKind::Float { ty, .. } => *ty,
                _ => {
                    return Err(
                        "expected element of array attribute to be floating point or integer"
                            .into(),
                    )
                }
            };
            if item_ty != t {
                return Err(format!("struct element at index {i} is of wrong type"));
            }
        }
        return Ok(());
    }
    if let Some(LlvmType::Target(_)) = llvm {
        return Err("does not support target extension type.".into());
    }
    match ctx.attr_kind(value) {
        AttrKind::Integer { .. } if !is_int(ctx, ty) => Err("expected integer type".into()),
        AttrKind::Float { ty: attr_ty, .. } => float_fits(*attr_ty, ty, ctx),
        AttrKind::DenseElements { ty: shaped, values } => {
            check_elements(ctx, *shaped, values.len(), ty)
        }
        AttrKind::Array(items) => match llvm {
            Some(LlvmType::Array(..)) => check_struct_array(ctx, items, ty, 0),
            _ => Err("expected array or struct type for array attribute".into()),
        },
        AttrKind::Integer { .. }
        | AttrKind::DenseResource { .. }
        | AttrKind::DenseStrings { .. } => Ok(()),
        AttrKind::Dialect { .. } => Ok(()),
        _ => Err("only supports integer, float, string or elements attributes".into()),
    }
}

/// Dense elements of shaped type `shaped` (`stored` values: one for a
/// splat) made as values of `ty`.
fn check_elements(ctx: &Context, shaped: Type, stored: usize, ty: Type) -> Result<(), String> {
    let attr_element = element_of(ctx, shaped);
    let count = |t: Type| match ctx.type_kind(t) {
        TypeKind::Vector { shape, .. } | TypeKind::RankedTensor { shape, .. } => {
            Some(shape.iter().product::<i64>())
        }
        _ => None,
    };
    match ctx.type_kind(ty) {
        TypeKind::Vector {
            scalable, element, ..
        } => {
            if scalable.iter().any(|&s| s) {
                if stored != 1 {
                    return Err("scalable vector type requires a splat attribute".into());
                }
            } else if let (Some(n), Some(m)) = (count(ty), count(shaped)) {
                if n != m {
                    return Err(format!(
                        "type and attribute have a different number of elements: {n} vs. {m}"
                    ));
                }
            }
            if is_int(ctx, attr_element) && !is_int(ctx, *element) {
                return Err("expected integer element type".into());
            }
            float_fits(attr_element, *element, ctx)
        }
        _ if matches!(llvm_type(ctx, ty), Some(LlvmType::Array(..))) => Ok(()),
        _ => Err("expected vector or array type".into()),
    }
}

/// An array attribute for an llvm array: arrays of structs, nested, each
/// level the array's size, each leaf a struct's fields (or zero/undef).
fn check_struct_array(ctx: &Context, items: &[Attr], ty: Type, dim: usize) -> Result<(), String> {
    let Some(LlvmType::Array(n, element)) = llvm_type(ctx, ty) else {
        return Ok(());
    };
    let mut innermost = element;
    while let Some(LlvmType::Array(_, e)) = llvm_type(ctx, innermost) {
        innermost = e;
    }
    if !matches!(llvm_type(ctx, innermost), Some(LlvmType::Struct { .. })) {
        return Err("for array with an array attribute must have a struct element type".into());
    }
    if items.len() as u64 != n {
        return Err(format!(
            "array attribute size does not match array type size in dimension {dim}: {} vs. {n}",
            items.len()
        ));
    }
    for (i, &item) in items.iter().enumerate() {
        if is_zero_or_undef(ctx, item) {
            continue;
        }
        let AttrKind::Array(nested) = ctx.attr_kind(item) else {
            return Err(match llvm_type(ctx, element) {
                Some(LlvmType::Array(..)) => format!(
                    "nested attribute for sub-array in dimension {dim} at index {i} must be a zero, or undef, or array attribute"
                ),
                _ => format!(
                    "nested attribute for struct element at index {i} must be a zero, undef, or array attribute"
                ),
            });
        };
        match llvm_type(ctx, element) {
            Some(LlvmType::Array(..)) => check_struct_array(ctx, nested, element, dim + 1)?,
            Some(LlvmType::Struct { body, .. }) if nested.len() != body.len() => {
                return Err(format!(
                    "nested array attribute size for struct element at index {i} must match struct size: {} vs. {}",
                    nested.len(),
                    body.len()
                ));
            }
            _ => {}
        }
    }
    Ok(())
}
