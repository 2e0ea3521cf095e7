//! The top function's signature as the hardware contract reads it:
//! scalar arguments (integers, `index`, `f32`/`f64` as raw IEEE bits),
//! memref arguments (static shape, identity layout, integer or float
//! elements, default memory space; allocations also in the on-chip
//! space, 1) and scalar results, each named by its `hls.name` attribute
//! or by position.

use crate::float::Format;
use crate::model::interface::{returned_position, INDEX_WIDTH};
use crate::model::kernel::{Arg, Memory, Scalar, INDEX};
use silica_ir::affine::AffineExpr;
use silica_ir::dialect::inherent_attr;
use silica_ir::float::FloatKind;
use silica_ir::printer::type_to_string;
use silica_ir::types::DYNAMIC;
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, Type, TypeKind};

/// The text of a string attribute.
pub fn string_of(ctx: &Context, a: Option<Attr>) -> Option<String> {
    match ctx.attr_kind(a?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// The `hls.name` of argument `i` of `func`, if it has one.
pub fn arg_name(ctx: &Context, ir: &Ir, func: OpId, i: usize) -> Option<String> {
    let AttrKind::Array(dicts) = ctx.attr_kind(inherent_attr(ctx, ir, func, "arg_attrs")?) else {
        return None;
    };
    let d = *dicts.get(i)?;
    let entry = ctx
        .dict_entries(d)
        .iter()
        .find(|(k, _)| ctx.str(*k) == "hls.name")?;
    string_of(ctx, Some(entry.1))
}

/// The name an op's `hls.name` attribute gives it.
pub fn op_name_attr(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    string_of(ctx, inherent_attr(ctx, ir, op, "hls.name"))
}

/// The hardware width of a scalar type: integers at their width, `index`
/// as [`INDEX`] (decided by range analysis), `f32`/`f64` as their raw
/// bits; `None` for anything else.
pub fn scalar_width(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } if *width >= 1 => Some(*width),
        TypeKind::Index => Some(INDEX),
        _ => float_format(ctx, t).map(Format::width),
    }
}

/// The operator format of a float type the flow computes (`f32`, `f64`).
pub fn float_format(ctx: &Context, t: Type) -> Option<Format> {
    match ctx.type_kind(t) {
        TypeKind::Float(FloatKind::F32) => Some(Format::F32),
        TypeKind::Float(FloatKind::F64) => Some(Format::F64),
        _ => None,
    }
}

/// Whether a memref layout is the identity (none, or an identity map).
fn identity_layout(ctx: &Context, layout: Option<Attr>) -> bool {
    let Some(a) = layout else { return true };
    match ctx.attr_kind(a) {
        AttrKind::AffineMap(m) => {
            m.num_symbols == 0
                && m.results.len() == m.num_dims as usize
                && m.results
                    .iter()
                    .enumerate()
                    .all(|(i, e)| *e == AffineExpr::Dim(i as u32))
        }
        _ => false,
    }
}

/// A memory of memref type `t`, or the reason it cannot be one.
pub fn memory_of(
    ctx: &Context,
    t: Type,
    name: String,
    arg: Option<usize>,
    loc: Attr,
) -> Result<Memory, String> {
    let TypeKind::MemRef {
        shape,
        element,
        layout,
        ..
    } = ctx.type_kind(t)
    else {
        return Err(format!("'{}' is not a memref", type_to_string(ctx, t)));
    };
    let shown = type_to_string(ctx, t);
    if shape.contains(&DYNAMIC) {
        return Err(format!(
            "memref '{shown}' has a dynamic shape; silica hls needs static shapes"
        ));
    }
    if !identity_layout(ctx, *layout) {
        return Err(format!(
            "memref '{shown}' has a non-identity layout; silica hls needs identity layouts"
        ));
    }
    match super::dma::memory_space(ctx, t) {
        Some(0) => {}
        Some(super::dma::ON_CHIP_SPACE) if arg.is_none() => {}
        Some(super::dma::ON_CHIP_SPACE) => {
            return Err(format!(
                "memref '{shown}' is in the on-chip memory space 1; a memref argument is an external memory (space 0)"
            ))
        }
        _ => {
            return Err(format!(
                "memref '{shown}' is in a memory space silica hls does not know (0 is the default, 1 on-chip)"
            ))
        }
    }
    let width = match scalar_width(ctx, *element) {
        Some(INDEX) => INDEX_WIDTH,
        Some(w) => w,
        _ => {
            return Err(format!(
                "memref '{shown}' has element type '{}'; silica hls supports integer and index elements, f32 and f64",
                type_to_string(ctx, *element)
            ))
        }
    };
    Ok(Memory {
        name,
        shape: shape.iter().map(|&d| d as u64).collect(),
        element_width: width,
        element_type: type_to_string(ctx, *element),
        arg,
        rom: None,
        loc,
        ports: 1,
        lanes: 1,
        bank_of: None,
        channel: None,
        asked_depth: None,
        returned: None,
    })
}

/// A signature: arguments, the memories of memref arguments, and result
/// widths.
pub type Signature = (Vec<Arg>, Vec<Memory>, Vec<u32>, Vec<usize>);

/// The arguments and memories of `func`'s signature, its result widths
/// and their positions among the input function's results.
pub fn signature(
    ctx: &Context,
    ir: &Ir,
    func: OpId,
    entry_args: &[silica_ir::ValueId],
) -> Result<Signature, Box<Diagnostic>> {
    let loc = ir.op_loc(func);
    let err = |m: String| Box::new(Diagnostic::error(loc, m));
    let fty = match inherent_attr(ctx, ir, func, "function_type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => *t,
        _ => return Err(err("function has no type".into())),
    };
    let mut args = Vec::new();
    let mut memories = Vec::new();
    for (i, &t) in ctx.function_inputs(fty).iter().enumerate() {
        let name =
            arg_name(ctx, ir, func, i).unwrap_or_else(|| crate::model::interface::names::arg(i));
        let arg_loc = entry_args
            .get(i)
            .and_then(|&v| ir.value_loc(v))
            .unwrap_or(loc);
        if matches!(ctx.type_kind(t), TypeKind::MemRef { .. }) {
            let mut m = memory_of(ctx, t, name, Some(i), arg_loc)
                .map_err(|m| Box::new(Diagnostic::error(arg_loc, m)))?;
            m.returned = returned_position(ctx, ir, func, i);
            args.push(Arg::Memory(memories.len()));
            memories.push(m);
        } else if let Some(width) = scalar_width(ctx, t) {
            args.push(Arg::Scalar(Scalar {
                name,
                width,
                ty: type_to_string(ctx, t),
            }));
        } else {
            return Err(Box::new(Diagnostic::error(
                arg_loc,
                format!(
                    "argument {i} has type '{}'; silica hls supports integers, index, f32, f64 and static memrefs",
                    type_to_string(ctx, t)
                ),
            )));
        }
    }
    let mut results = Vec::new();
    for &t in ctx.function_results(fty) {
        let w = scalar_width(ctx, t).ok_or_else(|| {
            err(format!(
                "result type '{}' is not supported; silica hls returns integers, index, f32 and f64 (and memrefs the top function allocates)",
                type_to_string(ctx, t)
            ))
        })?;
        results.push(w);
    }
    let taken: Vec<usize> = memories.iter().filter_map(|m| m.returned).collect();
    let positions = (0..results.len() + taken.len())
        .filter(|p| !taken.contains(p))
        .collect();
    Ok((args, memories, results, positions))
}
