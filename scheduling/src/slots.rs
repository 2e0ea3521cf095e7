//! A lower bound on the II tighter than max(ResMII, RecMII) where the two
//! interact: at an II, a dependence cycle whose latency is exactly its
//! distance times the II leaves no slack, so it holds the operations on it
//! at fixed distances from one another (`t_v - t_u` is the longest path
//! from `u` to `v`, and minus the longest path back). Operations held at
//! fixed distances occupy fixed slots (time mod II) relative to one
//! another; when more of them than a resource's limit fall in one slot,
//! no modulo schedule exists at that II, whatever ResMII and RecMII say
//! (two loads on one port, each on its own recurrence of the same length
//! through one store, must issue in the same cycle).

use crate::longest::{dependence_edges, longest_paths, Sources};
use crate::problem::{OpId, Problem};
use std::collections::BTreeMap;

/// Whether no modulo schedule of `p` exists at `ii` because operations
/// that zero-slack dependence cycles hold at fixed distances need more of
/// a limited resource in one slot than it has (or because a cycle is too
/// long for `ii` at all).
pub fn slot_conflict(p: &Problem, ii: u32) -> bool {
    let ii = ii.max(1);
    let edges = dependence_edges(p, ii);
    let limited: Vec<OpId> = p
        .ops()
        .filter(|&op| p.limited_resources(op).next().is_some())
        .collect();
    let mut paths = Vec::with_capacity(limited.len());
    for &op in &limited {
        match longest_paths(p.operations.len(), &edges, Sources::One(op.0 as usize)) {
            Some(d) => paths.push(d),
            None => return true,
        }
    }
    // Each limited operation's class: the first one it is held at a fixed
    // distance from (the relation is transitive: the paths of two tight
    // pairs add up to cycles of weight 0 at most, and none is positive),
    // with that distance.
    let mut uses: BTreeMap<(usize, usize, i64), u32> = BTreeMap::new();
    for (i, op) in limited.iter().enumerate() {
        let held = (0..=i).find_map(|j| {
            let there = paths[j][op.0 as usize]?;
            let back = paths[i][limited[j].0 as usize]?;
            (there + back == 0).then_some((j, there))
        });
        let (class, offset) = held.unwrap_or((i, 0));
        for (r, limit) in p.limited_resources(*op) {
            let n = uses
                .entry((class, r, offset.rem_euclid(i64::from(ii))))
                .or_insert(0);
            *n += 1;
            if *n > limit {
                return true;
            }
        }
    }
    false
}

/// The smallest II from `from` up without a slot conflict
/// ([`slot_conflict`]); `from` should be at least max(ResMII, RecMII).
pub fn slot_mii(p: &Problem, from: u32) -> u32 {
    let total: u32 = p
        .ops()
        .map(|op| p.latency(op))
        .fold(1u32, u32::saturating_add);
    let mut ii = from.max(1);
    // Past the sum of the latencies every cycle has slack: none conflicts.
    while ii < total && slot_conflict(p, ii) {
        ii += 1;
    }
    ii
}

#[cfg(test)]
mod tests {
    use super::{slot_conflict, slot_mii};
    use crate::graph::{rec_mii, res_mii};
    use crate::problem::{Problem, ProblemKind};

    /// Two loads on one port, each feeding a store through an operator of
    /// latency `a` or `b`; the store feeds both loads of the next
    /// iteration; and `extra` loads off the recurrences.
    fn loads(a: u32, b: u32, extra: usize) -> Problem {
        let mut p = Problem::new(ProblemKind::ModuloProblem);
        let port = p.add_resource_type("port", 1);
        let mem = p.add_operator_type("mem", 1);
        let (ta, tb) = (p.add_operator_type("a", a), p.add_operator_type("b", b));
        let l1 = p.add_operation(mem, &[port]);
        let l2 = p.add_operation(mem, &[port]);
        let (o1, o2) = (p.add_operation(ta, &[]), p.add_operation(tb, &[]));
        let st = p.add_operation(mem, &[port]);
        for (l, o) in [(l1, o1), (l2, o2)] {
            p.add_dependence(l, o, 0);
            p.add_dependence(o, st, 0);
            p.add_dependence(st, l, 1);
        }
        for _ in 0..extra {
            let l = p.add_operation(mem, &[port]);
            p.add_dependence(l, st, 0);
        }
        p
    }

    #[test]
    fn two_port_users_held_in_one_slot_raise_the_bound() {
        // Both cycles are 1 + 3 + 1 = 5 long: at II 5 both loads issue 4
        // cycles before the store, in one slot of the one port.
        let p = loads(3, 3, 2);
        assert_eq!((res_mii(&p), rec_mii(&p)), (5, 5));
        assert!(slot_conflict(&p, 5));
        assert_eq!(slot_mii(&p, 5), 6);
        // With slack on one cycle nothing is held, and II 5 is feasible.
        let p = loads(3, 2, 2);
        assert!(!slot_conflict(&p, 5));
        assert_eq!(slot_mii(&p, 5), 5);
    }

    #[test]
    fn held_users_in_different_slots_do_not_conflict() {
        // Cycles of 5 and 4 at II 4: the loads are 3 and 2 cycles before
        // the store, in different slots.
        let p = loads(3, 2, 0);
        assert_eq!(rec_mii(&p), 5);
        assert!(!slot_conflict(&p, 5));
        let p = loads(2, 1, 0);
        assert_eq!(rec_mii(&p), 4);
        assert!(!slot_conflict(&p, 4));
    }
}
