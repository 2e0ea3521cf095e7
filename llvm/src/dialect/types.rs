//! The llvm dialect's types: `!llvm.ptr<N>`, literal, packed and
//! identified `!llvm.struct<...>`, `!llvm.array<N x T>`,
//! `!llvm.func<R (A, ...)>`, `!llvm.vec<...>`, `!llvm.target<...>` and the
//! parameterless `void`, `token`, `label`, `metadata`, `x86_amx`.
//!
//! They are the IR's dialect types (`TypeKind::Dialect`) with attribute
//! parameters; [`LlvmType`] is their decoded view and the constructors
//! below build them. Inside an llvm type, nested llvm types drop their
//! `!llvm.` prefix, as MLIR writes them.

use silica_ir::float::FloatKind;
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context, Type, TypeKind};

/// Mnemonics of the llvm types.
const MNEMONICS: &[&str] = &[
    "ptr",
    "void",
    "token",
    "label",
    "metadata",
    "x86_amx",
    "ppc_fp128",
    "struct",
    "array",
    "func",
    "vec",
    "target",
];

/// Struct flag bits kept in a struct type's first parameter.
const PACKED: i64 = 1;
const OPAQUE: i64 = 2;
const IDENTIFIED: i64 = 4;
/// `struct<"name">`: a reference to an identified struct by name only.
const REFERENCE: i64 = 8;

/// A decoded llvm type.
#[derive(Clone, Debug, PartialEq)]
pub enum LlvmType<'c> {
    Ptr(u32),
    Void,
    Token,
    Label,
    Metadata,
    Other(&'c str),
    Struct {
        name: Option<&'c [u8]>,
        packed: bool,
        opaque: bool,
        body: Vec<Type>,
    },
    Array(u64, Type),
    Func {
        result: Type,
        params: Vec<Type>,
        vararg: bool,
    },
    Vec {
        scalable: bool,
        count: u64,
        element: Type,
    },
    Target(&'c [u8]),
}

fn int_param(ctx: &Context, a: Attr) -> i64 {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => i64::try_from(value).unwrap_or(0),
        _ => 0,
    }
}

fn type_param(ctx: &Context, a: Attr) -> Option<Type> {
    match ctx.attr_kind(a) {
        AttrKind::Type(t) => Some(*t),
        _ => None,
    }
}

fn types_of(ctx: &Context, params: &[Attr]) -> Vec<Type> {
    params.iter().filter_map(|a| type_param(ctx, *a)).collect()
}

/// The llvm view of `t`, if it is an llvm type.
pub fn llvm_type(ctx: &Context, t: Type) -> Option<LlvmType<'_>> {
    let TypeKind::Dialect {
        dialect,
        name,
        params,
    } = ctx.type_kind(t)
    else {
        return None;
    };
    if ctx.str(*dialect) != "llvm" {
        return None;
    }
    Some(decode(ctx, ctx.str(*name), params))
}

fn decode<'c>(ctx: &'c Context, name: &'c str, params: &'c [Attr]) -> LlvmType<'c> {
    match name {
        "ptr" => LlvmType::Ptr(params.first().map_or(0, |a| int_param(ctx, *a)) as u32),
        "void" => LlvmType::Void,
        "token" => LlvmType::Token,
        "label" => LlvmType::Label,
        "metadata" => LlvmType::Metadata,
        "struct" => {
            let flags = int_param(ctx, params[0]);
            let name = match ctx.attr_kind(params[1]) {
                AttrKind::String { value, .. } => Some(&**value),
                _ => None,
            };
            LlvmType::Struct {
                name,
                packed: flags & PACKED != 0,
                opaque: flags & OPAQUE != 0,
                body: types_of(ctx, &params[2..]),
            }
        }
        "array" => LlvmType::Array(
            int_param(ctx, params[0]) as u64,
            type_param(ctx, params[1]).expect("array element"),
        ),
        "func" => LlvmType::Func {
            vararg: int_param(ctx, params[0]) != 0,
            result: type_param(ctx, params[1]).expect("function result"),
            params: types_of(ctx, &params[2..]),
        },
        "vec" => LlvmType::Vec {
            scalable: int_param(ctx, params[0]) != 0,
            count: int_param(ctx, params[1]) as u64,
            element: type_param(ctx, params[2]).expect("vector element"),
        },
        "target" => LlvmType::Target(match ctx.attr_kind(params[0]) {
            AttrKind::String { value, .. } => value,
            _ => b"",
        }),
        other => LlvmType::Other(other),
    }
}

