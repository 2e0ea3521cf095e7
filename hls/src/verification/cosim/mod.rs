//! Co-simulation: the proof that a synthesised design computes what its
//! kernel computes. Seeded random inputs ([`stimuli`]) go to the kernel
//! run on the host through silica's LLVM path and `lli-22`
//! ([`software`]) and to the RTL in Verilator with a testbench generated
//! from the [`Interface`] ([`verilator`], one model build for any number
//! of seeds, [`cosimulate_seeds`]); every memory word and scalar
//! result is compared bit for bit ([`compare`]), and the hardware's
//! latency in cycles is measured. For small designs, the hw/comb/seq
//! design itself can also be run in silica's own simulator
//! ([`silica_sim`], [`cosimulate_in_silica`]) as a second opinion.

pub mod axi_testbench;
pub(crate) mod build_cache;
pub mod compare;
pub mod dma_copies;
pub mod outputs;
pub mod overlap;
pub mod process;
pub mod silica_sim;
pub mod software;
pub mod stimuli;
pub mod verilator;

use crate::model::interface::Interface;
use compare::Mismatch;
use num_bigint::BigUint;
use outputs::Outputs;
use process::Limits;
use silica_ir::{Context, Ir, OpId};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;
use stimuli::Stimuli;

/// The design under test.
#[derive(Clone, Copy, Debug)]
pub enum Rtl<'a> {
    /// SystemVerilog text (written to the work directory).
    Text(&'a str),
    /// A SystemVerilog file.
    File(&'a Path),
}

/// Settings of a co-simulation.
#[derive(Clone, Debug)]
pub struct Options {
    /// The inclusive range of random `index` scalars (they are usually
    /// bounds or trip counts): 1 to 16 by default.
    pub index_range: (u64, u64),
    /// Scalar arguments given a fixed value (by name) instead of a random one.
    pub scalars: Vec<(String, BigUint)>,
    /// Cycles after start within which the core must raise `done`.
    pub max_cycles: u64,
    /// The latency the static schedule gives, if it does: a run known to
    /// be short gets a Verilator model compiled without C++ optimisation
    /// ([`verilator::QUICK_BUILD_CYCLES`]).
    pub expected_cycles: Option<u64>,
    /// Wall-clock limit of each tool run (lli, the Verilator build, the model).
    pub timeout: Duration,
    /// Work in this directory and keep it (default: a temporary
    /// directory removed afterwards).
    pub keep_dir: Option<PathBuf>,
    /// How many units in the last place float outputs may differ; by
    /// default 1 when the kernel calls `math.exp`, `math.log` or
    /// `math.powf` (the brief's one tolerance), else 0.
    pub float_ulps: Option<u32>,
    /// Write the Verilator run's waveform (VCD) here.
    pub vcd: Option<PathBuf>,
    /// Trace every signal into `vcd`, not only the core's ports and its
    /// controller's state registers.
    pub vcd_all: bool,
    /// Told each stage as it starts (the software run, the Verilator
    /// build, each simulated seed).
    pub progress: fn(&str),
    /// Co-simulate the design wrapped for `--interface axi` (its
    /// register map, as `F.json` has it) through its AXI ports
    /// (`crate::wrappers::axi::testbench`) instead of the core's memory ports.
    pub axi: Option<crate::model::register_map::RegisterMap>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            index_range: (1, 16),
            scalars: Vec::new(),
            max_cycles: 10_000_000,
            expected_cycles: None,
            timeout: Duration::from_secs(600),
            keep_dir: None,
            float_ulps: None,
            vcd: None,
            vcd_all: false,
            progress: |_| {},
            axi: None,
        }
    }
}

