//! Reads builtin attributes and types from their dialect encodings, with
//! the checks the text parser makes of the same constructs (a bad width,
//! shape or element type is an error, not IR silica cannot handle).

use super::dense::{array_values, from_raw};
use super::{attr as code, int_from_words, ty as tcode};
use crate::encoding::{Cursor, DResult};
use silica_ir::float::FloatKind;
use silica_ir::types::{DYNAMIC, MAX_INT_WIDTH};
use silica_ir::{Attr, AttrKind, Context, Location, Signedness, Symbol, Type, TypeKind};

/// What builtin entries refer to: other entries, strings and resources.
pub(crate) trait Source<'a> {
    fn ctx(&mut self) -> &mut Context;
    /// The attribute whose index comes next.
    fn attr(&mut self, c: &mut Cursor<'a>) -> DResult<Attr>;
    /// The attribute of an optional slot: a flagged number, or none.
    fn optional_attr(&mut self, c: &mut Cursor<'a>) -> DResult<Option<Attr>>;
    /// The type whose index comes next.
    fn ty(&mut self, c: &mut Cursor<'a>) -> DResult<Type>;
    /// The string whose index comes next.
    fn string(&mut self, c: &mut Cursor<'a>) -> DResult<&'a [u8]>;
    /// The dialect resource whose index comes next.
    fn resource(&mut self, c: &mut Cursor<'a>) -> DResult<Symbol>;
    /// The symbol of the string attribute whose index comes next.
    fn symbol(&mut self, c: &mut Cursor<'a>) -> DResult<Symbol>;
}

fn list<'a, T>(
    c: &mut Cursor<'a>,
    mut item: impl FnMut(&mut Cursor<'a>) -> DResult<T>,
) -> DResult<Vec<T>> {
    let n = c.count(1, "list")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(item(c)?);
    }
    Ok(out)
}

/// The symbol of a string attribute (a dictionary key, a file name).
fn symbol<'a>(src: &mut dyn Source<'a>, c: &mut Cursor<'a>) -> DResult<Symbol> {
    src.symbol(c)
}

fn location<'a>(src: &mut dyn Source<'a>, c: &mut Cursor<'a>) -> DResult<Attr> {
    let at = c.offset();
    let a = src.attr(c)?;
    if src.ctx().is_location(a) {
        Ok(a)
    } else {
        Err(crate::encoding::DecodeError::new(
            at,
            "expected a location attribute",
        ))
    }
}

/// The end of a range read as such: none where it is its start, unless
/// at column 0, where the range is MLIR's line without a column.
fn range_end(line: u32, col: u32, end: (u32, u32)) -> Option<(u32, u32)> {
    (end != (line, col) || col == 0).then_some(end)
}

fn u32_of(c: &Cursor<'_>, v: u64) -> DResult<u32> {
    u32::try_from(v).map_err(|_| c.error(format!("{v} does not fit in 32 bits")))
}

/// An integer of `width` bits, as MLIR's `readAPIntWithKnownWidth`.
pub(crate) fn ap_int(c: &mut Cursor<'_>, width: u32) -> DResult<Vec<u64>> {
    if width <= 8 {
        return Ok(vec![u64::from(c.byte()?)]);
    }
    if width <= 64 {
        return Ok(vec![c.signed_varint()? as u64]);
    }
    let n = c.count(1, "integer word")?;
    let mut words = Vec::with_capacity(n);
    for _ in 0..n {
        words.push(c.signed_varint()? as u64);
    }
    words.resize((width as usize).div_ceil(64), 0);
    Ok(words)
}

/// The number of elements of a static shape.
fn num_elements(c: &Cursor<'_>, ctx: &Context, t: Type) -> DResult<(Type, u64)> {
    let bad = || c.error("expected a shaped type with a static shape");
    let (Some(shape), element) = ctx.shaped(t).ok_or_else(bad)? else {
        return Err(bad());
    };
    let mut n: u64 = 1;
    for &d in shape {
        if d < 0 {
            return Err(bad());
        }
        n = n
            .checked_mul(d as u64)
            .ok_or_else(|| c.error("too many elements"))?;
    }
    Ok((element, n))
}

/// Reads an attribute entry in the builtin encoding.
pub(crate) fn read_attr<'a>(src: &mut dyn Source<'a>, c: &mut Cursor<'a>) -> DResult<Attr> {
    let code_at = c.offset();
    let code = c.varint()?;
    match code {
        code::ARRAY => {
            let items = list(c, |c| src.attr(c))?;
            Ok(src.ctx().array_attr(&items))
        }
        code::DICTIONARY => {
            let mut entries = list(c, |c| Ok((symbol(src, c)?, src.attr(c)?)))?;
            let ctx = src.ctx();
            entries.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
            if entries.windows(2).any(|w| w[0].0 == w[1].0) {
                return Err(c.error("dictionary attribute with a duplicate key"));
            }
            Ok(ctx.sorted_dict_attr(&entries))
        }
        code::STRING => {
            let s = src.string(c)?;
            Ok(src.ctx().string_attr(s))
        }
        code::STRING_WITH_TYPE => {
            let s = src.string(c)?;
            let t = src.ty(c)?;
            let ctx = src.ctx();
            let t = (ctx.type_kind(t) != &TypeKind::None).then_some(t);
            Ok(ctx.typed_string_attr(s, t))
        }
        code::FLAT_SYMBOL_REF => {
            let root = symbol(src, c)?;
            Ok(src.ctx().intern_attr(AttrKind::SymbolRef {
                root,
                nested: Box::new([]),
            }))
        }
        code::SYMBOL_REF => {
            let root = symbol(src, c)?;
            let nested = list(c, |c| {
                let at = c.offset();
                let a = src.attr(c)?;
                match src.ctx().attr_kind(a) {
                    AttrKind::SymbolRef { root, nested } if nested.is_empty() => Ok(*root),
                    _ => Err(crate::encoding::DecodeError::new(
                        at,
                        "expected a flat symbol reference",
                    )),
                }
            })?;
            Ok(src.ctx().intern_attr(AttrKind::SymbolRef {
                root,
                nested: nested.into(),
            }))
        }
        code::TYPE => {
            let t = src.ty(c)?;
            Ok(src.ctx().intern_attr(AttrKind::Type(t)))
        }
        code::UNIT => Ok(src.ctx().unit_attr()),
        code::INTEGER => {
            let ty = src.ty(c)?;
            let (width, signedness) = match src.ctx().type_kind(ty) {
                TypeKind::Integer { width, signedness } => (*width, *signedness),
                TypeKind::Index => (64, Signedness::Signless),
                _ => return Err(c.error("expected integer or index type for IntegerAttr")),
            };
            let words = ap_int(c, width)?;
            let v = int_from_words(&words, width, signedness);
            Ok(src.ctx().int_attr(ty, v))
        }
        code::FLOAT => {
            let ty = src.ty(c)?;
            let Some(kind) = src.ctx().float_kind(ty) else {
                return Err(c.error("expected a float type for FloatAttr"));
            };
            let width = kind.bit_width();
            let mut words = ap_int(c, width)?;
            super::truncate_words(&mut words, width);
            let bits =
                u128::from(words[0]) | (u128::from(words.get(1).copied().unwrap_or(0)) << 64);
            Ok(src.ctx().intern_attr(AttrKind::Float { ty, bits }))
        }
        code::CALL_SITE_LOC => {
            let callee = location(src, c)?;
            let caller = location(src, c)?;
            Ok(src.ctx().loc(Location::CallSite { callee, caller }))
        }
        code::FILE_LINE_COL_LOC => {
            let file = symbol(src, c)?;
            let line = c.varint()?;
            let line = u32_of(c, line)?;
            let col = c.varint()?;
            let col = u32_of(c, col)?;
            Ok(src.ctx().file_loc(file, line, col))
        }
        code::FILE_LINE_COL_RANGE => {
            let file = symbol(src, c)?;
            let parts = list(c, |c| {
                let v = c.varint()?;
                u32_of(c, v)
            })?;
            let (line, col, end) = match parts[..] {
                // A line without a column (none: line 0), kept apart from
                // column 0 as MLIR keeps it.
                [] => (0, 0, Some((0, 0))),
                [l] => (l, 0, Some((l, 0))),
                [l, col] => (l, col, None),
                [l, col, ec] => (l, col, range_end(l, col, (l, ec))),
                [l, col, el, ec] => (l, col, range_end(l, col, (el, ec))),
                _ => return Err(c.error("a file range has at most four numbers")),
            };
            let ctx = src.ctx();
            Ok(match end {
                None => ctx.file_loc(file, line, col),
                Some(_) => ctx.loc(Location::File {
                    file,
                    line,
                    col,
                    end,
                }),
            })
        }
        code::FUSED_LOC | code::FUSED_LOC_WITH_METADATA => {
            let locs = list(c, |c| location(src, c))?;
            let metadata = if code == code::FUSED_LOC_WITH_METADATA {
                Some(src.attr(c)?)
            } else {
                None
            };
            Ok(src.ctx().loc(Location::Fused {
                locs: locs.into(),
                metadata,
            }))
        }
        code::NAME_LOC => {
            let name = symbol(src, c)?;
            let child = location(src, c)?;
            Ok(src.ctx().loc(Location::Name {
                name,
                child: Some(child),
            }))
        }
        code::UNKNOWN_LOC => Ok(src.ctx().unknown_loc()),
        code::DENSE_RESOURCE_ELEMENTS => {
            let ty = src.ty(c)?;
            num_elements(c, src.ctx(), ty)?;
            let handle = src.resource(c)?;
            Ok(src
                .ctx()
                .intern_attr(AttrKind::DenseResource { ty, handle }))
        }
        code::DENSE_ARRAY => {
            let element = src.ty(c)?;
            let size = c.varint()?;
            let n = c.varint()?;
            let data = c.bytes(n)?;
            let values = array_values(src.ctx(), element, size, data).map_err(|m| c.error(m))?;
            Ok(src.ctx().intern_attr(AttrKind::DenseArray {
                element,
                values: values.into(),
            }))
        }
        code::DENSE_INT_OR_FP_ELEMENTS => {
            let ty = src.ty(c)?;
            let (element, numel) = num_elements(c, src.ctx(), ty)?;
            let n = c.varint()?;
            let data = c.bytes(n)?;
            let values = from_raw(src.ctx(), element, numel, data).map_err(|m| c.error(m))?;
            Ok(src.ctx().intern_attr(AttrKind::DenseElements {
                ty,
                values: values.into(),
            }))
        }
        code::DENSE_STRING_ELEMENTS => {
            let ty = src.ty(c)?;
            let (_, numel) = num_elements(c, src.ctx(), ty)?;
            let splat = c.varint()? != 0;
            let n = if splat { 1 } else { numel };
            if n > c.remaining() as u64 {
                return Err(c.error("more strings than data left"));
            }
            let mut values: Vec<Box<[u8]>> = Vec::with_capacity(n as usize);
            for _ in 0..n {
                values.push(src.string(c)?.into());
            }
            if values.len() > 1 && values.iter().all(|v| *v == values[0]) {
                values.truncate(1);
            }
            Ok(src.ctx().intern_attr(AttrKind::DenseStrings {
                ty,
                values: values.into(),
            }))
        }
        code::SPARSE_ELEMENTS => {
            let ty = src.ty(c)?;
            num_elements(c, src.ctx(), ty)?;
            let indices = src.attr(c)?;
            let values = src.attr(c)?;
            let ctx = src.ctx();
            if !matches!(ctx.attr_kind(indices), AttrKind::DenseElements { .. })
                || !matches!(
                    ctx.attr_kind(values),
                    AttrKind::DenseElements { .. } | AttrKind::DenseStrings { .. }
                )
            {
                return Err(c.error("expected dense elements for a sparse attribute"));
            }
            Ok(ctx.intern_attr(AttrKind::Sparse {
                ty,
                indices,
                values,
            }))
        }
        code::DISTINCT => {
            let referenced = src.attr(c)?;
            let ctx = src.ctx();
            let id = ctx.fresh_distinct_id();
            Ok(ctx.intern_attr(AttrKind::Distinct { id, referenced }))
        }
        _ => Err(crate::encoding::DecodeError::new(
            code_at,
            format!("unknown builtin attribute code {code}"),
        )),
    }
}

fn shape(c: &mut Cursor<'_>) -> DResult<Vec<i64>> {
    list(c, |c| c.signed_varint())
}

/// Whether `t` may be a tensor's element.
fn tensor_element(ctx: &Context, t: Type) -> bool {
    !matches!(
        ctx.type_kind(t),
        TypeKind::Function { .. }
            | TypeKind::None
            | TypeKind::Tuple(_)
            | TypeKind::RankedTensor { .. }
            | TypeKind::UnrankedTensor { .. }
            | TypeKind::MemRef { .. }
            | TypeKind::UnrankedMemRef { .. }
    )
}

/// Whether `t` may be a memref's element.
fn memref_element(ctx: &Context, t: Type) -> bool {
    !matches!(
        ctx.type_kind(t),
        TypeKind::Function { .. }
            | TypeKind::None
            | TypeKind::Tuple(_)
            | TypeKind::RankedTensor { .. }
            | TypeKind::UnrankedTensor { .. }
    )
}

/// The memory space as silica keeps it: none for the default (integer 0).
fn memory_space(c: &Cursor<'_>, ctx: &Context, a: Attr) -> DResult<Option<Attr>> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } if *value == num_bigint::BigInt::from(0) => Ok(None),
        AttrKind::Integer { .. }
        | AttrKind::String { .. }
        | AttrKind::Dictionary(_)
        | AttrKind::Dialect { .. }
        | AttrKind::Opaque { .. } => Ok(Some(a)),
        _ => Err(c.error("unsupported memory space Attribute")),
    }
}

