//! The design at each point of the flow, each value holding only what
//! exists there: [`Lifted`] (the front's kernel, directives applied),
//! [`Scheduled`] (its schedules, float latencies and static figures),
//! `Built` (the circuit constructed, `run.rs`), [`Estimated`] (every
//! figure the reports read) and [`Design`] (its texts emitted). What is
//! measured afterwards (co-simulation, synthesis) is a value apart,
//! [`Measurements`], that the reports read beside the design.

use crate::flow::analysis::constant_product::Products;
use crate::flow::analysis::work::Work;
use crate::flow::construct::DmaProbe;
use crate::flow::estimate::{CircuitEstimate, Estimate};
use crate::flow::fit::Fit;
use crate::flow::report::{self, Json, ReportInput};
use crate::flow::rewrite;
use crate::flow::schedule::figures::Figures;
use crate::flow::schedule::floats::FloatChoices;
use crate::flow::schedule::Schedules;
use crate::model::directives::{Directives, Log};
use crate::model::interface::Interface;
use crate::model::ip::Ip;
use crate::model::kernel::Kernel;
use crate::model::options::Wrapper;
use crate::model::register_map::RegisterMap;
use crate::model::target::Target;
use silica_ir::{Diagnostic, Ir, OpId};

pub use crate::flow::report::Measurements;

/// The clock a design is asked to run at and the margin its schedule
/// keeps below it (`Options::clock_uncertainty_ns`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    pub asked_ns: f64,
    pub uncertainty_ns: f64,
    /// Whether `asked_ns` is the target's default: neither `--clock-ns`,
    /// the directives file nor the kernel asks for a period.
    pub default: bool,
}

impl Clock {
    /// The period the datapath is scheduled to.
    pub fn scheduled_ns(self) -> f64 {
        self.asked_ns - self.uncertainty_ns
    }
}

/// What the stages say to the user along the way: notes (why a loop was
/// not pipelined, ...), what became of each directive, and warnings
/// about the kernel.
#[derive(Clone, Debug, Default)]
pub struct Remarks {
    pub notes: Vec<String>,
    pub directives: Log,
    /// Warnings about the kernel itself (a local buffer read before
    /// anything writes it: `front/uninit.rs`).
    pub warnings: Vec<Diagnostic>,
}

/// A function the top calls, scheduled as a submodule of its own.
#[derive(Clone)]
pub(crate) struct Callee {
    pub kernel: Kernel,
    pub schedules: Schedules,
    pub figures: Figures,
}

/// The top function lifted to a kernel with its directives applied
/// (unrolling, hoisting, flattening, memories and their ports), its
/// callees scheduled: what the flow schedules next. Limits are not part
/// of it: fitting builds each of its choices from one `Lifted`.
#[derive(Clone)]
pub(crate) struct Lifted {
    /// The input after the directives that rewrite loops.
    pub work: Ir,
    pub func: OpId,
    pub directives: Directives,
    pub clock: Clock,
    pub callees: Vec<Callee>,
    /// What datapath rewriting did in each callee, by name.
    pub callee_rewrites: Vec<(String, rewrite::Outcome)>,
    pub ips: Vec<Ip>,
    pub kernel: Kernel,
    /// The multiplications the kernel executes over a run as lifted
    /// (`analysis::muls`).
    pub multiplications: Option<u64>,
    /// The work the kernel must do (`analysis::work`), as lifted.
    pub workload: Option<Work>,
    pub interface: Interface,
    /// The float latencies chosen so far (the callees'), and the
    /// reserves their choices keep.
    pub floats: FloatChoices,
    pub remarks: Remarks,
    /// The IR after the front's step `Options::dump_after` names.
    pub dump: Option<String>,
}

/// A kernel scheduled: the schedule of every block and pipelined loop,
/// the float operators' latencies, the figures the schedule fixes, and
/// what datapath rewriting did to reach it.
#[derive(Clone, Debug)]
pub struct Scheduled {
    pub kernel: Kernel,
    pub schedules: Schedules,
    pub floats: FloatChoices,
    pub figures: Figures,
    pub rewrite: rewrite::Outcome,
}

/// What construction built besides the circuit itself.
#[derive(Clone, Debug)]
pub struct Construction {
    /// The register bits the circuit is built with (yosys keeps fewer:
    /// the estimate's flip-flops are `CircuitEstimate::ff`).
    pub register_bits: u64,
    /// Units of each limited class, and the operations sharing them.
    pub units: Vec<(String, u32, usize)>,
    /// The products by constants the circuit builds, by form.
    pub products: Products,
    pub dma_engines: usize,
    /// What to observe to measure the DMA overlap (kernels with DMA).
    pub dma_probe: Option<DmaProbe>,
    /// The top module's controller states (a trace of a run names them).
    pub states: crate::flow::construct::control::ControllerStates,
}

