//! System co-simulation (`silica cosim MAIN --kernel F`): a user's
//! program that calls the kernel `F` is compiled twice through silica's
//! LLVM path (`cosim::software::lower`) and `llc-22`: once as written (the
//! software `F`), once with `F` a declaration and the generated host stub
//! (`host`) linked to a driver backend. Both run; their standard outputs
//! must be identical. A program built elsewhere (C, by clang) comes as
//! [`Programs`] ([`cosimulate_programs`]); its standard error is
//! compared too, less the backend's lines. The backend's per-call lines
//! and the wall times are reported. Backends ([`Backend`]):
//! - `sim`: the Verilated wrapper `F_axi` with the AXI memory model in
//!   the program's process (`hls/runtime/sim.cpp` as the model's main
//!   file, built with Verilator's runtime objects from the cache);
//! - `uart`: the board shell `F_shell` in Verilator behind a
//!   pseudo-terminal (`emulator`, as `run-board --emulate`), the
//!   program linked with `hls/runtime/uart.c`, which speaks the shell's
//!   protocol to the pseudo-terminal as to a board's serial port.

use crate::flow::design::Design;
use crate::verification::cosim::process::{run_tool, run_tool_with_env, Limits};
use crate::verification::cosim::verilator::{self, Bench};
use crate::verification::cosim::{software, Options};
use crate::verification::emulator;
use silica_ir::printer::module_text;
use silica_ir::{Context, Ir, OpId};
use std::path::Path;
use std::time::Instant;

/// The `sim` driver backend: the model's C++ main file (the program's
/// `main` comes from its object).
const SIM_BACKEND: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/runtime/sim.cpp"));

/// The `uart` driver backend.
const UART_BACKEND: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/runtime/uart.c"));

/// The headers the `sim` backend includes, written beside it.
const RUNTIME: [(&str, &str); 2] = [
    (
        "silica_dev.h",
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/runtime/silica_dev.h")),
    ),
    (
        "axi_model.h",
        include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/runtime/axi_model.h")),
    ),
];

/// What a system co-simulation found.
#[derive(Clone, Debug)]
pub struct SystemReport {
    /// Lines of output both programs printed.
    pub lines: usize,
    /// Lines of error output both printed, where compared.
    pub error_lines: usize,
    /// The backend's report of each call of the kernel.
    pub calls: Vec<String>,
    /// Wall time of the software and of the co-simulated program, in s.
    pub software_s: f64,
    pub hardware_s: f64,
}

/// The driver backend that the program with the accelerator links.
pub enum Backend<'a> {
    /// The AXI wrapper in Verilator (the design has `--interface axi`).
    Sim,
    /// The board shell in Verilator behind a pseudo-terminal.
    Uart {
        /// The shell's SystemVerilog (shell and core) and top module.
        verilog: &'a str,
        module: &'a str,
        /// Clock cycles per bit, and the line's rate.
        divider: u64,
        baud: u32,
    },
}

/// The two programs of a system co-simulation, built elsewhere (a C
/// program, by clang).
pub struct Programs<'a> {
    /// The program as written, built.
    pub software: &'a Path,
    /// The objects of the program with the accelerator, but for the host
    /// stub and the backend (absolute paths).
    pub objects: Vec<String>,
    /// Whether standard error must be identical too (less the backend's
    /// own lines).
    pub compare_stderr: bool,
}

/// Co-simulates the program `module` of `ir` (which defines `main` and
/// the kernel of `design`) with the host stub `host_llvm` (`F_host.ll`)
/// over `backend`, working in `dir`.
#[allow(clippy::too_many_arguments)]
pub fn cosimulate(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    design: &Design,
    host_llvm: &str,
    backend: &Backend<'_>,
    dir: &Path,
    limits: &Limits,
) -> Result<SystemReport, String> {
    let top = &design.estimated.interface.top;
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    let tool = |program: &str, args: &[&str]| {
        run_tool(program, args, dir, limits).map_err(|e| format!("{program}: {e}"))
    };
    let llc = |name: &str| llc(name, dir, limits);
    // The software program.
    let text = module_text(ctx, ir, module);
    let software_ll = software::lower(ctx, &text).map_err(|e| e.to_string())?;
    write("software.ll", &software_ll)?;
    let software_o = llc("software.ll")?;
    tool("g++", &[&software_o, "-o", "software"])?;
    // The program with the accelerator.
    let mut caller = ir.clone();
    declare_only(ctx, &mut caller, module, top)?;
    let text = module_text(ctx, &caller, module);
    let main_ll = software::lower(ctx, &text).map_err(|e| e.to_string())?;
    write("main.ll", &main_ll)?;
    let main_o = llc("main.ll")?;
    let dir_text = dir.to_string_lossy().into_owned();
    let programs = Programs {
        software: &dir.join("software"),
        objects: vec![format!("{dir_text}/{main_o}")],
        compare_stderr: false,
    };
    cosimulate_programs(design, &programs, host_llvm, backend, dir, limits)
}

/// `llc-22` on `name` in `dir`: the object's name.
fn llc(name: &str, dir: &Path, limits: &Limits) -> Result<String, String> {
    let obj = format!("{name}.o");
    run_tool(
        "llc-22",
        &["-filetype=obj", "-relocation-model=pic", name, "-o", &obj],
        dir,
        limits,
    )
    .map_err(|e| format!("llc-22: {e}"))?;
    Ok(obj)
}

