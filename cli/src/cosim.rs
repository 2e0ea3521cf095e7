//! `silica cosim MAIN --kernel F [-o DIR] [--shell uart | --gpu]`: system
//! co-simulation of a program that calls the kernel `F` (defined in MAIN
//! beside `main`): `F` synthesised with `--interface axi` and its host
//! stub generated, then the program run in software and with the
//! Verilated accelerator behind the `sim` driver backend
//! (`silica_hls::verification::system`); with `--shell uart`, `F` in the board shell
//! instead, emulated behind a pseudo-terminal and reached through the
//! `uart` backend; with `--gpu`, `F` on the GPU (`crate::gpu_cosim`).
//! The outputs must be identical. Work files go to DIR (kept) or a
//! temporary directory (removed). A C program (`main.c [more.c ...]`)
//! goes through `crate::c_cosim`.

use crate::driver::{new_context, read_input};
use clap::Args;
use silica_ir::diag::{render, SourceFile};
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::verify::{verify, VerifyOptions};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `silica cosim`.
#[derive(Args, Debug)]
pub struct CosimArgs {
    /// The program: an MLIR file with `main` and the kernel (`-` for
    /// standard input), or the C files of a program (`main.c more.c`).
    #[arg(required = true, num_args = 1..)]
    inputs: Vec<String>,
    #[command(flatten)]
    c: crate::c_input::CArgs,
    /// The kernel that runs on the accelerator.
    #[arg(long)]
    kernel: String,
    /// Keep the work files (programs, LLVM IR, the design, the model) here.
    #[arg(short = 'o')]
    output: Option<PathBuf>,
    /// Target device of the synthesis.
    #[arg(long, default_value = silica_hls::model::target::device::DEFAULT_TARGET)]
    target: String,
    /// Clock period in nanoseconds (the target's default: 20).
    #[arg(long = "clock-ns")]
    clock_ns: Option<f64>,
    /// The kernel's directives (`silica hls --directives`, e.g. the
    /// `F.directives.toml` that `silica hls --auto` chose).
    #[arg(long)]
    directives: Option<String>,
    /// The widest external memory port in bits (`silica hls
    /// --max-port-bits`): packed memories widen the AXI master's bus.
    #[arg(
        long = "max-port-bits",
        default_value_t = silica_hls::model::options::MAX_PORT_BITS,
        value_parser = clap::value_parser!(u32).range(1..=4096)
    )]
    max_port_bits: u32,
    /// Run the kernel in the board shell (`silica hls --shell uart`),
    /// emulated, through the `uart` driver backend, instead of the AXI
    /// wrapper through `sim`.
    #[arg(long)]
    shell: Option<crate::hls::ShellKind>,
    /// The shell's serial line rate.
    #[arg(long, default_value_t = 115_200, requires = "shell")]
    baud: u32,
    /// Run the kernel on the GPU (`silica gpu`'s host side and driver
    /// layer) instead of an accelerator.
    #[arg(long, conflicts_with = "shell")]
    gpu: bool,
    /// The GPU architecture of the PTX.
    #[arg(long, default_value = "sm_90", requires = "gpu")]
    chip: String,
    /// With `--gpu`: tile the innermost parallel loops by these sizes
    /// (`silica gpu --block`).
    #[arg(long, value_delimiter = ',', requires = "gpu", value_parser = clap::value_parser!(i64).range(1..))]
    block: Vec<i64>,
    /// The CUDA driver the program with the GPU loads: the NVIDIA
    /// driver's, or silica's fake driver running the kernels' CPU build.
    #[arg(
        long = "gpu-driver",
        value_enum,
        default_value = "cuda",
        requires = "gpu"
    )]
    gpu_driver: crate::gpu_cosim::Driver,
    /// With `--gpu`: build both programs in `-o DIR` and stop (to run
    /// them on a machine with a GPU).
    #[arg(long = "build-only", requires = "gpu")]
    build_only: bool,
}

