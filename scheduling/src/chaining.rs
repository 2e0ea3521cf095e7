//! Operator chaining to a target cycle time: in topological order of the
//! intra-iteration dependences, each operation starts in the first cycle
//! where its inputs are ready and, when combinational inputs arrive in
//! that same cycle, where the chained delay still fits the cycle time;
//! otherwise it waits for the next cycle (its inputs then come from
//! registers).

use crate::graph::topo_order;
use crate::problem::{OpId, Problem, ProblemError};

/// Start times and start times within the cycle for a chaining problem
/// (checked, so delays exist), ignoring distance dependences; the caller
/// derives the II those need.
pub fn chain(p: &Problem, cycle_time: f64) -> Result<(Vec<u32>, Vec<f64>), ProblemError> {
    let n = p.operations.len();
    let delays = |op: OpId| {
        let t = p.operator_type(op);
        let inc = t.and_then(|t| t.incoming_delay).unwrap_or(0.0);
        let out = t.and_then(|t| t.outgoing_delay).unwrap_or(0.0);
        (inc, out)
    };
    for op in p.ops() {
        let (inc, out) = delays(op);
        if inc > cycle_time || out > cycle_time {
            return Err(ProblemError::at(
                op,
                format!(
                    "{} has a delay longer than the cycle time {cycle_time}",
                    p.describe(op)
                ),
            ));
        }
    }
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
    let mut start = vec![0u32; n];
    let mut in_cycle = vec![0.0f64; n];
    for op in topo_order(n, &edges) {
        let i = op.0 as usize;
        let mut t = preds[i]
            .iter()
            .map(|&q| start[q.0 as usize] + p.latency(q))
            .max()
            .unwrap_or(0);
        // Latest arrival of a value produced in cycle `t`.
        let arrival = preds[i]
            .iter()
            .filter(|&&q| start[q.0 as usize] + p.latency(q) == t)
            .map(|&q| {
                let (_, out) = delays(q);
                if p.latency(q) == 0 {
                    in_cycle[q.0 as usize] + out
                } else {
                    out
                }
            })
            .fold(0.0, f64::max);
        let (inc, _) = delays(op);
        let z = if arrival + inc <= cycle_time + 1e-9 {
            arrival
        } else {
            t += 1;
            0.0
        };
        start[i] = t;
        in_cycle[i] = z;
    }
    Ok((start, in_cycle))
}
