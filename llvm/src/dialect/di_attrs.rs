//! Debug-info attributes as structured attributes: `#llvm.di_file<...>`,
//! `#llvm.di_compile_unit<...>`, `#llvm.di_subprogram<...>` and the other
//! `di_*` kinds, parsed into their parameters so that they print as MLIR
//! prints them (each with its alias, `#di_file = ...`, a nested one as its
//! alias) and so that the bytecode writer can give them the LLVM
//! dialect's encoding.
//!
//! An attribute holds its parameters in declaration order as key (a
//! string), value pairs, leaving out optional ones at their default.
//! Values: strings are string attributes; numbers, DWARF keywords and
//! flag sets are `i64` integers; booleans `i1` integers (true is -1, as
//! the builtin `true`); lists are arrays; other parameters attributes.

use crate::dialect::dwarf_names::{CALLING_CONVENTIONS, ENCODINGS, LANGUAGES, OPERATIONS, TAGS};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context};

/// How a parameter's value is written.
#[derive(Clone, Copy)]
enum Value {
    /// `"text"`.
    Str,
    /// A number.
    Uint,
    /// `true` or `false`.
    Bool,
    /// A DWARF keyword (`DW_TAG_base_type`): its table and what it names.
    Dwarf(&'static [(&'static str, u32)], &'static str),
    /// An enum keyword (`Full`).
    Enum(&'static [(&'static str, u32)], &'static str),
    /// A bit set (`"Definition|Optimized"`).
    Flags(&'static BitEnum),
    /// Any attribute, written whole (or as its alias).
    Attr,
    /// An llvm attribute of this kind: its alias, or just its parameters.
    Nested(&'static str),
    /// A list of attributes, `#a, #b`, the struct's last entries.
    List,
    /// An optional number that may be present at 0.
    OptUint,
}

/// A parameter: its name, value and whether it must be given (an
/// optional one is left out at its default).
struct Param(&'static str, Value, bool);

const REQ: bool = true;
const OPT: bool = false;

const TAG: Value = Value::Dwarf(TAGS, "tag");
const ENCODING: Value = Value::Dwarf(ENCODINGS, "encoding");
const FILE: Value = Value::Nested("di_file");
const EXPRESSION: Value = Value::Nested("di_expression");

/// A bit enum: groups printed (and cleared) first, then single bits in
/// order; `zero` names the empty set where it has a name.
pub(crate) struct BitEnum {
    name: &'static str,
    zero: Option<&'static str>,
    groups: &'static [(&'static str, u32)],
    bits: &'static [(&'static str, u32)],
    /// A set printed bare although it has several bits.
    bare: Option<u32>,
}

/// MLIR's `DIFlags`.
const DI_FLAGS: BitEnum = BitEnum {
    name: "LLVM DI flags",
    zero: Some("Zero"),
    groups: &[("Public", 3), ("Protected", 2), ("Private", 1)],
    bits: &[
        ("Bit0", 1),
        ("Bit1", 2),
        ("FwdDecl", 4),
        ("AppleBlock", 8),
        ("ReservedBit4", 16),
        ("Virtual", 32),
        ("Artificial", 64),
        ("Explicit", 128),
        ("Prototyped", 256),
        ("ObjcClassComplete", 512),
        ("ObjectPointer", 1024),
        ("Vector", 2048),
        ("StaticMember", 4096),
        ("LValueReference", 8192),
        ("RValueReference", 16384),
        ("ExportSymbols", 32768),
        ("SingleInheritance", 65536),
        ("MultipleInheritance", 65536),
        ("VirtualInheritance", 65536),
        ("IntroducedVirtual", 262144),
        ("BitField", 524288),
        ("NoReturn", 1048576),
        ("TypePassByValue", 4194304),
        ("TypePassByReference", 8388608),
        ("EnumClass", 16777216),
        ("Thunk", 33554432),
        ("NonTrivial", 67108864),
        ("BigEndian", 134217728),
        ("LittleEndian", 268435456),
        ("AllCallsDescribed", 536870912),
    ],
    bare: Some(3),
};

