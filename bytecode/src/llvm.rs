//! The LLVM dialect's bytecode encodings (MLIR 22's LLVM
//! `BytecodeDialectInterface`): a leading varint code says which
//! attribute follows. MLIR gives codes 0 to 17 to debug-info attributes
//! (`#llvm.di_file`, `#llvm.di_subprogram`, ...; [`DI_KINDS`]) and code
//! 18 to the loop annotation. silica holds both as structured
//! attributes, their parameters key/value pairs in declaration order
//! with optional ones at their default left out (numbers, DWARF
//! keywords and flags `i64` integers, booleans `i1`, lists arrays), and
//! reads and writes them in this encoding. The kinds without one (the
//! loop annotation's parts, `#llvm.di_module`, `#llvm.di_string_type`,
//! ...) are written as text, as MLIR writes them; so is a parameter the
//! encoding leaves out (a compile unit's `splitDebugFilename`): MLIR's
//! encoding drops it.

use crate::builtin::read::Source;
use crate::builtin::write::{key, AttrKey, Sink};
use crate::encoding::{Cursor, DResult, DecodeError};
use silica_ir::{Attr, AttrKind, Context};

/// How a debug-info parameter is encoded.
#[derive(Clone, Copy)]
enum Field {
    /// A varint (numbers, DWARF codes, enums and flag sets).
    VarInt,
    /// A string of the string section (a string attribute's bytes).
    String,
    /// An attribute that must be there.
    Attr,
    /// An attribute or none.
    OptAttr,
    /// A byte, 0 or 1.
    Bool,
    /// A varint and a low bit saying whether it is there.
    OptInt,
    /// A byte saying whether a list of optional attributes follows.
    AttrList,
    /// A byte saying whether a list of varints follows.
    IntList,
}