/// The outcome of a co-simulation that ran to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CosimReport {
    /// The seed of the inputs.
    pub seed: u64,
    /// Cycles from start to done in the hardware.
    pub latency: u64,
    /// How many values (memory words and results) were compared.
    pub compared: usize,
    /// How many of them differ.
    pub differing: usize,
    /// The float tolerance applied, in units in the last place.
    pub float_ulps: u32,
    /// The first that differs.
    pub first_mismatch: Option<Mismatch>,
    /// The scalar inputs of the run, by name (to reproduce it, and since
    /// a random bound past a memory's end explains many a mismatch).
    pub scalars: Vec<(String, BigUint)>,
    /// What the testbench reported beside the outputs (the AXI traffic).
    pub notes: Vec<String>,
}

impl CosimReport {
    /// Whether hardware and software agree on every value.
    pub fn passed(&self) -> bool {
        self.first_mismatch.is_none()
    }
}

impl fmt::Display for CosimReport {
    /// `co-simulation (seed 1): 24 values match, latency 17 cycles`, or
    /// on a mismatch how many differ and the first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let latency = format!(
            "latency {}",
            plural(self.latency as usize, "cycle", "cycles")
        );
        let tolerance = if self.float_ulps > 0 {
            format!(" (floats within {} ulp)", self.float_ulps)
        } else {
            String::new()
        };
        write!(f, "co-simulation (seed {}): ", self.seed)?;
        match &self.first_mismatch {
            None => write!(
                f,
                "{}{tolerance}, {latency}",
                plural(self.compared, "value matches", "values match")
            ),
            Some(m) => {
                write!(
                    f,
                    "{} of {}{tolerance}; first {m} ({latency}",
                    self.differing,
                    plural(self.compared, "value differs", "values differ")
                )?;
                let scalars: Vec<String> = self
                    .scalars
                    .iter()
                    .map(|(n, v)| format!("{n} = 0x{v:x}"))
                    .collect();
                if !scalars.is_empty() {
                    write!(f, "; scalar inputs {}", scalars.join(", "))?;
                }
                write!(f, ")")
            }
        }
    }
}

/// Why a co-simulation could not compare the two sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CosimError {
    /// The kernel, interface or options cannot be co-simulated.
    Input(String),
    /// The software side failed (harness, lowering or `lli-22`).
    Software(String),
    /// The software run stopped at an access past its memref (the op's
    /// place and the index); [`cosimulate_seeds`] adds what the hardware
    /// did on the same inputs.
    OutOfBounds(String),
    /// The hardware broke the contract (timeout, `done`, addresses).
    Hardware(String),
    /// A tool could not be run or a file written (Verilator build included).
    Tool(String),
}

impl fmt::Display for CosimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CosimError::Input(m) => write!(f, "co-simulation: {m}"),
            CosimError::Software(m) | CosimError::OutOfBounds(m) => {
                write!(f, "co-simulation, software side: {m}")
            }
            CosimError::Hardware(m) => write!(f, "co-simulation, hardware side: {m}"),
            CosimError::Tool(m) => write!(f, "co-simulation: {m}"),
        }
    }
}

impl std::error::Error for CosimError {}

/// Co-simulates the kernel `iface.top` of `module` (a parsed
/// `builtin.module` as the user wrote it, before any synthesis
/// transformation: it is the reference; `ctx` has its dialects
/// registered) against `rtl` in Verilator, with inputs drawn from
/// `seed`.
pub fn cosimulate(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    iface: &Interface,
    rtl: Rtl<'_>,
    seed: u64,
    options: &Options,
) -> Result<CosimReport, CosimError> {
    let mut reports = cosimulate_seeds(ctx, ir, module, iface, rtl, &[seed], options)?;
    Ok(reports.remove(0))
}

