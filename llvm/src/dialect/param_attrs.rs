//! Checks of the `llvm.*` argument and result attributes of an
//! `llvm.func` (MLIR's `verifyParameterAttribute` and
//! `verifyRegionResultAttribute`): each has a value kind (unit, integer or
//! type attribute) and applies to pointer or integer values only where
//! LLVM says so; some are not valid on results at all.

use silica_ir::{Attr, AttrKind, Context, Type};

/// What a parameter attribute's value must be.
#[derive(Clone, Copy, PartialEq)]
enum Value {
    Unit,
    Integer,
    Type,
}

/// What type of value it may be attached to.
#[derive(Clone, Copy, PartialEq)]
enum Target {
    Pointer,
    Integer,
    Any,
}

/// The parameter attributes LLVM constrains.
const RULES: &[(&str, Value, Target)] = &[
    ("llvm.noalias", Value::Unit, Target::Pointer),
    ("llvm.readonly", Value::Unit, Target::Pointer),
    ("llvm.readnone", Value::Unit, Target::Pointer),
    ("llvm.writeonly", Value::Unit, Target::Pointer),
    ("llvm.nest", Value::Unit, Target::Pointer),
    ("llvm.nocapture", Value::Unit, Target::Pointer),
    ("llvm.nofree", Value::Unit, Target::Pointer),
    ("llvm.nonnull", Value::Unit, Target::Pointer),
    ("llvm.sret", Value::Type, Target::Pointer),
    ("llvm.byval", Value::Type, Target::Pointer),
    ("llvm.byref", Value::Type, Target::Pointer),
    ("llvm.elementtype", Value::Type, Target::Pointer),
    ("llvm.inalloca", Value::Type, Target::Pointer),
    ("llvm.preallocated", Value::Type, Target::Pointer),
    ("llvm.signext", Value::Unit, Target::Integer),
    ("llvm.zeroext", Value::Unit, Target::Integer),
    ("llvm.align", Value::Integer, Target::Pointer),
    ("llvm.dereferenceable", Value::Integer, Target::Pointer),
    (
        "llvm.dereferenceable_or_null",
        Value::Integer,
        Target::Pointer,
    ),
    ("llvm.alignstack", Value::Integer, Target::Any),
    ("llvm.noundef", Value::Unit, Target::Any),
    ("llvm.inreg", Value::Unit, Target::Any),
    ("llvm.returned", Value::Unit, Target::Any),
];

/// Attributes that only arguments may carry.
const NOT_ON_RESULTS: &[&str] = &[
    "llvm.allocalign",
    "llvm.allocptr",
    "llvm.byval",
    "llvm.byref",
    "llvm.inalloca",
    "llvm.nest",
    "llvm.nocapture",
    "llvm.nofree",
    "llvm.preallocated",
    "llvm.readnone",
    "llvm.readonly",
    "llvm.alignstack",
    "llvm.sret",
    "llvm.writeonly",
];

/// The error for attribute `name` = `value` on a parameter of type `ty`.
pub(crate) fn check(
    ctx: &Context,
    name: &str,
    value: Attr,
    ty: Type,
    result: bool,
) -> Option<String> {
    if result && NOT_ON_RESULTS.contains(&name) {
        return Some(format!("\"{name}\" is not a valid result attribute"));
    }
    let &(_, kind, target) = RULES.iter().find(|(n, ..)| *n == name)?;
    let value_ok = matches!(
        (kind, ctx.attr_kind(value)),
        (Value::Unit, AttrKind::Unit)
            | (Value::Integer, AttrKind::Integer { .. })
            | (Value::Type, AttrKind::Type(_))
    );
    if !value_ok {
        let what = match kind {
            Value::Unit => "a unit",
            Value::Integer => "an integer",
            Value::Type => "a type",
        };
        return Some(format!("\"{name}\" should be {what} attribute"));
    }
    match target {
        Target::Pointer if !crate::dialect::types::is_ptr(ctx, ty) => Some(format!(
            "\"{name}\" attribute attached to non-pointer LLVM type"
        )),
        Target::Integer if ctx.int_width(ty).is_none() => Some(format!(
            "\"{name}\" attribute attached to non-integer LLVM type"
        )),
        _ => None,
    }
}
