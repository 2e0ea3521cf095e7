//! `!hw.union` values: `hw.union_create` puts a value in one field of a
//! union (the other bits are zero), `hw.union_extract` reads one field.
//! A field sits `offset` bits below the union's most significant bit, as
//! CIRCT lays unions out.

use crate::hw::aggregates::{create, field_of, index_attr, parse_extra};
use crate::types::{self, bit_width, hw_type, HwType, UnionField};
use silica_ir::dialect::{Effects, OpDef};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Context, Ir, OpId, Type};

/// The fields of a union type (aliases looked through).
pub fn union_fields(ctx: &Context, t: Type) -> Option<Vec<UnionField>> {
    match hw_type(ctx, types::canonical(ctx, t))? {
        HwType::Union(f) => Some(f),
        _ => None,
    }
}

/// The low bit and width of field `index` of a union of `fields`.
pub fn field_bits(ctx: &Context, fields: &[UnionField], index: usize) -> Option<(u64, u64)> {
    let total = types::union_width(ctx, fields)?;
    let f = fields.get(index)?;
    let w = bit_width(ctx, f.ty)?;
    Some((total - f.offset - w, w))
}

/// The union and field an op names: its union operand's type (or, for
/// `hw.union_create`, its result's) and its field index.
pub fn accessed(ctx: &Context, ir: &Ir, op: OpId) -> Option<(Vec<UnionField>, usize)> {
    let union = if ctx.str(ir.op_name(op)) == "hw.union_create" {
        ir.value_type(ir.results(op).next()?)
    } else {
        ir.value_type(ir.operands(op).next()?)
    };
    Some((union_fields(ctx, union)?, field_of(ctx, ir, op)?))
}

fn show(ctx: &Context, t: Type) -> String {
    silica_ir::printer::type_to_string(ctx, t)
}

/// `hw.union_create "field", %v : !hw.union<...>`
fn parse_union_create(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name_at = p.pos();
    let name = String::from_utf8_lossy(&p.parse_string()?).into_owned();
    p.expect(Tok::Comma, "','")?;
    let input = p.parse_operand()?;
    let mut attrs = parse_extra(p)?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let ty = p.parse_type()?;
    let Some(fields) = union_fields(p.ctx(), ty) else {
        return p.custom_error_at(at, "invalid kind of type specified");
    };
    let Some(index) = fields.iter().position(|f| f.name == name) else {
        return p.custom_error_at(name_at, format!("cannot find union field '{name}'"));
    };
    attrs.push(index_attr(p.ctx(), index));
    let input = p.resolve_operand(input, fields[index].ty)?;
    Ok(create(p, "hw.union_create", &[input], &[ty], attrs))
}

fn print_union_create(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let name = accessed(ctx, ir, op)
        .and_then(|(f, i)| f.get(i).map(|f| f.name.clone()))
        .unwrap_or_default();
    p.write(" ");
    p.string(name.as_bytes());
    p.write(", ");
    if let Some(v) = ir.operands(op).next() {
        p.operand(v);
    }
    p.attr_dict(ir.op_attrs(op), &["fieldIndex"], false);
    p.write(" : ");
    if let Some(r) = ir.results(op).next() {
        p.ty(ir.value_type(r));
    }
}

/// `hw.union_extract %u["field"] : !hw.union<...>`
fn parse_union_extract(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let input = p.parse_operand()?;
    p.expect(Tok::LSquare, "'['")?;
    let name_at = p.pos();
    let name = String::from_utf8_lossy(&p.parse_string()?).into_owned();
    p.expect(Tok::RSquare, "']'")?;
    let mut attrs = parse_extra(p)?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let ty = p.parse_type()?;
    let Some(fields) = union_fields(p.ctx(), ty) else {
        return p.custom_error_at(at, "invalid kind of type specified");
    };
    let Some(index) = fields.iter().position(|f| f.name == name) else {
        let msg = format!("field name '{name}' not found in aggregate type");
        return p.custom_error_at(name_at, msg);
    };
    attrs.push(index_attr(p.ctx(), index));
    let input = p.resolve_operand(input, ty)?;
    let result = fields[index].ty;
    Ok(create(p, "hw.union_extract", &[input], &[result], attrs))
}

fn print_union_extract(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let Some(input) = ir.operands(op).next() else {
        return;
    };
    let name = accessed(ctx, ir, op)
        .and_then(|(f, i)| f.get(i).map(|f| f.name.clone()))
        .unwrap_or_default();
    p.write(" ");
    p.operand(input);
    p.write("[");
    p.string(name.as_bytes());
    p.write("]");
    p.attr_dict(ir.op_attrs(op), &["fieldIndex"], false);
    p.write(" : ");
    p.ty(ir.value_type(input));
}

/// The field index is within the union and the field's type is the value
/// put in (`hw.union_create`) or read (`hw.union_extract`, whose result
/// type is inferred: its errors are followed by MLIR's "failed to infer").
fn verify_union_access(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let extract = v.ctx().str(v.ir().op_name(op)) == "hw.union_extract";
    check_union_access(v, op).map_err(|mut d| {
        if extract {
            let at = v.ir().op_loc(op);
            let msg = "'hw.union_extract' op failed to infer returned types";
            d.notes.push(silica_ir::Diagnostic::error(at, msg));
        }
        d
    })
}

fn check_union_access(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some((fields, index)) = accessed(ctx, ir, op) else {
        return Ok(());
    };
    let Some(field) = fields.get(index) else {
        let msg = format!("field index {index} exceeds element count of aggregate type");
        return Err(v.op_error(op, msg));
    };
    let create = ctx.str(ir.op_name(op)) == "hw.union_create";
    let given = if create {
        ir.operands(op).next()
    } else {
        ir.results(op).next()
    };
    let Some(given) = given.map(|g| ir.value_type(g)) else {
        return Ok(());
    };
    if given == field.ty {
        return Ok(());
    }
    let msg = if create {
        format!(
            "type '{}' of accessed field in aggregate at index {index} does not match expected type '{}'",
            show(ctx, field.ty),
            show(ctx, given)
        )
    } else {
        format!(
            "inferred type(s) '{}' are incompatible with return type(s) of operation '{}'",
            show(ctx, field.ty),
            show(ctx, given)
        )
    };
    Err(v.op_error(op, msg))
}

/// The union ops, added to the hw dialect's.
pub(crate) const OPS: [OpDef; 2] = [
    OpDef {
        parse: Some(parse_union_create),
        print: Some(print_union_create),
        verify: Some(verify_union_access),
        effects: Effects::None,
        ..OpDef::new("hw.union_create")
    },
    OpDef {
        parse: Some(parse_union_extract),
        print: Some(print_union_extract),
        verify: Some(verify_union_access),
        fold: Some(crate::hw::aggregate_folds::fold_aggregate),
        effects: Effects::None,
        ..OpDef::new("hw.union_extract")
    },
];
