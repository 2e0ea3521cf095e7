//! The operator library of a target: latency, delay, resource kind and
//! area per operator class and width, read from the target's library
//! file `hls/library/<target>.toml`, measured by `silica characterize`
//! (`crate::fpga::characterize`): every operator kind the flow instantiates
//! synthesised, placed and routed at a ladder of widths (float operator
//! circuits at several pipeline latencies). Between the ladder's widths
//! figures are interpolated linearly; past the widest, extrapolated along
//! the power law through the widest point and the widest at most half its
//! width (so quadratic dividers and multipliers grow as they do). Float operator classes have latency and
//! delay chosen per design: each design picks, per operator and clock
//! period, the smallest pipeline latency whose stages fit the clock by
//! the operator generator's own stage-delay estimates scaled to the
//! measured points ([`Library::choose_float_latency`];
//! `flow::schedule::floats` keeps each design's choices); their areas
//! come from the measured points.
//!
//! # File format (TOML)
//!
//! ```toml
//! target = "ice40-up5k"      # the device the file is for
//! measured_on = "ice40-up5k" # the device measured (a part may share
//!                            # another part's figures; `note` says why)
//! tools = "Yosys 0.23; nextpnr-ice40 0.4"
//! register_ns = 3.1          # period of a flip-flop to flip-flop path
//! default_clock_ns = 30.0    # optional (absent: 20): the clock period a
//!                            # design is asked to run at where neither
//!                            # `--clock-ns` nor the directives file gives
//!                            # one, a clock the target's typical designs
//!                            # meet placed (see `DEFAULT_CLOCK_NS`)
//! note = "..."               # optional
//! [[op]]
//! kind = "add"      # the test design: add sub cmp shift mux logic mul
//!                   # mul_reg div rem div_const ram ext, float kinds as
//!                   # their module names (fadd_f32), reg (the frame
//!                   # alone); level (a chain of `width` LUT levels) and
//!                   # fanout (one LUT driving `width` flip-flop enables);
//!                   # word_fanout (a `width`-bit register read by
//!                   # `latency` adds: the nets to its readers' chains);
//!                   # div_stage (the flow's pipelined divider cut into
//!                   # `latency` stages: its slowest stage, which
//!                   # `Library::divider_stage_ns` fits; kept apart from
//!                   # the `div` class's rows)
//! class = "add"     # the scheduler's operator class (`class_of`; a
//!                   # `ram` point serves the `load` and `store` classes;
//!                   # `route`: level, fanout, add_add and word_fanout,
//!                   # the estimate's control logic and routing)
//! width = 16        # operand bits (RAM: data bits; float: the format's)
//! latency = 0       # cycles (float: the pipeline latency measured)
//! period_ns = 6.2   # achieved register-to-register period (absent:
//!                   # not placed and routed, see note; the delay at
//!                   # that width then comes from the measured widths)
//! delay_ns = 3.1    # what the operator adds to a register path:
//!                   # period_ns - register_ns (a multiplier: less the
//!                   # one LUT level that feeds it, the `logic` point
//!                   # at width 1; see `fpga::characterize::design`)
//! lut = 16          # LUT4s (an ECP5 carry cell counts two)
//! ff = 0            # flip-flops (pipeline registers)
//! dsp = 0           # hard multipliers
//! bram = 0          # block RAMs
//! note = "..."      # optional: why a point is not measured
//! ```
//!
//! The figures are the operator's own: the test frame's flip-flops and
//! xor LUTs are subtracted (`fpga::characterize::design`).

use super::device::{lookup, Device, Fabric};
use crate::float::{choose_scaled, stage_delay_ns, FloatOp, LatencyChoice, Operator};
use crate::model::kernel::Op;
use serde::{Deserialize, Serialize};
use silica_ir::Context;

/// The kind of the flow's pipelined divider in a library file,
/// measured at several rows per stage (`silica characterize`): its
/// slowest stage's delay, a negation and that many rows, is what
/// [`Library::divider_stage_ns`] fits the row's delay to.
pub const DIVIDER_STAGE: &str = "div_stage";

/// The most rows of a `width`-bit pipelined divider (an array of
/// `width` rows) between two of its `stages` stages: the slowest
/// stage's.
pub fn rows_per_stage(width: u32, stages: u32) -> u32 {
    width.div_ceil(stages.max(1))
}

/// The library kind of a float operator: its module name without the
/// `silica_` prefix and the latency (`fadd_f32`).
pub fn float_kind(o: Operator) -> String {
    let name = o.module_name(0);
    name.trim_start_matches("silica_")
        .trim_end_matches("_l0")
        .to_string()
}

/// One row of a library: an operator class up to a width (the measured
/// point at that width; figures between points come from
/// [`Library::delay_ns`], [`Library::luts`], [`Library::dsps`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub class: String,
    /// Widest operation the row covers (`u32::MAX` for the widest point).
    pub max_width: u32,
    pub latency: u32,
    pub delay_ns: f64,
    /// `lut`, `dsp`, `port` or `none`.
    pub resource: String,
    pub luts_per_bit: f64,
    pub dsp: u32,
    /// Latency and delay chosen per design from the clock period (float
    /// operators).
    pub auto: bool,
}

/// One measured operator design of a library file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub kind: String,
    pub class: String,
    pub width: u32,
    pub latency: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period_ns: Option<f64>,
    pub delay_ns: f64,
    pub lut: u64,
    pub ff: u64,
    pub dsp: u64,
    pub bram: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A library file as written by `silica characterize`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibraryFile {
    pub target: String,
    pub measured_on: String,
    pub tools: String,
    pub register_ns: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_clock_ns: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub op: Vec<Point>,
}

impl LibraryFile {
    /// Reads a library file.
    pub fn from_text(text: &str) -> Result<LibraryFile, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// The file's text: a header comment, then the TOML.
    pub fn to_text(&self) -> Result<String, String> {
        let body = toml::to_string(self).map_err(|e| format!("cannot write the library: {e}"))?;
        Ok(format!(
            "# silica hls operator library for {}, measured with\n\
             # `silica characterize --target {}` (tools: see `tools`). Every operator\n\
             # kind the flow instantiates, built as a registered test design and\n\
             # synthesised, placed and routed; figures are the operator's own (the test\n\
             # frame subtracted). Format and meaning of each field: hls/src/model/target/library.rs.\n\n{body}",
            self.target, self.measured_on
        ))
    }
}

/// A target's operator library.
#[derive(Clone, Debug)]
pub struct Library {
    /// The device the library is for (resolved once, from `--target`).
    pub device: &'static Device,
    pub rows: Vec<Row>,
    /// The measured points.
    pub points: Vec<Point>,
    /// The measured stages of the pipelined divider (kind `div_stage`,
    /// not among `points`: they time no operation of their class).
    pub divider_points: Vec<Point>,
    /// The register-to-register period of the fabric (ns): what a path
    /// costs besides its operators' delays.
    pub register_ns: f64,
    /// The clock period (ns) of a design that asks for none: the file's
    /// `default_clock_ns`, else [`DEFAULT_CLOCK_NS`].
    pub default_clock_ns: f64,
    /// The device whose figures these are.
    pub measured_on: String,
}