fn make(ctx: &mut Context, name: &str, params: Vec<Attr>) -> Type {
    let dialect = ctx.sym("llvm");
    let name = ctx.sym(name);
    ctx.intern_type(TypeKind::Dialect {
        dialect,
        name,
        params: params.into(),
    })
}

fn i64_attr(ctx: &mut Context, v: i64) -> Attr {
    let t = ctx.signless(64);
    ctx.int_attr(t, v)
}

fn type_attr(ctx: &mut Context, t: Type) -> Attr {
    ctx.intern_attr(AttrKind::Type(t))
}

/// `!llvm.ptr` in address space `space`.
pub fn ptr(ctx: &mut Context, space: u32) -> Type {
    let params = if space == 0 {
        vec![]
    } else {
        vec![i64_attr(ctx, i64::from(space))]
    };
    make(ctx, "ptr", params)
}

/// `!llvm.void`
pub fn void(ctx: &mut Context) -> Type {
    make(ctx, "void", vec![])
}

/// `!llvm.struct<(body)>` (packed: `struct<packed (...)>`).
pub fn literal_struct(ctx: &mut Context, body: &[Type], packed: bool) -> Type {
    let mut params = vec![
        i64_attr(ctx, if packed { PACKED } else { 0 }),
        ctx.unit_attr(),
    ];
    params.extend(body.iter().map(|t| type_attr(ctx, *t)));
    make(ctx, "struct", params)
}

/// `!llvm.array<n x element>`
pub fn array(ctx: &mut Context, n: u64, element: Type) -> Type {
    let params = vec![i64_attr(ctx, n as i64), type_attr(ctx, element)];
    make(ctx, "array", params)
}

/// `!llvm.func<result (params)>`
pub fn func(ctx: &mut Context, result: Type, params: &[Type], vararg: bool) -> Type {
    let mut ps = vec![i64_attr(ctx, i64::from(vararg)), type_attr(ctx, result)];
    ps.extend(params.iter().map(|t| type_attr(ctx, *t)));
    make(ctx, "func", ps)
}

/// Whether `t` has an LLVM equivalent (MLIR's `isCompatibleType`):
/// signless integers, LLVM's float formats, vectors of those, and llvm
/// dialect types.
pub fn is_compatible(ctx: &Context, t: Type) -> bool {
    match ctx.type_kind(t) {
        TypeKind::Integer { signedness, .. } => *signedness == silica_ir::Signedness::Signless,
        TypeKind::Float(k) => float_name(*k).is_some(),
        TypeKind::Vector { element, .. } => is_compatible(ctx, *element),
        TypeKind::Dialect { .. } => llvm_type(ctx, t).is_some(),
        _ => false,
    }
}

/// The LLVM name of a float format, where LLVM has it.
pub fn float_name(k: FloatKind) -> Option<&'static str> {
    Some(match k {
        FloatKind::F16 => "half",
        FloatKind::BF16 => "bfloat",
        FloatKind::F32 => "float",
        FloatKind::F64 => "double",
        FloatKind::F80 => "x86_fp80",
        FloatKind::F128 => "fp128",
        _ => return None,
    })
}

/// Whether target extension type `t` may live in memory (allocas,
/// loads): MLIR allows `spirv.*` and `riscv.vector.tuple`. `None` for
/// other types.
pub fn target_ext_in_memory(ctx: &Context, t: Type) -> Option<bool> {
    match llvm_type(ctx, t)? {
        LlvmType::Target(name) => {
            Some(name.starts_with(b"spirv.") || name == b"riscv.vector.tuple")
        }
        _ => None,
    }
}

/// Whether `t` is `!llvm.void`.
pub fn is_void(ctx: &Context, t: Type) -> bool {
    matches!(llvm_type(ctx, t), Some(LlvmType::Void))
}

/// Whether `t` is an `!llvm.ptr` of any address space.
pub fn is_ptr(ctx: &Context, t: Type) -> bool {
    matches!(llvm_type(ctx, t), Some(LlvmType::Ptr(_)))
}

// ----- parsing ------------------------------------------------------------

