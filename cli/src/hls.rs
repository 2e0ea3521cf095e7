//! `silica hls FILE --top F -o DIR`: synthesizes function `F` into
//! `DIR/F.sv`, `DIR/F.hw.mlir`, `DIR/F.json` and `DIR/report.txt`; with
//! `--bitstream`, also `DIR/F.bin` (iCE40) or `DIR/F.bit` (ECP5) and the
//! FPGA tools' logs; with `--shell uart`, the board shell around the core
//! (`DIR/F.shell.sv`, `DIR/F.shell.json`, the board's pin constraints
//! `DIR/F.pcf` or `DIR/F.lpf`, and with `--sim` the co-simulation's
//! inputs and the software's outputs in `silica run-board`'s format,
//! `DIR/F.inputs.txt` and `DIR/F.expected.txt`), which `--bitstream`
//! then implements as the top. Every output is made in memory first; on any error
//! nothing is written (and no earlier bitstream is left in `DIR`). A design
//! that does not fit the device or misses the clock is an error too (exit
//! status 1, no bitstream), but its reports are written: they say by how
//! much.

use crate::driver::{new_context, read_input};
use clap::Args;
use silica_hls::flow::report::dma::MeasuredOverlap;
use silica_ir::diag::{render, Diagnostic, SourceFile};
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::verify::{verify, VerifyOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `silica hls`.
#[derive(Args, Debug)]
pub struct HlsArgs {
    /// Input file (`-` for standard input).
    input: String,
    /// The function to synthesize.
    #[arg(long)]
    top: String,
    /// Output directory (created if missing).
    #[arg(short = 'o')]
    output: String,
    // The help lists each target's default clock (`clock_help`).
    #[arg(long = "clock-ns", value_name = "NS", help = clock_help())]
    clock_ns: Option<f64>,
    /// Clock uncertainty in nanoseconds: the datapath is scheduled, and
    /// its operators chosen, for the clock period less this margin,
    /// for the delays the estimate does not see (the placed routes).
    #[arg(long = "clock-uncertainty", value_name = "NS", default_value_t = 0.0)]
    clock_uncertainty: f64,
    /// Directives file (TOML: clock_ns, [[loop]], [[array]], [limits]);
    /// its settings win over the `hls.*` attributes of the input.
    #[arg(long)]
    directives: Option<String>,
    /// Choose the directives: search the space derived from the kernel
    /// (port widths, on-chip buffers, unroll factors, flattening) with
    /// `silica dse`'s engine for the fastest design (cycles x clock
    /// period) whose estimate fits the target, and build it. Also writes
    /// `F.directives.toml` (rebuilds the same design with
    /// `--directives`), the space searched (`F.space.toml`) and every
    /// point evaluated (`F.auto.csv`); the report says what was chosen
    /// and why.
    #[arg(long, conflicts_with = "directives")]
    auto: bool,
    /// Target device: ecp5-25k, ecp5-45k, ecp5-85k, ice40-up5k,
    /// ice40-hx8k, or generic (estimates only); `ice40` and `ecp5` name
    /// the first part of their family.
    #[arg(long, default_value = silica_hls::model::target::device::DEFAULT_TARGET)]
    target: String,
    /// Synthesise, place and route the design and write its bitstream
    /// (yosys and nextpnr; `F.bin` for iCE40, `F.bit` for ECP5), with the
    /// measured resources and Fmax in the reports. A design that does not
    /// fit (the reports say by how much) or misses a clock asked for is an
    /// error, and no bitstream is written.
    #[arg(long)]
    bitstream: bool,
    /// With `--bitstream`, closure on the tools' figures: where the
    /// placed design misses the clock, schedule it again with a clock
    /// uncertainty for the period nextpnr reached; where it needs more
    /// LUTs or flip-flops than the device though its estimate fitted,
    /// fit it again to a smaller share of the device; and place it
    /// again, at most this many times (0: place once). The report lists
    /// every try; of the designs that fit and meet the clock the one
    /// with the fewest cycles is kept (a clock met with time to spare is
    /// tried again with less margin), else the fastest.
    #[arg(
        long = "closure-tries",
        value_name = "N",
        default_value_t = 2,
        requires = "bitstream"
    )]
    closure_tries: u32,
    /// Wrap the core in a board shell: `uart` holds the memories in
    /// on-chip RAM and talks to a host (`silica run-board`) over the
    /// board's USB serial line; with `--bitstream` the shell is the top,
    /// on the target's board (iCEBreaker for ice40-up5k, ULX3S for ecp5).
    #[arg(long, value_enum)]
    shell: Option<ShellKind>,
    /// The shell's serial line rate (its divider of the board's clock).
    #[arg(long, default_value_t = 115_200, requires = "shell")]
    baud: u32,
    /// The top's interface: `memory` (the brief's memory ports) or `axi`
    /// (the core wrapped in `F_axi`: an AXI4-Lite register map and an
    /// AXI4 master over host memory; also writes the C header `F.h`).
    #[arg(long, default_value = "memory", value_parser = ["memory", "axi"], conflicts_with = "shell")]
    interface: String,
    /// With `--interface axi` or `--shell uart`: also write the host
    /// code, `F_host.mlir` and `F_host.ll`, a function with the kernel's
    /// signature (and a bare-pointer `F_ciface` returning an error code)
    /// that runs the accelerator through the driver API of
    /// `hls/runtime/silica_dev.h` (the `uart` backend for a shell).
    #[arg(long)]
    host: bool,
    /// A hand-written Verilog file whose modules `func.func` declarations
    /// with `hls.ip = "module"` bind to (ports read with sv-parser and
    /// checked against the declaration); repeatable.
    #[arg(long = "ip", value_name = "FILE.sv")]
    ip: Vec<String>,
    #[command(flatten)]
    c: crate::c_input::CArgs,
    /// Print the output of one stage of the flow on standard error: the
    /// kernel's IR after a front transform (buffer, unroll, reuse, fuse, hoist,
    /// promote, carry), the schedule, or the circuit before it is wrapped
    /// and emitted (construct).
    #[arg(long = "dump-after", value_name = "STAGE", value_parser = stage_name)]
    dump_after: Option<silica_hls::model::options::Stage>,
    /// The widest external memory port, in bits: an array's `width`
    /// directive packs at most this many bits of elements into a word
    /// of its ports (the memory's bus; a wider request is cut, with a
    /// warning).
    #[arg(
        long = "max-port-bits",
        value_name = "BITS",
        default_value_t = silica_hls::model::options::MAX_PORT_BITS,
        value_parser = clap::value_parser!(u32).range(1..=4096)
    )]
    max_port_bits: u32,
    /// Keep innermost loops sequential instead of pipelining them.
    #[arg(long = "no-pipeline")]
    no_pipeline: bool,
    /// Keep integer datapaths as written (no e-graph rewriting: by
    /// default, expressions are reassociated, balanced and strength-
    /// reduced where the schedule gains).
    #[arg(long = "no-rewrite")]
    no_rewrite: bool,
    /// Build the design as given where it exceeds the target device:
    /// by default, a design whose estimate needs more DSPs or LUTs
    /// than a real device has shares functional units (unit
    /// limits chosen for the classes the directives leave unlimited,
    /// the fewest sharing that fits; `resources.fit` in `F.json`).
    #[arg(long = "no-fit")]
    no_fit: bool,
    /// Co-simulate: random inputs through the kernel in software (lli-22)
    /// and the RTL in Verilator, compared bit for bit; the measured
    /// latency goes into the reports. A mismatch is an error.
    #[arg(long)]
    sim: bool,
    /// Seed of the co-simulation's inputs.
    #[arg(long, default_value_t = 1, requires = "sim")]
    seed: u64,
    /// A fixed value for a scalar argument in the co-simulation,
    /// `NAME=VALUE` (decimal, negative, `0x` hex bits, or a float for
    /// f32/f64), e.g. for a bound the memories' sizes limit; repeatable.
    #[arg(long = "sim-scalar", value_name = "NAME=VALUE", requires = "sim")]
    sim_scalars: Vec<String>,
    /// Keep the co-simulation's work files in this directory instead of
    /// a temporary one: the stimuli (`stimuli-SEED.txt`: scalars, then
    /// every memory word, one hex value per line), the software harness
    /// (`software.ll`, run with `lli-22 --entry-function=cosim_main`),
    /// the testbench and its Verilator model.
    #[arg(long = "sim-dir", value_name = "DIR", requires = "sim")]
    sim_dir: Option<std::path::PathBuf>,
    /// Write the co-simulation's waveform to `F.vcd` in the output
    /// directory (Verilator's trace: the core's ports and its controller's
    /// state registers), a mismatching run's too.
    #[arg(long, requires = "sim")]
    vcd: bool,
    /// With `--vcd`: trace every signal of the design.
    #[arg(long = "vcd-all", requires = "vcd")]
    vcd_all: bool,
    /// Write the co-simulated run as a trace (`F.trace.json`, Chrome's
    /// trace events, which ui.perfetto.dev opens): a track per controller
    /// thread (the loops it runs) and per memory port (its reads and
    /// writes).
    #[arg(long, requires = "sim")]
    trace: bool,
}

