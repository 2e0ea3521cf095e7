//! `llvm.mlir.global_ctors` and `llvm.mlir.global_dtors`: the functions a
//! program runs before `main` and at exit, with their priorities and data
//! (a symbol or `#llvm.zero`); checked as MLIR checks them and translated
//! to LLVM's `@llvm.global_ctors`/`@llvm.global_dtors` arrays (with null
//! data, as `mlir-translate` writes them).

use silica_ir::dialect::inherent_attr;
use silica_ir::parser::PResult;
use silica_ir::verify::OpVerifier;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId};

/// `ctors` or `dtors`: the list's attribute name for the op.
pub(crate) fn list_name(ctx: &Context, ir: &Ir, op: OpId) -> &'static str {
    if ctx.str(ir.op_name(op)) == "llvm.mlir.global_ctors" {
        "ctors"
    } else {
        "dtors"
    }
}

pub(crate) fn items(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Vec<Attr> {
    match inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Array(items)) => items.to_vec(),
        _ => Vec::new(),
    }
}

pub(crate) fn symbol(ctx: &Context, a: Attr) -> Option<&str> {
    match ctx.attr_kind(a) {
        AttrKind::SymbolRef { root, nested } if nested.is_empty() => Some(ctx.str(*root)),
        _ => None,
    }
}

fn is_zero(ctx: &Context, a: Attr) -> bool {
    matches!(ctx.attr_kind(a), AttrKind::Dialect { name, .. } if ctx.str(*name) == "zero")
}

/// The lists have one length; each function is a defined `llvm.func`;
/// each data element a symbol or `#llvm.zero`.
pub(crate) fn verify(v: &mut OpVerifier<'_, '_>, op: OpId) -> PResult<()> {
    let (ctx, ir) = (v.ctx(), v.ir());
    let list = list_name(ctx, ir, op);
    let funcs = items(ctx, ir, op, list);
    let priorities = items(ctx, ir, op, "priorities");
    let data = items(ctx, ir, op, "data");
    if funcs.len() != priorities.len() || funcs.len() != data.len() {
        let msg = format!("{list}, priorities, and data must have the same number of elements");
        return Err(v.op_error(op, msg));
    }
    for &f in &funcs {
        let name = symbol(ctx, f).unwrap_or_default().to_string();
        let target = silica_ir::symbols::lookup_from(ctx, ir, op, f)
            .filter(|&t| ctx.str(ir.op_name(t)) == "llvm.func");
        let Some(target) = target else {
            return Err(v.op_error(
                op,
                format!("'{name}' does not reference a valid LLVM function"),
            ));
        };
        if ir
            .regions(target)
            .next()
            .is_none_or(|r| ir.region_is_empty(r))
        {
            return Err(v.op_error(op, format!("'{name}' does not have a definition")));
        }
    }
    if data
        .iter()
        .any(|&d| symbol(ctx, d).is_none() && !is_zero(ctx, d))
    {
        return Err(v.op_error(op, "data element must be symbol or #llvm.zero"));
    }
    Ok(())
}