/// MLIR's `DISubprogramFlags`.
const SUBPROGRAM_FLAGS: BitEnum = BitEnum {
    name: "LLVM DISubprogram flags",
    zero: None,
    groups: &[],
    bits: &[
        ("Virtual", 1),
        ("PureVirtual", 2),
        ("LocalToUnit", 4),
        ("Definition", 8),
        ("Optimized", 16),
        ("Pure", 32),
        ("Elemental", 64),
        ("Recursive", 128),
        ("MainSubprogram", 256),
        ("Deleted", 512),
        ("ObjCDirect", 2048),
    ],
    bare: None,
};

const EMISSION_KINDS: &[(&str, u32)] = &[
    ("None", 0),
    ("Full", 1),
    ("LineTablesOnly", 2),
    ("DebugDirectivesOnly", 3),
];
const NAME_TABLE_KINDS: &[(&str, u32)] = &[("Default", 0), ("GNU", 1), ("None", 2), ("Apple", 3)];

/// The parameters of each kind written as `<key = value, ...>`, in
/// declaration order.
fn struct_params(mnemonic: &str) -> Option<&'static [Param]> {
    use Value::*;
    Some(match mnemonic {
        "di_basic_type" => &[
            Param("tag", TAG, OPT),
            Param("name", Str, REQ),
            Param("sizeInBits", Uint, OPT),
            Param("encoding", ENCODING, OPT),
        ],
        "di_compile_unit" => &[
            Param("id", Attr, REQ),
            Param("sourceLanguage", Dwarf(LANGUAGES, "language"), REQ),
            Param("file", FILE, REQ),
            Param("producer", Str, OPT),
            Param("isOptimized", Bool, REQ),
            Param(
                "emissionKind",
                Enum(EMISSION_KINDS, "LLVM debug emission kind"),
                REQ,
            ),
            Param(
                "nameTableKind",
                Enum(NAME_TABLE_KINDS, "LLVM debug name table kind"),
                OPT,
            ),
            Param("splitDebugFilename", Str, OPT),
        ],
        "di_composite_type" => &[
            Param("recId", Attr, OPT),
            Param("isRecSelf", Bool, OPT),
            Param("tag", TAG, OPT),
            Param("name", Str, OPT),
            Param("file", FILE, OPT),
            Param("line", Uint, OPT),
            Param("scope", Attr, OPT),
            Param("baseType", Attr, OPT),
            Param("flags", Flags(&DI_FLAGS), OPT),
            Param("sizeInBits", Uint, OPT),
            Param("alignInBits", Uint, OPT),
            Param("dataLocation", EXPRESSION, OPT),
            Param("rank", EXPRESSION, OPT),
            Param("allocated", EXPRESSION, OPT),
            Param("associated", EXPRESSION, OPT),
            Param("elements", List, OPT),
        ],
        "di_derived_type" => &[
            Param("tag", TAG, OPT),
            Param("name", Str, OPT),
            Param("baseType", Attr, OPT),
            Param("sizeInBits", Uint, OPT),
            Param("alignInBits", Uint, OPT),
            Param("offsetInBits", Uint, OPT),
            Param("dwarfAddressSpace", OptUint, OPT),
            Param("extraData", Attr, OPT),
        ],
        "di_global_variable_expression" => &[
            Param("var", Nested("di_global_variable"), REQ),
            Param("expr", EXPRESSION, OPT),
        ],
        "di_global_variable" => &[
            Param("scope", Attr, OPT),
            Param("name", Str, OPT),
            Param("linkageName", Str, OPT),
            Param("file", FILE, REQ),
            Param("line", Uint, REQ),
            Param("type", Attr, REQ),
            Param("isLocalToUnit", Bool, OPT),
            Param("isDefined", Bool, OPT),
            Param("alignInBits", Uint, OPT),
        ],
        "di_lexical_block" => &[
            Param("scope", Attr, REQ),
            Param("file", FILE, OPT),
            Param("line", Uint, OPT),
            Param("column", Uint, OPT),
        ],
        "di_lexical_block_file" => &[
            Param("scope", Attr, REQ),
            Param("file", FILE, OPT),
            Param("discriminator", Uint, REQ),
        ],
        "di_local_variable" => &[
            Param("scope", Attr, REQ),
            Param("name", Str, OPT),
            Param("file", FILE, OPT),
            Param("line", Uint, OPT),
            Param("arg", Uint, OPT),
            Param("alignInBits", Uint, OPT),
            Param("type", Attr, OPT),
            Param("flags", Flags(&DI_FLAGS), OPT),
        ],
        "di_subprogram" => &[
            Param("recId", Attr, OPT),
            Param("isRecSelf", Bool, OPT),
            Param("id", Attr, OPT),
            Param("compileUnit", Nested("di_compile_unit"), OPT),
            Param("scope", Attr, OPT),
            Param("name", Str, OPT),
            Param("linkageName", Str, OPT),
            Param("file", FILE, OPT),
            Param("line", Uint, OPT),
            Param("scopeLine", Uint, OPT),
            Param("subprogramFlags", Flags(&SUBPROGRAM_FLAGS), OPT),
            Param("type", Nested("di_subroutine_type"), OPT),
            Param("retainedNodes", List, OPT),
            Param("annotations", List, OPT),
        ],
        "di_module" => &[
            Param("file", FILE, OPT),
            Param("scope", Attr, OPT),
            Param("name", Str, OPT),
            Param("configMacros", Str, OPT),
            Param("includePath", Str, OPT),
            Param("apinotes", Str, OPT),
            Param("line", Uint, OPT),
            Param("isDecl", Bool, OPT),
        ],
        "di_namespace" => &[
            Param("name", Str, OPT),
            Param("scope", Attr, OPT),
            Param("exportSymbols", Bool, REQ),
        ],
        "di_imported_entity" => &[
            Param("tag", TAG, OPT),
            Param("scope", Attr, REQ),
            Param("entity", Attr, REQ),
            Param("file", FILE, OPT),
            Param("line", Uint, OPT),
            Param("name", Str, OPT),
            Param("elements", List, OPT),
        ],
        "di_annotation" => &[Param("name", Str, REQ), Param("value", Str, REQ)],
        "di_subrange" => &[
            Param("count", Attr, OPT),
            Param("lowerBound", Attr, OPT),
            Param("upperBound", Attr, OPT),
            Param("stride", Attr, OPT),
        ],
        "di_common_block" => &[
            Param("scope", Attr, REQ),
            Param("decl", Nested("di_global_variable"), OPT),
            Param("name", Str, REQ),
            Param("file", FILE, OPT),
            Param("line", Uint, OPT),
        ],
        "di_generic_subrange" => &[
            Param("count", Attr, OPT),
            Param("lowerBound", Attr, REQ),
            Param("upperBound", Attr, OPT),
            Param("stride", Attr, REQ),
        ],
        "di_subroutine_type" => &[
            Param(
                "callingConvention",
                Dwarf(CALLING_CONVENTIONS, "calling convention"),
                OPT,
            ),
            Param("types", List, OPT),
        ],
        "di_label" => &[
            Param("scope", Attr, REQ),
            Param("name", Str, OPT),
            Param("file", FILE, OPT),
            Param("line", Uint, OPT),
        ],
        "di_string_type" => &[
            Param("tag", TAG, OPT),
            Param("name", Str, REQ),
            Param("sizeInBits", Uint, OPT),
            Param("alignInBits", Uint, OPT),
            Param("stringLength", Attr, OPT),
            Param("stringLengthExp", EXPRESSION, OPT),
            Param("stringLocationExp", EXPRESSION, OPT),
            Param("encoding", ENCODING, OPT),
        ],
        _ => return None,
    })
}

