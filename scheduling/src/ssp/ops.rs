//! The `ssp` ops in CIRCT's syntax: `instance`, the `library`/`resource`
//! containers with `operator_type`/`resource_type`, and the `graph` of
//! `operation`s whose operands and symbol references are dependences.

use super::attrs::{dependence_of, make};
use silica_ir::dialect::{inherent_attr, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Symbol};

pub(crate) const INSTANCE: &str = "ssp.instance";
pub(crate) const LIBRARY: &str = "ssp.library";
pub(crate) const RESOURCE: &str = "ssp.resource";
pub(crate) const GRAPH: &str = "ssp.graph";
pub(crate) const OPERATOR_TYPE: &str = "ssp.operator_type";
pub(crate) const RESOURCE_TYPE: &str = "ssp.resource_type";
pub(crate) const OPERATION: &str = "ssp.operation";

const CONTAINER: Traits = Traits::NO_REGION_ARGUMENTS
    .with(Traits::SINGLE_BLOCK)
    .with(Traits::SYMBOL_TABLE)
    .with(Traits::NO_TERMINATOR);

/// The ops of the dialect.
pub(crate) static OPS: [OpDef; 7] = [
    OpDef {
        traits: CONTAINER.with(Traits::ISOLATED_FROM_ABOVE),
        inherent_attrs: &["sym_name", "problemName", "sspProperties"],
        default_dialect: "ssp",
        parse: Some(parse_instance),
        print: Some(print_instance),
        verify: Some(verify_instance),
        ..OpDef::new(INSTANCE)
    },
    OpDef {
        traits: CONTAINER,
        inherent_attrs: &["sym_name"],
        default_dialect: "ssp",
        parse: Some(parse_container),
        print: Some(print_container),
        ..OpDef::new(LIBRARY)
    },
    OpDef {
        traits: CONTAINER,
        inherent_attrs: &["sym_name"],
        default_dialect: "ssp",
        parse: Some(parse_container),
        print: Some(print_container),
        ..OpDef::new(RESOURCE)
    },
    OpDef {
        traits: CONTAINER.with(Traits::GRAPH_REGIONS),
        parents: &[INSTANCE],
        default_dialect: "ssp",
        parse: Some(parse_container),
        print: Some(print_container),
        ..OpDef::new(GRAPH)
    },
    OpDef {
        inherent_attrs: &["sym_name", "sspProperties"],
        parents: &[LIBRARY],
        parse: Some(parse_type_op),
        print: Some(print_type_op),
        ..OpDef::new(OPERATOR_TYPE)
    },
    OpDef {
        inherent_attrs: &["sym_name", "sspProperties"],
        parents: &[RESOURCE],
        parse: Some(parse_type_op),
        print: Some(print_type_op),
        ..OpDef::new(RESOURCE_TYPE)
    },
    OpDef {
        inherent_attrs: &["sym_name", "dependences", "sspProperties"],
        parents: &[GRAPH],
        parse: Some(parse_operation),
        print: Some(print_operation),
        verify: Some(verify_operation),
        ..OpDef::new(OPERATION)
    },
];

// ----- shared pieces ---------------------------------------------------------

/// `[prop, ...]` if present: `ssp` attributes without their prefix, or
/// any attribute.
fn parse_properties(p: &mut AsmParser<'_, '_>, into: &mut Vec<Attr>) -> PResult<()> {
    if !p.eat(Tok::LSquare) {
        return Ok(());
    }
    p.comma_list(Tok::RSquare, "']'", |p| {
        let a = if p.peek(Tok::BareId) {
            p.parse_dialect_attr("ssp")?
        } else {
            p.parse_attribute()?
        };
        into.push(a);
        Ok(())
    })
}

/// ` [prop, ...]` unless empty.
fn print_properties(p: &mut AsmPrinter<'_, '_>, props: &[Attr]) {
    if props.is_empty() {
        return;
    }
    p.write(" [");
    for (i, &a) in props.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        if super::attrs::ssp_attr(p.ctx(), a).is_some() {
            p.dialect_attr_stripped(a);
        } else {
            p.attr(a);
        }
    }
    p.write("]");
}

/// The elements of the array attribute `name` of `op` (none if absent).
pub(crate) fn array_of(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Vec<Attr> {
    match inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(e)) => e.to_vec(),
        _ => Vec::new(),
    }
}

