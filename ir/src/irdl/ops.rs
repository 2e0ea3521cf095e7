//! The ops of the `irdl` dialect in mlir-opt's syntax: the definitions
//! (`irdl.dialect`, `irdl.type`, `irdl.attribute`, `irdl.operation`),
//! what an operation or type is made of (`irdl.operands`, `irdl.results`,
//! `irdl.attributes`, `irdl.regions`, `irdl.parameters`) and the
//! constraints (`irdl.is`, `irdl.base`, `irdl.parametric`, `irdl.any`,
//! `irdl.any_of`, `irdl.all_of`, `irdl.region`, `irdl.c_pred`), with
//! IRDL's verifier messages.

use super::Variadicity;
use super::{attribute_type, is_irdl_type, region_type, variadicities, variadicity_array};
use crate::attrs::AttrKind;
use crate::context::{Attr, Context, Symbol};
use crate::dialect::{inherent_attr, Effects, OpDef, Traits};
use crate::format::{
    parse_op, print_op, Arity, AttrParam, AttrSyntax, Signature, TypeConstraint, ValueParam,
};
use crate::graph::{Ir, OpId, ValueId};
use crate::lexer::Tok;
use crate::parser::{AsmParser, PResult};
use crate::printer::AsmPrinter;
use crate::verify::OpVerifier;
use crate::OpSpec;

pub(crate) const DIALECT: &str = "irdl.dialect";
pub(crate) const TYPE: &str = "irdl.type";
pub(crate) const ATTRIBUTE: &str = "irdl.attribute";
pub(crate) const OPERATION: &str = "irdl.operation";
pub(crate) const PARAMETERS: &str = "irdl.parameters";
pub(crate) const OPERANDS: &str = "irdl.operands";
pub(crate) const RESULTS: &str = "irdl.results";
pub(crate) const ATTRIBUTES: &str = "irdl.attributes";
pub(crate) const REGIONS: &str = "irdl.regions";
pub(crate) const REGION: &str = "irdl.region";
pub(crate) const IS: &str = "irdl.is";
pub(crate) const BASE: &str = "irdl.base";
pub(crate) const PARAMETRIC: &str = "irdl.parametric";
pub(crate) const ANY: &str = "irdl.any";
pub(crate) const ANY_OF: &str = "irdl.any_of";
pub(crate) const ALL_OF: &str = "irdl.all_of";
pub(crate) const C_PRED: &str = "irdl.c_pred";

const DEFINITION: Traits = Traits::NO_REGION_ARGUMENTS
    .with(Traits::SINGLE_BLOCK)
    .with(Traits::NO_TERMINATOR);
const CONSTRAINT_PARENTS: &[&str] = &[TYPE, ATTRIBUTE, OPERATION];

const HANDLE: TypeConstraint = TypeConstraint {
    desc: "IRDL handle to an `mlir::Attribute`",
    check: |ctx, t| is_irdl_type(ctx, t, "attribute"),
    build: Some(attribute_type),
};

const fn handle(name: &'static str, arity: Arity) -> ValueParam {
    ValueParam {
        name,
        arity,
        constraint: HANDLE,
    }
}

const fn required(name: &'static str) -> AttrParam {
    AttrParam {
        name,
        syntax: AttrSyntax::Plain,
        optional: false,
        default: None,
    }
}

static ANY_SIG: Signature = Signature::new(&[], &[handle("output", Arity::One)], &[], "attr-dict");
static COMBINE_SIG: Signature = Signature::new(
    &[handle("args", Arity::Variadic)],
    &[handle("output", Arity::One)],
    &[],
    "`(` $args `)` ` ` attr-dict",
);
static IS_SIG: Signature = Signature::new(
    &[],
    &[handle("output", Arity::One)],
    &[required("expected")],
    "$expected ` ` attr-dict",
);
static C_PRED_SIG: Signature = Signature::new(
    &[],
    &[handle("output", Arity::One)],
    &[required("pred")],
    "$pred ` ` attr-dict",
);
static PARAMETRIC_SIG: Signature = Signature::new(
    &[handle("args", Arity::Variadic)],
    &[handle("output", Arity::One)],
    &[required("base_type")],
    "$base_type `<` $args `>` ` ` attr-dict",
);

