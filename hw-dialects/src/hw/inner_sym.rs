//! Inner symbols: names that ops and ports inside an `hw.module` carry so
//! that other IR can refer to them, in CIRCT's syntax and with its checks.
//!
//! An inner symbol is the attribute `#hw<innerSym@x>` (one public name for
//! the whole value) or `#hw<innerSym[<@x,0,public>, <@y,2,private>]>` (a
//! name and visibility per field ID, field IDs numbering the value's
//! aggregate fields depth-first in pre-order). Ops write it after `sym`
//! (`hw.wire %a sym @x : i8`); ports keep it under `hw.exportPort`.

use crate::hw::port_attributes;
use crate::types::{self, HwType};
use silica_ir::dialect::inherent_attr;
use silica_ir::format::CustomAttrSyntax;
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::{keyword_or_string, AsmPrinter};
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, Symbol, Type};

/// The attribute's mnemonic in the hw dialect.
pub const MNEMONIC: &str = "innerSym";

/// The visibilities a symbol may have.
const VISIBILITIES: [&str; 3] = ["public", "private", "nested"];

/// One field's symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InnerSymProp {
    pub name: String,
    pub field_id: u64,
    pub visibility: String,
}

/// `#hw<innerSym...>` of `props`, sorted by field ID as CIRCT keeps them.
pub fn make(ctx: &mut Context, props: &[InnerSymProp]) -> Attr {
    let mut props = props.to_vec();
    props.sort_by_key(|p| p.field_id);
    let i64_ty = ctx.signless(64);
    let params: Vec<Attr> = props
        .iter()
        .map(|p| {
            let name = ctx.string_attr(p.name.as_bytes());
            let id = ctx.int_attr(i64_ty, i64::try_from(p.field_id).unwrap_or(i64::MAX));
            let vis = ctx.string_attr(p.visibility.as_bytes());
            ctx.array_attr(&[name, id, vis])
        })
        .collect();
    let (dialect, name) = (ctx.sym("hw"), ctx.sym(MNEMONIC));
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: params.into(),
    })
}

/// The symbols of an inner-symbol attribute (`None` for other attributes).
pub fn props(ctx: &Context, a: Attr) -> Option<Vec<InnerSymProp>> {
    match ctx.attr_kind(a) {
        AttrKind::Dialect { name, params, .. } if ctx.str(*name) == MNEMONIC => {
            Some(params.iter().filter_map(|&p| prop(ctx, p)).collect())
        }
        _ => None,
    }
}

fn prop(ctx: &Context, a: Attr) -> Option<InnerSymProp> {
    let AttrKind::Array(parts) = ctx.attr_kind(a) else {
        return None;
    };
    let text = |a: Attr| match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    };
    let field_id = match ctx.attr_kind(*parts.get(1)?) {
        AttrKind::Integer { value, .. } => u64::try_from(value).ok()?,
        _ => return None,
    };
    Some(InnerSymProp {
        name: text(*parts.first()?)?,
        field_id,
        visibility: text(*parts.get(2)?)?,
    })
}

/// The symbol naming the whole value (field 0), if any.
pub fn top_name(ctx: &Context, a: Attr) -> Option<String> {
    props(ctx, a)?
        .into_iter()
        .find(|p| p.field_id == 0)
        .map(|p| p.name)
}

/// The inner symbol an op carries (its `inner_sym`).
pub fn of_op(ctx: &Context, ir: &Ir, op: OpId) -> Option<Attr> {
    inherent_attr(ctx, ir, op, "inner_sym").filter(|&a| props(ctx, a).is_some())
}

// ----- syntax ---------------------------------------------------------------------

/// `@x` or `[<@x, 1, public>, ...]`.
pub fn parse_body(p: &mut AsmParser<'_, '_>) -> PResult<Attr> {
    if !p.eat(Tok::LSquare) {
        let name = p.parse_symbol_name()?;
        let name = p.ctx().str(name).to_string();
        let prop = InnerSymProp {
            name,
            field_id: 0,
            visibility: "public".into(),
        };
        return Ok(make(p.ctx(), &[prop]));
    }
    let mut props = Vec::new();
    if !p.eat(Tok::RSquare) {
        loop {
            p.expect(Tok::Less, "'<'")?;
            let name = p.parse_symbol_name()?;
            let name = p.ctx().str(name).to_string();
            p.expect(Tok::Comma, "','")?;
            let field_id = p.parse_u64()?;
            p.expect(Tok::Comma, "','")?;
            let at = p.pos();
            let visibility = p.parse_keyword().ok().filter(|v| VISIBILITIES.contains(v));
            let Some(visibility) = visibility else {
                return p.custom_error_at(at, "expected 'public', 'private', or 'nested'");
            };
            let visibility = visibility.to_string();
            p.expect(Tok::Greater, "'>'")?;
            props.push(InnerSymProp {
                name,
                field_id,
                visibility,
            });
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RSquare, "']'")?;
    }
    Ok(make(p.ctx(), &props))
}

/// Appends the text `parse_body` reads: `@x` for one public symbol of
/// field 0, else the list.
pub fn print_body(ctx: &Context, a: Attr, out: &mut String) {
    if let AttrKind::Dialect { params, .. } = ctx.attr_kind(a) {
        print_params(ctx, params, out);
    }
}

