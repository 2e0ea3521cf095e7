//! Binding: which port of its memory each access uses, and which unit of
//! its class each operation of a limited class (`[limits]`) uses. Two
//! operations can share a port or unit when they never run in the same
//! cycle: in different controller states (steps of blocks), or in a
//! pipeline at steps that differ modulo the II. The schedule put at most
//! as many operations into one such slot as there are ports or units, so
//! the operations of a slot take them in turn; on an on-chip memory the
//! stores take the ports from the first and the loads from the last, so
//! a slot of one store and one load leaves one port that only writes
//! (a block RAM has one write port on iCE40, a LUT RAM cell on ECP5; a
//! memory written through two ports is flip-flops or a true dual-port
//! block, `model/target/rams.rs`). The tasks of a dataflow
//! group run at once, so the tasks that share a memory take their turns
//! in shares of its ports of their own where there are enough
//! (`Kernel::port_shares`): two tasks that use one port each of a
//! two-port memory never meet (`dataflow.rs` checks every port and unit).
//! Likewise with units: where the units a group's tasks use of a class
//! (the most one slot of each takes) add up to no more than its limit,
//! each task takes units of its own, after the tasks before it; a copy
//! that scales what it reads in then runs beside a body that keeps the
//! other units busy.

use crate::flow::schedule::Schedules;
use crate::model::kernel::{Kernel, NodeId, Op, PortShares};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

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

/// When node `n` runs.
fn slot_of(k: &Kernel, s: &Schedules, n: NodeId) -> Slot {
    let block = k.nodes[n].block;
    match k.pipelined_loop_of(block) {
        Some(l) => {
            let ii = s.pipes[l].as_ref().map_or(1, |p| p.ii.max(1));
            Slot::Pipe(l, s.start[n] % ii)
        }
        None => Slot::Step(block, s.start[n]),
    }
}

/// The units of its class each dataflow task's limited operations may
/// take, as the first and how many, where the tasks of its group that
/// use the class need no more units together than its limit (the most
/// operations of one of its slots, each).
fn unit_shares(
    k: &Kernel,
    s: &Schedules,
    shares: &PortShares,
) -> FxHashMap<(usize, usize, &'static str), (u32, u32)> {
    let mut per_slot: FxHashMap<(usize, usize, &'static str, Slot), u32> = FxHashMap::default();
    let mut limits: FxHashMap<&'static str, u32> = FxHashMap::default();
    for n in 0..k.nodes.len() {
        let (Some((g, t)), Some((class, limit))) = (shares.task_of(k.nodes[n].block), k.limited(n))
        else {
            continue;
        };
        limits.insert(class, limit);
        *per_slot.entry((g, t, class, slot_of(k, s, n))).or_insert(0) += 1;
    }
    let mut need: BTreeMap<(usize, &'static str, usize), u32> = BTreeMap::new();
    for ((g, t, class, _), c) in per_slot {
        let x = need.entry((g, class, t)).or_insert(0);
        *x = (*x).max(c);
    }
    let mut out = FxHashMap::default();
    let mut groups: BTreeMap<(usize, &'static str), Vec<(usize, u32)>> = BTreeMap::new();
    for ((g, class, t), c) in need {
        groups.entry((g, class)).or_default().push((t, c));
    }
    for ((g, class), tasks) in groups {
        let total: u32 = tasks.iter().map(|x| x.1).sum();
        if tasks.len() < 2 || total > limits[class] {
            continue;
        }
        let mut first = 0;
        for (t, c) in tasks {
            out.insert((g, t, class), (first, c));
            first += c;
        }
    }
    out
}

/// Binds the accesses and limited operations of `k` under schedule `s`.
pub fn bind(k: &Kernel, s: &Schedules) -> Binding {
    let mut b = Binding::default();
    let mut taken: FxHashMap<(&'static str, usize, Slot), u32> = FxHashMap::default();
    let shares = k.port_shares();
    let units = unit_shares(k, s, &shares);
    for (n, node) in k.nodes.iter().enumerate() {
        let slot = slot_of(k, s, n);
        if let Some(m) = node.op.memory() {
            // On chip, stores take the share's ports from its first and
            // loads from its last, so that a slot of one store and one
            // load leaves a port that only writes (`rams.rs`).
            let on_chip = k.memories[m].arg.is_none();
            let kind = match node.op {
                Op::Store(_) if on_chip => "store",
                _ if on_chip => "load",
                _ => "port",
            };
            let c = taken.entry((kind, m, slot)).or_insert(0);
            let ports = k.memories[m].ports.max(1);
            let (first, share) = shares.of(m, node.block, ports);
            let nth = *c % share;
            let port = if kind == "load" {
                first + share - 1 - nth
            } else {
                first + nth
            };
            b.port.insert(n, port % ports);
            *c += 1;
            continue;
        }
        if let Some((class, limit)) = k.limited(n) {
            let c = taken.entry((class, 0, slot)).or_insert(0);
            let (first, share) = (shares.task_of(node.block))
                .and_then(|(g, t)| units.get(&(g, t, class)).copied())
                .unwrap_or((0, limit.max(1)));
            let u = first + *c % share;
            *c += 1;
            b.unit.insert(n, u);
            b.members.entry((class, u)).or_default().push(n);
        }
    }
    b
}
