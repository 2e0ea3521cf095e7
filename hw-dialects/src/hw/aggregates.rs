//! The hw aggregate ops in CIRCT's syntax: `hw.array_create`,
//! `hw.array_get`, `hw.array_slice`, `hw.array_concat`,
//! `hw.struct_create`, `hw.struct_extract`, `hw.struct_inject`,
//! `hw.struct_explode`, `hw.aggregate_constant` and `hw.bitcast`.
//!
//! Bit layout (shared by the simulator, bitcasts and the Verilog
//! emitter): an array's element `i` occupies bits `[i*w, (i+1)*w)`; the
//! first operand of `array_create`/`array_concat` is the highest element;
//! a struct's first field is its most significant.

use crate::types::{self, bit_width, canonical, hw_type, HwType};
use silica_ir::dialect::{inherent_attr, Effects, OpDef, ValueNames};
use silica_ir::format::{
    parse_op, print_op, Arity, DerivedType, Signature, TypeConstraint, ValueParam,
};
use silica_ir::graph::OpSpec;
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Symbol, Type, TypeKind};

fn entry(ctx: &mut Context, name: &str, value: Attr) -> (Symbol, Attr) {
    (ctx.sym(name), value)
}

/// Creates the op `name` being parsed, without regions or successors.
pub(crate) fn create(
    p: &mut AsmParser<'_, '_>,
    name: &str,
    operands: &[silica_ir::ValueId],
    results: &[Type],
    attrs: Vec<(Symbol, Attr)>,
) -> OpId {
    let loc = p.op_loc();
    let ctx = p.ctx();
    let attrs = ctx.dict_attr(attrs);
    let name = ctx.sym(name);
    p.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    })
}

/// The element type and length of an array type (aliases looked
/// through).
pub fn array_of(ctx: &Context, t: Type) -> Option<(u64, Type)> {
    match hw_type(ctx, types::canonical(ctx, t))? {
        HwType::Array(n, e) => Some((n, e)),
        _ => None,
    }
}

/// The element type of a packed array type, of a constant or a
/// parametric length (aliases looked through).
pub fn array_element(ctx: &Context, t: Type) -> Option<Type> {
    match hw_type(ctx, types::canonical(ctx, t))? {
        HwType::Array(_, e)
        | HwType::ParamArray {
            element: e,
            unpacked: false,
            ..
        } => Some(e),
        _ => None,
    }
}

/// The fields of a struct type (aliases looked through).
pub fn struct_fields(ctx: &Context, t: Type) -> Option<Vec<(String, Type)>> {
    match hw_type(ctx, types::canonical(ctx, t))? {
        HwType::Struct(f) => Some(f),
        _ => None,
    }
}

/// The bit offset of field `index` in a struct of `fields`.
pub fn field_offset(ctx: &Context, fields: &[(String, Type)], index: usize) -> u64 {
    fields[index + 1..]
        .iter()
        .map(|(_, t)| bit_width(ctx, *t).unwrap_or(0))
        .sum()
}

/// The width of an index into an array of `n` elements:
/// `ceil(log2(n))`.
pub fn index_width(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}

pub(crate) fn parse_extra(p: &mut AsmParser<'_, '_>) -> PResult<Vec<(Symbol, Attr)>> {
    let d = p.parse_optional_attr_dict()?;
    Ok(p.ctx().dict_entries(d).to_vec())
}

// ----- arrays ---------------------------------------------------------------

/// `hw.array_create %a, %b : i8 [-> !alias]`
fn parse_array_create(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let ops = p.parse_operand_list()?;
    let attrs = parse_extra(p)?;
    p.expect(Tok::Colon, "':'")?;
    let elem = p.parse_type()?;
    let result = if p.eat(Tok::Arrow) {
        p.parse_type()?
    } else {
        types::array(p.ctx(), ops.len() as u64, elem)
    };
    let mut operands = Vec::new();
    for u in ops {
        operands.push(p.resolve_operand(u, elem)?);
    }
    Ok(create(p, "hw.array_create", &operands, &[result], attrs))
}

