//! Iterative modulo scheduling (Rau, 1994): for II from max(ResMII,
//! RecMII) up, place operations by decreasing height into a modulo
//! reservation table, evicting those in the way when no slot in
//! `[Estart, Estart + II)` is free, within a budget of placements. Where
//! that fails at an II, a second attempt keeps scheduled successors: an
//! operation takes a free slot only up to the latest time they allow
//! (`Lstart`), else evicts the occupant of a slot in time, rather than
//! taking a later free slot and evicting its successors. Two operations
//! on a recurrence can otherwise chase each other through the table (a
//! load and the store it feeds, each placed where the other was) until
//! the budget runs out.

use crate::list::heights;
use crate::problem::{OpId, Problem};
use std::collections::BTreeSet;

/// Placements allowed per operation before giving up on an II.
const BUDGET_PER_OP: usize = 6;

/// Start times of a modulo schedule at the smallest II from `min_ii` for
/// which iterative modulo scheduling succeeds, with that II. The problem
/// must be checked, with positive limits.
pub fn modulo_schedule(p: &Problem, min_ii: u32) -> (Vec<u32>, u32) {
    let mut ii = min_ii.max(1);
    loop {
        if let Some(times) = schedule_at(p, ii, false).or_else(|| schedule_at(p, ii, true)) {
            return (times, ii);
        }
        ii += 1;
    }
}

struct State<'a> {
    p: &'a Problem,
    ii: u32,
    start: Vec<Option<i64>>,
    /// Occupants of each (resource slot, time mod II).
    table: Vec<Vec<Vec<OpId>>>,
    preds: Vec<Vec<(OpId, i64)>>,
    succs: Vec<Vec<(OpId, i64)>>,
    /// Each operation's place in the order of placement.
    rank: Vec<usize>,
    /// The ranks of the operations not placed: the first is next.
    pending: BTreeSet<usize>,
}

impl State<'_> {
    fn earliest(&self, op: OpId) -> i64 {
        self.preds[op.0 as usize]
            .iter()
            .filter_map(|&(q, w)| Some(self.start[q.0 as usize]? + w))
            .fold(0, i64::max)
    }

    /// The latest start of `op` that breaks no scheduled successor's
    /// dependence, if any successor is scheduled.
    fn latest(&self, op: OpId) -> Option<i64> {
        self.succs[op.0 as usize]
            .iter()
            .filter(|&&(s, _)| s != op)
            .filter_map(|&(s, w)| Some(self.start[s.0 as usize]? - w))
            .min()
    }

    fn fits(&self, op: OpId, t: i64) -> bool {
        let slot = t.rem_euclid(self.ii as i64) as usize;
        self.p.limited_resources(op).all(|(r, limit)| {
            let occupants = &self.table[r][slot];
            (occupants.len() as u32) < limit
                || (limit == 1 && occupants.iter().all(|&o| self.apart(op, t, o)))
        })
    }

    /// Whether `op` at `t` and the scheduled `other` never run in the
    /// same cycle although they share a slot ([`Problem::apart`]).
    fn apart(&self, op: OpId, t: i64, other: OpId) -> bool {
        self.start[other.0 as usize].is_some_and(|to| self.p.apart(op, t, other, to, self.ii))
    }

    fn unschedule(&mut self, op: OpId) {
        let Some(t) = self.start[op.0 as usize].take() else {
            return;
        };
        let slot = t.rem_euclid(self.ii as i64) as usize;
        let p = self.p;
        for (r, _) in p.limited_resources(op) {
            self.table[r][slot].retain(|&o| o != op);
        }
        self.pending.insert(self.rank[op.0 as usize]);
    }

    fn place(&mut self, op: OpId, t: i64) {
        let slot = t.rem_euclid(self.ii as i64) as usize;
        let p = self.p;
        // Make room: one occupant out of each full resource; of a
        // resource of limit 1, those that would meet `op`.
        for (r, limit) in p.limited_resources(op) {
            if limit == 1 {
                let meet: Vec<OpId> = (self.table[r][slot].iter().copied())
                    .filter(|&o| !self.apart(op, t, o))
                    .collect();
                for victim in meet {
                    self.unschedule(victim);
                }
                continue;
            }
            while self.table[r][slot].len() as u32 >= limit {
                let victim = self.table[r][slot][0];
                self.unschedule(victim);
            }
        }
        // Successors whose dependence the new time breaks.
        let broken: Vec<OpId> = self.succs[op.0 as usize]
            .iter()
            .filter(|&&(s, w)| s != op && self.start[s.0 as usize].is_some_and(|ts| ts < t + w))
            .map(|&(s, _)| s)
            .collect();
        for s in broken {
            self.unschedule(s);
        }
        self.start[op.0 as usize] = Some(t);
        self.pending.remove(&self.rank[op.0 as usize]);
        for (r, _) in p.limited_resources(op) {
            self.table[r][slot].push(op);
        }
    }
}

