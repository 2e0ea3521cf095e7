//! The `hw` dialect's structural ops in CIRCT's syntax: `hw.module`
//! (ports `in %a : i8, out b : i1, inout %c : i8`; a graph-region body
//! ended by `hw.output`), `hw.module.extern`, `hw.instance`,
//! `hw.constant` and `hw.wire`. Their attributes live in the attribute
//! dictionary, as CIRCT keeps them (`module_type = !hw.modty<...>`,
//! `sym_name`, `parameters`).
//!
//! Beside them: the aggregate ops and their folds ([`aggregates`],
//! [`aggregate_folds`]), enums ([`enums`]) and unions ([`unions`]), module
//! parameters ([`params`]), inner symbols ([`inner_sym`]) and
//! `hw.hierpath` ([`hierpath`]), type declarations ([`typedecl`]), and
//! `hw.constant`'s fold with the constant materializer ([`fold`]).

pub mod aggregate_folds;
pub mod aggregates;
pub mod enums;
pub mod fold;
pub mod hierpath;
pub mod inner_sym;
pub mod params;
pub mod typedecl;
pub mod unions;

use crate::hw::params::Decl;
use crate::types::{self, Direction, Port};
use silica_ir::dialect::{inherent_attr, DialectDef, Effects, OpDef, Traits, ValueNames};
use silica_ir::format::{parse_op, print_op, Arity, Signature, TypeConstraint, ValueParam};
use silica_ir::graph::{OpSpec, RegionId};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::{AsmPrinter, ParamPrinter};
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Symbol, Type, TypeKind};

pub(crate) fn string_of(ctx: &Context, a: Option<Attr>) -> Option<String> {
    match ctx.attr_kind(a?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

fn strings_of(ctx: &Context, a: Option<Attr>) -> Vec<String> {
    match a.map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(items)) => items
            .iter()
            .map(|&i| string_of(ctx, Some(i)).unwrap_or_default())
            .collect(),
        _ => Vec::new(),
    }
}

fn entry(ctx: &mut Context, name: &str, value: Attr) -> (Symbol, Attr) {
    (ctx.sym(name), value)
}

/// An op without operands or results named `op_name`, with the symbol
/// `name`, the `extra` attributes and `attrs`, and `regions`.
pub(crate) fn create_named(
    p: &mut AsmParser<'_, '_>,
    op_name: &str,
    name: Symbol,
    extra: Attr,
    mut attrs: Vec<(Symbol, Attr)>,
    regions: &[RegionId],
) -> PResult<OpId> {
    let loc = p.op_loc();
    let ctx = p.ctx();
    let name = ctx.str(name).as_bytes().to_vec();
    attrs.extend_from_slice(ctx.dict_entries(extra));
    attrs.push((ctx.sym("sym_name"), ctx.string_attr(&name)));
    let attrs = ctx.dict_attr(attrs);
    let op_name = ctx.sym(op_name);
    Ok(p.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions,
        attrs,
        props: None,
    }))
}

/// The ports of a module-like op (`hw.module`, `hw.module.extern`).
pub fn module_ports(ctx: &Context, ir: &Ir, op: OpId) -> Vec<Port> {
    match inherent_attr(ctx, ir, op, "module_type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(t)) => types::ports(ctx, *t),
        _ => Vec::new(),
    }
}

/// The attribute dictionary of each port of a module, in port order
/// (empty when it has none).
pub fn port_attributes(ctx: &Context, ir: &Ir, op: OpId) -> Vec<Attr> {
    match inherent_attr(ctx, ir, op, "per_port_attrs").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(items)) => items.to_vec(),
        _ => Vec::new(),
    }
}

/// The symbol name of `op`.
pub fn symbol_name(ctx: &Context, ir: &Ir, op: OpId) -> String {
    string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default()
}

// ----- parameters -------------------------------------------------------------

/// The parameter declarations of a module or the parameter values of an
/// instance (its `parameters` attribute).
pub fn parameters(ctx: &Context, ir: &Ir, op: OpId) -> Vec<Decl> {
    match inherent_attr(ctx, ir, op, "parameters").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(items)) => items
            .iter()
            .filter_map(|&a| params::decl_of(ctx, a))
            .collect(),
        _ => Vec::new(),
    }
}

/// `<name: type = value, name: type>`, if a `<` is next.
fn parse_parameter_list(p: &mut AsmParser<'_, '_>) -> PResult<Vec<Attr>> {
    let mut out = Vec::new();
    if !p.eat(Tok::Less) {
        return Ok(out);
    }
    loop {
        let name = types::parse_port_name(p)?;
        p.expect(Tok::Colon, "':'")?;
        let ty = p.parse_type()?;
        let value = if p.eat(Tok::Equal) {
            Some(params::parse_value(p, ty)?)
        } else {
            None
        };
        out.push(params::decl(p.ctx(), &name, ty, value));
        if !p.eat(Tok::Comma) {
            break;
        }
    }
    p.expect(Tok::Greater, "'>'")?;
    Ok(out)
}

fn print_parameter_list(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let decls = parameters(p.ctx(), p.ir(), op);
    if decls.is_empty() {
        return;
    }
    p.write("<");
    for (i, d) in decls.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        p.write(&d.name);
        p.write(": ");
        p.ty(d.ty);
        if let Some(v) = d.value {
            p.write(" = ");
            p.attr_without_type(v);
        }
    }
    p.write(">");
}

