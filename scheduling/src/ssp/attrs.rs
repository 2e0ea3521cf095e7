//! The `ssp` attributes (`#ssp.latency<1>`, `#ssp.t<3>`,
//! `#ssp.dependence<0, @op, [#ssp.dist<1>]>`, ...): their syntax and
//! typed access to their parameters.

use silica_ir::float::{self, FloatKind};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::ParamPrinter;
use silica_ir::{Attr, AttrKind, Context, Signedness};

/// Properties with one unsigned integer parameter.
const UNSIGNED: &[&str] = &["latency", "limit", "II", "t", "dist"];
/// Properties with one float attribute parameter.
const FLOAT: &[&str] = &["incDelay", "outDelay", "z"];

/// Parses the parameters of the `ssp` attribute `name`.
pub(crate) fn parse(p: &mut AsmParser<'_, '_>, name: &str) -> PResult<Attr> {
    let pos = p.start_pos();
    p.expect(Tok::Less, "'<'")?;
    let mut params = Vec::new();
    if UNSIGNED.contains(&name) {
        let v = p.parse_u64()?;
        params.push(uint_attr(p.ctx(), v));
    } else if FLOAT.contains(&name) {
        let at = p.pos();
        let a = p.parse_attribute()?;
        if !matches!(p.ctx().attr_kind(a), AttrKind::Float { .. }) {
            return p.error_at(at, "expected floating point attribute");
        }
        params.push(a);
    } else if name == "opr" {
        params.push(parse_symbol_ref(p)?);
    } else if name == "rsrcs" {
        let at = p.pos();
        let a = p.parse_attribute()?;
        let ctx = p.ctx();
        let ok = match ctx.attr_kind(a) {
            AttrKind::Array(e) => e.iter().all(|x| is_symbol_ref(ctx, *x)),
            _ => false,
        };
        if !ok {
            return p.error_at(at, "expected an array of symbol references");
        }
        params.push(a);
    } else if name == "dependence" {
        let idx = p.parse_u64()?;
        params.push(uint_attr(p.ctx(), idx));
        if p.eat(Tok::Comma) {
            if p.peek(Tok::AtId) {
                params.push(parse_symbol_ref(p)?);
                if p.eat(Tok::Comma) {
                    params.push(parse_array(p)?);
                }
            } else {
                params.push(parse_array(p)?);
            }
        }
    } else {
        return p.error_at(pos, format!("unknown ssp attribute '{name}'"));
    }
    p.expect(Tok::Greater, "'>'")?;
    Ok(make(p.ctx(), name, &params))
}

fn parse_symbol_ref(p: &mut AsmParser<'_, '_>) -> PResult<Attr> {
    if !p.peek(Tok::AtId) {
        return p.expected("symbol reference");
    }
    p.parse_attribute()
}

fn parse_array(p: &mut AsmParser<'_, '_>) -> PResult<Attr> {
    if !p.peek(Tok::LSquare) {
        return p.expected("'['");
    }
    p.parse_attribute()
}

/// Prints the parameters of an `ssp` attribute.
pub(crate) fn print(pp: &ParamPrinter<'_>, out: &mut String, _name: &str, params: &[Attr]) {
    out.push('<');
    for (i, &a) in params.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match pp.ctx().attr_kind(a) {
            AttrKind::Integer { value, .. } => out.push_str(&value.to_string()),
            _ => pp.attr(out, a),
        }
    }
    out.push('>');
}

/// `#ssp.<name><params>`.
pub fn make(ctx: &mut Context, name: &str, params: &[Attr]) -> Attr {
    let dialect = ctx.sym("ssp");
    let name = ctx.sym(name);
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: params.into(),
    })
}

/// `#ssp.<name><v>` for the unsigned properties (`t`, `latency`, ...).
pub fn make_uint(ctx: &mut Context, name: &str, v: u64) -> Attr {
    let a = uint_attr(ctx, v);
    make(ctx, name, &[a])
}

/// `#ssp.<name><v : f32>` for the float properties (`z`, ...).
pub fn make_f32(ctx: &mut Context, name: &str, v: f64) -> Attr {
    let ty = ctx.float_type(FloatKind::F32);
    let bits = float::from_f64(FloatKind::F32, v);
    let a = ctx.intern_attr(AttrKind::Float { ty, bits });
    make(ctx, name, &[a])
}

fn uint_attr(ctx: &mut Context, v: u64) -> Attr {
    let ty = ctx.int_type(64, Signedness::Unsigned);
    ctx.int_attr(ty, v)
}

fn is_symbol_ref(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::SymbolRef { .. })
}

/// The mnemonic and parameters of an `ssp` attribute.
pub fn ssp_attr(ctx: &Context, a: Attr) -> Option<(&str, &[Attr])> {
    match ctx.attr_kind(a) {
        AttrKind::Dialect {
            dialect,
            name,
            params,
        } if ctx.str(*dialect) == "ssp" => Some((ctx.str(*name), params)),
        _ => None,
    }
}

/// The unsigned parameter of `#ssp.<name><N>` if `a` is one.
pub fn uint_of(ctx: &Context, a: Attr, name: &str) -> Option<u64> {
    match ssp_attr(ctx, a)? {
        (n, [p]) if n == name => uint_value(ctx, *p),
        _ => None,
    }
}

/// The float parameter of `#ssp.<name><F>` if `a` is one.
pub fn float_of(ctx: &Context, a: Attr, name: &str) -> Option<f64> {
    match ssp_attr(ctx, a)? {
        (n, [p]) if n == name => match ctx.attr_kind(*p) {
            AttrKind::Float { ty, bits } => Some(float::to_f64(ctx.float_kind(*ty)?, *bits)),
            _ => None,
        },
        _ => None,
    }
}

/// The value of an integer attribute as `u64`.
pub fn uint_value(ctx: &Context, a: Attr) -> Option<u64> {
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => u64::try_from(value).ok(),
        _ => None,
    }
}

/// A dependence entry: operand index, auxiliary source, properties.
pub struct DependenceAttr {
    pub operand_idx: u64,
    pub source: Option<Attr>,
    pub properties: Option<Attr>,
}

/// The parts of `#ssp.dependence<...>`.
pub fn dependence_of(ctx: &Context, a: Attr) -> Option<DependenceAttr> {
    let (name, params) = ssp_attr(ctx, a)?;
    if name != "dependence" {
        return None;
    }
    let operand_idx = uint_value(ctx, *params.first()?)?;
    let mut source = None;
    let mut properties = None;
    for &p in &params[1..] {
        match ctx.attr_kind(p) {
            AttrKind::SymbolRef { .. } => source = Some(p),
            _ => properties = Some(p),
        }
    }
    Some(DependenceAttr {
        operand_idx,
        source,
        properties,
    })
}