/// The stage `--dump-after` names.
fn stage_name(name: &str) -> Result<silica_hls::model::options::Stage, String> {
    use silica_hls::model::options::Stage;
    Stage::named(name).ok_or_else(|| format!("one of {}", Stage::names().join(", ")))
}

/// The board shells.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShellKind {
    /// A UART (8N1) to the host.
    Uart,
}

/// A board shell built around the design.
pub(crate) struct BoardShell {
    pub(crate) verilog: String,
    pub(crate) info: silica_hls::wrappers::shell::ShellInfo,
    board: silica_hls::wrappers::shell::board::Board,
}

/// `--clock-ns`'s help: what it does and each target's default clock,
/// from the targets' libraries.
fn clock_help() -> String {
    let defaults: Vec<String> = silica_hls::model::target::device::DEVICES
        .iter()
        .filter_map(|d| silica_hls::Target::named(d.name).ok())
        .map(|t| format!("{} {}", t.device().name, t.default_clock_ns()))
        .collect();
    format!(
        "Clock period in nanoseconds; the directives file's `clock_ns` wins. Missed after \
         timing closure, it is an error. Without it, each target's default (a clock its \
         typical designs meet: {}), and a design that misses the default is written for the \
         period it reaches, with a warning",
        defaults.join(", ")
    )
}