/// The `sym_name` of `op`, if it has one.
pub(crate) fn sym_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    match inherent_attr(ctx, ir, op, "sym_name").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// Properties dictionary from the entries that are present.
fn props_dict(ctx: &mut Context, entries: Vec<(&str, Option<Attr>)>) -> Option<Attr> {
    let entries: Vec<(Symbol, Attr)> = entries
        .into_iter()
        .filter_map(|(k, v)| Some((ctx.sym(k), v?)))
        .collect();
    (!entries.is_empty()).then(|| ctx.dict_attr(entries))
}

fn name_attr(p: &mut AsmParser<'_, '_>, name: Option<Symbol>) -> Option<Attr> {
    let ctx = p.ctx();
    name.map(|n| {
        let text = ctx.str(n).as_bytes().to_vec();
        ctx.string_attr(&text)
    })
}

fn array_or_none(ctx: &mut Context, elems: &[Attr]) -> Option<Attr> {
    (!elems.is_empty()).then(|| ctx.array_attr(elems))
}

/// A region holding one (possibly empty) block.
fn parse_body(p: &mut AsmParser<'_, '_>) -> PResult<silica_ir::RegionId> {
    let region = p.ir().create_region();
    p.parse_region(region)?;
    if p.ir().region_is_empty(region) {
        let b = p.ir().create_block();
        p.ir().append_block(region, b);
    }
    Ok(region)
}

fn create(
    p: &mut AsmParser<'_, '_>,
    name: &str,
    operands: &[silica_ir::ValueId],
    num_results: usize,
    regions: &[silica_ir::RegionId],
    attrs: Attr,
    props: Option<Attr>,
) -> OpId {
    let loc = p.op_loc();
    let ctx = p.ctx();
    let name = ctx.sym(name);
    let none = ctx.none_type();
    let result_types = vec![none; num_results];
    p.create_op(OpSpec {
        name,
        loc,
        operands,
        result_types: &result_types,
        successors: &[],
        regions,
        attrs,
        props,
    })
}

fn print_sym_name(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    if let Some(name) = sym_name(p.ctx(), p.ir(), op) {
        p.write(" ");
        p.symbol_name(&name);
    }
}

fn print_body(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    if let Some(r) = p.ir().regions(op).next() {
        p.write(" ");
        p.region(r, false, false);
    }
}

fn discardable(p: &AsmPrinter<'_, '_>, op: OpId) -> Attr {
    p.ir().op_attrs(op)
}

// ----- instance and containers -------------------------------------------

/// `@name? of "Problem" [props]? { body } attr-dict`
fn parse_instance(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_optional_symbol_name()?;
    p.expect_keyword("of")?;
    let problem = p.parse_string()?;
    let mut props = Vec::new();
    parse_properties(p, &mut props)?;
    let body = parse_body(p)?;
    let attrs = p.parse_optional_attr_dict()?;
    let sym = name_attr(p, name);
    let ctx = p.ctx();
    let problem = ctx.string_attr(&problem);
    let props = array_or_none(ctx, &props);
    let dict = props_dict(
        ctx,
        vec![
            ("problemName", Some(problem)),
            ("sspProperties", props),
            ("sym_name", sym),
        ],
    );
    Ok(create(p, INSTANCE, &[], 0, &[body], attrs, dict))
}

fn print_instance(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    print_sym_name(p, op);
    p.write(" of ");
    let problem = match inherent_attr(ctx, ir, op, "problemName").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => value.to_vec(),
        _ => Vec::new(),
    };
    p.string(&problem);
    print_properties(p, &array_of(ctx, ir, op, "sspProperties"));
    print_body(p, op);
    let attrs = discardable(p, op);
    p.attr_dict(attrs, &[], false);
}

/// `@name? { body } attr-dict` (`library`, `resource`, `graph`).
fn parse_container(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let op_name = p.op_name();
    let name = if op_name == GRAPH {
        None
    } else {
        p.parse_optional_symbol_name()?
    };
    let body = parse_body(p)?;
    let attrs = p.parse_optional_attr_dict()?;
    let sym = name_attr(p, name);
    let dict = props_dict(p.ctx(), vec![("sym_name", sym)]);
    Ok(create(p, op_name, &[], 0, &[body], attrs, dict))
}

fn print_container(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    print_sym_name(p, op);
    print_body(p, op);
    let attrs = discardable(p, op);
    p.attr_dict(attrs, &[], false);
}