/// The default clock period of a library file that gives none. The
/// bundled files give theirs, each a clock that the PolyBench kernels
/// at their default directives meet placed on the part
/// (`bench/fpga_fit.py`, docs/QOR.md): ecp5-25k 20 ns (every i32 kernel
/// placed at 56 MHz or more), ice40-up5k 30 ns (25 of the 30 i32
/// kernels placed; the UP5K's fabric is the slowest, its register path
/// 4.4 ns against ECP5's 1.2), ice40-hx8k 20 ns (no designs placed in
/// the benchmarks: its operators' figures are close to ECP5's, a 32-bit
/// add 4.8 ns).
pub const DEFAULT_CLOCK_NS: f64 = 20.0;

/// The classes of float operators (the only ones whose latency and
/// delay are chosen per design).
pub const FLOAT_CLASSES: [&str; 11] = [
    "fadd", "fmul", "fdiv", "fsqrt", "fma", "fcmp", "fsign", "fconv", "fexp", "flog", "fpow",
];

/// The classes of integer operations and memory accesses.
pub const CLASSES: [&str; 10] = [
    "add", "mul", "div", "shift", "logic", "cmp", "mux", "ext", "load", "store",
];

/// The class of the control and routing points (`characterize`'s kinds
/// `level` and `fanout`), which time the estimate's gate levels and
/// register enables rather than an operation.
pub const ROUTE: &str = "route";

/// The bundled library files, by name (`crate::model::target::device::Device::library`).
const LIBRARIES: [(&str, &str); 3] = [
    (
        "ice40-up5k",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/library/ice40-up5k.toml"
        )),
    ),
    (
        "ice40-hx8k",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/library/ice40-hx8k.toml"
        )),
    ),
    (
        "ecp5-25k",
        include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/library/ecp5-25k.toml"
        )),
    ),
];

impl Library {
    /// The library of the device `target` names (see `crate::model::target::device`),
    /// labelled with the device's name.
    pub fn for_target(target: &str) -> Result<Library, String> {
        let device = lookup(target)?;
        let text = LIBRARIES
            .iter()
            .find(|l| l.0 == device.library)
            .map_or("", |l| l.1);
        Library::parse(device, text)
    }

    /// The class of the control and routing points (`characterize`'s kinds
    /// `level` and `fanout`), which time the estimate's gate levels and
    /// register enables rather than an operation.
    pub const ROUTE: &str = "route";

    /// The bundled library files, by name, as text.
    pub fn bundled() -> impl Iterator<Item = (&'static str, &'static str)> {
        LIBRARIES.iter().copied()
    }

    /// Reads a library from its file (TOML, see the module's docs).
    pub fn parse(device: &'static Device, text: &str) -> Result<Library, String> {
        let mut file =
            LibraryFile::from_text(text).map_err(|e| format!("library '{}': {e}", device.name))?;
        // A RAM's figures serve its reads and its writes.
        let ram: Vec<Point> = file
            .op
            .iter()
            .filter(|p| p.class == "ram")
            .cloned()
            .collect();
        file.op.retain(|p| p.class != "ram");
        let divider_points: Vec<Point> = file
            .op
            .iter()
            .filter(|p| p.kind == DIVIDER_STAGE)
            .cloned()
            .collect();
        file.op.retain(|p| p.kind != DIVIDER_STAGE);
        for p in ram {
            for class in ["load", "store"] {
                file.op.push(Point {
                    class: class.into(),
                    ..p.clone()
                });
            }
        }
        let mut rows = Vec::new();
        let mut unplaced = Vec::new();
        let mut classes: Vec<&str> = file.op.iter().map(|p| p.class.as_str()).collect();
        classes.dedup();
        classes.sort_unstable();
        classes.dedup();
        for class in classes {
            let auto = FLOAT_CLASSES.contains(&class);
            let mut widths: Vec<u32> = file
                .op
                .iter()
                .filter(|p| p.class == class)
                .map(|p| p.width)
                .collect();
            widths.sort_unstable();
            widths.dedup();
            let last = widths.last().copied();
            for w in widths {
                let at: Vec<&Point> = file
                    .op
                    .iter()
                    .filter(|p| p.class == class && p.width == w)
                    .collect();
                // Floats: the combinational (least) latency's area.
                let least = at.iter().map(|p| p.latency).min().unwrap_or(0);
                let at: Vec<&Point> = at
                    .into_iter()
                    .filter(|p| !auto || p.latency == least)
                    .collect();
                let max = |f: &dyn Fn(&Point) -> f64| at.iter().map(|p| f(p)).fold(0.0, f64::max);
                let dsp = max(&|p| p.dsp as f64) as u32;
                // A width whose designs were not placed and routed takes
                // its delay from the measured widths (below).
                if !auto && at.iter().all(|p| p.period_ns.is_none()) {
                    unplaced.push((rows.len(), w));
                }
                rows.push(Row {
                    class: class.to_string(),
                    max_width: if Some(w) == last { u32::MAX } else { w },
                    latency: if auto {
                        0
                    } else {
                        max(&|p| f64::from(p.latency)) as u32
                    },
                    delay_ns: if auto { 0.0 } else { max(&|p| p.delay_ns) },
                    resource: match class {
                        "load" | "store" => "port",
                        "ext" => "none",
                        _ if dsp > 0 => "dsp",
                        _ => "lut",
                    }
                    .to_string(),
                    luts_per_bit: max(&|p| p.lut as f64) / f64::from(w.max(1)),
                    dsp,
                    auto,
                });
            }
        }
        // Float operators have their latency and delay chosen per design:
        // a class without a measured point still has its row (its area is
        // then unknown, see `float_area`).
        for class in FLOAT_CLASSES {
            if !rows.iter().any(|r| r.class == class) {
                rows.push(Row {
                    class: class.to_string(),
                    max_width: u32::MAX,
                    latency: 0,
                    delay_ns: 0.0,
                    resource: "lut".into(),
                    luts_per_bit: 0.0,
                    dsp: 0,
                    auto: true,
                });
            }
        }
        let mut lib = Library {
            device,
            rows,
            register_ns: file.register_ns,
            default_clock_ns: file.default_clock_ns.unwrap_or(DEFAULT_CLOCK_NS),
            measured_on: file.measured_on,
            points: file.op,
            divider_points,
        };
        for (i, w) in unplaced {
            let class = lib.rows[i].class.clone();
            lib.rows[i].delay_ns = lib.delay_ns(&class, w).unwrap_or(0.0);
        }
        Ok(lib)
    }

