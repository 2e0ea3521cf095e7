//! The operator library of a target: latency, delay, resource kind and
//! area per operator class and width, read from the documented data
//! files `hls/library/<target>.txt` (estimates until measured). Float
//! operator classes have latency and delay `auto`: each design picks,
//! per operator and clock period, the smallest pipeline latency whose
//! stages fit the clock by the operator generator's own stage-delay
//! estimates ([`Library::choose_float_latencies`]).
//!
//! Measured libraries: `silica characterize` (`crate::characterize`)
//! writes `hls/library/<target>.toml` ([`LibraryFile`]), every operator
//! kind the flow instantiates synthesised, placed and routed at a ladder
//! of widths. The scheduler and the estimates still read the `.txt`
//! tables above; the measured files are bundled and checked
//! ([`MEASURED`]).
//!
//! # Measured file format (TOML)
//!
//! ```toml
//! target = "ice40-up5k"      # the device the file is for
//! measured_on = "ice40-up5k" # the device measured
//! tools = "Yosys 0.23; nextpnr-ice40 0.4"
//! register_ns = 4.4          # period of a flip-flop to flip-flop path
//! note = "..."               # optional: what is not measured, and why
//! [[op]]
//! kind = "add"      # the test design: add sub cmp shift mux logic mul
//!                   # div rem ram ext, float kinds as their module
//!                   # names (fadd_f32)
//! class = "add"     # the scheduler's operator class (`class_of`; a
//!                   # `ram` point serves the `load` and `store` classes)
//! width = 16        # operand bits (RAM: data bits; float: the format's)
//! latency = 0       # cycles (float: the pipeline latency measured)
//! period_ns = 6.2   # achieved register-to-register period (absent:
//!                   # not placed and routed, see note)
//! delay_ns = 3.1    # what the operator adds to a register path:
//!                   # period_ns - register_ns
//! lut = 16          # LUT4s (an ECP5 carry cell counts two)
//! ff = 0            # flip-flops (pipeline registers)
//! dsp = 0           # hard multipliers
//! bram = 0          # block RAMs
//! note = "..."      # optional: why a point is not measured
//! ```
//!
//! The figures are the operator's own: the test frame's flip-flops and
//! xor LUTs are subtracted (`characterize::design`).

use crate::float::{choose_latency, FloatOp, LatencyChoice, Operator};
use crate::kernel::{Kernel, Op};
use serde::{Deserialize, Serialize};
use silica_ir::Context;

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

/// A measured library file as written by `silica characterize`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibraryFile {
    pub target: String,
    pub measured_on: String,
    pub tools: String,
    pub register_ns: f64,
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
             # frame subtracted). Format and meaning of each field: hls/src/library.rs.\n\n{body}",
            self.target, self.measured_on
        ))
    }
}

/// The measured library files in the repository, by target.
pub const MEASURED: [(&str, &str); 3] = [
    ("ice40-up5k", include_str!("../library/ice40-up5k.toml")),
    ("ice40-hx8k", include_str!("../library/ice40-hx8k.toml")),
    ("ecp5-25k", include_str!("../library/ecp5-25k.toml")),
];

/// One row of a library: an operator class up to a width.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub class: String,
    /// Widest operation the row covers (`u32::MAX` for `*`).
    pub max_width: u32,
    pub latency: u32,
    pub delay_ns: f64,
    /// `lut`, `dsp`, `port` or `none`.
    pub resource: String,
    pub luts_per_bit: f64,
    pub dsp: u32,
    /// Latency and delay chosen per design from the clock period (the
    /// file says `auto`; float operators).
    pub auto: bool,
}

/// A target's operator library.
#[derive(Clone, Debug)]
pub struct Library {
    pub target: String,
    pub rows: Vec<Row>,
    /// The latency chosen for each float operator of the design.
    pub float_latencies: Vec<(Operator, LatencyChoice)>,
}

