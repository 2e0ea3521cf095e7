//! The module's symbols besides functions, as mlir-translate writes
//! them: globals (`@g = internal constant i32 1, align 4`), aliases,
//! ifuncs, the `@llvm.global_ctors`/`@llvm.global_dtors` arrays (with
//! null data) and COMDATs (`$sel = comdat any`, and a symbol's
//! `comdat($sel)` clause); and the linkage, visibility and
//! `unnamed_addr` prefixes that functions share with them.

use super::types::ir_type;
use super::{constants, err, function, initializer, string_attr, type_attr};
use crate::dialect::alias::returned_type;
use crate::dialect::attrs::{enum_keyword, keyword_of};
use crate::dialect::comdat::selector_kind;
use crate::dialect::ctors::{items, list_name, symbol};
use crate::dialect::func_ops::{string_of, type_of_attr, UNNAMED_ADDRS, VISIBILITIES};
use crate::dialect::ifunc::resolver_name;
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId};

/// `linkage ` (with a trailing space) unless external.
pub(super) fn linkage_prefix(ctx: &Context, ir: &Ir, op: OpId) -> String {
    match inherent_attr(ctx, ir, op, "linkage").and_then(|a| keyword_of(ctx, a)) {
        None | Some("external") => String::new(),
        Some(l) => format!("{l} "),
    }
}

/// `@name = linkage alias T, ptr <aliasee>`: the aliasee is the constant
/// the initializer region returns.
pub(super) fn alias(ctx: &Context, ir: &Ir, op: OpId) -> Result<String, Box<Diagnostic>> {
    let name = string_attr(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    let ty = type_attr(ctx, inherent_attr(ctx, ir, op, "alias_type"))
        .ok_or_else(|| err(ir, op, "alias without a type"))?;
    let t = ir_type(ctx, ty).map_err(|m| err(ir, op, m))?;
    let ptr = returned_type(ctx, ir, op)
        .ok_or_else(|| err(ir, op, "alias initializer must return a pointer"))?;
    let p = ir_type(ctx, ptr).map_err(|m| err(ir, op, m))?;
    let region = ir
        .regions(op)
        .next()
        .ok_or_else(|| err(ir, op, "alias without an initializer"))?;
    let init = initializer::region_initializer(ctx, ir, op, region, ptr)?;
    let prefix = symbol_prefix(ctx, ir, op, true)?;
    Ok(format!("@{name} = {prefix}alias {t}, {p} {init}\n"))
}

/// `linkage dso_local visibility` of a function, global or alias; with
/// `data`, the `thread_local` and `unnamed_addr` that follow them on
/// globals and aliases (a function's `unnamed_addr` follows its
/// parameters).
pub(super) fn symbol_prefix(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    data: bool,
) -> Result<String, Box<Diagnostic>> {
    let mut prefix = linkage_prefix(ctx, ir, op);
    if inherent_attr(ctx, ir, op, "dso_local").is_some() {
        prefix.push_str("dso_local ");
    }
    if let Some(v) = enum_keyword(ctx, ir, op, "visibility_", VISIBILITIES) {
        if matches!(prefix.as_str(), "private " | "internal ") {
            return Err(err(
                ir,
                op,
                "a symbol with local linkage must have default visibility",
            ));
        }
        prefix.push_str(v);
        prefix.push(' ');
    }
    if data {
        if inherent_attr(ctx, ir, op, "thread_local_").is_some() {
            prefix.push_str("thread_local ");
        }
        prefix.push_str(&unnamed_addr(ctx, ir, op));
    }
    Ok(prefix)
}

/// `unnamed_addr ` or `local_unnamed_addr `, if the symbol has one.
pub(super) fn unnamed_addr(ctx: &Context, ir: &Ir, op: OpId) -> String {
    enum_keyword(ctx, ir, op, "unnamed_addr", UNNAMED_ADDRS)
        .map(|u| format!("{u} "))
        .unwrap_or_default()
}

/// `@name = linkage [constant|global] T init, align N`
pub(super) fn global(ctx: &Context, ir: &Ir, op: OpId) -> Result<String, Box<Diagnostic>> {
    let name = string_attr(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    let ty = type_attr(ctx, inherent_attr(ctx, ir, op, "global_type"))
        .ok_or_else(|| err(ir, op, "global without a type"))?;
    let t = ir_type(ctx, ty).map_err(|m| err(ir, op, m))?;
    let region = ir.regions(op).next().filter(|&r| !ir.region_is_empty(r));
    let value = inherent_attr(ctx, ir, op, "value");
    let linkage = symbol_prefix(ctx, ir, op, true)?;
    let mut kind = if inherent_attr(ctx, ir, op, "constant").is_some() {
        "constant"
    } else {
        "global"
    }
    .to_string();
    if inherent_attr(ctx, ir, op, "externally_initialized").is_some() {
        kind.insert_str(0, "externally_initialized ");
    }
    let space = match inherent_attr(ctx, ir, op, "addr_space").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) if *value != 0.into() => {
            format!("addrspace({value}) ")
        }
        _ => String::new(),
    };
    let mut s = match (value, region) {
        (_, Some(r)) => {
            let init = initializer::region_initializer(ctx, ir, op, r, ty)?;
            format!("@{name} = {linkage}{space}{kind} {t} {init}")
        }
        (Some(v), None) => {
            let init = constants::constant(ctx, v, ty).map_err(|m| err(ir, op, m))?;
            format!("@{name} = {linkage}{space}{kind} {t} {init}")
        }
        (None, None) if linkage_prefix(ctx, ir, op).is_empty() => {
            format!("@{name} = external {linkage}{space}{kind} {t}")
        }
        (None, None) => format!("@{name} = {linkage}{space}{kind} {t} undef"),
    };
    if let Some(AttrKind::String { value, .. }) =
        inherent_attr(ctx, ir, op, "section").map(|a| ctx.attr_kind(a))
    {
        s.push_str(&format!(", section {}", function::asm_quoted(value)));
    }
    let comdat = comdat_clause(ctx, ir, op, &name);
    if !comdat.is_empty() {
        s.push(',');
        s.push_str(&comdat);
    }
    if let Some(AttrKind::Integer { value, .. }) =
        inherent_attr(ctx, ir, op, "alignment").map(|a| ctx.attr_kind(a))
    {
        s.push_str(&format!(", align {value}"));
    }
    s.push('\n');
    Ok(s)
}

