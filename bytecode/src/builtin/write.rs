//! Writes builtin attributes and types in their dialect encodings, through
//! a [`Sink`]: the writer's numbering pass (which only records the nested
//! attributes and types) or its emitter.

use super::dense::{array_data, raw_data};
use super::{attr as code, int_words, signedness_code, ty as tcode};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::float::FloatKind;
use silica_ir::{Attr, AttrKind, Context, Location, Symbol, Type, TypeKind};

/// An attribute as the writer numbers it. The format has string and
/// symbol reference attributes where silica keeps plain symbols
/// (dictionary keys, file names, nested references), and an identity
/// layout where a memref type has none: those are keys of their own, and
/// an attribute equal to one of them is keyed the same way.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum AttrKey {
    Attr(Attr),
    /// The string attribute holding a symbol's text.
    Str(Symbol),
    /// `@symbol`.
    FlatRef(Symbol),
    /// `affine_map<(d0, ..., dN-1) -> (d0, ..., dN-1)>`.
    IdentityMap(u32),
}

/// Where the writer's attribute and type encodings go.
pub(crate) trait Sink {
    fn attr(&mut self, ctx: &Context, a: AttrKey);
    /// An optional attribute that is there: its number, flagged (an
    /// absent one is a zero varint).
    fn present_attr(&mut self, ctx: &Context, a: AttrKey);
    fn ty(&mut self, ctx: &Context, t: Type);
    fn varint(&mut self, v: u64);
    fn signed_varint(&mut self, v: i64);
    fn byte(&mut self, b: u8);
    /// A reference to a string of the string section.
    fn string(&mut self, s: &[u8]);
    /// A size and bytes.
    fn blob(&mut self, b: &[u8]);
    /// A reference to a dialect resource.
    fn resource(&mut self, handle: Symbol);
}

/// Whether `t` is the `none` type.
fn is_none(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::None)
}

/// Whether `m` is the identity map of its dimensions.
pub(crate) fn is_identity(m: &AffineMap) -> bool {
    m.num_symbols == 0
        && m.results.len() == m.num_dims as usize
        && m.results
            .iter()
            .enumerate()
            .all(|(i, e)| *e == AffineExpr::Dim(i as u32))
}

/// The key the writer numbers `a` under.
pub(crate) fn key(ctx: &Context, a: Attr) -> AttrKey {
    match ctx.attr_kind(a) {
        AttrKind::String { value, ty } if ty.is_none_or(|t| is_none(ctx, t)) => {
            match std::str::from_utf8(value)
                .ok()
                .and_then(|s| ctx.lookup_sym(s))
            {
                Some(s) => AttrKey::Str(s),
                None => AttrKey::Attr(a),
            }
        }
        AttrKind::SymbolRef { root, nested } if nested.is_empty() => AttrKey::FlatRef(*root),
        AttrKind::AffineMap(m) if is_identity(m) => AttrKey::IdentityMap(m.num_dims),
        _ => AttrKey::Attr(a),
    }
}

/// The dialect an attribute belongs to: `None` for builtin.
pub(crate) fn attr_dialect(ctx: &Context, k: AttrKey) -> Option<Symbol> {
    match k {
        AttrKey::Attr(a) => match ctx.attr_kind(a) {
            AttrKind::Opaque { dialect, .. } | AttrKind::Dialect { dialect, .. } => Some(*dialect),
            _ => None,
        },
        _ => None,
    }
}

/// The dialect a type belongs to: `None` for builtin.
pub(crate) fn type_dialect(ctx: &Context, t: Type) -> Option<Symbol> {
    match ctx.type_kind(t) {
        TypeKind::Opaque { dialect, .. } | TypeKind::Dialect { dialect, .. } => Some(*dialect),
        _ => None,
    }
}