/// The classes of float operators (the only ones whose latency and
/// delay may be `auto`).
pub const FLOAT_CLASSES: [&str; 11] = [
    "fadd", "fmul", "fdiv", "fsqrt", "fma", "fcmp", "fsign", "fconv", "fexp", "flog", "fpow",
];

/// The bundled libraries, by family.
const LIBRARIES: [(&str, &str); 2] = [
    ("ice40", include_str!("../library/ice40.txt")),
    ("ecp5", include_str!("../library/ecp5.txt")),
];

impl Library {
    /// The library of the device `target` names (see `crate::device`),
    /// labelled with the device's name.
    pub fn for_target(target: &str) -> Result<Library, String> {
        let device = crate::device::lookup(target)?;
        let text = LIBRARIES
            .iter()
            .find(|l| l.0 == device.library)
            .map_or("", |l| l.1);
        Library::parse(device.name, text)
    }

    /// Reads a library from its text form.
    pub fn parse(target: &str, text: &str) -> Result<Library, String> {
        let mut rows = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("library '{target}' line {}: malformed row", i + 1);
            if f.len() != 7 {
                return Err(bad());
            }
            let auto = f[2] == "auto";
            if auto != (f[3] == "auto") || (auto && !FLOAT_CLASSES.contains(&f[0])) {
                return Err(bad());
            }
            rows.push(Row {
                class: f[0].to_string(),
                max_width: if f[1] == "*" {
                    u32::MAX
                } else {
                    f[1].parse().map_err(|_| bad())?
                },
                latency: if auto {
                    0
                } else {
                    f[2].parse().map_err(|_| bad())?
                },
                delay_ns: if auto {
                    0.0
                } else {
                    f[3].parse().map_err(|_| bad())?
                },
                resource: f[4].to_string(),
                luts_per_bit: f[5].parse().map_err(|_| bad())?,
                dsp: f[6].parse().map_err(|_| bad())?,
                auto,
            });
        }
        Ok(Library {
            target: target.to_string(),
            rows,
            float_latencies: Vec::new(),
        })
    }

    /// Picks the pipeline latency of every float operator of `k` for a
    /// clock of `clock_ns`: the smallest whose slowest stage fits, else
    /// the fastest (from the generator's estimates).
    pub fn choose_float_latencies(&mut self, ctx: &mut Context, k: &Kernel, clock_ns: f64) {
        for n in &k.nodes {
            let Op::Float(o) = n.op else { continue };
            if self.float_latency(o).is_none() {
                let choice = choose_latency(ctx, o, clock_ns);
                self.float_latencies.push((o, choice));
            }
        }
    }

    /// The latency chosen for float operator `o`.
    pub fn float_latency(&self, o: Operator) -> Option<&LatencyChoice> {
        self.float_latencies
            .iter()
            .find(|(x, _)| *x == o)
            .map(|(_, c)| c)
    }

    /// The row for an operation of `class` at `width`.
    pub fn row(&self, class: &str, width: u32) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.class == class && r.max_width >= width)
    }
}

