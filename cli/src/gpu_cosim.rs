//! `silica cosim MAIN --kernel F --gpu`: the program run in software and
//! with `F` on the GPU (`silica gpu`'s host side and driver layer); their
//! standard outputs must be identical. Both programs are compiled
//! through silica's LLVM path, `llc-22` and `gcc`: the software one as
//! written, the other with `F` a declaration, linked with `F_host.ll`
//! and `silica_gpu.c`. `--gpu-driver fake` runs the kernels' CPU build
//! behind the fake CUDA driver (`libsilica_fake_cuda.so`, built from
//! `fake_cuda.c` and `F.cpu.ll`) instead of the NVIDIA driver.
//! `--build-only` stops once both programs are built (in `-o DIR`, to be
//! run on a machine with a GPU).

use silica_hls::verification::cosim::process::{run_tool, run_tool_with_env, Limits};
use silica_hls::verification::cosim::software;
use silica_ir::printer::module_text;
use silica_ir::{Context, Ir, OpId};
use std::path::Path;
use std::time::Instant;

/// Which CUDA driver the program with the GPU loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Driver {
    /// The NVIDIA driver's `libcuda.so.1`.
    Cuda,
    /// silica's fake driver running the kernels' CPU build.
    Fake,
}

/// What the GPU co-simulation is asked for.
pub struct Request<'a> {
    pub kernel: &'a str,
    pub chip: &'a str,
    pub block: &'a [i64],
    pub driver: Driver,
    pub build_only: bool,
}

/// What it found.
pub struct Report {
    pub lines: usize,
    pub software_s: f64,
    pub gpu_s: f64,
    /// The driver layer's line for each launch.
    pub launches: Vec<String>,
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
    let private = ctx.string_attr(b"private");
    silica_ir::dialect::set_discardable_attr(ctx, ir, func, "sym_visibility", private);
    Ok(())
}

/// Builds both programs in `dir` and, unless `build_only`, runs and
/// compares them.
pub fn cosimulate(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    request: &Request<'_>,
    dir: &Path,
) -> Result<Option<Report>, String> {
    let limits = Limits {
        timeout: std::time::Duration::from_secs(600),
    };
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).map_err(|e| format!("cannot write {name}: {e}"))
    };
    let tool = |program: &str, args: &[&str]| {
        run_tool(program, args, dir, &limits).map_err(|e| format!("{program}: {e}"))
    };
    let llc = |name: &str| {
        let obj = format!("{name}.o");
        tool(
            "llc-22",
            &["-filetype=obj", "-relocation-model=pic", name, "-o", &obj],
        )
        .map(|_| obj)
    };
    let top = request.kernel;
    // The GPU code.
    let mut work = ir.clone();
    let options = silica_gpu::flow::Options {
        top: top.to_string(),
        chip: request.chip.to_string(),
        block: request.block.to_vec(),
    };
    let code = silica_gpu::flow::compile(ctx, &mut work, module, &options)
        .map_err(|d| format!("silica gpu: {}", d.message))?;
    for note in &code.notes {
        eprintln!("note: {note}");
    }
    let ptx = silica_gpu::device::ptx(&code.device_llvm, &code.device.target)?;
    write(&format!("{top}.ptx"), &ptx)?;
    let kernels = code.device.kernels.clone();
    let host = silica_gpu::host::host_code(ctx, &mut work, code.host, top, &kernels, &ptx)
        .map_err(|d| format!("the host side: {}", d.message))?;
    // The software program.
    let text = module_text(ctx, ir, module);
    let software_ll = software::lower(ctx, &text).map_err(|e| e.to_string())?;
    write("software.ll", &software_ll)?;
    let software_o = llc("software.ll")?;
    tool("gcc", &[&software_o, "-lm", "-o", "software"])?;
    // The program with the GPU.
    let mut caller = ir.clone();
    declare_only(ctx, &mut caller, module, top)?;
    let main_ll =
        software::lower(ctx, &module_text(ctx, &caller, module)).map_err(|e| e.to_string())?;
    write("main.ll", &main_ll)?;
    let main_o = llc("main.ll")?;
    write(&format!("{top}_host.ll"), &host)?;
    let host_o = llc(&format!("{top}_host.ll"))?;
    write("silica_gpu.h", silica_gpu::runtime::HEADER)?;
    write("silica_gpu.c", silica_gpu::runtime::DRIVER)?;
    tool(
        "gcc",
        &[
            "-O1",
            "-I.",
            &main_o,
            &host_o,
            "silica_gpu.c",
            "-ldl",
            "-lm",
            "-o",
            "gpu",
        ],
    )?;
    let library = match request.driver {
        Driver::Cuda => None,
        Driver::Fake => {
            let cpu = silica_gpu::cpu::cpu_code(ctx, &mut work, &code.device)
                .map_err(|d| format!("the kernels' CPU build: {}", d.message))?;
            write(&format!("{top}.cpu.ll"), &cpu)?;
            let cpu_o = llc(&format!("{top}.cpu.ll"))?;
            write("fake_cuda.c", silica_gpu::runtime::FAKE_CUDA)?;
            let lib = "libsilica_fake_cuda.so";
            tool(
                "gcc",
                &[
                    "-O1",
                    "-fPIC",
                    "-shared",
                    "fake_cuda.c",
                    &cpu_o,
                    "-lm",
                    "-o",
                    lib,
                ],
            )?;
            Some(dir.join(lib))
        }
    };
    if request.build_only {
        return Ok(None);
    }
    let started = Instant::now();
    let expected = tool(&dir.join("software").to_string_lossy(), &[])?;
    let software_s = started.elapsed().as_secs_f64();
    let mut env: Vec<(&str, &Path)> = vec![("SILICA_GPU_TRACE", Path::new("1"))];
    if let Some(lib) = &library {
        env.push(("SILICA_CUDA_LIBRARY", lib.as_path()));
    }
    let started = Instant::now();
    let program = dir.join("gpu");
    let got = run_tool_with_env(&program.to_string_lossy(), &[], &env, dir, &limits)
        .map_err(|e| format!("the program with the GPU: {e}"))?;
    let gpu_s = started.elapsed().as_secs_f64();
    if let Some((i, (s, g))) = expected
        .lines()
        .zip(got.lines())
        .enumerate()
        .find(|(_, (s, g))| s != g)
    {
        return Err(format!(
            "the outputs differ at line {}: software '{s}', GPU '{g}'",
            i + 1
        ));
    }
    if expected.lines().count() != got.lines().count() {
        return Err(format!(
            "the software printed {} lines, the program with the GPU {}",
            expected.lines().count(),
            got.lines().count()
        ));
    }
    let stderr = std::fs::read_to_string(dir.join("gpu.stderr")).unwrap_or_default();
    Ok(Some(Report {
        lines: expected.lines().count(),
        software_s,
        gpu_s,
        launches: stderr
            .lines()
            .filter_map(|l| l.strip_prefix("silica gpu: "))
            .map(str::to_string)
            .collect(),
    }))
}
