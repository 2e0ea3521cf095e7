//! References into modules: the attribute `#hw.innerNameRef<@mod::@sym>`
//! (an inner symbol of one module) and the op `hw.hierpath @p [@Top::@inst,
//! @Child::@wire]`, a path through the instance hierarchy whose last step
//! may name a whole module (`[@Top::@inst, @Child]`). `--hw-verify-irn`
//! checks that each step exists and that the path follows instances.

use silica_ir::dialect::{inherent_attr, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, Symbol};

/// The attribute's mnemonic in the hw dialect.
pub const MNEMONIC: &str = "innerNameRef";

/// `#hw.innerNameRef<@module::@name>`.
pub fn inner_ref(ctx: &mut Context, module: Symbol, name: Symbol) -> Attr {
    let target = ctx.intern_attr(AttrKind::SymbolRef {
        root: module,
        nested: Box::new([name]),
    });
    let (dialect, mnemonic) = (ctx.sym("hw"), ctx.sym(MNEMONIC));
    ctx.intern_attr(AttrKind::Dialect {
        dialect,
        name: mnemonic,
        params: Box::new([target]),
    })
}

/// The module and inner symbol an `#hw.innerNameRef` names.
pub fn target(ctx: &Context, a: Attr) -> Option<(Symbol, Symbol)> {
    let AttrKind::Dialect { name, params, .. } = ctx.attr_kind(a) else {
        return None;
    };
    if ctx.str(*name) != MNEMONIC {
        return None;
    }
    match ctx.attr_kind(*params.first()?) {
        AttrKind::SymbolRef { root, nested } if nested.len() == 1 => Some((*root, nested[0])),
        _ => None,
    }
}

/// The inner reference a symbol reference `@m::@s` stands for, or the
/// error CIRCT gives when it does not have exactly one nested name.
fn from_symbol_ref(ctx: &mut Context, a: Attr) -> Result<Attr, &'static str> {
    match ctx.attr_kind(a) {
        AttrKind::SymbolRef { root, nested } if nested.len() == 1 => {
            let (root, name) = (*root, nested[0]);
            Ok(inner_ref(ctx, root, name))
        }
        _ => Err("inner reference must have exactly one nested reference"),
    }
}

/// Parses `<@module::@name>` after `#hw.innerNameRef`.
pub fn parse_attr(p: &mut AsmParser<'_, '_>) -> PResult<Attr> {
    let at = p.start_pos();
    p.expect(Tok::Less, "'<'")?;
    let reference = p.parse_attribute()?;
    p.expect(Tok::Greater, "'>'")?;
    from_symbol_ref(p.ctx(), reference).or_else(|msg| p.error_at(at, msg))
}

/// Prints `<@module::@name>`.
pub fn print_params(ctx: &Context, params: &[Attr], out: &mut String) {
    out.push('<');
    if let Some(&a) = params.first() {
        out.push_str(&silica_ir::printer::attr_to_string(ctx, a));
    }
    out.push('>');
}

/// `hw.hierpath`.
pub(crate) static OPS: [OpDef; 1] = [OpDef {
    traits: Traits::ISOLATED_FROM_ABOVE,
    parse: Some(parse_hierpath),
    print: Some(print_hierpath),
    verify: Some(verify_hierpath),
    ..OpDef::new("hw.hierpath")
}];

/// `hw.hierpath (private|public|nested)? @name [@A::@b, ..., @Leaf]`
fn parse_hierpath(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut attrs = Vec::new();
    for vis in ["private", "public", "nested"] {
        if p.eat_keyword(vis) {
            let (k, v) = (
                p.ctx().sym("sym_visibility"),
                p.ctx().string_attr(vis.as_bytes()),
            );
            attrs.push((k, v));
        }
    }
    let name = p.parse_symbol_name()?;
    p.expect(Tok::LSquare, "'['")?;
    let mut path = Vec::new();
    if !p.eat(Tok::RSquare) {
        loop {
            let at = p.pos();
            let step = p.parse_attribute()?;
            let flat = matches!(
                p.ctx().attr_kind(step),
                AttrKind::SymbolRef { nested, .. } if nested.is_empty()
            );
            if flat {
                path.push(step);
            } else {
                match from_symbol_ref(p.ctx(), step) {
                    Ok(r) => path.push(r),
                    Err(msg) => return p.error_at(at, msg),
                }
            }
            if !p.eat(Tok::Comma) {
                break;
            }
        }
        p.expect(Tok::RSquare, "']'")?;
    }
    let extra = p.parse_optional_attr_dict()?;
    let ctx = p.ctx();
    let namepath = ctx.array_attr(&path);
    attrs.push((ctx.sym("namepath"), namepath));
    crate::hw::create_named(p, "hw.hierpath", name, extra, attrs, &[])
}

fn print_hierpath(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    if let Some(v) = crate::hw::string_of(ctx, inherent_attr(ctx, ir, op, "sym_visibility")) {
        p.write(" ");
        p.write(&v);
    }
    p.write(" ");
    p.symbol_name(&crate::hw::symbol_name(ctx, ir, op));
    p.write(" [");
    for (i, step) in namepath(ctx, ir, op).into_iter().enumerate() {
        if i > 0 {
            p.write(", ");
        }
        match ctx.attr_kind(step) {
            AttrKind::Dialect { params, .. } => p.attr(params[0]),
            _ => p.attr(step),
        }
    }
    p.write("]");
    p.attr_dict(
        ir.op_attrs(op),
        &["sym_name", "namepath", "sym_visibility"],
        false,
    );
}

