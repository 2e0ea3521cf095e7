//! `silica translate`: MLIR in the llvm dialect to LLVM IR
//! (`--to-llvmir`, like `mlir-translate --mlir-to-llvmir`), and hw/comb/seq
//! modules to SystemVerilog (`--to-verilog`), in one file or, with
//! `--split-verilog`, one file per module.

use crate::driver::{run_emit, IoArgs};
use clap::Args;
use silica_ir::diag::Diagnostic;
use std::path::Path;
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
    /// With `--to-verilog`: one file per module (`<module>.sv`; typedefs
    /// in `<type scope>.sv`) in the directory `-o` names, listed in
    /// compilation order in its `filelist.f`, as CIRCT's `--split-verilog`
    /// does. Nothing is written when the design has an error.
    #[arg(long = "split-verilog", requires = "to_verilog")]
    split_verilog: bool,
}

/// Runs `silica translate`.
pub fn run(args: &TranslateArgs) -> ExitCode {
    if args.split_verilog {
        return split_verilog(args);
    }
    if args.to_verilog {
        return run_emit(&args.io, &mut |ctx, m| {
            let options = silica_emit_verilog::Options {
                full_sv: args.full_sv,
            };
            silica_emit_verilog::emit_verilog(ctx, &m.ir, m.top, options).map(String::into_bytes)
        });
    }
    run_emit(&args.io, &mut |ctx, m| {
        silica_llvm::translate::translate_module(ctx, &m.ir, m.top).map(String::into_bytes)
    })
}

/// `--split-verilog`: the units of the design written to the directory
/// `-o` names; the output stream gets nothing.
fn split_verilog(args: &TranslateArgs) -> ExitCode {
    let dir = args.io.output().to_string();
    if dir == "-" {
        eprintln!("error: --split-verilog writes a directory of files: give it with -o DIR");
        return ExitCode::FAILURE;
    }
    run_emit(&args.io.to_stdout(), &mut |ctx, m| {
        let options = silica_emit_verilog::Options {
            full_sv: args.full_sv,
        };
        let units = silica_emit_verilog::emit_verilog_units(ctx, &m.ir, m.top, options)?;
        write_units(Path::new(&dir), &units).map_err(|e| {
            let msg = format!("cannot write the Verilog files in '{dir}': {e}");
            Box::new(Diagnostic::error(m.ir.op_loc(m.top), msg))
        })?;
        Ok(Vec::new())
    })
}

/// Writes each unit to `dir/<name>.sv` (through a temporary file renamed
/// over it) and their list to `dir/filelist.f`.
fn write_units(dir: &Path, units: &[silica_emit_verilog::Unit]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut list = String::new();
    for unit in units {
        let file = format!("{}.sv", unit.name);
        write_atomically(&dir.join(&file), &unit.text)?;
        list.push_str(&file);
        list.push('\n');
    }
    write_atomically(&dir.join("filelist.f"), &list)
}

fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temp = path.with_file_name(format!(".{name}.silica-{}", std::process::id()));
    std::fs::write(&temp, text)?;
    std::fs::rename(&temp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}
