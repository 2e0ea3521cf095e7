//! High-level synthesis (`silica hls`): a `func.func` over memrefs and
//! scalars in the affine/arith/memref dialects becomes a scheduled,
//! pipelined circuit in hw/comb/seq that keeps the brief's port contract.
//!
//! The flow, one module per stage: `directives` (the directives file and
//! attributes, resolved to loops and arrays), `front` (signature checks,
//! unrolling, lifting the body into the `kernel` model, unsupported ops
//! rejected at the op, flattening),
//! `analysis` (value ranges and the `index` width, carried memory
//! dependences, trip counts and latency), `library` (the target's operator
//! library), `schedule` (list scheduling of blocks, modulo scheduling of
//! pipelined loops, through the scheduling library), `control` (the FSM
//! and pipeline control), `build` (ports, datapath and memories as IR),
//! `report` (`F.json`, `report.txt`). [`synthesize`] drives them.
//! `device` lists the target devices; `fpga` takes a design through the
//! open FPGA tools to a bitstream (`--bitstream`); `shell` wraps the core
//! in a board shell that a host drives over a UART (`--shell uart`,
//! `silica run-board`).
//! `ip` reads hand-written Verilog modules (`--ip`) with sv-parser.
//! `interface` describes the top module's interface (`F.json`'s
//! arguments) and `cosim` co-simulates a design against the software.

pub mod float;
pub mod flow;
pub mod fpga;
pub mod model;
#[cfg(test)]
mod test_support;
pub mod verification;
pub mod wrappers;

pub use flow::lifts::Lifts;
use flow::report::ReportInput;
use flow::schedule::figures::{figures, Figures};
use flow::schedule::Schedules;
use model::directives::Directives;
use model::kernel::Kernel;
use model::target::library::Library;
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::resources::Resources;
use silica_ir::verify::{verify, VerifyOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId};
use std::collections::BTreeMap;

/// What to synthesize and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// The function to synthesize.
    pub top: String,
    /// The target device (`crate::model::target::device`: `ecp5-25k`, `ice40-up5k`, ...).
    pub target: String,
    /// Clock period in nanoseconds.
    pub clock_ns: f64,
    /// The clock uncertainty in nanoseconds: the margin the schedule keeps
    /// below the clock period for what the estimate does not see (the
    /// placed routes). The datapath is scheduled, and its operators
    /// chosen, for `clock_ns - clock_uncertainty_ns`; the design is
    /// still asked to run at `clock_ns`. `silica hls --bitstream` raises
    /// it where the placed design misses the clock (timing closure).
    pub clock_uncertainty_ns: f64,
    /// Pipeline innermost loops.
    pub pipeline: bool,
    /// Rewrite integer datapaths with e-graphs where the schedule gains
    /// (`rewrite`).
    pub rewrite: bool,
    /// The directives file, if any (its `clock_ns` wins over
    /// [`Options::clock_ns`]).
    pub directives: Option<crate::model::directives::file::File>,
    /// Wrap the core for a host (`--interface axi`, module `F_axi`).
    pub axi: bool,
    /// Hand-written Verilog modules that `hls.ip` declarations bind to
    /// (`--ip FILE.sv`).
    pub ip: crate::model::ip::Library,
    /// The core goes inside a board shell (`--shell`): its ports are the
    /// shell's wires, not the package's pins.
    pub shell: bool,
    /// Fit the design to a real target device by sharing functional
    /// units where its estimate exceeds the device's DSPs or LUTs
    /// (`fit`; `--no-fit` turns it off). `silica dse` leaves
    /// it off: its points choose their limits themselves.
    pub fit: bool,
    /// The share of the device's LUTs and flip-flops a fitted design's
    /// estimate may use, where a placed design needed more than its
    /// estimate (`silica hls --bitstream`'s area closure); fitting then
    /// starts wherever the estimate is past it. None: `crate::flow::fit::MARGIN`,
    /// fitting only designs whose estimate exceeds the device.
    pub fit_share: Option<f64>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            top: String::new(),
            target: crate::model::target::device::DEFAULT_TARGET.into(),
            clock_ns: 20.0,
            clock_uncertainty_ns: 0.0,
            pipeline: true,
            rewrite: true,
            directives: None,
            axi: false,
            ip: crate::model::ip::Library::default(),
            shell: false,
            fit: false,
            fit_share: None,
        }
    }
}

