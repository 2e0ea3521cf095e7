//! The hw and seq types, in CIRCT's syntax: `!hw.array<4xi8>`,
//! `!hw.uarray<4xi8>`, `!hw.struct<a: i8, b: i1>`, `!hw.inout<i8>`,
//! `!hw.typealias<@scope::@name, i8>`, `!hw.modty<input a : i8, output
//! b : i1>`, `!seq.clock`, and the memory handles `!seq.firmem<12 x 20,
//! mask 4>` and `!seq.hlmem<4x8xi32>`.
//!
//! They are the IR's dialect types with attribute parameters; [`HwType`]
//! is their decoded view. An array's element type is written without its
//! `!hw.` prefix when it is itself an hw type (`!hw.array<2xarray<4xi8>>`),
//! as CIRCT prints it; struct fields keep theirs.

use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context, Type, TypeKind};

/// Port directions of a module type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Input,
    Output,
    InOut,
}

impl Direction {
    /// The keyword in `!hw.modty<...>`.
    pub fn keyword(self) -> &'static str {
        match self {
            Direction::Input => "input",
            Direction::Output => "output",
            Direction::InOut => "inout",
        }
    }

    fn code(self) -> i64 {
        self as i64
    }

    fn from_code(c: i64) -> Direction {
        match c {
            1 => Direction::Output,
            2 => Direction::InOut,
            _ => Direction::Input,
        }
    }
}

/// One port of a module type.
#[derive(Clone, Debug, PartialEq)]
pub struct Port {
    pub dir: Direction,
    pub name: String,
    pub ty: Type,
}

/// A field of an `!hw.union`.
#[derive(Clone, Debug, PartialEq)]
pub struct UnionField {
    pub name: String,
    pub ty: Type,
    pub offset: u64,
}

/// A decoded hw or seq type.
#[derive(Clone, Debug, PartialEq)]
pub enum HwType {
    Array(u64, Type),
    UArray(u64, Type),
    Struct(Vec<(String, Type)>),
    /// `!hw.union<a: T, b: U offset N>`: fields overlaid, each `offset`
    /// bits below the union's most significant bit.
    Union(Vec<UnionField>),
    /// `!hw.enum<A, B, C>`: a field's value is its index.
    Enum(Vec<String>),
    InOut(Type),
    Alias(Attr, Type),
    Module(Vec<Port>),
    Clock,
    /// `!seq.firmem<depth x width[, mask M]>`.
    FirMem {
        depth: u64,
        width: u64,
        mask: Option<u64>,
    },
    /// `!seq.hlmem<D0xD1x...xelement>`.
    HlMem(Vec<u64>, Type),
    /// `!seq.immutable<T>`: a value fixed at initialisation.
    Immutable(Type),
    /// `!hw.int<#hw.param...>`: an integer whose width is a parameter
    /// expression.
    ParamInt(Attr),
    /// `!hw.array<#hw.param... x T>` (or `uarray`, when `unpacked`): an
    /// array whose length is a parameter expression.
    ParamArray {
        size: Attr,
        element: Type,
        unpacked: bool,
    },
}

fn int_param(ctx: &Context, a: Attr) -> i64 {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => i64::try_from(value).unwrap_or(0),
        _ => 0,
    }
}

fn is_int_attr(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Integer { .. })
}

fn type_param(ctx: &Context, a: Attr) -> Option<Type> {
    match ctx.attr_kind(a) {
        AttrKind::Type(t) => Some(*t),
        _ => None,
    }
}

fn name_of(ctx: &Context, a: Attr) -> String {
    match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    }
}

