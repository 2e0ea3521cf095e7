//! The LLVM dialect's bytecode encodings (MLIR 22's LLVM
//! `BytecodeDialectInterface`): a leading varint code says which
//! attribute follows. MLIR gives codes 0 to 17 to the debug-info
//! attributes, which silica keeps as text and so writes as text, and
//! code 18 to the loop annotation, which silica holds as the structured
//! `#llvm.loop_annotation` and reads and writes in this encoding. The
//! annotation's parts (`#llvm.loop_unroll<...>` and the others) have no
//! encoding in MLIR 22 and are written as text.

use crate::builtin::read::Source;
use crate::builtin::write::{key, AttrKey, Sink};
use crate::encoding::{Cursor, DResult};
use silica_ir::{Attr, AttrKind, Context};

/// The code of `#llvm.loop_annotation`; lower codes are debug-info
/// attributes.
const LOOP_ANNOTATION: u64 = 18;

/// The loop annotation's optional attribute slots, in the encoding's
/// order; its list of access groups, `parallelAccesses`, follows them.
const LOOP_ANNOTATION_SLOTS: [&str; 14] = [
    "disableNonforced",
    "vectorize",
    "interleave",
    "unroll",
    "unrollAndJam",
    "licm",
    "distribute",
    "pipeline",
    "peeled",
    "unswitch",
    "mustProgress",
    "isVectorized",
    "startLoc",
    "endLoc",
];

const PARALLEL_ACCESSES: &str = "parallelAccesses";

/// The key/value parameters of a `#llvm.loop_annotation`, or `None` for
/// any other attribute (or an annotation with a parameter the encoding
/// has no slot for, which is then written as text).
fn loop_annotation(ctx: &Context, a: Attr) -> Option<Vec<(&str, Attr)>> {
    let AttrKind::Dialect {
        dialect,
        name,
        params,
    } = ctx.attr_kind(a)
    else {
        return None;
    };
    if ctx.str(*dialect) != "llvm" || ctx.str(*name) != "loop_annotation" {
        return None;
    }
    let mut out = Vec::with_capacity(params.len() / 2);
    for pair in params.chunks(2) {
        let [k, v] = pair else { return None };
        let AttrKind::String { value, .. } = ctx.attr_kind(*k) else {
            return None;
        };
        let k = std::str::from_utf8(value).ok()?;
        if !LOOP_ANNOTATION_SLOTS.contains(&k) && k != PARALLEL_ACCESSES {
            return None;
        }
        out.push((k, *v));
    }
    Some(out)
}

/// Writes `k` in the LLVM dialect's encoding; `false` when it has none
/// here (it is then written as text).
pub(crate) fn write_attr(ctx: &Context, k: AttrKey, s: &mut dyn Sink) -> bool {
    let AttrKey::Attr(a) = k else { return false };
    let Some(params) = loop_annotation(ctx, a) else {
        return false;
    };
    let find = |name: &str| params.iter().find(|(k, _)| *k == name).map(|&(_, v)| v);
    s.varint(LOOP_ANNOTATION);
    for slot in LOOP_ANNOTATION_SLOTS {
        match find(slot) {
            Some(v) => s.present_attr(ctx, key(ctx, v)),
            None => s.varint(0),
        }
    }
    let groups = match find(PARALLEL_ACCESSES).map(|v| ctx.attr_kind(v)) {
        Some(AttrKind::Array(groups)) => &groups[..],
        _ => &[],
    };
    // MLIR's optional list: a byte saying whether it is there, then its
    // length and entries, each an optional attribute.
    s.byte(u8::from(!groups.is_empty()));
    if !groups.is_empty() {
        s.varint(groups.len() as u64);
        for &g in groups {
            s.present_attr(ctx, key(ctx, g));
        }
    }
    true
}

/// Reads an attribute of the LLVM dialect's encoding.
pub(crate) fn read_attr<'a>(src: &mut dyn Source<'a>, c: &mut Cursor<'a>) -> DResult<Attr> {
    let at = c.offset();
    let code = c.varint()?;
    if code != LOOP_ANNOTATION {
        let what = if code < LOOP_ANNOTATION {
            "a debug-info attribute, whose encoding silica does not read"
        } else {
            "not an LLVM attribute code"
        };
        return Err(crate::encoding::DecodeError::new(
            at,
            format!("LLVM attribute code {code}: {what}"),
        ));
    }
    let mut found = Vec::new();
    for slot in LOOP_ANNOTATION_SLOTS {
        if let Some(v) = src.optional_attr(c)? {
            found.push((slot, v));
        }
    }
    let present = match c.byte()? {
        0 => false,
        1 => true,
        b => return Err(c.error(format!("invalid boolean byte {b}"))),
    };
    if present {
        let n = c.count(1, "access group")?;
        let mut groups = Vec::with_capacity(n);
        for _ in 0..n {
            let at = c.offset();
            match src.optional_attr(c)? {
                Some(g) => groups.push(g),
                None => {
                    return Err(crate::encoding::DecodeError::new(
                        at,
                        "expected an access group, not an absent attribute",
                    ))
                }
            }
        }
        let list = src.ctx().array_attr(&groups);
        found.push((PARALLEL_ACCESSES, list));
    }
    let ctx = src.ctx();
    let mut params = Vec::with_capacity(found.len() * 2);
    for (k, v) in found {
        params.push(ctx.string_attr(k.as_bytes()));
        params.push(v);
    }
    let dialect = ctx.sym("llvm");
    let name = ctx.sym("loop_annotation");
    Ok(ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: params.into(),
    }))
}