/// A parameter's key, its encoding, and whether it is kept at its
/// default (a required parameter) rather than left out.
type Slot = (&'static str, Field, bool);

const R: bool = true;
const O: bool = false;

/// The debug-info kinds with an encoding, by code: their mnemonic and
/// encoded parameters, in the order MLIR writes them (their declaration
/// order).
const DI_KINDS: [(&str, &[Slot]); 18] = {
    use Field::*;
    [
        (
            "di_basic_type",
            &[
                ("tag", VarInt, O),
                ("name", String, R),
                ("sizeInBits", VarInt, O),
                ("encoding", VarInt, O),
            ],
        ),
        (
            "di_compile_unit",
            &[
                ("id", Attr, R),
                ("sourceLanguage", VarInt, R),
                ("file", Attr, R),
                ("producer", OptAttr, O),
                ("isOptimized", Bool, R),
                ("emissionKind", VarInt, R),
                ("nameTableKind", VarInt, O),
            ],
        ),
        (
            "di_composite_type",
            &[
                ("recId", OptAttr, O),
                ("isRecSelf", Bool, O),
                ("tag", VarInt, O),
                ("name", OptAttr, O),
                ("file", OptAttr, O),
                ("line", VarInt, O),
                ("scope", OptAttr, O),
                ("baseType", OptAttr, O),
                ("flags", VarInt, O),
                ("sizeInBits", VarInt, O),
                ("alignInBits", VarInt, O),
                ("dataLocation", OptAttr, O),
                ("rank", OptAttr, O),
                ("allocated", OptAttr, O),
                ("associated", OptAttr, O),
                ("elements", AttrList, O),
            ],
        ),
        (
            "di_derived_type",
            &[
                ("tag", VarInt, O),
                ("name", OptAttr, O),
                ("baseType", OptAttr, O),
                ("sizeInBits", VarInt, O),
                ("alignInBits", VarInt, O),
                ("offsetInBits", VarInt, O),
                ("dwarfAddressSpace", OptInt, O),
                ("extraData", OptAttr, O),
            ],
        ),
        (
            "di_expression_elem",
            &[("opcode", VarInt, R), ("arguments", IntList, O)],
        ),
        ("di_expression", &[("operations", AttrList, O)]),
        ("di_file", &[("name", String, R), ("directory", String, R)]),
        (
            "di_global_variable",
            &[
                ("scope", OptAttr, O),
                ("name", OptAttr, O),
                ("linkageName", OptAttr, O),
                ("file", Attr, R),
                ("line", VarInt, R),
                ("type", Attr, R),
                ("isLocalToUnit", Bool, O),
                ("isDefined", Bool, O),
                ("alignInBits", VarInt, O),
            ],
        ),
        (
            "di_global_variable_expression",
            &[("var", Attr, R), ("expr", OptAttr, O)],
        ),
        (
            "di_imported_entity",
            &[
                ("tag", VarInt, O),
                ("scope", Attr, R),
                ("entity", Attr, R),
                ("file", OptAttr, O),
                ("line", VarInt, O),
                ("name", OptAttr, O),
                ("elements", AttrList, O),
            ],
        ),
        (
            "di_label",
            &[
                ("scope", Attr, R),
                ("name", OptAttr, O),
                ("file", OptAttr, O),
                ("line", VarInt, O),
            ],
        ),
        (
            "di_lexical_block",
            &[
                ("scope", Attr, R),
                ("file", OptAttr, O),
                ("line", VarInt, O),
                ("column", VarInt, O),
            ],
        ),
        (
            "di_lexical_block_file",
            &[
                ("scope", Attr, R),
                ("file", OptAttr, O),
                ("discriminator", VarInt, R),
            ],
        ),
        (
            "di_local_variable",
            &[
                ("scope", Attr, R),
                ("name", OptAttr, O),
                ("file", OptAttr, O),
                ("line", VarInt, O),
                ("arg", VarInt, O),
                ("alignInBits", VarInt, O),
                ("type", OptAttr, O),
                ("flags", VarInt, O),
            ],
        ),
        (
            "di_namespace",
            &[
                ("name", OptAttr, O),
                ("scope", OptAttr, O),
                ("exportSymbols", Bool, R),
            ],
        ),
        (
            "di_subprogram",
            &[
                ("recId", OptAttr, O),
                ("isRecSelf", Bool, O),
                ("id", OptAttr, O),
                ("compileUnit", OptAttr, O),
                ("scope", OptAttr, O),
                ("name", OptAttr, O),
                ("linkageName", OptAttr, O),
                ("file", OptAttr, O),
                ("line", VarInt, O),
                ("scopeLine", VarInt, O),
                ("subprogramFlags", VarInt, O),
                ("type", OptAttr, O),
                ("retainedNodes", AttrList, O),
                ("annotations", AttrList, O),
            ],
        ),
        (
            "di_subrange",
            &[
                ("count", OptAttr, O),
                ("lowerBound", OptAttr, O),
                ("upperBound", OptAttr, O),
                ("stride", OptAttr, O),
            ],
        ),
        (
            "di_subroutine_type",
            &[("callingConvention", VarInt, O), ("types", AttrList, O)],
        ),
    ]
};

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
    let (mnemonic, params) = llvm_params(ctx, a)?;
    let known = |k: &str| LOOP_ANNOTATION_SLOTS.contains(&k) || k == PARALLEL_ACCESSES;
    (mnemonic == "loop_annotation" && params.iter().all(|(k, _)| known(k))).then_some(params)
}

/// Writes `k` in the LLVM dialect's encoding; `false` when it has none
/// here (it is then written as text).
pub(crate) fn write_attr(ctx: &Context, k: AttrKey, s: &mut dyn Sink) -> bool {
    let AttrKey::Attr(a) = k else { return false };
    if let Some(params) = loop_annotation(ctx, a) {
        write_loop_annotation(ctx, &params, s);
        return true;
    }
    write_di(ctx, a, s)
}

fn write_loop_annotation(ctx: &Context, params: &[(&str, Attr)], s: &mut dyn Sink) {
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
    write_attr_list(ctx, groups, s);
}

/// MLIR's optional list: a byte saying whether it is there (not empty),
/// then its length and entries, each an optional attribute.
fn write_attr_list(ctx: &Context, xs: &[Attr], s: &mut dyn Sink) {
    s.byte(u8::from(!xs.is_empty()));
    if !xs.is_empty() {
        s.varint(xs.len() as u64);
        for &x in xs {
            s.present_attr(ctx, key(ctx, x));
        }
    }
}

