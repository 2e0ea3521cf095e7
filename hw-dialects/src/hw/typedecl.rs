//! Type declarations: `hw.type_scope @name { ... }` holding
//! `hw.typedecl @foo (, "verilogName")? : type` ops, which
//! `!hw.typealias<@scope::@foo, type>` names. Their attributes live in
//! the attribute dictionary, as CIRCT keeps them.

use silica_ir::dialect::{inherent_attr, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{AttrKind, OpId};

/// `hw.type_scope` and `hw.typedecl`.
pub(crate) static OPS: [OpDef; 2] = [
    OpDef {
        traits: Traits::SINGLE_BLOCK
            .with(Traits::NO_TERMINATOR)
            .with(Traits::NO_REGION_ARGUMENTS)
            .with(Traits::SYMBOL_TABLE),
        parse: Some(parse_type_scope),
        print: Some(print_type_scope),
        ..OpDef::new("hw.type_scope")
    },
    OpDef {
        parents: &["hw.type_scope"],
        parse: Some(parse_typedecl),
        print: Some(print_typedecl),
        verify: Some(verify_typedecl),
        ..OpDef::new("hw.typedecl")
    },
];

/// ` @name { decls } {attrs}`
fn parse_type_scope(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_symbol_name()?;
    let region = p.ir().create_region();
    p.parse_region(region)?;
    if p.ir().region_is_empty(region) {
        let block = p.ir().create_block();
        p.ir().append_block(region, block);
    }
    let extra = p.parse_optional_attr_dict()?;
    crate::hw::create_named(p, "hw.type_scope", name, extra, Vec::new(), &[region])
}

fn print_type_scope(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let name = crate::hw::symbol_name(ctx, ir, op);
    p.write(" ");
    p.symbol_name(&name);
    p.write(" ");
    if let Some(r) = ir.regions(op).next() {
        p.region(r, false, false);
    }
    p.attr_dict(ir.op_attrs(op), &["sym_name"], false);
}

/// ` @foo (, "verilogName")? : type {attrs}`
fn parse_typedecl(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_symbol_name()?;
    let verilog_name = if p.eat(Tok::Comma) {
        Some(p.parse_string()?)
    } else {
        None
    };
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let extra = p.parse_optional_attr_dict()?;
    let ctx = p.ctx();
    let mut attrs = vec![(ctx.sym("type"), ctx.intern_attr(AttrKind::Type(ty)))];
    if let Some(v) = verilog_name {
        attrs.push((ctx.sym("verilogName"), ctx.string_attr(&v)));
    }
    crate::hw::create_named(p, "hw.typedecl", name, extra, attrs, &[])
}

fn print_typedecl(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let name = crate::hw::symbol_name(ctx, ir, op);
    p.write(" ");
    p.symbol_name(&name);
    if let Some(v) = inherent_attr(ctx, ir, op, "verilogName") {
        p.write(", ");
        p.attr(v);
    }
    p.write(" : ");
    if let Some(AttrKind::Type(t)) = inherent_attr(ctx, ir, op, "type").map(|a| ctx.attr_kind(a)) {
        p.ty(*t);
    }
    p.attr_dict(ir.op_attrs(op), &["sym_name", "type", "verilogName"], false);
}

/// The declaration has a name and a type.
fn verify_typedecl(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let named = matches!(
        inherent_attr(ctx, ir, op, "sym_name").map(|a| ctx.attr_kind(a)),
        Some(AttrKind::String { .. })
    );
    if !named {
        return Err(v.op_error(op, "requires attribute 'sym_name'"));
    }
    match inherent_attr(ctx, ir, op, "type").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Type(_)) => Ok(()),
        _ => Err(v.op_error(op, "requires attribute 'type'")),
    }
}