    /// Whether point `p`'s delay is a measurement: it was placed and
    /// routed, or nothing of its class was (wiring). A design too large
    /// for the part, or one the tools failed on, has yosys's area only.
    fn timed(&self, p: &Point) -> bool {
        p.period_ns.is_some()
            || !self
                .points
                .iter()
                .any(|q| q.class == p.class && q.period_ns.is_some())
    }

    /// The latency of float operator `o` for a clock of `clock_ns`: the
    /// smallest whose slowest stage, as this target measures it
    /// ([`Library::float_scales`]), fits in the period less a register's
    /// (its first stage after `reserve` ns of logic before its operands),
    /// else the fastest so measured; its delays as measured. A unit
    /// `shared` by several operations (`[limits]`) gets at least one
    /// stage: its result reaches its own operand mux (the next user's
    /// operands), a loop that a register must break; an integer shared
    /// unit takes at least a cycle too.
    pub fn choose_float_latency(
        &self,
        ctx: &mut Context,
        o: Operator,
        clock_ns: f64,
        shared: bool,
        reserve: f64,
    ) -> LatencyChoice {
        let scales = self.float_scales(ctx, o);
        let budget = clock_ns - self.register_ns;
        let least = u32::from(shared && o.pipelinable());
        choose_scaled(ctx, o, budget, least, reserve, |latency| {
            float_scale(&scales, latency)
        })
    }

    /// The measured delay of float operator `o`'s kind over the
    /// generator's estimate of `o`, at each latency of the kind placed
    /// and routed, by latency; a kind without such a point takes its
    /// class's at the same width (fsub_f32 fadd_f32's); empty where none
    /// is (the estimate is then taken as it is). The estimates model a
    /// generic 4-input-LUT fabric: fadd_f32 at latency 10 measures 8.6 ns
    /// on ecp5-25k and 38.5 ns on ice40-up5k.
    pub fn float_scales(&self, ctx: &mut Context, o: Operator) -> Vec<(u32, f64)> {
        let kind = float_kind(o);
        let class = class_of(Op::Float(o));
        let width = o.format.width();
        let timed = |p: &&Point| p.period_ns.is_some();
        let own: Vec<&Point> = self
            .points
            .iter()
            .filter(|p| p.kind == kind)
            .filter(timed)
            .collect();
        let points = if own.is_empty() {
            self.points
                .iter()
                .filter(|p| p.class == class && p.width == width)
                .filter(timed)
                .collect()
        } else {
            own
        };
        let mut scales: Vec<(u32, f64)> = Vec::new();
        for p in points {
            let model = stage_delay_ns(ctx, o, p.latency);
            if model > 0.0 && !scales.iter().any(|s| s.0 == p.latency) {
                scales.push((p.latency, p.delay_ns / model));
            }
        }
        scales.sort_by_key(|s| s.0);
        scales
    }

