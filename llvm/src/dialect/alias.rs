//! `llvm.mlir.alias`: a symbol for the address its initializer region
//! computes, in MLIR's syntax (`llvm.mlir.alias linkage [visibility]
//! [thread_local] [unnamed_addr] @name {attrs} : type { ... }`), checked
//! and translated to an LLVM IR `alias`.

use crate::dialect::attrs::{enum_keyword, keyword_attr, keyword_of, LINKAGES};
use crate::dialect::func_ops::{
    i64_attr, print_extra_attrs, prop, split_attrs, string_of, type_of_attr, UNNAMED_ADDRS,
    VISIBILITIES,
};
use silica_ir::dialect::{inherent_attr, OpDef, Traits};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{AttrKind, Context, Ir, OpId, OpSpec};

const INHERENT: &[&str] = &[
    "alias_type",
    "sym_name",
    "linkage",
    "dso_local",
    "thread_local_",
    "unnamed_addr",
    "visibility_",
];

/// The prefix keywords in print order, as `(property, keyword list)`.
const PREFIX: [(&str, &[&str]); 2] = [
    ("visibility_", VISIBILITIES),
    ("unnamed_addr", UNNAMED_ADDRS),
];

fn parse(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut props = Vec::new();
    let at = p.pos();
    let linkage = p.parse_keyword()?;
    if !LINKAGES.contains(&linkage) {
        return p.error_at(at, "expected a linkage");
    }
    let ctx = p.ctx();
    let l = keyword_attr(ctx, "linkage", linkage);
    prop(ctx, &mut props, "linkage", l);
    let mut numbers = [0i64; 2];
    let visibility = VISIBILITIES
        .iter()
        .position(|v| !v.is_empty() && p.eat_keyword(v));
    numbers[0] = visibility.unwrap_or(0) as i64;
    if p.eat_keyword("thread_local") {
        let ctx = p.ctx();
        let u = ctx.unit_attr();
        prop(ctx, &mut props, "thread_local_", u);
    }
    let unnamed = UNNAMED_ADDRS
        .iter()
        .position(|v| !v.is_empty() && p.eat_keyword(v));
    numbers[1] = unnamed.unwrap_or(0) as i64;
    for ((key, _), n) in PREFIX.iter().zip(numbers) {
        let ctx = p.ctx();
        let a = i64_attr(ctx, n);
        prop(ctx, &mut props, key, a);
    }
    let name = p.parse_symbol_name()?;
    let attrs = p.parse_optional_attr_dict()?;
    p.expect(Tok::Colon, "':'")?;
    let ty = p.parse_type()?;
    let region = p.ir().create_region();
    p.parse_region_with_args(region, &[])?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let t = ctx.intern_attr(AttrKind::Type(ty));
    prop(ctx, &mut props, "alias_type", t);
    let text = ctx.str(name).as_bytes().to_vec();
    let n = ctx.string_attr(&text);
    prop(ctx, &mut props, "sym_name", n);
    let attrs = split_attrs(ctx, attrs, INHERENT, &mut props);
    let props = ctx.dict_attr(props);
    let name = ctx.sym("llvm.mlir.alias");
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

fn print(p: &mut AsmPrinter<'_, '_>, op: OpId) {
    let (ctx, ir) = (p.ctx(), p.ir());
    let linkage = inherent_attr(ctx, ir, op, "linkage")
        .and_then(|a| keyword_of(ctx, a))
        .unwrap_or("external");
    p.write(" ");
    p.write(linkage);
    let keyword = |key: &str, names: &[&'static str]| enum_keyword(ctx, ir, op, key, names);
    let visibility = keyword("visibility_", VISIBILITIES);
    let unnamed = keyword("unnamed_addr", UNNAMED_ADDRS);
    let thread_local = inherent_attr(ctx, ir, op, "thread_local_").is_some();
    if let Some(v) = visibility {
        p.write(" ");
        p.write(v);
    }
    if thread_local {
        p.write(" thread_local");
    }
    if let Some(u) = unnamed {
        p.write(" ");
        p.write(u);
    }
    p.write(" ");
    let name = string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    p.symbol_name(&name);
    // `dso_local` is printed in the attribute dictionary.
    let elided: Vec<&str> = INHERENT
        .iter()
        .copied()
        .filter(|k| *k != "dso_local")
        .collect();
    print_extra_attrs(p, op, &elided, false);
    let (ctx, ir) = (p.ctx(), p.ir());
    if let Some(t) = type_of_attr(ctx, inherent_attr(ctx, ir, op, "alias_type")) {
        p.write(" : ");
        p.ty(t);
    }
    if let Some(r) = p.ir().regions(op).next() {
        p.write(" ");
        p.region(r, false, true);
    }
}

/// The alias's type is set and its region returns a pointer.
fn verify(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let Some(ty) = type_of_attr(ctx, inherent_attr(ctx, ir, op, "alias_type")) else {
        return Err(v.op_error(op, "requires attribute 'alias_type'"));
    };
    if !crate::dialect::func_ops::valid_global_type(ctx, ty) {
        return Err(v.op_error(
            op,
            "expects type to be a valid element type for an LLVM global alias",
        ));
    }
    let linkage = inherent_attr(ctx, ir, op, "linkage")
        .and_then(|a| crate::dialect::attrs::keyword_of(ctx, a))
        .unwrap_or("external");
    const ALIAS_LINKAGES: &[&str] = &[
        "external",
        "internal",
        "private",
        "weak",
        "weak_odr",
        "linkonce",
        "linkonce_odr",
        "available_externally",
    ];
    if !ALIAS_LINKAGES.contains(&linkage) {
        return Err(v.op_error(
            op,
            format!("'{linkage}' linkage not supported in aliases, available options: private, internal, linkonce, weak, linkonce_odr, weak_odr, external or available_externally"),
        ));
    }
    let returned = returned_type(ctx, ir, op);
    if !returned.is_some_and(|t| crate::dialect::types::is_ptr(ctx, t)) {
        return Err(v.op_error(op, "initializer region must always return a pointer"));
    }
    let block = ir.regions(op).next().and_then(|r| ir.entry_block(r));
    let effectful = block.and_then(|b| crate::dialect::func_ops::first_effectful_op(ctx, ir, b));
    if let Some(o) = effectful {
        return Err(v.error(
            o,
            "ops with side effects are not allowed in alias initializers",
        ));
    }
    Ok(())
}

/// The type the initializer region returns.
pub(crate) fn returned_type(ctx: &Context, ir: &Ir, op: OpId) -> Option<silica_ir::Type> {
    let block = ir.regions(op).next().and_then(|r| ir.entry_block(r))?;
    let ret = ir.last_op(block)?;
    (ctx.str(ir.op_name(ret)) == "llvm.return" && ir.num_operands(ret) == 1)
        .then(|| ir.value_type(ir.operand(ret, 0)))
}

pub(crate) const ALIAS: OpDef = OpDef {
    verify: Some(verify),
    traits: Traits::ISOLATED_FROM_ABOVE,
    inherent_attrs: INHERENT,
    parse: Some(parse),
    print: Some(print),
    ..OpDef::new("llvm.mlir.alias")
};
