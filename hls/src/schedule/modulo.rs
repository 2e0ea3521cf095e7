//! Modulo scheduling of a pipelined loop body: the body's nodes, the
//! memory dependences carried across iterations (with their distances),
//! and one latency-1 operation per carried value (the register that
//! holds it between iterations: the value's definition feeds it, and it
//! feeds the next iteration's users at distance 1). The library's
//! iterative modulo scheduler finds the smallest feasible II from
//! max(ResMII, RecMII).

use super::problem::ProblemBuilder;
use super::Schedules;
use crate::analysis::deps::MemDep;
use crate::kernel::{Kernel, LoopId, Val};
use crate::library::Library;
use silica_scheduling::{schedule, Algorithm, Options};

/// The modulo schedule of one pipelined loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipeSchedule {
    pub ii: u32,
    pub res_mii: u32,
    pub rec_mii: u32,
    /// Cycles from an iteration's start to its last action.
    pub depth: u32,
    /// The step at which each carried value's register is written (`None`
    /// when the body yields the value unchanged).
    pub carry: Vec<Option<u32>>,
    /// Whether the II equals its lower bound.
    pub optimal: bool,
}

/// Modulo-schedules the body of loop `l`, recording node start times.
pub fn schedule_loop(
    k: &Kernel,
    l: LoopId,
    lib: &Library,
    clock_ns: f64,
    s: &mut Schedules,
    memory_deps: &[MemDep],
) -> Result<PipeSchedule, String> {
    let lp = &k.loops[l];
    let nodes = super::body_nodes(k, l);
    let mut pb = ProblemBuilder::new(k, lib, clock_ns, true);
    for &n in &nodes {
        pb.add_node(n)?;
    }
    pb.add_value_and_memory_order(&nodes);
    for d in memory_deps {
        let (Some(&a), Some(&b)) = (pb.op_of.get(&d.src), pb.op_of.get(&d.dst)) else {
            continue;
        };
        pb.depend(a, b, d.distance);
    }
    let mut carry_ops = Vec::new();
    for (i, &y) in lp.yields.iter().enumerate() {
        match y {
            Val::Carried(cl, j) if cl == l && j == i => {
                carry_ops.push(None);
                continue;
            }
            Val::Carried(cl, _) if cl == l => {
                return Err("a carried value is yielded as another carried value".into());
            }
            _ => {}
        }
        let reg = pb.add_extra(1);
        if let Val::Node(n) = y {
            if let Some(&def) = pb.op_of.get(&n) {
                pb.depend(def, reg, 0);
            }
        }
        for &u in &nodes {
            if k.nodes[u].args.contains(&Val::Carried(l, i)) {
                let user = pb.op_of[&u];
                pb.depend(reg, user, 1);
            }
        }
        carry_ops.push(Some(reg));
    }
    if pb.problem().operations.is_empty() {
        return Ok(PipeSchedule {
            ii: 1,
            res_mii: 1,
            rec_mii: 1,
            depth: 1,
            carry: carry_ops.iter().map(|_| None).collect(),
            optimal: true,
        });
    }
    pb.break_long_chains();
    let sol = schedule(pb.problem(), &Options::new(Algorithm::Modulo)).map_err(|e| e.message)?;
    let times = &sol.schedule.start_times;
    let mut depth = 1;
    for &n in &nodes {
        let i = pb.op_of[&n].0 as usize;
        s.start[n] = times[i];
        s.latency[n] = pb.latency_of(i);
        depth = depth.max(times[i] + 1);
    }
    let carry: Vec<Option<u32>> = carry_ops
        .iter()
        .map(|o| o.map(|op| times[op.0 as usize]))
        .collect();
    for t in carry.iter().flatten() {
        depth = depth.max(t + 1);
    }
    Ok(PipeSchedule {
        ii: sol.schedule.ii.unwrap_or(1),
        res_mii: sol.res_mii,
        rec_mii: sol.rec_mii,
        depth,
        carry,
        optimal: sol.optimal,
    })
}
