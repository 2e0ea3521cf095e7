//! The estimate's summary: the LUTs, flip-flops, DSPs and block RAMs
//! of a built design and its predicted clock, as `F.json`'s
//! `resources.estimate` gives them and fitting compares with the
//! device.

use super::CircuitEstimate;
use crate::model::kernel::{Kernel, Memory};
use crate::model::target::device::Device;
use crate::model::target::library::Library;
use serde::Serialize;

/// LUT, flip-flop, DSP and block RAM counts.
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    pub lut: u64,
    pub ff: u64,
    pub dsp: u64,
    pub bram: u64,
    /// The predicted clock period (ns) and frequency (MHz): the longest
    /// register-to-register path of the circuit by the library's delays.
    pub period_ns: f64,
    pub fmax_mhz: f64,
}

impl Estimate {
    /// The resource estimate from the operator library: the built
    /// circuit's LUTs and DSPs (`crate::flow::estimate`: every comb op, the
    /// controller's included, at its width, and the scan wrapper's when the
    /// design sits behind one; the measured areas of its float operators'
    /// instances at their pipeline latencies, with their pipeline
    /// flip-flops), the flip-flops yosys keeps of the registers
    /// (`crate::flow::estimate` `flops`: merged, unread and constant bits left
    /// out), on-chip memories in block
    /// RAMs of the family's size; the predicted clock from the circuit's
    /// longest path. On iCE40 the LUTs are logic cells, as nextpnr places
    /// them: a flip-flop loaded from no LUT takes a cell of its own.
    pub fn of(circuit: &CircuitEstimate, k: &Kernel, lib: &Library) -> Estimate {
        let mut e = Estimate {
            ff: circuit.ff + circuit.scan.as_ref().map_or(0, |w| w.ff),
            dsp: circuit.dsp,
            period_ns: (circuit.period_ns * 1000.0).round() / 1000.0,
            fmax_mhz: (1e5 / circuit.period_ns).round() / 100.0,
            ..Estimate::default()
        };
        let lone = lib.fabric().lone_flops_take_cells;
        let lut = circuit.lut + if lone { circuit.lone_ff as f64 } else { 0.0 };
        e.ff += circuit.float_ff.round() as u64;
        e.lut = lut.ceil() as u64;
        for m in &k.memories {
            // A one-word bank (a complete partition) is a register.
            if m.arg.is_none() && m.words() == 1 {
                e.ff += u64::from(m.element_width);
            }
        }
        e.bram = brams(lib.device, &k.memories);
        e
    }
}

/// The block RAMs of the on-chip memories of `memories` (one-word banks
/// are registers) on `device`.
pub fn brams(device: &Device, memories: &[Memory]) -> u64 {
    let bram_bits = device.bram_bits;
    memories
        .iter()
        .filter(|m| m.arg.is_none() && m.words() > 1)
        .map(|m| (m.words() * u64::from(m.element_width)).div_ceil(bram_bits))
        .sum()
}