/// The kinds with a syntax of their own.
const FILE_KIND: &str = "di_file";
const EXPRESSION_KIND: &str = "di_expression";
const EXPRESSION_ELEM: &str = "di_expression_elem";
const NULL_TYPE: &str = "di_null_type";

/// Whether `mnemonic` is a debug-info attribute kept structured.
pub(crate) fn is_di(mnemonic: &str) -> bool {
    matches!(
        mnemonic,
        FILE_KIND | EXPRESSION_KIND | EXPRESSION_ELEM | NULL_TYPE
    ) || struct_params(mnemonic).is_some()
}

/// The alias name of a debug-info attribute, if it gets one (all but
/// expressions, subranges and annotations).
pub(crate) fn alias_name(mnemonic: &str) -> Option<&'static str> {
    const ALIASED: &[&str] = &[
        "di_null_type",
        "di_basic_type",
        "di_compile_unit",
        "di_composite_type",
        "di_derived_type",
        "di_file",
        "di_global_variable_expression",
        "di_global_variable",
        "di_lexical_block",
        "di_lexical_block_file",
        "di_local_variable",
        "di_subprogram",
        "di_module",
        "di_namespace",
        "di_imported_entity",
        "di_common_block",
        "di_subroutine_type",
        "di_label",
        "di_string_type",
    ];
    ALIASED.iter().find(|m| **m == mnemonic).copied()
}

