//! Comparing the two sides of a co-simulation bit for bit: every word of
//! every memory argument, then every scalar result. The one latitude is
//! the brief's: two NaNs of a float type are equal whatever their
//! payloads.

use super::outputs::Outputs;
use super::stimuli::{element_type, ValueKind};
use crate::interface::Interface;
use num_bigint::BigUint;
use std::fmt;

/// A value that differs between software and hardware.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Where: `C[3][4] (word 79)` or `result0`.
    pub location: String,
    /// What the software computed.
    pub software: BigUint,
    /// What the hardware computed.
    pub hardware: BigUint,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: software 0x{:x}, hardware 0x{:x}",
            self.location, self.software, self.hardware
        )
    }
}

/// The outcome of a comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// How many values were compared.
    pub compared: usize,
    /// How many differ.
    pub differing: usize,
    /// The first that differs, in output order.
    pub first: Option<Mismatch>,
}

/// Compares the outputs of `iface` computed by both sides.
pub fn compare(iface: &Interface, software: &Outputs, hardware: &Outputs) -> Comparison {
    let mut c = Comparison {
        compared: 0,
        differing: 0,
        first: None,
    };
    let mut check = |location: &dyn Fn() -> String, kind: ValueKind, s: &BigUint, h: &BigUint| {
        c.compared += 1;
        if s == h || (kind.is_nan(s) && kind.is_nan(h)) {
            return;
        }
        c.differing += 1;
        if c.first.is_none() {
            c.first = Some(Mismatch {
                location: location(),
                software: s.clone(),
                hardware: h.clone(),
            });
        }
    };
    for (((arg, m), sw), hw) in iface
        .memories()
        .zip(&software.memories)
        .zip(&hardware.memories)
    {
        let kind = ValueKind::of(element_type(&m.ty), m.element_width);
        for (word, (s, h)) in sw.iter().zip(hw).enumerate() {
            let location = || {
                format!(
                    "{}{} (word {word})",
                    arg.name,
                    subscripts(word as u64, &m.shape)
                )
            };
            check(&location, kind, s, h);
        }
    }
    for ((r, s), h) in iface
        .results
        .iter()
        .zip(&software.results)
        .zip(&hardware.results)
    {
        check(&|| r.name.clone(), ValueKind::of(&r.ty, r.width), s, h);
    }
    c
}

/// `[i][j]...` of the row-major linear index `word` in `shape`.
pub fn subscripts(word: u64, shape: &[u64]) -> String {
    let mut rest = word;
    let mut indices = vec![0; shape.len()];
    for (slot, &d) in indices.iter_mut().zip(shape).rev() {
        *slot = rest % d.max(1);
        rest /= d.max(1);
    }
    indices.iter().map(|i| format!("[{i}]")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interface::{Access, Arg, ArgKind, Memory, ResultPort};

    fn interface() -> Interface {
        Interface {
            top: "k".into(),
            interface: "memory".into(),
            target: "generic".into(),
            clock_ns: 10.0,
            args: vec![Arg {
                index: 0,
                name: "C".into(),
                kind: ArgKind::Memory(Memory {
                    ty: "memref<2x3xf32>".into(),
                    shape: vec![2, 3],
                    element_width: 32,
                    words: 6,
                    address_width: 3,
                    ports: 1,
                    read_latency: 1,
                    access: Access::Write,
                }),
            }],
            results: vec![ResultPort {
                index: 0,
                name: "result0".into(),
                ty: "i8".into(),
                width: 8,
            }],
        }
    }

    fn outputs(words: [u32; 6], result: u8) -> Outputs {
        Outputs {
            memories: vec![words.into_iter().map(BigUint::from).collect()],
            results: vec![BigUint::from(result)],
        }
    }

    #[test]
    fn reports_the_first_differing_word_with_its_subscripts() {
        let sw = outputs([1, 2, 3, 4, 0x1f, 6], 9);
        let hw = outputs([1, 2, 3, 4, 0, 7], 8);
        let c = compare(&interface(), &sw, &hw);
        assert_eq!((c.compared, c.differing), (7, 3));
        assert_eq!(
            c.first.unwrap().to_string(),
            "C[1][1] (word 4): software 0x1f, hardware 0x0"
        );
        let c = compare(&interface(), &sw, &outputs([1, 2, 3, 4, 0x1f, 6], 8));
        assert_eq!(
            c.first.unwrap().to_string(),
            "result0: software 0x9, hardware 0x8"
        );
    }

    #[test]
    fn nans_are_equal_whatever_their_payload() {
        let nan = 0x7fc0_0000;
        let other_nan = 0xffc0_0001;
        let c = compare(
            &interface(),
            &outputs([nan, 0, 0, 0, 0, 0], 0),
            &outputs([other_nan, 0, 0, 0, 0, 0], 0),
        );
        assert_eq!(c.first, None);
        // An infinity is not a NaN.
        let c = compare(
            &interface(),
            &outputs([0x7f80_0000, 0, 0, 0, 0, 0], 0),
            &outputs([nan, 0, 0, 0, 0, 0], 0),
        );
        assert_eq!(c.differing, 1);
    }

    #[test]
    fn subscripts_follow_row_major_order() {
        assert_eq!(subscripts(79, &[20, 25]), "[3][4]");
        assert_eq!(subscripts(0, &[]), "");
        assert_eq!(subscripts(23, &[2, 3, 4]), "[1][2][3]");
    }
}
