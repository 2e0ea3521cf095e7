//! Binding: which port of its memory each access uses, and which unit of
//! its class each operation of a limited class (`[limits]`) uses. Two
//! operations can share a port or unit when they never run in the same
//! cycle: in different controller states (steps of blocks), or in a
//! pipeline at steps that differ modulo the II. The schedule put at most
//! as many operations into one such slot as there are ports or units, so
//! the operations of a slot take them in turn. The tasks of a dataflow
//! group run at once, so the tasks that share a memory take their turns
//! in shares of its ports of their own where there are enough
//! (`Kernel::port_shares`): two tasks that use one port each of a
//! two-port memory never meet (`dataflow.rs` checks every port and unit).

use crate::flow::schedule::Schedules;
use crate::model::kernel::{Kernel, NodeId};
use rustc_hash::FxHashMap;

/// The ports and units of a design's operations.
#[derive(Default)]
pub struct Binding {
    /// The port of each memory access.
    pub port: FxHashMap<NodeId, u32>,
    /// The unit of each operation of a limited class.
    pub unit: FxHashMap<NodeId, u32>,
    /// The operations bound to each unit of each limited class.
    pub members: FxHashMap<(&'static str, u32), Vec<NodeId>>,
}

/// When an operation runs: a step of a block (a controller state), or a
/// pipeline's slot.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Slot {
    Step(usize, u32),
    Pipe(usize, u32),
}

/// Binds the accesses and limited operations of `k` under schedule `s`.
pub fn bind(k: &Kernel, s: &Schedules) -> Binding {
    let mut b = Binding::default();
    let mut taken: FxHashMap<(&'static str, usize, Slot), u32> = FxHashMap::default();
    let shares = k.port_shares();
    for (n, node) in k.nodes.iter().enumerate() {
        let slot = match k.pipelined_loop_of(node.block) {
            Some(l) => {
                let ii = s.pipes[l].as_ref().map_or(1, |p| p.ii.max(1));
                Slot::Pipe(l, s.start[n] % ii)
            }
            None => Slot::Step(node.block, s.start[n]),
        };
        if let Some(m) = node.op.memory() {
            let c = taken.entry(("port", m, slot)).or_insert(0);
            let ports = k.memories[m].ports.max(1);
            let (first, share) = shares.of(m, node.block, ports);
            b.port.insert(n, (first + *c % share) % ports);
            *c += 1;
            continue;
        }
        if let Some((class, limit)) = k.limited(n) {
            let c = taken.entry((class, 0, slot)).or_insert(0);
            let u = *c % limit.max(1);
            *c += 1;
            b.unit.insert(n, u);
            b.members.entry((class, u)).or_default().push(n);
        }
    }
    b
}
