//! The roofline of a design: the fewest cycles any design of its kernel
//! could take on its device, and the share of that the design reaches.
//! Compute: the operations of each kind the kernel executes
//! (`analysis::work`) over the units of that kind the device can hold
//! (its DSPs, else its LUTs, over what one unit takes by the operator
//! library), for the kind that takes longest. Memory: the words each
//! external memory must move (its footprint, packed into `lanes`-element
//! words) over its ports, for the memory that takes longest. The
//! fraction is the larger bound over the design's cycles (measured by
//! co-simulation, else the static schedule's). A target that is no
//! device has no roofline.

use crate::flow::analysis::work::Work;
use crate::model::interface::Interface;
use crate::model::kernel::Kernel;
use crate::model::target::library::Library;
use serde::Serialize;
use std::fmt::Write;

/// The roofline (`F.json`'s `roofline`).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Roofline {
    /// The operations' bound, and what sets it.
    pub compute_cycles: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute: Option<ComputeBound>,
    /// The external memories' bound, and what sets it.
    pub memory_cycles: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryBound>,
    /// The design's cycles the fraction is of.
    pub cycles: u64,
    /// `max(compute_cycles, memory_cycles) / cycles`.
    pub fraction: f64,
}

/// The kind of operation that bounds the compute cycles.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ComputeBound {
    /// Its library class, width and float operator (`fmul_f32`).
    pub class: String,
    pub width: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator: Option<String>,
    pub operations: u64,
    /// The units of it the device holds.
    pub units: u64,
}

/// The memory that bounds the memory cycles.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct MemoryBound {
    pub name: String,
    /// Words read and written (each element once, `lanes` a word).
    pub words: u64,
    pub ports: u32,
    pub lanes: u32,
}

/// The roofline of kernel `k` (interface `iface`) doing `work` on the
/// device of `lib`, for a design of `cycles`; `None` without a device.
pub fn of(
    work: &Work,
    k: &Kernel,
    iface: &Interface,
    lib: &Library,
    cycles: Option<u64>,
) -> Option<Roofline> {
    if !lib.device.family.is_device() {
        return None;
    }
    let cycles = cycles.filter(|&c| c > 0)?;
    let mut compute = (0, None);
    for &(kind, ops) in &work.operations {
        let Some(units) = lib.units_held(kind.class, kind.width, kind.operator) else {
            continue;
        };
        let c = ops.div_ceil(units);
        if c > compute.0 {
            compute = (
                c,
                Some(ComputeBound {
                    class: kind.class.into(),
                    width: kind.width,
                    operator: kind.operator.map(|o| o.module_name(0)),
                    operations: ops,
                    units,
                }),
            );
        }
    }
    let mut memory = (0, None);
    for (&m, &(read, written)) in &work.footprint {
        let mem = &k.memories[m];
        let lanes = iface
            .memories()
            .find(|(a, _)| a.name == mem.name)
            .map_or(1, |(_, im)| im.lanes.max(1));
        let words = read.div_ceil(u64::from(lanes)) + written.div_ceil(u64::from(lanes));
        let c = words.div_ceil(u64::from(mem.ports.max(1)));
        if c > memory.0 {
            memory = (
                c,
                Some(MemoryBound {
                    name: mem.name.clone(),
                    words,
                    ports: mem.ports,
                    lanes,
                }),
            );
        }
    }
    let bound = compute.0.max(memory.0);
    Some(Roofline {
        compute_cycles: compute.0,
        compute: compute.1,
        memory_cycles: memory.0,
        memory: memory.1,
        cycles,
        fraction: (bound as f64 / cycles as f64 * 10_000.0).round() / 10_000.0,
    })
}

/// `report.txt`'s line.
pub fn text(r: &Roofline, out: &mut String) {
    let compute = match &r.compute {
        Some(c) => {
            let kind = match &c.operator {
                Some(o) => o
                    .trim_start_matches("silica_")
                    .trim_end_matches("_l0")
                    .to_string(),
                None => format!("{} i{}", c.class, c.width),
            };
            format!("{} {kind} on {} unit(s)", c.operations, c.units)
        }
        None => "no operations".into(),
    };
    let memory = match &r.memory {
        Some(m) => format!(
            "{} word(s) of {} on {} port(s) of {} lane(s)",
            m.words, m.name, m.ports, m.lanes
        ),
        None => "no external memory".into(),
    };
    let _ = writeln!(
        out,
        "roofline: compute {} cycles ({compute}), memory {} cycles ({memory}); {:.1}% of the bound reached in {} cycles",
        r.compute_cycles,
        r.memory_cycles,
        r.fraction * 100.0,
        r.cycles
    );
}