/// [`print_body`] from the attribute's parameters.
pub fn print_params(ctx: &Context, params: &[Attr], out: &mut String) {
    let props: Vec<_> = params.iter().filter_map(|&p| prop(ctx, p)).collect();
    if let [only] = props.as_slice() {
        if only.field_id == 0 && only.visibility == "public" {
            out.push('@');
            keyword_or_string(out, &only.name);
            return;
        }
    }
    out.push('[');
    for (i, p) in props.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str("<@");
        keyword_or_string(out, &p.name);
        out.push_str(&format!(",{},{}>", p.field_id, p.visibility));
    }
    out.push(']');
}

/// The optional `sym ...` clause of an op; its attribute is added to
/// `entries` as `inner_sym`.
pub fn parse_clause(p: &mut AsmParser<'_, '_>, entries: &mut Vec<(Symbol, Attr)>) -> PResult<()> {
    if p.eat_keyword("sym") {
        let a = parse_body(p)?;
        let key = p.ctx().sym("inner_sym");
        entries.push((key, a));
    }
    Ok(())
}

/// ` sym ...` when the op has an inner symbol.
pub fn print_clause(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    if let Some(a) = of_op(ctx, ir, op) {
        let mut text = String::from(" sym ");
        print_body(ctx, a, &mut text);
        p.write(&text);
    }
}

fn starts(p: &AsmParser<'_, '_>) -> bool {
    p.peek(Tok::AtId) || p.peek(Tok::LSquare)
}

/// The inner symbol as a declarative-format attribute (`sym $inner_sym`).
pub static SYNTAX: CustomAttrSyntax = CustomAttrSyntax {
    starts,
    parse: parse_body,
    print: print_body,
};

// ----- checks ---------------------------------------------------------------------

/// The largest field ID of a value of type `t`: 0 for ground types; each
/// struct field and array element counts itself and its own fields.
pub fn max_field_id(ctx: &Context, t: Type) -> u64 {
    match types::hw_type(ctx, t) {
        Some(HwType::Struct(fields)) => fields.iter().map(|(_, f)| 1 + max_field_id(ctx, *f)).sum(),
        Some(HwType::Array(n, e) | HwType::UArray(n, e)) => {
            n.saturating_mul(1 + max_field_id(ctx, e))
        }
        Some(HwType::Alias(_, inner)) => max_field_id(ctx, inner),
        _ => 0,
    }
}

/// CIRCT's checks of an inner symbol whose field IDs run to `max`: not
/// empty, one symbol per field ID, field IDs within range.
pub fn check(ctx: &Context, a: Attr, max: u64) -> Result<(), String> {
    let props = props(ctx, a).unwrap_or_default();
    if props.is_empty() {
        return Err("has empty list of inner symbols".into());
    }
    for (i, p) in props.iter().enumerate() {
        if p.field_id > max {
            return Err(format!(
                "field id:'{}' is greater than the maximum field id:'{max}'",
                p.field_id
            ));
        }
        if props[..i].iter().any(|q| q.field_id == p.field_id) {
            return Err(format!(
                "cannot assign multiple symbol names to the field id:'{}'",
                p.field_id
            ));
        }
    }
    Ok(())
}

/// Ops whose inner symbol names the op as a whole, not its result's
/// fields.
const WHOLE_OP_ONLY: [&str; 2] = ["hw.instance", "seq.clock_gate"];

/// [`check`] of an op's inner symbol against its result's type; ops that
/// name only themselves take one symbol, of field 0.
pub fn verify_op(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(a) = of_op(ctx, ir, op) else {
        return Ok(());
    };
    let max = if WHOLE_OP_ONLY.contains(&ctx.str(ir.op_name(op))) {
        let props = props(ctx, a).unwrap_or_default();
        if props.len() > 1 || props.first().is_some_and(|p| p.field_id != 0) {
            return Err(v.op_error(op, "does not support per-field inner symbols"));
        }
        0
    } else {
        ir.results(op)
            .next()
            .map_or(0, |r| max_field_id(ctx, ir.value_type(r)))
    };
    check(ctx, a, max).map_err(|msg| -> Box<Diagnostic> { v.op_error(op, msg) })
}

/// The attribute of a port's dictionary that holds its inner symbol.
pub(crate) const EXPORT_PORT: &str = "hw.exportPort";

/// The inner symbol in a port's attribute dictionary.
pub(crate) fn port_symbol(ctx: &Context, dict: Attr) -> Option<Attr> {
    ctx.dict_entries(dict)
        .iter()
        .find(|(k, v)| ctx.str(*k) == EXPORT_PORT && props(ctx, *v).is_some())
        .map(|&(_, v)| v)
}

/// Every inner symbol of `module`'s ports and ops, with where it is
/// defined, in definition order (ports first).
pub(crate) fn definitions(ctx: &Context, ir: &Ir, module: OpId) -> Vec<(InnerSymProp, Attr)> {
    let mut defs = Vec::new();
    for dict in port_attributes(ctx, ir, module) {
        if let Some(a) = port_symbol(ctx, dict) {
            let loc = ir.op_loc(module);
            let props = props(ctx, a).unwrap_or_default();
            defs.extend(props.into_iter().map(|p| (p, loc)));
        }
    }
    ir.walk(module, &mut |o| {
        if let Some(a) = of_op(ctx, ir, o) {
            let loc = ir.op_loc(o);
            let props = props(ctx, a).unwrap_or_default();
            defs.extend(props.into_iter().map(|p| (p, loc)));
        }
    });
    defs
}