/// Checks the parameter references in `value` against the parameters of
/// the module enclosing `op`.
fn check_references(v: &mut OpVerifier<'_, '_>, op: OpId, value: Attr) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let mut refs = Vec::new();
    params::references(ctx, value, &mut refs);
    if refs.is_empty() {
        return Ok(());
    }
    let mut module = ir.parent_op(op);
    while let Some(m) = module.filter(|&m| ctx.str(ir.op_name(m)) != "hw.module") {
        module = ir.parent_op(m);
    }
    let decls = module.map(|m| parameters(ctx, ir, m)).unwrap_or_default();
    for (name, ty) in refs {
        let msg = match decls.iter().find(|d| d.name == name) {
            None => format!("use of unknown parameter \"{name}\""),
            Some(d) if d.ty != ty => {
                let show = |t| silica_ir::printer::type_to_string(ctx, t);
                format!(
                    "parameter \"{name}\" used with type '{}'; should have type '{}'",
                    show(ty),
                    show(d.ty)
                )
            }
            Some(_) => continue,
        };
        let d = v.op_error(op, msg);
        return Err(match module {
            Some(m) => Box::new(d.with_note(ir.op_loc(m), "module declared here")),
            None => d,
        });
    }
    Ok(())
}

/// A module's own parameter list: unique names, defaults without
/// references.
fn verify_parameter_decls(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let decls = parameters(ctx, ir, op);
    let attrs: Vec<Attr> = match inherent_attr(ctx, ir, op, "parameters").map(|a| ctx.attr_kind(a))
    {
        Some(AttrKind::Array(items)) => items.to_vec(),
        _ => Vec::new(),
    };
    for (i, d) in decls.iter().enumerate() {
        if decls[..i].iter().any(|e| e.name == d.name) {
            let text = silica_ir::printer::attr_to_string(ctx, attrs[i]);
            let msg = format!("parameter {text} has the same name as a previous parameter");
            return Err(v.op_error(op, msg));
        }
        let mut refs = Vec::new();
        if let Some(value) = d.value {
            params::references(ctx, value, &mut refs);
        }
        if let Some((name, _)) = refs.first() {
            let msg =
                format!("parameter \"{name}\" cannot be used as a default value for a parameter");
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

/// An instance's parameter values against its module's declarations;
/// a parameter of the wrong count, name or type notes where the module
/// is declared.
fn verify_instance_parameters(v: &mut OpVerifier<'_, '_>, op: OpId, module: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let declared_here = |v: &mut OpVerifier<'_, '_>, msg: String| {
        let at = v.ir().op_loc(module);
        Box::new(v.op_error(op, msg).with_note(at, "module declared here"))
    };
    let decls = parameters(ctx, ir, module);
    let given = parameters(ctx, ir, op);
    if decls.len() != given.len() {
        let msg = format!(
            "expected {} parameters but had {}",
            decls.len(),
            given.len()
        );
        return Err(declared_here(v, msg));
    }
    let show = |t| silica_ir::printer::type_to_string(ctx, t);
    let bindings = instance_bindings(ctx, ir, op);
    for (i, (d, g)) in decls.iter().zip(&given).enumerate() {
        let msg = if d.name != g.name {
            format!(
                "parameter #{i} should have name \"{}\" but has name \"{}\"",
                d.name, g.name
            )
        } else if !elaborated_matches(ctx, d.ty, &bindings, g.ty) {
            format!(
                "parameter \"{}\" should have type '{}' but has type '{}'",
                d.name,
                show(d.ty),
                show(g.ty)
            )
        } else if g.value.is_none() {
            let msg = format!("parameter \"{}\" must have a value", d.name);
            return Err(v.op_error(op, msg));
        } else {
            continue;
        };
        return Err(declared_here(v, msg));
    }
    for g in &given {
        if let Some(value) = g.value {
            check_references(v, op, value)?;
        }
    }
    Ok(())
}

/// The values an instance gives its module's parameters.
pub fn instance_bindings(ctx: &Context, ir: &Ir, op: OpId) -> Vec<(String, Attr)> {
    parameters(ctx, ir, op)
        .into_iter()
        .filter_map(|d| Some((d.name, d.value?)))
        .collect()
}

/// Whether `actual` is the port type `formal` with `bindings`
/// substituted (unknown verbatim widths match anything).
pub fn elaborated_matches(
    ctx: &Context,
    formal: Type,
    bindings: &[(String, Attr)],
    actual: Type,
) -> bool {
    use types::HwType;
    if formal == actual {
        return true;
    }
    let same_size =
        |size: Attr, n: u64| params::evaluate(ctx, size, bindings).is_none_or(|v| v == n.into());
    match (types::hw_type(ctx, formal), types::hw_type(ctx, actual)) {
        (Some(HwType::ParamInt(w)), Some(HwType::ParamInt(v))) => {
            params::same_after(ctx, w, bindings, v)
        }
        (Some(HwType::ParamInt(w)), _) => match ctx.type_kind(actual) {
            TypeKind::Integer { width, .. } => same_size(w, u64::from(*width)),
            _ => false,
        },
        (
            Some(HwType::ParamArray {
                size,
                element,
                unpacked,
            }),
            Some(HwType::ParamArray {
                size: s2,
                element: e2,
                unpacked: u2,
            }),
        ) => {
            unpacked == u2
                && params::same_after(ctx, size, bindings, s2)
                && elaborated_matches(ctx, element, bindings, e2)
        }
        (
            Some(HwType::ParamArray {
                size,
                element,
                unpacked,
            }),
            Some(HwType::Array(n, e) | HwType::UArray(n, e)),
        ) => {
            let kind_ok =
                unpacked == matches!(types::hw_type(ctx, actual), Some(HwType::UArray(..)));
            kind_ok && same_size(size, n) && elaborated_matches(ctx, element, bindings, e)
        }
        (Some(HwType::Array(n, f)), Some(HwType::Array(m, e)))
        | (Some(HwType::UArray(n, f)), Some(HwType::UArray(m, e))) => {
            n == m && elaborated_matches(ctx, f, bindings, e)
        }
        (Some(HwType::InOut(f)), Some(HwType::InOut(e))) => elaborated_matches(ctx, f, bindings, e),
        (Some(HwType::Struct(f)), Some(HwType::Struct(e))) => {
            f.len() == e.len()
                && f.iter()
                    .zip(&e)
                    .all(|(x, y)| x.0 == y.0 && elaborated_matches(ctx, x.1, bindings, y.1))
        }
        _ => false,
    }
}

/// How a port type reads once `bindings` are substituted, for messages
/// (`'i42'` for `!hw.int<#hw.param.decl.ref<"p">>` with `p = 42`).
fn expected_text(ctx: &Context, formal: Type, bindings: &[(String, Attr)]) -> String {
    if let Some(types::HwType::ParamInt(w)) = types::hw_type(ctx, formal) {
        if let Some(v) = params::evaluate(ctx, w, bindings) {
            return format!("'i{v}'");
        }
    }
    format!("'{}'", silica_ir::printer::type_to_string(ctx, formal))
}

/// An actual type in an instance message, quoted as CIRCT writes it.
fn shown_as_formal(ctx: &Context, actual: Type) -> String {
    format!("'{}'", silica_ir::printer::type_to_string(ctx, actual))
}

/// `t` with the parameters in `bindings` substituted (`!hw.int<p>` with
/// `p = 8` is `i8`); `Err(name)` for a parameter without a value.
pub fn elaborate_type(
    ctx: &mut Context,
    t: Type,
    bindings: &[(String, Attr)],
) -> Result<Type, String> {
    use types::HwType;
    Ok(match types::hw_type(ctx, t) {
        Some(HwType::ParamInt(w)) => {
            let w = params::substitute(ctx, w, bindings)?;
            types::int_of_width(ctx, w)
        }
        Some(HwType::ParamArray {
            size,
            element,
            unpacked,
        }) => {
            let size = params::substitute(ctx, size, bindings)?;
            let element = elaborate_type(ctx, element, bindings)?;
            types::array_of_size(ctx, unpacked, size, element)
        }
        Some(HwType::Array(n, e)) => {
            let e = elaborate_type(ctx, e, bindings)?;
            types::array(ctx, n, e)
        }
        Some(HwType::UArray(n, e)) => {
            let e = elaborate_type(ctx, e, bindings)?;
            let i64_ty = ctx.signless(64);
            let size = ctx.int_attr(i64_ty, n);
            types::array_of_size(ctx, true, size, e)
        }
        Some(HwType::InOut(e)) => {
            let e = elaborate_type(ctx, e, bindings)?;
            types::inout(ctx, e)
        }
        Some(HwType::Struct(fields)) => {
            let mut out = Vec::with_capacity(fields.len());
            for (n, f) in fields {
                out.push((n, elaborate_type(ctx, f, bindings)?));
            }
            types::struct_type(ctx, &out)
        }
        _ => t,
    })
}

// ----- hw.param.value ---------------------------------------------------------

/// `%0 = hw.param.value i8 = #hw.param.decl.ref<"p">`.
fn parse_param_value(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let ty = p.parse_type()?;
    p.expect(Tok::Equal, "'='")?;
    let value = params::parse_value(p, ty)?;
    finish_value_op(p, "hw.param.value", value, ty)
}

/// The trailing attribute dictionary of an op holding one `value` of
/// type `ty` (`hw.constant`, `hw.param.value`), and the op.
fn finish_value_op(p: &mut AsmParser<'_, '_>, name: &str, value: Attr, ty: Type) -> PResult<OpId> {
    let extra = p.parse_optional_attr_dict()?;
    let ctx = p.ctx();
    let mut attrs = vec![entry(ctx, "value", value)];
    attrs.extend(ctx.dict_entries(extra).iter().copied());
    Ok(crate::hw::aggregates::create(p, name, &[], &[ty], attrs))
}

/// A detached `hw.constant` of the integer attribute `value`.
pub fn create_constant(ctx: &mut Context, ir: &mut Ir, loc: Attr, value: Attr, ty: Type) -> OpId {
    let key = ctx.sym("value");
    let attrs = ctx.dict_attr(vec![(key, value)]);
    let name = ctx.sym("hw.constant");
    ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    })
}

/// A detached `hw.module` named `name` with `ports`, no parameters, and
/// `body` (a region whose block takes the input ports as arguments and
/// ends with `hw.output`).
pub fn create_module(
    ctx: &mut Context,
    ir: &mut Ir,
    loc: Attr,
    name: &str,
    ports: &[Port],
    body: RegionId,
) -> OpId {
    create_module_op(ctx, ir, loc, "hw.module", name, ports, &[body])
}

/// A detached `hw.module.extern` named `name` with `ports` and no
/// parameters: a module defined outside the IR (hand-written Verilog).
pub fn create_extern_module(
    ctx: &mut Context,
    ir: &mut Ir,
    loc: Attr,
    name: &str,
    ports: &[Port],
) -> OpId {
    create_module_op(ctx, ir, loc, "hw.module.extern", name, ports, &[])
}

/// The op `op_name` (`hw.module` or `hw.module.extern`) named `name` with
/// `ports`, no parameters and `regions`.
fn create_module_op(
    ctx: &mut Context,
    ir: &mut Ir,
    loc: Attr,
    op_name: &str,
    name: &str,
    ports: &[Port],
    regions: &[RegionId],
) -> OpId {
    let module_type = types::module_type(ctx, ports);
    let entries = vec![
        (
            ctx.sym("module_type"),
            ctx.intern_attr(AttrKind::Type(module_type)),
        ),
        (ctx.sym("parameters"), ctx.array_attr(&[])),
        (ctx.sym("sym_name"), ctx.string_attr(name.as_bytes())),
    ];
    let attrs = ctx.dict_attr(entries);
    let op_name = ctx.sym(op_name);
    ir.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions,
        attrs,
        props: None,
    })
}

