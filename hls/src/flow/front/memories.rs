//! Array directives on the lifted kernel: `ports = 2` gives a memory two
//! ports (an external memref two sets of port signals, `<A>_address1`
//! and so on, in the interface too; an on-chip array a true dual-port
//! RAM, every bank of it when partitioned), which the scheduler may use
//! in the same cycle. `width = N` packs `N` elements of an external
//! memory into a word of its ports (at most `--max-port-bits` bits: a
//! wider one is cut, with a warning); `widen.rs` then makes its accesses
//! word accesses. `partition` was carried out while lifting
//! (`partition.rs`); here it is logged, or refused with the reason.

use super::partition::plan;
use crate::model::directives::{Directives, Log, Setting};
use crate::model::interface::Interface;
use crate::model::kernel::Kernel;
use crate::model::options::Wrapper;

/// The most elements a word.
pub const MAX_LANES: u32 = 64;

/// The ports' limits a `width` directive keeps to.
#[derive(Clone, Copy, Debug)]
pub struct PortLimits {
    /// The widest external port, in bits.
    pub max_bits: u32,
    /// What the core is wrapped in (only its own ports are packed).
    pub wrapper: Wrapper,
}

/// Applies the array directives of `d` to the memories of `k` and to
/// the interface.
pub fn memories(
    k: &mut Kernel,
    iface: &mut Interface,
    d: &Directives,
    limits: PortLimits,
    log: &mut Log,
) {
    for (name, ad) in &d.arrays {
        let whole = k.memories.iter().position(|m| &m.name == name);
        let banks: Vec<usize> = (0..k.memories.len())
            .filter(|&m| k.memories[m].bank_of.as_deref() == Some(name.as_str()))
            .collect();
        if let Some(s) = &ad.partition {
            let directive = s.value.describe();
            match whole {
                Some(m) if k.memories[m].arg.is_some() => log.refused(
                    s,
                    name,
                    directive,
                    "partitioning applies to on-chip arrays, and this is an external memory".into(),
                ),
                Some(m) => {
                    let why = plan(&k.memories[m].shape, &s.value)
                        .err()
                        .unwrap_or_else(|| "the array was not lifted as banks".into());
                    log.refused(s, name, directive, why);
                }
                None if !banks.is_empty() => {
                    let shape: Vec<String> = k.memories[banks[0]]
                        .shape
                        .iter()
                        .map(|d| d.to_string())
                        .collect();
                    log.honoured(
                        s,
                        name,
                        directive,
                        format!("{} banks of {}", banks.len(), shape.join("x")),
                    );
                }
                None => {}
            }
        }
        if let Some(s) = &ad.ports {
            let targets: Vec<usize> = whole.into_iter().chain(banks.iter().copied()).collect();
            let Some(&first) = targets.first() else {
                continue;
            };
            for &m in &targets {
                k.memories[m].ports = s.value;
            }
            let external = k.memories[first].arg.is_some();
            if external {
                if let Some(im) = iface.memory_mut(name) {
                    im.ports = s.value;
                }
            }
            let what = match (s.value, external) {
                (1, _) => "one port".to_string(),
                (p, true) => format!("{p} external memory ports"),
                (p, false) if !banks.is_empty() => format!("{p} read/write ports on every bank"),
                (p, false) => format!("a RAM with {p} read/write ports"),
            };
            log.honoured(s, name, format!("ports = {}", s.value), what);
        }
        if let Some(s) = &ad.width {
            widen(k, iface, (name, whole), s, limits, log);
        }
        if let Some(s) = &ad.depth {
            match whole.filter(|&m| k.memories[m].arg.is_none() && k.memories[m].rom.is_none()) {
                Some(m) => k.memories[m].asked_depth = Some(s.value),
                None => log.refused(
                    s,
                    name,
                    format!("depth = {}", s.value),
                    "depth sizes the buffer of a dataflow channel, an on-chip array of one piece"
                        .into(),
                ),
            }
        }
    }
}

/// Packs the elements of external memory `name` (memory `whole` of `k`)
/// `s.value` a word, as far as `limits` allow.
fn widen(
    k: &mut Kernel,
    iface: &mut Interface,
    (name, whole): (&str, Option<usize>),
    s: &Setting<u32>,
    limits: PortLimits,
    log: &mut Log,
) {
    let directive = format!("width = {}", s.value);
    let refused = |log: &mut Log, why: &str| log.refused(s, name, directive.clone(), why.into());
    let Some(m) = whole.filter(|&m| k.memories[m].arg.is_some()) else {
        return refused(
            log,
            "width packs the ports of a whole external memory, and this is an on-chip or partitioned array",
        );
    };
    if limits.wrapper == Wrapper::Shell {
        return refused(log, "the board shell moves elements one at a time");
    }
    let moved = k.dmas.iter().filter_map(|d| d.transfer.as_ref());
    if moved.clone().any(|t| t.src == m || t.dst == m) {
        return refused(log, "DMA transfers move its elements one a cycle");
    }
    if k.calls.iter().any(|c| c.memories.contains(&m)) {
        return refused(log, "a called module reads it one element at a time");
    }
    let bits = k.memories[m].element_width;
    // A lane a bit of `we`, which a testbench reads as one integer.
    let widest = (limits.max_bits / bits.max(1)).clamp(1, MAX_LANES);
    let lanes = if s.value > widest {
        refused(
            log,
            &format!(
                "{} elements of {bits} bits do not fit a word of at most {} bits (--max-port-bits) and {MAX_LANES} elements: width {widest} used",
                s.value, limits.max_bits
            ),
        );
        widest
    } else {
        s.value
    };
    let lanes = if limits.wrapper == Wrapper::Axi {
        let beat = axi_lanes(lanes, bits, limits.max_bits);
        if beat < lanes {
            refused(
                log,
                &format!(
                    "the AXI master moves a word as one beat of a power of two of bytes, at most {} bits: width {beat} used",
                    limits.max_bits.clamp(64, MAX_BUS_BITS)
                ),
            );
        }
        beat
    } else {
        lanes
    };
    if lanes == 1 {
        return;
    }
    let mem = &mut k.memories[m];
    mem.lanes = lanes;
    let (words, width) = (mem.words(), mem.word_width());
    if let Some(im) = iface.memory_mut(name) {
        im.pack(lanes);
    }
    if lanes == s.value {
        log.honoured(
            s,
            name,
            directive,
            format!("{lanes} elements a word: {words} words of {width} bits"),
        );
    }
}

/// The widest AXI data bus (bits) a packed memory may ask for.
pub const MAX_BUS_BITS: u32 = 512;

/// The most lanes, at most `lanes`, whose word the AXI master moves as
/// one beat: a power of two of elements whose bytes in host memory fit
/// the widest bus `max_bits` allows (64 bits at least, 512 at most).
fn axi_lanes(lanes: u32, bits: u32, max_bits: u32) -> u32 {
    let bus = max_bits.clamp(64, MAX_BUS_BITS);
    let host = crate::model::register_map::element_bits(bits);
    let mut n = 1;
    while n * 2 <= lanes && n * 2 * host <= bus {
        n *= 2;
    }
    n
}
