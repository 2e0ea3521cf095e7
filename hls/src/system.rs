//! System co-simulation (`silica cosim MAIN --kernel F`): a user's
//! program that calls the kernel `F` is compiled twice through silica's
//! LLVM path (`cosim::software::lower`) and `llc-22`, and linked with
//! `g++`: once as written (the software `F`), once with `F` a declaration
//! and the generated host stub (`host`) linked to the `sim` driver backend
//! (`hls/runtime/sim.cpp`) and the Verilated wrapper `F_axi`. Both run;
//! their standard outputs must be identical. The backend's per-call lines
//! (cycles, AXI reads, writes and bytes) and the wall times are reported.

use crate::cosim::process::{run_tool, Limits};
use crate::cosim::software;
use crate::Design;
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::resources::Resources;
use silica_ir::{Context, Ir, OpId};
use std::path::Path;
use std::time::Instant;

/// The driver backend's sources, written into the work directory.
const RUNTIME: [(&str, &str); 3] = [
    ("silica_dev.h", include_str!("../runtime/silica_dev.h")),
    ("axi_model.h", include_str!("../runtime/axi_model.h")),
    ("sim.cpp", include_str!("../runtime/sim.cpp")),
];

/// What a system co-simulation found.
#[derive(Clone, Debug)]
pub struct SystemReport {
    /// Lines of output both programs printed.
    pub lines: usize,
    /// The backend's report of each call of the kernel.
    pub calls: Vec<String>,
    /// Wall time of the software and of the co-simulated program, in s.
    pub software_s: f64,
    pub hardware_s: f64,
}

/// Co-simulates the program `module` of `ir` (which defines `main` and
/// the kernel of `design`, synthesised with `--interface axi`) with the
/// host stub `host_llvm` (`F_host.ll`), working in `dir`.
pub fn cosimulate(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    design: &Design,
    host_llvm: &str,
    dir: &Path,
    limits: &Limits,
) -> Result<SystemReport, String> {
    let top = &design.interface.top;
    let map = design
        .axi
        .as_ref()
        .ok_or("the design is not wrapped for a host (--interface axi)")?;
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    let tool = |program: &str, args: &[&str]| {
        run_tool(program, args, dir, limits).map_err(|e| format!("{program}: {e}"))
    };
    let llc = |name: &str| {
        let obj = format!("{name}.o");
        tool(
            "llc-22",
            &["-filetype=obj", "-relocation-model=pic", name, "-o", &obj],
        )
        .map(|_| obj)
    };
    // The software program.
    let text = print_module(
        ctx,
        ir,
        module,
        &Resources::default(),
        PrintFlags::default(),
    );
    let software_ll = software::lower(ctx, &text).map_err(|e| e.to_string())?;
    write("software.ll", &software_ll)?;
    let software_o = llc("software.ll")?;
    tool("g++", &[&software_o, "-o", "software"])?;
    let started = Instant::now();
    let expected = tool(&dir.join("software").to_string_lossy(), &[])?;
    let software_s = started.elapsed().as_secs_f64();
    // The program with the accelerator.
    let mut caller = ir.clone();
    declare_only(ctx, &mut caller, module, top)?;
    let text = print_module(
        ctx,
        &caller,
        module,
        &Resources::default(),
        PrintFlags::default(),
    );
    let main_ll = software::lower(ctx, &text).map_err(|e| e.to_string())?;
    write("main.ll", &main_ll)?;
    let main_o = llc("main.ll")?;
    write(&format!("{top}_host.ll"), host_llvm)?;
    let host_o = llc(&format!("{top}_host.ll"))?;
    write(&format!("{top}.sv"), &design.verilog)?;
    std::fs::create_dir_all(dir.join("runtime"))
        .map_err(|e| format!("cannot create runtime/: {e}"))?;
    for (name, text) in RUNTIME {
        write(&format!("runtime/{name}"), text)?;
    }
    let dir_text = dir.to_string_lossy().into_owned();
    let include = format!("-I{dir_text}/runtime");
    let (main_o, host_o, sv) = (
        format!("{dir_text}/{main_o}"),
        format!("{dir_text}/{host_o}"),
        format!("{top}.sv"),
    );
    tool(
        crate::cosim::verilator::VERILATOR,
        &[
            "--cc",
            "--exe",
            "--build",
            "-j",
            "2",
            "--prefix",
            "Vdut",
            "--top-module",
            &map.module,
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "-CFLAGS",
            &include,
            "--Mdir",
            "obj",
            "-o",
            "hardware",
            &sv,
            "runtime/sim.cpp",
            &main_o,
            &host_o,
        ],
    )?;
    let started = Instant::now();
    let got = tool(&dir.join("obj/hardware").to_string_lossy(), &[])?;
    let hardware_s = started.elapsed().as_secs_f64();
    let stderr = std::fs::read_to_string(dir.join("hardware.stderr")).unwrap_or_default();
    if let Some((i, (s, h))) = expected
        .lines()
        .zip(got.lines())
        .enumerate()
        .find(|(_, (s, h))| s != h)
    {
        return Err(format!(
            "the outputs differ at line {}: software '{s}', accelerator '{h}'",
            i + 1
        ));
    }
    if expected.lines().count() != got.lines().count() {
        return Err(format!(
            "the software printed {} lines, the program with the accelerator {}",
            expected.lines().count(),
            got.lines().count()
        ));
    }
    Ok(SystemReport {
        lines: expected.lines().count(),
        calls: stderr
            .lines()
            .filter_map(|l| l.strip_prefix("silica sim: "))
            .map(str::to_string)
            .collect(),
        software_s,
        hardware_s,
    })
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