fn print_param_value(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let value = inherent_attr(ctx, ir, op, "value");
    let ty = ir.results(op).next().map(|r| ir.value_type(r));
    p.write(" ");
    if let Some(t) = ty {
        p.ty(t);
    }
    p.write(" = ");
    if let Some(v) = value {
        p.attr_without_type(v);
    }
    p.attr_dict(ir.op_attrs(op), &["value"], false);
}

fn verify_param_value(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(value) = inherent_attr(ctx, ir, op, "value") else {
        return Err(v.op_error(op, "requires attribute 'value'"));
    };
    check_references(v, op, value)
}

// ----- hw.module / hw.module.extern -----------------------------------------

const MODULE_ELIDED: &[&str] = &[
    "module_type",
    "sym_name",
    "parameters",
    "per_port_attrs",
    "port_locs",
    "sym_visibility",
];

fn parse_module_like(p: &mut AsmParser<'_, '_>, extern_: bool) -> PResult<OpId> {
    let mut attrs = Vec::new();
    for vis in ["private", "public", "nested"] {
        if p.eat_keyword(vis) {
            let v = p.ctx().string_attr(vis.as_bytes());
            attrs.push(entry(p.ctx(), "sym_visibility", v));
        }
    }
    let name = p.parse_symbol_name()?;
    let params = parse_parameter_list(p)?;
    p.expect(Tok::LParen, "'('")?;
    let mut ports = Vec::new();
    let mut port_attrs = Vec::new();
    let mut port_locs = Vec::new();
    // Ports with a `loc(...)` of their own: set once the op exists.
    let mut written_locs = Vec::new();
    let mut args = Vec::new();
    if !p.eat(Tok::RParen) {
        loop {
            let dir = match p.parse_keyword()? {
                "in" => Direction::Input,
                "out" => Direction::Output,
                "inout" => Direction::InOut,
                _ => return p.expected("'in', 'out' or 'inout'"),
            };
            let at = p.pos();
            port_locs.push(p.loc_at(at));
            let (name, operand) = if dir == Direction::Output {
                (types::parse_port_name(p)?, None)
            } else {
                let u = p.parse_operand()?;
                let mut name = u.name.trim_start_matches('%').to_string();
                if p.peek(Tok::String) {
                    name = String::from_utf8_lossy(&p.parse_string()?).into_owned();
                }
                (name, Some(u))
            };
            p.expect(Tok::Colon, "':'")?;
            let ty = p.parse_type()?;
            port_attrs.push(p.parse_optional_attr_dict()?);
            if let Some(l) = p.parse_optional_location()? {
                written_locs.push((port_locs.len() - 1, l));
            }
            if let Some(u) = operand {
                let arg_ty = if dir == Direction::InOut {
                    types::inout(p.ctx(), ty)
                } else {
                    ty
                };
                args.push((u, arg_ty));
            }
            ports.push(Port { dir, name, ty });
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RParen, "')'")?;
    }
    let extra = p.parse_optional_attr_dict_with_keyword()?;
    let region = p.ir().create_region();
    if !extern_ {
        p.parse_region_with_args(region, &args)?;
        p.ensure_terminator(region, "hw.output");
    }
    let ctx = p.ctx();
    let mty = types::module_type(ctx, &ports);
    let mty = ctx.intern_attr(AttrKind::Type(mty));
    attrs.push(entry(ctx, "module_type", mty));
    let params = ctx.array_attr(&params);
    attrs.push(entry(ctx, "parameters", params));
    if port_attrs.iter().any(|&d| !ctx.dict_entries(d).is_empty()) {
        let a = ctx.array_attr(&port_attrs);
        attrs.push(entry(ctx, "per_port_attrs", a));
    }
    if !port_locs.is_empty() {
        let a = ctx.array_attr(&port_locs);
        attrs.push(entry(ctx, "port_locs", a));
    }
    let op_name = if extern_ {
        "hw.module.extern"
    } else {
        "hw.module"
    };
    let op = create_named(p, op_name, name, extra, attrs, &[region])?;
    for (index, loc) in written_locs {
        p.set_attr_element_loc(op, "port_locs", index, loc);
    }
    Ok(op)
}

