//! Array directives on the lifted kernel: `ports = 2` gives a memory two
//! ports (an external memref two sets of port signals, `<A>_address1`
//! and so on, in the interface too; an on-chip array a true dual-port
//! RAM), which the scheduler may use in the same cycle. `partition` is
//! not carried out yet: it is reported as not honoured.

use crate::directives::{Directives, Log};
use crate::interface::Interface;
use crate::kernel::Kernel;

/// Applies the array directives of `d` to the memories of `k` and to
/// the interface.
pub fn memories(k: &mut Kernel, iface: &mut Interface, d: &Directives, log: &mut Log) {
    for (name, ad) in &d.arrays {
        let Some(m) = k.memories.iter().position(|m| &m.name == name) else {
            continue;
        };
        if let Some(s) = &ad.ports {
            k.memories[m].ports = s.value;
            let external = k.memories[m].arg.is_some();
            if external {
                if let Some(im) = iface.memory_mut(name) {
                    im.ports = s.value;
                }
            }
            let what = match (s.value, external) {
                (1, _) => "one port".to_string(),
                (p, true) => format!("{p} external memory ports"),
                (p, false) => format!("a RAM with {p} read/write ports"),
            };
            log.honoured(s, name, format!("ports = {}", s.value), what);
        }
        if let Some(s) = &ad.partition {
            log.refused(
                s,
                name,
                s.value.describe(),
                "array partitioning is not implemented yet; the array stays one memory".into(),
            );
        }
    }
}
