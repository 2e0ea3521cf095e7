//! `silica translate`: MLIR in the llvm dialect to LLVM IR
//! (`--to-llvmir`, like `mlir-translate --mlir-to-llvmir`).

use crate::driver::{run_emit, IoArgs};
use clap::Args;
use std::process::ExitCode;

/// Arguments of `silica translate`.
#[derive(Args, Debug)]
pub struct TranslateArgs {
    #[command(flatten)]
    io: IoArgs,
    /// Translate a module in the llvm dialect to LLVM IR.
    #[arg(long = "to-llvmir", alias = "mlir-to-llvmir", required = true)]
    to_llvmir: bool,
}

/// Runs `silica translate`.
pub fn run(args: &TranslateArgs) -> ExitCode {
    debug_assert!(args.to_llvmir);
    run_emit(&args.io, &mut |ctx, m| {
        silica_emit_llvm::translate::translate_module(ctx, &m.ir, m.top).map(String::into_bytes)
    })
}
