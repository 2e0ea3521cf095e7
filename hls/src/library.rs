//! The operator library of a target: latency, delay, resource kind and
//! area per operator class and width, read from the documented data
//! files `hls/library/<target>.txt` (estimates until measured). Float
//! operator classes have latency and delay `auto`: each design picks,
//! per operator and clock period, the smallest pipeline latency whose
//! stages fit the clock by the operator generator's own stage-delay
//! estimates ([`Library::choose_float_latencies`]).

use crate::float::{choose_latency, FloatOp, LatencyChoice, Operator};
use crate::kernel::{Kernel, Op};
use silica_ir::Context;

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
