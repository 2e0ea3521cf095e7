//! `gpu.binary @name [<handler>] [attr-dict] [#gpu.object<...>, ...]`:
//! a `gpu.module` compiled (`gpu-module-to-binary`), one object per
//! target; the handler (`#gpu.select_object`, the first object by
//! default) says which object a launch loads.

use super::attrs::{is_default_select_object, is_object, select_object};
use silica_ir::dialect::{inherent_attr, Effects, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, OpSpec};

pub const BINARY: &str = "gpu.binary";

/// Creates `gpu.binary @name [objects]` at `loc`, unplaced, with the
/// offloading handler `handler` (the default `#gpu.select_object` when
/// none).
pub fn create(
    ctx: &mut Context,
    ir: &mut Ir,
    name: &str,
    handler: Option<Attr>,
    objects: &[Attr],
    loc: Attr,
) -> OpId {
    let handler = handler.unwrap_or_else(|| select_object(ctx, None));
    let props = properties(ctx, name, handler, objects);
    let op_name = ctx.sym(BINARY);
    let attrs = ctx.empty_dict();
    ir.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    })
}

fn properties(ctx: &mut Context, name: &str, handler: Attr, objects: &[Attr]) -> Attr {
    let objects = ctx.array_attr(objects);
    let sym = ctx.string_attr(name.as_bytes());
    let entries = vec![
        (ctx.sym("objects"), objects),
        (ctx.sym("offloadingHandler"), handler),
        (ctx.sym("sym_name"), sym),
    ];
    ctx.dict_attr(entries)
}

fn parse(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let name = p.parse_symbol_name()?;
    let handler = if p.eat(Tok::Less) {
        let h = p.parse_attribute()?;
        p.expect(Tok::Greater, "'>'")?;
        h
    } else {
        select_object(p.ctx(), None)
    };
    let attrs = p.parse_optional_attr_dict()?;
    let at = p.pos();
    let objects = p.parse_attribute()?;
    let ctx = p.ctx();
    let AttrKind::Array(list) = ctx.attr_kind(objects).clone() else {
        return p.error_at(at, "expected an array of GPU object attributes");
    };
    let text = ctx.str(name).to_string();
    let props = properties(ctx, &text, handler, &list);
    let loc = p.op_loc();
    let op_name = p.ctx().sym(BINARY);
    Ok(p.create_op(OpSpec {
        name: op_name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    }))
}

fn print(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let name = inherent_attr(ctx, ir, op, "sym_name").and_then(|a| match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    });
    let handler = inherent_attr(ctx, ir, op, "offloadingHandler")
        .filter(|&h| !is_default_select_object(ctx, h));
    let objects = inherent_attr(ctx, ir, op, "objects");
    p.write(" ");
    p.symbol_name(&name.unwrap_or_default());
    p.write(" ");
    if let Some(h) = handler {
        p.write("<");
        p.attr(h);
        p.write(">");
    }
    p.attr_dict(ir.op_attrs(op), &[], false);
    p.write(" ");
    if let Some(o) = objects {
        p.attr(o);
    }
}

fn verify(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let objects = inherent_attr(ctx, ir, op, "objects").map(|a| ctx.attr_kind(a));
    match objects {
        Some(AttrKind::Array(list)) if !list.is_empty() && list.iter().all(|&o| is_object(ctx, o)) => {
            Ok(())
        }
        _ => Err(v.op_error(
            op,
            "attribute 'objects' failed to satisfy constraint: an array of GPU object attributes with at least 1 elements",
        )),
    }
}

pub(super) const OPS: [OpDef; 1] = [OpDef {
    parse: Some(parse),
    print: Some(print),
    verify: Some(verify),
    inherent_attrs: &["objects", "offloadingHandler", "sym_name"],
    effects: Effects::Unknown,
    traits: Traits::NONE,
    ..OpDef::new(BINARY)
}];
