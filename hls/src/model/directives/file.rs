//! The directives file (`--directives d.toml`, what `silica dse` writes):
//! `clock_ns`, `dataflow`, `[[loop]]` tables (`label`, `pipeline`, `unroll`,
//! `flatten`, `hoist`), `[[array]]` tables (`name`, `partition`,
//! `ports`, `width`, `buffer`) and a `[limits]` table of functional units per operator
//! class, read with the `toml` crate. Every key keeps its line and column
//! in the file, so a directive that names nothing, or has a bad value, is
//! reported there.

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::{Spanned, Value};

/// A position in the directives file (1-based line and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// A value with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct At<T> {
    pub value: T,
    pub pos: Pos,
}

/// One `[[loop]]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopEntry {
    pub label: At<String>,
    pub pipeline: Option<At<Value>>,
    pub unroll: Option<At<Value>>,
    pub flatten: Option<At<Value>>,
    pub hoist: Option<At<Value>>,
    pub jam: Option<At<Value>>,
    pub interchange: Option<At<Value>>,
}

/// One `[[array]]` table.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayEntry {
    pub name: At<String>,
    pub partition: Option<At<Value>>,
    pub ports: Option<At<Value>>,
    pub width: Option<At<Value>>,
    pub buffer: Option<At<Value>>,
    pub depth: Option<At<Value>>,
}

/// A parsed directives file.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// The file's name as given (for diagnostics).
    pub name: String,
    /// Its text (diagnostics show the line).
    pub text: String,
    pub clock_ns: Option<At<f64>>,
    pub dataflow: Option<At<Value>>,
    pub loops: Vec<LoopEntry>,
    pub arrays: Vec<ArrayEntry>,
    pub limits: Vec<(At<String>, At<Value>)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    clock_ns: Option<Spanned<f64>>,
    dataflow: Option<Spanned<Value>>,
    #[serde(rename = "loop", default)]
    loops: Vec<RawLoop>,
    #[serde(rename = "array", default)]
    arrays: Vec<RawArray>,
    #[serde(default)]
    limits: BTreeMap<Spanned<String>, Spanned<Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLoop {
    label: Spanned<String>,
    pipeline: Option<Spanned<Value>>,
    unroll: Option<Spanned<Value>>,
    flatten: Option<Spanned<Value>>,
    hoist: Option<Spanned<Value>>,
    jam: Option<Spanned<Value>>,
    interchange: Option<Spanned<Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArray {
    name: Spanned<String>,
    partition: Option<Spanned<Value>>,
    ports: Option<Spanned<Value>>,
    width: Option<Spanned<Value>>,
    buffer: Option<Spanned<Value>>,
    depth: Option<Spanned<Value>>,
}

/// The line and column of byte `offset` of `text`.
fn pos_of(text: &str, offset: usize) -> Pos {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Pos {
        line: line as u32,
        col: col as u32,
    }
}

/// Reads the directives file `name` with contents `text`; a syntax error,
/// an unknown key or a value of the wrong type is an error at its
/// position.
pub fn parse(name: &str, text: &str) -> Result<File, (Pos, String)> {
    let raw: RawFile = toml::from_str(text).map_err(|e| {
        let pos = pos_of(text, e.span().map_or(0, |s| s.start));
        (pos, e.message().trim().to_string())
    })?;
    let at = |s: Spanned<String>| At {
        pos: pos_of(text, s.span().start),
        value: s.into_inner(),
    };
    let value = |s: Spanned<Value>| At {
        pos: pos_of(text, s.span().start),
        value: s.into_inner(),
    };
    Ok(File {
        name: name.to_string(),
        text: text.to_string(),
        clock_ns: raw.clock_ns.map(|c| At {
            pos: pos_of(text, c.span().start),
            value: c.into_inner(),
        }),
        dataflow: raw.dataflow.map(value),
        loops: raw
            .loops
            .into_iter()
            .map(|l| LoopEntry {
                label: at(l.label),
                pipeline: l.pipeline.map(value),
                unroll: l.unroll.map(value),
                flatten: l.flatten.map(value),
                hoist: l.hoist.map(value),
                jam: l.jam.map(value),
                interchange: l.interchange.map(value),
            })
            .collect(),
        arrays: raw
            .arrays
            .into_iter()
            .map(|a| ArrayEntry {
                name: at(a.name),
                partition: a.partition.map(value),
                ports: a.ports.map(value),
                width: a.width.map(value),
                buffer: a.buffer.map(value),
                depth: a.depth.map(value),
            })
            .collect(),
        limits: raw
            .limits
            .into_iter()
            .map(|(k, v)| (at(k), value(v)))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_positions() {
        let f = parse(
            "d.toml",
            "clock_ns = 10.0\n[[loop]]\nlabel = \"j\"\npipeline = 1\n[limits]\nmul = 2\n",
        )
        .unwrap();
        assert_eq!(f.clock_ns.unwrap().value, 10.0);
        assert_eq!(f.loops[0].label.value, "j");
        assert_eq!(f.loops[0].label.pos, Pos { line: 3, col: 9 });
        assert_eq!(f.loops[0].pipeline.as_ref().unwrap().pos.line, 4);
        assert_eq!(f.limits[0].0.value, "mul");
        assert_eq!(f.limits[0].0.pos, Pos { line: 6, col: 1 });
    }

    #[test]
    fn unknown_keys_are_errors_where_they_are() {
        let (pos, msg) = parse("d.toml", "[[loop]]\nlabel = \"j\"\npipelin = 1\n").unwrap_err();
        assert_eq!(pos.line, 3);
        assert!(msg.contains("pipelin"), "{msg}");
    }
}
