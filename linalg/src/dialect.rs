//! The `linalg` dialect's ops and their custom forms, as mlir-opt-22
//! prints them:
//!
//! ```text
//! linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]}
//!     ins(%a : memref<4x16xf32>) outs(%b : memref<16xf32>) [attrs =  {..}] {
//! ^bb0(%in: f32, %out: f32): ... linalg.yield %x : f32 }
//! linalg.matmul [{attrs}] ins(%a, %b : t, t) outs(%c : t)
//! %i = linalg.index 1 : index
//! ```
//!
//! A named op gets its payload region when parsed, as MLIR builds it.
//! Iterator types are `#linalg.iterator_type<parallel>` attributes in
//! the generic form.

use crate::structured::{build_payload, element_type, Named};
use silica_ir::dialect::{
    inherent_attr, AttrHooks, DialectDef, Effects, OpDef, Traits, ValueNames,
};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::{AsmPrinter, ParamPrinter};
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, RegionId, Type, ValueId};

const TRAIT_ATTRS: [&str; 4] = ["doc", "indexing_maps", "iterator_types", "library_call"];
const SEGMENTS: &str = "operandSegmentSizes";

/// `#linalg.iterator_type<kind>`.
fn iterator_attr(ctx: &mut Context, kind: &str) -> Attr {
    let dialect = ctx.sym("linalg");
    let name = ctx.sym("iterator_type");
    let param = ctx.string_attr(kind.as_bytes());
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name,
        params: Box::new([param]),
    })
}

