//! `silica translate`: MLIR in the llvm dialect to LLVM IR
//! (`--to-llvmir`, like `mlir-translate --mlir-to-llvmir`), and hw/comb/seq
//! modules to SystemVerilog (`--to-verilog`).

use crate::driver::{run_emit, IoArgs};
use clap::Args;
use std::process::ExitCode;

/// Arguments of `silica translate`.
#[derive(Args, Debug)]
pub struct TranslateArgs {
    #[command(flatten)]
    io: IoArgs,
    /// Translate a module in the llvm dialect to LLVM IR.
    #[arg(
        long = "to-llvmir",
        alias = "mlir-to-llvmir",
        required_unless_present = "to_verilog",
        conflicts_with = "to_verilog"
    )]
    to_llvmir: bool,
    /// Translate hw/comb/seq modules to SystemVerilog.
    #[arg(long = "to-verilog", alias = "export-verilog")]
    to_verilog: bool,
    /// With `--to-verilog`: full SystemVerilog as CIRCT writes it (packed
    /// structs and arrays kept, at ports too; type aliases as typedefs).
    /// The default flattens them to bit vectors, which yosys 0.23 reads.
    #[arg(long = "full-sv", requires = "to_verilog")]
    full_sv: bool,
}

/// Runs `silica translate`.
pub fn run(args: &TranslateArgs) -> ExitCode {
    if args.to_verilog {
        return run_emit(&args.io, &mut |ctx, m| {
            let options = silica_emit_verilog::Options {
                full_sv: args.full_sv,
            };
            silica_emit_verilog::emit_verilog(ctx, &m.ir, m.top, options).map(String::into_bytes)
        });
    }
    run_emit(&args.io, &mut |ctx, m| {
        silica_emit_llvm::translate::translate_module(ctx, &m.ir, m.top).map(String::into_bytes)
    })
}