/// The text of an attribute written without a dialect encoding.
pub(crate) fn attr_text(ctx: &Context, k: AttrKey) -> String {
    match k {
        AttrKey::Attr(a) => silica_ir::printer::attr_to_string(ctx, a),
        AttrKey::Str(s) => {
            let mut out = String::new();
            silica_ir::printer::quoted_into(&mut out, ctx.str(s).as_bytes());
            out
        }
        AttrKey::FlatRef(s) => {
            let mut out = String::from("@");
            silica_ir::printer::keyword_or_string(&mut out, ctx.str(s));
            out
        }
        AttrKey::IdentityMap(n) => {
            let mut out = String::new();
            let m = AffineMap {
                num_dims: n,
                num_symbols: 0,
                results: (0..n).map(AffineExpr::Dim).collect(),
            };
            out.push_str("affine_map<");
            silica_ir::affine::print_map(&mut out, &m);
            out.push('>');
            out
        }
    }
}

fn attr_list(ctx: &Context, s: &mut dyn Sink, items: &[Attr]) {
    s.varint(items.len() as u64);
    for &a in items {
        s.attr(ctx, key(ctx, a));
    }
}

fn type_list(ctx: &Context, s: &mut dyn Sink, items: &[Type]) {
    s.varint(items.len() as u64);
    for &t in items {
        s.ty(ctx, t);
    }
}

fn shape(s: &mut dyn Sink, dims: &[i64]) {
    s.varint(dims.len() as u64);
    for &d in dims {
        s.signed_varint(d);
    }
}

/// An integer of `width` bits, as MLIR's `writeAPIntWithKnownWidth`.
pub(crate) fn ap_int(s: &mut dyn Sink, words: &[u64], width: u32) {
    if width <= 8 {
        s.byte(words[0] as u8);
    } else if width <= 64 {
        s.signed_varint(words[0] as i64);
    } else {
        let active = words.iter().rposition(|&w| w != 0).map_or(1, |i| i + 1);
        s.varint(active as u64);
        for &w in &words[..active] {
            s.signed_varint(w as i64);
        }
    }
}

/// The bit width an integer attribute of type `t` is stored in.
fn int_width(ctx: &Context, t: Type) -> Option<u32> {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, .. } => Some(*width),
        TypeKind::Index => Some(64),
        _ => None,
    }
}

/// Writes a location; `false` for a location kind without an encoding.
fn location(ctx: &Context, s: &mut dyn Sink, l: &Location) -> bool {
    match l {
        Location::Unknown => s.varint(code::UNKNOWN_LOC),
        Location::File {
            file,
            line,
            col,
            end,
        } => match end {
            Some((el, ec)) => {
                s.varint(code::FILE_LINE_COL_RANGE);
                s.attr(ctx, AttrKey::Str(*file));
                let (line, col) = (u64::from(*line), u64::from(*col));
                let (el, ec) = (u64::from(*el), u64::from(*ec));
                // MLIR's `writeFileLineColRangeLocs`, which keeps only the
                // line of a range starting at column 0 on one line (and
                // so of a line without a column).
                let parts: &[u64] = if line == 0 && col == 0 && el == 0 && ec == 0 {
                    &[]
                } else if col == 0 && line == el {
                    &[line]
                } else if ec == col && line == el {
                    &[line, col]
                } else if line == el {
                    &[line, col, ec]
                } else {
                    &[line, col, el, ec]
                };
                s.varint(parts.len() as u64);
                for &p in parts {
                    s.varint(p);
                }
            }
            _ => {
                s.varint(code::FILE_LINE_COL_LOC);
                s.attr(ctx, AttrKey::Str(*file));
                s.varint(u64::from(*line));
                s.varint(u64::from(*col));
            }
        },
        Location::Name { name, child } => {
            s.varint(code::NAME_LOC);
            s.attr(ctx, AttrKey::Str(*name));
            s.attr(ctx, AttrKey::Attr(child.unwrap_or(ctx.unknown_loc())));
        }
        Location::CallSite { callee, caller } => {
            s.varint(code::CALL_SITE_LOC);
            s.attr(ctx, AttrKey::Attr(*callee));
            s.attr(ctx, AttrKey::Attr(*caller));
        }
        Location::Fused { locs, metadata } => {
            s.varint(if metadata.is_some() {
                code::FUSED_LOC_WITH_METADATA
            } else {
                code::FUSED_LOC
            });
            s.varint(locs.len() as u64);
            for &l in locs.iter() {
                s.attr(ctx, AttrKey::Attr(l));
            }
            if let Some(m) = metadata {
                s.attr(ctx, key(ctx, *m));
            }
        }
    }
    true
}

