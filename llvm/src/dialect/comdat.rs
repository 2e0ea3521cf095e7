//! COMDATs: `llvm.comdat @name { llvm.comdat_selector @sel any ... }`, a
//! symbol table of selectors, and the `comdat(@name::@sel)` clause of
//! `llvm.func` and `llvm.mlir.global`, in MLIR's syntax with its checks;
//! translated to `$sel = comdat any` and `comdat($sel)` (plain `comdat`
//! when the selector has the object's name). `--llvm-add-comdats` puts
//! every `linkonce`/`linkonce_odr` function in a comdat of its own.

use crate::dialect::func_ops::{prop, string_of};
use silica_ir::dialect::{inherent_attr, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::pass::{Pass, PassInfo, PassOptions};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Diagnostic, Ir, OpId, OpSpec};

/// The selection kinds, in their stored order.
const KINDS: &[&str] = &["any", "exactmatch", "largest", "nodeduplicate", "samesize"];

/// The spec of a comdat (`kind` `None`) or selector op named `sym_name`.
fn symbol_op<'a>(
    ctx: &mut Context,
    sym_name: &[u8],
    kind: Option<usize>,
    loc: Attr,
    regions: &'a [silica_ir::RegionId],
) -> OpSpec<'a> {
    let mut props = Vec::new();
    if let Some(k) = kind {
        let i64t = ctx.signless(64);
        let k = ctx.int_attr(i64t, k as i64);
        prop(ctx, &mut props, "comdat", k);
    }
    let n = ctx.string_attr(sym_name);
    prop(ctx, &mut props, "sym_name", n);
    let props = ctx.dict_attr(props);
    let name = ctx.sym(if kind.is_some() {
        "llvm.comdat_selector"
    } else {
        "llvm.comdat"
    });
    let attrs = ctx.empty_dict();
    OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions,
        attrs,
        props: Some(props),
    }
}

fn parse_comdat(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_symbol_name()?;
    let region = p.ir().create_region();
    p.parse_region_with_args(region, &[])?;
    if p.ir().region_is_empty(region) {
        let block = p.ir().create_block();
        p.ir().append_block(region, block);
    }
    let loc = p.op_loc();
    let ctx = p.ctx();
    let text = ctx.str(name).as_bytes().to_vec();
    let regions = [region];
    let spec = symbol_op(ctx, &text, None, loc, &regions);
    Ok(p.create_op(spec))
}

fn print_comdat(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let name = string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    p.write(" ");
    p.symbol_name(&name);
    if let Some(r) = ir.regions(op).next() {
        p.write(" ");
        p.region(r, false, false);
    }
}

/// Only selectors in a comdat's region.
fn verify_comdat(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let stray = ir
        .regions(op)
        .flat_map(|r| ir.region_blocks(r))
        .flat_map(|b| ir.block_ops(b))
        .find(|&o| ctx.str(ir.op_name(o)) != "llvm.comdat_selector");
    match stray {
        Some(o) => Err(v.error(
            o,
            "only comdat selector symbols can appear in a comdat region",
        )),
        None => Ok(()),
    }
}

fn parse_selector(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_symbol_name()?;
    let at = p.pos();
    let word = p.parse_keyword()?.to_string();
    let Some(kind) = KINDS.iter().position(|k| *k == word) else {
        let msg = format!(
            "custom op 'llvm.comdat_selector' expected string or keyword containing one of the following enum values for attribute 'comdat' [{}]",
            KINDS.join(", ")
        );
        return p.error_at(at, msg);
    };
    let loc = p.op_loc();
    let ctx = p.ctx();
    let text = ctx.str(name).as_bytes().to_vec();
    let spec = symbol_op(ctx, &text, Some(kind), loc, &[]);
    Ok(p.create_op(spec))
}

/// The selection kind of a selector.
pub(crate) fn selector_kind(ctx: &Context, ir: &Ir, op: OpId) -> &'static str {
    match inherent_attr(ctx, ir, op, "comdat").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => usize::try_from(value)
            .ok()
            .and_then(|i| KINDS.get(i))
            .copied()
            .unwrap_or("any"),
        _ => "any",
    }
}

fn print_selector(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let name = string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    let kind = selector_kind(ctx, ir, op);
    p.write(" ");
    p.symbol_name(&name);
    p.write(" ");
    p.write(kind);
}

/// Reads the optional `comdat(@comdat::@selector)` clause into `props`.
pub(crate) fn parse_clause(
    p: &mut AsmParser<'_, '_>,
    props: &mut Vec<(silica_ir::Symbol, Attr)>,
) -> PResult<()> {
    if !p.eat_keyword("comdat") {
        return Ok(());
    }
    p.expect(Tok::LParen, "'('")?;
    let at = p.pos();
    let reference = p.parse_attribute()?;
    if !matches!(p.ctx().attr_kind(reference), AttrKind::SymbolRef { .. }) {
        return p.error_at(at, "expected symbol reference");
    }
    p.expect(Tok::RParen, "')'")?;
    let ctx = p.ctx();
    prop(ctx, props, "comdat", reference);
    Ok(())
}

