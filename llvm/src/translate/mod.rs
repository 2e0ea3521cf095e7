//! Translation of a module in the llvm dialect to LLVM IR text
//! (`silica translate --to-llvmir`), as MLIR's `mlir-translate
//! --mlir-to-llvmir` means it: globals, declarations and definitions;
//! block arguments become `phi` nodes; constants, `undef`, `poison`,
//! `zero` and `addressof` fold into their users' operands; intrinsic ops
//! call declared `@llvm.*` functions. Any op or type without a
//! translation is an error at the op, and nothing is written.
//!
//! Functions are written by `function`, the module's other symbols
//! (globals, aliases, ifuncs, ctors, COMDATs) by `symbols`; `types`,
//! `constants`, `initializer`, `attributes`, `loop_metadata` and
//! `module_flags` write the parts they name.

mod attributes;
mod constants;
mod function;
mod initializer;
mod loop_metadata;
mod module_flags;
mod symbols;
mod types;

use silica_ir::diag::Diagnostic;
use silica_ir::{Attr, AttrKind, Context, Ir, OpId, Type};
use std::collections::BTreeMap;

/// `!"text"`, escaped as LLVM prints metadata strings.
fn metadata_string(bytes: &[u8]) -> String {
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
    out.push_str(&symbols::comdats(ctx, ir, module));
    let structs = types::struct_definitions(ctx, ir, module).map_err(|m| err(ir, module, m))?;
    if !structs.is_empty() {
        out.push('\n');
        out.push_str(&structs);
    }
    let mut state = ModuleState {
        intrinsics: BTreeMap::new(),
        metadata: loop_metadata::Metadata::new(module_flags::node_count(ctx, ir, module)),
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
            "llvm.mlir.global" => globals.push_str(&symbols::global(ctx, ir, op)?),
            "llvm.mlir.alias" => globals.push_str(&symbols::alias(ctx, ir, op)?),
            "llvm.mlir.ifunc" => globals.push_str(&symbols::ifunc(ctx, ir, op)?),
            "llvm.mlir.global_ctors" | "llvm.mlir.global_dtors" => {
                globals.push_str(&symbols::ctors(ctx, ir, op)?)
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
    let flags = module_flags::metadata(ctx, ir, module).map_err(|m| err(ir, module, m))?;
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