fn print_array_create(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let ops: Vec<_> = ir.operands(op).collect();
    p.write(" ");
    p.operands(ops.clone());
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
    p.write(" : ");
    if let Some(&first) = ops.first() {
        p.ty(ir.value_type(first));
    }
    let result = ir.results(op).next().map(|r| ir.value_type(r));
    if let Some(result) = result.filter(|&t| matches!(hw_type(p.ctx(), t), Some(HwType::Alias(..))))
    {
        p.write(" -> ");
        p.ty(result);
    }
}

fn verify_array_create(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let n = ir.operands(op).count() as u64;
    if n == 0 {
        return Err(v.op_error(op, "requires one or more operands"));
    }
    let ok = ir
        .results(op)
        .next()
        .and_then(|r| array_of(ctx, ir.value_type(r)))
        .is_some_and(|(len, e)| len == n && ir.operands(op).all(|x| ir.value_type(x) == e));
    if !ok {
        return Err(v.op_error(
            op,
            "result must be an array of the operands' type and count",
        ));
    }
    Ok(())
}

const ANY: TypeConstraint = TypeConstraint {
    desc: "any type",
    check: |_, _| true,
    build: None,
};

const ARRAY: TypeConstraint = TypeConstraint {
    desc: "an ArrayType",
    check: |ctx, t| array_element(ctx, t).is_some(),
    build: None,
};

const INT: TypeConstraint = TypeConstraint {
    desc: "a signless integer bitvector",
    check: types::is_int,
    build: None,
};

const fn one(name: &'static str, constraint: TypeConstraint) -> ValueParam {
    ValueParam {
        name,
        arity: Arity::One,
        constraint,
    }
}

static ARRAY_GET: Signature = Signature::new(
    &[one("input", ARRAY), one("index", INT)],
    &[one("result", ANY)],
    &[],
    "$input `[` $index `]` attr-dict `:` type($input) `,` type($index)",
)
.infer(|ctx, ins, _| Some(vec![array_element(ctx, *ins.first()?)?]));

static ARRAY_INJECT: Signature = Signature::new(
    &[one("input", ARRAY), one("index", INT), one("element", ANY)],
    &[one("result", ARRAY)],
    &[],
    "$input `[` $index `]` `,` $element attr-dict `:` type($input) `,` type($index)",
)
.derived_types(&[DerivedType {
    target: "element",
    source: "input",
    derive: |ctx, t| array_of(ctx, t).map(|(_, e)| e),
}])
.infer(|_, ins, _| Some(vec![*ins.first()?]));