/// A synthesized design and its reports.
pub struct Design {
    /// The top module's interface (what a testbench needs).
    pub interface: crate::model::interface::Interface,
    pub kernel: Kernel,
    pub schedules: Schedules,
    pub library: Library,
    /// The clock period the design is asked to run at.
    pub clock_ns: f64,
    /// The margin its schedule keeps below `clock_ns`
    /// ([`Options::clock_uncertainty_ns`]).
    pub clock_uncertainty_ns: f64,
    pub figures: Figures,
    /// The multiplications the kernel executes over a run as lifted, after
    /// the directives that rewrite loops (unrolling, hoisting) and before
    /// flattening (whose sunk code runs in every iteration) and datapath
    /// rewriting (which can repeat a product to shorten a schedule); None
    /// where a bound depends on data (`crate::flow::analysis::muls`).
    pub multiplications: Option<u64>,
    /// The register bits the circuit is built with (yosys keeps fewer:
    /// the estimate's flip-flops are `circuit_estimate.ff`).
    pub register_bits: u64,
    /// The built circuit's estimate from the operator library (LUTs,
    /// DSPs, predicted clock period).
    pub circuit_estimate: crate::flow::estimate::CircuitEstimate,
    /// Units of each limited class, and the operations sharing them.
    pub units: Vec<(String, u32, usize)>,
    /// The products by constants the circuit builds, by form.
    pub products: crate::flow::analysis::constant_product::Products,
    /// Why loops were not pipelined, and similar remarks.
    pub notes: Vec<String>,
    /// What became of each directive, and warnings for those not honoured.
    pub directives: crate::model::directives::Log,
    /// Warnings about the kernel itself (a local buffer read before
    /// anything writes it: `front/uninit.rs`).
    pub warnings: Vec<Diagnostic>,
    /// What datapath rewriting changed, and the schedule before and after.
    pub rewrite: crate::flow::rewrite::Outcome,
    /// The same for each callee instantiated as a submodule, by name.
    pub callee_rewrites: Vec<(String, crate::flow::rewrite::Outcome)>,
    /// `F.sv` (empty from [`estimate`]).
    pub verilog: String,
    /// `F.hw.mlir` (empty from [`estimate`]).
    pub hw_mlir: String,
    /// The hand-written modules the design instantiates (`--ip`), also
    /// at the end of `verilog`: wrappers emitted from `hw_mlir` add them.
    pub ip_verilog: String,
    /// The figures of `--bitstream` (`fpga::implement`), once run.
    pub synthesis: Option<flow::report::synthesis::Synthesis>,
    /// What to observe to measure the DMA overlap (kernels with DMA).
    pub dma_probe: Option<crate::verification::cosim::overlap::DmaProbe>,
    pub dma_engines: usize,
    /// The DMA overlap, once measured.
    pub overlap: Option<crate::flow::report::dma::MeasuredOverlap>,
    /// The register map of the AXI wrapper (`--interface axi`).
    pub axi: Option<crate::model::register_map::RegisterMap>,
    /// The limits chosen to fit the device (`Options::fit`), where the
    /// design did not fit without them.
    pub fit: Option<crate::flow::fit::Fit>,
}

impl Design {
    /// The period the design's datapath is scheduled to: the clock less
    /// its uncertainty.
    pub fn scheduled_clock_ns(&self) -> f64 {
        self.clock_ns - self.clock_uncertainty_ns
    }

    /// The resource estimate and predicted clock (`F.json`'s
    /// `resources.estimate`).
    pub fn estimate(&self) -> crate::flow::estimate::Estimate {
        crate::flow::estimate::Estimate::of(&self.circuit_estimate, &self.kernel, &self.library)
    }

    fn input(&self) -> ReportInput<'_> {
        ReportInput {
            k: &self.kernel,
            s: &self.schedules,
            lib: &self.library,
            clock_ns: self.clock_ns,
            clock_uncertainty_ns: self.clock_uncertainty_ns,
            figures: &self.figures,
            circuit: &self.circuit_estimate,
            notes: &self.notes,
            directives: &self.directives,
            rewrite: &self.rewrite,
            callee_rewrites: &self.callee_rewrites,
            units: &self.units,
            dma_engines: self.dma_engines,
            overlap: self.overlap.as_ref(),
            products: self.products,
        }
    }

    /// The JSON report; `measured` replaces the static latency.
    pub fn json(&self, measured: Option<u64>) -> crate::flow::report::Json {
        let mut j = crate::flow::report::json(&self.input());
        j.resources.synthesis = self.synthesis.clone();
        j.resources.fit = self.fit.clone();
        if let Some(map) = &self.axi {
            j.interface = "axi".into();
            j.axi = Some(map.clone());
            j.streams = self.interface.streams.clone();
            for a in &mut j.args {
                a.streamed = self
                    .interface
                    .memories()
                    .any(|(x, m)| x.name == a.name && m.streamed);
            }
        }
        if let Some(m) = measured {
            j.latency = crate::flow::report::LatencyJson {
                min: Some(m),
                max: Some(m),
                dma_model: self.figures.dma_model,
            };
        }
        j
    }

    /// `F.json`'s text.
    pub fn json_text(&self, measured: Option<u64>) -> String {
        let mut s = serde_json::to_string_pretty(&self.json(measured)).unwrap_or_default();
        s.push('\n');
        s
    }

    /// `report.txt`.
    pub fn report_text(&self, measured: Option<u64>) -> String {
        let j = self.json(measured);
        crate::flow::report::text(&self.input(), &j, measured)
    }
}

