//! Reports: `F.json` (the interface description and QoR figures in the
//! brief's shape, written with serde) and `report.txt` (the same for a
//! person: latency, each loop's trip count, II against ResMII/RecMII and
//! depth, the schedule of each pipelined loop, the latency chosen for
//! each float operator, resource estimates, and what became of each
//! directive: honoured or not, and why).

pub mod dma;
pub mod html;
pub mod roofline;
pub mod synthesis;

use crate::flow::construct::ports::result_port;
use crate::flow::estimate::Estimate;
use crate::flow::fit::Fit;
use crate::flow::schedule::figures::Figures;
use crate::flow::schedule::floats::FloatChoices;
use crate::flow::schedule::Schedules;
use crate::model::interface::Interface;
use crate::model::kernel::{Arg, Item, Kernel, Op};
use crate::model::register_map::RegisterMap;
use crate::model::target::library::{class_of, Library};
use serde::Serialize;
use std::fmt::Write;

/// The JSON report.
#[derive(Serialize, Clone, Debug)]
pub struct Json {
    pub top: String,
    pub interface: String,
    pub target: String,
    pub clock_ns: f64,
    /// The margin the schedule keeps below `clock_ns` (`--clock-uncertainty`,
    /// or what `--bitstream`'s timing closure chose); absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub clock_uncertainty_ns: f64,
    /// Whether `clock_ns` is the target's default (no clock was asked).
    pub clock_default: bool,
    pub args: Vec<ArgJson>,
    pub results: Vec<ResultJson>,
    pub latency: LatencyJson,
    pub loops: Vec<LoopJson>,
    pub resources: ResourcesJson,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dma: Option<crate::flow::report::dma::DmaJson>,
    /// The AXI wrapper's register map (`--interface axi`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axi: Option<crate::model::register_map::RegisterMap>,
    /// The core's streamed DMA engines (`--interface axi`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<crate::model::interface::Stream>,
    /// The fewest cycles the device allows and the share reached
    /// (`roofline`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roofline: Option<roofline::Roofline>,
    /// The dataflow groups: each task's loop and start cycle.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dataflow: Vec<Vec<TaskJson>>,
}

/// A dataflow task: its loop nest, and the cycle it starts at, counted
/// from the first cycle of its group's first task.
#[derive(Serialize, Clone, Debug)]
pub struct TaskJson {
    #[serde(rename = "loop")]
    pub loop_path: String,
    pub start: u64,
}

/// One argument.
#[derive(Serialize, Clone, Debug)]
pub struct ArgJson {
    pub index: usize,
    pub name: String,
    pub kind: String,
    #[serde(rename = "type")]
    pub ty: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub element_width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub words: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address_width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ports: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub read_latency: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub access: Option<String>,
    /// Elements a word of the ports (the `width` directive); absent
    /// when 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lanes: Option<u32>,
    /// Moved by a streamed DMA engine: no memory ports.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub streamed: bool,
    /// The function's result this memory is (a returned buffer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub returned: Option<usize>,
}

/// One scalar result.
#[derive(Serialize, Clone, Debug)]
pub struct ResultJson {
    pub index: usize,
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub width: u32,
}

/// Latency in cycles (unknown: null).
#[derive(Serialize, Clone, Debug)]
pub struct LatencyJson {
    pub min: Option<u64>,
    pub max: Option<u64>,
    /// A design with DMA: its cycles by the static model of the DMA
    /// engines (`analysis::dma_timing`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dma_model: Option<u64>,
}

/// One loop.
#[derive(Serialize, Clone, Debug)]
pub struct LoopJson {
    pub path: String,
    pub trip_count: Option<u64>,
    pub pipelined: bool,
    pub ii: Option<u32>,
    pub res_mii: Option<u32>,
    pub rec_mii: Option<u32>,
    /// The II's lower bound: max(ResMII, RecMII), or more where
    /// recurrences hold port or unit users in one slot.
    pub mii: Option<u32>,
    pub depth: Option<u32>,
    /// The loops flattened into this one (`flatten`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flattened: Vec<String>,
    /// A pipelined loop's operations, each at its step of an iteration.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub schedule: Vec<ScheduledOp>,
}