/// `@name [props]? attr-dict` (`operator_type`, `resource_type`).
fn parse_type_op(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let op_name = p.op_name();
    let name = p.parse_symbol_name()?;
    let mut props = Vec::new();
    parse_properties(p, &mut props)?;
    let attrs = p.parse_optional_attr_dict()?;
    let sym = name_attr(p, Some(name));
    let ctx = p.ctx();
    let props = array_or_none(ctx, &props);
    let dict = props_dict(ctx, vec![("sspProperties", props), ("sym_name", sym)]);
    Ok(create(p, op_name, &[], 0, &[], attrs, dict))
}

fn print_type_op(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    print_sym_name(p, op);
    let props = array_of(p.ctx(), p.ir(), op, "sspProperties");
    print_properties(p, &props);
    let attrs = discardable(p, op);
    p.attr_dict(attrs, &[], false);
}

fn verify_instance(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let ctx = v.ctx();
    let body: Vec<OpId> = ir
        .regions(op)
        .filter_map(|r| ir.entry_block(r))
        .flat_map(|b| ir.block_ops(b))
        .collect();
    let named = |n: &str| {
        body.iter()
            .position(|&o| ctx.str(ir.op_name(o)) == n)
            .map(|i| {
                (
                    i,
                    body.iter()
                        .filter(|&&o| ctx.str(ir.op_name(o)) == n)
                        .count(),
                )
            })
    };
    let (library, graph) = (named(LIBRARY), named(GRAPH));
    match (library, graph) {
        (Some((li, 1)), Some((gi, 1))) => {
            if gi < li {
                let msg = "must contain the 'library' op followed by the 'graph' op";
                return Err(v.op_error(op, msg));
            }
            Ok(())
        }
        _ => {
            let msg = "must contain exactly one 'library' op and one 'graph' op";
            Err(v.op_error(op, msg))
        }
    }
}

// ----- operation -------------------------------------------------------------

/// `<@opr>? @name? ( deps ) (uses[@r, ...])? [props]? attr-dict`
fn parse_operation(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut props = Vec::new();
    if p.eat(Tok::Less) {
        if p.peek(Tok::AtId) {
            let opr = p.parse_attribute()?;
            props.push(make(p.ctx(), "opr", &[opr]));
        }
        p.expect(Tok::Greater, "'>'")?;
    }
    let name = p.parse_optional_symbol_name()?;
    p.expect(Tok::LParen, "'('")?;
    let mut operands: Vec<UnresolvedOperand<'_>> = Vec::new();
    // (operand index, source, properties) in the order written.
    let mut deps: Vec<(u64, Option<Attr>, Vec<Attr>)> = Vec::new();
    let mut index = 0u64;
    p.comma_list(Tok::RParen, "')'", |p| {
        let source = if p.peek(Tok::PercentId) {
            operands.push(p.parse_operand()?);
            None
        } else if p.peek(Tok::AtId) {
            Some(p.parse_attribute()?)
        } else {
            return p.expected("SSA operand or symbol reference");
        };
        let mut dep_props = Vec::new();
        parse_properties(p, &mut dep_props)?;
        deps.push((index, source, dep_props));
        index += 1;
        Ok(())
    })?;
    if p.eat_keyword("uses") {
        p.expect(Tok::LSquare, "'['")?;
        let mut refs = Vec::new();
        p.comma_list(Tok::RSquare, "']'", |p| {
            if !p.peek(Tok::AtId) {
                return p.expected("symbol reference");
            }
            refs.push(p.parse_attribute()?);
            Ok(())
        })?;
        let ctx = p.ctx();
        let list = ctx.array_attr(&refs);
        props.push(make(ctx, "rsrcs", &[list]));
    }
    parse_properties(p, &mut props)?;
    let attrs = p.parse_optional_attr_dict()?;
    let none = p.ctx().none_type();
    let mut values = Vec::with_capacity(operands.len());
    for u in operands {
        values.push(p.resolve_operand(u, none)?);
    }
    let sym = name_attr(p, name);
    let ctx = p.ctx();
    let mut dep_attrs = Vec::new();
    for (idx, source, dep_props) in deps {
        if source.is_none() && dep_props.is_empty() {
            continue;
        }
        let uint_ty = ctx.int_type(64, silica_ir::Signedness::Unsigned);
        let mut params = vec![ctx.int_attr(uint_ty, idx)];
        params.extend(source);
        if !dep_props.is_empty() {
            params.push(ctx.array_attr(&dep_props));
        }
        dep_attrs.push(make(ctx, "dependence", &params));
    }
    let deps = array_or_none(ctx, &dep_attrs);
    let props = array_or_none(ctx, &props);
    let dict = props_dict(
        ctx,
        vec![
            ("dependences", deps),
            ("sspProperties", props),
            ("sym_name", sym),
        ],
    );
    let n = p.num_bound_results();
    Ok(create(p, OPERATION, &values, n, &[], attrs, dict))
}

