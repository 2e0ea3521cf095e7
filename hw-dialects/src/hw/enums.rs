//! `!hw.enum` values: `hw.enum.constant` names a field (its value is the
//! field's index, `#hw.enum.field<A, !hw.enum<A, B>>`), `hw.enum.cmp`
//! compares two values of one enumeration.

use crate::hw::aggregates::create;
use crate::types::{self, hw_type, HwType};
use silica_ir::dialect::{inherent_attr, Effects, OpDef, ValueNames};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::{AsmPrinter, ParamPrinter};
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Type};

/// The mnemonic of the field attribute in the hw dialect.
pub const FIELD: &str = "enum.field";

/// The fields of an enum type (aliases looked through).
pub fn enum_fields(ctx: &Context, t: Type) -> Option<Vec<String>> {
    match hw_type(ctx, types::canonical(ctx, t))? {
        HwType::Enum(f) => Some(f),
        _ => None,
    }
}

/// `#hw.enum.field<name, ty>`.
pub fn field_attr(ctx: &mut Context, name: &str, ty: Type) -> Attr {
    let n = ctx.string_attr(name.as_bytes());
    let t = ctx.intern_attr(AttrKind::Type(ty));
    let (dialect, mnemonic) = (ctx.sym("hw"), ctx.sym(FIELD));
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name: mnemonic,
        params: Box::new([n, t]),
    })
}

/// The field name and enum type of a `#hw.enum.field`.
pub fn field_of_attr(ctx: &Context, a: Attr) -> Option<(String, Type)> {
    let AttrKind::Dialect { name, params, .. } = ctx.attr_kind(a) else {
        return None;
    };
    if ctx.str(*name) != FIELD {
        return None;
    }
    let field = match ctx.attr_kind(*params.first()?) {
        AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
        _ => return None,
    };
    match ctx.attr_kind(*params.get(1)?) {
        AttrKind::Type(t) => Some((field, *t)),
        _ => None,
    }
}

/// The index of the field an `hw.enum.constant` names in its type.
pub fn constant_index(ctx: &Context, ir: &Ir, op: OpId) -> Option<usize> {
    let (field, _) = field_of_attr(ctx, inherent_attr(ctx, ir, op, "field")?)?;
    let fields = enum_fields(ctx, ir.value_type(ir.results(op).next()?))?;
    fields.iter().position(|f| *f == field)
}

/// The body of `#hw.enum.field` after its mnemonic: `<A, !hw.enum<A>>`.
pub(crate) fn parse_field_attr(p: &mut AsmParser<'_, '_>) -> PResult<Attr> {
    p.expect(Tok::Less, "'<'")?;
    let field = p.parse_keyword()?.to_string();
    p.expect(Tok::Comma, "','")?;
    let ty = p.parse_type()?;
    p.expect(Tok::Greater, "'>'")?;
    Ok(field_attr(p.ctx(), &field, ty))
}

pub(crate) fn print_field_attr(pp: &ParamPrinter<'_>, out: &mut String, params: &[Attr]) {
    out.push('<');
    if let Some(AttrKind::String { value, .. }) = params.first().map(|&a| pp.ctx().attr_kind(a)) {
        out.push_str(&String::from_utf8_lossy(value));
    }
    out.push_str(", ");
    if let Some(AttrKind::Type(t)) = params.get(1).map(|&a| pp.ctx().attr_kind(a)) {
        pp.ty(out, *t);
    }
    out.push('>');
}

fn show(ctx: &Context, t: Type) -> String {
    silica_ir::printer::type_to_string(ctx, t)
}

/// `hw.enum.constant A : !hw.enum<A, B>`
fn parse_constant(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let at = p.pos();
    let field = p.parse_keyword()?.to_string();
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let ctx = p.ctx();
    let Some(fields) = enum_fields(ctx, ty) else {
        return p.custom_error_at(at, "invalid kind of type specified");
    };
    if !fields.contains(&field) {
        let msg = format!(
            "enum value '{field}' is not a member of enum type '{}'",
            show(ctx, ty)
        );
        return p.error_at(at, msg);
    }
    let ctx = p.ctx();
    let a = field_attr(ctx, &field, ty);
    let mut entries = ctx.dict_entries(attrs).to_vec();
    entries.push((ctx.sym("field"), a));
    Ok(create(p, "hw.enum.constant", &[], &[ty], entries))
}