/// The index is `clog2(length)` bits wide and the element and result
/// types are the array's.
fn verify_array_inject(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    verify_array_get(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let ops: Vec<_> = ir.operands(op).collect();
    let input = ir.value_type(ops[0]);
    let element_ok = array_of(ctx, input).map(|(_, e)| e) == ops.get(2).map(|&e| ir.value_type(e));
    let result_ok = ir.results(op).next().map(|r| ir.value_type(r)) == Some(input);
    if !element_ok || !result_ok {
        return Err(v.op_error(op, "element and result types must match the input array"));
    }
    Ok(())
}

fn verify_array_get(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let ops: Vec<_> = ir.operands(op).collect();
    let Some((n, _)) = ops.first().and_then(|&a| array_of(ctx, ir.value_type(a))) else {
        return Ok(());
    };
    let width = ops.get(1).and_then(|&i| ctx.int_width(ir.value_type(i)));
    let singleton_ok = n == 1 && width == Some(1);
    if width != Some(index_width(n)) && !singleton_ok {
        let msg = "failed to verify that index bit width equals ceil(log2(length(input))), or 0 or 1 if input contains only one element";
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// `hw.array_slice %a[%i] : (!hw.array<4xi8>) -> !hw.array<2xi8>`
fn parse_array_slice(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let input = p.parse_operand()?;
    p.expect(Tok::LSquare, "'['")?;
    let index = p.parse_operand()?;
    p.expect(Tok::RSquare, "']'")?;
    let attrs = parse_extra(p)?;
    p.expect(Tok::Colon, "':'")?;
    p.expect(Tok::LParen, "'('")?;
    let at = p.pos();
    let ty = p.parse_type()?;
    p.expect(Tok::RParen, "')'")?;
    p.expect(Tok::Arrow, "'->'")?;
    let result = p.parse_type()?;
    let Some((n, _)) = array_of(p.ctx(), ty) else {
        return p.error_at(at, "expected !hw.array type");
    };
    let it = p.ctx().signless(index_width(n));
    let operands = [p.resolve_operand(input, ty)?, p.resolve_operand(index, it)?];
    Ok(create(p, "hw.array_slice", &operands, &[result], attrs))
}

fn print_array_slice(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let ops: Vec<_> = ir.operands(op).collect();
    let (Some(&input), Some(&index), Some(result)) =
        (ops.first(), ops.get(1), ir.results(op).next())
    else {
        return;
    };
    p.write(" ");
    p.operand(input);
    p.write("[");
    p.operand(index);
    p.write("]");
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
    p.write(" : (");
    p.ty(ir.value_type(input));
    p.write(") -> ");
    p.ty(ir.value_type(result));
}

fn verify_array_slice(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let input = ir
        .operands(op)
        .next()
        .and_then(|a| array_of(ctx, ir.value_type(a)));
    let result = ir
        .results(op)
        .next()
        .and_then(|r| array_of(ctx, ir.value_type(r)));
    match (input, result) {
        (Some((n, e)), Some((m, f))) if e == f && m <= n => Ok(()),
        _ => Err(v.op_error(
            op,
            "result must be an array of the input's elements, no longer than the input",
        )),
    }
}

/// `hw.array_concat %a, %b : !hw.array<2xi8>, !hw.array<3xi8>`
fn parse_array_concat(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let ops = p.parse_operand_list()?;
    let attrs = parse_extra(p)?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let tys = p.parse_type_list()?;
    if tys.len() != ops.len() {
        return p.error_at(
            at,
            format!("{} operands present, but expected {}", ops.len(), tys.len()),
        );
    }
    let mut total = 0;
    let mut elem = None;
    for &t in &tys {
        let Some((n, e)) = array_of(p.ctx(), t) else {
            return p.error_at(at, "expected !hw.array types");
        };
        if elem.is_some_and(|x| x != e) {
            return p.error_at(at, "arrays must have the same element type");
        }
        elem = Some(e);
        total += n;
    }
    let Some(elem) = elem else {
        return p.error_at(at, "expected one or more arrays");
    };
    let result = types::array(p.ctx(), total, elem);
    let mut operands = Vec::new();
    for (u, t) in ops.into_iter().zip(tys) {
        operands.push(p.resolve_operand(u, t)?);
    }
    Ok(create(p, "hw.array_concat", &operands, &[result], attrs))
}

fn print_array_concat(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let ops: Vec<_> = ir.operands(op).collect();
    p.write(" ");
    p.operands(ops.clone());
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
    p.write(" : ");
    let tys: Vec<Type> = ops.iter().map(|&v| ir.value_type(v)).collect();
    p.types(&tys);
}

// ----- structs ---------------------------------------------------------------

/// `hw.struct_create (%a, %b) : !hw.struct<...>`
fn parse_struct_create(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    p.expect(Tok::LParen, "'('")?;
    let ops = if p.peek(Tok::RParen) {
        Vec::new()
    } else {
        p.parse_operand_list()?
    };
    p.expect(Tok::RParen, "')'")?;
    let attrs = parse_extra(p)?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let ty = p.parse_type()?;
    let Some(fields) = struct_fields(p.ctx(), ty) else {
        return p.custom_error_at(at, "expected !hw.struct type or alias");
    };
    if fields.len() != ops.len() {
        return p.error_at(at, "struct field count mismatch");
    }
    let mut operands = Vec::new();
    for (u, (_, t)) in ops.into_iter().zip(fields) {
        operands.push(p.resolve_operand(u, t)?);
    }
    Ok(create(p, "hw.struct_create", &operands, &[ty], attrs))
}

fn print_struct_create(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    p.write(" (");
    p.operands(ir.operands(op));
    p.write(")");
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
    p.write(" : ");
    if let Some(r) = ir.results(op).next() {
        p.ty(ir.value_type(r));
    }
}

fn field_index(ctx: &Context, ir: &Ir, op: OpId) -> Option<usize> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "fieldIndex")?) {
        AttrKind::Integer { value, .. } => usize::try_from(value).ok(),
        _ => None,
    }
}

