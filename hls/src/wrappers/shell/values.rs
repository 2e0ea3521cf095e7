//! The files of `silica run-board`: the inputs it loads and the outputs
//! it reads back, one argument per entry:
//!
//! ```text
//! # comment
//! alpha = 1.5
//! A = 1 2 3 4
//!     5 6 7 8
//! result0 = 0x2a
//! ```
//!
//! An entry is `NAME = VALUE ...`; lines without `=` continue the entry
//! above. A value is `0x` hex bits, else for `f32`/`f64` a decimal
//! float, else a decimal integer (negative ones in two's complement at
//! the width). Inputs need every scalar argument and every memory the
//! kernel reads, with exactly its number of words (row-major); a memory
//! the kernel only writes may be left out. Outputs hold every memory and
//! every scalar result (`result<i>`) in hex, and the run's cycles in a
//! comment.

use crate::model::interface::element_type;
use crate::model::interface::{ArgKind, Interface};
use num_bigint::{BigInt, BigUint, Sign};
use std::fmt::Write;

/// Values by argument index (`None`: not given) and the results.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Values {
    /// Per argument of the interface: its words (one for a scalar).
    pub args: Vec<Option<Vec<BigUint>>>,
    /// The scalar results.
    pub results: Vec<BigUint>,
}

/// Reads one value of type `ty` (`i32`, `f32`, ...) at `width` bits.
fn value(text: &str, ty: &str, width: u32) -> Result<BigUint, String> {
    let bad = || format!("'{text}' is not a value of type {ty}");
    let v = if let Some(hex) = text.strip_prefix("0x") {
        BigUint::parse_bytes(hex.as_bytes(), 16).ok_or_else(bad)?
    } else if ty == "f32" {
        BigUint::from(text.parse::<f32>().map_err(|_| bad())?.to_bits())
    } else if ty == "f64" {
        BigUint::from(text.parse::<f64>().map_err(|_| bad())?.to_bits())
    } else {
        let v: BigInt = text.parse().map_err(|_| bad())?;
        let modulus = BigInt::from(1u8) << width;
        if v >= modulus || v < -(&modulus >> 1u32) {
            return Err(format!("{text} does not fit in {width} bits"));
        }
        let v = if v.sign() == Sign::Minus {
            v + modulus
        } else {
            v
        };
        v.to_biguint().ok_or_else(bad)?
    };
    if v.bits() > u64::from(width) {
        return Err(format!("{text} does not fit in {width} bits"));
    }
    Ok(v)
}

/// The entries of a values file: `(line, name, value texts)`.
fn entries(text: &str) -> Result<Vec<(usize, String, Vec<String>)>, String> {
    let mut out: Vec<(usize, String, Vec<String>)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let rest = match line.split_once('=') {
            Some((name, rest)) => {
                out.push((i + 1, name.trim().to_string(), Vec::new()));
                rest
            }
            None => line,
        };
        let Some(entry) = out.last_mut() else {
            return Err(format!("line {}: a value before any 'NAME ='", i + 1));
        };
        entry.2.extend(rest.split_whitespace().map(str::to_string));
    }
    Ok(out)
}

/// Reads the inputs of `iface` from `text`.
pub fn parse_inputs(text: &str, iface: &Interface) -> Result<Values, String> {
    let mut args: Vec<Option<Vec<BigUint>>> = vec![None; iface.args.len()];
    for (line, name, texts) in entries(text)? {
        let at = |m: String| format!("line {line}: {m}");
        let (pos, arg) = iface
            .args
            .iter()
            .enumerate()
            .find(|(_, a)| a.name == name)
            .ok_or_else(|| at(format!("the kernel has no argument '{name}'")))?;
        if args[pos].is_some() {
            return Err(at(format!("'{name}' is given twice")));
        }
        let (ty, width, count) = match &arg.kind {
            ArgKind::Scalar(s) => (s.ty.as_str(), s.width, 1),
            ArgKind::Memory(m) => (element_type(&m.ty), m.element_width, m.words),
        };
        if texts.len() as u64 != count {
            return Err(at(format!(
                "'{name}' needs {count} value(s), the file gives {}",
                texts.len()
            )));
        }
        let words = texts
            .iter()
            .map(|t| value(t, ty, width).map_err(&at))
            .collect::<Result<Vec<_>, _>>()?;
        args[pos] = Some(words);
    }
    for (arg, given) in iface.args.iter().zip(&args) {
        let needed = match &arg.kind {
            ArgKind::Scalar(_) => true,
            ArgKind::Memory(m) => m.access != crate::model::interface::Access::Write,
        };
        if needed && given.is_none() {
            return Err(format!("the inputs do not give '{}'", arg.name));
        }
    }
    Ok(Values {
        args,
        results: Vec::new(),
    })
}

