//! The DMA part of the reports: the engines, the transfers and waits,
//! the on-chip buffers, and how much of the DMA time the computation
//! hid, measured in silica's simulator (`verification::cosim::overlap`)
//! when co-simulated.

use crate::flow::report::ReportInput;
use crate::model::kernel::Kernel;
use serde::Serialize;
use std::fmt::Write;

/// Cycles of one run, classified.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Overlap {
    /// Cycles from the cycle after `start` to `done`.
    pub cycles: u64,
    /// Cycles the controller computes (not idle, not in a DMA state).
    pub compute: u64,
    /// Cycles a DMA engine is busy.
    pub dma: u64,
    /// Cycles both happen.
    pub both: u64,
    /// Cycles the controller waits in a `dma_wait` state.
    pub waiting: u64,
}

/// A measured overlap and how it was measured.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct MeasuredOverlap {
    /// How the cycles were counted.
    pub source: String,
    #[serde(flatten)]
    pub cycles: Overlap,
}

/// The DMA section of `F.json`.
#[derive(Serialize, Clone, Debug)]
pub struct DmaJson {
    pub engines: usize,
    pub starts: usize,
    pub waits: usize,
    /// On-chip buffers DMA transfers fill or drain.
    pub buffers: Vec<String>,
    pub overlap: Option<MeasuredOverlap>,
}

/// The DMA section, for kernels with DMA operations.
pub fn json(r: &ReportInput<'_>) -> Option<DmaJson> {
    let k: &Kernel = r.k;
    if k.dmas.is_empty() {
        return None;
    }
    let transfers: Vec<_> = k.dmas.iter().filter_map(|d| d.transfer.as_ref()).collect();
    let mut buffers: Vec<String> = transfers
        .iter()
        .flat_map(|t| [t.src, t.dst])
        .filter(|&m| k.memories[m].arg.is_none())
        .map(|m| k.memories[m].name.clone())
        .collect();
    buffers.sort();
    buffers.dedup();
    Some(DmaJson {
        engines: r.dma_engines,
        starts: transfers.len(),
        waits: k.dmas.len() - transfers.len(),
        buffers,
        overlap: r.measured.overlap.clone(),
    })
}

/// The DMA lines of `report.txt`.
pub fn text(j: &DmaJson, out: &mut String) {
    let _ = writeln!(
        out,
        "dma: {} engine(s), {} dma_start, {} dma_wait; on-chip buffers: {}",
        j.engines,
        j.starts,
        j.waits,
        j.buffers.join(", ")
    );
    match &j.overlap {
        Some(o) => {
            let c = o.cycles;
            let pct = |x: u64, of: u64| {
                if of == 0 {
                    0.0
                } else {
                    100.0 * x as f64 / of as f64
                }
            };
            let _ = writeln!(
                out,
                "dma overlap ({}): {} cycles, DMA busy {}, computing {}, both {} ({:.1}% of the DMA time hidden behind computation), waiting on DMA {}",
                o.source,
                c.cycles,
                c.dma,
                c.compute,
                c.both,
                pct(c.both, c.dma),
                c.waiting
            );
        }
        None => {
            let _ = writeln!(
                out,
                "dma overlap: not measured (measured in silica's simulator with --sim, designs of at most 20000 cycles)"
            );
        }
    }
}