    /// The row for an operation of `class` at `width`.
    pub fn row(&self, class: &str, width: u32) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.class == class && r.max_width >= width)
    }

    /// A figure of `class` at `width`: the largest over the class's kinds
    /// at each measured width, interpolated between them (see the
    /// module's docs); `None` when the class has no measured point.
    fn figure(&self, class: &str, width: u32, f: impl Fn(&Point) -> f64) -> Option<f64> {
        self.figure_of(|p| p.class == class, class, width, f)
    }

    /// [`Library::figure`] over the points `select` picks.
    fn figure_of(
        &self,
        select: impl Fn(&Point) -> bool,
        class: &str,
        width: u32,
        f: impl Fn(&Point) -> f64,
    ) -> Option<f64> {
        let mut at: Vec<(f64, f64)> = Vec::new();
        let auto = FLOAT_CLASSES.contains(&class);
        for p in self.points.iter().filter(|p| select(p)) {
            if auto
                && self
                    .points
                    .iter()
                    .any(|q| q.class == class && q.width == p.width && q.latency < p.latency)
            {
                continue;
            }
            let (x, y) = (f64::from(p.width), f(p));
            match at.iter_mut().find(|a| a.0 == x) {
                Some(a) => a.1 = a.1.max(y),
                None => at.push((x, y)),
            }
        }
        at.sort_by(|a, b| a.0.total_cmp(&b.0));
        Some(interpolate(&at, f64::from(width))?.max(0.0))
    }

    /// The delay (ns) an operation of `class` at `width` adds to a
    /// register-to-register path.
    pub fn delay_ns(&self, class: &str, width: u32) -> Option<f64> {
        let select = |p: &Point| p.class == class && self.timed(p);
        self.figure_of(select, class, width, |p| p.delay_ns)
    }

    /// The delay (ns) of an affine `floordiv`, `ceildiv` or `mod` by a
    /// constant no power of two at `width` (`construct::datapath`'s circuit):
    /// the reciprocal multiplication (its `width + 1`-bit reciprocal) and
    /// the correction of negative dividends around it (a comparison, a
    /// subtraction and a multiplexer before, a subtraction and a
    /// multiplexer after); a `ceildiv` adds its bias first, a `mod` the
    /// product of the quotient by the constant and the subtraction. The
    /// products priced as multipliers: a bound where their forms are not
    /// known (the scheduler times them in their forms where they are).
    pub fn constant_division_delay(&self, op: Op, width: u32) -> Option<f64> {
        let add = self.delay_ns("add", width)?;
        let mux = self.delay_ns("mux", width)?;
        let cmp = self.delay_ns("cmp", width)?;
        let mul = self.delay_ns("mul", width + 1)?;
        let floor = cmp + 2.0 * (add + mux) + mul;
        Some(match op {
            Op::CeilDivC(_) => floor + add,
            Op::ModC(_) => floor + self.delay_ns("mul", width)? + add,
            _ => floor,
        })
    }

    /// The LUTs of an operation of `class` at `width`.
    pub fn luts(&self, class: &str, width: u32) -> Option<f64> {
        self.figure(class, width, |p| p.lut as f64)
    }

    /// The delay (ns) and LUTs of an operation of test-design kind `kind`
    /// (`add`, `sub`: the kinds of a class differ, an iCE40 subtract costs
    /// twice an add) at `width`, interpolated over that kind's own points;
    /// the class's figures where the kind has none.
    pub fn kind_figures(&self, kind: &str, class: &str, width: u32) -> Option<(f64, f64)> {
        if !self.points.iter().any(|p| p.kind == kind) {
            return Some((self.delay_ns(class, width)?, self.luts(class, width)?));
        }
        let own = |p: &Point| p.kind == kind;
        let timed = |p: &Point| own(p) && self.timed(p);
        Some((
            self.figure_of(timed, class, width, |p| p.delay_ns)?,
            self.figure_of(own, class, width, |p| p.lut as f64)?,
        ))
    }

    /// The delay (ns) of one LUT level between registers and of each
    /// further level: the measured chain of LUT levels (kind `level`) at
    /// its shallowest depth, and its slope from there to its deepest;
    /// `None` where the chain is not measured.
    pub fn levels_ns(&self) -> Option<(f64, f64)> {
        let timed = |p: &&Point| p.kind == "level" && p.period_ns.is_some();
        let first = self.points.iter().filter(timed).min_by_key(|p| p.width)?;
        let last = self.points.iter().filter(timed).max_by_key(|p| p.width)?;
        let step = match last.width - first.width {
            0 => 0.0,
            n => (last.delay_ns - first.delay_ns) / f64::from(n),
        };
        Some((first.delay_ns, step.max(0.0)))
    }

    /// The delay (ns) an add of `width` bits adds after another add whose
    /// sums it reads (kind `add_add`, two chained adds, less the add
    /// alone): ripple carry chains overlap, the second starting on the
    /// first's low sums, so this is about constant over the width (iCE40
    /// UP5K: 3.69 ns at 8, 16 and 32 bits, where an add alone takes 2.6
    /// to 10.9), and so held at the widest measured past it (where the
    /// add alone is measured and the pair extrapolated, their difference
    /// fell to 1.5 ns at 64 bits); `None` where it is not measured.
    pub fn chained_add_ns(&self, width: u32) -> Option<f64> {
        let chained = |p: &Point| p.kind == "add_add" && p.period_ns.is_some();
        let widest = self
            .points
            .iter()
            .filter(|p| chained(p))
            .map(|p| p.width)
            .max()?;
        let width = width.min(widest);
        let two = self.figure_of(chained, ROUTE, width, |p| p.delay_ns)?;
        Some((two - self.kind_figures("add", "add", width)?.0).max(0.0))
    }

    /// The delay (ns) the nets of a `bits`-bit word read by `readers`
    /// carry chains add over those of a word read by one (kind
    /// `word_fanout`: a register read by as many adds as its latency, less
    /// its point read by one): the readers' chains lie side by side, a
    /// column each, so most of them are several tiles from the register
    /// (iCE40 UP5K: about 1.2 ns at 12 bits and 4 to 8 readers, 1.7 to
    /// 2.1 at 32 bits). Interpolated over the readers at each measured
    /// width, then linearly between widths (the nearest measured width
    /// outside them); `None` where it is not measured.
    pub fn fanout_net_ns(&self, readers: u32, bits: u32) -> Option<f64> {
        let timed: Vec<&Point> = self
            .points
            .iter()
            .filter(|p| p.kind == "word_fanout" && p.period_ns.is_some())
            .collect();
        let mut widths: Vec<u32> = timed.iter().map(|p| p.width).collect();
        widths.sort_unstable();
        widths.dedup();
        let mut extra = Vec::new();
        for w in widths {
            let mut at: Vec<(f64, f64)> = timed
                .iter()
                .filter(|p| p.width == w)
                .map(|p| (f64::from(p.latency), p.delay_ns))
                .collect();
            at.sort_by(|a, b| a.0.total_cmp(&b.0));
            // The extra delay is over the word read by one chain: a
            // width whose one-reader point failed says nothing.
            if at[0].0 != 1.0 {
                continue;
            }
            let one = at[0].1;
            let x = f64::from(readers).min(at[at.len() - 1].0);
            extra.push((f64::from(w), interpolate_linear(&at, x)? - one));
        }
        let last = extra.last()?.0;
        Some(interpolate_linear(&extra, f64::from(bits).min(last))?.max(0.0))
    }

    /// How the device's fabric prices (its family's [`Fabric`]).
    pub fn fabric(&self) -> &'static Fabric {
        self.device.family.fabric()
    }

    /// The delay (ns) of a register enable that a LUT drives to `bits`
    /// flip-flops (kind `fanout`, the LUT included), interpolated over
    /// the measured fan-outs; `None` where not measured.
    pub fn enable_ns(&self, bits: u32) -> Option<f64> {
        let select = |p: &Point| p.kind == "fanout" && p.period_ns.is_some();
        if !self.points.iter().any(select) {
            return None;
        }
        self.figure_of(select, ROUTE, bits, |p| p.delay_ns)
    }

    /// The delay (ns) the slowest stage of a `width`-bit pipelined
    /// divider (`construct::divider_array`) adds to a register path when each
    /// stage holds at most `rows` rows: `rows` times a row's delay plus
    /// the stage's fixed part (the first stage's operand negation or the
    /// last one's result negation), both fitted to the measured
    /// `div_stage` points of each width (the line through its fewest and
    /// most rows per stage; a row's delay alone where one count is
    /// measured) and interpolated between widths like other figures;
    /// `None` where no stage is measured.
    pub fn divider_stage_ns(&self, width: u32, rows: u32) -> Option<f64> {
        let timed: Vec<&Point> = self
            .divider_points
            .iter()
            .filter(|p| p.period_ns.is_some())
            .collect();
        let mut widths: Vec<u32> = timed.iter().map(|p| p.width).collect();
        widths.sort_unstable();
        widths.dedup();
        let (mut row_at, mut fixed_at) = (Vec::new(), Vec::new());
        for w in widths {
            let mut at: Vec<(f64, f64)> = timed
                .iter()
                .filter(|p| p.width == w)
                .map(|p| (f64::from(rows_per_stage(w, p.latency)), p.delay_ns))
                .collect();
            at.sort_by(|a, b| a.0.total_cmp(&b.0));
            let ((r0, d0), (r1, d1)) = (at[0], at[at.len() - 1]);
            let (row, fixed) = if r1 > r0 {
                let row = ((d1 - d0) / (r1 - r0)).max(0.0);
                (row, (d0 - row * r0).max(0.0))
            } else {
                (d0 / r0, 0.0)
            };
            row_at.push((f64::from(w), row));
            fixed_at.push((f64::from(w), fixed));
        }
        let x = f64::from(width);
        Some(interpolate(&fixed_at, x)? + interpolate(&row_at, x)? * f64::from(rows))
    }

    /// The DSPs of an operation of `class` at `width`: those of the
    /// narrowest measured width at least as wide (hard multipliers come
    /// whole), else interpolated.
    pub fn dsps(&self, class: &str, width: u32) -> Option<u64> {
        let covering = self
            .points
            .iter()
            .filter(|p| p.class == class && p.width >= width)
            .min_by_key(|p| (p.width, p.latency));
        match covering {
            Some(p) => Some(p.dsp),
            None => self
                .figure(class, width, |p| p.dsp as f64)
                .map(|d| d.ceil() as u64),
        }
    }

    /// How many units of `class` at `width` (of float operator
    /// `operator`, where one is given) the device holds side by side,
    /// by its DSPs or its LUTs (the fewer); `None` for wiring or where
    /// the library has no figure.
    pub fn units_held(&self, class: &str, width: u32, operator: Option<Operator>) -> Option<u64> {
        let device = self.device;
        let (lut, dsp) = match operator {
            Some(o) => {
                let (lut, _, dsp) = self.float_area(o, 0)?;
                (lut, dsp)
            }
            None => (
                self.luts(class, width)?,
                self.dsps(class, width).unwrap_or(0),
            ),
        };
        let by_dsp = (dsp > 0).then(|| device.dsps / dsp);
        let by_lut = (lut >= 1.0).then(|| (device.luts as f64 / lut) as u64);
        let units = match (by_dsp, by_lut) {
            (Some(d), Some(l)) => d.min(l),
            (Some(u), None) | (None, Some(u)) => u,
            (None, None) => return None,
        };
        Some(units.max(1))
    }

    /// The LUTs, flip-flops and DSPs of float operator `o` at pipeline
    /// `latency`: its own kind's points if measured (else its class's at
    /// its format, else its class's widest format's scaled by the width),
    /// interpolated over the measured latencies (LUTs and
    /// DSPs constant past them; flip-flops linear in the latency, none at
    /// latency 0).
    pub fn float_area(&self, o: Operator, latency: u32) -> Option<(f64, f64, u64)> {
        let kind = float_kind(o);
        let width = o.format.width();
        let class = class_of(Op::Float(o));
        let own: Vec<&Point> = self.points.iter().filter(|p| p.kind == kind).collect();
        let same_format: Vec<&Point> = self
            .points
            .iter()
            .filter(|p| p.class == class && p.width == width)
            .collect();
        // No point of the class in this format: the widest measured
        // format's, scaled by the width (an extrapolation, as past the
        // integer ladder).
        let widest = self
            .points
            .iter()
            .filter(|p| p.class == class)
            .map(|p| p.width)
            .max()?;
        let (points, scale) = match (own.is_empty(), same_format.is_empty()) {
            (false, _) => (own, 1.0),
            (true, false) => (same_format, 1.0),
            (true, true) => (
                self.points
                    .iter()
                    .filter(|p| p.class == class && p.width == widest)
                    .collect(),
                f64::from(width) / f64::from(widest),
            ),
        };
        let curve = |f: &dyn Fn(&Point) -> f64, origin: bool| {
            let mut at: Vec<(f64, f64)> = points
                .iter()
                .map(|p| (f64::from(p.latency), f(p)))
                .collect();
            // A combinational operator has no flip-flops.
            if origin && !at.iter().any(|a| a.0 == 0.0) {
                at.push((0.0, 0.0));
            }
            at.sort_by(|a, b| a.0.total_cmp(&b.0));
            at.dedup_by(|a, b| a.0 == b.0);
            interpolate_linear(&at, f64::from(latency))
        };
        let lut = curve(&|p| p.lut as f64 * scale, false)?;
        let ff = curve(&|p| p.ff as f64 * scale, true)?;
        let dsp = curve(&|p| p.dsp as f64 * scale, false)?;
        Some((lut.max(0.0), ff.max(0.0), dsp.max(0.0).round() as u64))
    }
}

