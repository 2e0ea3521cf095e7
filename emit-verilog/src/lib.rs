//! SystemVerilog from hw/comb/seq modules (`silica translate
//! --to-verilog`): one Verilog module per `hw.module`, written for the
//! open tools (accepted by yosys 0.23, lint-clean in Verilator,
//! compiled by Icarus). A construct the emitter cannot write is an error
//! at its op, and nothing is written.

mod module;
mod names;

use silica_hw_dialects::types::Port;
use silica_ir::diag::Diagnostic;
use silica_ir::{Context, Ir, OpId};

/// The Verilog of every `hw.module` in the `builtin.module` `top`.
pub fn emit_verilog(ctx: &Context, ir: &Ir, top: OpId) -> Result<String, Box<Diagnostic>> {
    let mut out = String::new();
    let Some(block) = ir.regions(top).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(out);
    };
    let mut first = true;
    for op in ir.block_ops(block) {
        match ctx.str(ir.op_name(op)) {
            "hw.module" => {
                if !first {
                    out.push('\n');
                }
                first = false;
                module::ModuleEmitter::new(ctx, ir, op).emit(&mut out)?;
            }
            // Type declarations: aliases are emitted as the types they name.
            "hw.module.extern" | "hw.type_scope" => {}
            name => {
                return Err(Box::new(Diagnostic::error(
                    ir.op_loc(op),
                    format!("'{name}' cannot be emitted as Verilog"),
                )))
            }
        }
    }
    Ok(out)
}

/// The Verilog names of a module's ports, in port order (each module
/// names its ports first, so callers and callee agree).
pub(crate) fn port_names(ports: &[Port]) -> Vec<String> {
    let mut ns = names::Namespace::default();
    ports.iter().map(|p| ns.fresh(&p.name)).collect()
}

/// The Verilog names of a module's parameters, named after its ports
/// (`port_names`) in one namespace.
pub(crate) fn param_names(
    port_names: &[String],
    decls: &[silica_hw_dialects::params::Decl],
) -> Vec<String> {
    let mut ns = names::Namespace::default();
    for p in port_names {
        ns.fresh(p);
    }
    decls.iter().map(|d| ns.fresh(&d.name)).collect()
}

/// A module's Verilog name.
pub(crate) fn legal_module_name(name: &str) -> String {
    names::Namespace::default().fresh(name)
}
