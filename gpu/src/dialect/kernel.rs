//! The device side: `gpu.module @m [targets] { ... }` (a symbol table
//! of device functions, isolated from the host), `gpu.func @f(args)
//! [workgroup(...)] [private(...)] [kernel] { ... }` and `gpu.return`.

use super::launch::{print_attributions, workgroup_attributions};
use silica_ir::dialect::{inherent_attr, Effects, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult, UnresolvedOperand};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec, Symbol, Type, TypeKind, ValueId};

pub const MODULE: &str = "gpu.module";
pub const FUNC: &str = "gpu.func";
pub const RETURN: &str = "gpu.return";
/// The unit attribute that makes a `gpu.func` a kernel.
pub const KERNEL_ATTR: &str = "gpu.kernel";
/// The module attribute that says a module holds `gpu.module`s.
pub const CONTAINER_MODULE: &str = "gpu.container_module";

/// `gpu.func`'s inherent attributes.
const FUNC_PROPS: &[&str] = &[
    "function_type",
    "arg_attrs",
    "res_attrs",
    "workgroup_attrib_attrs",
    "private_attrib_attrs",
    "known_block_size",
    "known_grid_size",
];

fn string_of(ctx: &Context, a: Option<Attr>) -> Option<String> {
    match ctx.attr_kind(a?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// The symbol name of a `gpu.module` (a property) or `gpu.func` (an
/// attribute).
pub fn symbol_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    let key = ctx.lookup_sym("sym_name")?;
    let attr = inherent_attr(ctx, ir, op, "sym_name").or_else(|| {
        ctx.dict_entries(ir.op_attrs(op))
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| *v)
    });
    string_of(ctx, attr)
}

/// Whether a `gpu.func` is a kernel.
pub fn is_kernel(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.lookup_sym(KERNEL_ATTR).is_some_and(|key| {
        ctx.dict_entries(ir.op_attrs(op))
            .iter()
            .any(|(k, _)| *k == key)
    })
}

/// The function type of a `gpu.func`.
pub fn function_type(ctx: &Context, ir: &Ir, op: OpId) -> Option<(Vec<Type>, Vec<Type>)> {
    let AttrKind::Type(t) = ctx.attr_kind(inherent_attr(ctx, ir, op, "function_type")?) else {
        return None;
    };
    match ctx.type_kind(*t) {
        TypeKind::Function { inputs, results } => Some((inputs.to_vec(), results.to_vec())),
        _ => None,
    }
}

fn parse_module(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_symbol_name()?;
    let mut props = Vec::new();
    if p.peek(Tok::LSquare) {
        let targets = p.parse_attribute()?;
        let key = p.ctx().sym("targets");
        props.push((key, targets));
    }
    let attrs = p.parse_optional_attr_dict_with_keyword()?;
    let region = p.ir().create_region();
    p.parse_region(region)?;
    if p.ir().region_is_empty(region) {
        let block = p.ir().create_block();
        p.ir().append_block(region, block);
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let text = ctx.str(name).as_bytes().to_vec();
    let key = ctx.sym("sym_name");
    let value = ctx.string_attr(&text);
    props.insert(0, (key, value));
    let props = ctx.dict_attr(props);
    let name = ctx.sym(MODULE);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    }))
}

fn print_module(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    p.write(" ");
    p.symbol_name(&symbol_name(ctx, ir, op).unwrap_or_default());
    if let Some(targets) = inherent_attr(ctx, ir, op, "targets") {
        p.write(" ");
        p.attr(targets);
    }
    p.attr_dict(ir.op_attrs(op), &[], true);
    if let Some(r) = ir.regions(op).next() {
        p.write(" ");
        p.region(r, false, false);
    }
}

/// One argument of a signature being parsed.
struct Argument<'a> {
    name: UnresolvedOperand<'a>,
    ty: Type,
    attrs: Option<Attr>,
}