/// The inputs file for `args` (per argument of `iface`, its words).
pub fn inputs_text(iface: &Interface, args: &[Vec<BigUint>]) -> String {
    let mut t = format!("# inputs of '{}' for silica run-board\n", iface.top);
    for (arg, words) in iface.args.iter().zip(args) {
        line(&mut t, &arg.name, words);
    }
    t
}

fn line(t: &mut String, name: &str, words: &[BigUint]) {
    let _ = write!(t, "{name} =");
    for (i, w) in words.iter().enumerate() {
        if i > 0 && i % 8 == 0 {
            t.push_str("\n   ");
        }
        let _ = write!(t, " 0x{w:x}");
    }
    t.push('\n');
}

/// The outputs file: every memory's words and every result, and the
/// cycles the run took.
pub fn outputs_text(
    iface: &Interface,
    memories: &[Vec<BigUint>],
    results: &[BigUint],
    cycles: u64,
) -> String {
    let mut t = format!("# outputs of '{}'\n# cycles {cycles}\n", iface.top);
    for ((arg, _), words) in iface.memories().zip(memories) {
        line(&mut t, &arg.name, words);
    }
    for (r, v) in iface.results.iter().zip(results) {
        line(&mut t, &r.name, std::slice::from_ref(v));
    }
    t
}

/// Reads an outputs file back: per memory its words, then the results.
pub fn parse_outputs(
    text: &str,
    iface: &Interface,
) -> Result<(Vec<Vec<BigUint>>, Vec<BigUint>), String> {
    let entries = entries(text)?;
    let find = |name: &str| -> Result<Vec<BigUint>, String> {
        let (_, _, texts) = entries
            .iter()
            .find(|e| e.1 == name)
            .ok_or_else(|| format!("the outputs have no '{name}'"))?;
        texts
            .iter()
            .map(|t| {
                t.strip_prefix("0x")
                    .and_then(|h| BigUint::parse_bytes(h.as_bytes(), 16))
                    .ok_or_else(|| format!("'{t}' is not a hex value"))
            })
            .collect()
    };
    let memories = iface
        .memories()
        .map(|(a, _)| find(&a.name))
        .collect::<Result<Vec<_>, _>>()?;
    let results = iface
        .results
        .iter()
        .map(|r| find(&r.name).map(|v| v.into_iter().next().unwrap_or_default()))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((memories, results))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::interface::Access;
    use crate::test_support::{self, memory, scalar};

    fn iface() -> Interface {
        let a = memory("memref<3xf32>", &[3], 32, Access::ReadWrite);
        test_support::interface(&[("n", scalar("i8", 8)), ("A", a)], &[("i8", 8)])
    }

    #[test]
    fn inputs_read_and_round_trip() {
        let i = iface();
        let v = parse_inputs("# x\nn = -1\nA = 1 0x2\n  0x3\n", &i).unwrap();
        assert_eq!(v.args[0], Some(vec![BigUint::from(255u32)]));
        let a = v.args[1].clone().unwrap();
        assert_eq!(a[0], BigUint::from(1.0f32.to_bits()));
        assert_eq!(a[2], BigUint::from(3u32));
        let text = inputs_text(&i, &[v.args[0].clone().unwrap(), a.clone()]);
        assert_eq!(parse_inputs(&text, &i).unwrap(), v);
        let out = outputs_text(&i, std::slice::from_ref(&a), &[BigUint::from(7u32)], 12);
        assert_eq!(
            parse_outputs(&out, &i).unwrap(),
            (vec![a], vec![BigUint::from(7u32)])
        );
    }

    #[test]
    fn bad_inputs_say_where() {
        let i = iface();
        assert!(parse_inputs("n = 300\nA = 1 2 3\n", &i)
            .unwrap_err()
            .contains("line 1"));
        assert!(parse_inputs("n = 1\nA = 1 2\n", &i)
            .unwrap_err()
            .contains("needs 3"));
        assert!(parse_inputs("n = 1\n", &i)
            .unwrap_err()
            .contains("do not give 'A'"));
        assert!(parse_inputs("m = 1\n", &i)
            .unwrap_err()
            .contains("no argument"));
    }
}