/// The type hook: parses what follows `!llvm.<mnemonic>`.
pub(crate) fn parse(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Type> {
    match mnemonic {
        "ptr" => {
            let mut space = 0;
            if p.eat(Tok::Less) {
                space = p.parse_u64()?;
                p.expect(Tok::Greater, "'>'")?;
            }
            let Ok(space) = u32::try_from(space) else {
                return p.expected("address space that fits in 32 bits");
            };
            Ok(ptr(p.ctx(), space))
        }
        "void" | "token" | "label" | "metadata" | "x86_amx" | "ppc_fp128" => {
            Ok(make(p.ctx(), mnemonic, vec![]))
        }
        "array" => {
            let at = p.start_pos();
            p.expect(Tok::Less, "'<'")?;
            let n = p.parse_u64()?;
            p.expect_keyword("x")?;
            let element = parse_nested(p)?;
            p.expect(Tok::Greater, "'>'")?;
            if is_one_of(
                p.ctx(),
                element,
                &["void", "label", "metadata", "func", "token"],
            ) {
                return p.error_at(at, "invalid array element type");
            }
            Ok(array(p.ctx(), n, element))
        }
        "vec" => {
            p.expect(Tok::Less, "'<'")?;
            let scalable = p.eat(Tok::Question);
            if scalable {
                p.expect_keyword("x")?;
            }
            let n = p.parse_u64()?;
            p.expect_keyword("x")?;
            let element = parse_nested(p)?;
            p.expect(Tok::Greater, "'>'")?;
            let ctx = p.ctx();
            let params = vec![
                i64_attr(ctx, i64::from(scalable)),
                i64_attr(ctx, n as i64),
                type_attr(ctx, element),
            ];
            Ok(make(ctx, "vec", params))
        }
        "func" => {
            let at = p.start_pos();
            p.expect(Tok::Less, "'<'")?;
            let result = parse_nested(p)?;
            if is_one_of(p.ctx(), result, &["func", "metadata", "label"]) {
                return p.error_at(at, "invalid function result type");
            }
            p.expect(Tok::LParen, "'('")?;
            let mut params = Vec::new();
            let mut vararg = false;
            if !p.eat(Tok::RParen) {
                loop {
                    if p.eat(Tok::Ellipsis) {
                        vararg = true;
                        break;
                    }
                    let param = parse_nested(p)?;
                    if is_one_of(p.ctx(), param, &["void", "func"]) {
                        return p.error_at(at, "invalid function argument type");
                    }
                    params.push(param);
                    if !p.eat(Tok::Comma) {
                        break;
                    }
                }
                p.expect(Tok::RParen, "')'")?;
            }
            p.expect(Tok::Greater, "'>'")?;
            Ok(func(p.ctx(), result, &params, vararg))
        }
        "struct" => parse_struct(p),
        "target" => {
            let at = p.start_pos();
            p.expect(Tok::Less, "'<'")?;
            if !p.peek(Tok::String) {
                let name_at = p.pos();
                let first = silica_ir::Diagnostic::error(p.loc_at(name_at), "expected string");
                let then = silica_ir::Diagnostic::error(
                    p.loc_at(at),
                    "failed to parse LLVMTargetExtType parameter 'extTypeName' which is to be a `::llvm::StringRef`",
                );
                let mut d = first;
                d.notes.push(then);
                return Err(Box::new(d));
            }
            let name = p.parse_string()?;
            let mut params = vec![p.ctx().string_attr(&name)];
            let mut seen_int = false;
            while p.eat(Tok::Comma) {
                if matches!(p.peek_kind(), Tok::Integer) {
                    let v = p.parse_u64()? as i64;
                    let ctx = p.ctx();
                    let t = ctx.signless(32);
                    params.push(ctx.int_attr(t, v));
                    seen_int = true;
                } else {
                    // Type parameters come before integer ones.
                    if seen_int {
                        return p.error_at(
                            at,
                            "failed to parse parameter list for target extension type",
                        );
                    }
                    let t = parse_nested(p)?;
                    params.push(type_attr(p.ctx(), t));
                }
            }
            p.expect(Tok::Greater, "'>'")?;
            Ok(make(p.ctx(), "target", params))
        }
        _ => {
            let at = p.start_pos();
            // A builtin type where an llvm keyword belongs (`!llvm.f32`).
            let builtin = matches!(
                mnemonic,
                "tensor" | "memref" | "vector" | "complex" | "tuple" | "none" | "index"
            ) || FloatKind::from_name(mnemonic).is_some()
                || mnemonic
                    .strip_prefix(['i', 'u', 's'])
                    .is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()));
            if builtin {
                return p.error_at(at, "unexpected type, expected keyword");
            }
            p.error_at(at, format!("unknown LLVM type: {mnemonic}"))
        }
    }
}

