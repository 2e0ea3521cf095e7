//! The figures of a design synthesised, placed and routed
//! (`silica hls --bitstream`, measured by `fpga`): what `F.json`'s
//! `resources.synthesis` and `report.txt`'s lines say of them.

use serde::Serialize;
use std::fmt::Write;

/// The figures of an implemented design (`F.json`'s
/// `resources.synthesis`), or of a netlist too large for the device,
/// which is not placed (`overflow`).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Synthesis {
    pub device: String,
    pub package: String,
    /// 4-input LUTs: placed (ECP5), or the netlist's (iCE40, where
    /// logic cells are placed, and where the design does not fit).
    pub lut: u64,
    /// iCE40: the logic cells placed, one LUT4 and one flip-flop each,
    /// which the device's capacity counts ([`Synthesis::logic`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lc: Option<u64>,
    pub ff: u64,
    pub dsp: u64,
    pub bram: u64,
    /// LUT RAM cells (ECP5's `TRELLIS_DPR16X4`; their LUTs are in `lut`);
    /// absent when none.
    #[serde(skip_serializing_if = "crate::flow::estimate::is_zero")]
    pub lut_ram: u64,
    pub io: u64,
    /// The bits of the top's ports.
    pub port_bits: u64,
    /// The scan wrapper, when the ports outnumber the package's pins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scan: Option<Scan>,
    /// The board shell that is the top (`--shell uart`), and its board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shell: Option<ShellUse>,
    /// nextpnr's maximum frequency (null: no clocked path).
    pub fmax_mhz: Option<f64>,
    /// `icetime`'s estimate (iCE40; it counts paths from and to pins too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub icetime_fmax_mhz: Option<f64>,
    pub clock_ns: f64,
    pub clock_met: bool,
    /// `clock_ns` less nextpnr's critical path period (negative: missed).
    pub slack_ns: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_path: Option<CriticalPath>,
    /// The bitstream's file name (null when none was written).
    pub bitstream: Option<String>,
    /// The period the bitstream is written for where the clock was the
    /// target's default and placement missed it: nextpnr's critical
    /// path, rounded up to 0.01 ns (absent where the clock is met or
    /// was asked for, which gives no bitstream when missed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reached_ns: Option<f64>,
    /// The synthesised netlist's LUTs, flip-flops, block RAMs and DSPs
    /// (yosys's cells) against the device's; the estimate's where
    /// `from_estimate`.
    pub netlist: Vec<Use>,
    /// Not synthesised: the estimate is many times the device
    /// ([`estimate_overflow`]); the figures are the estimate's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_estimate: bool,
    /// Why the design does not fit the device, with the numbers (null
    /// when it fits).
    pub overflow: Option<String>,
    /// Every placement of the design where closure built it again
    /// (`super::closure`: for its clock or to fit), the one these
    /// figures are of among them; empty where it was placed once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub closure: Vec<Try>,
}

/// The board shell a bitstream is built around.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct ShellUse {
    /// The shell module (the top given to the tools).
    pub module: String,
    /// The board.
    pub board: String,
    /// The constraints file.
    pub constraints: String,
    /// The board's clock (what nextpnr is asked to meet).
    pub clock_mhz: f64,
}

impl Synthesis {
    /// The units of logic the device's capacity counts: logic cells on
    /// iCE40, else LUTs.
    pub fn logic(&self) -> u64 {
        self.lc.unwrap_or(self.lut)
    }