/// Runs `silica cosim`.
pub fn run(args: &CosimArgs) -> ExitCode {
    let input = &args.inputs[0];
    let c_program = args.inputs.iter().any(|i| silica_c::is_c_input(i));
    if !c_program && args.inputs.len() > 1 {
        eprintln!("error: an MLIR program is one file (C programs may be several)");
        return ExitCode::FAILURE;
    }
    if c_program && (args.gpu || args.inputs.iter().any(|i| !silica_c::is_c_input(i))) {
        eprintln!(
            "error: a C program is C files only, and runs its kernel on an accelerator (not --gpu)"
        );
        return ExitCode::FAILURE;
    }
    let text = match read_input(input) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: could not open input file '{input}': {e}");
            return ExitCode::FAILURE;
        }
    };
    let name = if input == "-" { "<stdin>" } else { input };
    let mut ctx = new_context(false);
    let mut sources = vec![SourceFile { name, text: &text }];
    let c_texts: Vec<(String, Vec<u8>)> = args
        .inputs
        .iter()
        .filter(|_| c_program)
        .filter_map(|f| std::fs::read(f).ok().map(|t| (f.clone(), t)))
        .collect();
    if c_program {
        sources = c_texts
            .iter()
            .map(|(n, t)| SourceFile { name: n, text: t })
            .collect();
    }
    let fail = |ctx: &silica_ir::Context, d: &silica_ir::Diagnostic| {
        eprint!("{}", render(ctx, &sources, d));
        ExitCode::FAILURE
    };
    let (module, c) = if c_program {
        match crate::c_cosim::load(&mut ctx, &args.inputs, &args.kernel, &args.c) {
            Some((m, p)) => (m, Some(p)),
            None => return ExitCode::FAILURE,
        }
    } else {
        match parse(&mut ctx, name, &text, ParseOptions::default()) {
            Ok(m) => (m, None),
            Err(d) => return fail(&ctx, &d),
        }
    };
    if let Err(d) = verify(&mut ctx, &module.ir, module.top, VerifyOptions::default()) {
        return fail(&ctx, &d);
    }
    if args.gpu {
        return gpu(args, &mut ctx, &module.ir, module.top);
    }
    let target = match silica_hls::Target::named(&args.target) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let directives = match &args.directives {
        None => None,
        Some(path) => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: could not open directives file '{path}': {e}");
                    return ExitCode::FAILURE;
                }
            };
            match silica_hls::model::directives::file::parse(path, &text) {
                Ok(f) => Some(f),
                Err((pos, msg)) => {
                    eprintln!("{path}:{}:{}: error: {msg}", pos.line, pos.col);
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let options = silica_hls::Options {
        clock_ns: args.clock_ns,
        directives,
        max_port_bits: args.max_port_bits,
        wrapper: match args.shell {
            Some(_) => silica_hls::Wrapper::Shell,
            None => silica_hls::Wrapper::Axi,
        },
        ..silica_hls::Options::new(&args.kernel, target)
    };
    let design = match silica_hls::synthesize(&mut ctx, &module.ir, module.top, &options) {
        Ok(d) => d,
        Err(d) => return fail(&ctx, &d),
    };
    let func = match silica_hls::flow::front::find_top(&ctx, &module.ir, module.top, &args.kernel) {
        Ok(f) => f,
        Err(d) => return fail(&ctx, &d),
    };
    let shell = match args.shell {
        Some(crate::hls::ShellKind::Uart) => {
            match crate::hls::board_shell(&mut ctx, &design, args.baud) {
                Ok(s) => Some(s),
                Err(e) => {
                    eprintln!("error: --shell uart: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        None => None,
    };
    // The stub's register map: the AXI wrapper's, or the same layout
    // for the uart backend to translate.
    let iface = &design.estimated.interface;
    let map = match &design.estimated.axi {
        Some(map) => Ok(map.clone()),
        None => silica_hls::model::register_map::RegisterMap::new(iface),
    };
    let host = map.and_then(|map| {
        silica_hls::wrappers::host::generate(&mut ctx, &module.ir, func, iface, &map)
    });
    let host = match host {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let backend = match &shell {
        Some(s) => silica_hls::verification::system::Backend::Uart {
            verilog: &s.verilog,
            module: &s.info.module,
            divider: s.info.divider,
            baud: s.info.baud,
        },
        None => silica_hls::verification::system::Backend::Sim,
    };
    let (dir, remove) = match &args.output {
        Some(d) => (d.clone(), false),
        None => (
            std::env::temp_dir().join(format!("silica-cosim-system-{}", std::process::id())),
            true,
        ),
    };
    let dir = match std::fs::create_dir_all(&dir).and_then(|()| dir.canonicalize()) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    let limits = silica_hls::verification::cosim::process::Limits {
        timeout: Duration::from_secs(600),
    };
    let outcome = match &c {
        Some(program) => crate::c_cosim::cosimulate(
            &mut ctx,
            program,
            &args.kernel,
            &design,
            &host.mlir,
            &backend,
            &dir,
            &limits,
        ),
        None => silica_hls::verification::system::cosimulate(
            &mut ctx, &module.ir, module.top, &design, &host.llvm, &backend, &dir, &limits,
        ),
    };
    if remove {
        let _ = std::fs::remove_dir_all(&dir);
    }
    match outcome {
        Ok(r) => {
            let error_lines = if c.is_some() {
                format!(" and {} of error output", r.error_lines)
            } else {
                String::new()
            };
            println!(
                "system co-simulation of '{}': {} lines of output{error_lines} identical (software {:.2} s, with the accelerator {:.2} s)",
                args.kernel, r.lines, r.software_s, r.hardware_s
            );
            for call in &r.calls {
                println!("{call}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: system co-simulation of '{}': {e}", args.kernel);
            ExitCode::FAILURE
        }
    }
}

/// `--gpu`: the program run in software and with the kernel on the GPU.
fn gpu(
    args: &CosimArgs,
    ctx: &mut silica_ir::Context,
    ir: &silica_ir::Ir,
    module: silica_ir::OpId,
) -> ExitCode {
    let (dir, remove) = match &args.output {
        Some(d) => (d.clone(), false),
        None => (
            std::env::temp_dir().join(format!("silica-cosim-gpu-{}", std::process::id())),
            true,
        ),
    };
    if remove && args.build_only {
        eprintln!("error: --build-only keeps the programs: give the directory with -o DIR");
        return ExitCode::FAILURE;
    }
    let dir = match std::fs::create_dir_all(&dir).and_then(|()| dir.canonicalize()) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    let request = crate::gpu_cosim::Request {
        kernel: &args.kernel,
        chip: &args.chip,
        block: &args.block,
        driver: args.gpu_driver,
        build_only: args.build_only,
    };
    let outcome = crate::gpu_cosim::cosimulate(ctx, ir, module, &request, &dir);
    if remove {
        let _ = std::fs::remove_dir_all(&dir);
    }
    match outcome {
        Ok(None) => {
            println!(
                "GPU co-simulation of '{}': programs built in {} (software, gpu)",
                args.kernel,
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Ok(Some(r)) => {
            let driver = match args.gpu_driver {
                crate::gpu_cosim::Driver::Cuda => "the CUDA driver",
                crate::gpu_cosim::Driver::Fake => "the fake CUDA driver",
            };
            println!(
                "GPU co-simulation of '{}': {} lines of output identical (software {:.2} s, with the GPU through {driver} {:.2} s)",
                args.kernel, r.lines, r.software_s, r.gpu_s
            );
            for launch in &r.launches {
                println!("{launch}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: GPU co-simulation of '{}': {e}", args.kernel);
            ExitCode::FAILURE
        }
    }
}