fn parse_module(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_module_like(p, false)
}

fn parse_extern(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    parse_module_like(p, true)
}

fn print_module_like(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    if let Some(v) = string_of(ctx, inherent_attr(ctx, ir, op, "sym_visibility")) {
        p.write(" ");
        p.write(&v);
    }
    p.write(" ");
    p.symbol_name(&symbol_name(ctx, ir, op));
    print_parameter_list(p, op);
    p.write("(");
    let ports = module_ports(ctx, ir, op);
    let region = ir.regions(op).next();
    let block = region.and_then(|r| ir.entry_block(r));
    let args: Vec<_> = block.map(|b| ir.block_args(b).to_vec()).unwrap_or_default();
    let port_attrs = port_attributes(ctx, ir, op);
    let port_locs: Vec<Attr> =
        match inherent_attr(ctx, ir, op, "port_locs").map(|a| ctx.attr_kind(a)) {
            Some(AttrKind::Array(locs)) => locs.to_vec(),
            _ => Vec::new(),
        };
    let mut next_arg = 0;
    for (i, port) in ports.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        match port.dir {
            Direction::Input => p.write("in "),
            Direction::Output => p.write("out "),
            Direction::InOut => p.write("inout "),
        }
        if port.dir == Direction::Output {
            write_port_name(p, &port.name);
        } else {
            match args.get(next_arg) {
                Some(&a) => {
                    p.operand(a);
                    if p.value_name(a) != format!("%{}", port.name) {
                        p.write(" ");
                        p.string(port.name.as_bytes());
                    }
                }
                None => {
                    p.write("%");
                    p.write(&port.name);
                }
            }
            next_arg += 1;
        }
        p.write(" : ");
        p.ty(port.ty);
        if let Some(&d) = port_attrs.get(i) {
            let entries = p.ctx().dict_entries(d).to_vec();
            p.attr_entries(&entries, false);
        }
        if let Some(&l) = port_locs.get(i) {
            p.loc(l);
        }
    }
    p.write(")");
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, MODULE_ELIDED, true);
    if let Some(r) = region.filter(|&r| !ir.region_is_empty(r)) {
        p.write(" ");
        p.region(r, false, false);
    }
}