/// A design scheduled, built and estimated: every figure the reports
/// read, the circuit left behind (`silica dse`'s estimate level stops
/// here).
#[derive(Clone, Debug)]
pub struct Estimated {
    pub target: Target,
    pub clock: Clock,
    /// The top module's interface (what a testbench needs).
    pub interface: Interface,
    pub scheduled: Scheduled,
    pub callee_rewrites: Vec<(String, rewrite::Outcome)>,
    /// The multiplications the kernel executes over a run as lifted,
    /// after the directives that rewrite loops (unrolling, hoisting) and
    /// before flattening (whose sunk code runs in every iteration) and
    /// datapath rewriting (which can repeat a product to shorten a
    /// schedule); None where a bound depends on data (`analysis::muls`).
    pub multiplications: Option<u64>,
    /// The operations and footprint the roofline is of
    /// (`analysis::work`); None where the loop bounds depend on data.
    pub workload: Option<Work>,
    pub construction: Construction,
    /// The built circuit's estimate from the operator library (LUTs,
    /// DSPs, predicted clock period).
    pub estimate: CircuitEstimate,
    /// The limits chosen to fit the device (`Options::fit`), where the
    /// design did not fit without them.
    pub fit: Option<Fit>,
    /// What the core is wrapped in, and the AXI wrapper's register map.
    pub wrapper: Wrapper,
    pub axi: Option<RegisterMap>,
    pub remarks: Remarks,
}

/// A design emitted: its figures and its texts.
#[derive(Clone, Debug)]
pub struct Design {
    pub estimated: Estimated,
    /// `F.sv`.
    pub verilog: String,
    /// `F.hw.mlir`.
    pub hw_mlir: String,
    /// The hand-written modules the design instantiates (`--ip`), also
    /// at the end of `verilog`: wrappers emitted from `hw_mlir` add them.
    pub ip_verilog: String,
    /// The output of the stage `Options::dump_after` names.
    pub dump: Option<String>,
}

impl Estimated {
    /// The static latency in cycles, where the schedule fixes it.
    pub fn latency(&self) -> Option<u64> {
        self.scheduled.figures.latency
    }

    /// How busy the design's float units would be, one per operation
    /// ([`crate::flow::fit::float_occupancy`]).
    pub fn float_occupancy(&self) -> Option<f64> {
        crate::flow::fit::float_occupancy(&self.scheduled.kernel, &self.scheduled.schedules)
    }

    /// The resource estimate and predicted clock (`F.json`'s
    /// `resources.estimate`).
    pub fn summary(&self) -> Estimate {
        Estimate::of(
            &self.estimate,
            &self.scheduled.kernel,
            self.target.library(),
        )
    }

    fn input<'a>(&'a self, measured: &'a Measurements) -> ReportInput<'a> {
        let s = &self.scheduled;
        ReportInput {
            k: &s.kernel,
            s: &s.schedules,
            floats: &s.floats,
            lib: self.target.library(),
            clock_ns: self.clock.asked_ns,
            clock_default: self.clock.default,
            clock_uncertainty_ns: self.clock.uncertainty_ns,
            figures: &s.figures,
            circuit: &self.estimate,
            notes: &self.remarks.notes,
            directives: &self.remarks.directives,
            rewrite: &s.rewrite,
            callee_rewrites: &self.callee_rewrites,
            units: &self.construction.units,
            dma_engines: self.construction.dma_engines,
            products: self.construction.products,
            fit: self.fit.as_ref(),
            interface: &self.interface,
            work: self.workload.as_ref(),
            axi: self.axi.as_ref(),
            measured,
        }
    }

    /// The JSON report (`F.json`) with what was `measured` of the design.
    pub fn json(&self, measured: &Measurements) -> Json {
        report::json(&self.input(measured))
    }

    /// `F.json`'s text.
    pub fn json_text(&self, measured: &Measurements) -> String {
        let mut s = serde_json::to_string_pretty(&self.json(measured)).unwrap_or_default();
        s.push('\n');
        s
    }

    /// `report.html`: `F.json`'s figures drawn in one self-contained page.
    pub fn report_html(&self, measured: &Measurements) -> String {
        report::html::page(&self.json(measured))
    }

    /// `report.txt`.
    pub fn report_text(&self, measured: &Measurements) -> String {
        let input = self.input(measured);
        let j = report::json(&input);
        report::text(&input, &j)
    }
}