/// [`cosimulate`] for each of `seeds`, building the Verilator model once:
/// one report per seed, in order (the first error ends the runs).
pub fn cosimulate_seeds(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    iface: &Interface,
    rtl: Rtl<'_>,
    seeds: &[u64],
    options: &Options,
) -> Result<Vec<CosimReport>, CosimError> {
    check_kernel(ctx, ir, module, iface)?;
    let dir = WorkDir::new(options.keep_dir.as_deref())?;
    let sv = match rtl {
        Rtl::File(path) => path
            .canonicalize()
            .map_err(|e| CosimError::Input(format!("cannot read {}: {e}", path.display())))?,
        Rtl::Text(text) => {
            let path = dir.path().join(format!("{}.sv", iface.top));
            std::fs::write(&path, text)
                .map_err(|e| CosimError::Tool(format!("cannot write {}: {e}", path.display())))?;
            path
        }
    };
    let ulps = float_ulps(ctx, ir, module, options);
    let mut model = None;
    let mut reports = Vec::with_capacity(seeds.len());
    for &seed in seeds {
        (options.progress)(&format!("software: lli-22, seed {seed}"));
        let (stimuli, software) = software_side(ctx, ir, module, iface, seed, options, &dir)?;
        let model = match &model {
            Some(m) => m,
            None => {
                (options.progress)("Verilator: building the model");
                model.insert(build_model(iface, &sv, options, dir.path())?)
            }
        };
        let software = match software {
            Ok(outputs) => outputs,
            Err(stopped) => {
                (options.progress)(&format!("Verilator: simulating, seed {seed}"));
                let run = verilator::simulate(model, iface, &stimuli, seed, options, dir.path());
                return Err(out_of_bounds(&stopped, run));
            }
        };
        (options.progress)(&format!("Verilator: simulating, seed {seed}"));
        let run = verilator::simulate(model, iface, &stimuli, seed, options, dir.path())?;
        let hardware = Outputs::parse(&run.outputs, iface)
            .map_err(|e| CosimError::Hardware(format!("the testbench's output: {e}")))?;
        let mut r = report(
            iface,
            Run {
                seed,
                latency: run.latency,
                float_ulps: ulps,
                stimuli: &stimuli,
                software: &software,
                hardware: &hardware,
            },
        );
        r.notes = run.notes;
        if let Some(m) = &mut r.first_mismatch {
            m.written = written(ctx, ir, module, iface, m, &run.last_writes);
        }
        reports.push(r);
    }
    Ok(reports)
}

/// The Verilator model with the core's testbench, or with the AXI one
/// where [`Options::axi`] asks for it.
fn build_model(
    iface: &Interface,
    sv: &Path,
    options: &Options,
    dir: &Path,
) -> Result<verilator::Model, CosimError> {
    let Some(map) = &options.axi else {
        return verilator::build(iface, sv, options, dir);
    };
    let bench = verilator::Bench {
        top: &map.module,
        testbench: axi_testbench::testbench(iface, map, options.max_cycles),
        files: vec![
            (
                format!("{}.h", iface.top),
                crate::wrappers::axi::header::header(&iface.top, map),
            ),
            (
                axi_testbench::MODEL_HEADER.to_string(),
                axi_testbench::MODEL.to_string(),
            ),
        ],
        traced: verilator::traced_signals(iface, options),
        ..verilator::Bench::default()
    };
    verilator::build_bench(&bench, sv, options, dir)
}

/// Co-simulates as [`cosimulate`] does, with the design simulated in
/// silica's own simulator instead of Verilator: `design_module` is the
/// top `hw.module` in `design` (a second opinion on the RTL, for small
/// designs; it needs no external tool but `lli-22`).
#[allow(clippy::too_many_arguments)]
pub fn cosimulate_in_silica(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    iface: &Interface,
    design: &Ir,
    design_module: OpId,
    seed: u64,
    options: &Options,
) -> Result<CosimReport, CosimError> {
    check_kernel(ctx, ir, module, iface)?;
    let dir = WorkDir::new(options.keep_dir.as_deref())?;
    let (stimuli, software) = software_side(ctx, ir, module, iface, seed, options, &dir)?;
    let software = software.map_err(CosimError::OutOfBounds)?;
    let ulps = float_ulps(ctx, ir, module, options);
    let (latency, hardware) = silica_sim::run(
        ctx,
        design,
        design_module,
        iface,
        &stimuli,
        options.max_cycles,
    )?;
    Ok(report(
        iface,
        Run {
            seed,
            latency,
            float_ulps: ulps,
            stimuli: &stimuli,
            software: &software,
            hardware: &hardware,
        },
    ))
}