fn module_names(ctx: &Context, ir: &Ir, op: OpId) -> ValueNames {
    ValueNames {
        results: Vec::new(),
        entry_args: module_ports(ctx, ir, op)
            .into_iter()
            .filter(|p| p.dir != Direction::Output)
            .map(|p| p.name)
            .collect(),
    }
}

/// A module's `port_locs`, when it has them, locate each of its ports.
fn verify_port_locs(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(locs) = inherent_attr(ctx, ir, op, "port_locs") else {
        return Ok(());
    };
    let given = match ctx.attr_kind(locs) {
        AttrKind::Array(items) => items.len(),
        _ => return Err(v.op_error(op, "'port_locs' must be an array of locations")),
    };
    let ports = module_ports(ctx, ir, op).len();
    if given != ports {
        let msg = format!("requires {ports} port locations but got {given}");
        return Err(v.op_error(op, msg));
    }
    Ok(())
}

fn verify_extern(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    verify_parameter_decls(v, op)?;
    verify_port_locs(v, op)
}

fn verify_module(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    verify_parameter_decls(v, op)?;
    verify_port_locs(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let ports = module_ports(ctx, ir, op);
    let Some(block) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    let inputs = ports.iter().filter(|p| p.dir != Direction::Output).count();
    if ir.block_args(block).len() != inputs {
        return Err(v.op_error(
            op,
            "entry block must have as many arguments as the module has inputs",
        ));
    }
    let outputs: Vec<Type> = ports
        .iter()
        .filter(|p| p.dir == Direction::Output)
        .map(|p| p.ty)
        .collect();
    if let Some(term) = ir.block_ops(block).last() {
        let given: Vec<Type> = ir.operands(term).map(|x| ir.value_type(x)).collect();
        if ctx.str(ir.op_name(term)) == "hw.output" && given.len() != outputs.len() {
            let msg = "'hw.output' op must have same number of operands as region results";
            return Err(v.error(term, msg));
        }
        for (i, (g, e)) in given.iter().zip(&outputs).enumerate() {
            if g != e {
                let show = |t| silica_ir::printer::type_to_string(ctx, t);
                let msg = format!(
                    "'hw.output' op output types must match module. In operand {i}, expected '{}', but got '{}'.",
                    show(*e),
                    show(*g)
                );
                return Err(v.error(term, msg));
            }
        }
    }
    Ok(())
}

// ----- hw.output -------------------------------------------------------------

const ANY: TypeConstraint = TypeConstraint {
    desc: "any type",
    check: |_, _| true,
    build: None,
};

static OUTPUT: Signature = Signature::new(
    &[ValueParam {
        name: "outputs",
        arity: Arity::Variadic,
        constraint: ANY,
    }],
    &[],
    &[],
    "attr-dict ($outputs^ `:` qualified(type($outputs)))?",
);

// ----- hw.constant -------------------------------------------------------------

/// `hw.constant 42 : i8`, `hw.constant true`.
fn parse_constant(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let value = if p.eat_keyword("true") {
        Some(true)
    } else if p.eat_keyword("false") {
        Some(false)
    } else {
        None
    };
    let (value, ty) = match value {
        Some(b) => {
            let ctx = p.ctx();
            let t = ctx.signless(1);
            (ctx.int_attr(t, i64::from(b)), t)
        }
        None => {
            let at = p.pos();
            let v = p.parse_integer()?;
            p.expect(Tok::Colon, "':'")?;
            let t = p.parse_type()?;
            let Some(w) = p.ctx().int_width(t) else {
                return p.error_at(at, "expected integer type");
            };
            let Some(v) = wrap_to_width(&v, w) else {
                return p.error_at(at, "integer constant out of range for type");
            };
            (p.ctx().int_attr(t, v), t)
        }
    };
    finish_value_op(p, "hw.constant", value, ty)
}

/// The signed value of `v` in `w` bits, accepting the unsigned spelling
/// of negative values (`255 : i8` is `-1`), as APInt parsing does.
fn wrap_to_width(v: &silica_ir::BigInt, w: u32) -> Option<silica_ir::BigInt> {
    use silica_ir::BigInt;
    if w == 0 {
        return (*v == BigInt::from(0)).then(|| v.clone());
    }
    let modulus = BigInt::from(1) << w;
    let half = BigInt::from(1) << (w - 1);
    if *v >= modulus || *v < -half.clone() {
        return None;
    }
    Some(if *v >= half { v - modulus } else { v.clone() })
}

fn print_constant(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let Some(v) = inherent_attr(ctx, ir, op, "value") else {
        return;
    };
    p.write(" ");
    if let AttrKind::Integer { ty, value } = ctx.attr_kind(v) {
        if ctx.int_width(*ty) == Some(1) {
            p.write(if *value == 0.into() { "false" } else { "true" });
        } else {
            p.write(&value.to_string());
            p.write(" : ");
            p.ty(*ty);
        }
    }
    let attrs = ir.op_attrs(op);
    p.attr_dict(attrs, &["value"], false);
}

/// `%c42_i8`, `%true`, `%false`, `%c-1_i8`.
fn constant_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "value")?) {
        AttrKind::Integer { ty, value } => Some(if ctx.int_width(*ty) == Some(1) {
            if *value == 0.into() { "false" } else { "true" }.into()
        } else {
            format!("c{value}_{}", silica_ir::printer::type_to_string(ctx, *ty))
        }),
        _ => None,
    }
}

