//! Operator chaining to a target cycle time, for acyclic and cyclic
//! problems. Combinational paths (through zero-latency operations, within
//! one iteration) whose delay exceeds the cycle time give
//! *chain-breaking* constraints: the path's last operation starts at least
//! one cycle after its first one finishes. Start times are then the
//! longest paths over the dependences (at the smallest feasible II for
//! cyclic problems) and those constraints, which minimises each one, and
//! start times within the cycle come from a timing pass over each cycle.

use crate::graph::topo_order;
use crate::longest::earliest;
use crate::problem::{OpId, Problem, ProblemError};

/// Delays are compared with this tolerance.
const EPS: f64 = 1e-9;

/// A chained schedule: start times, start times within their cycle, and
/// the II for cyclic problems.
pub struct Chained {
    pub start_times: Vec<u32>,
    pub start_in_cycle: Vec<f64>,
    pub ii: Option<u32>,
}

/// Schedules a checked chaining problem (delays exist) to `cycle_time`;
/// cyclic problems get the smallest II from `min_ii` on.
pub fn chain(p: &Problem, cycle_time: f64, min_ii: u32) -> Result<Chained, ProblemError> {
    for op in p.ops() {
        let (inc, out) = delays(p, op);
        if inc > cycle_time + EPS || out > cycle_time + EPS {
            let name = p.operator_type(op).map_or("", |t| t.name.as_str());
            return Err(ProblemError::at(
                op,
                format!(
                    "Delays of operator type '{name}' exceed maximum cycle time ({cycle_time}), used by {}",
                    p.describe(op)
                ),
            ));
        }
    }
    let mut edges: Vec<(usize, usize, i64, u32)> = p
        .dependences
        .iter()
        .map(|d| {
            let lat = i64::from(p.latency(d.src));
            (d.src.0 as usize, d.dst.0 as usize, lat, d.distance)
        })
        .collect();
    edges.extend(chain_breaking(p, cycle_time));
    let cyclic = p.kind.is_cyclic();
    let start_times = if cyclic {
        // At an II of the total edge weight every cycle (which has a
        // distance) fits.
        let total: i64 = edges.iter().map(|e| e.2.max(0)).sum::<i64>() + 1;
        let max_ii = u32::try_from(total).unwrap_or(u32::MAX);
        (min_ii.max(1)..=max_ii).find_map(|ii| longest_paths(p, &edges, ii).map(|t| (t, ii)))
    } else {
        longest_paths(p, &edges, 0).map(|t| (t, 0))
    };
    let Some((start_times, ii)) = start_times else {
        return Err(ProblemError::new(
            "problem is infeasible: no initiation interval satisfies the chained dependences",
        ));
    };
    let start_in_cycle = times_in_cycle(p, &start_times);
    Ok(Chained {
        start_times,
        start_in_cycle,
        ii: cyclic.then_some(ii),
    })
}

/// The pairs `(src, dst)` of operations joined by a combinational path
/// longer than `cycle_time`: `dst` must start at least a cycle after
/// `src` finishes. Schedulers without chaining (list, modulo) honour them
/// when each pair is given a latency-1 operation between its ends.
pub fn chain_breaks(p: &Problem, cycle_time: f64) -> Vec<(OpId, OpId)> {
    chain_breaking(p, cycle_time)
        .into_iter()
        .map(|(s, d, _, _)| (OpId(s as u32), OpId(d as u32)))
        .collect()
}

/// Incoming and outgoing delay of `op`'s operator type.
fn delays(p: &Problem, op: OpId) -> (f64, f64) {
    let t = p.operator_type(op);
    let inc = t.and_then(|t| t.incoming_delay).unwrap_or(0.0);
    let out = t.and_then(|t| t.outgoing_delay).unwrap_or(0.0);
    (inc, out)
}

/// Edges `(src, dst, min distance in cycles, 0)` for every combinational
/// path `src -> ... -> dst` that does not fit in one cycle: `dst` starts
/// at least a cycle after `src` finishes.
fn chain_breaking(p: &Problem, cycle_time: f64) -> Vec<(usize, usize, i64, u32)> {
    let n = p.operations.len();
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for d in p.dependences.iter().filter(|d| d.distance == 0) {
        succs[d.src.0 as usize].push(d.dst.0 as usize);
    }
    let mut out = Vec::new();
    // Longest delay accumulated from the source to each operation's input.
    let mut best = vec![f64::NEG_INFINITY; n];
    let mut broken = vec![false; n];
    let mut stack = Vec::new();
    for src in p.ops() {
        let s = src.0 as usize;
        let (inc, outd) = delays(p, src);
        // A zero-latency source's whole delay is in the chain; a
        // multi-cycle one contributes what follows its last register.
        let start = if p.latency(src) == 0 { inc } else { outd };
        best.iter_mut().for_each(|b| *b = f64::NEG_INFINITY);
        broken.iter_mut().for_each(|b| *b = false);
        stack.clear();
        stack.extend(succs[s].iter().map(|&v| (v, start)));
        while let Some((v, acc)) = stack.pop() {
            if broken[v] || acc <= best[v] + EPS {
                continue;
            }
            best[v] = acc;
            let (inc_v, _) = delays(p, OpId(v as u32));
            if acc + inc_v > cycle_time + EPS {
                broken[v] = true;
                out.push((s, v, i64::from(p.latency(src)) + 1, 0));
                continue;
            }
            if p.latency(OpId(v as u32)) == 0 {
                stack.extend(succs[v].iter().map(|&w| (w, acc + inc_v)));
            }
        }
    }
    out
}

/// Earliest start times over `edges` (weight minus distance times `ii`),
/// or `None` when a cycle is too long at this II.
fn longest_paths(p: &Problem, edges: &[(usize, usize, i64, u32)], ii: u32) -> Option<Vec<u32>> {
    let edges: Vec<(usize, usize, i64)> = edges
        .iter()
        .map(|&(s, d, w, dist)| (s, d, w - i64::from(dist) * i64::from(ii)))
        .collect();
    let t = earliest(p.operations.len(), &edges)?;
    Some(t.into_iter().map(|v| v as u32).collect())
}

/// Each operation's start within its cycle: the latest arrival of an input
/// produced combinationally in the same cycle (0 when all come from
/// registers).
fn times_in_cycle(p: &Problem, start: &[u32]) -> Vec<f64> {
    let n = p.operations.len();
    let edges: Vec<(OpId, OpId)> = p
        .dependences
        .iter()
        .filter(|d| d.distance == 0)
        .map(|d| (d.src, d.dst))
        .collect();
    let mut preds: Vec<Vec<OpId>> = vec![Vec::new(); n];
    for &(s, d) in &edges {
        preds[d.0 as usize].push(s);
    }
    let mut z = vec![0.0f64; n];
    for op in topo_order(n, &edges) {
        let i = op.0 as usize;
        z[i] = preds[i]
            .iter()
            .filter(|&&q| start[q.0 as usize] + p.latency(q) == start[i])
            .map(|&q| {
                let (_, out) = delays(p, q);
                if p.latency(q) == 0 {
                    z[q.0 as usize] + out
                } else {
                    out
                }
            })
            .fold(0.0, f64::max);
    }
    z
}