/// `i64` integer, the value of numbers and keywords.
pub(crate) fn uint_attr(ctx: &mut Context, v: u64) -> Attr {
    let t = ctx.signless(64);
    ctx.int_attr(t, v)
}

fn bool_attr(ctx: &mut Context, v: bool) -> Attr {
    let t = ctx.signless(1);
    ctx.int_attr(t, if v { -1 } else { 0 })
}

fn uint_of(ctx: &Context, a: Attr) -> u64 {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => u64::try_from(value)
            .or_else(|_| i64::try_from(value).map(|v| v as u64))
            .unwrap_or(0),
        _ => 0,
    }
}

/// Parses what follows `#llvm.<mnemonic>` of a debug-info attribute.
pub(crate) fn parse(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    match mnemonic {
        NULL_TYPE => Ok(build(p.ctx(), mnemonic, Vec::new())),
        FILE_KIND => {
            p.expect(Tok::Less, "'<'")?;
            let name = p.parse_string()?;
            p.expect_keyword("in")?;
            let dir = p.parse_string()?;
            p.expect(Tok::Greater, "'>'")?;
            let ctx = p.ctx();
            let (n, d) = (ctx.string_attr(&name), ctx.string_attr(&dir));
            Ok(build(ctx, mnemonic, vec![("name", n), ("directory", d)]))
        }
        EXPRESSION_KIND => {
            p.expect(Tok::Less, "'<'")?;
            let mut ops = Vec::new();
            if p.eat(Tok::LSquare) {
                loop {
                    ops.push(parse_expression_elem(p)?);
                    if !p.eat(Tok::Comma) {
                        break;
                    }
                }
                p.expect(Tok::RSquare, "']'")?;
            }
            p.expect(Tok::Greater, "'>'")?;
            let ctx = p.ctx();
            let mut params = Vec::new();
            if !ops.is_empty() {
                params.push(("operations", ctx.array_attr(&ops)));
            }
            Ok(build(ctx, mnemonic, params))
        }
        EXPRESSION_ELEM => parse_expression_elem(p),
        _ => parse_struct(p, mnemonic),
    }
}