/// The decoded view of `t`, if it is an hw or seq type.
pub fn hw_type(ctx: &Context, t: Type) -> Option<HwType> {
    let TypeKind::Dialect {
        dialect,
        name,
        params,
    } = ctx.type_kind(t)
    else {
        return None;
    };
    Some(match (ctx.str(*dialect), ctx.str(*name)) {
        ("seq", "clock") => HwType::Clock,
        ("seq", "firmem") => HwType::FirMem {
            depth: int_param(ctx, *params.first()?) as u64,
            width: int_param(ctx, *params.get(1)?) as u64,
            mask: params.get(2).map(|&m| int_param(ctx, m) as u64),
        },
        ("seq", "immutable") => HwType::Immutable(type_param(ctx, *params.first()?)?),
        ("seq", "hlmem") => {
            let (last, dims) = params.split_last()?;
            HwType::HlMem(
                dims.iter().map(|&d| int_param(ctx, d) as u64).collect(),
                type_param(ctx, *last)?,
            )
        }
        ("hw", "int") => HwType::ParamInt(*params.first()?),
        ("hw", "array" | "uarray") if !is_int_attr(ctx, *params.first()?) => HwType::ParamArray {
            size: params[0],
            element: type_param(ctx, *params.get(1)?)?,
            unpacked: ctx.str(*name) == "uarray",
        },
        ("hw", "array") => HwType::Array(
            int_param(ctx, *params.first()?) as u64,
            type_param(ctx, *params.get(1)?)?,
        ),
        ("hw", "uarray") => HwType::UArray(
            int_param(ctx, *params.first()?) as u64,
            type_param(ctx, *params.get(1)?)?,
        ),
        ("hw", "inout") => HwType::InOut(type_param(ctx, *params.first()?)?),
        ("hw", "typealias") => HwType::Alias(*params.first()?, type_param(ctx, *params.get(1)?)?),
        ("hw", "struct") => HwType::Struct(
            params
                .chunks(2)
                .map(|c| Some((name_of(ctx, c[0]), type_param(ctx, *c.get(1)?)?)))
                .collect::<Option<_>>()?,
        ),
        ("hw", "union") => HwType::Union(
            params
                .chunks(3)
                .map(|c| {
                    Some(UnionField {
                        name: name_of(ctx, c[0]),
                        ty: type_param(ctx, *c.get(1)?)?,
                        offset: int_param(ctx, *c.get(2)?) as u64,
                    })
                })
                .collect::<Option<_>>()?,
        ),
        ("hw", "enum") => HwType::Enum(params.iter().map(|&p| name_of(ctx, p)).collect()),
        ("hw", "modty") => HwType::Module(
            params
                .chunks(3)
                .map(|c| {
                    Some(Port {
                        dir: Direction::from_code(int_param(ctx, c[0])),
                        name: name_of(ctx, *c.get(1)?),
                        ty: type_param(ctx, *c.get(2)?)?,
                    })
                })
                .collect::<Option<_>>()?,
        ),
        _ => return None,
    })
}