fn verify_constant(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(r) = ir.results(op).next() else {
        return Ok(());
    };
    match inherent_attr(ctx, ir, op, "value").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { ty, .. }) if *ty == ir.value_type(r) => Ok(()),
        _ => Err(v.op_error(
            op,
            "hw.constant attribute bitwidth doesn't match return type",
        )),
    }
}

// ----- hw.wire -------------------------------------------------------------------

/// `%w = hw.wire %a : i8` (the `name` attribute is the result's name
/// unless spelled out).
fn parse_wire(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let input = p.parse_operand()?;
    let mut attrs = Vec::new();
    inner_sym::parse_clause(p, &mut attrs)?;
    let name = crate::seq::parse_implicit_name(p)?;
    let extra = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let input = p.resolve_operand(input, ty)?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let mut entries = ctx.dict_entries(extra).to_vec();
    if entries.iter().any(|e| ctx.str(e.0) == "name") {
        let at = p.start_pos();
        return p.custom_error_at(
            at,
            "attribute 'name' occurs more than once in the attribute list",
        );
    }
    let ctx = p.ctx();
    entries.push(crate::seq::entry(ctx, "name", name));
    entries.extend(attrs);
    let attrs = ctx.dict_attr(entries);
    let name = ctx.sym("hw.wire");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[input],
        result_types: &[ty],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

fn print_wire(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    let Some(input) = ir.operands(op).next() else {
        return;
    };
    p.write(" ");
    p.operand(input);
    inner_sym::print_clause(p, op);
    p.write(" ");
    crate::seq::print_implicit_name(p, op);
    p.attr_dict(ir.op_attrs(op), &["inner_sym", "name"], false);
    p.write(" : ");
    p.ty(ir.value_type(input));
}

pub fn name_attr(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    string_of(ctx, inherent_attr(ctx, ir, op, "name")).filter(|n| !n.is_empty())
}

/// Ops named by their `name` attribute (`hw.wire`, registers).
pub(crate) fn named_result(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    name_attr(ctx, ir, op)
}

// ----- hw.instance -------------------------------------------------------------------

/// `%i.o = hw.instance "i" @m(a: %x: i8) -> (o: i8)`.
fn parse_instance(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let inst = p.parse_string()?;
    let mut attrs = Vec::new();
    inner_sym::parse_clause(p, &mut attrs)?;
    let module = p.parse_symbol_name()?;
    let params = parse_parameter_list(p)?;
    p.expect(Tok::LParen, "'('")?;
    let mut arg_names = Vec::new();
    let mut operands = Vec::new();
    if !p.eat(Tok::RParen) {
        loop {
            let name = types::parse_port_name(p)?;
            p.expect(Tok::Colon, "':'")?;
            let u = p.parse_operand()?;
            p.expect(Tok::Colon, "':'")?;
            let t = p.parse_type()?;
            operands.push(p.resolve_operand(u, t)?);
            arg_names.push(name);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RParen, "')'")?;
    }
    p.expect(Tok::Arrow, "'->'")?;
    p.expect(Tok::LParen, "'('")?;
    let mut result_names = Vec::new();
    let mut result_types = Vec::new();
    if !p.eat(Tok::RParen) {
        loop {
            result_names.push(types::parse_port_name(p)?);
            p.expect(Tok::Colon, "':'")?;
            result_types.push(p.parse_type()?);
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RParen, "')'")?;
    }
    let extra = p.parse_optional_attr_dict()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let strings = |ctx: &mut Context, v: &[String]| {
        let items: Vec<Attr> = v.iter().map(|s| ctx.string_attr(s.as_bytes())).collect();
        ctx.array_attr(&items)
    };
    let a = strings(ctx, &arg_names);
    attrs.push(entry(ctx, "argNames", a));
    let a = ctx.string_attr(&inst);
    attrs.push(entry(ctx, "instanceName", a));
    let a = ctx.intern_attr(AttrKind::SymbolRef {
        root: module,
        nested: Box::new([]),
    });
    attrs.push(entry(ctx, "moduleName", a));
    let a = ctx.array_attr(&params);
    attrs.push(entry(ctx, "parameters", a));
    let a = strings(ctx, &result_names);
    attrs.push(entry(ctx, "resultNames", a));
    attrs.extend(ctx.dict_entries(extra).iter().copied());
    let attrs = ctx.dict_attr(attrs);
    let name = ctx.sym("hw.instance");
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &result_types,
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

/// The module an instance refers to.
pub fn instance_target(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "moduleName")?) {
        AttrKind::SymbolRef { root, .. } => Some(ctx.str(*root).to_string()),
        _ => None,
    }
}

/// The result (output port) names an instance records.
pub fn instance_result_names(ctx: &Context, ir: &Ir, op: OpId) -> Vec<String> {
    strings_of(ctx, inherent_attr(ctx, ir, op, "resultNames"))
}

/// An instance's name.
pub fn instance_name(ctx: &Context, ir: &Ir, op: OpId) -> String {
    string_of(ctx, inherent_attr(ctx, ir, op, "instanceName")).unwrap_or_default()
}