fn print_constant(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let field = inherent_attr(ctx, ir, op, "field").and_then(|a| field_of_attr(ctx, a));
    p.write(" ");
    p.write(&field.map(|f| f.0).unwrap_or_default());
    p.attr_dict(ir.op_attrs(op), &["field"], false);
    p.write(" : ");
    if let Some(r) = ir.results(op).next() {
        p.ty(ir.value_type(r));
    }
}

/// The field's enum is the result type, and names the field.
fn verify_constant(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(a) = inherent_attr(ctx, ir, op, "field") else {
        return Err(v.op_error(op, "requires attribute 'field'"));
    };
    let (Some((field, ty)), Some(r)) = (field_of_attr(ctx, a), ir.results(op).next()) else {
        return Err(v.op_error(op, "expected a '#hw.enum.field' attribute"));
    };
    let result = ir.value_type(r);
    if types::canonical(ctx, ty) != types::canonical(ctx, result) {
        let shown = silica_ir::printer::attr_to_string(ctx, a);
        let msg = format!(
            "return type '{}' does not match attribute type {shown}",
            show(ctx, result)
        );
        return Err(v.op_error(op, msg));
    }
    if !enum_fields(ctx, result).is_some_and(|f| f.contains(&field)) {
        let msg = format!(
            "enum value '{field}' is not a member of enum type '{}'",
            show(ctx, result)
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

fn constant_name(ctx: &Context, ir: &Ir, op: OpId) -> ValueNames {
    let field = inherent_attr(ctx, ir, op, "field").and_then(|a| field_of_attr(ctx, a));
    ValueNames {
        results: field.into_iter().map(|f| f.0).collect(),
        entry_args: Vec::new(),
    }
}

/// `hw.enum.cmp %a, %b : !hw.enum<...>, !hw.enum<...>`
fn parse_cmp(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let lhs = p.parse_operand()?;
    p.expect(Tok::Comma, "','")?;
    let rhs = p.parse_operand()?;
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let lt = p.parse_type()?;
    p.expect(Tok::Comma, "','")?;
    let rt = p.parse_type()?;
    let operands = [p.resolve_operand(lhs, lt)?, p.resolve_operand(rhs, rt)?];
    let ctx = p.ctx();
    let entries = ctx.dict_entries(attrs).to_vec();
    let i1 = ctx.signless(1);
    Ok(create(p, "hw.enum.cmp", &operands, &[i1], entries))
}

fn print_cmp(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let ops: Vec<_> = ir.operands(op).collect();
    p.write(" ");
    p.operands(ops.clone());
    p.attr_dict(ir.op_attrs(op), &[], false);
    p.write(" : ");
    let tys: Vec<Type> = ops.iter().map(|&v| ir.value_type(v)).collect();
    p.types(&tys);
}

/// Both operands are values of one enumeration.
fn verify_cmp(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let tys: Vec<Type> = ir
        .operands(op)
        .map(|o| types::canonical(ctx, ir.value_type(o)))
        .collect();
    if tys.len() != 2 || enum_fields(ctx, tys[0]).is_none() {
        return Err(v.op_error(op, "expects two enum operands"));
    }
    if tys[0] != tys[1] {
        return Err(v.op_error(op, "types do not match"));
    }
    Ok(())
}

/// The enum ops, added to the hw dialect's.
pub(crate) const OPS: [OpDef; 2] = [
    OpDef {
        parse: Some(parse_constant),
        print: Some(print_constant),
        verify: Some(verify_constant),
        value_names: Some(constant_name),
        effects: Effects::None,
        ..OpDef::new("hw.enum.constant")
    },
    OpDef {
        parse: Some(parse_cmp),
        print: Some(print_cmp),
        verify: Some(verify_cmp),
        effects: Effects::None,
        ..OpDef::new("hw.enum.cmp")
    },
];