fn print_operation(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let props = array_of(ctx, ir, op, "sspProperties");
    let is = |a: Attr, n: &str| super::attrs::ssp_attr(ctx, a).is_some_and(|(m, _)| m == n);
    let param = |a: Attr| super::attrs::ssp_attr(ctx, a).and_then(|(_, ps)| ps.first().copied());
    p.write("<");
    if let Some(opr) = props
        .iter()
        .find(|&&a| is(a, "opr"))
        .and_then(|&a| param(a))
    {
        p.attr(opr);
    }
    p.write(">");
    print_sym_name(p, op);
    p.write("(");
    let deps: Vec<_> = array_of(ctx, ir, op, "dependences")
        .into_iter()
        .filter_map(|a| dependence_of(ctx, a))
        .collect();
    let operands: Vec<_> = ir.operands(op).collect();
    let mut first = true;
    let mut sep = |p: &mut AsmPrinter<'_, '_>| {
        if !std::mem::take(&mut first) {
            p.write(", ");
        }
    };
    let dep_props = |p: &mut AsmPrinter<'_, '_>, props: Option<Attr>| {
        if let Some(AttrKind::Array(e)) = props.map(|a| ctx.attr_kind(a)) {
            print_properties(p, e);
        }
    };
    for (i, &v) in operands.iter().enumerate() {
        sep(p);
        p.operand(v);
        let d = deps
            .iter()
            .find(|d| d.source.is_none() && d.operand_idx == i as u64);
        dep_props(p, d.and_then(|d| d.properties));
    }
    for d in deps.iter().filter(|d| d.source.is_some()) {
        sep(p);
        p.attr(d.source.expect("auxiliary"));
        dep_props(p, d.properties);
    }
    p.write(")");
    if let Some(rsrcs) = props
        .iter()
        .find(|&&a| is(a, "rsrcs"))
        .and_then(|&a| param(a))
    {
        if let AttrKind::Array(refs) = ctx.attr_kind(rsrcs) {
            p.write(" uses[");
            for (i, &r) in refs.iter().enumerate() {
                if i > 0 {
                    p.write(", ");
                }
                p.attr(r);
            }
            p.write("]");
        }
    }
    let rest: Vec<Attr> = props
        .iter()
        .copied()
        .filter(|&a| !is(a, "opr") && !is(a, "rsrcs"))
        .collect();
    print_properties(p, &rest);
    let attrs = discardable(p, op);
    p.attr_dict(attrs, &[], false);
}

fn verify_operation(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let n = ir.num_operands(op) as u64;
    let mut last: Option<u64> = None;
    let mut problem = None;
    for a in array_of(ctx, ir, op, "dependences") {
        let Some(d) = dependence_of(ctx, a) else {
            continue;
        };
        let idx = d.operand_idx;
        if let Some(src) = d.source {
            let text = silica_ir::printer::attr_to_string(ctx, src);
            if idx < n {
                problem = Some(format!(
                    "Auxiliary dependence from {text} is interleaved with SSA operands"
                ));
            } else if idx != last.map_or(n, |l| l + 1).max(n) {
                problem = Some(
                    "Auxiliary operand indices in dependence attribute are not consecutive".into(),
                );
            } else if super::resolve::operation_named(ctx, ir, op, src).is_none() {
                problem = Some(format!(
                    "Auxiliary dependence references invalid source operation: {text}"
                ));
            }
        } else if idx >= n {
            problem =
                Some("Operand index is out of bounds for def-use dependence attribute".into());
        } else if last.is_some_and(|l| idx <= l) {
            problem = Some(
                "Def-use operand indices in dependence attribute are not monotonically increasing"
                    .into(),
            );
        }
        if problem.is_some() {
            break;
        }
        last = Some(idx);
    }
    if problem.is_none() {
        problem = super::resolve::check_links(ctx, ir, op);
    }
    match problem {
        Some(msg) => Err(v.error(op, msg)),
        None => Ok(()),
    }
}