fn print_instance(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    p.write(" ");
    p.string(instance_name(ctx, ir, op).as_bytes());
    inner_sym::print_clause(p, op);
    p.write(" ");
    p.symbol_name(&instance_target(ctx, ir, op).unwrap_or_default());
    print_parameter_list(p, op);
    p.write("(");
    let args = strings_of(ctx, inherent_attr(ctx, ir, op, "argNames"));
    for (i, v) in ir.operands(op).enumerate() {
        if i > 0 {
            p.write(", ");
        }
        write_port_name(p, args.get(i).map_or("", String::as_str));
        p.write(": ");
        p.operand(v);
        p.write(": ");
        p.ty(ir.value_type(v));
    }
    p.write(") -> (");
    let results = strings_of(ctx, inherent_attr(ctx, ir, op, "resultNames"));
    for (i, r) in ir.results(op).enumerate() {
        if i > 0 {
            p.write(", ");
        }
        write_port_name(p, results.get(i).map_or("", String::as_str));
        p.write(": ");
        p.ty(ir.value_type(r));
    }
    p.write(")");
    let attrs = ir.op_attrs(op);
    p.attr_dict(
        attrs,
        &[
            "argNames",
            "inner_sym",
            "instanceName",
            "moduleName",
            "parameters",
            "resultNames",
        ],
        false,
    );
}

/// A port name in a module's or an instance's port list: bare or
/// quoted.
fn write_port_name(p: &mut AsmPrinter<'_, '_>, name: &str) {
    let mut text = String::new();
    silica_ir::printer::keyword_or_string(&mut text, name);
    p.write(&text);
}

fn instance_names(ctx: &Context, ir: &Ir, op: OpId) -> ValueNames {
    let inst = instance_name(ctx, ir, op);
    ValueNames {
        results: strings_of(ctx, inherent_attr(ctx, ir, op, "resultNames"))
            .into_iter()
            .enumerate()
            .map(|(i, r)| match r.as_str() {
                "" => format!("{inst}.{i}"),
                r => format!("{inst}.{r}"),
            })
            .collect(),
        entry_args: Vec::new(),
    }
}

fn verify_instance(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    inner_sym::verify_op(v, op)?;
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(target) = instance_target(ctx, ir, op) else {
        return Err(v.op_error(op, "requires a 'moduleName' symbol reference"));
    };
    let Some(module) = find_module(ctx, ir, op, &target) else {
        let msg = if find_symbol(ctx, ir, op, &target).is_some() {
            format!("symbol reference '{target}' isn't a module")
        } else {
            format!("Cannot find module definition '{target}'")
        };
        return Err(v.op_error(op, msg));
    };
    verify_instance_parameters(v, op, module)?;
    // Port mismatches point at the module too, as CIRCT's do.
    verify_instance_ports(v, op, module).map_err(|d| {
        if d.notes.is_empty() {
            Box::new(d.with_note(ir.op_loc(module), "module declared here"))
        } else {
            d
        }
    })
}

/// An instance's operands and results against its module's ports.
fn verify_instance_ports(v: &mut OpVerifier<'_, '_>, op: OpId, module: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let bindings = instance_bindings(ctx, ir, op);
    let ports = module_ports(ctx, ir, module);
    let (ctx, ir) = (v.ctx(), v.ir());
    let ins: Vec<&Port> = ports
        .iter()
        .filter(|p| p.dir != Direction::Output)
        .collect();
    let outs: Vec<&Port> = ports
        .iter()
        .filter(|p| p.dir == Direction::Output)
        .collect();
    let operands: Vec<Type> = ir.operands(op).map(|x| ir.value_type(x)).collect();
    let results: Vec<Type> = ir.results(op).map(|x| ir.value_type(x)).collect();
    if operands.len() != ins.len() {
        let msg = format!(
            "has a wrong number of operands; expected {} but got {}",
            ins.len(),
            operands.len()
        );
        return Err(v.op_error(op, msg));
    }
    if results.len() != outs.len() {
        let msg = format!(
            "has a wrong number of results; expected {} but got {}",
            outs.len(),
            results.len()
        );
        return Err(v.op_error(op, msg));
    }
    let arg_names = strings_of(ctx, inherent_attr(ctx, ir, op, "argNames"));
    let result_names = strings_of(ctx, inherent_attr(ctx, ir, op, "resultNames"));
    if arg_names.len() != ins.len() {
        let msg = format!(
            "has a wrong number of input port names; expected {} but got {}",
            ins.len(),
            arg_names.len()
        );
        return Err(v.op_error(op, msg));
    }
    if result_names.len() != outs.len() {
        let msg = format!(
            "has a wrong number of results port labels; expected {} but got {}",
            outs.len(),
            result_names.len()
        );
        return Err(v.op_error(op, msg));
    }
    for (i, (t, port)) in operands.iter().zip(&ins).enumerate() {
        let expected = if port.dir == Direction::InOut {
            None
        } else {
            Some(port.ty)
        };
        if expected.is_some_and(|e| !elaborated_matches(ctx, e, &bindings, *t)) {
            let msg = format!(
                "operand type #{i} must be {}, but got {}",
                expected_text(ctx, port.ty, &bindings),
                shown_as_formal(ctx, *t)
            );
            return Err(v.op_error(op, msg));
        }
        if arg_names.get(i).is_some_and(|n| *n != port.name) {
            let msg = format!(
                "input label #{i} must be \"{}\", but got \"{}\"",
                port.name, arg_names[i]
            );
            return Err(v.op_error(op, msg));
        }
    }
    for (i, (t, port)) in results.iter().zip(&outs).enumerate() {
        if !elaborated_matches(ctx, port.ty, &bindings, *t) {
            let msg = format!(
                "result type #{i} must be {}, but got {}",
                expected_text(ctx, port.ty, &bindings),
                shown_as_formal(ctx, *t)
            );
            return Err(v.op_error(op, msg));
        }
        if result_names.get(i).is_some_and(|n| *n != port.name) {
            let msg = format!(
                "result label #{i} must be \"{}\", but got \"{}\"",
                port.name, result_names[i]
            );
            return Err(v.op_error(op, msg));
        }
    }
    Ok(())
}

