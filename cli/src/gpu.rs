//! `silica gpu KERNEL --top F -o DIR [--chip sm_90] [--block N,...]`: the kernel's
//! parallel loops as a GPU kernel (`silica_gpu::flow`): `F.gpu.mlir`
//! (the module after mlir-opt-22's passes), `F.device.ll` (the device
//! LLVM IR for `nvptx64-nvidia-cuda`), `F.ptx` (from `llc-22`), the host
//! side `F_host.ll` with its C declaration `F.h`, the kernels' CPU build
//! `F.cpu.ll`, and the run time's C sources (`silica_gpu.h`,
//! `silica_gpu.c`, `fake_cuda.c`) in DIR. Nothing is written when an
//! error is found.

use crate::driver::{new_context, read_input};
use clap::Args;
use silica_ir::diag::{render, SourceFile};
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::verify::{verify, VerifyOptions};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `silica gpu`.
#[derive(Args, Debug)]
pub struct GpuArgs {
    /// The kernel's module (`-` for standard input).
    input: String,
    /// The kernel function.
    #[arg(long)]
    top: String,
    /// The output directory.
    #[arg(short = 'o')]
    output: PathBuf,
    /// The GPU architecture the PTX is for.
    #[arg(long, default_value = "sm_90")]
    chip: String,
    /// Tile the innermost parallel loops by these sizes
    /// (`scf-parallel-loop-tiling`): the tiles map to the outer level
    /// (blocks of a single parallel loop), each tile's iterations to
    /// threads.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(i64).range(1..))]
    block: Vec<i64>,
}

/// Runs `silica gpu`.
pub fn run(args: &GpuArgs) -> ExitCode {
    let text = match read_input(&args.input) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: could not open input file '{}': {e}", args.input);
            return ExitCode::FAILURE;
        }
    };
    let name = if args.input == "-" {
        "<stdin>"
    } else {
        &args.input
    };
    let mut ctx = new_context(false);
    let sources = [SourceFile { name, text: &text }];
    let fail = |ctx: &silica_ir::Context, d: &silica_ir::Diagnostic| {
        eprint!("{}", render(ctx, &sources, d));
        ExitCode::FAILURE
    };
    let mut module = match parse(&mut ctx, name, &text, ParseOptions::default()) {
        Ok(m) => m,
        Err(d) => return fail(&ctx, &d),
    };
    if let Err(d) = verify(&mut ctx, &module.ir, module.top, VerifyOptions::default()) {
        return fail(&ctx, &d);
    }
    let options = silica_gpu::flow::Options {
        top: args.top.clone(),
        chip: args.chip.clone(),
        block: args.block.clone(),
    };
    let code = match silica_gpu::flow::compile(&mut ctx, &mut module.ir, module.top, &options) {
        Ok(c) => c,
        Err(d) => return fail(&ctx, &d),
    };
    let ptx = match silica_gpu::device::ptx(&code.device_llvm, &code.device.target) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let top = &args.top;
    let inputs = match kernel_inputs(&ctx, &module.ir, module.top, top) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let kernels = code.device.kernels.clone();
    let host =
        silica_gpu::host::host_code(&mut ctx, &mut module.ir, code.host, top, &kernels, &ptx);
    let cpu = silica_gpu::cpu::cpu_code(&mut ctx, &mut module.ir, &code.device);
    let (host, cpu) = match (host, cpu) {
        (Ok(h), Ok(c)) => (h, c),
        (Err(d), _) | (_, Err(d)) => return fail(&ctx, &d),
    };
    let header = match silica_gpu::host::header(&ctx, &inputs, top) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: '{top}': {e}");
            return ExitCode::FAILURE;
        }
    };
    let files = [
        (format!("{top}.gpu.mlir"), code.gpu_mlir.as_str()),
        (format!("{top}.device.ll"), code.device_llvm.as_str()),
        (format!("{top}.ptx"), ptx.as_str()),
        (format!("{top}_host.ll"), host.as_str()),
        (format!("{top}.cpu.ll"), cpu.as_str()),
        (format!("{top}.h"), header.as_str()),
        ("silica_gpu.h".to_string(), silica_gpu::runtime::HEADER),
        ("silica_gpu.c".to_string(), silica_gpu::runtime::DRIVER),
        ("fake_cuda.c".to_string(), silica_gpu::runtime::FAKE_CUDA),
    ];
    let written = std::fs::create_dir_all(&args.output).and_then(|()| {
        files
            .iter()
            .try_for_each(|(f, text)| std::fs::write(args.output.join(f), text))
    });
    if let Err(e) = written {
        eprintln!("error: cannot write to {}: {e}", args.output.display());
        return ExitCode::FAILURE;
    }
    for note in &code.notes {
        println!("note: {note}");
    }
    let kernels: Vec<&str> = kernels.iter().map(|k| k.module.as_str()).collect();
    println!(
        "silica gpu: '{top}' for {}: {} kernel(s) ({}); {top}.ptx, {top}_host.ll, {top}.h in {}",
        args.chip,
        kernels.len(),
        kernels.join(", "),
        args.output.display()
    );
    ExitCode::SUCCESS
}

/// The parameter types of the kernel `top`.
fn kernel_inputs(
    ctx: &silica_ir::Context,
    ir: &silica_ir::Ir,
    module: silica_ir::OpId,
    top: &str,
) -> Result<Vec<silica_ir::Type>, String> {
    let func = silica_ir::symbols::lookup(ctx, ir, module, top)
        .ok_or_else(|| format!("no function '{top}'"))?;
    let t = match silica_ir::dialect::inherent_attr(ctx, ir, func, "function_type")
        .map(|a| ctx.attr_kind(a))
    {
        Some(silica_ir::AttrKind::Type(t)) => *t,
        _ => return Err(format!("'{top}' has no function type")),
    };
    Ok(ctx.function_inputs(t).to_vec())
}