/// Synthesizes `opts.top` from the module `module` of `ir`.
pub fn synthesize(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
) -> Result<Design, Box<Diagnostic>> {
    fitted(ctx, ir, module, opts, true)
}

/// [`synthesize`] without the last step, the SystemVerilog and
/// `F.hw.mlir` texts (left empty): the schedule, the binding and the
/// reports' figures (latency, resource estimate) of a design, as
/// `silica dse`'s `estimate` level evaluates a point.
pub fn estimate(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
) -> Result<Design, Box<Diagnostic>> {
    fitted(ctx, ir, module, opts, false)
}

/// The flow, fitted to the target device where `opts.fit` asks for it
/// and the design's estimate exceeds the device (`fit`): limits of the
/// classes the directives leave unlimited are chosen on estimates, each
/// choice scheduled and built from the same lifted kernel (lifting does
/// not depend on the limits), and only the design kept is emitted.
fn fitted(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
    emit: bool,
) -> Result<Design, Box<Diagnostic>> {
    let lifted = lift_top(ctx, ir, module, opts, &[])?;
    let first = run_flow(ctx, ir, module, opts, &lifted, &BTreeMap::new())?;
    let Some(device) = crate::flow::fit::device(&opts.target).filter(|_| opts.fit) else {
        return finish(ctx, first, opts, emit);
    };
    let tried = |d: &Design| crate::flow::fit::Tried {
        estimate: d.estimate(),
        latency: d.figures.latency,
        units: d.units.iter().map(|(c, n, _)| (c.clone(), *n)).collect(),
    };
    let start = tried(&first.design);
    let budget = crate::flow::fit::Budget {
        device,
        share: opts.fit_share.unwrap_or(crate::flow::fit::MARGIN),
    };
    let past_share =
        opts.fit_share.is_some() && crate::flow::fit::excess(&budget, &start.estimate) > 0.0;
    if !crate::flow::fit::exceeds(device, &start.estimate) && !past_share {
        return finish(ctx, first, opts, emit);
    }
    let free = shareable(&first.design.kernel);
    let (limits, found) = crate::flow::fit::choose(&budget, &free, start.clone(), |limits| {
        run_flow(ctx, ir, module, opts, &lifted, limits).map(|b| tried(&b.design))
    })?;
    let (limits, mut built) = if limits.is_empty() {
        (limits, first)
    } else {
        // A class may build fewer units than its limit: the limit a user
        // would write for the same design is the units built, unless
        // that lower limit changes the schedule (a pipeline's resource
        // bound comes from the limit), when the searched limits are kept.
        let tight: BTreeMap<String, u32> = limits
            .iter()
            .map(|(c, &n)| {
                let built = found.units.get(c).copied().unwrap_or(n);
                (c.clone(), n.min(built).max(1))
            })
            .collect();
        match run_flow(ctx, ir, module, opts, &lifted, &tight)? {
            b if tight == limits || b.design.figures.latency == found.latency => (tight, b),
            _ => {
                let b = run_flow(ctx, ir, module, opts, &lifted, &limits)?;
                (limits, b)
            }
        }
    };
    let kept = tried(&built.design).estimate;
    let units = built
        .design
        .units
        .iter()
        .filter(|(c, _, _)| limits.contains_key(c))
        .map(|(c, n, ops)| crate::flow::fit::Units {
            class: c.clone(),
            units: *n,
            operations: *ops,
        })
        .collect();
    built.design.fit = Some(crate::flow::fit::Fit {
        device: device.name.into(),
        fits: crate::flow::fit::excess(&budget, &kept) == 0.0,
        over: crate::flow::fit::beyond(&budget, &kept),
        share: budget.share,
        limits,
        units,
        unfitted: start.estimate,
        unfitted_latency: start.latency,
    });
    finish(ctx, built, opts, emit)
}

/// The classes whose units fitting may share in `k`: those of
/// `crate::model::directives::LIMITED_CLASSES` without a limit, with their operations,
/// where there are at least two. Multiplications by constants count:
/// they share no unit, but a `mul` limit has datapath rewriting build
/// them as shifts and adds instead of DSP blocks (`rewrite`).
fn shareable(k: &Kernel) -> Vec<(String, u32)> {
    crate::model::directives::LIMITED_CLASSES
        .iter()
        .filter(|c| k.limit(c).is_none())
        .map(|&c| {
            let ops = k
                .nodes
                .iter()
                .filter(|n| crate::model::target::library::class_of(n.op) == c)
                .count();
            (c.to_string(), ops as u32)
        })
        .filter(|&(_, ops)| ops > 1)
        .collect()
}