/// `DW_OP_name` or `DW_OP_name(1, 2)`; `DW_OP_LLVM_convert`'s operands
/// after the first may be `DW_ATE_*` keywords.
fn parse_expression_elem(p: &mut AsmParser<'_, '_>) -> PResult<Attr> {
    let at = p.pos();
    let word = p.parse_keyword()?;
    let Some(opcode) = lookup(OPERATIONS, word) else {
        return p.error_at(
            at,
            format!("invalid debug info operation encoding name: {word}"),
        );
    };
    let mut args = Vec::new();
    if p.eat(Tok::LParen) {
        loop {
            let at = p.pos();
            let keyword = if !args.is_empty() && word == "DW_OP_LLVM_convert" {
                p.peek(Tok::BareId).then(|| p.parse_keyword()).transpose()?
            } else {
                None
            };
            let v = match keyword {
                Some(k) => match lookup(ENCODINGS, k) {
                    Some(v) => u64::from(v),
                    None => {
                        return p.error_at(
                            at,
                            format!("encountered unknown attribute encoding \"{k}\""),
                        )
                    }
                },
                None => p.parse_u64()?,
            };
            let ctx = p.ctx();
            args.push(uint_attr(ctx, v));
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RParen, "')'")?;
    }
    let ctx = p.ctx();
    let op = uint_attr(ctx, u64::from(opcode));
    let mut params = vec![("opcode", op)];
    if !args.is_empty() {
        params.push(("arguments", ctx.array_attr(&args)));
    }
    Ok(build(ctx, EXPRESSION_ELEM, params))
}

fn parse_struct(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    let Some(decl) = struct_params(mnemonic) else {
        return p.expected("a debug-info attribute");
    };
    p.expect(Tok::Less, "'<'")?;
    let mut found: Vec<Option<Attr>> = vec![None; decl.len()];
    // A list's entries run on while a comma is followed by an attribute
    // rather than the next `key =`.
    let mut list: Option<(usize, Vec<Attr>)> = None;
    if !p.eat(Tok::Greater) {
        loop {
            if list.is_some() && p.peek(Tok::HashId) {
                let a = p.parse_attribute()?;
                if let Some((_, xs)) = list.as_mut() {
                    xs.push(a);
                }
            } else {
                if let Some((i, xs)) = list.take() {
                    found[i] = Some(p.ctx().array_attr(&xs));
                }
                let at = p.pos();
                let key = p.parse_keyword()?;
                let Some(i) = decl
                    .iter()
                    .position(|d| d.0 == key)
                    .filter(|&i| found[i].is_none())
                else {
                    return p.error_at(
                        at,
                        format!("duplicate or unknown struct parameter name: {key}"),
                    );
                };
                p.expect(Tok::Equal, "'='")?;
                if matches!(decl[i].1, Value::List) {
                    let first = p.parse_attribute()?;
                    // Marks the slot taken until the list closes.
                    found[i] = Some(first);
                    list = Some((i, vec![first]));
                } else {
                    found[i] = Some(parse_value(p, decl[i].1)?);
                }
            }
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::Greater, "'>'")?;
    }
    if let Some((i, xs)) = list.take() {
        found[i] = Some(p.ctx().array_attr(&xs));
    }
    let mut params = Vec::with_capacity(decl.len());
    for (d, v) in decl.iter().zip(found) {
        match v {
            Some(v) if d.2 || !is_default(p.ctx(), d.1, v) => params.push((d.0, v)),
            Some(_) => {}
            None if d.2 => {
                let at = p.pos();
                return p.error_at(at, format!("struct is missing required parameter: {}", d.0));
            }
            None => {}
        }
    }
    Ok(build(p.ctx(), mnemonic, params))
}

/// Whether an optional parameter's value is its default (then left out).
fn is_default(ctx: &Context, v: Value, a: Attr) -> bool {
    match v {
        Value::Uint | Value::Bool | Value::Dwarf(..) | Value::Enum(..) | Value::Flags(_) => {
            uint_of(ctx, a) == 0
        }
        Value::List => matches!(ctx.attr_kind(a), AttrKind::Array(xs) if xs.is_empty()),
        _ => false,
    }
}