/// Builds the board shell of `design` for its target's board.
pub(crate) fn board_shell(
    ctx: &mut silica_ir::Context,
    design: &silica_hls::Design,
    baud: u32,
) -> Result<BoardShell, String> {
    use silica_hls::wrappers::shell;
    let iface = &design.estimated.interface;
    let board = shell::board::for_device(design.estimated.target.device())?;
    let divider = shell::board::divider(&board, baud)?;
    let mut verilog = shell::wrap(ctx, &design.hw_mlir, iface, divider)?;
    verilog.push_str(&design.ip_verilog);
    let top = iface.top.clone();
    Ok(BoardShell {
        verilog,
        info: shell::ShellInfo {
            module: shell::shell_name(&top),
            top,
            board: board.name.into(),
            clock_mhz: board.clock_mhz,
            baud,
            divider,
        },
        board,
    })
}

/// Runs `silica hls`.
pub fn run(args: &HlsArgs) -> ExitCode {
    crate::progress::begin();
    let text = match read_input(&args.input) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: could not open input file '{}': {e}", args.input);
            return ExitCode::FAILURE;
        }
    };
    // C input: its MLIR, whose ops are located in the C source (`text`
    // stays the C source, which diagnostics quote).
    let c_mlir = if silica_c::is_c_input(&args.input) {
        match crate::c_input::mlir_text(&args.input, Some(&args.top), &args.c) {
            Some(m) => Some(m),
            None => return ExitCode::FAILURE,
        }
    } else {
        None
    };
    let mlir = c_mlir.as_deref().unwrap_or(&text);
    let name = if args.input == "-" {
        "<stdin>"
    } else {
        &args.input
    };
    let mut ctx = new_context(false);
    let mut ip_files = Vec::new();
    for path in &args.ip {
        match std::fs::read_to_string(path) {
            Ok(t) => ip_files.push((path.clone(), t)),
            Err(e) => {
                eprintln!("error: could not open IP file '{path}': {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let top = &args.top;
    let dir = Path::new(&args.output);
    let mut auto_files = Vec::new();
    let mut auto_summary = String::new();
    let directives_path = match &args.directives {
        Some(path) => Some(path.clone()),
        None if args.auto => Some(format!("{}/{top}.directives.toml", args.output)),
        None => None,
    };
    let directives_text = match (&args.directives, &directives_path) {
        (Some(path), _) => match std::fs::read_to_string(path) {
            Ok(t) => Some(t),
            Err(e) => {
                eprintln!("error: could not open directives file '{path}': {e}");
                return ExitCode::FAILURE;
            }
        },
        (None, Some(path)) => match auto_directives(args, name, mlir, &ip_files, path) {
            Ok(chosen) => {
                say(&chosen.summary);
                auto_summary = chosen.summary;
                auto_files.push((
                    format!("{top}.directives.toml"),
                    chosen.directives.clone().into_bytes(),
                ));
                auto_files.push((format!("{top}.space.toml"), chosen.space.into_bytes()));
                auto_files.push((format!("{top}.auto.csv"), chosen.points.into_bytes()));
                Some(chosen.directives)
            }
            Err(e) => {
                eprintln!("{}", e.trim_end());
                return ExitCode::FAILURE;
            }
        },
        (None, None) => None,
    };
    let mut sources = vec![SourceFile { name, text: &text }];
    if let (Some(path), Some(t)) = (&directives_path, &directives_text) {
        sources.push(SourceFile {
            name: path,
            text: t.as_bytes(),
        });
    }
    let fail = |ctx: &silica_ir::Context, d: &Diagnostic| {
        eprint!("{}", render(ctx, &sources, d));
        ExitCode::FAILURE
    };
    let module = match parse(&mut ctx, name, mlir, ParseOptions::default()) {
        Ok(m) => m,
        Err(d) => return fail(&ctx, &d),
    };
    let opts = VerifyOptions {
        print_op: true,
        debug_info: false,
    };
    if let Err(d) = verify(&mut ctx, &module.ir, module.top, opts) {
        return fail(&ctx, &d);
    }
    let directives = match (&directives_path, &directives_text) {
        (Some(path), Some(t)) => match silica_hls::model::directives::file::parse(path, t) {
            // `--auto` with no `--clock-ns` searched at the target's default
            // clock, which stays a default (written at the period reached
            // where missed), though its directives file names it.
            Ok(mut f) if args.auto && args.clock_ns.is_none() => {
                f.clock_ns = None;
                Some(f)
            }
            Ok(f) => Some(f),
            Err((pos, msg)) => {
                eprintln!("{path}:{}:{}: error: {msg}", pos.line, pos.col);
                return ExitCode::FAILURE;
            }
        },
        _ => None,
    };
    let ip = match silica_hls::model::ip::Library::read(ip_files) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let target = match silica_hls::Target::named(&args.target) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let options = silica_hls::Options {
        ip,
        clock_ns: args.clock_ns,
        clock_uncertainty_ns: args.clock_uncertainty,
        pipeline: !args.no_pipeline,
        rewrite: !args.no_rewrite,
        directives,
        wrapper: match (args.shell, args.interface.as_str()) {
            (Some(_), _) => silica_hls::Wrapper::Shell,
            (None, "axi") => silica_hls::Wrapper::Axi,
            (None, _) => silica_hls::Wrapper::Ports,
        },
        fit: !args.no_fit,
        dump_after: args.dump_after,
        max_port_bits: args.max_port_bits,
        ..silica_hls::Options::new(&args.top, target)
    };
    if let Some(w) = options.overridden_clock() {
        eprintln!("warning: {w}");
    }
    let mut design = match silica_hls::synthesize(&mut ctx, &module.ir, module.top, &options) {
        Ok(d) => d,
        Err(d) => return fail(&ctx, &d),
    };
    if let (Some(stage), Some(dump)) = (args.dump_after, &design.dump) {
        eprint!("// -----// Dump After {} //----- //\n{dump}", stage.name());
    }
    fit_note(&design);
    let remarks = &design.estimated.remarks;
    for w in remarks.directives.warnings.iter().chain(&remarks.warnings) {
        eprint!("{}", render(&ctx, &sources, w));
    }
    let mut shell = match args.shell {
        Some(ShellKind::Uart) => match board_shell(&mut ctx, &design, args.baud) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("error: --shell uart: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let mut measured = silica_hls::Measurements::default();
    // Placed before the co-simulation: timing closure may schedule the
    // design again, and the design kept is the one co-simulated.
    let mut fpga_files = Vec::new();
    if args.bitstream {
        let first_fit = design.estimated.fit.clone();
        let closed = implement_closed(&mut ctx, &module, &options, (design, shell), args).map_err(
            |e| match e {
                Failure::Flow(d) => render(&ctx, &sources, &d),
                Failure::Other(e) => format!("error: {e}\n"),
            },
        );
        match closed {
            Ok(c) => {
                (design, shell) = c.design;
                // Area closure fitted the design kept otherwise.
                if design.estimated.fit != first_fit {
                    if let (Some(stage), Some(dump)) = (args.dump_after, &design.dump) {
                        eprint!("// -----// Dump After {} //----- //\n{dump}", stage.name());
                    }
                    fit_note(&design);
                }
                let imp = c.implementation;
                measured.synthesis = Some(imp.synthesis);
                fpga_files.extend(imp.logs);
                fpga_files.extend(imp.bitstream);
            }
            Err(e) => {
                remove_bitstreams(dir, top);
                eprint!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let mut shell_files = Vec::new();
    if args.sim {
        match cosimulate(&mut ctx, &module, &design, args) {
            Ok((r, overlap)) if r.passed() => {
                say(&format!("{r}\n"));
                for note in &r.notes {
                    say(&format!("{note}\n"));
                }
                if args.trace {
                    match trace_file(&design, args) {
                        Ok(file) => shell_files.push(file),
                        Err(e) => {
                            eprintln!("error: {e}");
                            return ExitCode::FAILURE;
                        }
                    }
                }
                measured.latency = design.estimated.axi.is_none().then_some(r.latency);
                measured.overlap = overlap;
                if shell.is_some() {
                    match run_board_files(&mut ctx, &module, &design, args, r.latency) {
                        Ok(files) => shell_files = files,
                        Err(e) => {
                            eprintln!("error: {e}");
                            return ExitCode::FAILURE;
                        }
                    }
                }
            }
            Ok((r, _)) => {
                eprintln!("error: {r}");
                return ExitCode::FAILURE;
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let mut files = vec![
        (format!("{top}.sv"), design.verilog.clone().into_bytes()),
        (
            format!("{top}.hw.mlir"),
            design.hw_mlir.clone().into_bytes(),
        ),
        (
            format!("{top}.json"),
            design.estimated.json_text(&measured).into_bytes(),
        ),
        (
            "report.txt".to_string(),
            format!("{auto_summary}{}", design.estimated.report_text(&measured)).into_bytes(),
        ),
        (
            "report.html".to_string(),
            design.estimated.report_html(&measured).into_bytes(),
        ),
    ];
    files.extend(auto_files);
    if let Some(s) = &shell {
        files.push((format!("{top}.shell.sv"), s.verilog.clone().into_bytes()));
        files.push((format!("{top}.shell.json"), s.info.to_json().into_bytes()));
        files.push((
            format!("{top}.{}", s.board.extension),
            s.board.constraints.as_bytes().to_vec(),
        ));
    }
    files.extend(shell_files);
    if args.host {
        // The AXI wrapper's register map; a shell's stub keeps the same
        // layout for the uart backend to translate.
        let map = match (&design.estimated.axi, &shell) {
            (Some(map), _) => Ok(map.clone()),
            (None, Some(_)) => {
                silica_hls::model::register_map::RegisterMap::new(&design.estimated.interface)
            }
            (None, None) => Err("--host needs --interface axi or --shell uart".to_string()),
        };
        let host = map.and_then(|map| {
            silica_hls::flow::front::find_top(&ctx, &module.ir, module.top, top)
                .map_err(|d| d.message.clone())
                .and_then(|func| {
                    silica_hls::wrappers::host::generate(
                        &mut ctx,
                        &module.ir,
                        func,
                        &design.estimated.interface,
                        &map,
                    )
                })
        });
        match host {
            Ok(h) => {
                files.push((format!("{top}_host.mlir"), h.mlir.into_bytes()));
                files.push((format!("{top}_host.ll"), h.llvm.into_bytes()));
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if let Some(map) = &design.estimated.axi {
        files.push((
            format!("{top}.h"),
            silica_hls::wrappers::axi::header::header(top, map).into_bytes(),
        ));
    }
    files.extend(fpga_files);
    // A bitstream of an earlier run is of another design.
    remove_bitstreams(dir, top);
    if let Err(e) = write_outputs(dir, &files) {
        eprintln!("error: cannot write the outputs in '{}': {e}", args.output);
        return ExitCode::FAILURE;
    }
    say(&design.estimated.report_text(&measured));
    match &measured.synthesis {
        Some(s) if s.overflow.is_some() => {
            eprintln!(
                "error: {}; no bitstream written, the {}'s figures are in report.txt",
                s.overflow.as_deref().unwrap_or_default(),
                if s.from_estimate {
                    "estimate"
                } else {
                    "netlist"
                }
            );
            ExitCode::FAILURE
        }
        Some(s) if !s.clock_met && s.reached_ns.is_some() => {
            eprintln!(
                "warning: the target's default clock of {} ns is missed by {:.2} ns (nextpnr's Fmax \
                 {:.2} MHz); the bitstream is written for {} ns (ask for a clock with --clock-ns \
                 to make a missed one an error)",
                s.clock_ns,
                -s.slack_ns.unwrap_or(0.0),
                s.fmax_mhz.unwrap_or(0.0),
                s.reached_ns.unwrap_or(s.clock_ns)
            );
            ExitCode::SUCCESS
        }
        Some(s) if !s.clock_met => {
            eprintln!(
                "error: the clock of {} ns is missed by {:.2} ns (nextpnr's Fmax {:.2} MHz); \
                 no bitstream written, the critical path is in report.txt",
                s.clock_ns,
                -s.slack_ns.unwrap_or(0.0),
                s.fmax_mhz.unwrap_or(0.0)
            );
            ExitCode::FAILURE
        }
        _ => ExitCode::SUCCESS,
    }
}

/// The note on standard error of a design fitted to its device.
/// `--auto`'s choice for the kernel `text` (file `name`): the
/// directives that `path` will hold, the space and the points.
fn auto_directives(
    args: &HlsArgs,
    name: &str,
    text: &[u8],
    ip: &[(String, String)],
    path: &str,
) -> Result<crate::auto::Chosen, String> {
    let text = std::str::from_utf8(text)
        .map_err(|_| format!("error: input file '{name}' is not UTF-8"))?;
    let mut rebuild = format!(
        "silica hls {name} --top {} --target {} --directives {path}",
        args.top, args.target
    );
    if silica_c::is_c_input(name) {
        rebuild += &args.c.command_line();
    }
    if args.max_port_bits != silica_hls::model::options::MAX_PORT_BITS {
        rebuild += &format!(" --max-port-bits {}", args.max_port_bits);
    }
    if args.interface != "memory" {
        rebuild += &format!(" --interface {}", args.interface);
    }
    crate::auto::choose(&crate::auto::Ask {
        name,
        text,
        top: &args.top,
        target: &args.target,
        clock_ns: args.clock_ns,
        max_port_bits: args.max_port_bits,
        fit: !args.no_fit,
        ip: ip.to_vec(),
        rebuild,
    })
}

fn fit_note(design: &silica_hls::Design) {
    let e = &design.estimated;
    if let Some(f) = &e.fit {
        // Where no limit helped, the design is built as given already.
        let hint = if f.limits.is_empty() {
            ""
        } else {
            " (--no-fit builds it as given)"
        };
        eprintln!("note: {}{hint}", f.describe(e.target.device(), e.latency()));
    }
}

/// Why a step of `silica hls` failed: a diagnostic of the flow, or a
/// message.
enum Failure {
    Flow(Box<Diagnostic>),
    Other(String),
}

/// A design and its board shell, as `--bitstream` places them.
type Placed = (silica_hls::Design, Option<BoardShell>);

/// `--bitstream`: `first` placed, with closure on the tools' figures
/// (`silica_hls::fpga::closure`): where the clock is missed, the kernel
/// is synthesized again with a clock uncertainty, where the placed
/// design does not fit though its estimate did, fitted again to a
/// smaller share of the device, and placed again, at most
/// `--closure-tries` times, a note on standard error for each.
fn implement_closed(
    ctx: &mut silica_ir::Context,
    module: &silica_ir::parser::ParsedModule,
    options: &silica_hls::Options,
    first: Placed,
    args: &HlsArgs,
) -> Result<silica_hls::fpga::closure::Closed<Placed>, Failure> {
    let clock_ns = first.0.estimated.clock.asked_ns;
    let mut steps = ClosureSteps {
        ctx,
        module,
        options,
        args,
        margins: silica_hls::flow::report::synthesis::Margins {
            clock_uncertainty_ns: options.clock_uncertainty_ns,
            fit_share: options.fit_share,
        },
        tries: 0,
    };
    silica_hls::fpga::closure::close(&mut steps, first, clock_ns, args.closure_tries)
}

/// Closure's steps in `silica hls`.
struct ClosureSteps<'a> {
    ctx: &'a mut silica_ir::Context,
    module: &'a silica_ir::parser::ParsedModule,
    options: &'a silica_hls::Options,
    args: &'a HlsArgs,
    /// What the design last built was built with.
    margins: silica_hls::flow::report::synthesis::Margins,
    /// The placements made so far.
    tries: u32,
}

impl silica_hls::fpga::closure::Steps<Placed> for ClosureSteps<'_> {
    type Error = Failure;

    fn place(
        &mut self,
        (design, shell): &Placed,
        seed: Option<u64>,
    ) -> Result<
        (
            silica_hls::fpga::Implementation,
            silica_hls::flow::report::synthesis::Try,
        ),
        Failure,
    > {
        let shell_top = shell.as_ref().map(|s| silica_hls::fpga::ShellTop {
            verilog: &s.verilog,
            module: &s.info.module,
            board: &s.board,
        });
        self.tries += 1;
        if self.args.closure_tries > 0 {
            crate::progress::stage(&format!(
                "placement {} of at most {}",
                self.tries,
                self.args.closure_tries + 1
            ));
        }
        let imp = silica_hls::fpga::implement(
            self.ctx,
            design,
            shell_top.as_ref(),
            seed,
            crate::progress::stage,
        )
        .map_err(Failure::Other)?;
        let s = &imp.synthesis;
        let estimate = design.estimated.summary();
        let t = silica_hls::flow::report::synthesis::Try {
            margins: self.margins,
            fmax_mhz: s.fmax_mhz,
            clock_met: s.clock_met && s.overflow.is_none(),
            overflow: s.overflow.clone(),
            area_ratio: silica_hls::fpga::closure::area_ratio(s, &estimate),
            latency: design.estimated.latency(),
            seed,
        };
        Ok((imp, t))
    }

    fn rebuild(
        &mut self,
        margins: silica_hls::flow::report::synthesis::Margins,
    ) -> Result<Placed, Failure> {
        self.margins = margins;
        let options = silica_hls::Options {
            clock_uncertainty_ns: margins.clock_uncertainty_ns,
            fit_share: margins.fit_share,
            ..self.options.clone()
        };
        let (ir, top) = (&self.module.ir, self.module.top);
        let design = silica_hls::synthesize(self.ctx, ir, top, &options).map_err(Failure::Flow)?;
        let shell = match self.args.shell {
            Some(_) => {
                Some(board_shell(self.ctx, &design, self.args.baud).map_err(Failure::Other)?)
            }
            None => None,
        };
        Ok((design, shell))
    }

    fn key(&self, (design, shell): &Placed) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        design.verilog.hash(&mut h);
        shell.as_ref().map(|s| &s.verilog).hash(&mut h);
        h.finish()
    }

    fn latency(&self, (design, _): &Placed) -> Option<u64> {
        design.estimated.latency()
    }

    fn retrying(
        &mut self,
        why: silica_hls::fpga::closure::Retry,
        last: &silica_hls::flow::report::synthesis::Try,
        next: silica_hls::flow::report::synthesis::Margins,
    ) {
        use silica_hls::fpga::closure::Retry;
        let fmax = last.fmax_mhz.unwrap_or(0.0);
        let (now, then) = (last.margins.clock_uncertainty_ns, next.clock_uncertainty_ns);
        match why {
            Retry::Fit => {
                eprintln!(
                "note: closure: {}, {:.2} times its estimate; placing it again fitted to {:.0}% \
                 of the device's LUTs and flip-flops by the estimate",
                last.overflow.as_deref().unwrap_or("the design does not fit"),
                last.area_ratio.unwrap_or(0.0),
                next.fit_share.unwrap_or(0.0) * 100.0
            )
            }
            Retry::Clock => eprintln!(
                "note: timing closure: the design scheduled with {now} ns of clock uncertainty \
                 missed its clock (nextpnr's Fmax {fmax:.2} MHz); placing it again scheduled \
                 with {then} ns"
            ),
            Retry::Seed(seed) => eprintln!(
                "note: timing closure: the design kept missed its clock narrowly (nextpnr's \
                 Fmax {fmax:.2} MHz) and no clock uncertainty gives a new design; placing it \
                 again from placement seed {seed}"
            ),
            Retry::Refine => eprintln!(
                "note: timing closure: a design met its clock with time to spare; placing it \
                 again scheduled with {then} ns of clock uncertainty, which takes fewer cycles"
            ),
        }
    }

    fn failed(&mut self, error: Failure) {
        let message = match error {
            Failure::Flow(d) => d.message,
            Failure::Other(m) => m,
        };
        eprintln!("note: closure: a retry failed ({message}); the placements before it stand");
    }
}

/// Removes any bitstream an earlier `--bitstream` left in `dir`.
fn remove_bitstreams(dir: &Path, top: &str) {
    for name in silica_hls::fpga::bitstream_names(top) {
        let _ = std::fs::remove_file(dir.join(name));
    }
}

/// Writes to standard output; a closed pipe (`| head`) is not an error.
fn say(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().write_all(text.as_bytes());
}

/// Designs whose co-simulation takes at most this many cycles run in
/// silica's own simulator too (the brief's second opinion on the RTL).
const SECOND_OPINION_CYCLES: u64 = 20_000;

/// `--sim`: the design in Verilator against the kernel of the input
/// module (untouched by synthesis); small designs also in silica's
/// simulator, which must report the same, and where the design has DMA,
/// measures there how much of the DMA time computation hides.
fn cosimulate(
    ctx: &mut silica_ir::Context,
    module: &silica_ir::parser::ParsedModule,
    design: &silica_hls::Design,
    args: &HlsArgs,
) -> Result<
    (
        silica_hls::verification::cosim::CosimReport,
        Option<MeasuredOverlap>,
    ),
    String,
> {
    use silica_hls::verification::cosim::{self, stimuli, Rtl};
    let iface = &design.estimated.interface;
    let scalars = args
        .sim_scalars
        .iter()
        .map(|a| stimuli::parse_scalar(iface, a).map_err(|e| format!("--sim-scalar: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let vcd = waveform(args)?;
    let options = cosim::Options {
        scalars,
        keep_dir: args.sim_dir.clone(),
        vcd,
        vcd_all: args.vcd_all,
        progress: crate::progress::stage,
        expected_cycles: design.estimated.latency(),
        // The register map as F.json has it: the testbench checks F.h and
        // the RTL against it.
        axi: match &design.estimated.axi {
            Some(_) => Some(silica_hls::model::register_map::RegisterMap::from_json(
                &design
                    .estimated
                    .json_text(&silica_hls::Measurements::default()),
            )?),
            None => None,
        },
        ..cosim::Options::default()
    };
    let rtl = Rtl::Text(&design.verilog);
    let report = cosim::cosimulate(ctx, &module.ir, module.top, iface, rtl, args.seed, &options)
        .map_err(|e| e.to_string())?;
    // The AXI run measures the whole wrapper; silica's simulator runs cores
    // and has no Verilog reader for hand-written modules (`--ip`).
    if report.latency > SECOND_OPINION_CYCLES
        || design.estimated.axi.is_some()
        || !design.ip_verilog.is_empty()
    {
        return Ok((report, None));
    }
    let hw = parse(
        ctx,
        "F.hw.mlir",
        design.hw_mlir.as_bytes(),
        ParseOptions::default(),
    )
    .map_err(|d| format!("F.hw.mlir does not read back: {}", d.message))?;
    let core = silica_ir::symbols::lookup(ctx, &hw.ir, hw.top, &args.top)
        .ok_or_else(|| format!("F.hw.mlir has no module '{}'", args.top))?;
    crate::progress::stage("silica's simulator: the second opinion");
    let second = cosim::cosimulate_in_silica(
        ctx, &module.ir, module.top, iface, &hw.ir, core, args.seed, &options,
    );
    let overlap = match &design.estimated.construction.dma_probe {
        Some(probe) if report.passed() => {
            let o = cosim::overlap::measure(ctx, &hw.ir, core, iface, probe, args.seed, &options)
                .map_err(|e| e.to_string())?;
            Some(MeasuredOverlap {
                source: format!("measured in silica's simulator, seed {}", args.seed),
                cycles: o,
            })
        }
        _ => None,
    };
    match second {
        Ok(second) if second == report => Ok((report, overlap)),
        Ok(second) => Err(format!(
            "Verilator and silica's simulator disagree:\n  Verilator: {report}\n  silica sim: {second}"
        )),
        Err(e) => Err(format!(
            "Verilator and silica's simulator disagree:\n  Verilator: {report}\n  silica sim: {e}"
        )),
    }
}

/// Where the co-simulation's waveform goes: `F.vcd` in the output
/// directory with `--vcd`; with `--trace` alone, a file of its own in
/// the temporary directory (the trace is read off it, then it is removed).
fn waveform(args: &HlsArgs) -> Result<Option<PathBuf>, String> {
    if args.vcd {
        let dir = Path::new(&args.output);
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create '{}': {e}", args.output))?;
        Ok(Some(dir.join(format!("{}.vcd", args.top))))
    } else if args.trace {
        let name = format!("silica-trace-{}-{}.vcd", std::process::id(), args.top);
        Ok(Some(std::env::temp_dir().join(name)))
    } else {
        Ok(None)
    }
}

/// `F.trace.json` of the co-simulated run of `design`, read off its
/// waveform (`waveform`), which is removed unless `--vcd` keeps it.
fn trace_file(design: &silica_hls::Design, args: &HlsArgs) -> Result<(String, Vec<u8>), String> {
    let path = waveform(args)?.ok_or("--trace without a waveform")?;
    let vcd = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read the waveform {}: {e}", path.display()));
    if !args.vcd {
        let _ = std::fs::remove_file(&path);
    }
    let e = &design.estimated;
    let trace = silica_hls::verification::trace::chrome_trace(
        &vcd?,
        &e.interface,
        &e.construction.states,
        e.clock.asked_ns,
    )
    .map_err(|m| format!("--trace: {m}"))?;
    Ok((format!("{}.trace.json", args.top), trace.into_bytes()))
}

/// `F.inputs.txt` and `F.expected.txt`: the co-simulation's inputs and
/// the software's outputs on them (with the measured cycles), for
/// `silica run-board --expect`.
fn run_board_files(
    ctx: &mut silica_ir::Context,
    module: &silica_ir::parser::ParsedModule,
    design: &silica_hls::Design,
    args: &HlsArgs,
    cycles: u64,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    use silica_hls::verification::cosim::{self, process::Limits, stimuli};
    use silica_hls::wrappers::shell::values;
    let iface = &design.estimated.interface;
    let scalars = args
        .sim_scalars
        .iter()
        .map(|a| stimuli::parse_scalar(iface, a))
        .collect::<Result<Vec<_>, _>>()?;
    let options = cosim::Options {
        scalars,
        ..cosim::Options::default()
    };
    let inputs = stimuli::Stimuli::generate(iface, args.seed, &options)?;
    let dir = std::env::temp_dir().join(format!("silica-run-board-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let limits = Limits {
        timeout: options.timeout,
    };
    let outputs = cosim::software::run(ctx, &module.ir, module.top, iface, &inputs, &dir, &limits);
    let _ = std::fs::remove_dir_all(&dir);
    let outputs = outputs.map_err(|e| e.to_string())?;
    let top = &iface.top;
    Ok(vec![
        (
            format!("{top}.inputs.txt"),
            values::inputs_text(iface, &inputs.values).into_bytes(),
        ),
        (
            format!("{top}.expected.txt"),
            values::outputs_text(iface, &outputs.memories, &outputs.results, cycles).into_bytes(),
        ),
    ])
}

/// Writes every file into `dir`, each through a temporary file renamed
/// over its name.
fn write_outputs(dir: &Path, files: &[(String, Vec<u8>)]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in files {
        let path = dir.join(name);
        let temp = dir.join(format!(".{name}.silica-{}", std::process::id()));
        std::fs::write(&temp, text)?;
        std::fs::rename(&temp, &path).inspect_err(|_| {
            let _ = std::fs::remove_file(&temp);
        })?;
    }
    Ok(())
}