fn check_dims(c: &Cursor<'_>, dims: &[i64]) -> DResult<()> {
    if dims.iter().any(|&d| d < 0 && d != DYNAMIC) {
        return Err(c.error("invalid dimension size"));
    }
    Ok(())
}

/// Reads a type entry in the builtin encoding.
pub(crate) fn read_type<'a>(src: &mut dyn Source<'a>, c: &mut Cursor<'a>) -> DResult<Type> {
    let code_at = c.offset();
    let code = c.varint()?;
    let float = |src: &mut dyn Source<'a>, k: FloatKind| Ok(src.ctx().float_type(k));
    match code {
        tcode::INTEGER => {
            let v = c.varint()?;
            let width = v >> 2;
            let signedness = match v & 3 {
                0 => Signedness::Signless,
                1 => Signedness::Signed,
                2 => Signedness::Unsigned,
                _ => return Err(c.error("invalid integer signedness")),
            };
            if width > u64::from(MAX_INT_WIDTH) {
                return Err(c.error(format!(
                    "integer bitwidth is limited to {MAX_INT_WIDTH} bits"
                )));
            }
            Ok(src.ctx().int_type(width as u32, signedness))
        }
        tcode::INDEX => Ok(src.ctx().index_type()),
        tcode::NONE => Ok(src.ctx().none_type()),
        tcode::BF16 => float(src, FloatKind::BF16),
        tcode::F16 => float(src, FloatKind::F16),
        tcode::F32 => float(src, FloatKind::F32),
        tcode::F64 => float(src, FloatKind::F64),
        tcode::F80 => float(src, FloatKind::F80),
        tcode::F128 => float(src, FloatKind::F128),
        tcode::FUNCTION => {
            let inputs = list(c, |c| src.ty(c))?;
            let results = list(c, |c| src.ty(c))?;
            Ok(src.ctx().function_type(&inputs, &results))
        }
        tcode::TUPLE => {
            let types = list(c, |c| src.ty(c))?;
            Ok(src.ctx().intern_type(TypeKind::Tuple(types.into())))
        }
        tcode::COMPLEX => {
            let e = src.ty(c)?;
            let ctx = src.ctx();
            if !matches!(
                ctx.type_kind(e),
                TypeKind::Float(_) | TypeKind::Integer { .. }
            ) {
                return Err(c.error("invalid element type for complex"));
            }
            Ok(ctx.intern_type(TypeKind::Complex(e)))
        }
        tcode::VECTOR | tcode::VECTOR_WITH_SCALABLE_DIMS => {
            let scalable = if code == tcode::VECTOR_WITH_SCALABLE_DIMS {
                list(c, |c| Ok(c.byte()? != 0))?
            } else {
                Vec::new()
            };
            let dims = shape(c)?;
            let element = src.ty(c)?;
            let scalable = if scalable.is_empty() {
                vec![false; dims.len()]
            } else {
                scalable
            };
            if scalable.len() != dims.len() || dims.iter().any(|&d| d <= 0) {
                return Err(c.error("vector types must have positive constant sizes"));
            }
            let ctx = src.ctx();
            let element_ok = match ctx.type_kind(element) {
                TypeKind::Integer { .. } | TypeKind::Index | TypeKind::Float(_) => true,
                TypeKind::Dialect { dialect, .. } => ctx
                    .dialect(ctx.str(*dialect))
                    .and_then(|d| d.types.as_ref())
                    .and_then(|h| h.vector_element)
                    .is_some_and(|allowed| allowed(ctx, element)),
                _ => false,
            };
            if !element_ok {
                return Err(c.error("invalid vector element type"));
            }
            Ok(ctx.intern_type(TypeKind::Vector {
                shape: dims.into(),
                scalable: scalable.into(),
                element,
            }))
        }
        tcode::RANKED_TENSOR | tcode::RANKED_TENSOR_WITH_ENCODING => {
            let encoding = if code == tcode::RANKED_TENSOR_WITH_ENCODING {
                Some(src.attr(c)?)
            } else {
                None
            };
            let dims = shape(c)?;
            check_dims(c, &dims)?;
            let element = src.ty(c)?;
            let ctx = src.ctx();
            if !tensor_element(ctx, element) {
                return Err(c.error("invalid tensor element type"));
            }
            Ok(ctx.intern_type(TypeKind::RankedTensor {
                shape: dims.into(),
                element,
                encoding,
            }))
        }
        tcode::UNRANKED_TENSOR => {
            let element = src.ty(c)?;
            let ctx = src.ctx();
            if !tensor_element(ctx, element) {
                return Err(c.error("invalid tensor element type"));
            }
            Ok(ctx.intern_type(TypeKind::UnrankedTensor { element }))
        }
        tcode::MEMREF | tcode::MEMREF_WITH_MEMORY_SPACE => {
            let space = if code == tcode::MEMREF_WITH_MEMORY_SPACE {
                Some(src.attr(c)?)
            } else {
                None
            };
            let dims = shape(c)?;
            check_dims(c, &dims)?;
            let element = src.ty(c)?;
            let layout = src.attr(c)?;
            let ctx = src.ctx();
            if !memref_element(ctx, element) {
                return Err(c.error("invalid memref element type"));
            }
            let memory_space = match space {
                Some(a) => memory_space(c, ctx, a)?,
                None => None,
            };
            let layout = match ctx.attr_kind(layout) {
                AttrKind::AffineMap(m) if m.num_dims as usize != dims.len() => {
                    return Err(c.error("memref layout mismatch between rank and affine map"));
                }
                AttrKind::AffineMap(m)
                    if m.results.len() == dims.len()
                        && m.results
                            .iter()
                            .enumerate()
                            .all(|(i, e)| *e == silica_ir::affine::AffineExpr::Dim(i as u32)) =>
                {
                    None
                }
                AttrKind::AffineMap(_) => Some(layout),
                AttrKind::StridedLayout { strides, .. } if strides.len() == dims.len() => {
                    Some(layout)
                }
                _ => return Err(c.error("expected a memref layout")),
            };
            Ok(ctx.intern_type(TypeKind::MemRef {
                shape: dims.into(),
                element,
                layout,
                memory_space,
            }))
        }
        tcode::UNRANKED_MEMREF | tcode::UNRANKED_MEMREF_WITH_MEMORY_SPACE => {
            let space = if code == tcode::UNRANKED_MEMREF_WITH_MEMORY_SPACE {
                Some(src.attr(c)?)
            } else {
                None
            };
            let element = src.ty(c)?;
            let ctx = src.ctx();
            if !memref_element(ctx, element) {
                return Err(c.error("invalid memref element type"));
            }
            let memory_space = match space {
                Some(a) => memory_space(c, ctx, a)?,
                None => None,
            };
            Ok(ctx.intern_type(TypeKind::UnrankedMemRef {
                element,
                memory_space,
            }))
        }
        _ => Err(crate::encoding::DecodeError::new(
            code_at,
            format!("unknown builtin type code {code}"),
        )),
    }
}
