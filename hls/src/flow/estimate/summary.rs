//! The estimate's summary: the LUTs (and on iCE40 the logic cells),
//! flip-flops, DSPs and block RAMs of a built design and its predicted
//! clock, as `F.json`'s `resources.estimate` gives them and fitting
//! compares with the device.

use super::CircuitEstimate;
use crate::model::kernel::Kernel;
use crate::model::target::device::Device;
use crate::model::target::library::Library;
use serde::Serialize;

/// LUT, flip-flop, DSP and block RAM counts.
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct Estimate {
    /// 4-input LUTs.
    pub lut: u64,
    /// iCE40: the logic cells nextpnr will place, one LUT4 and one
    /// flip-flop each (a flip-flop loaded from no LUT takes one of its
    /// own): what the device's capacity counts ([`Estimate::logic`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lc: Option<u64>,
    pub ff: u64,
    pub dsp: u64,
    pub bram: u64,
    /// LUT RAM cells (ECP5's 16-word, 4-bit `TRELLIS_DPR16X4`), where
    /// synthesis keeps a small memory in LUTs rather than a block
    /// (`crate::flow::estimate::rams`); their LUTs are in `lut`. Absent
    /// when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub lut_ram: u64,
    /// The predicted clock period (ns) and frequency (MHz): the longest
    /// register-to-register path of the circuit by the library's delays.
    pub period_ns: f64,
    pub fmax_mhz: f64,
}

impl Estimate {
    /// The units of logic the device's `luts` count: logic cells on
    /// iCE40, else LUTs.
    pub fn logic(&self) -> u64 {
        self.lc.unwrap_or(self.lut)
    }

    /// The resource estimate from the operator library: the built
    /// circuit's LUTs and DSPs (`crate::flow::estimate`: every comb op, the
    /// controller's included, at its width, and the scan wrapper's when the
    /// design sits behind one; the measured areas of its float operators'
    /// instances at their pipeline latencies, with their pipeline
    /// flip-flops), the flip-flops yosys keeps of the registers
    /// (`crate::flow::estimate` `flops`: merged, unread and constant bits left
    /// out), on-chip memories in block RAMs, LUT RAM or flip-flops
    /// as synthesis maps them (`rams`); the predicted clock from the circuit's
    /// longest path. On iCE40 the logic cells too, as nextpnr places
    /// them: a flip-flop loaded from no LUT takes a cell of its own.
    pub fn of(circuit: &CircuitEstimate, k: &Kernel, lib: &Library) -> Estimate {
        let mut e = Estimate {
            ff: circuit.ff + circuit.scan.as_ref().map_or(0, |w| w.ff),
            dsp: circuit.dsp,
            period_ns: (circuit.period_ns * 1000.0).round() / 1000.0,
            fmax_mhz: (1e5 / circuit.period_ns).round() / 100.0,
            ..Estimate::default()
        };
        e.ff += circuit.float_ff.round() as u64;
        e.lut = circuit.lut.ceil() as u64;
        if lib.fabric().lone_flops_take_cells {
            e.lc = Some((circuit.lut + circuit.lone_ff as f64).ceil() as u64);
        }
        let storage = super::rams::storage(lib.device, &k.memories, &circuit.rams);
        e.ff += storage.ff;
        e.bram = storage.bram;
        e.lut_ram = storage.lut_ram;
        e.lut = (circuit.lut + storage.lut).ceil() as u64;
        if let Some(lc) = &mut e.lc {
            *lc += storage.lut.ceil() as u64;
        }
        e
    }
}

/// How far the estimate is from what the tools measure, as measured
/// on placed designs (docs/QOR.md): the worst of `bench/fpga_fit.py
/// --errors` (every PolyBench kernel at its default directives, both
/// targets) and of `bench/dse_polybench.py`'s validation (points of the
/// DSE spaces placed); flip-flops by their median, their worst beside.
/// `report.txt` and `F.json`'s `resources.estimate_error` show it
/// beside the figures.
#[derive(Serialize, Clone, Copy, Debug, PartialEq)]
pub struct MeasuredError {
    /// LUTs (iCE40: logic cells): the largest share off the placed count.
    pub lut: f64,
    /// The predicted Fmax: the largest share off nextpnr's.
    pub fmax: f64,
    /// Flip-flops: the median share off yosys's, and the largest.
    pub ff_median: f64,
    pub ff_max: f64,
    /// DSPs, block RAMs and LUT RAM cells are counted exactly.
    pub dsp: f64,
    pub bram: f64,
}

/// The estimate's measured error ([`MeasuredError`]).
pub const MEASURED_ERROR: MeasuredError = MeasuredError {
    lut: 0.31,
    fmax: 0.26,
    ff_median: 0.33,
    ff_max: 3.04,
    dsp: 0.0,
    bram: 0.0,
};

impl MeasuredError {
    /// `report.txt`'s line, naming the logic as `device` counts it
    /// (`LUT` or `LC`) and its LUT RAM where it has some.
    pub fn describe(&self, device: &Device) -> String {
        let pct = |x: f64| format!("{:.0}%", x * 100.0);
        let exact = if device.lut_rams > 0 {
            "DSP, BRAM and LUT RAM"
        } else {
            "DSP and BRAM"
        };
        format!(
            "estimate's measured error (placed PolyBench designs, docs/QOR.md): {} within {}, \
             Fmax within {}, FF {} median (up to {}), {exact} exact",
            device.family.logic_name(),
            pct(self.lut),
            pct(self.fmax),
            pct(self.ff_median),
            pct(self.ff_max)
        )
    }
}

/// Whether a count is zero (a figure `F.json` leaves out).
pub fn is_zero(n: &u64) -> bool {
    *n == 0
}