    /// `report.txt`'s lines.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        if let Some(why) = &self.overflow {
            let uses: Vec<String> = self.netlist.iter().map(Use::describe).collect();
            let (whose, not) = if self.from_estimate {
                ("the estimate", "not synthesised")
            } else {
                ("yosys", "not placed")
            };
            let _ = writeln!(
                out,
                "resources ({whose}, {} {}): {}, {not}",
                self.device,
                self.package,
                uses.join(", ")
            );
            let _ = writeln!(out, "{why}");
            let _ = writeln!(out, "bitstream: none (the design does not fit)");
            return out;
        }
        let logic = match self.lc {
            Some(lc) => format!("{lc} LC ({} LUT4 in the netlist)", self.lut),
            None => format!("{} LUT", self.lut),
        };
        let _ = writeln!(
            out,
            "resources (measured by yosys and nextpnr, {} {}): {logic}, {} FF, {} DSP, {} BRAM{}, {} IO",
            self.device,
            self.package,
            self.ff,
            self.dsp,
            self.bram,
            lut_ram_text(self.lut_ram),
            self.io
        );
        if let Some(s) = &self.scan {
            let _ = writeln!(
                out,
                "ports: {} bits, more than the package's pins: the core is behind scan chains ({}: {} input and {} output bits, their flip-flops counted above)",
                self.port_bits,
                s.module,
                s.input_bits,
                s.output_bits
            );
        }
        if let Some(s) = &self.shell {
            let _ = writeln!(
                out,
                "board shell: {} on the {} ({} pins constrained by {}), clocked by the board's {} MHz oscillator",
                s.module, s.board, self.io, s.constraints, s.clock_mhz
            );
        }
        let mhz = 1000.0 / self.clock_ns;
        match (self.fmax_mhz, self.slack_ns) {
            (Some(f), Some(slack)) => {
                let mut line = format!("Fmax: {f:.2} MHz (nextpnr)");
                if let Some(t) = self.icetime_fmax_mhz {
                    let _ = write!(
                        line,
                        ", {t:.2} MHz (icetime, paths from and to pins included)"
                    );
                }
                let verdict = if self.clock_met {
                    format!("met with {slack:.2} ns of slack")
                } else {
                    format!("MISSED by {:.2} ns", -slack)
                };
                let _ = writeln!(
                    out,
                    "{line}; clock {} ns ({mhz:.2} MHz) {verdict}",
                    self.clock_ns
                );
            }
            _ => {
                let _ = writeln!(out, "Fmax: no clocked path");
            }
        }
        if let Some(p) = &self.critical_path {
            let through: Vec<String> = p
                .signals()
                .iter()
                .map(|(name, source)| match source {
                    Some(s) => format!("{name} ({s})"),
                    None => name.clone(),
                })
                .collect();
            let _ = writeln!(
                out,
                "critical path (nextpnr, {:.2} ns): {} -> {}, through {}",
                p.delay_ns,
                base_name(&p.from).unwrap_or(&p.from),
                base_name(&p.to).unwrap_or(&p.to),
                through.join(", ")
            );
        }
        if !self.closure.is_empty() {
            let _ = writeln!(out, "{}", describe_closure(self.clock_ns, &self.closure));
        }
        match (&self.bitstream, self.reached_ns) {
            (Some(b), Some(reached)) => {
                let _ = writeln!(
                    out,
                    "bitstream: {b}, for {reached} ns ({:.2} MHz): the target's default clock of {} ns is missed",
                    1000.0 / reached,
                    self.clock_ns
                );
            }
            (Some(b), None) => {
                let _ = writeln!(out, "bitstream: {b}");
            }
            (None, _) => {
                let _ = writeln!(out, "bitstream: none (the clock is missed)");
            }
        }
        out
    }
}

/// Use of one resource against the device's capacity.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Use {
    pub what: &'static str,
    pub used: u64,
    pub available: u64,
}

impl Use {
    /// `9 DSP of 8 (112%)`.
    pub fn describe(&self) -> String {
        format!(
            "{} {} of {} ({:.0}%)",
            self.used,
            self.what,
            self.available,
            100.0 * self.used as f64 / self.available.max(1) as f64
        )
    }
}

/// One net of a critical path.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct PathNet {
    pub net: String,
    /// Where it comes from in `F.sv` (`F.sv:12.3-12.9`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The critical path nextpnr reports for the clock.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct CriticalPath {
    /// Start and end cells.
    pub from: String,
    pub to: String,
    pub delay_ns: f64,
    pub nets: Vec<PathNet>,
}

impl CriticalPath {
    /// The design's signals along the path (tool-made names reduced to the
    /// `F.sv` signal they come from, each once, in order), each with its
    /// first `F.sv` source position.
    pub fn signals(&self) -> Vec<(String, Option<String>)> {
        let mut out: Vec<(String, Option<String>)> = Vec::new();
        for n in &self.nets {
            let Some(name) = base_name(&n.net) else {
                continue;
            };
            let source = n
                .source
                .as_ref()
                .filter(|s| {
                    s.split(':').next().is_some_and(|f| f.ends_with(".sv")) && !s.starts_with('/')
                })
                .cloned();
            match out.iter_mut().find(|(o, _)| o == name) {
                Some(entry) => {
                    if entry.1.is_none() {
                        entry.1 = source;
                    }
                }
                None => out.push((name.to_string(), source)),
            }
        }
        out
    }
}

