//! Translation of a module in the llvm dialect to LLVM IR text
//! (`silica translate --to-llvmir`), as MLIR's `mlir-translate
//! --mlir-to-llvmir` means it: globals, declarations and definitions;
//! block arguments become `phi` nodes; constants, `undef`, `poison`,
//! `zero` and `addressof` fold into their users' operands; intrinsic ops
//! call declared `@llvm.*` functions. Any op or type without a
//! translation is an error at the op, and nothing is written.

mod attributes;
mod constants;
mod function;
mod initializer;
mod loop_metadata;
mod types;

use crate::attrs::keyword_of;
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Type};
use std::collections::BTreeMap;

pub use types::{float_name, ir_type};

/// `!"text"`, escaped as LLVM prints metadata strings.
pub(crate) fn metadata_string(bytes: &[u8]) -> String {
    format!("!{}", function::asm_quoted(bytes))
}

/// What the translation of one module collects besides its text.
struct ModuleState {
    /// Intrinsic declarations by name.
    intrinsics: BTreeMap<String, String>,
    /// Loop and access-group metadata.
    metadata: loop_metadata::Metadata,
}

fn err(ir: &Ir, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg))
}

fn string_attr(ctx: &Context, a: Option<Attr>) -> Option<String> {
    match ctx.attr_kind(a?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

fn type_attr(ctx: &Context, a: Option<Attr>) -> Option<Type> {
    match ctx.attr_kind(a?) {
        AttrKind::Type(t) => Some(*t),
        _ => None,
    }
}

/// `linkage ` (with a trailing space) unless external.
fn linkage_prefix(ctx: &Context, ir: &Ir, op: OpId) -> String {
    match inherent_attr(ctx, ir, op, "linkage").and_then(|a| keyword_of(ctx, a)) {
        None | Some("external") => String::new(),
        Some(l) => format!("{l} "),
    }
}

/// The LLVM IR of the module `module` (a `builtin.module` whose ops are
/// llvm ops).
pub fn translate_module(ctx: &Context, ir: &Ir, module: OpId) -> Result<String, Box<Diagnostic>> {
    let mut out =
        String::from("; ModuleID = 'LLVMDialectModule'\nsource_filename = \"LLVMDialectModule\"\n");
    let attrs = ir.op_attrs(module);
    for &(k, v) in ctx.dict_entries(attrs) {
        let text = string_attr(ctx, Some(v));
        match (ctx.str(k), text) {
            ("llvm.data_layout", Some(t)) if !t.is_empty() => {
                out.push_str(&format!("target datalayout = \"{t}\"\n"));
            }
            ("llvm.target_triple", Some(t)) if !t.is_empty() => {
                out.push_str(&format!("target triple = \"{t}\"\n"));
            }
            _ => {}
        }
    }
    out.push_str(&crate::comdat::translate_comdats(ctx, ir, module));
    let structs = types::struct_definitions(ctx, ir, module).map_err(|m| err(ir, module, m))?;
    if !structs.is_empty() {
        out.push('\n');
        out.push_str(&structs);
    }
    let mut state = ModuleState {
        intrinsics: BTreeMap::new(),
        metadata: loop_metadata::Metadata::new(crate::module_flags::node_count(ctx, ir, module)),
    };
    let body: Vec<OpId> = ir
        .regions(module)
        .next()
        .and_then(|r| ir.entry_block(r))
        .map(|b| ir.block_ops(b).collect())
        .unwrap_or_default();
    let mut globals = String::new();
    let mut functions = String::new();
    for op in body {
        match ctx.str(ir.op_name(op)) {
            "llvm.mlir.global" => globals.push_str(&global(ctx, ir, op)?),
            "llvm.mlir.alias" => globals.push_str(&alias(ctx, ir, op)?),
            "llvm.mlir.ifunc" => {
                let prefix = linkage_prefix(ctx, ir, op);
                globals.push_str(&crate::ifunc::translate(ctx, ir, op, prefix)?)
            }
            "llvm.mlir.global_ctors" | "llvm.mlir.global_dtors" => {
                globals.push_str(&crate::ctors::translate(ctx, ir, op)?)
            }
            "llvm.comdat" | "llvm.module_flags" => {}
            "llvm.func" => {
                functions.push('\n');
                functions.push_str(&function::function(ctx, ir, op, &mut state)?);
            }
            name => {
                return Err(err(
                    ir,
                    op,
                    format!(
                        "'{name}' has no LLVM IR translation (lower it to the llvm dialect first)"
                    ),
                ))
            }
        }
    }
    if !globals.is_empty() {
        out.push('\n');
        out.push_str(&globals);
    }
    out.push_str(&functions);
    for decl in state.intrinsics.values() {
        out.push('\n');
        out.push_str(decl);
        out.push('\n');
    }
    let flags = crate::module_flags::translate(ctx, ir, module).map_err(|m| err(ir, module, m))?;
    out.push_str(&flags);
    let metadata = state.metadata.text();
    if !metadata.is_empty() {
        if flags.is_empty() {
            out.push('\n');
        }
        out.push_str(&metadata);
    }
    Ok(out)
}

/// `@name = linkage alias T, ptr <aliasee>`: the aliasee is the constant
/// the initializer region returns.
fn alias(ctx: &Context, ir: &Ir, op: OpId) -> Result<String, Box<Diagnostic>> {
    let name = string_attr(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    let ty = type_attr(ctx, inherent_attr(ctx, ir, op, "alias_type"))
        .ok_or_else(|| err(ir, op, "alias without a type"))?;
    let t = types::ir_type(ctx, ty).map_err(|m| err(ir, op, m))?;
    let ptr = crate::alias::returned_type(ctx, ir, op)
        .ok_or_else(|| err(ir, op, "alias initializer must return a pointer"))?;
    let p = types::ir_type(ctx, ptr).map_err(|m| err(ir, op, m))?;
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
    if let Some(v) =
        crate::attrs::enum_keyword(ctx, ir, op, "visibility_", crate::func_ops::VISIBILITIES)
    {
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
    crate::attrs::enum_keyword(ctx, ir, op, "unnamed_addr", crate::func_ops::UNNAMED_ADDRS)
        .map(|u| format!("{u} "))
        .unwrap_or_default()
}

/// `@name = linkage [constant|global] T init, align N`
fn global(ctx: &Context, ir: &Ir, op: OpId) -> Result<String, Box<Diagnostic>> {
    let name = string_attr(ctx, inherent_attr(ctx, ir, op, "sym_name")).unwrap_or_default();
    let ty = type_attr(ctx, inherent_attr(ctx, ir, op, "global_type"))
        .ok_or_else(|| err(ir, op, "global without a type"))?;
    let t = types::ir_type(ctx, ty).map_err(|m| err(ir, op, m))?;
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
    let comdat = crate::comdat::translate_clause(ctx, ir, op, &name);
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