/// Least figures of a design, found before scheduling (see
/// [`lower_bound`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LowerBound {
    /// At most the static latency the schedule gives (or the cycles a
    /// design with DMA runs).
    pub latency_cycles: u64,
    /// The block RAMs the estimate counts (exact: they follow from the
    /// memories and their partitions).
    pub bram: u64,
    /// The DSP blocks of the one multiplier every design of the kernel
    /// keeps ([`crate::flow::analysis::bound::narrowest_product`]; 0 without).
    pub dsp: u64,
    /// Its LUTs, and the loop counters' adders on a path of the loop tree
    /// ([`crate::flow::analysis::bound::counter_luts`]).
    pub lut: u64,
    /// The clock period the design is asked to run at (the estimate's
    /// period is never shorter).
    pub clock_ns: f64,
}

/// Lifts `opts.top` with its directives and bounds what [`estimate`]
/// would give it from below ([`crate::flow::analysis::bound`]), without scheduling
/// it: what `silica dse` prunes points by. The lifted kernel is kept in
/// `lifts` for the points that lift to the same one ([`lifts`]); `input`
/// names `ir` there (the same name for the same IR).
pub fn lower_bound(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
    lifts: &mut Lifts,
    input: &str,
) -> Result<LowerBound, Box<Diagnostic>> {
    let func = crate::flow::front::find_top(ctx, ir, module, &opts.top)?;
    let directives = crate::flow::front::directives::resolve(
        ctx,
        ir,
        func,
        &opts.top,
        opts.directives.as_ref(),
    )?;
    let clock = clock_of(ir, module, &directives, opts)?;
    let clock_ns = clock.scheduled_ns();
    let key = crate::flow::lifts::key(input, &opts.target, opts.pipeline, &directives);
    let lift = |ctx: &mut Context| {
        let mut lifted = lift_top(ctx, ir, module, opts, &[])?;
        let callees = !lifted.callees.is_empty();
        // As the flow schedules it (`schedule_lifted`).
        crate::flow::analysis::ranges::narrow_index(&mut lifted.kernel);
        let kernel = &lifted.kernel;
        let deps = (0..kernel.loops.len())
            .map(|l| {
                if kernel.loops[l].pipelined {
                    let nodes = kernel.body_nodes(l);
                    crate::flow::analysis::deps::loop_dependences(
                        ctx,
                        &lifted.work,
                        kernel,
                        l,
                        &nodes,
                    )
                } else {
                    Vec::new()
                }
            })
            .collect();
        let entry = crate::flow::lifts::Entry {
            kernel: lifted.kernel,
            library: lifted.library,
            deps,
        };
        Ok((entry, callees))
    };
    lifts.with(ctx, key, clock_ns, lift, |entry, floats| {
        entry.kernel.limits = crate::flow::lifts::limits(&directives);
        let kernel = &entry.kernel;
        let lib = &entry.library;
        // The sure cycles of a node on a recurrence: a float operation's
        // chosen latency, a divider's stages, a load's cycle.
        let problem =
            crate::flow::schedule::problem::ProblemBuilder::new(kernel, lib, clock_ns, true);
        let mut cycles = |n: usize| match kernel.nodes[n].op {
            crate::model::kernel::Op::Float(_) => floats.cycles(kernel, lib, n),
            crate::model::kernel::Op::Load(_) => 1,
            crate::model::kernel::Op::DivS
            | crate::model::kernel::Op::DivU
            | crate::model::kernel::Op::RemS
            | crate::model::kernel::Op::RemU => problem.latency_of_node(n).map_or(0, u64::from),
            _ => 0,
        };
        let recurrences: Vec<u64> = (0..kernel.loops.len())
            .map(|l| {
                if kernel.loops[l].pipelined {
                    crate::flow::analysis::bound::recurrence(kernel, l, &entry.deps[l], &mut cycles)
                } else {
                    0
                }
            })
            .collect();
        let product = crate::flow::analysis::bound::narrowest_product(kernel);
        LowerBound {
            latency_cycles: crate::flow::analysis::bound::latency(kernel, &recurrences),
            bram: crate::flow::estimate::brams(&lib.target, &kernel.memories),
            dsp: product.and_then(|w| lib.dsps("mul", w)).unwrap_or(0),
            lut: product
                .and_then(|w| lib.luts("mul", w))
                .map_or(0, |l| l.max(0.0).floor() as u64)
                + crate::flow::analysis::bound::counter_luts(kernel, lib),
            clock_ns: clock.asked_ns,
        }
    })
}

/// The clock a design is asked to run at and the margin its schedule
/// keeps below it ([`Options::clock_uncertainty_ns`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Clock {
    asked_ns: f64,
    uncertainty_ns: f64,
}

impl Clock {
    /// The period the datapath is scheduled to.
    fn scheduled_ns(self) -> f64 {
        self.asked_ns - self.uncertainty_ns
    }
}