fn parse_func(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_symbol_name()?;
    p.expect(Tok::LParen, "'('")?;
    let mut args: Vec<Argument<'_>> = Vec::new();
    p.comma_list(Tok::RParen, "')'", |p| {
        let name = p.parse_argument()?;
        p.expect(Tok::Colon, "':'")?;
        let ty = p.parse_type()?;
        let attrs = p.parse_optional_nonempty_attr_dict()?;
        args.push(Argument { name, ty, attrs });
        Ok(())
    })?;
    let mut results = Vec::new();
    if p.eat(Tok::Arrow) {
        results = p.parse_result_types()?;
    }
    let mut workgroup = Vec::new();
    if p.eat_keyword("workgroup") {
        workgroup = parse_typed_args(p)?;
    }
    let mut private = Vec::new();
    if p.eat_keyword("private") {
        private = parse_typed_args(p)?;
    }
    let kernel = p.eat_keyword("kernel");
    let dict = p.parse_optional_attr_dict_with_keyword()?;
    let mut entry: Vec<(UnresolvedOperand<'_>, Type)> =
        args.iter().map(|a| (a.name, a.ty)).collect();
    entry.extend(workgroup.iter().copied());
    entry.extend(private.iter().copied());
    let region = p.ir().create_region();
    p.parse_region_with_args(region, &entry)?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let ins: Vec<Type> = args.iter().map(|a| a.ty).collect();
    let fty = ctx.function_type(&ins, &results);
    let mut props = vec![(
        ctx.sym("function_type"),
        ctx.intern_attr(AttrKind::Type(fty)),
    )];
    if args.iter().any(|a| a.attrs.is_some()) {
        let empty = ctx.empty_dict();
        let dicts: Vec<Attr> = args.iter().map(|a| a.attrs.unwrap_or(empty)).collect();
        let k = ctx.sym("arg_attrs");
        props.push((k, ctx.array_attr(&dicts)));
    }
    let mut attrs = Vec::new();
    for &(k, v) in ctx.dict_entries(dict) {
        if FUNC_PROPS.contains(&ctx.str(k)) {
            props.retain(|(pk, _)| *pk != k);
            props.push((k, v));
        } else {
            attrs.push((k, v));
        }
    }
    if kernel {
        let k = ctx.sym(KERNEL_ATTR);
        let unit = ctx.unit_attr();
        attrs.push((k, unit));
    }
    let text = ctx.str(name).as_bytes().to_vec();
    let k = ctx.sym("sym_name");
    let v = ctx.string_attr(&text);
    attrs.push((k, v));
    let k = ctx.sym("workgroup_attributions");
    let i64 = ctx.signless(64);
    let v = ctx.int_attr(i64, workgroup.len() as i64);
    attrs.push((k, v));
    let props = ctx.dict_attr(props);
    let attrs = ctx.dict_attr(attrs);
    let name = ctx.sym(FUNC);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: Some(props),
    }))
}

/// `(%a : T, ...)`.
fn parse_typed_args<'a>(p: &mut AsmParser<'_, 'a>) -> PResult<Vec<(UnresolvedOperand<'a>, Type)>> {
    p.expect(Tok::LParen, "'('")?;
    let mut args = Vec::new();
    p.comma_list(Tok::RParen, "')'", |p| {
        let name = p.parse_argument()?;
        p.expect(Tok::Colon, "':'")?;
        args.push((name, p.parse_type()?));
        Ok(())
    })?;
    Ok(args)
}

/// The `i`th dictionary of the array attribute `key`, if not empty.
fn entry_attrs(ctx: &Context, ir: &Ir, op: OpId, key: &str, i: usize) -> Option<Attr> {
    let AttrKind::Array(dicts) = ctx.attr_kind(inherent_attr(ctx, ir, op, key)?) else {
        return None;
    };
    let d = *dicts.get(i)?;
    (!ctx.dict_entries(d).is_empty()).then_some(d)
}

fn print_func(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let (ins, outs) = function_type(ctx, ir, op).unwrap_or_default();
    p.write(" ");
    p.symbol_name(&symbol_name(ctx, ir, op).unwrap_or_default());
    let Some(region) = ir.regions(op).next() else {
        return;
    };
    let args: Vec<ValueId> = ir
        .entry_block(region)
        .map(|b| ir.block_args(b).to_vec())
        .unwrap_or_default();
    p.write("(");
    for (i, &t) in ins.iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        if let Some(&a) = args.get(i) {
            p.operand(a);
            p.write(": ");
        }
        p.ty(t);
        if let Some(d) = entry_attrs(ctx, ir, op, "arg_attrs", i) {
            p.write(" ");
            p.attr(d);
        }
    }
    p.write(")");
    if !outs.is_empty() {
        p.write(" -> ");
        p.result_types(&outs);
    }
    let rest = args.get(ins.len()..).unwrap_or(&[]);
    let workgroup = workgroup_attributions(ctx, ir, op).min(rest.len());
    print_attributions(p, "workgroup", &rest[..workgroup]);
    print_attributions(p, "private", &rest[workgroup..]);
    if is_kernel(ctx, ir, op) {
        p.write(" kernel");
    }
    let mut extra: Vec<(Symbol, Attr)> = Vec::new();
    let props = ir.op_props(op).map(|d| ctx.dict_entries(d)).unwrap_or(&[]);
    let elided = [
        "function_type",
        "arg_attrs",
        "res_attrs",
        "sym_name",
        "workgroup_attributions",
        KERNEL_ATTR,
    ];
    for &(k, v) in props.iter().chain(ctx.dict_entries(ir.op_attrs(op))) {
        if !elided.contains(&ctx.str(k)) {
            extra.push((k, v));
        }
    }
    extra.sort_by(|a, b| ctx.str(a.0).cmp(ctx.str(b.0)));
    p.attr_entries(&extra, true);
    p.write(" ");
    p.region(region, false, true);
}

