//! LLVM IR constants from attributes: integers, floats (as LLVM's exact
//! hexadecimal forms), strings (`c"..."`), and dense elements as vector
//! or (nested) array constants.

use super::types::ir_type;
use crate::dialect::types::{llvm_type, LlvmType};
use silica_ir::float::FloatKind;
use silica_ir::{Attr, AttrKind, Context, Type, TypeKind};

/// The constant `a` as a value of LLVM type `t` (without the type).
pub fn constant(ctx: &Context, a: Attr, t: Type) -> Result<String, String> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Ok(int_text(ctx, t, value)),
        AttrKind::Float { ty, bits } => float_text(ctx, *ty, *bits),
        AttrKind::String { value, .. } => Ok(string_text(value)),
        AttrKind::DenseElements { values, .. } => {
            let n = element_count(ctx, t).ok_or("dense constant of a non-aggregate type")?;
            if let [splat] = values.as_ref() {
                return splat_constant(ctx, *splat, t, n);
            }
            if values.len() != n {
                return Err("dense constant does not match its type".into());
            }
            let mut it = values.iter().copied();
            aggregate(ctx, t, &mut it)
        }
        _ => Err(format!(
            "attribute '{}' has no LLVM IR constant form",
            silica_ir::printer::attr_to_string(ctx, a)
        )),
    }
}

fn int_text(ctx: &Context, t: Type, value: &silica_ir::BigInt) -> String {
    if ctx.int_width(t) == Some(1) {
        return if *value == 0.into() { "false" } else { "true" }.into();
    }
    value.to_string()
}

/// LLVM's hexadecimal float forms: doubles' bits for `float` and
/// `double`, `0xH`/`0xR` for half and bfloat.
pub fn float_text(ctx: &Context, ty: Type, bits: u128) -> Result<String, String> {
    match ctx.float_kind(ty) {
        Some(FloatKind::F64) => Ok(format!("0x{:016X}", bits as u64)),
        Some(FloatKind::F32) => {
            let d = f64::from(f32::from_bits(bits as u32));
            Ok(format!("0x{:016X}", d.to_bits()))
        }
        Some(FloatKind::F16) => Ok(format!("0xH{:04X}", bits as u16)),
        Some(FloatKind::BF16) => Ok(format!("0xR{:04X}", bits as u16)),
        Some(FloatKind::F80) => Ok(format!("0xK{:020X}", bits)),
        _ => Err("float format has no LLVM IR constant form".into()),
    }
}

/// `c"..."` with non-printable bytes escaped.
pub fn string_text(bytes: &[u8]) -> String {
    format!("c{}", quoted(bytes))
}

/// `"..."` with non-printable bytes, quotes and backslashes escaped as
/// `\XX`.
pub fn quoted(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            s.push(b as char);
        } else {
            s.push_str(&format!("\\{b:02X}"));
        }
    }
    s.push('"');
    s
}

fn element_count(ctx: &Context, t: Type) -> Option<usize> {
    match llvm_type(ctx, t) {
        Some(LlvmType::Array(n, e)) => usize::try_from(n)
            .ok()?
            .checked_mul(element_count(ctx, e).unwrap_or(1)),
        Some(_) => None,
        None => match ctx.type_kind(t) {
            TypeKind::Vector { shape, .. } => shape
                .iter()
                .try_fold(1usize, |acc, &d| acc.checked_mul(usize::try_from(d).ok()?)),
            _ => None,
        },
    }
}

/// The most elements a dense constant is written out with; larger ones
/// are zero (`zeroinitializer`), vector splats (`splat (...)`), or an
/// error.
const MAX_WRITTEN_ELEMENTS: usize = 1 << 24;

/// A dense splat of `n` elements of `value` as a constant of `t`.
fn splat_constant(ctx: &Context, value: Attr, t: Type, n: usize) -> Result<String, String> {
    let zero = match ctx.attr_kind(value) {
        AttrKind::Integer { value, .. } => *value == 0.into(),
        AttrKind::Float { bits, .. } => *bits == 0,
        _ => false,
    };
    if zero {
        return Ok("zeroinitializer".into());
    }
    if let TypeKind::Vector { shape, element, .. } = ctx.type_kind(t) {
        if shape.len() == 1 {
            let e = constant(ctx, value, *element)?;
            return Ok(format!("splat ({} {e})", ir_type(ctx, *element)?));
        }
    }
    if n > MAX_WRITTEN_ELEMENTS {
        return Err(format!(
            "a splat constant of {n} elements is too large to write out"
        ));
    }
    aggregate(ctx, t, &mut std::iter::repeat_n(value, n))
}

/// An array or vector constant of `t` from the next elements.
fn aggregate(
    ctx: &Context,
    t: Type,
    it: &mut impl Iterator<Item = Attr>,
) -> Result<String, String> {
    let (open, close, n, element) = match llvm_type(ctx, t) {
        Some(LlvmType::Array(n, e)) => ("[", "]", n as usize, e),
        _ => match ctx.type_kind(t) {
            TypeKind::Vector { shape, element, .. } if shape.len() == 1 => {
                ("<", ">", shape[0] as usize, *element)
            }
            _ => {
                let a = it.next().ok_or("too few elements")?;
                return constant(ctx, a, t);
            }
        },
    };
    let et = ir_type(ctx, element)?;
    let mut parts = Vec::with_capacity(n);
    for _ in 0..n {
        parts.push(format!("{et} {}", aggregate(ctx, element, it)?));
    }
    Ok(format!("{open}{}{close}", parts.join(", ")))
}

/// The zero value of `t` (`null`, `0`, `0.0` or `zeroinitializer`).
pub fn zero(ctx: &Context, t: Type) -> String {
    if let Some(l) = llvm_type(ctx, t) {
        return match l {
            LlvmType::Ptr(_) => "null".into(),
            _ => "zeroinitializer".into(),
        };
    }
    match ctx.type_kind(t) {
        TypeKind::Integer { width: 1, .. } => "false".into(),
        TypeKind::Integer { .. } => "0".into(),
        TypeKind::Float(_) => "0.000000e+00".into(),
        _ => "zeroinitializer".into(),
    }
}
