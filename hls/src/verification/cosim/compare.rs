//! Comparing the two sides of a co-simulation bit for bit: every word of
//! every memory argument, then every scalar result. The latitudes are
//! the brief's: two NaNs of a float type are equal whatever their
//! payloads, and float values may differ by `ulps` units in the last
//! place (0 unless the kernel calls `math.exp`, `math.log` or
//! `math.powf`, whose results may be 1 ulp from the host's libm).

use super::outputs::Outputs;
use super::stimuli::ValueKind;
use crate::model::interface::element_type;
use crate::model::interface::Interface;
use num_bigint::BigUint;
use std::fmt;

/// A value that differs between software and hardware.
#[derive(Clone, Debug, Eq)]
pub struct Mismatch {
    /// Where: `C[3][4] (word 79)` or `result0`.
    pub location: String,
    /// What the software computed.
    pub software: BigUint,
    /// What the hardware computed.
    pub hardware: BigUint,
    /// A memory element's: the memory argument's index and the element.
    pub element: Option<(usize, usize)>,
    /// Who wrote it last in the hardware, where the simulator says.
    pub written: Option<Written>,
}

/// The last write of a mismatching memory element in the hardware.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The cycle after start of its last write; none where the hardware
    /// never wrote it.
    pub cycle: Option<u64>,
    /// The kernel's stores to its memory (`file:line:col` each).
    pub stores: Vec<String>,
}

/// Two mismatches are the same where their places and values are,
/// whoever reports who wrote them (one simulator does, one does not).
impl PartialEq for Mismatch {
    fn eq(&self, other: &Mismatch) -> bool {
        (&self.location, &self.software, &self.hardware)
            == (&other.location, &other.software, &other.hardware)
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: software 0x{:x}, hardware 0x{:x}",
            self.location, self.software, self.hardware
        )?;
        let Some(w) = &self.written else {
            return Ok(());
        };
        match w.cycle {
            Some(c) => write!(f, "; the hardware last wrote it in cycle {c} after start")?,
            None => write!(f, "; the hardware never wrote it")?,
        }
        match w.stores.as_slice() {
            [] => Ok(()),
            [one] => write!(f, ", the kernel's store at {one}"),
            many => write!(f, ", one of the kernel's stores at {}", many.join(", ")),
        }
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

/// Compares the outputs of `iface` computed by both sides, float values
/// within `ulps` units in the last place.
pub fn compare(iface: &Interface, software: &Outputs, hardware: &Outputs, ulps: u32) -> Comparison {
    let mut c = Comparison {
        compared: 0,
        differing: 0,
        first: None,
    };
    let mut check = |location: &dyn Fn() -> String,
                     element: Option<(usize, usize)>,
                     kind: ValueKind,
                     s: &BigUint,
                     h: &BigUint| {
        c.compared += 1;
        if s == h || (kind.is_nan(s) && kind.is_nan(h)) || within_ulps(kind, s, h, ulps) {
            return;
        }
        c.differing += 1;
        if c.first.is_none() {
            c.first = Some(Mismatch {
                location: location(),
                software: s.clone(),
                hardware: h.clone(),
                element,
                written: None,
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
                let at = match m.lanes {
                    0 | 1 => format!("word {word}"),
                    l => format!(
                        "word {}, lane {}",
                        word as u64 / u64::from(l),
                        word as u64 % u64::from(l)
                    ),
                };
                format!("{}{} ({at})", arg.name, subscripts(word as u64, &m.shape))
            };
            check(&location, Some((arg.index, word)), kind, s, h);
        }
    }
    for ((r, s), h) in iface
        .results
        .iter()
        .zip(&software.results)
        .zip(&hardware.results)
    {
        check(
            &|| r.name.clone(),
            None,
            ValueKind::of(&r.ty, r.width),
            s,
            h,
        );
    }
    c
}

/// Whether the floats `s` and `h` (neither a NaN) are at most `ulps`
/// representable values apart.
fn within_ulps(kind: ValueKind, s: &BigUint, h: &BigUint, ulps: u32) -> bool {
    let ValueKind::Float { exponent, mantissa } = kind else {
        return false;
    };
    if ulps == 0 || kind.is_nan(s) || kind.is_nan(h) {
        return false;
    }
    // Floats ordered as integers: magnitudes, negated below zero.
    let sign_bit = u64::from(exponent + mantissa);
    let ordered = |v: &BigUint| {
        let mut magnitude = v.clone();
        magnitude.set_bit(sign_bit, false);
        let magnitude = num_bigint::BigInt::from(magnitude);
        if v.bit(sign_bit) {
            -magnitude
        } else {
            magnitude
        }
    };
    (ordered(s) - ordered(h)).magnitude() <= &BigUint::from(ulps)
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
    use crate::model::interface::Access;
    use crate::test_support::{self, memory};

    fn interface() -> Interface {
        let c = memory("memref<2x3xf32>", &[2, 3], 32, Access::Write);
        test_support::interface(&[("C", c)], &[("i8", 8)])
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
        let c = compare(&interface(), &sw, &hw, 0);
        assert_eq!((c.compared, c.differing), (7, 3));
        assert_eq!(
            c.first.unwrap().to_string(),
            "C[1][1] (word 4): software 0x1f, hardware 0x0"
        );
        let c = compare(&interface(), &sw, &outputs([1, 2, 3, 4, 0x1f, 6], 8), 0);
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
            0,
        );
        assert_eq!(c.first, None);
        // An infinity is not a NaN.
        let c = compare(
            &interface(),
            &outputs([0x7f80_0000, 0, 0, 0, 0, 0], 0),
            &outputs([nan, 0, 0, 0, 0, 0], 0),
            1,
        );
        assert_eq!(c.differing, 1);
    }

    #[test]
    fn floats_may_differ_by_the_tolerance_in_ulps() {
        let one = 0x3f80_0000;
        let (above, below) = (one + 1, one - 1);
        let run = |a: u32, b: u32, ulps| {
            compare(
                &interface(),
                &outputs([a, 0, 0, 0, 0, 0], 0),
                &outputs([b, 0, 0, 0, 0, 0], 0),
                ulps,
            )
            .differing
        };
        assert_eq!(run(one, above, 0), 1);
        assert_eq!(run(one, above, 1), 0);
        assert_eq!(run(below, above, 1), 1);
        assert_eq!(run(below, above, 2), 0);
        // Across zero: +0 and -0 are 0 apart, the smallest subnormals 2.
        assert_eq!(run(0, 0x8000_0000, 1), 0);
        assert_eq!(run(1, 0x8000_0001, 1), 1);
        assert_eq!(run(1, 0x8000_0001, 2), 0);
        // Integers never get a tolerance (the result is an i8).
        let c = compare(&interface(), &outputs([0; 6], 1), &outputs([0; 6], 2), 5);
        assert_eq!(c.differing, 1);
    }

    #[test]
    fn subscripts_follow_row_major_order() {
        assert_eq!(subscripts(79, &[20, 25]), "[3][4]");
        assert_eq!(subscripts(0, &[]), "");
        assert_eq!(subscripts(23, &[2, 3, 4]), "[1][2][3]");
    }
}