/// Checks that `module` has the kernel `iface` describes.
fn check_kernel(ctx: &Context, ir: &Ir, module: OpId, iface: &Interface) -> Result<(), CosimError> {
    if silica_ir::symbols::lookup(ctx, ir, module, &iface.top).is_none() {
        return Err(CosimError::Input(format!(
            "the module has no function '{}'",
            iface.top
        )));
    }
    Ok(())
}

/// The stimuli of `seed` and the kernel's outputs on them, or where
/// the software run stopped at an access past its memref.
fn software_side(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    iface: &Interface,
    seed: u64,
    options: &Options,
    dir: &WorkDir,
) -> Result<(Stimuli, Result<Outputs, String>), CosimError> {
    let stimuli = Stimuli::generate(iface, seed, options).map_err(CosimError::Input)?;
    let software = match software::run(
        ctx,
        ir,
        module,
        iface,
        &stimuli,
        dir.path(),
        &limits(options),
    ) {
        Ok(outputs) => Ok(outputs),
        Err(CosimError::OutOfBounds(stopped)) => Err(stopped),
        Err(e) => return Err(e),
    };
    Ok((stimuli, software))
}

/// The error of a run whose software side `stopped` at an access past
/// its memref, with what the hardware did on the same inputs: the cycle
/// and port of its first address past a memory, or that it finished
/// (an address port as wide as the memory's words wraps the index).
fn out_of_bounds(
    stopped: &str,
    hardware: Result<verilator::HardwareRun, CosimError>,
) -> CosimError {
    let seen = match hardware {
        Err(CosimError::Hardware(m)) => m,
        Err(e) => return e,
        Ok(run) => format!(
            "done after {} cycles with no address past a memory: the address ports wrap such an index onto another element",
            run.latency
        ),
    };
    CosimError::OutOfBounds(format!(
        "{stopped}\nhardware side, on the same inputs: {seen}"
    ))
}

/// Who wrote the memory element of mismatch `m` last in the hardware:
/// the cycle the testbench saw (`last_writes`, by memory), and the
/// kernel's stores to that memory, where the kernel's function is found.
fn written(
    ctx: &Context,
    ir: &Ir,
    module: OpId,
    iface: &Interface,
    m: &Mismatch,
    last_writes: &[(String, Vec<Option<u64>>)],
) -> Option<compare::Written> {
    let (arg, element) = m.element?;
    let name = &iface.memories().find(|(a, _)| a.index == arg)?.0.name;
    let cycles = &last_writes.iter().find(|(n, _)| n == name)?.1;
    let cycle = *cycles.get(element)?;
    let stores = accesses(
        ctx,
        ir,
        (module, &iface.top),
        arg,
        &[("affine.store", 1), ("memref.store", 1)],
    );
    Some(compare::Written { cycle, stores })
}

/// The places (`file:line:col`) of the ops of the kernel `top` of
/// `module` named in `ops` (each with the operand that is its memref)
/// that access its memory argument `arg`.
fn accesses(
    ctx: &Context,
    ir: &Ir,
    (module, top): (OpId, &str),
    arg: usize,
    ops: &[(&str, usize)],
) -> Vec<String> {
    let Ok(func) = crate::flow::front::find_top(ctx, ir, module, top) else {
        return Vec::new();
    };
    let Some(entry) = ir.regions(func).next().and_then(|r| ir.entry_block(r)) else {
        return Vec::new();
    };
    let memory = silica_ir::graph::ValueDef::Argument {
        block: entry,
        index: arg as u32,
    };
    let mut places = Vec::new();
    ir.walk(func, &mut |op| {
        let name = ctx.str(ir.op_name(op));
        let Some(&(_, operand)) = ops.iter().find(|(n, _)| *n == name) else {
            return;
        };
        if ir.value_def(ir.operand(op, operand)) == memory {
            if let Some((file, line, col)) = silica_ir::diag::file_line_col(ctx, ir.op_loc(op)) {
                places.push(format!("{file}:{line}:{col}"));
            }
        }
    });
    places
}

