//! `silica cosim` of a C program (`main.c [more.c ...] --kernel F`):
//! the file that defines `F` gives the kernel (`silica_c`); the
//! program is built by clang as written and with `F` replaced by a
//! function of its C signature over the host stub
//! (`silica_c::program`); both run, and their standard outputs and
//! standard errors must be identical
//! (`silica_hls::verification::system::cosimulate_programs`).

use crate::c_input::CArgs;
use silica_c::program::{self, CSignature};
use silica_hls::verification::cosim::process::Limits;
use silica_hls::verification::system::{cosimulate_programs, Backend, Programs, SystemReport};
use silica_ir::parser::{parse, ParseOptions, ParsedModule};
use silica_ir::pass::{Instrumentation, OpPassManager};
use silica_ir::Context;
use std::path::{Path, PathBuf};

/// A C program and the kernel in it.
pub struct CProgram {
    pub files: Vec<PathBuf>,
    pub kernel_file: PathBuf,
    pub signature: CSignature,
    pub options: silica_c::Options,
}

/// Reads the kernel `kernel` of the C program `inputs` into `ctx`;
/// errors printed.
pub fn load(
    ctx: &mut Context,
    inputs: &[String],
    kernel: &str,
    c: &CArgs,
) -> Option<(ParsedModule, CProgram)> {
    let options = c.options();
    let mut kernel_file = None;
    for f in inputs {
        match silica_c::defines(Path::new(f), &options, kernel) {
            Ok(true) => {
                kernel_file = Some(f.clone());
                break;
            }
            Ok(false) => {}
            Err(e) => {
                eprint!("{}", e.render());
                return None;
            }
        }
    }
    let Some(kernel_file) = kernel_file else {
        eprintln!("error: no file of the program defines the kernel '{kernel}'");
        return None;
    };
    let imported = crate::c_input::import_with_signatures(ctx, &kernel_file, Some(kernel), c)?;
    let signature = imported.signatures.get(kernel)?.clone();
    let program = CProgram {
        files: inputs.iter().map(PathBuf::from).collect(),
        kernel_file: PathBuf::from(kernel_file),
        signature,
        options,
    };
    Some((imported.module, program))
}

/// The host stub `host_mlir` (`F_host.mlir`) without the kernel's own
/// (MLIR) signature, whose place the C replacement takes, in LLVM IR.
fn host_without_kernel(ctx: &mut Context, host_mlir: &str, kernel: &str) -> Result<String, String> {
    let name = format!("{kernel}_host.mlir");
    let mut module = parse(ctx, &name, host_mlir.as_bytes(), ParseOptions::default())
        .map_err(|d| format!("the host stub does not parse: {}", d.message))?;
    let f = silica_ir::symbols::lookup(ctx, &module.ir, module.top, kernel)
        .ok_or_else(|| format!("the host stub has no function '{kernel}'"))?;
    module.ir.erase_op(f);
    let mut pm = OpPassManager::new("builtin.module");
    for pass in [
        &silica_llvm::conversion::passes::CONVERT_TO_LLVM,
        &silica_ir::conversion::RECONCILE_UNREALIZED_CASTS,
    ] {
        pm.add_pass(pass, Vec::new())
            .map_err(|e| format!("cannot build the host stub's lowering: {e}"))?;
    }
    pm.run(ctx, &mut module.ir, module.top, &Instrumentation::default())
        .map_err(|d| format!("the host stub does not lower: {}", d.message))?;
    silica_llvm::translate::translate_module(ctx, &module.ir, module.top)
        .map_err(|d| format!("the host stub does not translate: {}", d.message))
}

/// Builds and runs both programs of `program` in `dir` with the kernel
/// of `design` on `backend`; the host stub is `host_mlir`.
#[allow(clippy::too_many_arguments)]
pub fn cosimulate(
    ctx: &mut Context,
    program: &CProgram,
    kernel: &str,
    design: &silica_hls::flow::design::Design,
    host_mlir: &str,
    backend: &Backend<'_>,
    dir: &Path,
    limits: &Limits,
) -> Result<SystemReport, String> {
    let host = host_without_kernel(ctx, host_mlir, kernel)?;
    let software = program::software(&program.files, &program.options, dir)?;
    let objects = program::accelerated_objects(
        &program.files,
        &program.kernel_file,
        kernel,
        &program.signature,
        &program.options,
        dir,
    )?;
    let programs = Programs {
        software: &software,
        objects,
        compare_stderr: true,
    };
    cosimulate_programs(design, &programs, &host, backend, dir, limits)
}
