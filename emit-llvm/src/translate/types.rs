//! LLVM IR spellings of types: builtin integers, floats and vectors,
//! and the llvm dialect's pointers, structs, arrays and functions.

use crate::types::{llvm_type, LlvmType};
use silica_ir::float::FloatKind;
use silica_ir::{Context, Type, TypeKind};

/// The LLVM IR text of `t`, or what is wrong with it.
pub fn ir_type(ctx: &Context, t: Type) -> Result<String, String> {
    if let Some(l) = llvm_type(ctx, t) {
        return Ok(match l {
            LlvmType::Ptr(0) => "ptr".into(),
            LlvmType::Ptr(n) => format!("ptr addrspace({n})"),
            LlvmType::Void => "void".into(),
            LlvmType::Token => "token".into(),
            LlvmType::Label => "label".into(),
            LlvmType::Metadata => "metadata".into(),
            LlvmType::Struct { name: Some(n), .. } => {
                return Err(format!(
                    "identified struct \"{}\" is not translated yet",
                    String::from_utf8_lossy(n)
                ))
            }
            LlvmType::Struct { packed, body, .. } => struct_body(ctx, &body, packed)?,
            LlvmType::Array(n, e) => format!("[{n} x {}]", ir_type(ctx, e)?),
            LlvmType::Func {
                result,
                params,
                vararg,
            } => {
                let mut ps: Vec<String> = params
                    .iter()
                    .map(|p| ir_type(ctx, *p))
                    .collect::<Result<_, _>>()?;
                if vararg {
                    ps.push("...".into());
                }
                format!("{} ({})", ir_type(ctx, result)?, ps.join(", "))
            }
            LlvmType::Vec {
                scalable,
                count,
                element,
            } => format!(
                "<{}{count} x {}>",
                if scalable { "vscale x " } else { "" },
                ir_type(ctx, element)?
            ),
            LlvmType::Target(_) | LlvmType::Other(_) => {
                return Err(format!(
                    "type '{}' has no LLVM IR translation",
                    silica_ir::printer::type_to_string(ctx, t)
                ))
            }
        });
    }
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Ok(format!("i{width}")),
        TypeKind::Float(k) => float_name(*k).map(str::to_string).ok_or_else(|| {
            format!(
                "type '{}' has no LLVM IR translation",
                silica_ir::printer::type_to_string(ctx, t)
            )
        }),
        TypeKind::Vector {
            shape,
            scalable,
            element,
        } if shape.len() == 1 => Ok(format!(
            "<{}{} x {}>",
            if scalable[0] { "vscale x " } else { "" },
            shape[0],
            ir_type(ctx, *element)?
        )),
        _ => Err(format!(
            "type '{}' has no LLVM IR translation (convert it to the llvm dialect first)",
            silica_ir::printer::type_to_string(ctx, t)
        )),
    }
}

/// `{ a, b }` or `<{ a, b }>`.
pub fn struct_body(ctx: &Context, body: &[Type], packed: bool) -> Result<String, String> {
    if body.is_empty() {
        return Ok(if packed { "<{}>" } else { "{}" }.into());
    }
    let fields: Vec<String> = body
        .iter()
        .map(|t| ir_type(ctx, *t))
        .collect::<Result<_, _>>()?;
    let inner = format!("{{ {} }}", fields.join(", "));
    Ok(if packed { format!("<{inner}>") } else { inner })
}

/// The LLVM name of a float format, where LLVM has it.
pub fn float_name(k: FloatKind) -> Option<&'static str> {
    Some(match k {
        FloatKind::F16 => "half",
        FloatKind::BF16 => "bfloat",
        FloatKind::F32 => "float",
        FloatKind::F64 => "double",
        FloatKind::F80 => "x86_fp80",
        FloatKind::F128 => "fp128",
        _ => return None,
    })
}

/// The suffix of an overloaded intrinsic for type `t` (`f32`, `i64`,
/// `v4f32`, `p0`).
pub fn mangle(ctx: &Context, t: Type) -> Result<String, String> {
    if let Some(LlvmType::Ptr(n)) = llvm_type(ctx, t) {
        return Ok(format!("p{n}"));
    }
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Ok(format!("i{width}")),
        TypeKind::Float(k) => Ok(match k {
            FloatKind::F16 => "f16",
            FloatKind::BF16 => "bf16",
            FloatKind::F32 => "f32",
            FloatKind::F64 => "f64",
            FloatKind::F80 => "f80",
            FloatKind::F128 => "f128",
            _ => return Err("unsupported float type in intrinsic".into()),
        }
        .into()),
        TypeKind::Vector {
            shape,
            scalable,
            element,
        } if shape.len() == 1 => Ok(format!(
            "{}v{}{}",
            if scalable[0] { "nx" } else { "" },
            shape[0],
            mangle(ctx, *element)?
        )),
        _ => Err("unsupported type in intrinsic".into()),
    }
}