fn parse_value(p: &mut AsmParser<'_, '_>, v: Value) -> PResult<Attr> {
    let at = p.pos();
    match v {
        Value::Str => {
            let s = p.parse_string()?;
            Ok(p.ctx().string_attr(&s))
        }
        Value::Uint | Value::OptUint => {
            let n = p.parse_u64()?;
            Ok(uint_attr(p.ctx(), n))
        }
        Value::Bool => {
            let b = if p.eat_keyword("true") {
                true
            } else if p.eat_keyword("false") {
                false
            } else {
                return p.expected("'true' or 'false'");
            };
            Ok(bool_attr(p.ctx(), b))
        }
        Value::Dwarf(table, what) => {
            let word = p.parse_keyword()?;
            match lookup(table, word) {
                Some(n) => Ok(uint_attr(p.ctx(), u64::from(n))),
                None => p.error_at(at, format!("invalid debug info {what} name: {word}")),
            }
        }
        Value::Enum(table, what) => {
            let word = if p.peek(Tok::String) {
                String::from_utf8_lossy(&p.parse_string()?).into_owned()
            } else {
                p.parse_keyword()?.to_string()
            };
            match lookup(table, &word) {
                Some(n) => Ok(uint_attr(p.ctx(), u64::from(n))),
                None => {
                    let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
                    p.error_at(
                        at,
                        format!(
                            "expected one of [{}] for {what}, got: {word}",
                            names.join(", ")
                        ),
                    )
                }
            }
        }
        Value::Flags(e) => {
            let word = if p.peek(Tok::String) {
                String::from_utf8_lossy(&p.parse_string()?).into_owned()
            } else {
                p.parse_keyword()?.to_string()
            };
            match symbolize(e, &word) {
                Some(n) => Ok(uint_attr(p.ctx(), u64::from(n))),
                None => {
                    let names: Vec<&str> = e
                        .zero
                        .iter()
                        .copied()
                        .chain(e.bits.iter().chain(e.groups).map(|(n, _)| *n))
                        .collect();
                    p.error_at(
                        at,
                        format!(
                            "expected one of [{}] for {}, got: {word}",
                            names.join(", "),
                            e.name
                        ),
                    )
                }
            }
        }
        Value::Nested(mnemonic) if p.peek(Tok::Less) => parse(p, mnemonic),
        Value::Nested(_) | Value::Attr => p.parse_attribute(),
        Value::List => {
            let a = p.parse_attribute()?;
            Ok(p.ctx().array_attr(&[a]))
        }
    }
}

fn lookup(table: &[(&str, u32)], word: &str) -> Option<u32> {
    table.iter().find(|(n, _)| *n == word).map(|&(_, v)| v)
}

fn name_of(table: &'static [(&'static str, u32)], v: u64) -> Option<&'static str> {
    table
        .iter()
        .find(|&&(_, n)| u64::from(n) == v)
        .map(|&(n, _)| n)
}

fn symbolize(e: &BitEnum, text: &str) -> Option<u32> {
    if Some(text) == e.zero {
        return Some(0);
    }
    let mut bits = 0;
    for word in text.split('|') {
        let word = word.trim();
        bits |= e
            .groups
            .iter()
            .chain(e.bits)
            .find(|(n, _)| *n == word)
            .map(|&(_, b)| b)?;
    }
    Some(bits)
}

fn stringify(e: &BitEnum, bits: u32) -> String {
    if bits == 0 {
        return e.zero.unwrap_or("").to_string();
    }
    let mut names = Vec::new();
    let mut rest = bits;
    for &(n, g) in e.groups {
        if rest & g == g {
            names.push(n);
            rest &= !g;
        }
    }
    for &(n, b) in e.bits {
        if rest & b == b {
            names.push(n);
        }
    }
    let text = names.join("|");
    if bits.count_ones() > 1 && e.bare != Some(bits) {
        format!("\"{text}\"")
    } else {
        text
    }
}