/// The clock of a design: the directives' period, else the options',
/// with the options' uncertainty; an error at the module where the
/// period is not a positive number or the uncertainty leaves none of it.
fn clock_of(
    ir: &Ir,
    module: OpId,
    directives: &Directives,
    opts: &Options,
) -> Result<Clock, Box<Diagnostic>> {
    let clock_ns = directives.clock_ns.unwrap_or(opts.clock_ns);
    let uncertainty_ns = opts.clock_uncertainty_ns;
    let error = |m: String| Err(Box::new(Diagnostic::error(ir.op_loc(module), m)));
    if !(clock_ns > 0.0 && clock_ns.is_finite()) {
        return error(format!(
            "clock period {clock_ns} ns is not a positive number"
        ));
    }
    if !(uncertainty_ns >= 0.0 && uncertainty_ns < clock_ns) {
        return error(format!(
            "clock uncertainty {uncertainty_ns} ns is not between 0 and the clock period of {clock_ns} ns"
        ));
    }
    Ok(Clock {
        asked_ns: clock_ns,
        uncertainty_ns,
    })
}

/// The top function lifted to a kernel with its directives applied
/// (unrolling, hoisting, flattening, memories and their ports), its
/// callees scheduled: what the flow schedules next. Limits are not part
/// of it: fitting builds each of its choices from one `Lifted`.
#[derive(Clone)]
struct Lifted {
    /// The input after the directives that rewrite loops.
    work: Ir,
    func: OpId,
    library: Library,
    directives: Directives,
    clock: Clock,
    log: crate::model::directives::Log,
    callees: Vec<(Kernel, Schedules, Figures)>,
    callee_rewrites: Vec<(String, crate::flow::rewrite::Outcome)>,
    notes: Vec<String>,
    ips: Vec<crate::flow::front::ip::Ip>,
    kernel: Kernel,
    multiplications: Option<u64>,
    interface: crate::model::interface::Interface,
    warnings: Vec<Diagnostic>,
}

/// Lifts `opts.top` of the module `module` of `ir` (see [`Lifted`]).
fn lift_top(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
    reserves: &[(float::Operator, f64)],
) -> Result<Lifted, Box<Diagnostic>> {
    let at_module = |m: String| Box::new(Diagnostic::error(ir.op_loc(module), m));
    let mut library = Library::for_target(&opts.target).map_err(at_module)?;
    library.reserve_float_inputs(reserves);
    let func = crate::flow::front::find_top(ctx, ir, module, &opts.top)?;
    let mut directives = crate::flow::front::directives::resolve(
        ctx,
        ir,
        func,
        &opts.top,
        opts.directives.as_ref(),
    )?;
    let clock = clock_of(ir, module, &directives, opts)?;
    let clock_ns = clock.scheduled_ns();
    let mut log = crate::model::directives::Log::default();
    let warnings = crate::flow::front::call_order(ctx, ir, func)?
        .into_iter()
        .flat_map(|f| crate::flow::front::uninitialised_reads(ctx, ir, f))
        .collect();
    // Directives that rewrite loops act on a copy: the input stays as
    // written for the co-simulation's software side.
    let mut work = ir.clone();
    crate::flow::front::unroll(ctx, &mut work, func, &directives, &mut log);
    let reused = crate::flow::front::reuse(ctx, &mut work, func);
    let fused = crate::flow::front::fuse(ctx, &mut work, func, &directives, &mut log);
    crate::flow::front::hoist(ctx, &mut work, &directives, &mut log);
    let promoted = crate::flow::front::promote(ctx, &mut work, func, &mut directives);
    let carried = crate::flow::front::carry(ctx, &mut work, func, &opts.top, &mut directives);
    let ir = &work;
    // Callees first, each a module of its own (without directives, which
    // name the top's loops and arrays); the top last.
    let order = crate::flow::front::call_order(ctx, ir, func)?;
    let none = Directives::default();
    let mut callees: Vec<(Kernel, Schedules, Figures)> = Vec::new();
    let mut notes: Vec<String> = reused
        .into_iter()
        .chain(fused)
        .chain(promoted)
        .chain(carried)
        .collect();
    let mut ips = Vec::new();
    let mut callee_rewrites = Vec::new();
    for &f in &order[..order.len() - 1] {
        if crate::flow::front::ip::ip_module(ctx, ir, f).is_some() {
            let ip = crate::flow::front::ip::declaration(ctx, ir, f)?;
            opts.ip
                .check(&ip)
                .map_err(|m| Box::new(Diagnostic::error(ir.op_loc(f), m)))?;
            ips.push(ip);
            continue;
        }
        let name = crate::flow::front::function_name(ctx, ir, f);
        let mut k = lift_calling(ctx, ir, f, &name, opts.pipeline, &none, &callees)?;
        let (mut s, mut n) = schedule_lifted(ctx, ir, &mut k, &mut library, clock_ns)?;
        let outcome = rewrite_scheduled(
            ctx,
            ir,
            &mut k,
            (&mut s, &mut n),
            &mut library,
            clock_ns,
            opts.rewrite,
        );
        callee_rewrites.push((name, outcome));
        notes.extend(n);
        let fig = figures(&k, &s);
        callees.push((k, s, fig));
    }
    let mut kernel = lift_calling(
        ctx,
        ir,
        func,
        &opts.top,
        opts.pipeline,
        &directives,
        &callees,
    )?;
    let multiplications = crate::flow::analysis::muls::executed(&kernel);
    crate::flow::front::flatten(&mut kernel, &directives, &mut log);
    let mut interface =
        crate::model::interface::build(ctx, ir, func, &library.target, clock.asked_ns)?;
    crate::flow::front::memories(&mut kernel, &mut interface, &directives, &mut log);
    Ok(Lifted {
        work,
        func,
        library,
        directives,
        clock,
        log,
        callees,
        callee_rewrites,
        notes,
        ips,
        kernel,
        multiplications,
        interface,
        warnings,
    })
}