/// One attempt at `ii`; `keep_successors` bounds the free slots taken by
/// the latest start the scheduled successors allow.
fn schedule_at(p: &Problem, ii: u32, keep_successors: bool) -> Option<Vec<u32>> {
    let n = p.operations.len();
    let mut preds = vec![Vec::new(); n];
    let mut succs = vec![Vec::new(); n];
    for d in &p.dependences {
        let w = p.latency(d.src) as i64 - d.distance as i64 * ii as i64;
        if d.src != d.dst {
            preds[d.dst.0 as usize].push((d.src, w));
            succs[d.src.0 as usize].push((d.dst, w));
        }
    }
    let height = heights(p, ii);
    let mut order: Vec<OpId> = p.ops().collect();
    order.sort_by_key(|op| (std::cmp::Reverse(height[op.0 as usize]), op.0));
    let mut rank = vec![0; n];
    for (i, op) in order.iter().enumerate() {
        rank[op.0 as usize] = i;
    }
    let mut st = State {
        p,
        ii,
        start: vec![None; n],
        table: vec![vec![Vec::new(); ii as usize]; p.num_resource_slots()],
        preds,
        succs,
        rank,
        pending: (0..n).collect(),
    };
    let mut last_time: Vec<Option<i64>> = vec![None; n];
    let mut budget = BUDGET_PER_OP * n.max(1);
    while let Some(&next) = st.pending.first() {
        let op = order[next];
        if budget == 0 {
            return None;
        }
        budget -= 1;
        let estart = st.earliest(op);
        let mut end = estart + ii as i64;
        if keep_successors {
            if let Some(latest) = st.latest(op).filter(|&l| l >= estart) {
                end = end.min(latest + 1);
            }
        }
        let t = (estart..end).find(|&t| st.fits(op, t)).unwrap_or_else(|| {
            match last_time[op.0 as usize] {
                Some(prev) if prev >= estart => prev + 1,
                _ => estart,
            }
        });
        st.place(op, t);
        last_time[op.0 as usize] = Some(t);
    }
    Some(
        st.start
            .into_iter()
            .map(|t| t.unwrap_or(0) as u32)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::modulo_schedule;
    use crate::problem::{Problem, ProblemKind};

    #[test]
    fn a_load_and_its_store_on_a_recurrence_do_not_chase_each_other() {
        // nussinov's inner loop: loads a and b feed an addition (3
        // cycles), load c and the sum a comparison and select, the select
        // the store of c's element, which the next iteration's c reads;
        // latency-1 operations cut the paths too long for a cycle; one
        // port. The first attempt at II 4 chases c and the store through
        // the table (c's slot, then the store's, each breaking the other).
        let mut p = Problem::new(ProblemKind::ModuloProblem);
        let port = p.add_resource_type("port", 1);
        let (mem, add, wire, reg) = (
            p.add_operator_type("mem", 1),
            p.add_operator_type("fadd", 3),
            p.add_operator_type("wire", 0),
            p.add_operator_type("reg", 1),
        );
        let a = p.add_operation(mem, &[port]);
        let b = p.add_operation(mem, &[port]);
        let sum = p.add_operation(add, &[]);
        let c = p.add_operation(mem, &[port]);
        let cmp = p.add_operation(wire, &[]);
        let select = p.add_operation(wire, &[]);
        let store = p.add_operation(mem, &[port]);
        let cuts: Vec<_> = (0..5).map(|_| p.add_operation(reg, &[])).collect();
        for (s, d, distance) in [
            (a, sum, 0),
            (b, sum, 0),
            (c, cmp, 0),
            (sum, cmp, 0),
            (cmp, select, 0),
            (c, select, 0),
            (sum, select, 0),
            (select, store, 0),
            (a, store, 0),
            (b, store, 0),
            (c, store, 0),
            (c, store, 1),
            (store, c, 1),
            (a, cuts[0], 0),
            (cuts[0], sum, 0),
            (b, cuts[1], 0),
            (cuts[1], sum, 0),
            (sum, cuts[2], 0),
            (cuts[2], store, 0),
            (sum, cuts[3], 0),
            (cuts[3], cmp, 0),
            (c, cuts[4], 0),
            (cuts[4], store, 0),
        ] {
            p.add_dependence(s, d, distance);
        }
        let (times, ii) = modulo_schedule(&p, 4);
        assert_eq!(ii, 4);
        let s = crate::problem::Schedule {
            start_times: times,
            start_in_cycle: Vec::new(),
            ii: Some(ii),
        };
        assert!(p.verify(&s).is_ok());
    }

    #[test]
    fn two_accesses_of_one_port_that_run_in_some_iterations_share_its_slot_where_they_never_meet() {
        // A flattened row of 4 iterations: a load in each row's first
        // iteration, a store (a cycle after it at the least) in its last:
        // both run in one cycle where the load's iteration is one after
        // the store's, modulo 4.
        let mut p = Problem::new(ProblemKind::ModuloProblem);
        let port = p.add_resource_type("port", 1);
        let mem = p.add_operator_type("mem", 1);
        let load = p.add_operation(mem, &[port]);
        let store = p.add_operation(mem, &[port]);
        p.add_dependence(load, store, 0);
        assert_eq!(crate::graph::res_mii(&p), 2);
        p.add_slot_share(load, store, vec![-7, -3, 1, 5], 8);
        assert_eq!(crate::graph::res_mii(&p), 1);
        let (times, ii) = modulo_schedule(&p, 1);
        // At one cycle apart they would meet: the store waits one more.
        assert_eq!((ii, times[1] - times[0]), (1, 2));
        let schedule = |times: Vec<u32>| crate::problem::Schedule {
            start_times: times,
            start_in_cycle: Vec::new(),
            ii: Some(1),
        };
        assert!(p.verify(&schedule(times)).is_ok());
        let meeting = p.verify(&schedule(vec![0, 1])).unwrap_err();
        assert!(meeting.message.contains("oversubscribed"), "{meeting}");
    }
}
