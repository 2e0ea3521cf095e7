//! The operator library of a target: latency, delay, resource kind and
//! area per operator class and width, read from the documented data
//! files `hls/library/<target>.txt` (estimates until measured).

use crate::kernel::Op;

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
}

/// A target's operator library.
#[derive(Clone, Debug)]
pub struct Library {
    pub target: String,
    pub rows: Vec<Row>,
}

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
            rows.push(Row {
                class: f[0].to_string(),
                max_width: if f[1] == "*" {
                    u32::MAX
                } else {
                    f[1].parse().map_err(|_| bad())?
                },
                latency: f[2].parse().map_err(|_| bad())?,
                delay_ns: f[3].parse().map_err(|_| bad())?,
                resource: f[4].to_string(),
                luts_per_bit: f[5].parse().map_err(|_| bad())?,
                dsp: f[6].parse().map_err(|_| bad())?,
            });
        }
        Ok(Library {
            target: target.to_string(),
            rows,
        })
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
    }
}
