//! `llvm.mlir.ifunc`: a function symbol whose address a resolver function
//! picks at load time, in MLIR's syntax (`llvm.mlir.ifunc [linkage]
//! [visibility] [unnamed_addr] @name : !llvm.func<...>, !llvm.ptr
//! @resolver {attrs}`), checked as MLIR checks it and translated to an
//! LLVM IR `ifunc`.

use crate::dialect::attrs::{enum_keyword, keyword_attr, keyword_of, LINKAGES};
use crate::dialect::func_ops::{
    i64_attr, print_extra_attrs, prop, split_attrs, string_of, type_of_attr, UNNAMED_ADDRS,
    VISIBILITIES,
};
use silica_ir::dialect::{inherent_attr, OpDef};
use silica_ir::lexer::Tok;
use silica_ir::parser::{AsmParser, PResult};
use silica_ir::printer::AsmPrinter;
use silica_ir::verify::OpVerifier;
use silica_ir::{AttrKind, Context, Ir, OpId, OpSpec};

const INHERENT: &[&str] = &[
    "address_space",
    "dso_local",
    "i_func_type",
    "linkage",
    "resolver",
    "resolver_type",
    "sym_name",
    "unnamed_addr",
    "visibility_",
];

fn parse(p: &mut AsmParser<'_, '_>) -> PResult<OpId> {
    let mut props = Vec::new();
    let linkage = LINKAGES
        .iter()
        .find(|l| p.eat_keyword(l))
        .copied()
        .unwrap_or("external");
    let visibility = VISIBILITIES
        .iter()
        .position(|v| !v.is_empty() && p.eat_keyword(v))
        .unwrap_or(0);
    let unnamed = UNNAMED_ADDRS
        .iter()
        .position(|v| !v.is_empty() && p.eat_keyword(v))
        .unwrap_or(0);
    let name = p.parse_symbol_name()?;
    p.expect(Tok::Colon, "':'")?;
    let fty = p.parse_type()?;
    p.expect(Tok::Comma, "','")?;
    let rty = p.parse_type()?;
    let resolver = p.parse_symbol_name()?;
    let attrs = p.parse_optional_attr_dict()?;
    let loc = p.op_loc();
    let ctx = p.ctx();
    let i32t = ctx.signless(32);
    let space = ctx.int_attr(i32t, 0);
    prop(ctx, &mut props, "address_space", space);
    let f = ctx.intern_attr(AttrKind::Type(fty));
    prop(ctx, &mut props, "i_func_type", f);
    let l = keyword_attr(ctx, "linkage", linkage);
    prop(ctx, &mut props, "linkage", l);
    let r = ctx.intern_attr(AttrKind::SymbolRef {
        root: resolver,
        nested: Box::new([]),
    });
    prop(ctx, &mut props, "resolver", r);
    let rt = ctx.intern_attr(AttrKind::Type(rty));
    prop(ctx, &mut props, "resolver_type", rt);
    let text = ctx.str(name).as_bytes().to_vec();
    let n = ctx.string_attr(&text);
    prop(ctx, &mut props, "sym_name", n);
    let u = i64_attr(ctx, unnamed as i64);
    prop(ctx, &mut props, "unnamed_addr", u);
    let v = i64_attr(ctx, visibility as i64);
    prop(ctx, &mut props, "visibility_", v);
    let attrs = split_attrs(ctx, attrs, INHERENT, &mut props);
    let props = ctx.dict_attr(props);
    let op_name = ctx.sym("llvm.mlir.ifunc");
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
    let linkage = inherent_attr(ctx, ir, op, "linkage")
        .and_then(|a| keyword_of(ctx, a))
        .unwrap_or("external");
    p.write(" ");
    p.write(linkage);
    for (key, names) in [
        ("visibility_", VISIBILITIES),
        ("unnamed_addr", UNNAMED_ADDRS),
    ] {
        if let Some(k) = enum_keyword(ctx, ir, op, key, names) {
            p.write(" ");
            p.write(k);
        }
    }
    p.write(" ");
    let name = string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    p.symbol_name(&name);
    p.write(" : ");
    if let Some(t) = type_of_attr(ctx, inherent_attr(ctx, ir, op, "i_func_type")) {
        p.ty(t);
    }
    p.write(", ");
    if let Some(t) = type_of_attr(ctx, inherent_attr(ctx, ir, op, "resolver_type")) {
        p.ty(t);
    }
    p.write(" ");
    if let Some(r) = resolver_name(ctx, ir, op) {
        p.symbol_name(&r);
    }
    // `dso_local` is printed in the attribute dictionary.
    let elided: Vec<&str> = INHERENT
        .iter()
        .copied()
        .filter(|k| *k != "dso_local")
        .collect();
    print_extra_attrs(p, op, &elided, false);
}

pub(crate) fn resolver_name(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, "resolver")?) {
        AttrKind::SymbolRef { root, .. } => Some(ctx.str(*root).to_string()),
        _ => None,
    }
}

/// The function a resolver symbol names, through aliases of it.
fn resolver_function(ctx: &Context, ir: &Ir, op: OpId) -> Option<OpId> {
    let mut target =
        silica_ir::symbols::lookup_from(ctx, ir, op, inherent_attr(ctx, ir, op, "resolver")?)?;
    for _ in 0..16 {
        match ctx.str(ir.op_name(target)) {
            "llvm.func" => return Some(target),
            "llvm.mlir.alias" => {
                let block = ir.regions(target).next().and_then(|r| ir.entry_block(r))?;
                let addr = ir
                    .block_ops(block)
                    .find(|&o| ctx.str(ir.op_name(o)) == "llvm.mlir.addressof")?;
                let name = inherent_attr(ctx, ir, addr, "global_name")?;
                target = silica_ir::symbols::lookup_from(ctx, ir, op, name)?;
            }
            _ => return None,
        }
    }
    None
}

/// Not `common` linkage; the resolver a defined function (or an alias of
/// one).
fn verify(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let linkage = inherent_attr(ctx, ir, op, "linkage").and_then(|a| keyword_of(ctx, a));
    if linkage == Some("common") {
        return Err(v.op_error(op, "'common' linkage not supported in ifuncs"));
    }
    let Some(f) = resolver_function(ctx, ir, op) else {
        return Err(v.op_error(op, "must have a function resolver"));
    };
    if ir.regions(f).next().is_none_or(|r| ir.region_is_empty(r)) {
        return Err(v.op_error(op, "resolver must be a definition"));
    }
    Ok(())
}

pub(crate) const IFUNC: OpDef = OpDef {
    verify: Some(verify),
    inherent_attrs: INHERENT,
    parse: Some(parse),
    print: Some(print),
    ..OpDef::new("llvm.mlir.ifunc")
};
