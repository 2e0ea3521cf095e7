//! Array directives on the lifted kernel: `ports = 2` gives a memory two
//! ports (an external memref two sets of port signals, `<A>_address1`
//! and so on, in the interface too; an on-chip array a true dual-port
//! RAM, every bank of it when partitioned), which the scheduler may use
//! in the same cycle. `partition` was carried out while lifting
//! (`partition.rs`); here it is logged, or refused with the reason.

use super::partition::plan;
use crate::model::directives::{Directives, Log};
use crate::model::interface::Interface;
use crate::model::kernel::Kernel;

/// Applies the array directives of `d` to the memories of `k` and to
/// the interface.
pub fn memories(k: &mut Kernel, iface: &mut Interface, d: &Directives, log: &mut Log) {
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
                    let why = plan(&k.memories[m].shape, s.value)
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
    }
}
