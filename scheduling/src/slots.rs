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

use crate::graph::Cyclic;
use crate::longest::{earliest, longest_paths, Sources};
use crate::problem::{OpId, Problem};
use std::collections::BTreeMap;

/// Whether no modulo schedule of `p` exists at `ii` because operations
/// that zero-slack dependence cycles hold at fixed distances need more of
/// a limited resource in one slot than it has (or because a cycle is too
/// long for `ii` at all).
pub fn slot_conflict(p: &Problem, ii: u32) -> bool {
    let ii = ii.max(1);
    // Each limited operation's class: the first of its component (in the
    // operations' order) it is held at a fixed distance from, with that
    // distance; an operation on no cycle is held by none but itself.
    // Two operations held at a fixed distance lie on a cycle through
    // both, so within one component, and the paths between them too
    // ([`Cyclic`]): each component is searched on its own edges.
    let mut class: Vec<(usize, i64)> = (0..p.operations.len()).map(|op| (op, 0)).collect();
    let cyclic = Cyclic::of(p);
    for (c, nodes) in cyclic.members.iter().enumerate() {
        let edges = cyclic.weighted(p, c, ii);
        let limited: Vec<usize> = (0..nodes.len())
            .filter(|&i| p.limited_resources(OpId(nodes[i] as u32)).next().is_some())
            .collect();
        if limited.is_empty() && earliest(nodes.len(), &edges).is_none() {
            // A cycle too long for `ii`.
            return true;
        }
        let mut paths = Vec::with_capacity(limited.len());
        for &i in &limited {
            match longest_paths(nodes.len(), &edges, Sources::One(i)) {
                Some(d) => paths.push(d),
                // A cycle too long for `ii`.
                None => return true,
            }
        }
        for (k, &i) in limited.iter().enumerate() {
            class[nodes[i]] = (0..=k)
                .find_map(|j| {
                    let there = paths[j][i]?;
                    let back = paths[k][limited[j]]?;
                    (there + back == 0).then_some((nodes[limited[j]], there))
                })
                .unwrap_or((nodes[i], 0));
        }
    }
    // Users of a resource of limit 1 that may share a slot
    // ([`Problem::shares`]) are not counted against each other: the bound
    // stays a lower one.
    let mut uses: BTreeMap<(usize, usize, i64), Vec<OpId>> = BTreeMap::new();
    for op in p.ops() {
        let (held_by, offset) = class[op.0 as usize];
        for (r, limit) in p.limited_resources(op) {
            let users = uses
                .entry((held_by, r, offset.rem_euclid(i64::from(ii))))
                .or_default();
            if limit == 1 && users.iter().any(|&o| p.may_share(o, op)) {
                continue;
            }
            users.push(op);
            if users.len() as u32 > limit {
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
    use crate::longest::{dependence_edges, longest_paths, Sources};
    use crate::problem::{OpId, Problem, ProblemKind};
    use std::collections::BTreeMap;

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

    /// The slot conflict searched over the whole graph from every limited
    /// operation, classes numbered by the limited operations' order.
    fn slot_conflict_over_the_whole_graph(p: &Problem, ii: u32) -> bool {
        let edges = dependence_edges(p, ii);
        let limited: Vec<OpId> = (p.ops())
            .filter(|&op| p.limited_resources(op).next().is_some())
            .collect();
        let mut paths = Vec::new();
        for &op in &limited {
            match longest_paths(p.operations.len(), &edges, Sources::One(op.0 as usize)) {
                Some(d) => paths.push(d),
                None => return true,
            }
        }
        let mut uses: BTreeMap<(usize, usize, i64), u32> = BTreeMap::new();
        for (i, op) in limited.iter().enumerate() {
            let (class, offset) = (0..=i)
                .find_map(|j| {
                    let there = paths[j][op.0 as usize]?;
                    let back = paths[i][limited[j].0 as usize]?;
                    (there + back == 0).then_some((j, there))
                })
                .unwrap_or((i, 0));
            for (r, limit) in p.limited_resources(*op) {
                let n = (uses.entry((class, r, offset.rem_euclid(i64::from(ii))))).or_insert(0);
                *n += 1;
                if *n > limit {
                    return true;
                }
            }
        }
        false
    }

    /// A random loop body of recurrences through port users: one to three
    /// clusters, each a store that two to four chains (a load, then zero
    /// to two operators of latency 2 or 3) feed and that feeds their loads
    /// the next iteration (chains of one length hold their loads in one
    /// slot), with a forward edge between clusters now and then.
    fn recurrences_through_ports(seed: u64) -> Problem {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let mut p = Problem::new(ProblemKind::ModuloProblem);
        let port = p.add_resource_type("port", 1 + next(2) as u32);
        let mem = p.add_operator_type("mem", 1);
        let ops = [p.add_operator_type("a", 2), p.add_operator_type("b", 3)];
        let mut stores: Vec<OpId> = Vec::new();
        for _ in 0..1 + next(3) {
            let st = p.add_operation(mem, &[port]);
            for _ in 0..2 + next(3) {
                let load = p.add_operation(mem, &[port]);
                let mut at = load;
                for _ in 0..next(3) {
                    let o = p.add_operation(ops[next(2) as usize], &[]);
                    p.add_dependence(at, o, 0);
                    at = o;
                }
                p.add_dependence(at, st, 0);
                p.add_dependence(st, load, 1);
                if let Some(&earlier) = stores.get(next(4) as usize) {
                    p.add_dependence(earlier, load, 0);
                }
            }
            stores.push(st);
        }
        p
    }

    #[test]
    fn conflicts_searched_a_component_at_a_time_are_those_of_the_whole_graph() {
        let (mut asked, mut conflicts) = (0, 0);
        for seed in 1..600 {
            let p = recurrences_through_ports(seed);
            let from = res_mii(&p).max(rec_mii(&p));
            for ii in from..from + 3 {
                let conflict = slot_conflict(&p, ii);
                assert_eq!(
                    conflict,
                    slot_conflict_over_the_whole_graph(&p, ii),
                    "seed {seed} ii {ii}"
                );
                asked += 1;
                conflicts += usize::from(conflict);
            }
        }
        assert!(
            conflicts >= 15,
            "{conflicts} of {asked} questions found a conflict"
        );
    }
}