const fn definition(name: &'static str, parents: &'static [&'static str]) -> OpDef {
    OpDef {
        traits: DEFINITION,
        inherent_attrs: &["sym_name"],
        parents,
        parse: Some(parse_definition),
        print: Some(print_definition),
        verify: Some(verify_definition),
        ..OpDef::new(name)
    }
}

const fn named_list(
    name: &'static str,
    parents: &'static [&'static str],
    attrs: &'static [&'static str],
) -> OpDef {
    OpDef {
        inherent_attrs: attrs,
        parents,
        parse: Some(parse_named_list),
        print: Some(print_named_list),
        verify: Some(verify_named_list),
        ..OpDef::new(name)
    }
}

const fn constraint(name: &'static str, sig: &'static Signature) -> OpDef {
    OpDef {
        parents: CONSTRAINT_PARENTS,
        parse: Some(parse_op),
        print: Some(print_op),
        verify: Some(verify_constraint),
        signature: Some(sig),
        effects: Effects::None,
        ..OpDef::new(name)
    }
}

/// The ops of the dialect.
pub(crate) static OPS: [OpDef; 17] = [
    OpDef {
        traits: DEFINITION
            .with(Traits::ISOLATED_FROM_ABOVE)
            .with(Traits::SYMBOL_TABLE),
        ..definition(DIALECT, &[])
    },
    definition(TYPE, &[DIALECT]),
    definition(ATTRIBUTE, &[DIALECT]),
    definition(OPERATION, &[DIALECT]),
    named_list(PARAMETERS, &[TYPE, ATTRIBUTE], &["names"]),
    named_list(OPERANDS, &[OPERATION], &["names", "variadicity"]),
    named_list(RESULTS, &[OPERATION], &["names", "variadicity"]),
    named_list(REGIONS, &[OPERATION], &["names"]),
    OpDef {
        inherent_attrs: &["attributeValueNames"],
        parents: &[OPERATION],
        parse: Some(parse_attributes),
        print: Some(print_attributes),
        verify: Some(verify_attributes),
        ..OpDef::new(ATTRIBUTES)
    },
    OpDef {
        inherent_attrs: &["constrainedArguments", "numberOfBlocks"],
        parents: &[OPERATION],
        parse: Some(parse_region_op),
        print: Some(print_region_op),
        verify: Some(verify_region_op),
        ..OpDef::new(REGION)
    },
    constraint(IS, &IS_SIG),
    OpDef {
        inherent_attrs: &["base_ref", "base_name"],
        parents: CONSTRAINT_PARENTS,
        parse: Some(parse_base),
        print: Some(print_base),
        verify: Some(verify_base),
        effects: Effects::None,
        ..OpDef::new(BASE)
    },
    constraint(PARAMETRIC, &PARAMETRIC_SIG),
    constraint(ANY, &ANY_SIG),
    constraint(ANY_OF, &COMBINE_SIG),
    constraint(ALL_OF, &COMBINE_SIG),
    constraint(C_PRED, &C_PRED_SIG),
];

// ----- shared pieces ---------------------------------------------------------

/// The text of the string attribute `name` of `op`.
pub(crate) fn string_prop(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<String> {
    match inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// The strings of the array attribute `name` of `op` (none if absent).
pub(crate) fn string_array_prop(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Vec<String> {
    let Some(AttrKind::Array(elems)) = inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a))
    else {
        return Vec::new();
    };
    elems
        .iter()
        .filter_map(|e| match ctx.attr_kind(*e) {
            AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
            _ => None,
        })
        .collect()
}

/// The variadicities of an `irdl.operands`/`irdl.results` op (all single
/// when the attribute is missing or malformed).
pub(crate) fn op_variadicities(ctx: &Context, ir: &Ir, op: OpId) -> Vec<Variadicity> {
    inherent_attr(ctx, ir, op, "variadicity")
        .and_then(|a| variadicities(ctx, a))
        .unwrap_or_else(|| vec![Variadicity::Single; ir.num_operands(op)])
}

fn string_array(ctx: &mut Context, items: &[String]) -> Attr {
    let elems: Vec<Attr> = items
        .iter()
        .map(|s| ctx.string_attr(s.as_bytes()))
        .collect();
    ctx.array_attr(&elems)
}

fn props(ctx: &mut Context, entries: Vec<(&str, Attr)>) -> Option<Attr> {
    let entries: Vec<(Symbol, Attr)> = entries.into_iter().map(|(k, v)| (ctx.sym(k), v)).collect();
    (!entries.is_empty()).then(|| ctx.dict_attr(entries))
}

fn create(
    p: &mut AsmParser<'_, '_>,
    operands: &[ValueId],
    result: Option<crate::Type>,
    regions: &[crate::RegionId],
    attrs: Attr,
    props: Option<Attr>,
) -> OpId {
    let loc = p.op_loc();
    let op_name = p.op_name();
    let name = p.ctx().sym(op_name);
    let result_types: Vec<crate::Type> = result.into_iter().collect();
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

/// What the values of a named list are called in messages.
fn list_item(op_name: &str) -> &'static str {
    match op_name {
        PARAMETERS => "parameter",
        OPERANDS => "operand",
        RESULTS => "result",
        _ => "region",
    }
}

/// IRDL's rule for names: lowercase letters, digits and single inner
/// underscores; the message when `name` breaks it.
pub(crate) fn name_error(name: &str) -> Option<&'static str> {
    if name.starts_with('_') || name.contains("__") {
        Some("should not contain leading or double underscores")
    } else if name.chars().any(|c| c.is_ascii_uppercase()) {
        Some("should not contain uppercase letters")
    } else if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        Some("must contain only lowercase letters, digits and underscores")
    } else {
        None
    }
}