/// One operation of a pipelined loop's schedule.
#[derive(Serialize, Clone, Debug)]
pub struct ScheduledOp {
    /// `mul#4`: its class and node number.
    pub name: String,
    /// Its operator class (the resource it uses).
    pub class: String,
    /// The step of an iteration it starts at.
    pub step: u32,
    /// Cycles from its start to its result (0: combinational).
    pub latency: u32,
}

/// Resource figures.
#[derive(Serialize, Clone, Debug)]
pub struct ResourcesJson {
    /// What the target device holds.
    pub device: DeviceJson,
    pub estimate: Estimate,
    /// How far the estimate is from the tools' figures, measured.
    pub estimate_error: crate::flow::estimate::MeasuredError,
    /// Filled by `--bitstream`.
    pub synthesis: Option<synthesis::Synthesis>,
    /// The unit limits chosen to fit the target device (`crate::flow::fit`);
    /// absent where the design fits as given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<crate::flow::fit::Fit>,
}

/// The target device's capacity (zeros for `generic`).
#[derive(Serialize, Clone, Debug)]
pub struct DeviceJson {
    pub name: String,
    /// The unit of logic its `luts` count: `LUT`, or `LC` (iCE40's logic
    /// cells, as the estimate's and placement's `lc`).
    pub logic: String,
    pub luts: u64,
    pub ffs: u64,
    pub dsps: u64,
    pub brams: u64,
    /// LUT RAM cells (ECP5; 0 on iCE40).
    pub lut_rams: u64,
    pub io: u64,
}

/// What was measured of a design: the reports print it beside the
/// estimate.
#[derive(Clone, Debug, Default)]
pub struct Measurements {
    /// The cycles from `start` to `done`, co-simulated (none for a
    /// wrapped design: its co-simulation measures the wrapper).
    pub latency: Option<u64>,
    /// The figures of synthesis, placement and routing (`--bitstream`).
    pub synthesis: Option<synthesis::Synthesis>,
    /// The DMA overlap measured in simulation.
    pub overlap: Option<dma::MeasuredOverlap>,
}

/// Inputs of a report.
pub struct ReportInput<'a> {
    pub k: &'a Kernel,
    pub s: &'a Schedules,
    pub floats: &'a FloatChoices,
    pub lib: &'a Library,
    pub clock_ns: f64,
    /// Whether `clock_ns` is the target's default.
    pub clock_default: bool,
    /// The margin the schedule keeps below `clock_ns`.
    pub clock_uncertainty_ns: f64,
    pub figures: &'a Figures,
    /// The built circuit's estimate (`crate::flow::estimate`).
    pub circuit: &'a crate::flow::estimate::CircuitEstimate,
    pub notes: &'a [String],
    pub directives: &'a crate::model::directives::Log,
    /// What datapath rewriting did.
    pub rewrite: &'a crate::flow::rewrite::Outcome,
    /// What it did in each callee, by name.
    pub callee_rewrites: &'a [(String, crate::flow::rewrite::Outcome)],
    /// Units of each limited class, and the operations sharing them.
    pub units: &'a [(String, u32, usize)],
    pub dma_engines: usize,
    /// The products by constants the circuit builds, by form.
    pub products: crate::flow::analysis::constant_product::Products,
    /// The limits chosen to fit the device, if any.
    pub fit: Option<&'a Fit>,
    pub interface: &'a Interface,
    /// The AXI wrapper's register map (`--interface axi`).
    pub axi: Option<&'a RegisterMap>,
    /// The work the kernel must do, for the roofline.
    pub work: Option<&'a crate::flow::analysis::work::Work>,
    pub measured: &'a Measurements,
}

/// How each memory is accessed.
fn access(k: &Kernel, m: usize) -> &'static str {
    let transfers = || k.dmas.iter().filter_map(|d| d.transfer.as_ref());
    let reads = k.nodes.iter().any(|n| n.op == Op::Load(m)) || transfers().any(|t| t.src == m);
    let writes = k.nodes.iter().any(|n| n.op == Op::Store(m)) || transfers().any(|t| t.dst == m);
    match (reads, writes) {
        (true, true) => "read_write",
        (false, true) => "write",
        (true, false) => "read",
        (false, false) => "none",
    }
}