/// How many times the flow runs again for float operators whose first
/// stage misses the clock after their operands' logic ([`run_flow`]).
const RESERVE_PASSES: usize = 2;

/// The flow after lifting, for the limits `auto_limits`: `lifted` built
/// ([`build_lifted`]). Where the built design's estimate has a float
/// operator's first stage miss the clock after the logic before its
/// operands (a shared unit's operand multiplexer), the kernel is lifted
/// again with that logic kept out of the stage's budget
/// (`Library::late_float_inputs`) and built, so the operator gets a
/// deeper pipeline; the new design is kept where its predicted period
/// is shorter and meets the clock.
fn run_flow(
    ctx: &mut Context,
    ir: &Ir,
    module: OpId,
    opts: &Options,
    lifted: &Lifted,
    auto_limits: &BTreeMap<String, u32>,
) -> Result<Built, Box<Diagnostic>> {
    let mut reserves: Vec<(float::Operator, f64)> = Vec::new();
    let mut built = build_lifted(ctx, lifted.clone(), opts, auto_limits)?;
    for _ in 0..RESERVE_PASSES {
        let design = &built.design;
        let late = design.library.late_float_inputs(
            &design.circuit_estimate.float_inputs,
            design.scheduled_clock_ns(),
        );
        if late.is_empty() {
            break;
        }
        for (o, t) in late {
            match reserves.iter_mut().find(|(x, _)| *x == o) {
                Some(r) => *r = (o, t),
                None => reserves.push((o, t)),
            }
        }
        let relifted = lift_top(ctx, ir, module, opts, &reserves)?;
        let mut next = build_lifted(ctx, relifted, opts, auto_limits)?;
        let (before, after) = (
            design.circuit_estimate.period_ns,
            next.design.circuit_estimate.period_ns,
        );
        // Deeper pipelines cost cycles: worth it only for the clock.
        if after >= before - 1e-6 || after > design.scheduled_clock_ns() + 1e-6 {
            break;
        }
        let names: Vec<String> = reserves
            .iter()
            .filter_map(|&(o, t)| {
                let c = next.design.library.float_latency(o)?;
                Some(format!(
                    "{} after {t:.1} ns of logic before its operands",
                    o.module_name(c.latency)
                ))
            })
            .collect();
        next.design.notes.push(format!(
            "float pipelines deepened for the clock: {}; with the shallower ones the design was predicted at {before:.2} ns ({} cycles), now at {after:.2} ns",
            names.join(", "),
            design
                .figures
                .latency
                .map_or("unknown".to_string(), |l| l.to_string()),
        ));
        built = next;
    }
    Ok(built)
}

/// A design scheduled and built, not yet emitted: its circuit, whose
/// texts [`finish`] makes for the design the flow keeps.
struct Built {
    /// The design, its texts empty.
    design: Design,
    circuit: Ir,
    module: OpId,
    ips: Vec<crate::flow::front::ip::Ip>,
}