fn make(ctx: &mut Context, dialect: &str, name: &str, params: Vec<Attr>) -> Type {
    let dialect = ctx.sym(dialect);
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

fn name_attr(ctx: &mut Context, s: &str) -> Attr {
    ctx.string_attr(s.as_bytes())
}

/// `!hw.array<N x element>`.
/// `!hw.int<width>`: the builtin integer when `width` is a constant.
pub fn int_of_width(ctx: &mut Context, width: Attr) -> Type {
    match ctx.attr_kind(width) {
        AttrKind::Integer { value, .. } => {
            let w = u32::try_from(value).unwrap_or(0);
            ctx.signless(w)
        }
        _ => make(ctx, "hw", "int", vec![width]),
    }
}

/// `!hw.array<size x element>` (or `uarray`) for a size attribute, a
/// constant or a parameter expression.
pub fn array_of_size(ctx: &mut Context, unpacked: bool, size: Attr, element: Type) -> Type {
    let size = match ctx.attr_kind(size) {
        AttrKind::Integer { value, .. } => {
            let v = i64::try_from(value).unwrap_or(0);
            i64_attr(ctx, v)
        }
        _ => size,
    };
    let params = vec![size, type_attr(ctx, element)];
    make(ctx, "hw", if unpacked { "uarray" } else { "array" }, params)
}

pub fn array(ctx: &mut Context, n: u64, element: Type) -> Type {
    let params = vec![i64_attr(ctx, n as i64), type_attr(ctx, element)];
    make(ctx, "hw", "array", params)
}

/// `!hw.struct<...>`.
pub fn struct_type(ctx: &mut Context, fields: &[(String, Type)]) -> Type {
    let mut params = Vec::with_capacity(fields.len() * 2);
    for (n, t) in fields {
        params.push(name_attr(ctx, n));
        params.push(type_attr(ctx, *t));
    }
    make(ctx, "hw", "struct", params)
}

/// `!hw.enum<...>`.
pub fn enum_type(ctx: &mut Context, fields: &[String]) -> Type {
    let params = fields.iter().map(|f| name_attr(ctx, f)).collect();
    make(ctx, "hw", "enum", params)
}

/// The bits of a value of an enum of `n` fields: enough for the largest
/// index, at least one.
pub fn enum_width(n: usize) -> u64 {
    crate::hw::aggregates::index_width(n as u64).max(1).into()
}

/// `!hw.union<...>`.
pub fn union_type(ctx: &mut Context, fields: &[UnionField]) -> Type {
    let mut params = Vec::with_capacity(fields.len() * 3);
    for f in fields {
        params.push(name_attr(ctx, &f.name));
        params.push(type_attr(ctx, f.ty));
        params.push(i64_attr(ctx, f.offset as i64));
    }
    make(ctx, "hw", "union", params)
}

/// The bits of a union: its widest field with its offset.
pub fn union_width(ctx: &Context, fields: &[UnionField]) -> Option<u64> {
    fields
        .iter()
        .try_fold(0, |w, f| Some(w.max(f.offset + bit_width(ctx, f.ty)?)))
}

/// `!hw.inout<element>`.
pub fn inout(ctx: &mut Context, element: Type) -> Type {
    let params = vec![type_attr(ctx, element)];
    make(ctx, "hw", "inout", params)
}

/// `!seq.clock`.
pub fn clock(ctx: &mut Context) -> Type {
    make(ctx, "seq", "clock", vec![])
}

/// `!seq.firmem<depth x width[, mask M]>`.
pub fn firmem(ctx: &mut Context, depth: u64, width: u64, mask: Option<u64>) -> Type {
    let mut params = vec![i64_attr(ctx, depth as i64), i64_attr(ctx, width as i64)];
    if let Some(m) = mask {
        params.push(i64_attr(ctx, m as i64));
    }
    make(ctx, "seq", "firmem", params)
}

/// `!seq.immutable<inner>`.
pub fn immutable(ctx: &mut Context, inner: Type) -> Type {
    let params = vec![type_attr(ctx, inner)];
    make(ctx, "seq", "immutable", params)
}

/// The type an `!seq.immutable` wraps.
pub fn immutable_inner(ctx: &Context, t: Type) -> Option<Type> {
    match hw_type(ctx, t)? {
        HwType::Immutable(inner) => Some(inner),
        _ => None,
    }
}

/// `!seq.hlmem<dims x element>`.
pub fn hlmem(ctx: &mut Context, dims: &[u64], element: Type) -> Type {
    let mut params: Vec<Attr> = dims.iter().map(|&d| i64_attr(ctx, d as i64)).collect();
    params.push(type_attr(ctx, element));
    make(ctx, "seq", "hlmem", params)
}

/// The body of a `!seq.firmem` type after its mnemonic: `<12 x 20, mask
/// 4>` (as ops write it).
pub fn parse_firmem_body(p: &mut AsmParser<'_, '_>) -> PResult<Type> {
    p.expect(Tok::Less, "'<'")?;
    let depth = p.parse_u64()?;
    p.expect_keyword("x")?;
    let width = p.parse_u64()?;
    let mask = if p.eat(Tok::Comma) {
        p.expect_keyword("mask")?;
        Some(p.parse_u64()?)
    } else {
        None
    };
    p.expect(Tok::Greater, "'>'")?;
    Ok(firmem(p.ctx(), depth, width, mask))
}

/// The body of a `!seq.hlmem` type after its mnemonic: `<4x8xi32>`.
pub fn parse_hlmem_body(p: &mut AsmParser<'_, '_>) -> PResult<Type> {
    p.expect(Tok::Less, "'<'")?;
    let dims = p.parse_dimension_list()?;
    let element = p.parse_type()?;
    p.expect(Tok::Greater, "'>'")?;
    let dims: Vec<u64> = dims.into_iter().map(|d| d.max(0) as u64).collect();
    Ok(hlmem(p.ctx(), &dims, element))
}

/// `t`'s text without its `!seq.<mnemonic>` prefix, as ops print memory
/// types.
pub fn stripped_body(ctx: &Context, t: Type) -> String {
    let text = silica_ir::printer::type_to_string(ctx, t);
    match text.find('<') {
        Some(i) if text.starts_with("!seq.") => text[i..].to_string(),
        _ => text,
    }
}

/// `!hw.modty<...>`.
pub fn module_type(ctx: &mut Context, ports: &[Port]) -> Type {
    let mut params = Vec::with_capacity(ports.len() * 3);
    for p in ports {
        params.push(i64_attr(ctx, p.dir.code()));
        params.push(name_attr(ctx, &p.name));
        params.push(type_attr(ctx, p.ty));
    }
    make(ctx, "hw", "modty", params)
}

/// The ports of module type `t`.
pub fn ports(ctx: &Context, t: Type) -> Vec<Port> {
    match hw_type(ctx, t) {
        Some(HwType::Module(p)) => p,
        _ => Vec::new(),
    }
}

/// Whether `t` is `!seq.clock`.
pub fn is_clock(ctx: &Context, t: Type) -> bool {
    matches!(hw_type(ctx, t), Some(HwType::Clock))
}

/// `t` with type aliases looked through.
pub fn canonical(ctx: &Context, t: Type) -> Type {
    match hw_type(ctx, t) {
        Some(HwType::Alias(_, inner)) => canonical(ctx, inner),
        _ => t,
    }
}

/// The number of bits of a value of type `t` (integers, clocks, and
/// arrays/structs of them); `None` for types without a bit width.
pub fn bit_width(ctx: &Context, t: Type) -> Option<u64> {
    if let TypeKind::Integer { width, .. } = ctx.type_kind(t) {
        return Some(u64::from(*width));
    }
    match hw_type(ctx, t)? {
        HwType::Clock => Some(1),
        HwType::Array(n, e) => bit_width(ctx, e).map(|w| w * n),
        HwType::Struct(fields) => fields.iter().map(|(_, t)| bit_width(ctx, *t)).sum(),
        HwType::Union(fields) => union_width(ctx, &fields),
        HwType::Enum(fields) => Some(enum_width(fields.len())),
        HwType::Alias(_, t) => bit_width(ctx, t),
        _ => None,
    }
}

/// Whether values of type `t` are hardware values (CIRCT's
/// `isHWValueType`): integers and aggregates of them, aliases looked
/// through; not clocks, floats, indices or inouts.
pub fn is_value_type(ctx: &Context, t: Type) -> bool {
    if matches!(ctx.type_kind(t), TypeKind::Integer { .. }) {
        return true;
    }
    match hw_type(ctx, t) {
        Some(HwType::ParamInt(_) | HwType::Enum(_)) => true,
        Some(
            HwType::Array(_, e)
            | HwType::UArray(_, e)
            | HwType::Alias(_, e)
            | HwType::ParamArray { element: e, .. },
        ) => is_value_type(ctx, e),
        Some(HwType::Struct(fields)) => fields.iter().all(|(_, f)| is_value_type(ctx, *f)),
        Some(HwType::Union(fields)) => fields.iter().all(|f| is_value_type(ctx, f.ty)),
        _ => false,
    }
}

/// Whether `t` is a signless integer (aliases looked through), of a
/// constant or a parametric (`!hw.int<...>`) width.
pub fn is_int(ctx: &Context, t: Type) -> bool {
    let t = canonical(ctx, t);
    matches!(
        ctx.type_kind(t),
        TypeKind::Integer {
            signedness: silica_ir::Signedness::Signless,
            ..
        }
    ) || matches!(hw_type(ctx, t), Some(HwType::ParamInt(_)))
}

/// Whether `t` has a width or length given by a parameter expression.
pub fn is_parametric(ctx: &Context, t: Type) -> bool {
    match hw_type(ctx, t) {
        Some(HwType::ParamInt(_) | HwType::ParamArray { .. }) => true,
        Some(HwType::Array(_, e) | HwType::UArray(_, e) | HwType::InOut(e)) => {
            is_parametric(ctx, e)
        }
        Some(HwType::Struct(fields)) => fields.iter().any(|f| is_parametric(ctx, f.1)),
        Some(HwType::Union(fields)) => fields.iter().any(|f| is_parametric(ctx, f.ty)),
        Some(HwType::Alias(_, t)) => is_parametric(ctx, t),
        _ => false,
    }
}

/// Parses an hw type after `!hw.`.
pub(crate) fn parse_hw(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Type> {
    match mnemonic {
        "int" => {
            p.expect(Tok::Less, "'<'")?;
            let i32_ty = p.ctx().signless(32);
            let width = p.parse_attribute_of_type(i32_ty)?;
            p.expect(Tok::Greater, "'>'")?;
            Ok(int_of_width(p.ctx(), width))
        }
        "array" | "uarray" => {
            p.expect(Tok::Less, "'<'")?;
            if !p.peek(Tok::HashId) {
                return parse_array_dims(p, mnemonic);
            }
            let i64_ty = p.ctx().signless(64);
            let size = p.parse_attribute_of_type(i64_ty)?;
            let element = parse_after_x(p)?;
            p.expect(Tok::Greater, "'>'")?;
            Ok(array_of_size(p.ctx(), mnemonic == "uarray", size, element))
        }

        "struct" => {
            p.expect(Tok::Less, "'<'")?;
            let mut fields = Vec::new();
            let mut duplicates = Vec::new();
            if !p.eat(Tok::Greater) {
                loop {
                    let at = p.pos();
                    let name = parse_port_name(p)?;
                    if fields.iter().any(|(n, _)| *n == name) {
                        duplicates.push((at, format!("duplicate field name '{name}'")));
                    }
                    p.expect(Tok::Colon, "':'")?;
                    let ty = p.parse_type()?;
                    fields.push((name, ty));
                    if !p.eat(Tok::Comma) {
                        break;
                    }
                }
                p.expect(Tok::Greater, "'>'")?;
            }
            report_duplicates(p, duplicates)?;
            Ok(struct_type(p.ctx(), &fields))
        }
        "union" => parse_union(p),
        "enum" => {
            p.expect(Tok::Less, "'<'")?;
            let mut fields = Vec::new();
            if !p.eat(Tok::Greater) {
                loop {
                    fields.push(p.parse_keyword()?.to_string());
                    if !p.eat(Tok::Comma) {
                        break;
                    }
                }
                p.expect(Tok::Greater, "'>'")?;
            }
            Ok(enum_type(p.ctx(), &fields))
        }
        "inout" => {
            p.expect(Tok::Less, "'<'")?;
            let element = parse_element(p)?;
            p.expect(Tok::Greater, "'>'")?;
            if !is_value_type(p.ctx(), element) {
                let shown = silica_ir::printer::type_to_string(p.ctx(), element);
                let at = p.pos();
                return p.error_at(at, format!("invalid element for hw.inout type '{shown}'"));
            }
            Ok(inout(p.ctx(), element))
        }
        "typealias" => {
            p.expect(Tok::Less, "'<'")?;
            let r = p.parse_attribute()?;
            p.expect(Tok::Comma, "','")?;
            let inner = p.parse_type()?;
            p.expect(Tok::Greater, "'>'")?;
            let ctx = p.ctx();
            let params = vec![r, type_attr(ctx, inner)];
            Ok(make(ctx, "hw", "typealias", params))
        }
        "modty" => {
            p.expect(Tok::Less, "'<'")?;
            let mut ports = Vec::new();
            if !p.eat(Tok::Greater) {
                loop {
                    let dir = match p.parse_keyword()? {
                        "input" => Direction::Input,
                        "output" => Direction::Output,
                        "inout" => Direction::InOut,
                        _ => return p.expected("'input', 'output' or 'inout'"),
                    };
                    let name = parse_port_name(p)?;
                    p.expect(Tok::Colon, "':'")?;
                    let ty = p.parse_type()?;
                    ports.push(Port { dir, name, ty });
                    if !p.eat(Tok::Comma) {
                        break;
                    }
                }
                p.expect(Tok::Greater, "'>'")?;
            }
            Ok(module_type(p.ctx(), &ports))
        }
        _ => {
            let at = p.start_pos();
            p.error_at(at, format!("unknown hw type: {mnemonic}"))
        }
    }
}

/// The rest of `!hw.union<a: i8, b: i4 offset 2>` after `union`.
fn parse_union(p: &mut AsmParser<'_, '_>) -> PResult<Type> {
    p.expect(Tok::Less, "'<'")?;
    let mut fields: Vec<UnionField> = Vec::new();
    let mut duplicates = Vec::new();
    if !p.eat(Tok::Greater) {
        loop {
            let at = p.pos();
            let name = p.parse_keyword()?.to_string();
            if fields.iter().any(|f| f.name == name) {
                let msg = format!("duplicate field name '{name}' in hw.union type");
                duplicates.push((at, msg));
            }
            p.expect(Tok::Colon, "':'")?;
            let ty = p.parse_type()?;
            let offset = if p.eat_keyword("offset") {
                p.parse_u64()?
            } else {
                0
            };
            fields.push(UnionField { name, ty, offset });
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::Greater, "'>'")?;
    }
    report_duplicates(p, duplicates)?;
    Ok(union_type(p.ctx(), &fields))
}

/// A port or field name: a bare identifier or a string.
pub(crate) fn parse_port_name(p: &mut AsmParser<'_, '_>) -> PResult<String> {
    if p.peek(Tok::String) {
        let b = p.parse_string()?;
        return Ok(String::from_utf8_lossy(&b).into_owned());
    }
    Ok(p.parse_keyword()?.to_string())
}

/// Every repeated field name of a struct or union, once the type is
/// read (CIRCT reports them all): the first as the error, the others as
/// errors that follow it.
fn report_duplicates(p: &mut AsmParser<'_, '_>, duplicates: Vec<(usize, String)>) -> PResult<()> {
    let mut errors = duplicates
        .into_iter()
        .map(|(at, msg)| silica_ir::Diagnostic::error(p.loc_at(at), msg));
    let Some(mut first) = errors.next() else {
        return Ok(());
    };
    first.notes.extend(errors);
    Err(Box::new(first))
}

/// The rest of `!hw.array<4xi8>` after its `<`.
fn parse_array_dims(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Type> {
    let at = p.pos();
    if p.peek(Tok::Float) {
        // The size is read as an `i64` attribute.
        return p.error_at(at, "floating point value not valid for specified type");
    }
    let dims = p.parse_dimension_list()?;
    match dims.len() {
        1 => {}
        // CIRCT reads a size (an integer or a parameter), then an element
        // type where a second size stands.
        0 => return p.error_at(at, "unsupported dimension kind in hw.array"),
        _ => return p.error_at(at, "expected non-function type"),
    }
    let element = parse_element(p)?;
    p.expect(Tok::Greater, "'>'")?;
    let ctx = p.ctx();
    let params = vec![i64_attr(ctx, dims[0]), type_attr(ctx, element)];
    Ok(make(ctx, "hw", mnemonic, params))
}

/// The element type after a parametric array size: `x T`, or `xT` lexed
/// as one identifier (`xi8`, `xint<...>`).
fn parse_after_x(p: &mut AsmParser<'_, '_>) -> PResult<Type> {
    let word = p.parse_keyword()?;
    let Some(rest) = word.strip_prefix('x') else {
        return p.expected("'x' in a parametric array type");
    };
    if rest.is_empty() {
        return parse_element(p);
    }
    if let Some(w) = rest.strip_prefix('i').and_then(|d| d.parse::<u32>().ok()) {
        return Ok(p.ctx().signless(w));
    }
    match rest {
        "array" | "uarray" | "struct" | "union" | "enum" | "inout" | "typealias" | "int" => {
            parse_hw(p, rest)
        }
        _ => p.expected("an element type"),
    }
}

/// An element type: any type, or an hw type without its `!hw.` prefix.
fn parse_element(p: &mut AsmParser<'_, '_>) -> PResult<Type> {
    for m in [
        "array",
        "uarray",
        "struct",
        "union",
        "inout",
        "typealias",
        "int",
    ] {
        if p.peek_keyword(m) {
            p.expect_keyword(m)?;
            return parse_hw(p, m);
        }
    }
    p.parse_type()
}

/// Parses a seq type after `!seq.`.
pub(crate) fn parse_seq(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Type> {
    match mnemonic {
        "clock" => Ok(clock(p.ctx())),
        "firmem" => parse_firmem_body(p),
        "hlmem" => parse_hlmem_body(p),
        "immutable" => {
            p.expect(Tok::Less, "'<'")?;
            let inner = p.parse_type()?;
            p.expect(Tok::Greater, "'>'")?;
            Ok(immutable(p.ctx(), inner))
        }
        _ => {
            let at = p.start_pos();
            p.error_at(at, format!("unknown seq type: {mnemonic}"))
        }
    }
}

/// Prints an hw type's body after `!hw.`.
pub(crate) fn print_hw(pp: &ParamPrinter<'_>, out: &mut String, name: &str, params: &[Attr]) {
    let ctx = pp.ctx();
    match name {
        "int" => {
            out.push_str("int<");
            pp.attr_without_type(out, params[0]);
            out.push('>');
        }
        "array" | "uarray" => {
            out.push_str(name);
            out.push('<');
            if is_int_attr(ctx, params[0]) {
                out.push_str(&int_param(ctx, params[0]).to_string());
            } else {
                pp.attr_without_type(out, params[0]);
            }
            out.push('x');
            if let Some(t) = type_param(ctx, params[1]) {
                element(pp, out, t);
            }
            out.push('>');
        }
        "inout" => {
            out.push_str("inout<");
            if let Some(t) = type_param(ctx, params[0]) {
                element(pp, out, t);
            }
            out.push('>');
        }
        "typealias" => {
            out.push_str("typealias<");
            pp.attr(out, params[0]);
            out.push_str(", ");
            if let Some(t) = type_param(ctx, params[1]) {
                pp.ty(out, t);
            }
            out.push('>');
        }
        "struct" => {
            out.push_str("struct<");
            print_fields(pp, out, params, 2);
            out.push('>');
        }
        "enum" => {
            out.push_str("enum<");
            for (i, &f) in params.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                push_name(ctx, out, f);
            }
            out.push('>');
        }
        "union" => {
            out.push_str("union<");
            print_fields(pp, out, params, 3);
            out.push('>');
        }
        "modty" => {
            out.push_str("modty<");
            for (i, c) in params.chunks(3).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(Direction::from_code(int_param(ctx, c[0])).keyword());
                out.push(' ');
                push_name(ctx, out, c[1]);
                out.push_str(" : ");
                if let Some(t) = type_param(ctx, c[2]) {
                    pp.ty(out, t);
                }
            }
            out.push('>');
        }
        other => out.push_str(other),
    }
}

/// The `name: type` fields of a struct (`stride` 2) or union (`stride`
/// 3: the third parameter is the offset, written when it is not zero).
fn print_fields(pp: &ParamPrinter<'_>, out: &mut String, params: &[Attr], stride: usize) {
    let ctx = pp.ctx();
    for (i, c) in params.chunks(stride).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_name(ctx, out, c[0]);
        out.push_str(": ");
        if let Some(t) = c.get(1).and_then(|&t| type_param(ctx, t)) {
            pp.ty(out, t);
        }
        let offset = c.get(2).map_or(0, |&o| int_param(ctx, o));
        if offset != 0 {
            out.push_str(&format!(" offset {offset}"));
        }
    }
}

/// A field or port name: bare when it is an identifier, else quoted.
fn push_name(ctx: &Context, out: &mut String, a: Attr) {
    if let AttrKind::String { value, .. } = ctx.attr_kind(a) {
        silica_ir::printer::keyword_or_string(out, &String::from_utf8_lossy(value));
    }
}

/// An element type: hw types without their prefix.
fn element(pp: &ParamPrinter<'_>, out: &mut String, t: Type) {
    if let TypeKind::Dialect {
        dialect,
        name,
        params,
    } = pp.ctx().type_kind(t)
    {
        if pp.ctx().str(*dialect) == "hw" {
            return print_hw(pp, out, pp.ctx().str(*name), params);
        }
    }
    pp.ty(out, t);
}

/// Prints a seq type's body after `!seq.`.
pub(crate) fn print_seq(pp: &ParamPrinter<'_>, out: &mut String, name: &str, params: &[Attr]) {
    let ctx = pp.ctx();
    out.push_str(name);
    match name {
        "firmem" if params.len() >= 2 => {
            let depth = int_param(ctx, params[0]);
            let width = int_param(ctx, params[1]);
            out.push_str(&format!("<{depth} x {width}"));
            if let Some(&m) = params.get(2) {
                out.push_str(&format!(", mask {}", int_param(ctx, m)));
            }
            out.push('>');
        }
        "immutable" => {
            if let Some(t) = params.first().and_then(|&a| type_param(ctx, a)) {
                out.push('<');
                pp.ty(out, t);
                out.push('>');
            }
        }
        "hlmem" => {
            if let Some((last, dims)) = params.split_last() {
                out.push('<');
                for &d in dims {
                    out.push_str(&format!("{}x", int_param(ctx, d)));
                }
                if let Some(t) = type_param(ctx, *last) {
                    pp.ty(out, t);
                }
                out.push('>');
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_of_aggregates() {
        let mut ctx = Context::new();
        let i8t = ctx.signless(8);
        let a = array(&mut ctx, 4, i8t);
        let (x, y) = ("x".to_string(), "y".to_string());
        let i1t = ctx.signless(1);
        let s = struct_type(&mut ctx, &[(x.clone(), a), (y.clone(), i1t)]);
        assert_eq!(bit_width(&ctx, s), Some(33));
        assert_eq!(
            hw_type(&ctx, s),
            Some(HwType::Struct(vec![(x, a), (y, i1t)]))
        );
    }
}