/// MLIR's rule for dialect namespaces: a letter or `_`, then letters,
/// digits, `_` or `$`.
fn is_valid_namespace(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        None => true,
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {
            chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        }
        Some(_) => false,
    }
}

// ----- definitions -------------------------------------------------------------

/// `@name attributes {...} { body }`, the body optional.
fn parse_definition(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_symbol_name()?;
    let attrs = p.parse_optional_attr_dict_with_keyword()?;
    let region = p.ir().create_region();
    if p.peek(Tok::LBrace) {
        p.parse_region(region)?;
    }
    if p.ir().region_is_empty(region) {
        let b = p.ir().create_block();
        p.ir().append_block(region, b);
    }
    let ctx = p.ctx();
    let text = ctx.str(name).as_bytes().to_vec();
    let name = ctx.string_attr(&text);
    let props = props(ctx, vec![("sym_name", name)]);
    Ok(create(p, &[], None, &[region], attrs, props))
}

fn print_definition(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let name = string_prop(p.ctx(), p.ir(), op, "sym_name").unwrap_or_default();
    p.write(" ");
    p.symbol_name(&name);
    p.attr_dict(p.ir().op_attrs(op), &["sym_name"], true);
    p.write(" ");
    let region = p.ir().regions(op).next();
    if let Some(r) = region {
        let has_ops = p
            .ir()
            .entry_block(r)
            .is_some_and(|b| p.ir().first_op(b).is_some());
        if has_ops {
            p.region(r, false, false);
        }
    }
}

fn verify_definition(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let kind = ctx.str(ir.op_name(op)).trim_start_matches("irdl.");
    let name = string_prop(ctx, ir, op, "sym_name").unwrap_or_default();
    if kind == "dialect" && !is_valid_namespace(&name) {
        return Err(v.op_error(op, "invalid dialect name"));
    }
    if let Some(rule) = name_error(&name) {
        let msg = format!("name of {kind} {rule}");
        return Err(v.error(op, msg));
    }
    if kind == "operation" {
        verify_value_names_distinct(v, op)?;
    }
    Ok(())
}

/// An operation's operands, results and regions have distinct names:
/// a name met again in another list is reported with the list it was
/// first met in.
fn verify_value_names_distinct(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    let mut seen: Vec<(String, &str)> = Vec::new();
    for child in ir.block_ops(body) {
        let kind = match ctx.str(ir.op_name(child)) {
            OPERANDS => "operands",
            RESULTS => "results",
            REGIONS => "regions",
            _ => continue,
        };
        for name in string_array_prop(ctx, ir, child, "names") {
            match seen.iter().find(|(n, _)| *n == name) {
                Some((_, first)) if *first != kind => {
                    let msg =
                        format!("contains a value named '{name}' for both its {first} and {kind}");
                    return Err(v.op_error(op, msg));
                }
                Some(_) => {}
                None => seen.push((name, kind)),
            }
        }
    }
    Ok(())
}

// ----- named lists -------------------------------------------------------------