/// The flow after lifting: `lifted` scheduled with `auto_limits` added
/// to its limits (those of classes the directives leave unlimited),
/// rewritten, built and estimated.
fn build_lifted(
    ctx: &mut Context,
    lifted: Lifted,
    opts: &Options,
    auto_limits: &BTreeMap<String, u32>,
) -> Result<Built, Box<Diagnostic>> {
    let Lifted {
        work,
        func,
        mut library,
        directives,
        clock,
        mut log,
        callees,
        callee_rewrites,
        mut notes,
        ips,
        mut kernel,
        multiplications,
        mut interface,
        warnings,
    } = lifted;
    for (class, &n) in auto_limits {
        if kernel.limit(class).is_none() {
            kernel.limits.push((class.clone(), n));
        }
    }
    let ir = &work;
    let clock_ns = clock.scheduled_ns();
    let (mut schedules, mut n) = schedule_lifted(ctx, ir, &mut kernel, &mut library, clock_ns)?;
    let rewritten = rewrite_scheduled(
        ctx,
        ir,
        &mut kernel,
        (&mut schedules, &mut n),
        &mut library,
        clock_ns,
        opts.rewrite,
    );
    notes.extend(n);
    let mut parts: Vec<(&Kernel, &Schedules)> = callees.iter().map(|(k, s, _)| (k, s)).collect();
    parts.push((&kernel, &schedules));
    let externs: Vec<(String, Vec<crate::model::interface::Port>)> = ips
        .iter()
        .map(|ip| (ip.module.clone(), ip.ports.clone()))
        .collect();
    // Behind the AXI wrapper, DMA engines between host memory and on-chip
    // tiles leave the host side to the wrapper's master (bursts).
    let streams = if opts.axi {
        let kernels: Vec<&Kernel> = parts.iter().map(|(k, _)| *k).collect();
        crate::flow::construct::stream::plan_all(&kernels)
    } else {
        crate::flow::construct::stream::Streams::default()
    };
    let mut circuit =
        crate::flow::construct::build(ctx, &library, clock_ns, &parts, &externs, &streams)?;
    let streams = streams.top;
    if !streams.is_empty() {
        for s in &streams {
            for r in &s.routes {
                if let Some(m) = interface.memory_mut(&r.memory) {
                    m.streamed = true;
                }
            }
        }
        interface.streams = streams;
        crate::model::interface::check_port_names(&interface)
            .map_err(|m| Box::new(Diagnostic::error(ir.op_loc(func), m)))?;
    }
    // Ports that are the package's pins (no shell or scan chains, as
    // `fpga::implement` decides) start and end no timed path. A board
    // shell holds the core's ports itself: neither on pins nor behind
    // the scan wrapper. With the AXI wrapper, `fpga::implement` still
    // puts the core's ports on the pins or, where they outnumber them,
    // behind the scan wrapper (the core is its top), so both count as
    // without it, and the AXI wrapper is not estimated.
    let pins = (!opts.shell
        && crate::model::target::device::lookup(&opts.target)
            .is_ok_and(|d| d.io > 0 && interface.port_bits() <= d.io))
    .then_some(interface.top.as_str());
    let mut circuit_estimate =
        crate::flow::estimate::estimate(ctx, &circuit.ir, circuit.module, &library, pins);
    circuit_estimate.add_dividers(&circuit.dividers, &library);
    if let Some(w) = (!opts.shell)
        .then(|| {
            crate::flow::estimate::scan::wrapper(
                ctx,
                &circuit.ir,
                circuit.module,
                &interface,
                &library,
            )
        })
        .flatten()
    {
        circuit_estimate.add_scan(w, &library);
    }
    // The AXI wrapper is added after the estimate: `fpga::implement`
    // synthesizes the core (or its scan wrapper), never the AXI wrapper,
    // and the estimate counts what it builds.
    let axi = if opts.axi {
        let map = crate::model::register_map::RegisterMap::new(&interface)
            .map_err(|m| Box::new(Diagnostic::error(ir.op_loc(func), m)))?;
        let core = std::mem::take(&mut circuit.ir);
        circuit.ir =
            crate::wrappers::axi::wrap(ctx, core, circuit.module, &interface, &map, kernel.loc);
        Some(map)
    } else {
        None
    };
    let figures = figures(&kernel, &schedules);
    crate::flow::schedule::log_pipeline_directives(&kernel, &schedules, &directives, &mut log);
    for (class, units, ops) in &circuit.units {
        if let Some(s) = directives.limits.get(class) {
            log.honoured(
                s,
                "limits",
                format!("{class} = {}", s.value),
                format!("{ops} {class} operation(s) on {units} unit(s)"),
            );
        }
    }
    let dma_probe = (!kernel.dmas.is_empty()).then(|| {
        let states = |start: bool| {
            kernel
                .dmas
                .iter()
                .zip(&circuit.dma_states)
                .filter(|(d, _)| d.transfer.is_some() == start)
                .map(|(_, &s)| s)
                .collect()
        };
        let mut wait_states: Vec<u32> = states(false);
        wait_states.extend(circuit.drain_state);
        crate::verification::cosim::overlap::DmaProbe {
            start_states: states(true),
            wait_states,
            busy: circuit.dma_busy.iter().flatten().cloned().collect(),
        }
    });
    let design = Design {
        axi,
        dma_probe,
        dma_engines: circuit.dma_busy.len(),
        overlap: None,
        interface,
        kernel,
        schedules,
        library,
        clock_ns: clock.asked_ns,
        clock_uncertainty_ns: clock.uncertainty_ns,
        figures,
        multiplications,
        register_bits: circuit.register_bits,
        circuit_estimate,
        units: circuit.units,
        products: circuit.products,
        notes,
        directives: log,
        warnings,
        rewrite: rewritten,
        callee_rewrites,
        verilog: String::new(),
        hw_mlir: String::new(),
        ip_verilog: String::new(),
        synthesis: None,
        fit: None,
    };
    Ok(Built {
        design,
        circuit: circuit.ir,
        module: circuit.module,
        ips,
    })
}