/// The `hw.module`/`hw.module.extern` named `name` in the symbol table
/// enclosing `from`.
pub fn find_module(ctx: &Context, ir: &Ir, from: OpId, name: &str) -> Option<OpId> {
    find_symbol(ctx, ir, from, name)
        .filter(|&o| matches!(ctx.str(ir.op_name(o)), "hw.module" | "hw.module.extern"))
}

/// The op named `name` in the `builtin.module` around `from`.
fn find_symbol(ctx: &Context, ir: &Ir, from: OpId, name: &str) -> Option<OpId> {
    let mut scope = ir.parent_op(from)?;
    while !matches!(ctx.str(ir.op_name(scope)), "builtin.module") {
        scope = ir.parent_op(scope)?;
    }
    silica_ir::symbols::lookup(ctx, ir, scope, name)
}

/// Whether `t` is a type hw values may have (integers, hw aggregates,
/// clocks).
pub fn is_hw_value_type(ctx: &Context, t: Type) -> bool {
    matches!(ctx.type_kind(t), TypeKind::Integer { .. }) || types::hw_type(ctx, t).is_some()
}

// ----- the dialect -------------------------------------------------------------------

static OPS: &[OpDef] = &[
    OpDef {
        traits: Traits::ISOLATED_FROM_ABOVE
            .with(Traits::GRAPH_REGIONS)
            .with(Traits::SINGLE_BLOCK),
        parse: Some(parse_module),
        print: Some(print_module_like),
        verify: Some(verify_module),
        value_names: Some(module_names),
        ..OpDef::new("hw.module")
    },
    OpDef {
        traits: Traits::ISOLATED_FROM_ABOVE,
        parse: Some(parse_extern),
        print: Some(print_module_like),
        verify: Some(verify_extern),
        ..OpDef::new("hw.module.extern")
    },
    OpDef {
        traits: Traits::TERMINATOR.with(Traits::RETURN_LIKE),
        parse: Some(parse_op),
        print: Some(print_op),
        signature: Some(&OUTPUT),
        parents: &["hw.module"],
        effects: Effects::None,
        ..OpDef::new("hw.output")
    },
    OpDef {
        traits: Traits::CONSTANT_LIKE,
        parse: Some(parse_constant),
        print: Some(print_constant),
        verify: Some(verify_constant),
        result_names: Some(constant_name),
        fold: Some(crate::hw::fold::fold_constant),
        effects: Effects::None,
        ..OpDef::new("hw.constant")
    },
    OpDef {
        parse: Some(parse_wire),
        print: Some(print_wire),
        verify: Some(inner_sym::verify_op),
        result_names: Some(named_result),
        ..OpDef::new("hw.wire")
    },
    OpDef {
        parse: Some(parse_param_value),
        print: Some(print_param_value),
        verify: Some(verify_param_value),
        effects: Effects::None,
        ..OpDef::new("hw.param.value")
    },
    OpDef {
        parse: Some(parse_instance),
        print: Some(print_instance),
        verify: Some(verify_instance),
        value_names: Some(instance_names),
        ..OpDef::new("hw.instance")
    },
    crate::hw::aggregates::OPS[0],
    crate::hw::aggregates::OPS[1],
    crate::hw::aggregates::OPS[2],
    crate::hw::aggregates::OPS[3],
    crate::hw::aggregates::OPS[4],
    crate::hw::aggregates::OPS[5],
    crate::hw::aggregates::OPS[6],
    crate::hw::aggregates::OPS[7],
    crate::hw::aggregates::OPS[8],
    crate::hw::aggregates::OPS[9],
    crate::hw::aggregates::OPS[10],
    crate::hw::typedecl::OPS[0],
    crate::hw::typedecl::OPS[1],
    crate::hw::unions::OPS[0],
    crate::hw::unions::OPS[1],
    crate::hw::enums::OPS[0],
    crate::hw::enums::OPS[1],
    crate::hw::hierpath::OPS[0],
];

/// Parses an hw attribute after `#hw.` or `#hw<`.
fn parse_attr(p: &mut AsmParser<'_, '_>, mnemonic: &str) -> PResult<Attr> {
    if mnemonic == inner_sym::MNEMONIC {
        return inner_sym::parse_body(p);
    }
    if mnemonic == crate::hw::enums::FIELD {
        return crate::hw::enums::parse_field_attr(p);
    }
    if mnemonic == crate::hw::hierpath::MNEMONIC {
        return crate::hw::hierpath::parse_attr(p);
    }
    crate::hw::params::parse_attr(p, mnemonic)
}

/// Prints an hw attribute's body after its mnemonic.
fn print_attr(pp: &ParamPrinter<'_>, out: &mut String, name: &str, params: &[Attr]) {
    if name == inner_sym::MNEMONIC {
        return inner_sym::print_params(pp.ctx(), params, out);
    }
    if name == crate::hw::enums::FIELD {
        return crate::hw::enums::print_field_attr(pp, out, params);
    }
    if name == crate::hw::hierpath::MNEMONIC {
        return crate::hw::hierpath::print_params(pp.ctx(), params, out);
    }
    crate::hw::params::print_attr(pp, out, name, params)
}

/// The `hw` dialect.
pub static HW: DialectDef = DialectDef {
    name: "hw",
    ops: OPS,
    attrs: Some(silica_ir::dialect::AttrHooks {
        parse: parse_attr,
        print: print_attr,
        type_of: Some(crate::hw::params::attr_type),
        alias: None,
    }),
    types: Some(silica_ir::dialect::TypeHooks {
        parse: types::parse_hw,
        print: types::print_hw,
        vector_element: None,
    }),
    materialize_constant: Some(crate::hw::fold::materialize_constant),
};