/// Writes `k` in the builtin encoding; `false` when it has none (it is
/// then written as text).
pub(crate) fn write_attr(ctx: &Context, k: AttrKey, s: &mut dyn Sink) -> bool {
    let a = match k {
        AttrKey::Attr(a) => a,
        AttrKey::Str(sym) => {
            s.varint(code::STRING);
            s.string(ctx.str(sym).as_bytes());
            return true;
        }
        AttrKey::FlatRef(sym) => {
            s.varint(code::FLAT_SYMBOL_REF);
            s.attr(ctx, AttrKey::Str(sym));
            return true;
        }
        AttrKey::IdentityMap(_) => return false,
    };
    match ctx.attr_kind(a) {
        AttrKind::Unit => s.varint(code::UNIT),
        AttrKind::Array(items) => {
            s.varint(code::ARRAY);
            attr_list(ctx, s, items);
        }
        AttrKind::Dictionary(entries) => {
            s.varint(code::DICTIONARY);
            s.varint(entries.len() as u64);
            for &(name, value) in entries.iter() {
                s.attr(ctx, AttrKey::Str(name));
                s.attr(ctx, key(ctx, value));
            }
        }
        AttrKind::String { value, ty } => match ty {
            Some(t) if !is_none(ctx, *t) => {
                s.varint(code::STRING_WITH_TYPE);
                s.string(value);
                s.ty(ctx, *t);
            }
            _ => {
                s.varint(code::STRING);
                s.string(value);
            }
        },
        AttrKind::SymbolRef { root, nested } => {
            s.varint(code::SYMBOL_REF);
            s.attr(ctx, AttrKey::Str(*root));
            s.varint(nested.len() as u64);
            for &n in nested.iter() {
                s.attr(ctx, AttrKey::FlatRef(n));
            }
        }
        AttrKind::Type(t) => {
            s.varint(code::TYPE);
            s.ty(ctx, *t);
        }
        AttrKind::Integer { ty, value } => {
            let Some(width) = int_width(ctx, *ty) else {
                return false;
            };
            s.varint(code::INTEGER);
            s.ty(ctx, *ty);
            ap_int(s, &int_words(value, width), width);
        }
        AttrKind::Float { ty, bits } => {
            let Some(kind) = ctx.float_kind(*ty) else {
                return false;
            };
            s.varint(code::FLOAT);
            s.ty(ctx, *ty);
            let width = kind.bit_width();
            let mut words = [*bits as u64, (*bits >> 64) as u64];
            super::truncate_words(&mut words, width);
            ap_int(s, &words, width);
        }
        AttrKind::Location(l) => return location(ctx, s, l),
        AttrKind::DenseResource { ty, handle } => {
            s.varint(code::DENSE_RESOURCE_ELEMENTS);
            s.ty(ctx, *ty);
            s.resource(*handle);
        }
        AttrKind::DenseArray { element, values } => {
            let Some(data) = array_data(ctx, *element, values) else {
                return false;
            };
            s.varint(code::DENSE_ARRAY);
            s.ty(ctx, *element);
            s.varint(values.len() as u64);
            s.blob(&data);
        }
        AttrKind::DenseElements { ty, values } => {
            let Some(data) = ctx
                .shaped(*ty)
                .and_then(|(_, element)| raw_data(ctx, element, values))
            else {
                return false;
            };
            s.varint(code::DENSE_INT_OR_FP_ELEMENTS);
            s.ty(ctx, *ty);
            s.blob(&data);
        }
        AttrKind::DenseStrings { ty, values } => {
            s.varint(code::DENSE_STRING_ELEMENTS);
            s.ty(ctx, *ty);
            let splat = values.len() == 1 || values.iter().all(|v| *v == values[0]);
            s.varint(u64::from(splat));
            let values = if splat && !values.is_empty() {
                &values[..1]
            } else {
                &values[..]
            };
            for v in values {
                s.string(v);
            }
        }
        AttrKind::Sparse {
            ty,
            indices,
            values,
        } => {
            s.varint(code::SPARSE_ELEMENTS);
            s.ty(ctx, *ty);
            s.attr(ctx, key(ctx, *indices));
            s.attr(ctx, key(ctx, *values));
        }
        AttrKind::Distinct { referenced, .. } => {
            s.varint(code::DISTINCT);
            s.attr(ctx, key(ctx, *referenced));
        }
        AttrKind::AffineMap(_)
        | AttrKind::IntegerSet(_)
        | AttrKind::StridedLayout { .. }
        | AttrKind::Opaque { .. }
        | AttrKind::Dialect { .. } => return false,
    }
    true
}