/// `struct<(...)>`, `struct<packed (...)>`, `struct<"name", (...)>`,
/// `struct<"name", opaque>`, `struct<"name">`.
fn parse_struct(p: &mut AsmParser<'_, '_>) -> PResult<Type> {
    let at = p.start_pos();
    p.expect(Tok::Less, "'<'")?;
    let mut flags = 0;
    let mut name = None;
    if p.peek(Tok::String) {
        let n = p.parse_string()?;
        flags |= IDENTIFIED;
        let enclosing = ENCLOSING.with(|e| e.borrow().contains(&n));
        if !p.eat(Tok::Comma) {
            p.expect(Tok::Greater, "'>'")?;
            if !enclosing {
                return p.error_at(
                    at,
                    "struct without a body only allowed in a recursive struct",
                );
            }
            return Ok(struct_type(p.ctx(), flags | REFERENCE, Some(n), &[]));
        }
        if enclosing {
            return p.error_at(at, "identifier already used for an enclosing struct");
        }
        if p.eat_keyword("opaque") {
            p.expect(Tok::Greater, "'>'")?;
            return identified(p, at, n, flags | OPAQUE, &[]);
        }
        name = Some(n);
    } else if p.peek_keyword("opaque") {
        return p.error_at(at, "only identified structs can be opaque");
    }
    if p.eat_keyword("packed") {
        flags |= PACKED;
    }
    p.expect(Tok::LParen, "'('")?;
    if let Some(n) = &name {
        ENCLOSING.with(|e| e.borrow_mut().push(n.clone()));
    }
    let body = parse_struct_body(p);
    if name.is_some() {
        ENCLOSING.with(|e| e.borrow_mut().pop());
    }
    let body = body?;
    p.expect(Tok::Greater, "'>'")?;
    let invalid = ["void", "label", "metadata", "func", "token"];
    if body.iter().any(|&t| is_one_of(p.ctx(), t, &invalid)) {
        return p.error_at(at, "invalid LLVM structure element type");
    }
    match name {
        Some(n) => identified(p, at, n, flags, &body),
        None => Ok(struct_type(p.ctx(), flags, None, &body)),
    }
}

/// The identified struct `name` with `body`, checked against the other
/// bodies the name has in this context when it is new.
fn identified(
    p: &mut AsmParser<'_, '_>,
    at: usize,
    name: Vec<u8>,
    flags: i64,
    body: &[Type],
) -> PResult<Type> {
    let known = p.ctx().types().len();
    let t = struct_type(p.ctx(), flags, Some(name.clone()), body);
    if p.ctx().types().len() > known {
        check_identified(p, at, &name, t)?;
    }
    Ok(t)
}

/// The element types of a struct up to its `)`.
fn parse_struct_body(p: &mut AsmParser<'_, '_>) -> PResult<Vec<Type>> {
    let mut body = Vec::new();
    if !p.eat(Tok::RParen) {
        loop {
            body.push(parse_nested(p)?);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RParen, "')'")?;
    }
    Ok(body)
}

thread_local! {
    /// The names of the identified structs whose bodies are being read
    /// (innermost last): `struct<"a">` inside `struct<"a", (...)>` refers
    /// back to it.
    static ENCLOSING: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An identified struct names one type per context: a second body for
/// the name, or an opaque redeclaration of a defined one, is an error.
fn check_identified(p: &mut AsmParser<'_, '_>, at: usize, name: &[u8], new: Type) -> PResult<()> {
    let ctx = p.ctx();
    let flags = match ctx.type_kind(new) {
        TypeKind::Dialect { params, .. } => int_param(ctx, params[0]),
        _ => 0,
    };
    let mut conflict = None;
    for t in ctx.types().filter(|&t| t != new) {
        let TypeKind::Dialect {
            dialect,
            name: mnemonic,
            params,
        } = ctx.type_kind(t)
        else {
            continue;
        };
        if ctx.str(*dialect) != "llvm" || ctx.str(*mnemonic) != "struct" || params.len() < 2 {
            continue;
        }
        let other_flags = int_param(ctx, params[0]);
        let same_name = matches!(ctx.attr_kind(params[1]), AttrKind::String { value, .. } if &value[..] == name);
        if !same_name || other_flags & REFERENCE != 0 {
            continue;
        }
        conflict = Some(other_flags & OPAQUE == 0);
    }
    match conflict {
        Some(true) if flags & OPAQUE != 0 => p.error_at(at, "redeclaring defined struct as opaque"),
        Some(_) => p.error_at(at, "identified type already used with a different body"),
        None => Ok(()),
    }
}

/// Whether `t` is an llvm type with one of the mnemonics `names`.
fn is_one_of(ctx: &Context, t: Type, names: &[&str]) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Dialect { dialect, name, .. }
        if ctx.str(*dialect) == "llvm" && names.contains(&ctx.str(*name)))
}

