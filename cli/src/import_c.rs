//! `silica import-c FILE.c [--top F] [-I DIR] [-D NAME[=V]] [-std=S]`:
//! the MLIR silica reads from C (`silica_c`), printed.

use crate::c_input::CArgs;
use crate::driver::new_context;
use clap::Args;
use silica_ir::printer::{print_module_to, PrintFlags};
use std::process::ExitCode;

/// Arguments of `silica import-c`.
#[derive(Args, Debug)]
pub struct ImportCArgs {
    /// The C file.
    input: String,
    /// Only this function and the functions it calls (default: every
    /// function the file defines).
    #[arg(long)]
    top: Option<String>,
    #[command(flatten)]
    c: CArgs,
    /// Output file (default: standard output).
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// Print locations (`loc("kernel.c":3:5)`).
    #[arg(long = "mlir-print-debuginfo")]
    debug_info: bool,
}

/// Runs `silica import-c`.
pub fn run(args: &ImportCArgs) -> ExitCode {
    let mut ctx = new_context(false);
    let Some(module) = crate::c_input::import(&mut ctx, &args.input, args.top.as_deref(), &args.c)
    else {
        return ExitCode::FAILURE;
    };
    let flags = PrintFlags {
        debug_info: args.debug_info,
        ..PrintFlags::default()
    };
    let mut out = Vec::new();
    if let Err(e) = print_module_to(
        &ctx,
        &module.ir,
        module.top,
        &module.resources,
        flags,
        &mut out,
    ) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let written = if args.output == "-" {
        use std::io::Write;
        std::io::stdout().write_all(&out)
    } else {
        std::fs::write(&args.output, &out)
    };
    if let Err(e) = written {
        eprintln!("error: could not write output '{}': {e}", args.output);
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
