//! The raw data of dense elements attributes, as MLIR stores it: each
//! element in its storage width (its bit width rounded up to bytes; a
//! complex element holds both parts), little-endian; `i1` elements one
//! bit each; a splat as one element (`i1`: a byte of all ones or zeros).

use super::{int_from_words, int_words, truncate_words};
use silica_ir::{Attr, AttrKind, Context, Signedness, Type, TypeKind};

/// What one scalar of a dense element is.
#[derive(Clone, Copy)]
enum Scalar {
    Int(u32, Signedness),
    Float,
}

/// How the elements of a shaped type are stored.
#[derive(Clone, Copy)]
struct Layout {
    scalar_ty: Type,
    scalar: Scalar,
    scalar_bits: u32,
    /// 2 for complex elements, else 1.
    parts: u32,
    /// Bits an element takes in the data: 1, or a multiple of 8.
    storage_bits: u32,
}

fn layout(ctx: &Context, element: Type) -> Option<Layout> {
    let (scalar_ty, parts) = match ctx.type_kind(element) {
        TypeKind::Complex(e) => (*e, 2),
        _ => (element, 1),
    };
    let (scalar, scalar_bits) = match ctx.type_kind(scalar_ty) {
        TypeKind::Integer { width, signedness } => (Scalar::Int(*width, *signedness), *width),
        TypeKind::Index => (Scalar::Int(64, Signedness::Signless), 64),
        TypeKind::Float(k) => (Scalar::Float, k.bit_width()),
        _ => return None,
    };
    let bits = scalar_bits.checked_mul(parts)?;
    let storage_bits = if bits == 1 { 1 } else { bits.div_ceil(8) * 8 };
    Some(Layout {
        scalar_ty,
        scalar,
        scalar_bits,
        parts,
        storage_bits,
    })
}

/// The bits of a scalar attribute, as words.
fn scalar_words(ctx: &Context, a: Attr, l: &Layout) -> Option<Vec<u64>> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(int_words(value, l.scalar_bits)),
        AttrKind::Float { bits, .. } => {
            let mut w = vec![*bits as u64, (*bits >> 64) as u64];
            truncate_words(&mut w, l.scalar_bits);
            Some(w)
        }
        _ => None,
    }
}

/// ORs `src` (bit-aligned at 0) into `dst` at bit `offset`.
fn or_bits(dst: &mut [u64], src: &[u64], offset: u32, width: u32) {
    for bit in 0..width {
        if (src[(bit / 64) as usize] >> (bit % 64)) & 1 == 1 {
            let at = offset + bit;
            dst[(at / 64) as usize] |= 1 << (at % 64);
        }
    }
}

/// The bits `offset..offset + width` of `src`, as words.
fn take_bits(src: &[u64], offset: u32, width: u32) -> Vec<u64> {
    let mut out = vec![0u64; (width as usize).div_ceil(64).max(1)];
    if offset.is_multiple_of(64) && width.is_multiple_of(64) {
        let start = (offset / 64) as usize;
        let n = out.len();
        out.copy_from_slice(&src[start..start + n]);
        return out;
    }
    for bit in 0..width {
        let at = offset + bit;
        if (src[(at / 64) as usize] >> (at % 64)) & 1 == 1 {
            out[(bit / 64) as usize] |= 1 << (bit % 64);
        }
    }
    out
}

/// The storage words of one element.
fn element_words(ctx: &Context, a: Attr, l: &Layout) -> Option<Vec<u64>> {
    if l.parts == 1 {
        return scalar_words(ctx, a, l);
    }
    let AttrKind::Array(parts) = ctx.attr_kind(a) else {
        return None;
    };
    let mut words = vec![0u64; (l.storage_bits as usize).div_ceil(64)];
    for (k, &p) in parts.iter().enumerate().take(2) {
        let w = scalar_words(ctx, p, l)?;
        or_bits(&mut words, &w, k as u32 * l.scalar_bits, l.scalar_bits);
    }
    Some(words)
}

/// The raw data of `values` (one value when a splat) of shaped type `ty`
/// with `element` elements; `None` for elements it cannot store.
pub(crate) fn raw_data(ctx: &Context, element: Type, values: &[Attr]) -> Option<Vec<u8>> {
    let l = layout(ctx, element)?;
    let splat = values.len() == 1 || (!values.is_empty() && values.iter().all(|v| *v == values[0]));
    let values = if splat { &values[..1] } else { values };
    if l.storage_bits == 1 {
        let bit = |a: Attr| scalar_words(ctx, a, &l).map(|w| w[0] & 1 == 1);
        if splat {
            return Some(vec![if bit(values[0])? { 0xff } else { 0 }]);
        }
        let mut out = vec![0u8; values.len().div_ceil(8)];
        for (i, &v) in values.iter().enumerate() {
            if bit(v)? {
                out[i / 8] |= 1 << (i % 8);
            }
        }
        return Some(out);
    }
    let bytes = (l.storage_bits / 8) as usize;
    let mut out = Vec::with_capacity(bytes * values.len());
    for &v in values {
        let words = element_words(ctx, v, &l)?;
        for i in 0..bytes {
            out.push((words[i / 8] >> (8 * (i % 8))) as u8);
        }
    }
    Some(out)
}