/// The steps of a path: inner references, and a flat symbol reference
/// for a leaf module.
pub fn namepath(ctx: &Context, ir: &Ir, op: OpId) -> Vec<Attr> {
    match inherent_attr(ctx, ir, op, "namepath").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(steps)) => steps.to_vec(),
        _ => Vec::new(),
    }
}

/// Every step is an inner reference but the last, which may also name a
/// module.
fn verify_hierpath(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let steps = namepath(ctx, ir, op);
    let Some((last, inner)) = steps.split_last() else {
        return Err(v.op_error(op, "the instance path cannot be empty"));
    };
    if inner.iter().any(|&s| target(ctx, s).is_none()) {
        return Err(v.op_error(
            op,
            "the instance path can only contain inner sym reference, only the leaf can refer to a module symbol",
        ));
    }
    let leaf_ok = target(ctx, *last).is_some()
        || matches!(ctx.attr_kind(*last), AttrKind::SymbolRef { nested, .. } if nested.is_empty());
    if !leaf_ok {
        return Err(v.op_error(op, "requires attribute 'namepath'"));
    }
    Ok(())
}

/// The `hw.module` or `hw.module.extern` named `name` directly in `top`.
fn module_named(ctx: &Context, ir: &Ir, top: OpId, name: Symbol) -> Option<OpId> {
    silica_ir::symbols::lookup(ctx, ir, top, ctx.str(name))
        .filter(|&o| matches!(ctx.str(ir.op_name(o)), "hw.module" | "hw.module.extern"))
}

/// The op of `module` whose inner symbol is `name`.
fn op_with_symbol(ctx: &Context, ir: &Ir, module: OpId, name: Symbol) -> Option<OpId> {
    let mut found = None;
    ir.walk(module, &mut |o| {
        let top = crate::hw::inner_sym::of_op(ctx, ir, o)
            .and_then(|a| crate::hw::inner_sym::top_name(ctx, a));
        if found.is_none() && top.as_deref() == Some(ctx.str(name)) {
            found = Some(o);
        }
    });
    found
}

/// The module an `hw.instance` instantiates.
fn instantiated(ctx: &Context, ir: &Ir, inst: OpId) -> Option<Symbol> {
    match inherent_attr(ctx, ir, inst, "moduleName").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::SymbolRef { root, .. }) => Some(*root),
        _ => None,
    }
}

/// Checks every `hw.hierpath` in `top` against the modules there, as
/// CIRCT's inner-reference namespace does: each step but the last is an
/// instance, of the module the next step is in, and the last step exists.
pub fn verify_paths(ctx: &Context, ir: &Ir, top: OpId) -> Result<(), Box<Diagnostic>> {
    let Some(block) = ir.regions(top).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(());
    };
    for op in ir.block_ops(block) {
        if ctx.str(ir.op_name(op)) == "hw.hierpath" {
            check_path(ctx, ir, top, op).map_err(|msg| {
                Box::new(Diagnostic::error(
                    ir.op_loc(op),
                    format!("'hw.hierpath' op {msg}"),
                ))
            })?;
        }
    }
    Ok(())
}

fn check_path(ctx: &Context, ir: &Ir, top: OpId, op: OpId) -> Result<(), String> {
    let steps = namepath(ctx, ir, op);
    let show = |a| silica_ir::printer::attr_to_string(ctx, a);
    let mut expected: Option<Symbol> = None;
    let wrong_module = |want: Symbol, found: Symbol| {
        format!(
            "instance path is incorrect. Expected module: \"{}\" instead found: \"{}\"",
            ctx.str(want),
            ctx.str(found)
        )
    };
    for (i, &step) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        let (module, name) = match target(ctx, step) {
            Some(t) => t,
            None => match ctx.attr_kind(step) {
                AttrKind::SymbolRef { root, .. } => {
                    return match expected {
                        Some(want) if want != *root => Err(wrong_module(want, *root)),
                        _ => Ok(()),
                    };
                }
                _ => return Ok(()),
            },
        };
        if let Some(want) = expected.filter(|&w| w != module) {
            return Err(wrong_module(want, module));
        }
        let found = module_named(ctx, ir, top, module);
        if last {
            let defined = found.is_some_and(|m| {
                crate::hw::inner_sym::definitions(ctx, ir, m)
                    .iter()
                    .any(|(p, _)| p.name == ctx.str(name))
            });
            if !defined {
                return Err(format!(
                    "operation with symbol: {} was not found",
                    show(step)
                ));
            }
            return Ok(());
        }
        let inst = found
            .and_then(|m| op_with_symbol(ctx, ir, m, name))
            .filter(|&o| ctx.str(ir.op_name(o)) == "hw.instance");
        let Some(inst) = inst else {
            return Err(format!(
                "module: \"{}\" does not contain any instance with symbol: \"{}\"",
                ctx.str(module),
                ctx.str(name)
            ));
        };
        expected = instantiated(ctx, ir, inst);
    }
    Ok(())
}