/// The kind (`parallel`, `reduction`) of an iterator type attribute.
pub fn iterator_kind(ctx: &Context, a: Attr) -> Option<String> {
    match ctx.attr_kind(a) {
        AttrKind::Dialect { name, params, .. } if ctx.str(*name) == "iterator_type" => {
            match params.first().map(|&p| ctx.attr_kind(p)) {
                Some(AttrKind::String { value, .. }) => {
                    Some(String::from_utf8_lossy(value).into_owned())
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn parse_attr(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    let at = p.start_pos();
    if mnemonic != "iterator_type" {
        return p.error_at(at, format!("unknown linalg attribute '{mnemonic}'"));
    }
    p.expect(Tok::Less, "'<'")?;
    let kind = p.parse_keyword()?.to_string();
    p.expect(Tok::Greater, "'>'")?;
    if kind != "parallel" && kind != "reduction" {
        return p.error_at(at, format!("unknown iterator type '{kind}'"));
    }
    Ok(iterator_attr(p.ctx(), &kind))
}

fn print_attr(pp: &ParamPrinter<'_>, out: &mut String, _: &str, params: &[Attr]) {
    if let Some(AttrKind::String { value, .. }) = params.first().map(|&p| pp.ctx().attr_kind(p)) {
        out.push('<');
        out.push_str(&String::from_utf8_lossy(value));
        out.push('>');
    }
}

/// `ins(%a, %b : t1, t2)` or `outs(...)` when the keyword is next.
fn parse_operand_group(p: &mut AsmParser<'_, '_>, keyword: &str) -> PResult<Vec<ValueId>> {
    if !p.eat_keyword(keyword) {
        return Ok(Vec::new());
    }
    p.expect(Tok::LParen, "'('")?;
    let operands = p.parse_operand_list()?;
    p.expect(Tok::Colon, "':'")?;
    let types = p.parse_type_list()?;
    p.expect(Tok::RParen, "')'")?;
    if operands.len() != types.len() {
        let at = p.pos();
        return p.error_at(
            at,
            format!(
                "{} operands present, but expected {}",
                operands.len(),
                types.len()
            ),
        );
    }
    operands
        .into_iter()
        .zip(types)
        .map(|(u, t)| p.resolve_operand(u, t))
        .collect()
}

/// Parses `ins(..) outs(..)`; gives the inputs, the outputs and the
/// `operandSegmentSizes` property.
fn parse_ins_outs(p: &mut AsmParser<'_, '_>) -> PResult<(Vec<ValueId>, Vec<ValueId>, Attr)> {
    let inputs = parse_operand_group(p, "ins")?;
    let outputs = parse_operand_group(p, "outs")?;
    let segments = p
        .ctx()
        .int_array_attr(32, &[inputs.len() as i64, outputs.len() as i64]);
    Ok((inputs, outputs, segments))
}

fn create(
    p: &mut AsmParser<'_, '_>,
    name: &str,
    operands: &[ValueId],
    (results, regions): (&[Type], &[RegionId]),
    attrs: Attr,
    props: Vec<(&str, Attr)>,
) -> OpId {
    let loc = p.op_loc();
    let entries: Vec<_> = props
        .into_iter()
        .map(|(k, v)| (p.ctx().sym(k), v))
        .collect();
    let props = (!entries.is_empty()).then(|| p.ctx().dict_attr(entries));
    let name = p.ctx().sym(name);
    p.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: results,
        successors: &[],
        regions,
        attrs,
        props,
    })
}

fn parse_generic(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let at = p.pos();
    let dict = p.parse_optional_attr_dict()?;
    let entries = p.ctx().dict_entries(dict).to_vec();
    let mut props = Vec::new();
    for name in TRAIT_ATTRS {
        let Some(&(_, value)) = entries.iter().find(|(k, _)| p.ctx().str(*k) == name) else {
            continue;
        };
        let value = if name == "iterator_types" {
            let ctx: &Context = p.ctx();
            let kinds: Vec<String> = match ctx.attr_kind(value) {
                AttrKind::Array(items) => items
                    .iter()
                    .filter_map(|&i| match ctx.attr_kind(i) {
                        AttrKind::String { value, .. } => {
                            Some(String::from_utf8_lossy(value).into_owned())
                        }
                        _ => iterator_kind(ctx, i),
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let attrs: Vec<Attr> = kinds.iter().map(|k| iterator_attr(p.ctx(), k)).collect();
            p.ctx().array_attr(&attrs)
        } else {
            value
        };
        props.push((name, value));
    }
    for name in ["indexing_maps", "iterator_types"] {
        if !props.iter().any(|(n, _)| *n == name) {
            return p.error_at(
                at,
                format!("expected '{name}' in the op's attribute dictionary"),
            );
        }
    }
    let (inputs, outputs, segments) = parse_ins_outs(p)?;
    props.push((SEGMENTS, segments));
    let attrs = if p.eat_keyword("attrs") {
        p.expect(Tok::Equal, "'='")?;
        p.parse_optional_attr_dict()?
    } else {
        p.ctx().empty_dict()
    };
    let region = p.ir().create_region();
    p.parse_region(region)?;
    let results = if p.eat(Tok::Arrow) {
        p.parse_type_list()?
    } else {
        Vec::new()
    };
    let mut operands = inputs;
    operands.extend(outputs);
    Ok(create(
        p,
        "linalg.generic",
        &operands,
        (&results, &[region]),
        attrs,
        props,
    ))
}

fn print_ins_outs(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (inputs, outputs) = crate::structured::operands(p.ctx(), p.ir(), op);
    for (keyword, values) in [("ins", inputs), ("outs", outputs)] {
        if values.is_empty() {
            continue;
        }
        let types: Vec<Type> = values.iter().map(|&v| p.ir().value_type(v)).collect();
        p.write(&format!(" {keyword}("));
        p.operands(values);
        p.write(" : ");
        p.types(&types);
        p.write(")");
    }
}

fn print_results(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let results: Vec<Type> = p.ir().results(op).map(|r| p.ir().value_type(r)).collect();
    if !results.is_empty() {
        p.write(" -> ");
        p.types(&results);
    }
}

fn print_generic(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    p.write(" {");
    let mut first = true;
    for name in TRAIT_ATTRS {
        let Some(value) = inherent_attr(ctx, ir, op, name) else {
            continue;
        };
        if !first {
            p.write(", ");
        }
        first = false;
        p.write(&format!("{name} = "));
        if name == "iterator_types" {
            let kinds: Vec<String> = match ctx.attr_kind(value) {
                AttrKind::Array(items) => items
                    .iter()
                    .filter_map(|&i| iterator_kind(ctx, i))
                    .map(|k| format!("\"{k}\""))
                    .collect(),
                _ => Vec::new(),
            };
            p.write(&format!("[{}]", kinds.join(", ")));
        } else {
            p.attr(value);
        }
    }
    p.write("}");
    print_ins_outs(p, op);
    let attrs = ir.op_attrs(op);
    if !ctx.dict_entries(attrs).is_empty() {
        p.write(" attrs = ");
        p.attr_dict(attrs, &[], false);
    }
    if let Some(r) = ir.regions(op).next() {
        p.write(" ");
        p.region(r, true, false);
    }
    print_results(p, op);
}

fn parse_named(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.op_name();
    let named = Named::of(name).expect("a named op's parser");
    let at = p.pos();
    let attrs = p.parse_optional_attr_dict()?;
    if p.peek_keyword("indexing_maps") {
        return p.error_at(
            p.pos(),
            format!("'{name}' with explicit indexing maps is not supported"),
        );
    }
    let (inputs, outputs, segments) = parse_ins_outs(p)?;
    let results = if p.eat(Tok::Arrow) {
        p.parse_type_list()?
    } else {
        Vec::new()
    };
    if inputs.len() != named.inputs() || outputs.len() != 1 {
        return p.error_at(
            at,
            format!("'{name}' takes {} inputs and 1 output", named.inputs()),
        );
    }
    let mut operands = inputs;
    operands.extend(outputs);
    let types: Vec<Type> = operands
        .iter()
        .map(|&v| {
            let t = p.ir().value_type(v);
            element_type(p.ctx(), t)
        })
        .collect();
    let loc = p.op_loc();
    let (ctx, ir) = p.ctx_and_ir();
    let Some(region) = build_payload(ctx, ir, named, &types, loc) else {
        return p.error_at(
            at,
            format!("'{name}' on operands of different element types is not supported"),
        );
    };
    Ok(create(
        p,
        name,
        &operands,
        (&results, &[region]),
        attrs,
        vec![(SEGMENTS, segments)],
    ))
}

fn print_named(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let attrs = p.ir().op_attrs(op);
    p.attr_dict(attrs, &[], false);
    print_ins_outs(p, op);
    print_results(p, op);
}

fn parse_yield(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let attrs = p.parse_optional_attr_dict()?;
    let operands = if p.peek(Tok::PercentId) {
        let list = p.parse_operand_list()?;
        p.expect(Tok::Colon, "':'")?;
        let types = p.parse_type_list()?;
        list.into_iter()
            .zip(types)
            .map(|(u, t)| p.resolve_operand(u, t))
            .collect::<PResult<Vec<_>>>()?
    } else {
        Vec::new()
    };
    Ok(create(
        p,
        "linalg.yield",
        &operands,
        (&[], &[]),
        attrs,
        vec![],
    ))
}

fn print_yield(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let operands: Vec<ValueId> = ir.operands(op).collect();
    p.attr_dict(ir.op_attrs(op), &[], false);
    if !operands.is_empty() {
        let types: Vec<Type> = operands.iter().map(|&v| ir.value_type(v)).collect();
        p.write(" ");
        p.operands(operands);
        p.write(" : ");
        p.types(&types);
    }
}

fn parse_index(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let at = p.pos();
    let dim = p.parse_integer()?;
    let Ok(dim) = i64::try_from(&dim) else {
        return p.error_at(at, "integer value too large");
    };
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let i64t = p.ctx().signless(64);
    let dim = p.ctx().int_attr(i64t, dim);
    Ok(create(
        p,
        "linalg.index",
        &[],
        (&[ty], &[]),
        attrs,
        vec![("dim", dim)],
    ))
}

fn print_index(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let dim = inherent_attr(ctx, ir, op, "dim")
        .and_then(|a| match ctx.attr_kind(a) {
            AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
            _ => None,
        })
        .unwrap_or(0);
    p.write(&format!(" {dim}"));
    p.attr_dict(ir.op_attrs(op), &[], false);
    if let Some(r) = ir.results(op).next() {
        p.write(" : ");
        p.ty(ir.value_type(r));
    }
}

/// Checks `linalg.index` as MLIR's op definition does.
fn verify_index(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let msg = if ir.num_regions(op) != 0 {
        Some("requires zero regions".to_string())
    } else if ir.results(op).len() != 1 {
        Some("requires one result".to_string())
    } else if inherent_attr(ctx, ir, op, "dim").is_none() {
        Some("requires attribute 'dim'".to_string())
    } else {
        let t = ir.value_type(ir.result(op, 0));
        (!matches!(ctx.type_kind(t), silica_ir::TypeKind::Index)).then(|| {
            format!(
                "result #0 must be index, but got '{}'",
                silica_ir::printer::type_to_string(ctx, t)
            )
        })
    };
    match msg {
        Some(m) => Err(v.op_error(op, m)),
        None => Ok(()),
    }
}

/// Checks a structured op as MLIR's `LinalgOp` verifier does: a map an
/// operand, each over the loops and of the operand's rank, and a payload
/// argument an operand.
fn verify_structured(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some((maps, reductions)) = crate::structured::structure(ctx, ir, op) else {
        return Ok(());
    };
    let (inputs, outputs) = crate::structured::operands(ctx, ir, op);
    let operands: Vec<ValueId> = inputs.iter().chain(&outputs).copied().collect();
    if maps.len() != operands.len() {
        let msg = format!(
            "expected the number of indexing_map ({}) to be equal to the number of input/output operands ({})",
            maps.len(),
            operands.len()
        );
        return Err(v.op_error(op, msg));
    }
    for (i, map) in maps.iter().enumerate() {
        if map.num_dims as usize != reductions.len() {
            let msg = format!(
                "expected indexing_map #{i} to have {} dim(s) to match the number of loops",
                reductions.len()
            );
            return Err(v.op_error(op, msg));
        }
    }
    for (i, (&value, map)) in operands.iter().zip(&maps).enumerate() {
        let rank = crate::structured::rank(ctx, ir, value);
        if rank != map.results.len() {
            let msg = format!(
                "expected operand #{i} rank ({rank}) to match the result rank of indexing_map ({})",
                map.results.len()
            );
            return Err(v.op_error(op, msg));
        }
    }
    let args = ir
        .regions(op)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map_or(0, |b| ir.block_args(b).len());
    if args != operands.len() {
        let msg = "expected as many non-induction variable region arguments as the number of input/output operands";
        return Err(v.op_error(op, msg.to_string()));
    }
    Ok(())
}

/// Checks that a `linalg.yield` gives a value an output of its op.
fn verify_yield(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(parent) = ir.parent_op(op) else {
        return Ok(());
    };
    let (_, outputs) = crate::structured::operands(ctx, ir, parent);
    let count = ir.operands(op).len();
    if count != outputs.len() {
        let msg = format!(
            "expected number of yield values ({count}) to match the number of inits / outs operands of the enclosing LinalgOp ({})",
            outputs.len()
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

/// The payload's arguments are named `in` and `out`, as MLIR names them.
fn payload_names(ctx: &Context, ir: &Ir, op: OpId) -> ValueNames {
    let (inputs, outputs) = crate::structured::operands(ctx, ir, op);
    let mut entry_args = vec!["in".to_string(); inputs.len()];
    entry_args.extend(vec!["out".to_string(); outputs.len()]);
    ValueNames {
        results: Vec::new(),
        entry_args,
    }
}

const fn structured(name: &'static str) -> OpDef {
    OpDef {
        parse: Some(parse_named),
        print: Some(print_named),
        inherent_attrs: &[SEGMENTS],
        value_names: Some(payload_names),
        verify: Some(verify_structured),
        effects: Effects::Unknown,
        ..OpDef::new(name)
    }
}

static OPS: &[OpDef] = &[
    OpDef {
        parse: Some(parse_generic),
        print: Some(print_generic),
        inherent_attrs: &[
            "doc",
            "indexing_maps",
            "iterator_types",
            "library_call",
            SEGMENTS,
        ],
        value_names: Some(payload_names),
        verify: Some(verify_structured),
        effects: Effects::Unknown,
        ..OpDef::new("linalg.generic")
    },
    OpDef {
        parse: Some(parse_yield),
        print: Some(print_yield),
        traits: Traits::TERMINATOR,
        verify: Some(verify_yield),
        effects: Effects::None,
        ..OpDef::new("linalg.yield")
    },
    OpDef {
        parse: Some(parse_index),
        print: Some(print_index),
        inherent_attrs: &["dim"],
        verify: Some(verify_index),
        effects: Effects::None,
        ..OpDef::new("linalg.index")
    },
    structured("linalg.fill"),
    structured("linalg.copy"),
    structured("linalg.matmul"),
    structured("linalg.batch_matmul"),
    structured("linalg.matvec"),
    structured("linalg.dot"),
    structured("linalg.conv_2d"),
    structured("linalg.conv_2d_nchw_fchw"),
    structured("linalg.conv_2d_nhwc_hwcf"),
    structured("linalg.conv_2d_ngchw_gfchw"),
    structured("linalg.conv_2d_ngchw_fgchw"),
    structured("linalg.depthwise_conv_2d_nchw_chw"),
    structured("linalg.depthwise_conv_2d_nhwc_hwc"),
    structured("linalg.pooling_nchw_max"),
    structured("linalg.pooling_nchw_sum"),
    structured("linalg.pooling_nhwc_max"),
    structured("linalg.pooling_nhwc_sum"),
];

/// The `linalg` dialect.
pub static LINALG: DialectDef = DialectDef {
    name: "linalg",
    ops: OPS,
    attrs: Some(AttrHooks {
        parse: parse_attr,
        print: print_attr,
        type_of: None,
        alias: None,
    }),
    types: None,
    materialize_constant: None,
};