/// The mnemonic and key/value parameters of a structured llvm attribute.
fn llvm_params(ctx: &Context, a: Attr) -> Option<(&str, Vec<(&str, Attr)>)> {
    let AttrKind::Dialect {
        dialect,
        name,
        params,
    } = ctx.attr_kind(a)
    else {
        return None;
    };
    if ctx.str(*dialect) != "llvm" {
        return None;
    }
    let mut out = Vec::with_capacity(params.len() / 2);
    for pair in params.chunks(2) {
        let [k, v] = pair else { return None };
        let AttrKind::String { value, .. } = ctx.attr_kind(*k) else {
            return None;
        };
        out.push((std::str::from_utf8(value).ok()?, *v));
    }
    Some((ctx.str(*name), out))
}

/// A number parameter's value.
fn uint_of(ctx: &Context, a: Attr) -> Option<u64> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => u64::try_from(value)
            .ok()
            .or_else(|| i64::try_from(value).ok().map(|v| v as u64)),
        _ => None,
    }
}

/// Writes a debug-info attribute in its encoding; `false` (and nothing
/// written) when it is not one or a parameter does not fit its slot.
fn write_di(ctx: &Context, a: Attr, s: &mut dyn Sink) -> bool {
    let Some((mnemonic, params)) = llvm_params(ctx, a) else {
        return false;
    };
    let Some(code) = DI_KINDS.iter().position(|(m, _)| *m == mnemonic) else {
        return false;
    };
    let slots = DI_KINDS[code].1;
    let find = |name: &str| params.iter().find(|(k, _)| *k == name).map(|&(_, v)| v);
    let fits = |&(name, field, _): &Slot| match (field, find(name)) {
        (Field::VarInt | Field::Bool | Field::OptInt, Some(v)) => uint_of(ctx, v).is_some(),
        (Field::String, Some(v)) => matches!(ctx.attr_kind(v), AttrKind::String { ty: None, .. }),
        (Field::String | Field::Attr, None) => false,
        (Field::AttrList, Some(v)) => matches!(ctx.attr_kind(v), AttrKind::Array(_)),
        (Field::IntList, Some(v)) => match ctx.attr_kind(v) {
            AttrKind::Array(xs) => xs.iter().all(|x| uint_of(ctx, *x).is_some()),
            _ => false,
        },
        _ => true,
    };
    if !slots.iter().all(fits) {
        return false;
    }
    s.varint(code as u64);
    for &(name, field, _) in slots {
        let v = find(name);
        let n = v.and_then(|v| uint_of(ctx, v)).unwrap_or(0);
        let list = match v.map(|v| ctx.attr_kind(v)) {
            Some(AttrKind::Array(xs)) => &xs[..],
            _ => &[],
        };
        match field {
            Field::VarInt => s.varint(n),
            Field::Bool => s.byte(u8::from(n != 0)),
            Field::String => {
                if let Some(AttrKind::String { value, .. }) = v.map(|v| ctx.attr_kind(v)) {
                    s.string(value);
                }
            }
            Field::Attr => {
                if let Some(v) = v {
                    s.attr(ctx, key(ctx, v));
                }
            }
            Field::OptAttr => match v {
                Some(v) => s.present_attr(ctx, key(ctx, v)),
                None => s.varint(0),
            },
            Field::OptInt => s.varint(if v.is_some() { n << 1 | 1 } else { 0 }),
            Field::AttrList => write_attr_list(ctx, list, s),
            Field::IntList => {
                s.byte(u8::from(!list.is_empty()));
                if !list.is_empty() {
                    s.varint(list.len() as u64);
                    for x in list {
                        s.varint(uint_of(ctx, *x).unwrap_or(0));
                    }
                }
            }
        }
    }
    true
}

/// Reads an attribute of the LLVM dialect's encoding.
pub(crate) fn read_attr<'a>(src: &mut dyn Source<'a>, c: &mut Cursor<'a>) -> DResult<Attr> {
    let at = c.offset();
    let code = c.varint()?;
    if code == LOOP_ANNOTATION {
        return read_loop_annotation(src, c);
    }
    match DI_KINDS.get(code as usize) {
        Some(&(mnemonic, slots)) => read_di(src, c, mnemonic, slots),
        None => Err(DecodeError::new(
            at,
            format!("LLVM attribute code {code}: not an LLVM attribute code"),
        )),
    }
}