/// Writes the `comdat(...)` clause of `op`, if it has one.
pub(crate) fn print_clause(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    if let Some(c) = inherent_attr(ctx, ir, op, "comdat") {
        p.write(" comdat(");
        p.attr(c);
        p.write(")");
    }
}

/// A `comdat(...)` clause names a selector.
pub(crate) fn verify_clause(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(reference) = inherent_attr(ctx, ir, op, "comdat") else {
        return Ok(());
    };
    let target = silica_ir::symbols::lookup_from(ctx, ir, op, reference);
    if target.is_none_or(|t| ctx.str(ir.op_name(t)) != "llvm.comdat_selector") {
        return Err(v.op_error(op, "expected comdat symbol"));
    }
    Ok(())
}

pub(crate) const COMDAT: OpDef = OpDef {
    traits: Traits::SYMBOL_TABLE
        .with(Traits::NO_TERMINATOR)
        .with(Traits::SINGLE_BLOCK)
        .with(Traits::NO_REGION_ARGUMENTS),
    verify: Some(verify_comdat),
    inherent_attrs: &["sym_name"],
    parse: Some(parse_comdat),
    print: Some(print_comdat),
    ..OpDef::new("llvm.comdat")
};

pub(crate) const COMDAT_SELECTOR: OpDef = OpDef {
    inherent_attrs: &["comdat", "sym_name"],
    parse: Some(parse_selector),
    print: Some(print_selector),
    ..OpDef::new("llvm.comdat_selector")
};

/// The comdat `--llvm-add-comdats` fills.
const ADDED_COMDAT: &str = "__llvm_comdat";

/// The `llvm.comdat @__llvm_comdat` of `module`'s body, made at its start
/// (at the module's location) when missing.
fn added_comdat(ctx: &mut Context, ir: &mut Ir, module: OpId) -> Option<OpId> {
    let body = ir.regions(module).next().and_then(|r| ir.entry_block(r))?;
    let existing = ir.block_ops(body).find(|&o| {
        ctx.str(ir.op_name(o)) == "llvm.comdat"
            && string_of(ctx, inherent_attr(ctx, ir, o, "sym_name")).as_deref()
                == Some(ADDED_COMDAT)
    });
    if existing.is_some() {
        return existing;
    }
    let region = ir.create_region();
    let block = ir.create_block();
    ir.append_block(region, block);
    let loc = ir.op_loc(module);
    let comdat = ir.create_op(symbol_op(
        ctx,
        ADDED_COMDAT.as_bytes(),
        None,
        loc,
        &[region],
    ));
    match ir.first_op(body) {
        Some(first) => ir.insert_op_before(first, comdat),
        None => ir.append_op(body, comdat),
    }
    Some(comdat)
}

struct AddComdats;

impl Pass for AddComdats {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
            return Ok(());
        };
        let functions: Vec<OpId> = ir
            .block_ops(body)
            .filter(|&f| {
                ctx.str(ir.op_name(f)) == "llvm.func"
                    && inherent_attr(ctx, ir, f, "comdat").is_none()
                    && matches!(
                        inherent_attr(ctx, ir, f, "linkage")
                            .and_then(|a| crate::dialect::attrs::keyword_of(ctx, a)),
                        Some("linkonce" | "linkonce_odr")
                    )
            })
            .collect();
        for f in functions {
            let Some(comdat) = added_comdat(ctx, ir, op) else {
                return Ok(());
            };
            let Some(block) = ir.regions(comdat).next().and_then(|r| ir.entry_block(r)) else {
                return Ok(());
            };
            let name = string_of(ctx, inherent_attr(ctx, ir, f, "sym_name")).unwrap_or_default();
            let loc = ir.op_loc(comdat);
            let selector = ir.create_op(symbol_op(ctx, name.as_bytes(), Some(0), loc, &[]));
            match ir.first_op(block) {
                Some(first) => ir.insert_op_before(first, selector),
                None => ir.append_op(block, selector),
            }
            let (root, leaf) = (ctx.sym(ADDED_COMDAT), ctx.sym(&name));
            let reference = ctx.intern_attr(AttrKind::SymbolRef {
                root,
                nested: Box::new([leaf]),
            });
            silica_ir::dialect::set_inherent_attr(ctx, ir, f, "comdat", reference);
        }
        Ok(())
    }
}

/// `llvm-add-comdats`
pub static LLVM_ADD_COMDATS: PassInfo = PassInfo {
    argument: "llvm-add-comdats",
    name: "LLVMAddComdats",
    description: "Add comdats to linkonce and linkonce_odr functions",
    anchor: Some("builtin.module"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(AddComdats)),
};
