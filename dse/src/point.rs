//! A point of the space as a design to evaluate: the directives file it
//! stands for (the text `silica hls --directives` reads), the tile sizes
//! per band, DMA, target and clock; and the checks that prune a point
//! before evaluation (a factor that does not divide a trip count or an
//! array dimension, a partition of an external memory), each with its
//! reason.

use crate::kernel::KernelInfo;
use crate::space::{Knob, Space};
use serde::{Deserialize, Serialize};
use toml::{Table, Value};

/// Tile sizes for one band.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tile {
    /// The band's outermost loop, as the space names it.
    pub band: String,
    pub sizes: Vec<u64>,
}

/// A design to evaluate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub target: String,
    pub clock_ns: f64,
    /// The directives file's text.
    pub directives: String,
    pub tiles: Vec<Tile>,
    /// DMA into on-chip buffers (`affine-data-copy-generate`), with this
    /// capacity in KiB; none: no copies.
    pub dma_kib: Option<u64>,
}

/// The default target and clock of a point whose space does not list
/// them.
pub struct Defaults {
    pub target: String,
    pub clock_ns: f64,
}

/// The design of `genes` (one choice index per dimension of `space`).
pub fn config(space: &Space, genes: &[usize], defaults: &Defaults) -> Config {
    let mut loops: Vec<(String, Table)> = Vec::new();
    let mut arrays: Vec<(String, Table)> = Vec::new();
    let mut limits = Table::new();
    let mut dataflow = None;
    let mut cfg = Config {
        target: defaults.target.clone(),
        clock_ns: defaults.clock_ns,
        directives: String::new(),
        tiles: Vec::new(),
        dma_kib: None,
    };
    let entry = |list: &mut Vec<(String, Table)>, name: &str| -> Table {
        match list.iter().position(|(n, _)| n == name) {
            Some(i) => list.remove(i).1,
            None => Table::new(),
        }
    };
    let dma = dma_on(space, genes);
    for (d, &g) in space.dims.iter().zip(genes) {
        let v = &d.choices[g];
        match &d.knob {
            Knob::Array(name, _)
                if space.buffers.contains(name) && !dma && !buffered(space, genes, name) => {}
            Knob::Loop(name, key) => {
                let mut t = entry(&mut loops, name);
                t.insert((*key).to_string(), v.clone());
                loops.push((name.clone(), t));
            }
            Knob::Array(name, key) => {
                let mut t = entry(&mut arrays, name);
                if v.as_str() != Some("none") {
                    t.insert((*key).to_string(), v.clone());
                }
                arrays.push((name.clone(), t));
            }
            Knob::Tile(band) => {
                if let Value::Array(a) = v {
                    cfg.tiles.push(Tile {
                        band: band.clone(),
                        sizes: a
                            .iter()
                            .filter_map(|s| s.as_integer().map(|i| i as u64))
                            .collect(),
                    });
                }
            }
            Knob::Dma => {
                if v.as_bool() == Some(true) {
                    cfg.dma_kib = Some(space.dma_capacity_kib);
                }
            }
            Knob::Dataflow => dataflow = v.as_bool(),
            Knob::Limit(class) => {
                if v.as_str() != Some("none") {
                    limits.insert(class.clone(), v.clone());
                }
            }
            Knob::ClockNs => {
                cfg.clock_ns = v
                    .as_float()
                    .or_else(|| v.as_integer().map(|i| i as f64))
                    .unwrap_or(defaults.clock_ns);
            }
            Knob::Target => cfg.target = v.as_str().unwrap_or_default().to_string(),
        }
    }
    // Loops in the order the space lists them, keys in a fixed order.
    let mut doc = Table::new();
    doc.insert("clock_ns".into(), Value::Float(cfg.clock_ns));
    if let Some(on) = dataflow {
        doc.insert("dataflow".into(), Value::Boolean(on));
    }
    let tables = |list: Vec<(String, Table)>, key: &str| -> Vec<Value> {
        list.into_iter()
            .filter(|(_, t)| !t.is_empty())
            .map(|(name, t)| {
                let mut out = Table::new();
                out.insert(key.into(), Value::String(name));
                out.extend(t);
                Value::Table(out)
            })
            .collect()
    };
    let loops = tables(loops, "label");
    if !loops.is_empty() {
        doc.insert("loop".into(), Value::Array(loops));
    }
    let arrays = tables(arrays, "name");
    if !arrays.is_empty() {
        doc.insert("array".into(), Value::Array(arrays));
    }
    if !limits.is_empty() {
        doc.insert("limits".into(), Value::Table(limits));
    }
    cfg.directives = toml::to_string(&doc).unwrap_or_default();
    cfg
}