/// The element attribute standing for `words`.
fn element_attr(ctx: &mut Context, l: &Layout, words: &[u64]) -> Attr {
    let scalar = |ctx: &mut Context, w: &[u64]| match l.scalar {
        Scalar::Int(width, signedness) => {
            let v = int_from_words(w, width, signedness);
            ctx.int_attr(l.scalar_ty, v)
        }
        Scalar::Float => {
            let bits = u128::from(w[0]) | (u128::from(w.get(1).copied().unwrap_or(0)) << 64);
            ctx.intern_attr(AttrKind::Float {
                ty: l.scalar_ty,
                bits,
            })
        }
    };
    if l.parts == 1 {
        return scalar(ctx, words);
    }
    let re = scalar(ctx, &take_bits(words, 0, l.scalar_bits));
    let im = scalar(ctx, &take_bits(words, l.scalar_bits, l.scalar_bits));
    ctx.array_attr(&[re, im])
}

/// The element values of `data` for `numel` elements of type `element`:
/// one value for a splat (or when all are equal, as the text parser
/// keeps them).
pub(crate) fn from_raw(
    ctx: &mut Context,
    element: Type,
    numel: u64,
    data: &[u8],
) -> Result<Vec<Attr>, String> {
    let l = layout(ctx, element)
        .ok_or("dense elements of a type that is not integer, index, float or complex")?;
    let bad = || {
        format!(
            "dense elements data of {} bytes does not hold {numel} elements",
            data.len()
        )
    };
    let mut values = Vec::new();
    if l.storage_bits == 1 {
        if data.len() == 1 && (data[0] == 0 || data[0] == 0xff) {
            values.push(element_attr(ctx, &l, &[u64::from(data[0] & 1)]));
        } else if data.len() as u64 == numel.div_ceil(8) {
            for i in 0..numel as usize {
                let bit = (data[i / 8] >> (i % 8)) & 1;
                values.push(element_attr(ctx, &l, &[u64::from(bit)]));
            }
        } else {
            return Err(bad());
        }
    } else {
        let bytes = (l.storage_bits / 8) as usize;
        let count = if data.len() == bytes {
            1
        } else if numel.checked_mul(bytes as u64) == Some(data.len() as u64) {
            numel as usize
        } else {
            return Err(bad());
        };
        let mut words = vec![0u64; bytes.div_ceil(8)];
        for chunk in data.chunks_exact(bytes).take(count) {
            words.iter_mut().for_each(|w| *w = 0);
            for (i, &b) in chunk.iter().enumerate() {
                words[i / 8] |= u64::from(b) << (8 * (i % 8));
            }
            values.push(element_attr(ctx, &l, &words));
        }
    }
    if values.len() > 1 && values.iter().all(|v| *v == values[0]) {
        values.truncate(1);
    }
    Ok(values)
}

/// Bytes per element of a dense array of `element`s (`i1`: one byte).
pub(crate) fn array_element_bytes(ctx: &Context, element: Type) -> Option<usize> {
    let bits = match ctx.type_kind(element) {
        TypeKind::Integer { width, .. } => *width,
        TypeKind::Float(k) => k.bit_width(),
        TypeKind::Index => 64,
        _ => return None,
    };
    Some((bits as usize).div_ceil(8).max(1))
}

/// The data of a dense array's values.
pub(crate) fn array_data(ctx: &Context, element: Type, values: &[Attr]) -> Option<Vec<u8>> {
    let bytes = array_element_bytes(ctx, element)?;
    let l = layout(ctx, element)?;
    let mut out = Vec::with_capacity(bytes * values.len());
    for &v in values {
        let words = scalar_words(ctx, v, &l)?;
        for i in 0..bytes {
            out.push((words[i / 8] >> (8 * (i % 8))) as u8);
        }
    }
    Some(out)
}

/// The values of a dense array's data.
pub(crate) fn array_values(
    ctx: &mut Context,
    element: Type,
    size: u64,
    data: &[u8],
) -> Result<Vec<Attr>, String> {
    let (Some(bytes), Some(l)) = (array_element_bytes(ctx, element), layout(ctx, element)) else {
        return Err("dense array of a type that is not integer or float".into());
    };
    if size.checked_mul(bytes as u64) != Some(data.len() as u64) {
        return Err(format!(
            "dense array data of {} bytes does not hold {size} elements",
            data.len()
        ));
    }
    let mut words = vec![0u64; bytes.div_ceil(8)];
    let mut values = Vec::with_capacity(size as usize);
    for chunk in data.chunks_exact(bytes) {
        words.iter_mut().for_each(|w| *w = 0);
        for (i, &b) in chunk.iter().enumerate() {
            words[i / 8] |= u64::from(b) << (8 * (i % 8));
        }
        let mut w = words.clone();
        truncate_words(&mut w, l.scalar_bits);
        values.push(element_attr(ctx, &l, &w));
    }
    Ok(values)
}