fn struct_type(ctx: &mut Context, flags: i64, name: Option<Vec<u8>>, body: &[Type]) -> Type {
    let name = match name {
        Some(n) => ctx.string_attr(&n),
        None => ctx.unit_attr(),
    };
    let mut params = vec![i64_attr(ctx, flags), name];
    params.extend(body.iter().map(|t| type_attr(ctx, *t)));
    make(ctx, "struct", params)
}

/// A type inside an llvm type: an llvm type without its prefix, or any
/// type.
fn parse_nested(p: &mut AsmParser<'_, '_>) -> PResult<Type> {
    if p.peek(Tok::BareId) {
        if let Some(m) = MNEMONICS.iter().find(|m| p.peek_keyword(m)) {
            p.eat_keyword(m);
            return parse(p, m);
        }
    }
    p.parse_type()
}

// ----- printing -----------------------------------------------------------

/// The type hook: prints an llvm type without its `!llvm.` prefix.
pub(crate) fn print(pp: &ParamPrinter<'_>, out: &mut String, name: &str, params: &[Attr]) {
    let ctx = pp.ctx();
    match decode(ctx, name, params) {
        LlvmType::Ptr(0) => out.push_str("ptr"),
        LlvmType::Ptr(n) => {
            out.push_str("ptr<");
            out.push_str(&n.to_string());
            out.push('>');
        }
        LlvmType::Struct {
            name,
            packed,
            opaque,
            body,
        } => {
            let flags = int_param(ctx, params[0]);
            out.push_str("struct<");
            if name.is_some() {
                pp.attr(out, params[1]);
                if flags & REFERENCE != 0 {
                    out.push('>');
                    return;
                }
                out.push_str(", ");
                if opaque {
                    out.push_str("opaque>");
                    return;
                }
            }
            if packed {
                out.push_str("packed ");
            }
            out.push('(');
            nested_list(pp, out, &body);
            out.push_str(")>");
        }
        LlvmType::Array(n, element) => {
            out.push_str("array<");
            out.push_str(&n.to_string());
            out.push_str(" x ");
            nested(pp, out, element);
            out.push('>');
        }
        LlvmType::Func {
            result,
            params,
            vararg,
        } => {
            out.push_str("func<");
            nested(pp, out, result);
            out.push_str(" (");
            nested_list(pp, out, &params);
            if vararg {
                out.push_str(if params.is_empty() { "..." } else { ", ..." });
            }
            out.push_str(")>");
        }
        LlvmType::Vec {
            scalable,
            count,
            element,
        } => {
            out.push_str("vec<");
            if scalable {
                out.push_str("? x ");
            }
            out.push_str(&count.to_string());
            out.push_str(" x ");
            nested(pp, out, element);
            out.push('>');
        }
        LlvmType::Target(_) => {
            out.push_str("target<");
            pp.attr(out, params[0]);
            for p in &params[1..] {
                out.push_str(", ");
                match ctx.attr_kind(*p) {
                    AttrKind::Type(t) => nested(pp, out, *t),
                    _ => out.push_str(&int_param(ctx, *p).to_string()),
                }
            }
            out.push('>');
        }
        LlvmType::Void => out.push_str("void"),
        LlvmType::Token => out.push_str("token"),
        LlvmType::Label => out.push_str("label"),
        LlvmType::Metadata => out.push_str("metadata"),
        LlvmType::Other(n) => out.push_str(n),
    }
}

fn nested(pp: &ParamPrinter<'_>, out: &mut String, t: Type) {
    if let TypeKind::Dialect {
        dialect,
        name,
        params,
    } = pp.ctx().type_kind(t)
    {
        if pp.ctx().str(*dialect) == "llvm" {
            return print(pp, out, pp.ctx().str(*name), params);
        }
    }
    pp.ty(out, t);
}

fn nested_list(pp: &ParamPrinter<'_>, out: &mut String, ts: &[Type]) {
    for (i, t) in ts.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        nested(pp, out, *t);
    }
}