/// `@name = [linkage] [dso_local] [visibility] ifunc T, ptr @resolver`.
pub(super) fn ifunc(ctx: &Context, ir: &Ir, op: OpId) -> Result<String, Box<Diagnostic>> {
    let err = |m: &str| Box::new(Diagnostic::error(ir.op_loc(op), m));
    let name = string_of(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    let fty = type_of_attr(ctx, inherent_attr(ctx, ir, op, "i_func_type"))
        .ok_or_else(|| err("ifunc without a type"))?;
    let rty = type_of_attr(ctx, inherent_attr(ctx, ir, op, "resolver_type"))
        .ok_or_else(|| err("ifunc without a resolver type"))?;
    let f = ir_type(ctx, fty).map_err(|m| err(&m))?;
    let r = ir_type(ctx, rty).map_err(|m| err(&m))?;
    let resolver = resolver_name(ctx, ir, op).ok_or_else(|| err("ifunc without a resolver"))?;
    let mut prefix = linkage_prefix(ctx, ir, op);
    if inherent_attr(ctx, ir, op, "dso_local").is_some() {
        prefix.push_str("dso_local ");
    }
    if let Some(v) = enum_keyword(ctx, ir, op, "visibility_", VISIBILITIES) {
        prefix.push_str(v);
        prefix.push(' ');
    }
    if let Some(u) = enum_keyword(ctx, ir, op, "unnamed_addr", UNNAMED_ADDRS) {
        prefix.push_str(u);
        prefix.push(' ');
    }
    Ok(format!("@{name} = {prefix}ifunc {f}, {r} @{resolver}\n"))
}

/// `@llvm.global_ctors = appending global [N x { i32, ptr, ptr }] [...]`.
pub(super) fn ctors(ctx: &Context, ir: &Ir, op: OpId) -> Result<String, Box<Diagnostic>> {
    let list = list_name(ctx, ir, op);
    let funcs = items(ctx, ir, op, list);
    let priorities = items(ctx, ir, op, "priorities");
    let entry = "{ i32, ptr, ptr }";
    let init = if funcs.is_empty() {
        "zeroinitializer".to_string()
    } else {
        // The data pointer is null, as mlir-translate writes it.
        let parts: Vec<String> = funcs
            .iter()
            .zip(&priorities)
            .map(|(&f, &p)| {
                let priority = match ctx.attr_kind(p) {
                    AttrKind::Integer { value, .. } => value.to_string(),
                    _ => "0".into(),
                };
                let func = symbol(ctx, f).unwrap_or_default();
                format!("{entry} {{ i32 {priority}, ptr @{func}, ptr null }}")
            })
            .collect();
        format!("[{}]", parts.join(", "))
    };
    Ok(format!(
        "@llvm.global_{list} = appending global [{} x {entry}] {init}\n",
        funcs.len()
    ))
}

/// The `$name = comdat kind` lines of the module's comdats.
pub(super) fn comdats(ctx: &Context, ir: &Ir, module: OpId) -> String {
    let mut out = String::new();
    let ops = ir
        .regions(module)
        .flat_map(|r| ir.region_blocks(r))
        .flat_map(|b| ir.block_ops(b))
        .filter(|&o| ctx.str(ir.op_name(o)) == "llvm.comdat");
    for comdat in ops {
        for r in ir.regions(comdat) {
            for b in ir.region_blocks(r) {
                for s in ir.block_ops(b) {
                    let name =
                        string_of(ctx, inherent_attr(ctx, ir, s, "sym_name")).unwrap_or_default();
                    out.push_str(&format!("${name} = comdat {}\n", selector_kind(ctx, ir, s)));
                }
            }
        }
    }
    out
}

/// ` comdat` or ` comdat($selector)` for an object named `name` with a
/// `comdat(...)` clause; empty without one.
pub(super) fn comdat_clause(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> String {
    let Some(AttrKind::SymbolRef { root, nested }) =
        inherent_attr(ctx, ir, op, "comdat").map(|a| ctx.attr_kind(a))
    else {
        return String::new();
    };
    let selector = ctx.str(*nested.last().unwrap_or(root)).to_string();
    if selector == name {
        " comdat".to_string()
    } else {
        format!(" comdat(${selector})")
    }
}
