//! The `silica` binary: one command-line tool with subcommands, flags
//! spelled as mlir-opt spells them.

mod auto;
mod c_cosim;
mod c_input;
mod characterize;
mod cosim;
mod driver;
mod dse;
mod gpu;
mod gpu_cosim;
mod hls;
mod import_c;
mod irdl_export;
mod opt;
mod progress;
mod roundtrip;
mod run_board;
mod schedule;
mod sim;
mod translate;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "silica",
    version,
    about = "An MLIR-style compiler framework for hardware synthesis"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse, verify and print MLIR (like mlir-opt).
    Opt(opt::OptArgs),
    /// Schedule the problems of a file in CIRCT's ssp syntax and print
    /// them with their schedules (`t<N>`, `z<F>`, `II<N>`).
    Schedule(schedule::ScheduleArgs),
    /// Translate MLIR to another format: LLVM IR from the llvm dialect
    /// (`--to-llvmir`, like mlir-translate's `--mlir-to-llvmir`), or
    /// SystemVerilog from hw/comb/seq (`--to-verilog`).
    Translate(translate::TranslateArgs),
    /// Simulate an hw/comb/seq module cycle by cycle (trace, VCD,
    /// testbench for the emitted Verilog).
    Sim(sim::SimArgs),
    /// High-level synthesis: a function over memrefs and scalars in the
    /// affine/arith/memref dialects to a scheduled, pipelined circuit
    /// (`F.sv`, `F.hw.mlir`, `F.json`, `report.txt` in `-o DIR`).
    Hls(hls::HlsArgs),
    /// GPU code: a kernel's parallel loops mapped to blocks and threads,
    /// outlined and lowered to NVVM (`F.gpu.mlir`), the device LLVM IR
    /// (`F.device.ll`) and PTX (`F.ptx`) in `-o DIR`.
    Gpu(gpu::GpuArgs),
    /// System co-simulation: a program that calls a kernel, run in
    /// software and with the kernel on its Verilated AXI accelerator
    /// (host stub, `sim` driver backend); the outputs must be identical.
    Cosim(cosim::CosimArgs),
    /// Run a kernel on a board through the board shell of `silica hls
    /// --shell uart` (or on its emulation): load inputs, start, read back.
    RunBoard(run_board::RunBoardArgs),
    /// Read C through clang-22 and print the MLIR silica makes of it
    /// (func/arith/math/memref/scf, affine where control is static).
    ImportC(import_c::ImportCArgs),
    /// Design-space exploration: evaluate the points of a space of hls
    /// directives (unroll, pipeline, partition, tiling, clock, target),
    /// search it, and write the Pareto front (`points.csv`,
    /// `pareto.json`, a directives file per Pareto point, `pareto.svg`,
    /// `summary.txt` in `-o DIR`).
    Dse(dse::DseArgs),
    /// A worker of `silica dse --jobs N` (JSON lines on stdin/stdout).
    #[command(hide = true)]
    DseWorker,
    /// Measure a target's operator library: every operator kind the HLS
    /// flow instantiates synthesised, placed and routed at a ladder of
    /// widths (`hls/library/<target>.toml`).
    Characterize(characterize::CharacterizeArgs),
    /// Write the IRDL definition of a native dialect (loadable with
    /// `--irdl-file`, by silica and by mlir-opt).
    IrdlExport(irdl_export::IrdlExportArgs),
}

/// mlir-opt accepts long options with one dash (`-split-input-file`);
/// clap wants two. Rewrite them before parsing; C's `-IDIR` and
/// `-DNAME=V` stay as they are.
fn normalize_args(args: impl Iterator<Item = String>) -> Vec<String> {
    args.enumerate()
        .map(|(i, a)| {
            let single_dash_long = i > 0
                && a.starts_with('-')
                && !a.starts_with("--")
                && a.len() > 2
                && a.as_bytes()[1].is_ascii_alphabetic()
                && !a.starts_with("-I")
                && !a.starts_with("-D");
            if single_dash_long {
                format!("-{a}")
            } else {
                a
            }
        })
        .collect()
}

fn main() -> ExitCode {
    let registry = silica_cli::pass_registry();
    let command = Cli::command().mut_subcommand("opt", |c| opt::add_pass_flags(c, &registry));
    let matches = command.get_matches_from(normalize_args(std::env::args()));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match cli.command {
        Command::Opt(args) => {
            let sub = matches.subcommand_matches("opt").expect("opt subcommand");
            opt::run(&args, &opt::pass_flags_in_order(sub, &registry))
        }
        Command::Schedule(args) => schedule::run(&args),
        Command::Translate(args) => translate::run(&args),
        Command::Sim(args) => sim::run(&args),
        Command::IrdlExport(args) => irdl_export::run(&args),
        Command::Hls(args) => hls::run(&args),
        Command::Gpu(args) => gpu::run(&args),
        Command::Cosim(args) => cosim::run(&args),
        Command::RunBoard(args) => run_board::run(&args),
        Command::ImportC(args) => import_c::run(&args),
        Command::Dse(args) => dse::run(&args),
        Command::DseWorker => dse::worker(),
        Command::Characterize(args) => characterize::run(&args),
    }
}