fn build(ctx: &mut Context, mnemonic: &str, params: Vec<(&str, Attr)>) -> Attr {
    let mut flat = Vec::with_capacity(params.len() * 2);
    for (k, v) in params {
        flat.push(ctx.string_attr(k.as_bytes()));
        flat.push(v);
    }
    crate::dialect::attrs::dialect_attr(ctx, mnemonic, flat)
}

/// Prints what follows `#llvm.<mnemonic>` of a debug-info attribute.
pub(crate) fn print(pp: &ParamPrinter<'_>, out: &mut String, mnemonic: &str, params: &[Attr]) {
    let ctx = pp.ctx();
    let entries: Vec<(&str, Attr)> = params
        .chunks(2)
        .filter_map(|pair| match (ctx.attr_kind(pair[0]), pair.get(1)) {
            (AttrKind::String { value, .. }, Some(v)) => {
                Some((std::str::from_utf8(value).ok()?, *v))
            }
            _ => None,
        })
        .collect();
    let find = |k: &str| entries.iter().find(|(n, _)| *n == k).map(|&(_, v)| v);
    match mnemonic {
        NULL_TYPE => {}
        FILE_KIND => {
            out.push('<');
            for (i, k) in ["name", "directory"].into_iter().enumerate() {
                if i > 0 {
                    out.push_str(" in ");
                }
                if let Some(v) = find(k) {
                    pp.attr(out, v);
                }
            }
            out.push('>');
        }
        EXPRESSION_KIND => {
            out.push('<');
            if let Some(AttrKind::Array(ops)) = find("operations").map(|v| ctx.attr_kind(v)) {
                out.push('[');
                for (i, op) in ops.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    pp.nested_dialect_attr(out, *op);
                }
                out.push(']');
            }
            out.push('>');
        }
        EXPRESSION_ELEM => {
            let opcode = find("opcode").map_or(0, |v| uint_of(ctx, v));
            let name = name_of(OPERATIONS, opcode).unwrap_or("");
            out.push_str(name);
            if let Some(AttrKind::Array(args)) = find("arguments").map(|v| ctx.attr_kind(v)) {
                out.push('(');
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let n = uint_of(ctx, *a);
                    match name_of(ENCODINGS, n) {
                        Some(k) if i > 0 && name == "DW_OP_LLVM_convert" => out.push_str(k),
                        _ => out.push_str(&n.to_string()),
                    }
                }
                out.push(')');
            }
        }
        _ => {
            out.push('<');
            let decl = struct_params(mnemonic).unwrap_or(&[]);
            let mut first = true;
            for d in decl {
                let Some(v) = find(d.0) else { continue };
                if !first {
                    out.push_str(", ");
                }
                first = false;
                out.push_str(d.0);
                out.push_str(" = ");
                print_value(pp, out, d.1, v);
            }
            out.push('>');
        }
    }
}

fn print_value(pp: &ParamPrinter<'_>, out: &mut String, v: Value, a: Attr) {
    let ctx = pp.ctx();
    match v {
        Value::Uint | Value::OptUint => out.push_str(&uint_of(ctx, a).to_string()),
        Value::Bool => out.push_str(if uint_of(ctx, a) != 0 {
            "true"
        } else {
            "false"
        }),
        Value::Dwarf(table, _) | Value::Enum(table, _) => {
            let n = uint_of(ctx, a);
            match name_of(table, n) {
                Some(name) => out.push_str(name),
                None => out.push_str(&n.to_string()),
            }
        }
        Value::Flags(e) => out.push_str(&stringify(e, uint_of(ctx, a) as u32)),
        Value::Nested(_) => match ctx.attr_kind(a) {
            AttrKind::Dialect { .. } => pp.nested_dialect_attr(out, a),
            _ => pp.attr(out, a),
        },
        Value::List => {
            if let AttrKind::Array(xs) = ctx.attr_kind(a) {
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    pp.attr(out, *x);
                }
            }
        }
        Value::Str | Value::Attr => pp.attr(out, a),
    }
}
