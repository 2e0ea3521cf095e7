//! SystemVerilog from hw/comb/seq modules (`silica translate
//! --to-verilog`): one Verilog module per `hw.module`, written for the
//! open tools (accepted by yosys 0.23, lint-clean in Verilator,
//! compiled by Icarus). A construct the emitter cannot write is an error
//! at its op, and nothing is written. `Options::full_sv` keeps struct
//! and array types and writes type aliases as typedefs, as CIRCT does.

mod module;
mod names;
mod sv_types;

use silica_hw_dialects::types::Port;
use silica_ir::diag::Diagnostic;
use silica_ir::{Context, Ir, OpId};

/// How the Verilog is written.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Keep struct and array types (packed, at ports too) and write type
    /// aliases as typedefs, as CIRCT does; yosys 0.23 rejects packed
    /// arrays at ports, so the default flattens them to bit vectors.
    pub full_sv: bool,
}

/// The Verilog of every `hw.module` in the `builtin.module` `top`.
pub fn emit_verilog(
    ctx: &Context,
    ir: &Ir,
    top: OpId,
    options: Options,
) -> Result<String, Box<Diagnostic>> {
    let units = emit_verilog_units(ctx, ir, top, options)?;
    let texts: Vec<String> = units.into_iter().map(|u| u.text).collect();
    Ok(texts.join("\n"))
}

/// One piece of the Verilog of a design: a module, or the typedefs of a
/// type scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The module's Verilog name, or the type scope's symbol.
    pub name: String,
    pub text: String,
}

/// The Verilog of `top` as its pieces, in order (`emit_verilog` joins
/// them; `--split-verilog` writes each to its own file).
pub fn emit_verilog_units(
    ctx: &Context,
    ir: &Ir,
    top: OpId,
    options: Options,
) -> Result<Vec<Unit>, Box<Diagnostic>> {
    let mut units = Vec::new();
    let flavor = sv_types::Flavor::new(ctx, ir, top, options.full_sv);
    let Some(block) = ir.regions(top).next().and_then(|r| ir.entry_block(r)) else {
        return Ok(units);
    };
    for op in ir.block_ops(block) {
        match ctx.str(ir.op_name(op)) {
            "hw.module" => {
                let mut text = String::new();
                module::ModuleEmitter::new(ctx, ir, op, &flavor).emit(&mut text)?;
                let name = silica_hw_dialects::hw::symbol_name(ctx, ir, op);
                units.push(Unit {
                    name: legal_module_name(&name),
                    text,
                });
            }
            // Type declarations: typedefs in full SystemVerilog, else
            // aliases are emitted as the types they name.
            "hw.type_scope" => {
                let text = flavor.typedefs(ctx, ir, op);
                if !text.is_empty() {
                    let name = silica_hw_dialects::hw::symbol_name(ctx, ir, op);
                    units.push(Unit { name, text });
                }
            }
            "hw.module.extern" => {}
            name => {
                return Err(Box::new(Diagnostic::error(
                    ir.op_loc(op),
                    format!("'{name}' cannot be emitted as Verilog"),
                )))
            }
        }
    }
    Ok(units)
}

/// The Verilog names of a module's ports, in port order (each module
/// names its ports first, in a namespace where only the typedefs are
/// taken, so callers and callee agree).
pub(crate) fn port_names(flavor: &sv_types::Flavor, ports: &[Port]) -> Vec<String> {
    let mut ns = flavor.namespace();
    ports.iter().map(|p| ns.fresh(&p.name)).collect()
}

/// The Verilog names of a module's parameters, named after its ports
/// (`port_names`) in one namespace.
pub(crate) fn param_names(
    flavor: &sv_types::Flavor,
    port_names: &[String],
    decls: &[silica_hw_dialects::hw::params::Decl],
) -> Vec<String> {
    let mut ns = flavor.namespace();
    for p in port_names {
        ns.fresh(p);
    }
    decls.iter().map(|d| ns.fresh(&d.name)).collect()
}

/// A module's Verilog name.
pub(crate) fn legal_module_name(name: &str) -> String {
    names::Namespace::default().fresh(name)
}

/// Whether `name` is emitted unchanged as a module's name: an identifier
/// and no SystemVerilog keyword.
pub fn is_legal_module_name(name: &str) -> bool {
    legal_module_name(name) == name
}
