//! What the user asks of a synthesis ([`Options`]): the function, the
//! target, the clock, the directives, the wrapper around the core, and
//! the flow's switches.

use super::directives::file::File;
use super::ip;
use super::target::Target;

/// What the top module is wrapped in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrapper {
    /// None: the core's ports, the brief's `memory` interface.
    Ports,
    /// `--interface axi`: the core behind an AXI4-Lite register map and
    /// an AXI4 master over host memory (module `F_axi`).
    Axi,
    /// `--shell uart`: the core inside a board shell, whose wires its
    /// ports are (not the package's pins).
    Shell,
}

/// A transform of the kernel's IR in the front stage, in the order the
/// flow runs them ([`FrontStep::ALL`]); `flow::front::passes` runs each
/// and registers it as the `silica opt` pass `hls-<name>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontStep {
    /// External memories copied into on-chip RAMs by their `buffer`
    /// directives.
    Buffer,
    /// Loops unrolled by their `unroll` directives.
    Unroll,
    /// Redundant loads and stores removed in every loop.
    Reuse,
    /// A stencil's array read once, through a line buffer.
    LineBuffer,
    /// The sibling loops of a loop to be flattened fused.
    Fuse,
    /// A loop's invariant code moved before it.
    Hoist,
    /// Elements read and written at an invariant address held in
    /// registers across a loop.
    Promote,
    /// Loaded elements passed from one iteration to the next.
    Carry,
}

impl FrontStep {
    /// Every step, in the flow's order.
    pub const ALL: [FrontStep; 8] = [
        FrontStep::Buffer,
        FrontStep::Unroll,
        FrontStep::Reuse,
        FrontStep::LineBuffer,
        FrontStep::Fuse,
        FrontStep::Hoist,
        FrontStep::Promote,
        FrontStep::Carry,
    ];

    /// Its name (`--dump-after`, the pass `hls-<name>`).
    pub fn name(self) -> &'static str {
        match self {
            FrontStep::Buffer => "buffer",
            FrontStep::Unroll => "unroll",
            FrontStep::Reuse => "reuse",
            FrontStep::LineBuffer => "line-buffer",
            FrontStep::Fuse => "fuse",
            FrontStep::Hoist => "hoist",
            FrontStep::Promote => "promote",
            FrontStep::Carry => "carry",
        }
    }
}

/// A stage of the flow whose output `--dump-after` prints: the kernel's
/// IR after a step of the front, the schedule, or the circuit before it
/// is wrapped and emitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Front(FrontStep),
    Schedule,
    Construct,
}

impl Stage {
    /// Every stage's name, in the flow's order.
    pub fn names() -> Vec<&'static str> {
        FrontStep::ALL
            .iter()
            .map(|s| s.name())
            .chain(["schedule", "construct"])
            .collect()
    }

    /// The stage named `name`.
    pub fn named(name: &str) -> Option<Stage> {
        match name {
            "schedule" => Some(Stage::Schedule),
            "construct" => Some(Stage::Construct),
            _ => FrontStep::ALL
                .into_iter()
                .find(|s| s.name() == name)
                .map(Stage::Front),
        }
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Front(s) => s.name(),
            Stage::Schedule => "schedule",
            Stage::Construct => "construct",
        }
    }
}