fn verify_func(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some((ins, outs)) = function_type(ctx, ir, op) else {
        return Err(v.op_error(op, "requires attribute 'function_type'"));
    };
    if is_kernel(ctx, ir, op) && !outs.is_empty() {
        return Err(v.op_error(op, "expected void return type for kernel function"));
    }
    let Some(entry) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    let args = ir.block_args(entry);
    for (i, &t) in ins.iter().enumerate() {
        if args.get(i).map(|&a| ir.value_type(a)) != Some(t) {
            return Err(v.op_error(
                op,
                format!(
                    "expected body region argument #{i} to be of type {}",
                    silica_ir::printer::type_to_string(v.ctx(), t)
                ),
            ));
        }
    }
    Ok(())
}

fn parse_return(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let attrs = p.parse_optional_attr_dict()?;
    let mut operands = Vec::new();
    if p.peek(Tok::PercentId) {
        let names = p.parse_operand_list()?;
        p.expect(Tok::Colon, "':'")?;
        let types = p.parse_type_list()?;
        if names.len() != types.len() {
            return p.op_error(format!(
                "custom op 'gpu.return' {} operands present, but expected {}",
                names.len(),
                types.len()
            ));
        }
        for (u, t) in names.into_iter().zip(types) {
            operands.push(p.resolve_operand(u, t)?);
        }
    }
    let loc = p.op_loc();
    let name = p.ctx().sym(RETURN);
    Ok(p.create_op(OpSpec {
        name,
        loc,
        operands: &operands,
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: None,
    }))
}

fn print_return(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let ir = p.ir();
    p.attr_dict(ir.op_attrs(op), &[], false);
    let operands: Vec<ValueId> = ir.operands(op).collect();
    if !operands.is_empty() {
        p.write(" ");
        p.operands(operands.iter().copied());
        p.write(" : ");
        let types: Vec<Type> = operands.iter().map(|&v| ir.value_type(v)).collect();
        p.types(&types);
    }
}

fn verify_return(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let ir = v.ir();
    let Some(func) = ir.parent_op(op) else {
        return Ok(());
    };
    let outs = function_type(v.ctx(), ir, func)
        .map(|f| f.1)
        .unwrap_or_default();
    let given: Vec<Type> = ir.operands(op).map(|x| ir.value_type(x)).collect();
    if given.len() != outs.len() {
        return Err(v.op_error(op, format!("expected {} result operands", outs.len())));
    }
    for (i, (&g, &o)) in given.iter().zip(&outs).enumerate() {
        if g != o {
            let (g, o) = (
                silica_ir::printer::type_to_string(v.ctx(), g),
                silica_ir::printer::type_to_string(v.ctx(), o),
            );
            return Err(v.op_error(
                op,
                format!("unexpected type `{g}' for operand #{i}, expected `{o}'"),
            ));
        }
    }
    Ok(())
}

pub(super) const OPS: [OpDef; 3] = [
    OpDef {
        parse: Some(parse_module),
        print: Some(print_module),
        inherent_attrs: &["sym_name", "targets", "offloadingHandler"],
        effects: Effects::Unknown,
        traits: Traits::SYMBOL_TABLE
            .with(Traits::ISOLATED_FROM_ABOVE)
            .with(Traits::SINGLE_BLOCK)
            .with(Traits::NO_TERMINATOR),
        ..OpDef::new(MODULE)
    },
    OpDef {
        parse: Some(parse_func),
        print: Some(print_func),
        verify: Some(verify_func),
        inherent_attrs: FUNC_PROPS,
        parents: &[MODULE],
        effects: Effects::Unknown,
        traits: Traits::ISOLATED_FROM_ABOVE
            .with(Traits::ALLOCATION_SCOPE)
            .with(Traits::AFFINE_SCOPE),
        ..OpDef::new(FUNC)
    },
    OpDef {
        parse: Some(parse_return),
        print: Some(print_return),
        verify: Some(verify_return),
        traits: Traits::TERMINATOR,
        parents: &[FUNC],
        effects: Effects::None,
        ..OpDef::new(RETURN)
    },
];