/// `y` at `x` on the points `at` (sorted by `x`): linear between them,
/// the first point's below, and past the last along the power law
/// through the last and the widest at most half its width (the one
/// before the last where none is that narrow: the exponent of two close
/// widths is mostly placement noise; linearly where one of them is
/// zero).
fn interpolate(at: &[(f64, f64)], x: f64) -> Option<f64> {
    let n = at.len();
    if n >= 2 && x > at[n - 1].0 {
        let (x1, y1) = at[n - 1];
        let (x0, y0) = at[..n - 1]
            .iter()
            .rev()
            .find(|a| a.0 <= x1 / 2.0)
            .copied()
            .unwrap_or(at[n - 2]);
        if x0 > 0.0 && y0 > 0.0 && y1 > 0.0 {
            let k = (y1 / y0).ln() / (x1 / x0).ln();
            return Some(y1 * (x / x1).powf(k));
        }
    }
    interpolate_linear(at, x)
}

/// `y` at `x` on the points `at` (sorted by `x`): linear between them
/// and past the last two, the first point's below.
fn interpolate_linear(at: &[(f64, f64)], x: f64) -> Option<f64> {
    let first = at.first()?;
    if at.len() == 1 || x <= first.0 {
        return Some(first.1);
    }
    let i = at
        .iter()
        .position(|p| p.0 >= x)
        .unwrap_or(at.len() - 1)
        .max(1);
    let ((x0, y0), (x1, y1)) = (at[i - 1], at[i]);
    Some(y0 + (y1 - y0) * (x - x0) / (x1 - x0))
}

/// The test-design kind whose own measured figures time node operation
/// `op`, where its class's kinds differ (an iCE40 subtract is slower
/// than an add, a remainder than a division); `None`: the class's.
pub fn kind_of(op: Op) -> Option<&'static str> {
    match op {
        Op::Add => Some("add"),
        Op::Sub => Some("sub"),
        Op::DivS | Op::DivU => Some("div"),
        Op::RemS | Op::RemU => Some("rem"),
        _ => None,
    }
}

/// The library class of a node operation.
pub fn class_of(op: Op) -> &'static str {
    match op {
        Op::Add | Op::Sub | Op::MinS | Op::MaxS | Op::MinU | Op::MaxU => "add",
        // Bound as adds; the scheduler times those by constants no powers
        // of two as the multiplications they are (`schedule/problem.rs`).
        Op::FloorDivC(_) | Op::CeilDivC(_) | Op::ModC(_) => "add",
        Op::AbsI | Op::Ctpop => "add",
        Op::Ctlz | Op::Cttz => "cmp",
        Op::Mul => "mul",
        Op::DivS | Op::DivU | Op::RemS | Op::RemU => "div",
        Op::Shl | Op::ShrU | Op::ShrS => "shift",
        Op::And | Op::Or | Op::Xor => "logic",
        Op::Cmp(_) => "cmp",
        Op::Mux => "mux",
        Op::SExt | Op::ZExt | Op::Trunc => "ext",
        Op::Load(_) => "load",
        Op::Store(_) => "store",
        Op::Float(o) => match o.op {
            FloatOp::Add | FloatOp::Sub => "fadd",
            FloatOp::Mul => "fmul",
            FloatOp::Div => "fdiv",
            FloatOp::Sqrt => "fsqrt",
            FloatOp::Fma => "fma",
            FloatOp::Exp => "fexp",
            FloatOp::Log => "flog",
            FloatOp::Pow => "fpow",
            FloatOp::Cmp(_) | FloatOp::Max | FloatOp::Min => "fcmp",
            FloatOp::Neg | FloatOp::Abs => "fsign",
            FloatOp::Convert { .. } | FloatOp::IntToFloat { .. } | FloatOp::FloatToInt { .. } => {
                "fconv"
            }
        },
    }
}