/// The design of `built`, with its texts where `emit` asks for them
/// (`F.sv`, `F.hw.mlir`, the hand-written modules it instantiates).
fn finish(
    ctx: &mut Context,
    built: Built,
    opts: &Options,
    emit: bool,
) -> Result<Design, Box<Diagnostic>> {
    let Built {
        mut design,
        circuit,
        module,
        ips,
    } = built;
    if !emit {
        return Ok(design);
    }
    verify(ctx, &circuit, module, VerifyOptions::default())?;
    let mut verilog = silica_emit_verilog::emit_verilog(
        ctx,
        &circuit,
        module,
        silica_emit_verilog::Options::default(),
    )?;
    let ip_verilog = opts.ip.sources(&ips);
    verilog.push_str(&ip_verilog);
    design.hw_mlir = print_module(
        ctx,
        &circuit,
        module,
        &Resources::default(),
        PrintFlags::default(),
    );
    design.verilog = verilog;
    design.ip_verilog = ip_verilog;
    Ok(design)
}

/// Datapath rewriting (`enabled`) of the scheduled kernel `kernel`: the
/// rewritten copy is scheduled, and kept, with its schedules and notes
/// (`scheduled`), where its schedule is better.
fn rewrite_scheduled(
    ctx: &mut Context,
    ir: &Ir,
    kernel: &mut Kernel,
    scheduled: (&mut Schedules, &mut Vec<String>),
    library: &mut Library,
    clock_ns: f64,
    enabled: bool,
) -> crate::flow::rewrite::Outcome {
    let (schedules, notes) = scheduled;
    let mut outcome = crate::flow::rewrite::Outcome {
        enabled,
        ..crate::flow::rewrite::Outcome::default()
    };
    if !enabled {
        return outcome;
    }
    let settings = crate::flow::rewrite::Settings {
        lib: library,
        clock_ns,
        scarce: crate::flow::analysis::constant_product::scarce(kernel, library),
        schedules,
    };
    let mut candidate = kernel.clone();
    let changes = crate::flow::rewrite::rewrite_kernel(&mut candidate, &settings);
    if changes.is_empty() {
        return outcome;
    }
    // A candidate that fails to schedule is simply not kept.
    if let Ok((s, n)) = schedule_narrowed(ctx, ir, &mut candidate, library, clock_ns) {
        let before = crate::flow::rewrite::Summary::of(kernel, schedules, library, clock_ns);
        let after = crate::flow::rewrite::Summary::of(&candidate, &s, library, clock_ns);
        outcome.kept = after.better_than(&before);
        if outcome.kept {
            *kernel = candidate;
            *schedules = s;
            *notes = n;
        }
        outcome.before = Some(before);
        outcome.after = Some(after);
        outcome.changes = changes;
    }
    outcome
}

/// Lifts function `func` (named `name`), whose callees are scheduled in
/// `callees`: its calls take their latencies.
fn lift_calling(
    ctx: &mut Context,
    ir: &Ir,
    func: OpId,
    name: &str,
    pipeline: bool,
    directives: &Directives,
    callees: &[(Kernel, Schedules, Figures)],
) -> Result<Kernel, Box<Diagnostic>> {
    let mut kernel = crate::flow::front::lift_function(ctx, ir, func, name, pipeline, directives)?;
    for call in &mut kernel.calls {
        if let Some((_, _, f)) = callees.iter().find(|(k, _, _)| k.name == call.callee) {
            call.latency = f.latency;
            call.latency_min = f.latency_min;
        }
    }
    Ok(kernel)
}

/// Narrows `index`, finds the carried memory dependences and schedules
/// a lifted kernel; gives the schedules and the notes scheduling made.
fn schedule_lifted(
    ctx: &mut Context,
    ir: &Ir,
    kernel: &mut Kernel,
    library: &mut Library,
    clock_ns: f64,
) -> Result<(Schedules, Vec<String>), Box<Diagnostic>> {
    crate::flow::analysis::ranges::narrow_index(kernel);
    schedule_narrowed(ctx, ir, kernel, library, clock_ns)
}

/// Schedules a kernel whose `index` width is fixed (see
/// [`schedule_lifted`]).
fn schedule_narrowed(
    ctx: &mut Context,
    ir: &Ir,
    kernel: &mut Kernel,
    library: &mut Library,
    clock_ns: f64,
) -> Result<(Schedules, Vec<String>), Box<Diagnostic>> {
    library.choose_float_latencies(ctx, kernel, clock_ns);
    let memory_deps: Vec<_> = (0..kernel.loops.len())
        .map(|l| {
            if kernel.loops[l].pipelined {
                let nodes = kernel.body_nodes(l);
                crate::flow::analysis::deps::loop_dependences(ctx, ir, kernel, l, &nodes)
            } else {
                Vec::new()
            }
        })
        .collect();
    let loc = kernel.loc;
    crate::flow::schedule::schedule_kernel(kernel, library, clock_ns, &memory_deps)
        .map_err(|m| Box::new(Diagnostic::error(loc, format!("scheduling failed: {m}"))))
}
