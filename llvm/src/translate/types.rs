//! LLVM IR spellings of types: builtin integers, floats and vectors,
//! and the llvm dialect's pointers, structs, arrays and functions;
//! identified structs by name, with the `%name = type ...` definitions of
//! those a module uses.

use crate::dialect::types::{float_name, llvm_type, LlvmType};
use silica_ir::float::FloatKind;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Type, TypeKind};

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
            LlvmType::Struct { name: Some(n), .. } => local_name(n),
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

/// `%name` of an identified struct: quoted (with `\XX` escapes) unless
/// it is an LLVM identifier.
pub fn local_name(name: &[u8]) -> String {
    let plain = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'$' | b'.' | b'_');
    let bare = !name.is_empty() && !name[0].is_ascii_digit() && name.iter().all(|&c| plain(c));
    if bare {
        return format!("%{}", String::from_utf8_lossy(name));
    }
    let mut out = String::from("%\"");
    for &c in name {
        if c == b'"' || c == b'\\' || !(0x20..0x7f).contains(&c) {
            out.push_str(&format!("\\{c:02X}"));
        } else {
            out.push(c as char);
        }
    }
    out.push('"');
    out
}

/// The identified structs `t` mentions, in the order first met.
fn collect_structs(ctx: &Context, t: Type, seen: &mut Vec<Type>) {
    match llvm_type(ctx, t) {
        Some(LlvmType::Struct { name, body, .. }) => {
            if name.is_some() {
                if seen.contains(&t) {
                    return;
                }
                seen.push(t);
            }
            for b in body {
                collect_structs(ctx, b, seen);
            }
        }
        Some(LlvmType::Array(_, e)) | Some(LlvmType::Vec { element: e, .. }) => {
            collect_structs(ctx, e, seen)
        }
        Some(LlvmType::Func { result, params, .. }) => {
            collect_structs(ctx, result, seen);
            for p in params {
                collect_structs(ctx, p, seen);
            }
        }
        _ => {}
    }
}

fn collect_attr_structs(ctx: &Context, a: Attr, seen: &mut Vec<Type>) {
    match ctx.attr_kind(a) {
        AttrKind::Type(t) => collect_structs(ctx, *t, seen),
        AttrKind::Array(xs) => xs.iter().for_each(|&x| collect_attr_structs(ctx, x, seen)),
        AttrKind::Dictionary(es) => es
            .iter()
            .for_each(|&(_, x)| collect_attr_structs(ctx, x, seen)),
        _ => {}
    }
}

/// `%name = type { ... }` (or `opaque`) for every identified struct
/// the ops under `module` use, in the order first met.
pub fn struct_definitions(ctx: &Context, ir: &Ir, module: OpId) -> Result<String, String> {
    let mut seen = Vec::new();
    ir.walk(module, &mut |op| {
        for r in ir.results(op) {
            collect_structs(ctx, ir.value_type(r), &mut seen);
        }
        for region in ir.regions(op) {
            for b in ir.region_blocks(region) {
                for &a in ir.block_args(b) {
                    collect_structs(ctx, ir.value_type(a), &mut seen);
                }
            }
        }
        if let Some(props) = ir.op_props(op) {
            collect_attr_structs(ctx, props, &mut seen);
        }
        collect_attr_structs(ctx, ir.op_attrs(op), &mut seen);
    });
    let mut out = String::new();
    for t in seen {
        let Some(LlvmType::Struct {
            name: Some(name),
            packed,
            opaque,
            body,
        }) = llvm_type(ctx, t)
        else {
            continue;
        };
        let definition = if opaque {
            "opaque".to_string()
        } else {
            struct_body(ctx, &body, packed)?
        };
        out.push_str(&format!("{} = type {definition}\n", local_name(name)));
    }
    Ok(out)
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