fn limits(options: &Options) -> Limits {
    Limits {
        timeout: options.timeout,
    }
}

/// The float tolerance: the option's, else 1 ulp where the kernel's
/// module calls a transcendental function, else none.
fn float_ulps(ctx: &Context, ir: &Ir, module: OpId, options: &Options) -> u32 {
    options.float_ulps.unwrap_or_else(|| {
        let mut transcendental = false;
        ir.walk(module, &mut |op| {
            transcendental |= matches!(
                ctx.str(ir.op_name(op)),
                "math.exp" | "math.log" | "math.powf"
            );
        });
        u32::from(transcendental)
    })
}

/// What a run found, from both sides' outputs.
struct Run<'a> {
    seed: u64,
    latency: u64,
    float_ulps: u32,
    stimuli: &'a Stimuli,
    software: &'a Outputs,
    hardware: &'a Outputs,
}

fn report(iface: &Interface, run: Run<'_>) -> CosimReport {
    let c = compare::compare(iface, run.software, run.hardware, run.float_ulps);
    CosimReport {
        seed: run.seed,
        latency: run.latency,
        compared: c.compared,
        differing: c.differing,
        float_ulps: run.float_ulps,
        first_mismatch: c.first,
        scalars: iface
            .scalars()
            .map(|(a, _)| (a.name.clone(), run.stimuli.values[a.index][0].clone()))
            .collect(),
        notes: Vec::new(),
    }
}

/// The directory a co-simulation works in: a fresh temporary one,
/// removed when dropped, or one the caller keeps.
struct WorkDir {
    path: PathBuf,
    remove: bool,
}

impl WorkDir {
    fn new(keep: Option<&Path>) -> Result<WorkDir, CosimError> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let (path, remove) = match keep {
            Some(p) => (p.to_path_buf(), false),
            None => {
                let n = COUNTER.fetch_add(1, Ordering::Relaxed);
                let name = format!("silica-cosim-{}-{n}", std::process::id());
                (std::env::temp_dir().join(name), true)
            }
        };
        if remove && path.exists() {
            let _ = std::fs::remove_dir_all(&path);
        }
        let path = std::fs::create_dir_all(&path)
            .and_then(|()| path.canonicalize())
            .map_err(|e| CosimError::Tool(format!("cannot create {}: {e}", path.display())))?;
        Ok(WorkDir { path, remove })
    }

    fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if self.remove {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_names_the_first_mismatch_and_the_scalar_inputs() {
        let mut r = CosimReport {
            seed: 7,
            latency: 1,
            compared: 1,
            differing: 0,
            float_ulps: 0,
            first_mismatch: None,
            scalars: vec![("n".into(), 12u8.into()), ("k".into(), 253u8.into())],
            notes: Vec::new(),
        };
        assert_eq!(
            r.to_string(),
            "co-simulation (seed 7): 1 value matches, latency 1 cycle"
        );
        r.compared = 9;
        r.differing = 2;
        r.latency = 30;
        r.float_ulps = 1;
        r.first_mismatch = Some(Mismatch {
            location: "C[3] (word 3)".into(),
            software: 31u8.into(),
            hardware: 0u8.into(),
            element: Some((0, 3)),
            written: None,
        });
        assert_eq!(
            r.to_string(),
            "co-simulation (seed 7): 2 of 9 values differ (floats within 1 ulp); first \
             C[3] (word 3): software 0x1f, hardware 0x0 (latency 30 cycles; scalar inputs \
             n = 0xc, k = 0xfd)"
        );
    }
}
