//! Resource-constrained list scheduling for acyclic problems: time steps
//! in order, ready operations by decreasing height (longest latency path
//! to a sink), each placed when its resources have a free unit.

use crate::problem::{OpId, Problem};

/// Heights: the longest latency path from each operation to a sink, over
/// dependences weighted `latency(src) - distance * ii`.
pub(crate) fn heights(p: &Problem, ii: u32) -> Vec<i64> {
    let n = p.operations.len();
    let mut h: Vec<i64> = p.ops().map(|op| p.latency(op) as i64).collect();
    for _ in 0..=n {
        let mut changed = false;
        for d in &p.dependences {
            let (s, t) = (d.src.0 as usize, d.dst.0 as usize);
            let via = h[t] + p.latency(d.src) as i64 - d.distance as i64 * ii as i64;
            if via > h[s] {
                h[s] = via;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    h
}

/// Start times of a list schedule (the problem must be checked and
/// acyclic, with positive limits).
pub fn list_schedule(p: &Problem) -> Vec<u32> {
    let n = p.operations.len();
    let height = heights(p, 0);
    let mut preds: Vec<Vec<OpId>> = vec![Vec::new(); n];
    for d in &p.dependences {
        preds[d.dst.0 as usize].push(d.src);
    }
    let mut start: Vec<Option<u32>> = vec![None; n];
    let mut order: Vec<OpId> = p.ops().collect();
    order.sort_by_key(|op| (std::cmp::Reverse(height[op.0 as usize]), op.0));
    let mut used: std::collections::HashMap<(usize, u32), u32> = Default::default();
    let mut left = n;
    let mut t = 0u32;
    while left > 0 {
        for &op in &order {
            if start[op.0 as usize].is_some() {
                continue;
            }
            let ready = preds[op.0 as usize]
                .iter()
                .all(|&q| start[q.0 as usize].is_some_and(|s| s + p.latency(q) <= t));
            let free = p
                .limited_resources(op)
                .all(|(r, limit)| used.get(&(r, t)).copied().unwrap_or(0) < limit);
            if ready && free {
                for (r, _) in p.limited_resources(op) {
                    *used.entry((r, t)).or_insert(0) += 1;
                }
                start[op.0 as usize] = Some(t);
                left -= 1;
            }
        }
        t += 1;
    }
    start.into_iter().map(|s| s.unwrap_or(0)).collect()
}
