//! The design space (`--space space.toml`): lists of choices per loop
//! (`unroll`, `jam`, `pipeline`, `flatten`, `hoist`, `interchange`), per array (`partition`,
//! `ports`, `width`, `buffer`),
//! per band (`tile` sizes), for the whole kernel (`dma`, `dataflow`,
//! `[limits]`, `clock_ns`, `targets`). Read with the `toml` crate keeping every
//! key's position, and checked against the kernel before any work: a
//! name that matches no loop, array or band, an empty list or a value of
//! the wrong kind is an error at its line and column.

use crate::kernel::KernelInfo;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::{Spanned, Value};

/// What a dimension sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Knob {
    /// `[[loop]]` key (`unroll`, `pipeline`, `flatten`, `hoist`) of the
    /// loop named.
    Loop(String, &'static str),
    /// `[[array]]` key (`partition`, `ports`, `width`, `buffer`) of the
    /// array named.
    Array(String, &'static str),
    /// The tile sizes of the band whose outermost loop is named.
    Tile(String),
    /// DMA copies into on-chip buffers after tiling.
    Dma,
    /// The body's loop nests at once (`dataflow`).
    Dataflow,
    /// Functional units of a library class.
    Limit(String),
    ClockNs,
    Target,
}

impl Knob {
    /// The column name in `points.csv` (`loop:j:unroll`).
    pub fn column(&self) -> String {
        match self {
            Knob::Loop(n, k) => format!("loop:{n}:{k}"),
            Knob::Array(n, k) => format!("array:{n}:{k}"),
            Knob::Tile(n) => format!("tile:{n}"),
            Knob::Dma => "dma".into(),
            Knob::Dataflow => "dataflow".into(),
            Knob::Limit(c) => format!("limits:{c}"),
            Knob::ClockNs => "clock_ns".into(),
            Knob::Target => "target".into(),
        }
    }
}

/// One dimension of the space: a knob and its choices.
#[derive(Clone, Debug)]
pub struct Dimension {
    pub knob: Knob,
    pub choices: Vec<Value>,
}

/// A checked design space.
#[derive(Clone, Debug)]
pub struct Space {
    pub dims: Vec<Dimension>,
    /// `dma_capacity_kib`: the on-chip buffer budget of
    /// `affine-data-copy-generate` (KiB).
    pub dma_capacity_kib: u64,
    /// The `[[array]]` names that are DMA buffers or on-chip copies
    /// (`A_buf`): their entries apply at points with DMA, or with `A`
    /// buffered, only.
    pub buffers: Vec<String>,
}

/// A position in the space file (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

/// An error in the space file, at its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpaceError {
    pub pos: Pos,
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpace {
    targets: Option<Spanned<Vec<Spanned<Value>>>>,
    clock_ns: Option<Spanned<Vec<Spanned<Value>>>>,
    dma: Option<Spanned<Vec<Spanned<Value>>>>,
    dataflow: Option<Spanned<Vec<Spanned<Value>>>>,
    dma_capacity_kib: Option<Spanned<i64>>,
    #[serde(rename = "loop", default)]
    loops: Vec<RawLoop>,
    #[serde(rename = "array", default)]
    arrays: Vec<RawArray>,
    #[serde(rename = "tile", default)]
    tiles: Vec<RawTile>,
    #[serde(default)]
    limits: BTreeMap<Spanned<String>, Spanned<Vec<Spanned<Value>>>>,
}

type Choices = Option<Spanned<Vec<Spanned<Value>>>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLoop {
    name: Spanned<String>,
    unroll: Choices,
    pipeline: Choices,
    flatten: Choices,
    hoist: Choices,
    jam: Choices,
    interchange: Choices,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArray {
    name: Spanned<String>,
    partition: Choices,
    ports: Choices,
    width: Choices,
    buffer: Choices,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTile {
    band: Spanned<String>,
    sizes: Spanned<Vec<Spanned<Value>>>,
}

/// The line and column of byte `offset` of `text`.
fn pos_of(text: &str, offset: usize) -> Pos {
    let before = &text[..offset.min(text.len())];
    Pos {
        line: before.matches('\n').count() + 1,
        col: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
    }
}

/// Reads and checks the space `text` against the kernel `info`.
pub fn parse(text: &str, info: &KernelInfo) -> Result<Space, SpaceError> {
    let err = |offset: usize, message: String| SpaceError {
        pos: pos_of(text, offset),
        message,
    };
    let raw: RawSpace = toml::from_str(text).map_err(|e| {
        err(
            e.span().map_or(0, |s| s.start),
            e.message().trim().to_string(),
        )
    })?;
    let dma_listed = raw.dma.as_ref().is_some_and(|d| {
        d.get_ref()
            .iter()
            .any(|v| v.get_ref().as_bool() == Some(true))
    });
    let mut buffers = Vec::new();
    let mut dims = Vec::new();
    let mut push = |knob: Knob,
                    list: Spanned<Vec<Spanned<Value>>>,
                    check: &dyn Fn(&Value) -> Result<(), String>|
     -> Result<(), SpaceError> {
        let start = list.span().start;
        let list = list.into_inner();
        if list.is_empty() {
            return Err(err(
                start,
                format!("{} has no choices (an empty list)", knob.column()),
            ));
        }
        let mut choices = Vec::new();
        for v in list {
            let at = v.span().start;
            let v = v.into_inner();
            check(&v).map_err(|m| err(at, format!("{}: {m}", knob.column())))?;
            if choices.contains(&v) {
                return Err(err(at, format!("{}: {v} is listed twice", knob.column())));
            }
            choices.push(v);
        }
        dims.push(Dimension { knob, choices });
        Ok(())
    };
    for l in raw.loops {
        let at = l.name.span().start;
        let name = l.name.into_inner();
        if info.find_loops(&name).is_empty() {
            return Err(err(
                at,
                format!(
                    "no loop of '{}' is named '{name}' (loops: {})",
                    info.top,
                    info.loop_names().join(", ")
                ),
            ));
        }
        if l.unroll.is_none()
            && l.pipeline.is_none()
            && l.flatten.is_none()
            && l.hoist.is_none()
            && l.jam.is_none()
            && l.interchange.is_none()
        {
            return Err(err(
                at,
                format!(
                    "loop '{name}' lists no choices (unroll, jam, pipeline, flatten, hoist, interchange)"
                ),
            ));
        }
        if let Some(c) = l.unroll {
            push(Knob::Loop(name.clone(), "unroll"), c, &check_unroll)?;
        }
        if let Some(c) = l.pipeline {
            push(Knob::Loop(name.clone(), "pipeline"), c, &check_pipeline)?;
        }
        if let Some(c) = l.flatten {
            push(Knob::Loop(name.clone(), "flatten"), c, &check_bool)?;
        }
        if let Some(c) = l.hoist {
            push(Knob::Loop(name.clone(), "hoist"), c, &check_bool)?;
        }
        if let Some(c) = l.jam {
            push(Knob::Loop(name.clone(), "jam"), c, &check_jam)?;
        }
        if let Some(c) = l.interchange {
            push(Knob::Loop(name.clone(), "interchange"), c, &check_bool)?;
        }
    }
    // Arrays whose `buffer` choices hold true: their on-chip copies
    // (`A_buf`) may be named too.
    let copied: Vec<String> = (raw.arrays.iter())
        .filter(|a| {
            a.buffer.as_ref().is_some_and(|c| {
                c.get_ref()
                    .iter()
                    .any(|v| v.get_ref() == &Value::Boolean(true))
            })
        })
        .map(|a| a.name.get_ref().clone())
        .collect();
    for a in raw.arrays {
        let at = a.name.span().start;
        let name = a.name.into_inner();
        if info.array(&name).is_some() {
            // An array of the kernel.
        } else if let Some(base) = info.buffered(&name) {
            if !dma_listed && !copied.contains(&base.name) {
                return Err(err(
                    at,
                    format!(
                        "'{name}' is the DMA buffer or on-chip copy of '{}', but the space's dma lists no true, nor its buffer",
                        base.name
                    ),
                ));
            }
            buffers.push(name.clone());
        } else {
            return Err(err(
                at,
                format!(
                    "no array of '{}' is named '{name}' (arrays: {}; with dma or buffer, their copies <array>_buf)",
                    info.top,
                    info.arrays
                        .iter()
                        .map(|a| a.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        if a.partition.is_none() && a.ports.is_none() && a.width.is_none() && a.buffer.is_none() {
            return Err(err(
                at,
                format!("array '{name}' lists no choices (partition, ports, width, buffer)"),
            ));
        }
        if let Some(c) = a.partition {
            push(Knob::Array(name.clone(), "partition"), c, &check_partition)?;
        }
        if let Some(c) = a.ports {
            push(Knob::Array(name.clone(), "ports"), c, &check_ports)?;
        }
        if let Some(c) = a.width {
            push(Knob::Array(name.clone(), "width"), c, &check_width)?;
        }
        if let Some(c) = a.buffer {
            push(Knob::Array(name.clone(), "buffer"), c, &check_bool)?;
        }
    }
    for t in raw.tiles {
        let at = t.band.span().start;
        let name = t.band.into_inner();
        let Some(band) = info.band(&name) else {
            return Err(err(
                at,
                format!(
                    "no tileable band of '{}' starts at a loop named '{name}' (bands: {})",
                    info.top,
                    info.bands
                        .iter()
                        .map(|b| b.loops[0].path.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        };
        let depth = band.loops.len();
        push(Knob::Tile(name.clone()), t.sizes, &|v| check_tile(v, depth))?;
    }
    if let Some(c) = raw.dma {
        push(Knob::Dma, c, &check_bool)?;
    }
    if let Some(c) = raw.dataflow {
        push(Knob::Dataflow, c, &check_bool)?;
    }
    for (class, c) in raw.limits {
        let at = class.span().start;
        let class = class.into_inner();
        if !info.classes.contains(&class) {
            return Err(err(
                at,
                format!(
                    "[limits]: '{}' has no '{class}' operations (classes: {})",
                    info.top,
                    info.classes.join(", ")
                ),
            ));
        }
        push(Knob::Limit(class), c, &check_limit)?;
    }
    if let Some(c) = raw.clock_ns {
        push(Knob::ClockNs, c, &check_clock)?;
    }
    if let Some(c) = raw.targets {
        push(Knob::Target, c, &check_target)?;
    }
    let dma_capacity_kib = match raw.dma_capacity_kib {
        None => 1,
        Some(k) if *k.get_ref() >= 1 => *k.get_ref() as u64,
        Some(k) => {
            return Err(err(
                k.span().start,
                "dma_capacity_kib must be at least 1".into(),
            ))
        }
    };
    Ok(Space {
        dims,
        dma_capacity_kib,
        buffers,
    })
}

impl Space {
    /// The number of points (saturating).
    pub fn size(&self) -> u128 {
        self.dims
            .iter()
            .fold(1u128, |n, d| n.saturating_mul(d.choices.len() as u128))
    }

    /// The genes of point number `i` of the enumeration (mixed radix,
    /// the first dimension fastest).
    pub fn point(&self, mut i: u128) -> Vec<usize> {
        self.dims
            .iter()
            .map(|d| {
                let n = d.choices.len() as u128;
                let g = (i % n) as usize;
                i /= n;
                g
            })
            .collect()
    }
}

/// A choice shown in `points.csv` and the summary.
pub fn show(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Table(t) => {
            let kind = t.get("kind").and_then(Value::as_str).unwrap_or("?");
            let mut s = kind.to_string();
            if let Some(f) = t.get("factor") {
                s.push_str(&format!(" {f}"));
            }
            if let Some(d) = t.get("dim") {
                s.push_str(&format!(" dim {d}"));
            }
            s
        }
        Value::Array(a) => a.iter().map(show).collect::<Vec<_>>().join("x"),
        other => other.to_string(),
    }
}

fn positive(v: &Value) -> Option<u64> {
    v.as_integer()
        .and_then(|i| u64::try_from(i).ok())
        .filter(|&i| i >= 1)
}

fn check_unroll(v: &Value) -> Result<(), String> {
    match v {
        Value::String(s) if s == "full" => Ok(()),
        _ if positive(v).is_some() => Ok(()),
        _ => Err(format!(
            "unroll must be a factor of at least 1 or \"full\", not {v}"
        )),
    }
}

fn check_jam(v: &Value) -> Result<(), String> {
    match positive(v) {
        Some(_) => Ok(()),
        None => Err(format!("jam must be a factor of at least 1, not {v}")),
    }
}

fn check_pipeline(v: &Value) -> Result<(), String> {
    match v {
        Value::Boolean(_) => Ok(()),
        _ if positive(v).is_some() => Ok(()),
        _ => Err(format!(
            "pipeline must be false (off), true (smallest II) or a target II of at least 1, not {v}"
        )),
    }
}

fn check_bool(v: &Value) -> Result<(), String> {
    match v {
        Value::Boolean(_) => Ok(()),
        _ => Err(format!("must be true or false, not {v}")),
    }
}

fn check_partition(v: &Value) -> Result<(), String> {
    match v {
        Value::String(s) if s == "none" => Ok(()),
        // Several dimensions split at once.
        Value::Array(splits) if !splits.is_empty() => {
            for p in splits {
                if !matches!(p, Value::Table(_)) {
                    return Err(format!("a list of partitions holds tables, not {p}"));
                }
                check_partition(p)?;
            }
            Ok(())
        }
        Value::Table(t) => {
            if let Some(k) = t
                .keys()
                .find(|k| !["dim", "kind", "factor"].contains(&k.as_str()))
            {
                return Err(format!(
                    "partition has an unknown key '{k}' (dim, kind, factor)"
                ));
            }
            match (
                t.get("kind").and_then(Value::as_str),
                t.get("factor").map(positive),
            ) {
                (Some("complete"), None) => {}
                (Some("cyclic" | "block"), Some(Some(f))) if f >= 2 => {}
                (Some("cyclic" | "block"), _) => {
                    return Err("a cyclic or block partition needs a factor of at least 2".into())
                }
                _ => {
                    return Err(
                        "partition kind must be \"cyclic\", \"block\" or \"complete\"".into(),
                    )
                }
            }
            match t.get("dim").map(positive) {
                None | Some(Some(_)) => Ok(()),
                Some(None) => Err("partition dim must be at least 1".into()),
            }
        }
        _ => Err(format!(
            "partition must be \"none\", a table {{ kind, factor, dim }} or a list of them, not {v}"
        )),
    }
}

fn check_width(v: &Value) -> Result<(), String> {
    match v.as_integer() {
        Some(n) if n >= 1 => Ok(()),
        _ => Err(format!(
            "width must be a number of elements of at least 1, not {v}"
        )),
    }
}

fn check_ports(v: &Value) -> Result<(), String> {
    match v.as_integer() {
        Some(1 | 2) => Ok(()),
        _ => Err(format!("ports must be 1 or 2, not {v}")),
    }
}

fn check_tile(v: &Value, depth: usize) -> Result<(), String> {
    match v {
        Value::String(s) if s == "none" => Ok(()),
        Value::Array(a) if a.len() == depth && a.iter().all(|s| positive(s).is_some()) => Ok(()),
        _ => Err(format!(
            "tile sizes must be \"none\" or {depth} positive sizes (the band's depth), not {v}"
        )),
    }
}

fn check_limit(v: &Value) -> Result<(), String> {
    match v {
        Value::String(s) if s == "none" => Ok(()),
        _ if positive(v).is_some() => Ok(()),
        _ => Err(format!(
            "a limit must be \"none\" or a number of units of at least 1, not {v}"
        )),
    }
}

fn check_clock(v: &Value) -> Result<(), String> {
    let ns = v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
    match ns {
        Some(ns) if ns > 0.0 && ns.is_finite() => Ok(()),
        _ => Err(format!(
            "a clock period must be a positive number of ns, not {v}"
        )),
    }
}

fn check_target(v: &Value) -> Result<(), String> {
    match v.as_str() {
        Some(t) => silica_hls::model::target::device::lookup(t).map(|_| ()),
        None => Err(format!("a target must be a device name, not {v}")),
    }
}