/// The field an extract or inject names.
pub fn field_of(ctx: &Context, ir: &Ir, op: OpId) -> Option<usize> {
    field_index(ctx, ir, op)
}

pub(crate) fn index_attr(ctx: &mut Context, i: usize) -> (Symbol, Attr) {
    let t = ctx.signless(32);
    let a = ctx.int_attr(t, i as i64);
    entry(ctx, "fieldIndex", a)
}

/// `hw.struct_extract %s["x"] : !hw.struct<...>`
fn parse_struct_extract(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_struct_access(p, false)
}

/// `hw.struct_inject %s["x"], %v : !hw.struct<...>`
fn parse_struct_inject(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_struct_access(p, true)
}

fn parse_struct_access(p: &mut AsmParser<'_, '_>, inject: bool) -> PResult<OpId> {
    let input = p.parse_operand()?;
    // The field name comes before the type that gives its index: read
    // it as text first.
    p.expect(Tok::LSquare, "'['")?;
    let name_at = p.pos();
    let name = String::from_utf8_lossy(&p.parse_string()?).into_owned();
    p.expect(Tok::RSquare, "']'")?;
    let value = if inject {
        p.expect(Tok::Comma, "','")?;
        Some(p.parse_operand()?)
    } else {
        None
    };
    let mut attrs = parse_extra(p)?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let ty = p.parse_type()?;
    let Some(fields) = struct_fields(p.ctx(), ty) else {
        return p.custom_error_at(at, "invalid kind of type specified");
    };
    let Some(index) = fields.iter().position(|(n, _)| *n == name) else {
        return p.custom_error_at(
            name_at,
            format!("field name '{name}' not found in aggregate type"),
        );
    };
    attrs.push(index_attr(p.ctx(), index));
    let mut operands = vec![p.resolve_operand(input, ty)?];
    if let Some(v) = value {
        operands.push(p.resolve_operand(v, fields[index].1)?);
        Ok(create(p, "hw.struct_inject", &operands, &[ty], attrs))
    } else {
        Ok(create(
            p,
            "hw.struct_extract",
            &operands,
            &[fields[index].1],
            attrs,
        ))
    }
}

fn print_struct_access(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let ops: Vec<_> = ir.operands(op).collect();
    let Some(&input) = ops.first() else {
        return;
    };
    let ty = ir.value_type(input);
    let name = struct_fields(ctx, ty)
        .zip(field_index(ctx, ir, op))
        .and_then(|(f, i)| f.get(i).map(|x| x.0.clone()))
        .unwrap_or_default();
    p.write(" ");
    p.operand(input);
    p.write("[");
    p.string(name.as_bytes());
    p.write("]");
    if let Some(&v) = ops.get(1) {
        p.write(", ");
        p.operand(v);
    }
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &["fieldIndex"], false);
    p.write(" : ");
    p.ty(ty);
}