/// The measured-over-estimated scale of a float operator's stages at
/// `latency`, from its kind's measured `scales` (by latency,
/// [`Library::float_scales`]): linear between the measured latencies
/// either side, the nearest one's outside them, 1 without any.
pub fn float_scale(scales: &[(u32, f64)], latency: u32) -> f64 {
    let below = scales.iter().rev().find(|s| s.0 <= latency);
    let above = scales.iter().find(|s| s.0 >= latency);
    match (below, above) {
        (Some(b), Some(a)) if a.0 > b.0 => {
            let t = f64::from(latency - b.0) / f64::from(a.0 - b.0);
            b.1 + (a.1 - b.1) * t
        }
        (Some(s), _) | (None, Some(s)) => s.1,
        (None, None) => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::{latency_choices, FloatPredicate, Format};

    /// Two chained adds (`add_add`) take about one add and a constant on
    /// the UP5K: the second chain starts on the first's low sums.
    #[test]
    fn chained_adds_cost_about_a_constant() {
        let lib = Library::for_target("ice40-up5k").unwrap();
        // Past the widest measured pair (32 bits), the same.
        for w in [8, 16, 32, 48, 65] {
            let chained = lib.chained_add_ns(w).unwrap();
            assert!((chained - 3.694).abs() < 1e-6, "{w} {chained}");
        }
        let add = lib.kind_figures("add", "add", 32).unwrap().0;
        assert!(lib.chained_add_ns(32).unwrap() < add);
    }

    /// A word read by more carry chains takes longer nets (the measured
    /// `word_fanout`): nothing more for one reader, more for eight than
    /// for one at every measured width, between widths in between.
    #[test]
    fn words_read_by_more_chains_take_longer_nets() {
        let lib = Library::for_target("ice40-up5k").unwrap();
        for bits in [8, 16, 32] {
            assert_eq!(lib.fanout_net_ns(1, bits), Some(0.0));
            let eight = lib.fanout_net_ns(8, bits).unwrap();
            assert!(eight > 1.0, "{bits}: {eight}");
            assert!(lib.fanout_net_ns(4, bits).unwrap() <= eight);
        }
        // UP5K at 32 bits: 4 readers 17.052 ns, one 15.318.
        let four = lib.fanout_net_ns(4, 32).unwrap();
        assert!((four - (17.052 - 15.318)).abs() < 1e-6, "{four}");
        let (at16, at32) = (lib.fanout_net_ns(4, 16), lib.fanout_net_ns(4, 32));
        let at24 = lib.fanout_net_ns(4, 24).unwrap();
        assert!((at24 - (at16.unwrap() + at32.unwrap()) / 2.0).abs() < 1e-9);
        // Past the measured readers and widths: the last measured.
        assert_eq!(lib.fanout_net_ns(20, 64), lib.fanout_net_ns(8, 32));
    }

    /// Every library file in the repository parses, names its target, and
    /// has measured points for every operator kind the flow emits: each
    /// integer class and RAM access at the ladder's widths (figures for
    /// designs too large for the part are yosys's, with a note), each
    /// float class measured or named in the file's note.
    #[test]
    fn committed_library_files_parse_and_cover_every_operator_kind() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/library");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut bundled: Vec<String> = Library::bundled()
            .map(|b| format!("{}.toml", b.0))
            .collect();
        bundled.sort();
        assert_eq!(names, bundled, "every file in hls/library is bundled");
        for (name, text) in Library::bundled() {
            let lib = Library::parse(lookup(name).unwrap(), text).unwrap();
            let file = LibraryFile::from_text(text).unwrap();
            assert_eq!(file.target, name);
            assert!(lib.register_ns > 0.0, "{name}");
            let widths = |class: &str| {
                let mut w: Vec<u32> = lib
                    .points
                    .iter()
                    .filter(|p| p.class == class)
                    .map(|p| p.width)
                    .collect();
                w.sort_unstable();
                w.dedup();
                w
            };
            for class in CLASSES {
                assert!(lib.row(class, 128).is_some(), "{name} lacks {class}");
                assert!(lib.delay_ns(class, 24).is_some(), "{name} lacks {class}");
            }
            // The ladder's widths (dividers and multipliers may stop at 16 or
            // 32 bits: wider ones extrapolate).
            for class in ["add", "mul", "div", "shift", "logic", "cmp", "mux"] {
                let w = widths(class);
                assert!(w.starts_with(&[1, 8, 16]), "{name} {class} {w:?}");
                let full = ["div", "mul"].contains(&class) || w == [1, 8, 16, 32, 64];
                assert!(full, "{name} {class} {w:?}");
            }
            for kind in [
                "add",
                "sub",
                "cmp",
                "shift",
                "mux",
                "logic",
                "mul",
                "div",
                "rem",
                "ram",
                "ext",
                "cmp_const",
                "cmp_pow2",
                "level",
                "fanout",
                "add_add",
            ] {
                assert!(
                    file.op.iter().any(|p| p.kind == kind),
                    "{name} lacks {kind}"
                );
            }
            // The control and routing figures of the predicted period.
            let (first, step) = lib.levels_ns().unwrap();
            assert!(first >= 0.0 && step > 0.0, "{name}");
            assert!(lib.enable_ns(32).is_some_and(|d| d > 0.0), "{name}");
            // Float operator circuits: every class has its row; a class not
            // measured (their place and route takes minutes each) is named
            // in the file's note.
            for class in FLOAT_CLASSES {
                assert!(
                    lib.row(class, 64).is_some_and(|r| r.auto),
                    "{name} lacks {class}"
                );
                if widths(class).is_empty() {
                    let note = file.note.clone().unwrap_or_default();
                    assert!(
                        note.contains(class),
                        "{name}: {class} neither measured nor noted"
                    );
                }
            }
            assert!(!widths("fadd").is_empty(), "{name}");
            assert!(widths("load").len() >= 3, "{name}");
            // Every measured point has a period, or says why not; classes
            // are the flow's.
            for p in &file.op {
                assert!(p.period_ns.is_some() || p.note.is_some(), "{name} {p:?}");
                assert!(
                    p.class == "ram"
                        || p.class == ROUTE
                        || CLASSES.contains(&p.class.as_str())
                        || FLOAT_CLASSES.contains(&p.class.as_str()),
                    "{name} {p:?}"
                );
            }
            // A part without DSPs has none in its figures (borrowed ones
            // included).
            if crate::model::target::device::lookup(name).is_ok_and(|d| d.dsps == 0) {
                for p in &file.op {
                    assert_eq!(p.dsp, 0, "{name} has no DSPs: {p:?}");
                }
            }
            // What the writer writes reads back the same.
            assert_eq!(
                LibraryFile::from_text(&file.to_text().unwrap()).unwrap(),
                file
            );
            assert_eq!(lib.row("load", 32).unwrap().latency, 1);
            let add = Operator::new(FloatOp::Add, Format::F32);
            assert!(
                lib.float_area(add, 3).is_some_and(|a| a.0 > 100.0),
                "{name}"
            );
            let cmp = Operator::new(FloatOp::Cmp(FloatPredicate::Ogt), Format::F64);
            assert_eq!(
                lib.float_area(cmp, 0).is_some(),
                !widths("fcmp").is_empty(),
                "{name}"
            );
        }
        for d in crate::model::target::device::DEVICES {
            assert!(Library::for_target(d.name).is_ok_and(|l| !l.points.is_empty()));
        }
    }

    /// The float operators of arithmetic kernels (add, mul, div, sqrt,
    /// fma, compare, int-to-float, in f32 and f64), at the latency the
    /// flow picks for the default 20 ns clock on each target, have a
    /// point of their own kind at that latency: placed and routed, or
    /// yosys's area with a note saying the design does not fit the part
    /// or nextpnr could not place it (a figure scaled from another
    /// latency, format or part, ice40-hx8k's borrowed up5k points, does
    /// not count). The
    /// transcendentals (fexp, flog, fpow) are not held to it: see the
    /// files' notes.
    #[test]
    fn the_flows_float_latencies_at_20_ns_are_measured() {
        let mut ctx = Context::new();
        silica_hw_dialects::register(&mut ctx);
        let ops = [
            FloatOp::Add,
            FloatOp::Mul,
            FloatOp::Div,
            FloatOp::Sqrt,
            FloatOp::Fma,
            FloatOp::Cmp(FloatPredicate::Olt),
            FloatOp::IntToFloat {
                signed: true,
                int_bits: 32,
            },
        ];
        let mut unmeasured = Vec::new();
        for (name, _) in Library::bundled() {
            let lib = Library::for_target(name).unwrap();
            for format in [Format::F32, Format::F64] {
                for op in ops {
                    let o = Operator::new(op, format);
                    let kind = float_kind(o);
                    let latency = lib
                        .choose_float_latency(&mut ctx, o, 20.0, false, 0.0)
                        .latency;
                    let measured = lib.points.iter().any(|p| {
                        let note = p.note.as_deref().unwrap_or("");
                        let unplaced = note.contains("does not fit")
                            || note.starts_with("place and route failed");
                        let borrowed = note.contains("measured on ice40-up5k");
                        p.kind == kind
                            && p.latency == latency
                            && (p.period_ns.is_some() || unplaced)
                            && !(borrowed && name != "ice40-up5k")
                    });
                    if !measured {
                        unmeasured.push(format!("{name} {kind}"));
                    }
                }
            }
        }
        assert!(unmeasured.is_empty(), "not measured: {unmeasured:?}");
    }

    #[test]
    fn float_latencies_are_chosen_by_their_measured_delay() {
        let mut ctx = Context::new();
        silica_hw_dialects::register(&mut ctx);
        let add = Operator::new(FloatOp::Add, Format::F32);
        let ecp5 = Library::for_target("ecp5-25k").unwrap();
        let up5k = Library::for_target("ice40-up5k").unwrap();
        for lib in [&ecp5, &up5k] {
            let scales = lib.float_scales(&mut ctx, add);
            assert!(!scales.is_empty());
            // At a measured latency: the measured delay.
            for p in lib
                .points
                .iter()
                .filter(|p| p.kind == "fadd_f32" && p.period_ns.is_some())
            {
                let estimate = stage_delay_ns(&mut ctx, add, p.latency);
                let scaled = estimate * float_scale(&scales, p.latency);
                assert!((scaled - p.delay_ns).abs() < 1e-9, "{p:?}");
            }
            // Each clock gets the fewest stages that fit it as measured,
            // a longer clock never more of them nor a stage slower than it
            // (from 30 ns: no latency of the UP5K's adder meets 20 ns, its
            // stages at 15 and 16 measured 19.5 ns).
            let mut before: Option<LatencyChoice> = None;
            for clock in [30.0, 45.0, 70.0, 110.0, 300.0] {
                let c = lib.choose_float_latency(&mut ctx, add, clock, false, 0.0);
                let budget = clock - lib.register_ns;
                assert!(
                    c.stage_delay_ns <= budget,
                    "{} {clock} {c:?}",
                    lib.device.name
                );
                for fewer in 0..c.latency {
                    let s = stage_delay_ns(&mut ctx, add, fewer) * float_scale(&scales, fewer);
                    assert!(
                        s > budget,
                        "{} {clock}: latency {fewer} fits",
                        lib.device.name
                    );
                }
                if let Some(b) = &before {
                    assert!(c.latency <= b.latency);
                }
                before = Some(c);
            }
            assert_eq!(before.map(|c| c.latency), Some(0));
        }
        // A subtraction, not measured, takes the adder's points.
        let sub = Operator::new(FloatOp::Sub, Format::F32);
        let latencies = |l: &Library, ctx: &mut Context, o| -> Vec<u32> {
            l.float_scales(ctx, o).iter().map(|s| s.0).collect()
        };
        assert!(!ecp5.points.iter().any(|p| p.kind == "fsub_f32"));
        assert_eq!(
            latencies(&ecp5, &mut ctx, sub),
            latencies(&ecp5, &mut ctx, add)
        );
        // The UP5K's fabric is slower: more stages for the same clock.
        let (fast, slow) = (
            ecp5.choose_float_latency(&mut ctx, add, 30.0, false, 0.0),
            up5k.choose_float_latency(&mut ctx, add, 30.0, false, 0.0),
        );
        assert!(slow.latency > fast.latency, "{fast:?} {slow:?}");
        // Past the fastest latency's stage: the fastest, as measured.
        let c = up5k.choose_float_latency(&mut ctx, add, 5.0, false, 0.0);
        assert!(c.stage_delay_ns > 5.0);
        let scales = up5k.float_scales(&mut ctx, add);
        let fastest = latency_choices(&mut ctx, add)
            .iter()
            .map(|l| l.stage_delay_ns * float_scale(&scales, l.latency))
            .fold(f64::INFINITY, f64::min);
        assert_eq!(c.stage_delay_ns, fastest);
    }

    #[test]
    fn float_scales_are_interpolated_between_measured_latencies() {
        let scales = [(2, 1.0), (10, 3.0)];
        assert_eq!(float_scale(&scales, 0), 1.0);
        assert_eq!(float_scale(&scales, 2), 1.0);
        assert_eq!(float_scale(&scales, 6), 2.0);
        assert_eq!(float_scale(&scales, 10), 3.0);
        assert_eq!(float_scale(&scales, 30), 3.0);
        assert_eq!(float_scale(&[], 3), 1.0);
    }

    const SMALL: &str = r#"
target = "t"
measured_on = "t"
tools = "x"
register_ns = 2.0
[[op]]
kind = "add"
class = "add"
width = 8
latency = 0
period_ns = 4.0
delay_ns = 2.0
lut = 8
ff = 0
dsp = 0
bram = 0
[[op]]
kind = "sub"
class = "add"
width = 8
latency = 0
period_ns = 5.0
delay_ns = 3.0
lut = 9
ff = 0
dsp = 0
bram = 0
[[op]]
kind = "add"
class = "add"
width = 32
latency = 0
period_ns = 8.0
delay_ns = 6.0
lut = 32
ff = 0
dsp = 0
bram = 0
[[op]]
kind = "ram"
class = "ram"
width = 16
latency = 1
period_ns = 4.0
delay_ns = 2.0
lut = 1
ff = 0
dsp = 0
bram = 1
"#;

    /// A width not placed and routed (too large for the part) has
    /// yosys's area but no delay: its delay comes from the placed widths.
    #[test]
    fn unplaced_widths_take_their_delay_from_the_placed_ones() {
        let unplaced = "[[op]]\nkind = \"add\"\nclass = \"add\"\nwidth = 64\nlatency = 0\n\
                        delay_ns = 0.0\nlut = 70\nff = 0\ndsp = 0\nbram = 0\nnote = \"too large\"\n";
        let lib =
            Library::parse(lookup("generic").unwrap(), &format!("{SMALL}{unplaced}")).unwrap();
        assert_eq!(lib.luts("add", 64), Some(70.0));
        let delay = 6.0 * (64.0f64 / 32.0).powf((6.0f64 / 3.0).ln() / 4.0f64.ln());
        assert!((lib.delay_ns("add", 64).unwrap() - delay).abs() < 1e-9);
        let add = 6.0 * 2.0f64.powf(3.0f64.ln() / 4.0f64.ln());
        assert!((lib.kind_figures("add", "add", 64).unwrap().0 - add).abs() < 1e-9);
        assert!((lib.row("add", 64).unwrap().delay_ns - delay).abs() < 1e-9);
        // The class's figures at the placed widths are unchanged.
        assert_eq!(lib.delay_ns("add", 20), Some(4.5));
    }

    /// The pipelined divider's measured stages are kept apart from the
    /// `div` class and fitted per width: a fixed part and a row's delay.
    #[test]
    fn divider_stages_are_fitted_to_the_measured_points() {
        let stage = |width: u32, stages: u32, delay: f64| {
            format!(
                "[[op]]\nkind = \"div_stage\"\nclass = \"div\"\nwidth = {width}\n\
                 latency = {stages}\nperiod_ns = {}\ndelay_ns = {delay}\nlut = 9\nff = 9\n\
                 dsp = 0\nbram = 0\n",
                delay + 2.0
            )
        };
        assert_eq!(
            Library::parse(lookup("generic").unwrap(), SMALL)
                .unwrap()
                .divider_stage_ns(32, 3),
            None
        );
        // 16 bits: 2 and 4 rows (8 and 4 stages) in 7 and 11 ns, rows of
        // 2 ns and 3 ns more; 32 bits: rows of 4 ns and 5 ns more.
        let text = format!(
            "{SMALL}{}{}{}{}",
            stage(16, 8, 7.0),
            stage(16, 4, 11.0),
            stage(32, 16, 13.0),
            stage(32, 8, 21.0)
        );
        let lib = Library::parse(lookup("generic").unwrap(), &text).unwrap();
        assert!(lib.points.iter().all(|p| p.kind != "div_stage"));
        assert_eq!(lib.divider_points.len(), 4);
        assert_eq!(lib.divider_stage_ns(16, 3), Some(9.0));
        assert_eq!(lib.divider_stage_ns(32, 3), Some(17.0));
        assert_eq!(lib.divider_stage_ns(24, 1), Some(4.0 + 3.0));
        // One count measured at a width: the row's delay alone.
        let one = format!("{SMALL}{}", stage(32, 8, 20.0));
        let lib = Library::parse(lookup("generic").unwrap(), &one).unwrap();
        assert_eq!(lib.divider_stage_ns(32, 2), Some(10.0));
    }

    #[test]
    fn figures_are_interpolated_between_widths() {
        let lib = Library::parse(lookup("generic").unwrap(), SMALL).unwrap();
        // The largest of the class's kinds at a width (sub at 8).
        assert_eq!(lib.delay_ns("add", 8), Some(3.0));
        assert_eq!(lib.luts("add", 4), Some(9.0));
        assert_eq!(lib.delay_ns("add", 20), Some(4.5));
        assert_eq!(lib.luts("add", 20), Some(20.5));
        // Past the widest: the power law through 32 and 8 (the widest at
        // most half 32).
        let luts = lib.luts("add", 64).unwrap();
        assert!(
            (luts - 9.0 * (64.0f64 / 8.0).powf((32.0f64 / 9.0).ln() / 4.0f64.ln())).abs() < 1e-9
        );
        // A kind's own figures: the add alone, and the class's for a kind
        // without points.
        assert_eq!(lib.kind_figures("add", "add", 8), Some((2.0, 8.0)));
        assert_eq!(lib.kind_figures("sub", "add", 8), Some((3.0, 9.0)));
        assert_eq!(lib.kind_figures("add", "add", 20), Some((4.0, 20.0)));
        assert_eq!(lib.kind_figures("sub", "add", 20), Some((3.0, 9.0)));
        assert_eq!(lib.kind_figures("neg", "add", 8), Some((3.0, 9.0)));
        assert_eq!(lib.kind_figures("mul", "mul", 8), None);
        assert_eq!(lib.row("add", 8).unwrap().max_width, 8);
        assert_eq!(lib.row("add", 100).unwrap().max_width, u32::MAX);
        assert_eq!(lib.row("load", 16).unwrap().resource, "port");
        assert_eq!(lib.row("store", 16).unwrap().latency, 1);
        assert!(lib.delay_ns("mul", 8).is_none());
        assert!(Library::parse(lookup("generic").unwrap(), "target = 1").is_err());
        let unknown = SMALL.replace("bram = 1", "bram = 1\nbrams = 2");
        assert!(Library::parse(lookup("generic").unwrap(), &unknown).is_err());
    }

    /// Past the widest point the power law runs through the widest and
    /// the widest at most half its width, not the close width before it.
    #[test]
    fn extrapolation_spans_half_the_widest_width() {
        let at = [(8.0, 20.0), (16.0, 50.0), (28.0, 120.0), (32.0, 130.0)];
        let k = (130.0f64 / 50.0).ln() / 2.0f64.ln();
        let y = interpolate(&at, 64.0).unwrap();
        assert!((y - 130.0 * 2.0f64.powf(k)).abs() < 1e-9, "{y}");
        // Below the widest: linear between the neighbours.
        assert_eq!(interpolate(&at, 30.0), Some(125.0));
        // No point that narrow: the one before the widest.
        let close = [(24.0, 90.0), (32.0, 130.0)];
        let k = (130.0f64 / 90.0).ln() / (32.0f64 / 24.0).ln();
        let y = interpolate(&close, 64.0).unwrap();
        assert!((y - 130.0 * 2.0f64.powf(k)).abs() < 1e-9, "{y}");
    }

    #[test]
    fn libraries_are_chosen_through_the_device() {
        assert!(Library::for_target("xc7").is_err());
        assert_eq!(Library::for_target("ecp5").unwrap().device.name, "ecp5-25k");
        assert_eq!(
            Library::for_target("ecp5-85k").unwrap().device.name,
            "ecp5-85k"
        );
    }
}
