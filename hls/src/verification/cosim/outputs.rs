//! What both sides of a co-simulation print, and reading it back: every
//! word of every memory argument (arguments in order, words in row-major
//! order), then every scalar result, one value per line in lowercase hex
//! without leading zeros. The hardware side puts a `latency N` line
//! before them.

use crate::model::interface::Interface;
use num_bigint::BigUint;

/// The values one side computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outputs {
    /// Per memory argument (in argument order), its words.
    pub memories: Vec<Vec<BigUint>>,
    /// The scalar results.
    pub results: Vec<BigUint>,
}

impl Outputs {
    /// Reads the lines of `text` as the outputs of `iface`.
    pub fn parse(text: &str, iface: &Interface) -> Result<Outputs, String> {
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let mut next = |what: &dyn Fn() -> String| -> Result<BigUint, String> {
            let line = lines
                .next()
                .ok_or_else(|| format!("the output ends before {}", what()))?;
            BigUint::parse_bytes(line.trim().as_bytes(), 16)
                .ok_or_else(|| format!("'{line}' is not a hex value (for {})", what()))
        };
        let mut memories = Vec::new();
        for (arg, m) in iface.memories() {
            let words = (0..m.elements())
                .map(|w| next(&|| format!("word {w} of {}", arg.name)))
                .collect::<Result<Vec<_>, _>>()?;
            memories.push(words);
        }
        let results = iface
            .results
            .iter()
            .map(|r| next(&|| r.name.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(extra) = lines.next() {
            return Err(format!("unexpected output after the last value: '{extra}'"));
        }
        Ok(Outputs { memories, results })
    }
}