/// The `F.sv` signal a tool-made cell or net name comes from
/// (`carried0_0_TRELLIS_FF_Q_DI[2]` is `carried0_0`); none for names the
/// tools made up (`$nextpnr_...`).
fn base_name(name: &str) -> Option<&str> {
    const SUFFIXES: [&str; 9] = [
        "_SB_",
        "_TRELLIS_",
        "_CCU2C",
        "_MULT18",
        "_DP16KD",
        "_LUT4",
        "_PFUMX",
        "_L6MUX",
        "$",
    ];
    if name.starts_with('$') {
        return None;
    }
    let mut end = name.find('[').unwrap_or(name.len());
    for s in SUFFIXES {
        if let Some(i) = name.find(s) {
            end = end.min(i);
        }
    }
    (end > 0).then(|| &name[..end])
}

/// What the wrapper adds.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Scan {
    /// The wrapper module, the top given to the tools.
    pub module: String,
    /// Bits of the core's inputs and outputs behind the scan chains.
    pub input_bits: u64,
    pub output_bits: u64,
}

/// What a design is built with for closure: the margin its schedule
/// keeps below the clock, and the share of the device's LUTs and
/// flip-flops its estimate is fitted to (`Options::fit_share`).
#[derive(Serialize, Clone, Copy, Debug, Default, PartialEq)]
pub struct Margins {
    pub clock_uncertainty_ns: f64,
    /// Null: the flow's own (`fit::MARGIN`, fitting only designs whose
    /// estimate exceeds the device).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit_share: Option<f64>,
}

/// One placement of the design (`F.json`'s `resources.synthesis.closure`).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Try {
    /// What the try was built with.
    #[serde(flatten)]
    pub margins: Margins,
    /// nextpnr's maximum frequency (null: the design did not fit, or no
    /// clocked path).
    pub fmax_mhz: Option<f64>,
    pub clock_met: bool,
    /// Why it did not fit the device, where it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overflow: Option<String>,
    /// Where it did not fit by LUTs, logic cells or flip-flops: the
    /// most the netlist or placement used of those over the estimate's
    /// figure ([`area_ratio`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area_ratio: Option<f64>,
    /// The design's static latency in cycles (null where data decides it).
    pub latency: Option<u64>,
    /// The placer's seed (nextpnr's `--seed`), where not its default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// `report.txt`'s line: each try's margins and what it placed at.
pub fn describe_closure(clock_ns: f64, tries: &[Try]) -> String {
    let each: Vec<String> = tries
        .iter()
        .map(|t| {
            let at = match (&t.overflow, t.area_ratio, t.fmax_mhz) {
                (Some(_), Some(r), _) => format!("does not fit ({r:.2}x its estimate)"),
                (Some(_), None, _) => "does not fit".to_string(),
                (None, _, Some(f)) if t.clock_met => format!("{f:.2} MHz, met"),
                (None, _, Some(f)) => format!("{f:.2} MHz, missed"),
                (None, _, None) => "no clocked path".to_string(),
            };
            let cycles = t.latency.map_or(String::new(), |l| format!(", {l} cycles"));
            let share = t.margins.fit_share.map_or(String::new(), |s| {
                format!(", fitted to {:.0}% of the device", s * 100.0)
            });
            let seed = t
                .seed
                .map_or(String::new(), |s| format!(", placement seed {s}"));
            format!(
                "{} ns of uncertainty{share}{seed}: {at}{cycles}",
                t.margins.clock_uncertainty_ns
            )
        })
        .collect();
    format!(
        "closure at {clock_ns} ns, placed {} times: {}",
        tries.len(),
        each.join("; ")
    )
}

/// `, 8 LUT RAM` where a design has LUT RAM cells, else nothing.
pub fn lut_ram_text(cells: u64) -> String {
    if cells == 0 {
        String::new()
    } else {
        format!(", {cells} LUT RAM")
    }
}

#[cfg(test)]
mod tests {
    use super::base_name;

    #[test]
    fn tool_made_names_reduce_to_the_signal() {
        assert_eq!(
            base_name("carried0_0_TRELLIS_FF_Q_DI[2]"),
            Some("carried0_0")
        );
        assert_eq!(base_name("state_SB_DFFESR_Q_E"), Some("state"));
        assert_eq!(base_name("$nextpnr_ICESTORM_LC_0$O"), None);
    }
}