/// A struct access's field index against its struct, and the field's
/// type against the value extracted or injected.
fn verify_struct_access(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let operands: Vec<_> = ir.operands(op).collect();
    let Some(fields) = operands
        .first()
        .and_then(|&s| struct_fields(ctx, ir.value_type(s)))
    else {
        return Ok(());
    };
    let Some(index) = field_index(ctx, ir, op) else {
        return Ok(());
    };
    let Some((_, field)) = fields.get(index) else {
        let msg = format!("field index {index} exceeds element count of aggregate type");
        return Err(v.op_error(op, msg));
    };
    let given = match operands.get(1) {
        Some(&value) => ir.value_type(value),
        None => match ir.results(op).next() {
            Some(r) => ir.value_type(r),
            None => return Ok(()),
        },
    };
    if given != *field {
        let show = |t| silica_ir::printer::type_to_string(ctx, t);
        let msg = format!(
            "type '{}' of accessed field in aggregate at index {index} does not match expected type '{}'",
            show(*field),
            show(given)
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

fn extract_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    let ty = ir.value_type(ir.operands(op).next()?);
    let f = struct_fields(ctx, ty)?;
    let name = f.get(field_index(ctx, ir, op)?)?.0.clone();
    (!name.is_empty()).then_some(name)
}

/// `hw.struct_explode %s : !hw.struct<...>`
fn parse_struct_explode(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let input = p.parse_operand()?;
    let attrs = parse_extra(p)?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let ty = p.parse_type()?;
    let Some(fields) = struct_fields(p.ctx(), ty) else {
        return p.custom_error_at(at, "invalid kind of type specified");
    };
    let operands = [p.resolve_operand(input, ty)?];
    let results: Vec<Type> = fields.iter().map(|f| f.1).collect();
    Ok(create(p, "hw.struct_explode", &operands, &results, attrs))
}

fn print_struct_explode(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let Some(input) = ir.operands(op).next() else {
        return;
    };
    p.write(" ");
    p.operand(input);
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &[], false);
    p.write(" : ");
    p.ty(ir.value_type(input));
}

fn explode_names(ctx: &Context, ir: &Ir, op: OpId) -> ValueNames {
    let fields = ir
        .operands(op)
        .next()
        .and_then(|v| struct_fields(ctx, ir.value_type(v)))
        .unwrap_or_default();
    ValueNames {
        results: fields.into_iter().map(|f| f.0).collect(),
        entry_args: Vec::new(),
    }
}

// ----- constants and bitcasts ----------------------------------------------------

/// `hw.aggregate_constant [1 : i8, 2 : i8] : !hw.array<2xi8>`
fn parse_aggregate_constant(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let fields = p.parse_attribute()?;
    let mut attrs = parse_extra(p)?;
    p.expect(Tok::Colon, "':'")?;
    let at = p.pos();
    let ty = p.parse_type()?;
    let ctx = p.ctx();
    let aggregate = matches!(
        hw_type(ctx, canonical(ctx, ty)),
        Some(HwType::Array(..) | HwType::UArray(..) | HwType::Struct(_))
    );
    if !aggregate {
        return p.custom_error_at(at, "invalid kind of type specified");
    }
    attrs.push(entry(p.ctx(), "fields", fields));
    Ok(create(p, "hw.aggregate_constant", &[], &[ty], attrs))
}

fn print_aggregate_constant(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    if let Some(f) = inherent_attr(ctx, ir, op, "fields") {
        p.write(" ");
        p.attr(f);
    }
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &["fields"], false);
    p.write(" : ");
    if let Some(r) = ir.results(op).next() {
        p.ty(ir.value_type(r));
    }
}

/// The `fields` of an `hw.aggregate_constant` against its type.
fn verify_aggregate_constant(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (Some(fields), Some(r)) = (inherent_attr(ctx, ir, op, "fields"), ir.results(op).next())
    else {
        return Ok(());
    };
    check_constant(ctx, fields, ir.value_type(r)).map_err(|msg| v.op_error(op, msg))
}

/// CIRCT's check of a constant's attribute `a` for a value of type `ty`:
/// one element per array element or struct field, integers of the
/// element's width.
fn check_constant(ctx: &Context, a: Attr, ty: Type) -> Result<(), String> {
    let ty = canonical(ctx, ty);
    let (kind, elements): (&str, Vec<Type>) = match hw_type(ctx, ty) {
        Some(HwType::Array(n, e)) => ("array", vec![e; n as usize]),
        Some(HwType::UArray(n, e)) => ("unpacked array", vec![e; n as usize]),
        Some(HwType::Struct(fields)) => ("struct", fields.into_iter().map(|f| f.1).collect()),
        _ => return check_scalar(ctx, a, ty),
    };
    let AttrKind::Array(items) = ctx.attr_kind(a) else {
        return Err(format!(
            "expected array attribute for constant of type '{}'",
            show(ctx, ty)
        ));
    };
    if items.len() != elements.len() {
        return Err(format!(
            "array attribute ({}) has wrong size for {kind} constant ({})",
            items.len(),
            elements.len()
        ));
    }
    items
        .iter()
        .zip(elements)
        .try_for_each(|(&item, e)| check_constant(ctx, item, e))
}