/// Runs `programs.software`, builds the program with the accelerator
/// from `programs.objects`, the host stub `host_llvm` and `backend`,
/// runs it, and compares their outputs; works in `dir`.
pub fn cosimulate_programs(
    design: &Design,
    programs: &Programs<'_>,
    host_llvm: &str,
    backend: &Backend<'_>,
    dir: &Path,
    limits: &Limits,
) -> Result<SystemReport, String> {
    let top = &design.estimated.interface.top;
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    let tool = |program: &str, args: &[&str]| {
        run_tool(program, args, dir, limits).map_err(|e| format!("{program}: {e}"))
    };
    let started = Instant::now();
    let expected = tool(&programs.software.to_string_lossy(), &[])?;
    let software_s = started.elapsed().as_secs_f64();
    let stem = programs
        .software
        .file_name()
        .map_or_else(|| "software".into(), |n| n.to_string_lossy().into_owned());
    let expected_err =
        std::fs::read_to_string(dir.join(format!("{stem}.stderr"))).unwrap_or_default();
    write(&format!("{top}_host.ll"), host_llvm)?;
    let host_o = llc(&format!("{top}_host.ll"), dir, limits)?;
    let dir_text = dir.to_string_lossy().into_owned();
    let mut objects = programs.objects.clone();
    objects.push(format!("{dir_text}/{host_o}"));
    let (got, hardware_s, prefix) = match backend {
        Backend::Sim => {
            let map = design
                .estimated
                .axi
                .as_ref()
                .ok_or("the design is not wrapped for a host (--interface axi)")?;
            write(&format!("{top}.sv"), &design.verilog)?;
            let bench = Bench {
                top: &map.module,
                testbench: SIM_BACKEND.to_string(),
                files: RUNTIME
                    .iter()
                    .map(|(name, text)| (name.to_string(), text.to_string()))
                    .collect(),
                objects,
                program: "hardware",
                traced: Vec::new(),
            };
            let options = Options {
                timeout: limits.timeout,
                ..Options::default()
            };
            let sv = dir.join(format!("{top}.sv"));
            let model =
                verilator::build_bench(&bench, &sv, &options, dir).map_err(|e| e.to_string())?;
            let started = Instant::now();
            let got = tool(&model.binary().to_string_lossy(), &[])?;
            (got, started.elapsed().as_secs_f64(), "silica sim: ")
        }
        Backend::Uart {
            verilog,
            module,
            divider,
            baud,
        } => {
            write("silica_dev.h", RUNTIME[0].1)?;
            write("uart.c", UART_BACKEND)?;
            let mut args = vec!["-O1", "-I.", "uart.c"];
            args.extend(objects.iter().map(String::as_str));
            args.extend(["-o", "hardware"]);
            tool("gcc", &args)?;
            let work = dir.join("emulator");
            std::fs::create_dir_all(&work).map_err(|e| format!("cannot create emulator/: {e}"))?;
            let binary = emulator::build(verilog, module, *divider, &work)?;
            let running = emulator::Running::start(&binary, *baud)?;
            let baud = baud.to_string();
            let env = [
                ("SILICA_UART_PORT", running.port.as_path()),
                ("SILICA_UART_BAUD", Path::new(&baud)),
            ];
            let started = Instant::now();
            let program = dir.join("hardware");
            let got = run_tool_with_env(&program.to_string_lossy(), &[], &env, dir, limits)
                .map_err(|e| format!("hardware: {e}"))?;
            (got, started.elapsed().as_secs_f64(), "silica uart: ")
        }
    };
    let stderr = std::fs::read_to_string(dir.join("hardware.stderr")).unwrap_or_default();
    compare("outputs", &expected, &got)?;
    let mut error_lines = 0;
    if programs.compare_stderr {
        let own: String = stderr
            .lines()
            .filter(|l| !l.starts_with(prefix))
            .map(|l| format!("{l}\n"))
            .collect();
        compare("error outputs", &expected_err, &own)?;
        error_lines = expected_err.lines().count();
    }
    Ok(SystemReport {
        lines: expected.lines().count(),
        error_lines,
        calls: stderr
            .lines()
            .filter_map(|l| l.strip_prefix(prefix))
            .map(str::to_string)
            .collect(),
        software_s,
        hardware_s,
    })
}

/// Checks that the program with the accelerator printed `got` where
/// the software printed `expected` (`what`: which output).
fn compare(what: &str, expected: &str, got: &str) -> Result<(), String> {
    if let Some((i, (s, h))) = expected
        .lines()
        .zip(got.lines())
        .enumerate()
        .find(|(_, (s, h))| s != h)
    {
        return Err(format!(
            "the {what} differ at line {}: software '{s}', accelerator '{h}'",
            i + 1
        ));
    }
    if expected.lines().count() != got.lines().count() {
        let stream = if what == "outputs" {
            ""
        } else {
            " of error output"
        };
        return Err(format!(
            "the software printed {} lines{stream}, the program with the accelerator {}",
            expected.lines().count(),
            got.lines().count()
        ));
    }
    Ok(())
}

/// Makes the function `name` of `module` a private declaration.
fn declare_only(ctx: &mut Context, ir: &mut Ir, module: OpId, name: &str) -> Result<(), String> {
    let func = silica_ir::symbols::lookup(ctx, ir, module, name)
        .ok_or_else(|| format!("the program has no function '{name}'"))?;
    let blocks: Vec<_> = ir
        .regions(func)
        .flat_map(|r| ir.region_blocks(r).collect::<Vec<_>>())
        .collect();
    for b in blocks {
        ir.erase_block(b);
    }
    let key = ctx.sym("sym_visibility");
    let private = ctx.string_attr(b"private");
    let mut entries = ctx.dict_entries(ir.op_attrs(func)).to_vec();
    entries.retain(|(k, _)| *k != key);
    entries.push((key, private));
    let dict = ctx.dict_attr(entries);
    ir.set_op_attrs(func, dict);
    Ok(())
}