fn read_bool(c: &mut Cursor<'_>) -> DResult<bool> {
    match c.byte()? {
        0 => Ok(false),
        1 => Ok(true),
        b => Err(c.error(format!("invalid boolean byte {b}"))),
    }
}

/// MLIR's optional list of optional attributes; empty when absent.
fn read_attr_list<'a>(
    src: &mut dyn Source<'a>,
    c: &mut Cursor<'a>,
    what: &str,
) -> DResult<Vec<Attr>> {
    if !read_bool(c)? {
        return Ok(Vec::new());
    }
    let n = c.count(1, what)?;
    let mut xs = Vec::with_capacity(n);
    for _ in 0..n {
        let at = c.offset();
        match src.optional_attr(c)? {
            Some(x) => xs.push(x),
            None => {
                return Err(DecodeError::new(
                    at,
                    format!("expected {what}, not an absent attribute"),
                ))
            }
        }
    }
    Ok(xs)
}

fn read_loop_annotation<'a>(src: &mut dyn Source<'a>, c: &mut Cursor<'a>) -> DResult<Attr> {
    let mut found = Vec::new();
    for slot in LOOP_ANNOTATION_SLOTS {
        if let Some(v) = src.optional_attr(c)? {
            found.push((slot, v));
        }
    }
    let groups = read_attr_list(src, c, "an access group")?;
    if !groups.is_empty() {
        let list = src.ctx().array_attr(&groups);
        found.push((PARALLEL_ACCESSES, list));
    }
    Ok(build(src.ctx(), "loop_annotation", found))
}

fn uint_attr(ctx: &mut Context, v: u64) -> Attr {
    let t = ctx.signless(64);
    ctx.int_attr(t, v)
}

/// Reads a debug-info attribute's parameters after its code.
fn read_di<'a>(
    src: &mut dyn Source<'a>,
    c: &mut Cursor<'a>,
    mnemonic: &str,
    slots: &[Slot],
) -> DResult<Attr> {
    let mut found = Vec::with_capacity(slots.len());
    for &(name, field, required) in slots {
        let v = match field {
            Field::VarInt => {
                let n = c.varint()?;
                (required || n != 0).then(|| uint_attr(src.ctx(), n))
            }
            Field::Bool => {
                let b = read_bool(c)?;
                (required || b).then(|| {
                    let ctx = src.ctx();
                    let i1 = ctx.signless(1);
                    ctx.int_attr(i1, if b { -1 } else { 0 })
                })
            }
            Field::String => {
                let bytes = src.string(c)?;
                Some(src.ctx().string_attr(bytes))
            }
            Field::Attr => Some(src.attr(c)?),
            Field::OptAttr => src.optional_attr(c)?,
            Field::OptInt => {
                let n = c.varint()?;
                (n & 1 == 1).then(|| uint_attr(src.ctx(), n >> 1))
            }
            Field::AttrList => {
                let xs = read_attr_list(src, c, "a list entry")?;
                (!xs.is_empty()).then(|| src.ctx().array_attr(&xs))
            }
            Field::IntList => {
                let mut xs = Vec::new();
                if read_bool(c)? {
                    let n = c.count(1, "a list entry")?;
                    for _ in 0..n {
                        let v = c.varint()?;
                        xs.push(uint_attr(src.ctx(), v));
                    }
                }
                (!xs.is_empty()).then(|| src.ctx().array_attr(&xs))
            }
        };
        if let Some(v) = v {
            found.push((name, v));
        }
    }
    Ok(build(src.ctx(), mnemonic, found))
}

/// `#llvm.<mnemonic>` with these key/value parameters.
fn build(ctx: &mut Context, mnemonic: &str, found: Vec<(&str, Attr)>) -> Attr {
    let mut params = Vec::with_capacity(found.len() * 2);
    for (k, v) in found {
        params.push(ctx.string_attr(k.as_bytes()));
        params.push(v);
    }
    let dialect = ctx.sym("llvm");
    let name = ctx.sym(mnemonic);
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: params.into(),
    })
}