/// What to synthesize and how.
#[derive(Clone, Debug)]
pub struct Options {
    /// The function to synthesize.
    pub top: String,
    /// The target device and its operator library.
    pub target: Target,
    /// The clock period (ns) asked on the command line; `None`: the
    /// target's default. The directives file's `clock_ns` wins over both
    /// ([`Options::clock_ns`]).
    pub clock_ns: Option<f64>,
    /// The clock uncertainty in nanoseconds: the margin the schedule keeps
    /// below the clock period for what the estimate does not see (the
    /// placed routes). The datapath is scheduled, and its operators
    /// chosen, for the clock less this margin; the design is still asked
    /// to run at the clock. `silica hls --bitstream` raises it where the
    /// placed design misses the clock (timing closure).
    pub clock_uncertainty_ns: f64,
    /// Pipeline innermost loops.
    pub pipeline: bool,
    /// Rewrite integer datapaths with e-graphs where the schedule gains
    /// (`flow::rewrite`).
    pub rewrite: bool,
    /// Read stencils through line buffers where that is faster
    /// (`flow::front::line_buffer`). The profile `--auto` derives its
    /// space from leaves them out: it describes the loops as written.
    pub line_buffers: bool,
    /// The directives file, if any.
    pub directives: Option<File>,
    /// What the core is wrapped in.
    pub wrapper: Wrapper,
    /// Hand-written Verilog modules that `hls.ip` declarations bind to
    /// (`--ip FILE.sv`).
    pub ip: ip::Library,
    /// Fit the design to a real target device by sharing functional
    /// units where its estimate exceeds the device's DSPs or LUTs
    /// (`flow::fit`; `--no-fit` turns it off). `silica dse` leaves it
    /// off: its points choose their limits themselves.
    pub fit: bool,
    /// The share of the device's LUTs and flip-flops a fitted design's
    /// estimate may use, where a placed design needed more than its
    /// estimate (`silica hls --bitstream`'s area closure); fitting then
    /// starts wherever the estimate is past it. None: `fit::MARGIN`,
    /// fitting only designs whose estimate exceeds the device.
    pub fit_share: Option<f64>,
    /// The designs fitting may evaluate before it keeps what it has
    /// (`flow::fit::Budget::tries`; none: as many as its search takes).
    pub fit_tries: Option<usize>,
    /// The stage whose output the design keeps for the user to see
    /// (`Design::dump`).
    pub dump_after: Option<Stage>,
    /// The widest external memory port, in bits (`--max-port-bits`): a
    /// `width` directive packing more is cut to the widest within it.
    pub max_port_bits: u32,
}

/// The widest external memory port by default, in bits.
pub const MAX_PORT_BITS: u32 = 64;

impl Options {
    /// Function `top` on `target` with the defaults: the target's clock,
    /// no uncertainty, pipelined, rewritten, no directives, the core's
    /// ports, not fitted.
    pub fn new(top: &str, target: Target) -> Options {
        Options {
            top: top.to_string(),
            target,
            clock_ns: None,
            clock_uncertainty_ns: 0.0,
            pipeline: true,
            rewrite: true,
            line_buffers: true,
            directives: None,
            wrapper: Wrapper::Ports,
            ip: ip::Library::default(),
            fit: false,
            fit_share: None,
            fit_tries: None,
            dump_after: None,
            max_port_bits: MAX_PORT_BITS,
        }
    }

    /// The clock period (ns) the design is asked to run at: the
    /// directives file's `clock_ns`, else `--clock-ns`, else the
    /// target's default.
    pub fn clock_ns(&self) -> f64 {
        self.directives
            .as_ref()
            .and_then(|f| f.clock_ns.as_ref())
            .map(|c| c.value)
            .or(self.clock_ns)
            .unwrap_or_else(|| self.target.default_clock_ns())
    }

    /// Whether `--clock-ns` or the directives file asks for a clock
    /// period ([`Options::clock_ns`] is otherwise the target's default).
    pub fn clock_asked(&self) -> bool {
        self.clock_ns.is_some()
            || self
                .directives
                .as_ref()
                .is_some_and(|f| f.clock_ns.is_some())
    }

    /// The warning where the directives file's `clock_ns` overrides a
    /// different `--clock-ns`.
    pub fn overridden_clock(&self) -> Option<String> {
        let file = self.directives.as_ref()?.clock_ns.as_ref()?.value;
        let flag = self.clock_ns?;
        (flag != file).then(|| {
            format!("--clock-ns {flag} is overridden by clock_ns = {file} of the directives file")
        })
    }
}
