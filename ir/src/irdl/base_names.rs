//! The names of type and attribute bases as MLIR spells them
//! (`builtin.integer`, `builtin.dense_int_or_fp_elements`, `hw.array`),
//! which `irdl.base "!builtin.integer"` and IRDL's messages use.

use crate::attrs::{AttrKind, Location};
use crate::context::{Attr, Context, Type};
use crate::dynamic::ParamsKind;
use crate::float::FloatKind;
use crate::types::TypeKind;

/// Builtin type bases other than the float types.
const BUILTIN_TYPES: &[&str] = &[
    "integer",
    "index",
    "none",
    "complex",
    "function",
    "tuple",
    "vector",
    "tensor",
    "unranked_tensor",
    "memref",
    "unranked_memref",
    "opaque",
];

/// Builtin attribute bases.
const BUILTIN_ATTRS: &[&str] = &[
    "unit",
    "integer",
    "float",
    "string",
    "type",
    "array",
    "dictionary",
    "symbol_ref",
    "affine_map",
    "integer_set",
    "dense_array",
    "dense_int_or_fp_elements",
    "dense_string_elements",
    "dense_resource_elements",
    "sparse_elements",
    "strided_layout",
    "opaque",
    "distinct",
    "unknown_loc",
    "file_line_range",
    "name_loc",
    "call_site_loc",
    "fused_loc",
];

/// The base name of a type (`builtin.integer`, `hw.array`).
pub fn type_base_name(ctx: &Context, t: Type) -> String {
    let builtin = match ctx.type_kind(t) {
        TypeKind::Integer { .. } => "integer",
        TypeKind::Index => "index",
        TypeKind::Float(k) => k.name(),
        TypeKind::None => "none",
        TypeKind::Complex(_) => "complex",
        TypeKind::Function { .. } => "function",
        TypeKind::Tuple(_) => "tuple",
        TypeKind::Vector { .. } => "vector",
        TypeKind::RankedTensor { .. } => "tensor",
        TypeKind::UnrankedTensor { .. } => "unranked_tensor",
        TypeKind::MemRef { .. } => "memref",
        TypeKind::UnrankedMemRef { .. } => "unranked_memref",
        TypeKind::Opaque { .. } => "opaque",
        TypeKind::Dialect { dialect, name, .. } => {
            return format!("{}.{}", ctx.str(*dialect), ctx.str(*name));
        }
    };
    format!("builtin.{builtin}")
}

/// The base name of an attribute (`builtin.integer`, `llvm.linkage`).
pub fn attr_base_name(ctx: &Context, a: Attr) -> String {
    let builtin = match ctx.attr_kind(a) {
        AttrKind::Unit => "unit",
        AttrKind::Integer { .. } => "integer",
        AttrKind::Float { .. } => "float",
        AttrKind::String { .. } => "string",
        AttrKind::Type(_) => "type",
        AttrKind::Array(_) => "array",
        AttrKind::Dictionary(_) => "dictionary",
        AttrKind::SymbolRef { .. } => "symbol_ref",
        AttrKind::AffineMap(_) => "affine_map",
        AttrKind::IntegerSet(_) => "integer_set",
        AttrKind::DenseArray { .. } => "dense_array",
        AttrKind::DenseElements { .. } => "dense_int_or_fp_elements",
        AttrKind::DenseStrings { .. } => "dense_string_elements",
        AttrKind::DenseResource { .. } => "dense_resource_elements",
        AttrKind::Sparse { .. } => "sparse_elements",
        AttrKind::StridedLayout { .. } => "strided_layout",
        AttrKind::Opaque { .. } => "opaque",
        AttrKind::Distinct { .. } => "distinct",
        AttrKind::Location(l) => match l {
            Location::Unknown => "unknown_loc",
            Location::File { .. } => "file_line_range",
            Location::Name { .. } => "name_loc",
            Location::CallSite { .. } => "call_site_loc",
            Location::Fused { .. } => "fused_loc",
        },
        AttrKind::Dialect { dialect, name, .. } => {
            return format!("{}.{}", ctx.str(*dialect), ctx.str(*name));
        }
    };
    format!("builtin.{builtin}")
}

/// Whether `name` (without `!` or `#`) names a type or attribute base
/// the context knows: a builtin one, one of a dynamic dialect, or one of
/// a registered native dialect.
pub(crate) fn is_known_base(ctx: &Context, kind: ParamsKind, name: &str) -> bool {
    let Some((dialect, base)) = name.split_once('.') else {
        return false;
    };
    if dialect == "builtin" {
        return match kind {
            ParamsKind::Type => {
                BUILTIN_TYPES.contains(&base) || FloatKind::all().iter().any(|k| k.name() == base)
            }
            ParamsKind::Attr => BUILTIN_ATTRS.contains(&base),
        };
    }
    if ctx.is_dynamic_dialect(dialect) {
        return ctx.has_dynamic_def(kind, dialect, base);
    }
    ctx.dialect(dialect).is_some() && !base.is_empty()
}