/// `(name: %v, name: variadic %w)`; variadicities only for operands and
/// results.
fn parse_named_list(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let op_name = p.op_name();
    let with_variadicity = op_name == OPERANDS || op_name == RESULTS;
    let ty = if op_name == REGIONS {
        region_type(p.ctx())
    } else {
        attribute_type(p.ctx())
    };
    let mut names = Vec::new();
    let mut kinds = Vec::new();
    let mut operands = Vec::new();
    p.expect(Tok::LParen, "'('")?;
    if !p.eat(Tok::RParen) {
        p.comma_list(Tok::RParen, "')'", |p| {
            names.push(p.parse_keyword()?.to_string());
            p.expect(Tok::Colon, "':'")?;
            let mut kind = Variadicity::Single;
            if with_variadicity {
                for v in Variadicity::ALL {
                    if p.eat_keyword(v.word()) {
                        kind = v;
                    }
                }
            }
            kinds.push(kind);
            let u = p.parse_operand()?;
            operands.push(p.resolve_operand(u, ty)?);
            Ok(())
        })?;
    }
    let attrs = p.parse_optional_attr_dict()?;
    let ctx = p.ctx();
    let mut entries = vec![("names", string_array(ctx, &names))];
    if with_variadicity {
        entries.push(("variadicity", variadicity_array(ctx, &kinds)));
    }
    let props = props(ctx, entries);
    let result = None;
    Ok(create(p, &operands, result, &[], attrs, props))
}

fn print_named_list(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let names = string_array_prop(ctx, ir, op, "names");
    let with_variadicity = matches!(ctx.str(ir.op_name(op)), OPERANDS | RESULTS);
    let kinds = op_variadicities(ctx, ir, op);
    p.write("(");
    for (i, v) in ir.operands(op).enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.write(names.get(i).map_or("", |n| n.as_str()));
        p.write(": ");
        match kinds.get(i) {
            Some(&k) if with_variadicity && k != Variadicity::Single => {
                p.write(k.word());
                p.write(" ");
            }
            _ => {}
        }
        p.operand(v);
    }
    p.write(")");
    p.attr_dict(ir.op_attrs(op), &["names", "variadicity"], false);
}