fn check_scalar(ctx: &Context, a: Attr, ty: Type) -> Result<(), String> {
    if let Some(fields) = crate::hw::enums::enum_fields(ctx, ty) {
        return match ctx.attr_kind(a) {
            AttrKind::String { value, .. } if fields.iter().any(|f| f.as_bytes() == &value[..]) => {
                Ok(())
            }
            _ => Err(format!(
                "enum value {} is not a member of enum type '{}'",
                silica_ir::printer::attr_to_string(ctx, a),
                show(ctx, ty)
            )),
        };
    }
    let AttrKind::Integer { ty: given, .. } = ctx.attr_kind(a) else {
        return Err(format!(
            "expected integer attribute for constant of type '{}'",
            show(ctx, ty)
        ));
    };
    match (bit_width(ctx, *given), ctx.type_kind(ty)) {
        (Some(w), TypeKind::Integer { width, .. }) if w == u64::from(*width) => Ok(()),
        (_, TypeKind::Integer { .. }) => {
            Err("hw.constant attribute bitwidth doesn't match return type".into())
        }
        _ => Err(format!(
            "typed attr doesn't match the return type '{}'",
            show(ctx, ty)
        )),
    }
}

fn show(ctx: &Context, t: Type) -> String {
    silica_ir::printer::type_to_string(ctx, t)
}

static BITCAST: Signature = Signature::new(
    &[one("input", ANY)],
    &[one("result", ANY)],
    &[],
    "$input attr-dict `:` functional-type($input, $result)",
);

fn verify_bitcast(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let (Some(a), Some(r)) = (ir.operands(op).next(), ir.results(op).next()) else {
        return Ok(());
    };
    let (wa, wr) = (
        bit_width(ctx, ir.value_type(a)),
        bit_width(ctx, ir.value_type(r)),
    );
    if wa.is_none() || wa != wr {
        return Err(v.op_error(op, "Bitwidth of input must match result"));
    }
    Ok(())
}

/// The aggregate ops, added to the hw dialect's.
pub(crate) const OPS: [OpDef; 11] = [
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&ARRAY_INJECT),
        verify: Some(verify_array_inject),
        effects: Effects::None,
        ..OpDef::new("hw.array_inject")
    },
    OpDef {
        parse: Some(parse_array_create),
        print: Some(print_array_create),
        verify: Some(verify_array_create),
        effects: Effects::None,
        ..OpDef::new("hw.array_create")
    },
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&ARRAY_GET),
        verify: Some(verify_array_get),
        fold: Some(crate::hw::aggregate_folds::fold_aggregate),
        effects: Effects::None,
        ..OpDef::new("hw.array_get")
    },
    OpDef {
        parse: Some(parse_array_slice),
        print: Some(print_array_slice),
        verify: Some(verify_array_slice),
        effects: Effects::None,
        ..OpDef::new("hw.array_slice")
    },
    OpDef {
        parse: Some(parse_array_concat),
        print: Some(print_array_concat),
        effects: Effects::None,
        fold: Some(crate::hw::aggregate_folds::fold_aggregate),
        ..OpDef::new("hw.array_concat")
    },
    OpDef {
        parse: Some(parse_struct_create),
        print: Some(print_struct_create),
        effects: Effects::None,
        ..OpDef::new("hw.struct_create")
    },
    OpDef {
        parse: Some(parse_struct_extract),
        print: Some(print_struct_access),
        verify: Some(verify_struct_access),
        result_names: Some(extract_name),
        effects: Effects::None,
        fold: Some(crate::hw::aggregate_folds::fold_aggregate),
        ..OpDef::new("hw.struct_extract")
    },
    OpDef {
        parse: Some(parse_struct_inject),
        print: Some(print_struct_access),
        verify: Some(verify_struct_access),
        effects: Effects::None,
        fold: Some(crate::hw::aggregate_folds::fold_aggregate),
        ..OpDef::new("hw.struct_inject")
    },
    OpDef {
        parse: Some(parse_struct_explode),
        print: Some(print_struct_explode),
        value_names: Some(explode_names),
        effects: Effects::None,
        ..OpDef::new("hw.struct_explode")
    },
    OpDef {
        parse: Some(parse_aggregate_constant),
        print: Some(print_aggregate_constant),
        verify: Some(verify_aggregate_constant),
        effects: Effects::None,
        ..OpDef::new("hw.aggregate_constant")
    },
    OpDef {
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&BITCAST),
        verify: Some(verify_bitcast),
        effects: Effects::None,
        fold: Some(crate::hw::aggregate_folds::fold_aggregate),
        ..OpDef::new("hw.bitcast")
    },
];