/// The line saying what the estimate counts, where the design is more
/// than its core: the scan wrapper `fpga::implement` puts the core
/// behind when its ports outnumber the package's pins, and not the AXI
/// wrapper, which `--bitstream` does not build (its top is the core).
fn counted(r: &ReportInput<'_>, j: &Json, out: &mut String) {
    let scan = r.circuit.scan.is_some();
    if !scan && j.axi.is_none() {
        return;
    }
    let mut line = format!("estimate counts: the core '{}'", j.top);
    if scan {
        line.push_str(" and its scan wrapper (its ports outnumber the package's pins)");
    }
    line.push_str(", as --bitstream builds it");
    if let Some(map) = &j.axi {
        let _ = write!(
            line,
            "; not the AXI wrapper '{}', which --bitstream does not build",
            map.module
        );
    }
    let _ = writeln!(out, "{line}");
}

/// The JSON report.
pub fn json(r: &ReportInput<'_>) -> Json {
    let k = r.k;
    let mut args = Vec::new();
    for (i, a) in k.args.iter().enumerate() {
        args.push(match a {
            Arg::Scalar(s) => ArgJson {
                index: i,
                name: s.name.clone(),
                kind: "scalar".into(),
                ty: s.ty.clone(),
                width: Some(s.width),
                shape: None,
                element_width: None,
                words: None,
                address_width: None,
                ports: None,
                read_latency: None,
                access: None,
                lanes: None,
                streamed: false,
                returned: None,
            },
            Arg::Memory(m) => {
                let mem = &k.memories[*m];
                let dims: Vec<String> = mem.shape.iter().map(|d| d.to_string()).collect();
                ArgJson {
                    index: i,
                    name: mem.name.clone(),
                    kind: "memory".into(),
                    ty: format!("memref<{}x{}>", dims.join("x"), mem.element_type),
                    width: None,
                    shape: Some(mem.shape.clone()),
                    element_width: Some(mem.element_width),
                    words: Some(mem.words()),
                    address_width: Some(mem.address_width()),
                    ports: Some(mem.ports),
                    read_latency: Some(1),
                    access: Some(access(k, *m).into()),
                    lanes: (mem.lanes > 1).then_some(mem.lanes),
                    streamed: false,
                    returned: mem.returned,
                }
            }
        });
    }
    let results = k
        .results
        .iter()
        .enumerate()
        .map(|(i, &w)| ResultJson {
            index: k.result_positions[i],
            name: result_port(k.result_positions[i]),
            ty: format!("i{w}"),
            width: w,
        })
        .collect();
    let loops = k
        .loops_in_order()
        .into_iter()
        .filter(|&l| k.counter_owner(l) == l)
        .map(|l| {
            let p = r.s.pipes[l].as_ref();
            LoopJson {
                path: k.loops[l].path.clone(),
                trip_count: r.figures.trips[l].map(|t| t.1),
                pipelined: p.is_some(),
                ii: p.map(|p| p.ii),
                res_mii: p.map(|p| p.res_mii),
                rec_mii: p.map(|p| p.rec_mii),
                mii: p.map(|p| p.mii),
                depth: p.map(|p| p.depth),
                flattened: k.loops[l]
                    .flat
                    .iter()
                    .map(|&m| k.loops[m].path.clone())
                    .collect(),
                schedule: match p {
                    Some(_) => pipeline_ops(k, r.s, l),
                    None => Vec::new(),
                },
            }
        })
        .collect();
    let mut j = Json {
        top: k.name.clone(),
        interface: "memory".into(),
        target: r.lib.device.name.to_string(),
        clock_ns: r.clock_ns,
        clock_default: r.clock_default,
        clock_uncertainty_ns: r.clock_uncertainty_ns,
        args,
        results,
        latency: LatencyJson {
            min: r.figures.latency_min,
            max: r.figures.latency,
            dma_model: r.figures.dma_model,
        },
        loops,
        resources: ResourcesJson {
            device: DeviceJson {
                name: r.lib.device.name.to_string(),
                logic: r.lib.device.family.logic_name().to_string(),
                luts: r.lib.device.luts,
                ffs: r.lib.device.ffs,
                dsps: r.lib.device.dsps,
                brams: r.lib.device.brams,
                lut_rams: r.lib.device.lut_rams,
                io: r.lib.device.io,
            },
            estimate: Estimate::of(r.circuit, r.k, r.lib),
            estimate_error: crate::flow::estimate::MEASURED_ERROR,
            synthesis: r.measured.synthesis.clone(),
            fit: r.fit.cloned(),
        },
        dma: crate::flow::report::dma::json(r),
        axi: None,
        streams: Vec::new(),
        roofline: None,
        dataflow: k
            .dataflow
            .iter()
            .zip(&r.s.starts)
            .map(|(g, starts)| {
                g.items()
                    .zip(starts)
                    .filter_map(|(i, &start)| match k.body[i] {
                        Item::Loop(l) => Some(TaskJson {
                            loop_path: k.loops[l].path.clone(),
                            start,
                        }),
                        _ => None,
                    })
                    .collect()
            })
            .collect(),
    };
    if let Some(map) = r.axi {
        j.interface = "axi".into();
        j.axi = Some(map.clone());
        j.streams = r.interface.streams.clone();
        for a in &mut j.args {
            a.streamed = r
                .interface
                .memories()
                .any(|(x, m)| x.name == a.name && m.streamed);
        }
    }
    if let Some(m) = r.measured.latency {
        j.latency = LatencyJson {
            min: Some(m),
            max: Some(m),
            dma_model: r.figures.dma_model,
        };
    }
    let cycles = j.latency.max.or(j.latency.dma_model);
    j.roofline = r
        .work
        .and_then(|w| roofline::of(w, k, r.interface, r.lib, cycles));
    j
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// The lower bound of the pipelined loops' time, Σ iterations × the
/// II's lower bound (max(ResMII, RecMII), or the slot bound above both)
/// plus the deepest pipeline, and `latency` over it. The tasks of a
/// dataflow group count their longest.
pub fn bound_ratio(r: &ReportInput<'_>, latency: Option<u64>) -> Option<(u64, f64)> {
    let k = r.k;
    let mut per_item = vec![0u64; k.body.len()];
    let top = k.top_item_of_loops();
    let mut depth = 0u64;
    for (l, p) in r.s.pipes.iter().enumerate() {
        let Some(p) = p else { continue };
        if let Some(i) = top[l] {
            per_item[i] += r.figures.iterations[l] * u64::from(p.mii);
        }
        depth = depth.max(u64::from(p.depth));
    }
    let mut bound = 0u64;
    for (i, &b) in per_item.iter().enumerate() {
        match k.task_at(i) {
            Some((g, t)) => {
                if t == 0 {
                    bound += k.dataflow[g]
                        .items()
                        .map(|j| per_item[j])
                        .max()
                        .unwrap_or(0);
                }
            }
            None => bound += b,
        }
    }
    let bound = bound + depth;
    if depth == 0 || bound == 0 {
        return None;
    }
    Some((bound, latency? as f64 / bound as f64))
}

/// The operations of pipelined loop `l` of `k`, in node order.
fn pipeline_ops(k: &Kernel, s: &Schedules, l: usize) -> Vec<ScheduledOp> {
    k.nodes
        .iter()
        .enumerate()
        .filter(|(_, node)| k.pipelined_loop_of(node.block) == Some(l))
        .map(|(n, node)| ScheduledOp {
            name: format!("{}#{n}", class_of(node.op)),
            class: class_of(node.op).to_string(),
            step: s.start[n],
            latency: s.latency[n],
        })
        .collect()
}

/// `report.txt`, from the report's input and its JSON.
pub fn text(r: &ReportInput<'_>, j: &Json) -> String {
    let measured = r.measured.latency;
    let mut out = String::new();
    let k = r.k;
    let _ = writeln!(out, "silica hls report: {}", k.name);
    let scheduled = if r.clock_uncertainty_ns > 0.0 {
        format!(
            ", scheduled to {:.2} ns ({} ns of clock uncertainty)",
            r.clock_ns - r.clock_uncertainty_ns,
            r.clock_uncertainty_ns
        )
    } else {
        String::new()
    };
    let default = if r.clock_default {
        ", its default clock"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "target {} at {} ns{default}{scheduled} (operator library measured on {})",
        r.lib.device.name, r.clock_ns, r.lib.measured_on
    );
    let us = |c: u64| c as f64 * r.clock_ns / 1000.0;
    match (measured, r.figures.latency) {
        (Some(m), c) => {
            // The static latency is exact: a difference is a bug of the
            // schedule's count or of the controller, shown, not hidden.
            let against = match (c, r.figures.dma_model) {
                (Some(c), _) if c == m => ", as the static schedule gives".to_string(),
                (Some(c), _) => format!("; the static schedule gives {c}"),
                (None, Some(d)) => format!("; the static DMA model gives {d}"),
                (None, None) => String::new(),
            };
            let _ = writeln!(
                out,
                "latency: {m} cycles ({:.3} us), measured by co-simulation{against}",
                us(m)
            );
        }
        (None, Some(c)) => {
            let _ = writeln!(
                out,
                "latency: {c} cycles ({:.3} us), from the static schedule",
                us(c)
            );
        }
        (None, None) => match r.figures.latency_min.filter(|_| k.dmas.is_empty()) {
            Some(c) => {
                let _ = writeln!(
                    out,
                    "latency: at least {c} cycles ({:.3} us), data-dependent (scf.while)",
                    us(c)
                );
            }
            None => {
                let why = if k.dmas.is_empty() {
                    "data-dependent loop bounds"
                } else {
                    "DMA waits last as long as the transfers"
                };
                match r.figures.dma_model.filter(|_| !k.dmas.is_empty()) {
                    Some(d) => {
                        let _ = writeln!(
                            out,
                            "latency: {d} cycles ({:.3} us) by the static DMA model ({why})",
                            us(d)
                        );
                    }
                    None => {
                        let _ = writeln!(out, "latency: unknown statically ({why})");
                    }
                }
            }
        },
    }
    if let Some((bound, ratio)) = bound_ratio(r, measured.or(r.figures.latency)) {
        let _ = writeln!(
            out,
            "against the pipelines' bound (sum of iterations x MII + deepest depth = {bound} cycles): {ratio:.2}x"
        );
    }
    if let Some(roof) = &j.roofline {
        roofline::text(roof, &mut out);
    }
    for g in &j.dataflow {
        let tasks: Vec<String> = g
            .iter()
            .map(|t| format!("{} (from cycle {})", t.loop_path, t.start))
            .collect();
        let _ = writeln!(out, "dataflow: {} run at once", tasks.join(", "));
    }
    for c in &r.s.channels {
        let mem = &k.memories[c.memory];
        let task = |t: usize| {
            let g = k.dataflow[c.group];
            match k.body[g.first + t] {
                Item::Loop(l) => k.loops[l].path.clone(),
                _ => String::new(),
            }
        };
        let kind = if c.fifo { "a FIFO" } else { "a ring buffer" };
        let built = if c.depth == c.least {
            String::new()
        } else {
            format!(", built as {}", c.depth)
        };
        let _ = writeln!(
            out,
            "dataflow channel {}: {kind} of {} word{}{built} (of {}) from {} to {}",
            mem.name,
            c.least,
            if c.least == 1 { "" } else { "s" },
            mem.array_words(),
            task(c.producer),
            task(c.consumer)
        );
    }
    let _ = writeln!(out, "index width: {} bits", k.index_width);
    let _ = writeln!(out, "loops:");
    for lj in &j.loops {
        let mut trip = lj.trip_count.map_or("?".to_string(), |t| t.to_string());
        if !lj.flattened.is_empty() {
            trip = format!("{trip} (flattened with {})", lj.flattened.join(", "));
        }
        if lj.pipelined {
            let (res, rec) = (lj.res_mii.unwrap_or(0), lj.rec_mii.unwrap_or(0));
            // The slot bound, where it is above both.
            let slots = match lj.mii {
                Some(m) if m > res.max(rec) => format!(", slots {m}"),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "  {}: trip {trip}, pipelined, II {} (ResMII {res}, RecMII {rec}{slots}), depth {}",
                lj.path,
                lj.ii.unwrap_or(0),
                lj.depth.unwrap_or(0)
            );
        } else {
            let _ = writeln!(out, "  {}: trip {trip}, sequential", lj.path);
        }
    }
    for (l, &lead) in r.s.lead.iter().enumerate() {
        if lead > 0 {
            let _ = writeln!(
                out,
                "overlap: {} leaves its state {lead} cycle(s) before it drains (what follows starts meanwhile)",
                k.loops[l].path
            );
        }
    }
    for (l, p) in r.s.pipes.iter().enumerate() {
        let Some(p) = p else { continue };
        let _ = writeln!(out, "schedule of {} (step: operations):", k.loops[l].path);
        let ops = pipeline_ops(k, r.s, l);
        for t in 0..p.depth {
            let at: Vec<&str> = ops
                .iter()
                .filter(|o| o.step == t)
                .map(|o| o.name.as_str())
                .collect();
            let _ = writeln!(out, "  {t}: {}", at.join(" "));
        }
    }
    if !r.floats.latencies().is_empty() {
        let _ = writeln!(out, "float operators (latency, slowest stage as measured):");
        for (o, c) in r.floats.latencies() {
            let _ = writeln!(
                out,
                "  {}: {} cycles, {:.1} ns (first stage {:.1} ns, last {:.1} ns)",
                o.module_name(c.latency),
                c.latency,
                c.stage_delay_ns,
                c.input_delay_ns,
                c.output_delay_ns
            );
        }
    }
    let e = &j.resources.estimate;
    let logic = match e.lc {
        Some(lc) => format!("{lc} LC ({} LUT4)", e.lut),
        None => format!("{} LUT", e.lut),
    };
    let _ = writeln!(
        out,
        "resources (estimate): {logic}, {} FF, {} DSP, {} BRAM{}",
        e.ff,
        e.dsp,
        e.bram,
        synthesis::lut_ram_text(e.lut_ram)
    );
    if let Some(f) = &j.resources.fit {
        let _ = writeln!(out, "fit: {}", f.describe(r.lib.device, r.figures.latency));
    }
    let scarce = crate::flow::analysis::constant_product::scarce(r.k, r.lib);
    if let Some(line) = r.products.line(scarce) {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(
        out,
        "clock (estimate): {:.2} ns ({:.1} MHz), longest path: {}",
        e.period_ns,
        e.fmax_mhz,
        if r.circuit.path.is_empty() {
            "register to register".to_string()
        } else {
            r.circuit.path.join(", ")
        }
    );
    counted(r, j, &mut out);
    let _ = writeln!(out, "{}", j.resources.estimate_error.describe(r.lib.device));
    if let Some(s) = &j.resources.synthesis {
        out.push_str(&s.describe());
    }
    if let Some(d) = &j.dma {
        crate::flow::report::dma::text(d, &mut out);
    }
    r.rewrite.text(&mut out);
    for (callee, outcome) in r.callee_rewrites {
        outcome.callee_text(callee, &mut out);
    }
    for n in r.notes {
        let _ = writeln!(out, "note: {n}");
    }
    if !r.directives.outcomes.is_empty() {
        let _ = writeln!(out, "directives:");
        let mut outcomes: Vec<_> = r.directives.outcomes.iter().collect();
        outcomes.sort_by(|a, b| a.subject.cmp(&b.subject));
        for o in outcomes {
            let _ = writeln!(
                out,
                "  {}: {} ({}): {}: {}",
                o.subject,
                o.directive,
                o.origin.word(),
                if o.honoured {
                    "honoured"
                } else {
                    "not honoured"
                },
                o.why
            );
        }
    }
    out
}
