//! Memory initialisation files (`#seq.firmem.init<"file", isBinary,
//! isInline>` on a `seq.firmem`): the words `$readmemh`/`$readmemb` would
//! load, read the way SystemVerilog reads them — hexadecimal (or binary)
//! words separated by white space, `//` and `/* */` comments, `@address`
//! jumps — so that `silica sim` starts from the contents the Verilog's
//! `initial $readmemh(...)` gives (words the file leaves out are zero). Words are truncated to the memory's
//! width; unknown digits (`x`, `z`) are an error, as the simulator has no
//! unknown values. The file is found relative to the working directory,
//! as simulators find it.

use crate::eval::Bits;
use num_bigint::BigUint;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId};

/// A memory's initialisation file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemInit {
    pub file: String,
    /// Binary digits (`$readmemb`) rather than hexadecimal.
    pub binary: bool,
}

/// The initialisation file of memory `op`, if it has one (`Err` when its
/// `init` attribute is not a `#seq.firmem.init`).
pub fn mem_init(ctx: &Context, ir: &Ir, op: OpId) -> Result<Option<MemInit>, String> {
    let Some(a) = inherent_attr(ctx, ir, op, "init") else {
        return Ok(None);
    };
    let malformed =
        || "expected a '#seq.firmem.init<\"file\", isBinary, isInline>' attribute".to_string();
    let AttrKind::Dialect { name, params, .. } = ctx.attr_kind(a) else {
        return Err(malformed());
    };
    if ctx.str(*name) != "firmem.init" || params.len() != 3 {
        return Err(malformed());
    }
    let file = match ctx.attr_kind(params[0]) {
        AttrKind::String { value, .. } => String::from_utf8_lossy(value).into_owned(),
        _ => return Err(malformed()),
    };
    let binary = match ctx.attr_kind(params[1]) {
        AttrKind::Integer { value, .. } => *value != 0.into(),
        _ => return Err(malformed()),
    };
    Ok(Some(MemInit { file, binary }))
}

/// The `depth` words of `width` bits the file `text` sets (`None` where
/// it sets none).
pub fn parse_words(
    text: &str,
    binary: bool,
    depth: u64,
    width: u32,
) -> Result<Vec<Option<Bits>>, String> {
    let mut words = vec![None; depth as usize];
    let mut address: u64 = 0;
    for token in tokens(text)? {
        if let Some(at) = token.strip_prefix('@') {
            address =
                u64::from_str_radix(at, 16).map_err(|_| format!("invalid address '@{at}'"))?;
            continue;
        }
        let digits: String = token.chars().filter(|&c| c != '_').collect();
        let radix = if binary { 2 } else { 16 };
        let value = BigUint::parse_bytes(digits.as_bytes(), radix).ok_or_else(|| {
            format!(
                "invalid {} word '{token}'",
                if binary { "binary" } else { "hexadecimal" }
            )
        })?;
        let slot = words
            .get_mut(usize::try_from(address).unwrap_or(usize::MAX))
            .ok_or_else(|| {
                format!("word '{token}' at address {address} is past the memory's {depth} words")
            })?;
        *slot = Some(Bits::new(width, value));
        address += 1;
    }
    Ok(words)
}

/// The words and `@address` directives of a file, comments removed.
fn tokens(text: &str) -> Result<Vec<&str>, String> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(out);
        }
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.split_once('\n').map_or("", |(_, r)| r);
        } else if let Some(after) = rest.strip_prefix("/*") {
            let (_, r) = after.split_once("*/").ok_or("unterminated '/*' comment")?;
            rest = r;
        } else {
            let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let word = &rest[..word_end];
            let end = [word.find("//"), word.find("/*")]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(word_end);
            out.push(&rest[..end]);
            rest = &rest[end..];
        }
    }
}

/// The words memory `init` sets: its file read and parsed.
pub fn load(init: &MemInit, depth: u64, width: u32) -> Result<Vec<Option<Bits>>, String> {
    let text = std::fs::read_to_string(&init.file).map_err(|e| {
        format!(
            "cannot read memory initialisation file '{}': {e}",
            init.file
        )
    })?;
    parse_words(&text, init.binary, depth, width).map_err(|e| format!("{}: {e}", init.file))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(words: &[Option<Bits>]) -> Vec<u64> {
        words
            .iter()
            .map(|w| {
                w.as_ref()
                    .map_or(0, |w| u64::try_from(w.value()).unwrap_or(u64::MAX))
            })
            .collect()
    }

    #[test]
    fn reads_words_comments_and_addresses() {
        let text = "// header\n1F a_b /* skip 7 */ @4 ff\n3//tail\n";
        let words = parse_words(text, false, 6, 8).unwrap();
        assert_eq!(values(&words), vec![0x1f, 0xab, 0, 0, 0xff, 3]);
    }

    #[test]
    fn truncates_to_the_width_and_reads_binary() {
        assert_eq!(
            values(&parse_words("1FF", false, 1, 8).unwrap()),
            vec![0xff]
        );
        assert_eq!(
            values(&parse_words("101 1", true, 2, 3).unwrap()),
            vec![5, 1]
        );
    }

    #[test]
    fn rejects_unknown_digits_and_overflow() {
        assert!(parse_words("1x", false, 1, 8).is_err());
        assert!(parse_words("1 2", false, 1, 8).is_err());
        assert!(parse_words("/* open", false, 1, 8).is_err());
    }
}