/// Whether the point `genes` buffers the array whose on-chip copy
/// `copy` (`A_buf`) is.
fn buffered(space: &Space, genes: &[usize], copy: &str) -> bool {
    let Some((base, _)) = copy.rsplit_once("_buf") else {
        return false;
    };
    space.dims.iter().zip(genes).any(|(d, &g)| {
        d.knob == Knob::Array(base.to_string(), "buffer") && d.choices[g].as_bool() == Some(true)
    })
}

/// Whether the point `genes` copies its tiles by DMA.
fn dma_on(space: &Space, genes: &[usize]) -> bool {
    space
        .dims
        .iter()
        .zip(genes)
        .any(|(d, &g)| d.knob == Knob::Dma && d.choices[g].as_bool() == Some(true))
}

/// Why the point `genes` is invalid for the kernel, if it is.
pub fn prune(space: &Space, genes: &[usize], info: &KernelInfo) -> Option<String> {
    let dma = dma_on(space, genes);
    for (d, &g) in space.dims.iter().zip(genes) {
        let v = &d.choices[g];
        match &d.knob {
            // Without DMA or a buffer a copy's entry is left out: its
            // first choice stands for the design, the others would repeat
            // it.
            Knob::Array(name, key)
                if !dma
                    && g > 0
                    && space.buffers.contains(name)
                    && !buffered(space, genes, name) =>
            {
                return Some(format!(
                    "{name} is a DMA buffer or on-chip copy and the point has neither ({key} {} repeats {})",
                    crate::space::show(v),
                    crate::space::show(&d.choices[0])
                ));
            }
            Knob::Loop(name, key @ ("unroll" | "jam")) => {
                let Some(k) = v.as_integer().map(|k| k as u64) else {
                    continue;
                };
                for l in info.find_loops(name) {
                    // A factor that does not divide the trip count leaves
                    // a cleanup loop; one past it is refused by the flow.
                    if let Some(trip) = l.trip.filter(|&t| k > t) {
                        return Some(format!(
                            "{key} {k} is more than the trip count {trip} of {}",
                            l.path
                        ));
                    }
                }
            }
            Knob::Array(name, "partition") => {
                let splits: Vec<&Table> = match v {
                    Value::Table(t) => vec![t],
                    Value::Array(all) => all.iter().filter_map(Value::as_table).collect(),
                    _ => continue,
                };
                let Some(a) = info.array(name) else { continue };
                if a.external {
                    return Some(format!(
                        "{name} is an external memory; partitioning applies to on-chip arrays"
                    ));
                }
                for t in splits {
                    let dim = t.get("dim").and_then(Value::as_integer).unwrap_or(1) as usize;
                    let Some(&size) = a.shape.get(dim - 1) else {
                        return Some(format!(
                            "{name} has {} dimension(s), not {dim}",
                            a.shape.len()
                        ));
                    };
                    if let Some(f) = t.get("factor").and_then(Value::as_integer) {
                        let f = f as u64;
                        if f > size || size % f != 0 {
                            return Some(format!(
                                "partition factor {f} does not divide dimension {dim} ({size}) of {name}"
                            ));
                        }
                    }
                }
            }
            Knob::Tile(band) => {
                let Value::Array(sizes) = v else { continue };
                let Some(b) = info.band(band) else { continue };
                for (l, s) in b.loops.iter().zip(sizes) {
                    let s = s.as_integer().unwrap_or(1) as u64;
                    if let Some(trip) = l.trip {
                        if s > trip || trip % s != 0 {
                            return Some(format!(
                                "tile size {s} does not divide the trip count {trip} of {}",
                                l.path
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}
