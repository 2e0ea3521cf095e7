//! Iterative modulo scheduling (Rau, 1994): for II from max(ResMII,
//! RecMII) up, place operations by decreasing height into a modulo
//! reservation table, evicting those in the way when no slot in
//! `[Estart, Estart + II)` is free, within a budget of placements.

use crate::list::heights;
use crate::problem::{OpId, Problem};

/// Placements allowed per operation before giving up on an II.
const BUDGET_PER_OP: usize = 6;

/// Start times of a modulo schedule at the smallest II from `min_ii` for
/// which iterative modulo scheduling succeeds, with that II. The problem
/// must be checked, with positive limits.
pub fn modulo_schedule(p: &Problem, min_ii: u32) -> (Vec<u32>, u32) {
    let mut ii = min_ii.max(1);
    loop {
        if let Some(times) = schedule_at(p, ii) {
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
}

impl State<'_> {
    fn earliest(&self, op: OpId) -> i64 {
        self.preds[op.0 as usize]
            .iter()
            .filter_map(|&(q, w)| Some(self.start[q.0 as usize]? + w))
            .fold(0, i64::max)
    }

    fn fits(&self, op: OpId, t: i64) -> bool {
        let slot = t.rem_euclid(self.ii as i64) as usize;
        self.p
            .limited_resources(op)
            .all(|(r, limit)| (self.table[r][slot].len() as u32) < limit)
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
    }

    fn place(&mut self, op: OpId, t: i64) {
        let slot = t.rem_euclid(self.ii as i64) as usize;
        let p = self.p;
        // Make room: one occupant out of each full resource.
        for (r, limit) in p.limited_resources(op) {
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
        for (r, _) in p.limited_resources(op) {
            self.table[r][slot].push(op);
        }
    }
}

/// One attempt at `ii`.
fn schedule_at(p: &Problem, ii: u32) -> Option<Vec<u32>> {
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
    let mut st = State {
        p,
        ii,
        start: vec![None; n],
        table: vec![vec![Vec::new(); ii as usize]; p.num_resource_slots()],
        preds,
        succs,
    };
    let mut last_time: Vec<Option<i64>> = vec![None; n];
    let mut budget = BUDGET_PER_OP * n.max(1);
    while let Some(&op) = order.iter().find(|op| st.start[op.0 as usize].is_none()) {
        if budget == 0 {
            return None;
        }
        budget -= 1;
        let estart = st.earliest(op);
        let t = (estart..estart + ii as i64)
            .find(|&t| st.fits(op, t))
            .unwrap_or_else(|| match last_time[op.0 as usize] {
                Some(prev) if prev >= estart => prev + 1,
                _ => estart,
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