fn verify_named_list(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let op_name = ctx.str(ir.op_name(op));
    let item = list_item(op_name);
    let count = ir.num_operands(op);
    if matches!(op_name, OPERANDS | RESULTS) {
        let kinds = inherent_attr(ctx, ir, op, "variadicity")
            .and_then(|a| variadicities(ctx, a))
            .map_or(0, |k| k.len());
        if kinds != count {
            let msg = format!(
                "the number of {item}s and their variadicities must be the same, but got {count} and {kinds} respectively"
            );
            return Err(v.op_error(op, msg));
        }
    }
    let names = string_array_prop(ctx, ir, op, "names");
    for (i, name) in names.iter().enumerate() {
        if let Some(rule) = name_error(name) {
            let msg = format!("name of {item} #{i} {rule}");
            return Err(v.error(op, msg));
        }
    }
    for (i, name) in names.iter().enumerate() {
        if let Some(first) = names[..i].iter().position(|n| n == name) {
            let msg = format!("name of {item} #{i} is a duplicate of the name of {item} #{first}");
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

// ----- irdl.attributes ---------------------------------------------------------

/// `{"name" = %v, ...}`, or nothing.
fn parse_attributes(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let ty = attribute_type(p.ctx());
    let mut names = Vec::new();
    let mut operands = Vec::new();
    if p.eat(Tok::LBrace) {
        p.comma_list(Tok::RBrace, "'}'", |p| {
            let name = p.parse_string()?;
            names.push(String::from_utf8_lossy(&name).into_owned());
            p.expect(Tok::Equal, "'='")?;
            let u = p.parse_operand()?;
            operands.push(p.resolve_operand(u, ty)?);
            Ok(())
        })?;
    }
    let attrs = p.parse_optional_attr_dict()?;
    let ctx = p.ctx();
    let names = string_array(ctx, &names);
    let props = props(ctx, vec![("attributeValueNames", names)]);
    Ok(create(p, &operands, None, &[], attrs, props))
}

fn print_attributes(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let names = string_array_prop(ctx, ir, op, "attributeValueNames");
    p.write(" ");
    if ir.num_operands(op) > 0 {
        p.write("{");
        for (i, v) in ir.operands(op).enumerate() {
            if i > 0 {
                p.write(", ");
            }
            p.string(names.get(i).map_or(&b""[..], |n| n.as_bytes()));
            p.write(" = ");
            p.operand(v);
        }
        p.write("}");
    }
    p.attr_dict(ir.op_attrs(op), &["attributeValueNames"], false);
}

fn verify_attributes(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let names = string_array_prop(ctx, ir, op, "attributeValueNames").len();
    let values = ir.num_operands(op);
    if names != values {
        let msg = format!(
            "the number of attribute names and their constraints must be the same but got {names} and {values} respectively"
        );
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

// ----- irdl.region -------------------------------------------------------------

/// `(%args)` when the entry arguments are constrained, then
/// `with size N` when the block count is.
fn parse_region_op(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let ty = attribute_type(p.ctx());
    let mut operands = Vec::new();
    let constrained = p.eat(Tok::LParen);
    if constrained && !p.eat(Tok::RParen) {
        p.comma_list(Tok::RParen, "')'", |p| {
            let u = p.parse_operand()?;
            operands.push(p.resolve_operand(u, ty)?);
            Ok(())
        })?;
    }
    let mut blocks = None;
    if p.eat_keyword("with") {
        p.expect_keyword("size")?;
        let n = p.parse_integer()?;
        let i32_type = p.ctx().signless(32);
        blocks = Some(p.ctx().int_attr(i32_type, n));
    }
    let attrs = p.parse_optional_attr_dict()?;
    let ctx = p.ctx();
    let mut entries = Vec::new();
    if constrained {
        entries.push(("constrainedArguments", ctx.unit_attr()));
    }
    if let Some(b) = blocks {
        entries.push(("numberOfBlocks", b));
    }
    let props = props(ctx, entries);
    let result = region_type(p.ctx());
    Ok(create(p, &operands, Some(result), &[], attrs, props))
}

fn print_region_op(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    if inherent_attr(ctx, ir, op, "constrainedArguments").is_some() {
        p.write("(");
        p.operands(ir.operands(op));
        p.write(")");
    }
    if let Some(n) = inherent_attr(ctx, ir, op, "numberOfBlocks") {
        if let AttrKind::Integer { value, .. } = ctx.attr_kind(n) {
            p.write(&format!(" with size {value}"));
        }
    }
    p.attr_dict(
        ir.op_attrs(op),
        &["constrainedArguments", "numberOfBlocks"],
        false,
    );
}

/// The block count a region constraint asks for, if any.
pub(crate) fn region_block_count(ctx: &Context, ir: &Ir, op: OpId) -> Option<i64> {
    match inherent_attr(ctx, ir, op, "numberOfBlocks").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(value).ok(),
        _ => None,
    }
}

fn verify_region_op(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    if let Some(n) = region_block_count(v.ctx(), v.ir(), op).filter(|n| *n < 1) {
        let msg = format!("the number of blocks is expected to be >= 1 but got {n}");
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

// ----- constraints -------------------------------------------------------------

/// `@ref`, `"name"` or neither, then a space and the attributes.
fn parse_base(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut entries = Vec::new();
    if p.peek(Tok::AtId) {
        entries.push(("base_ref", p.parse_attribute()?));
    }
    if p.peek(Tok::String) {
        entries.push(("base_name", p.parse_attribute()?));
    }
    let attrs = p.parse_optional_attr_dict()?;
    let props = props(p.ctx(), entries);
    let result = attribute_type(p.ctx());
    Ok(create(p, &[], Some(result), &[], attrs, props))
}

fn print_base(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    for name in ["base_ref", "base_name"] {
        if let Some(a) = inherent_attr(ctx, ir, op, name) {
            p.write(" ");
            p.attr(a);
        }
    }
    p.write(" ");
    p.attr_dict(ir.op_attrs(op), &["base_ref", "base_name"], false);
}

fn verify_base(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let by_ref = inherent_attr(ctx, ir, op, "base_ref");
    let by_name = string_prop(ctx, ir, op, "base_name");
    match (by_ref, by_name) {
        (Some(_), None) => super::load::check_definition_ref(v, op, "base_ref"),
        (None, Some(name)) if name.starts_with('!') || name.starts_with('#') => Ok(()),
        (None, Some(_)) => Err(v.op_error(
            op,
            "the base type or attribute name should start with '!' or '#'",
        )),
        _ => Err(v.op_error(
            op,
            "the base type or attribute should be specified by either a name or a reference",
        )),
    }
}

fn verify_constraint(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    match ctx.str(ir.op_name(op)) {
        ANY_OF | ALL_OF if ir.num_operands(op) == 0 => {
            Err(v.op_error(op, "expected 1 or more operands, but found 0"))
        }
        PARAMETRIC => super::load::check_definition_ref(v, op, "base_type"),
        C_PRED if string_prop(ctx, ir, op, "pred").is_none() => Err(v.op_error(
            op,
            "attribute 'pred' failed to satisfy constraint: string attribute",
        )),
        _ => Ok(()),
    }
}