/// Writes `t` in the builtin encoding; `false` when it has none.
pub(crate) fn write_type(ctx: &Context, t: Type, s: &mut dyn Sink) -> bool {
    match ctx.type_kind(t) {
        TypeKind::Integer { width, signedness } => {
            s.varint(tcode::INTEGER);
            s.varint((u64::from(*width) << 2) | signedness_code(*signedness));
        }
        TypeKind::Index => s.varint(tcode::INDEX),
        TypeKind::None => s.varint(tcode::NONE),
        TypeKind::Float(k) => {
            let c = match k {
                FloatKind::BF16 => tcode::BF16,
                FloatKind::F16 => tcode::F16,
                FloatKind::F32 => tcode::F32,
                FloatKind::F64 => tcode::F64,
                FloatKind::F80 => tcode::F80,
                FloatKind::F128 => tcode::F128,
                _ => return false,
            };
            s.varint(c);
        }
        TypeKind::Complex(e) => {
            s.varint(tcode::COMPLEX);
            s.ty(ctx, *e);
        }
        TypeKind::Function { inputs, results } => {
            s.varint(tcode::FUNCTION);
            type_list(ctx, s, inputs);
            type_list(ctx, s, results);
        }
        TypeKind::Tuple(types) => {
            s.varint(tcode::TUPLE);
            type_list(ctx, s, types);
        }
        TypeKind::Vector {
            shape: dims,
            scalable,
            element,
        } => {
            if scalable.iter().any(|&b| b) {
                s.varint(tcode::VECTOR_WITH_SCALABLE_DIMS);
                s.varint(scalable.len() as u64);
                for &b in scalable.iter() {
                    s.byte(u8::from(b));
                }
            } else {
                s.varint(tcode::VECTOR);
            }
            shape(s, dims);
            s.ty(ctx, *element);
        }
        TypeKind::RankedTensor {
            shape: dims,
            element,
            encoding,
        } => {
            match encoding {
                Some(e) => {
                    s.varint(tcode::RANKED_TENSOR_WITH_ENCODING);
                    s.attr(ctx, key(ctx, *e));
                }
                None => s.varint(tcode::RANKED_TENSOR),
            }
            shape(s, dims);
            s.ty(ctx, *element);
        }
        TypeKind::UnrankedTensor { element } => {
            s.varint(tcode::UNRANKED_TENSOR);
            s.ty(ctx, *element);
        }
        TypeKind::MemRef {
            shape: dims,
            element,
            layout,
            memory_space,
        } => {
            match memory_space {
                Some(m) => {
                    s.varint(tcode::MEMREF_WITH_MEMORY_SPACE);
                    s.attr(ctx, key(ctx, *m));
                }
                None => s.varint(tcode::MEMREF),
            }
            shape(s, dims);
            s.ty(ctx, *element);
            let layout = match layout {
                Some(l) => key(ctx, *l),
                None => AttrKey::IdentityMap(dims.len() as u32),
            };
            s.attr(ctx, layout);
        }
        TypeKind::UnrankedMemRef {
            element,
            memory_space,
        } => {
            match memory_space {
                Some(m) => {
                    s.varint(tcode::UNRANKED_MEMREF_WITH_MEMORY_SPACE);
                    s.attr(ctx, key(ctx, *m));
                }
                None => s.varint(tcode::UNRANKED_MEMREF),
            }
            s.ty(ctx, *element);
        }
        TypeKind::Opaque { .. } | TypeKind::Dialect { .. } => return false,
    }
    true
}