/// The library class of a node operation.
pub fn class_of(op: Op) -> &'static str {
    match op {
        Op::Add | Op::Sub | Op::MinS | Op::MaxS | Op::MinU | Op::MaxU => "add",
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every measured library file in the repository parses, names its
    /// target, and has points for every operator kind the flow emits: each
    /// integer class and RAM access at the ladder's widths (figures for
    /// designs too large for the part are yosys's, with a note), each float
    /// class measured or named in the file's note.
    #[test]
    fn measured_library_files_parse_and_cover_every_operator_kind() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/library");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .collect();
        names.sort();
        let mut bundled: Vec<String> = MEASURED.iter().map(|m| format!("{}.toml", m.0)).collect();
        bundled.sort();
        assert_eq!(names, bundled, "every file in hls/library is bundled");
        for (name, text) in MEASURED {
            let file = LibraryFile::from_text(text).unwrap();
            assert_eq!(file.target, name);
            assert!(file.register_ns > 0.0, "{name}");
            let widths = |class: &str| {
                let mut w: Vec<u32> = file
                    .op
                    .iter()
                    .filter(|p| p.class == class)
                    .map(|p| p.width)
                    .collect();
                w.sort_unstable();
                w.dedup();
                w
            };
            // The ladder's widths (dividers and multipliers may stop at 16
            // or 32 bits).
            for class in ["add", "mul", "div", "shift", "logic", "cmp", "mux"] {
                let w = widths(class);
                assert!(w.starts_with(&[1, 8, 16]), "{name} {class} {w:?}");
                let full = ["div", "mul"].contains(&class) || w == [1, 8, 16, 32, 64];
                assert!(full, "{name} {class} {w:?}");
            }
            for kind in [
                "add", "sub", "cmp", "shift", "mux", "logic", "mul", "div", "rem", "ram", "ext",
            ] {
                assert!(
                    file.op.iter().any(|p| p.kind == kind),
                    "{name} lacks {kind}"
                );
            }
            assert!(widths("ram").len() >= 3, "{name}");
            // Float operator circuits: a class not measured (their place and
            // route takes minutes each) is named in the file's note.
            for class in FLOAT_CLASSES {
                if widths(class).is_empty() {
                    let note = file.note.clone().unwrap_or_default();
                    assert!(
                        note.contains(class),
                        "{name}: {class} neither measured nor noted"
                    );
                }
            }
            assert!(!widths("fadd").is_empty(), "{name}");
            // Every point has a period, or says why not; classes are the
            // flow's.
            for p in &file.op {
                assert!(p.period_ns.is_some() || p.note.is_some(), "{name} {p:?}");
                assert!(
                    p.class == "ram" || ALL_CLASSES.contains(&p.class.as_str()),
                    "{name} {p:?}"
                );
            }
            // What the writer writes reads back the same.
            assert_eq!(
                LibraryFile::from_text(&file.to_text().unwrap()).unwrap(),
                file
            );
        }
        assert!(LibraryFile::from_text("target = 1").is_err());
    }

    /// Every class of the flow's operations.
    const ALL_CLASSES: [&str; 18] = [
        "add", "mul", "div", "shift", "logic", "cmp", "mux", "ext", "load", "store", "fadd",
        "fmul", "fdiv", "fsqrt", "fma", "fcmp", "fsign", "fconv",
    ];

    #[test]
    fn bundled_libraries_parse_and_cover_every_class() {
        for t in crate::device::DEVICES.iter().map(|d| d.name) {
            let lib = Library::for_target(t).unwrap();
            for class in [
                "add", "mul", "div", "shift", "logic", "cmp", "mux", "ext", "load", "store",
            ] {
                assert!(lib.row(class, 128).is_some(), "{t} lacks {class}");
            }
            for class in FLOAT_CLASSES {
                assert!(
                    lib.row(class, 64).is_some_and(|r| r.auto),
                    "{t} lacks {class}"
                );
            }
            assert_eq!(lib.row("load", 32).unwrap().latency, 1);
        }
    }

    #[test]
    fn rows_are_chosen_by_width() {
        let lib = Library::for_target("ice40").unwrap();
        assert_eq!(lib.row("mul", 8).unwrap().latency, 0);
        assert_eq!(lib.row("mul", 32).unwrap().latency, 1);
        assert!(Library::for_target("xc7").is_err());
        assert_eq!(Library::for_target("ecp5").unwrap().target, "ecp5-25k");
        assert!(Library::parse("t", "fadd * auto auto lut 1 0").is_ok());
        assert!(Library::parse("t", "add * auto auto lut 1 0").is_err());
        assert!(Library::parse("t", "fadd * auto 1.0 lut 1 0").is_err());
    }
}
