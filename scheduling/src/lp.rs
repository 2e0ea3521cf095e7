//! Mathematical-programming schedulers through `good_lp`: the pure-Rust
//! `microlp` backend by default, CBC with the `cbc` cargo feature (needs
//! `coinor-libcbc-dev`):
//!
//! - SDC: start times under difference constraints `t_j - t_i >= c` form a
//!   totally unimodular system, so the LP optimum is integral. Objectives:
//!   latency, or register pressure (sum of value lifetimes) at the
//!   optimal latency.
//! - ILP: a time-indexed formulation (one binary per operation and start
//!   step) for resource limits per step or modulo an II, minimising
//!   latency; the heuristic schedule bounds the horizon and warm-starts
//!   the search, so the ILP is never worse than the heuristic.

use crate::graph::earliest_starts;
use crate::problem::Problem;
use good_lp::solvers::SolutionStatus;
#[cfg(not(feature = "cbc"))]
use good_lp::solvers::{WithInitialSolution, WithTimeLimit};
use good_lp::{
    constraint, variable, Expression, ProblemVariables, Solution, SolverModel, Variable,
};

#[cfg(feature = "cbc")]
use good_lp::coin_cbc as backend;
#[cfg(not(feature = "cbc"))]
use good_lp::microlp as backend;

/// What an SDC schedule minimises.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Objective {
    /// Latency, then the sum of start times (as early as possible).
    #[default]
    Latency,
    /// The sum of value lifetimes (from a producer's start to its last
    /// consumer's start), at the optimal latency.
    RegisterPressure,
}

fn round(v: f64) -> u32 {
    v.round().max(0.0) as u32
}

/// SDC schedule at initiation interval `ii` (0 for acyclic problems), or
/// `None` if the difference constraints are infeasible.
pub fn sdc_schedule(p: &Problem, ii: u32, objective: Objective) -> Option<Vec<u32>> {
    let asap = earliest_starts(p, ii)?;
    let latency = p
        .ops()
        .map(|op| asap[op.0 as usize] + p.latency(op) as i64)
        .max()
        .unwrap_or(0);
    let n = p.operations.len();
    let mut vars = ProblemVariables::new();
    let t: Vec<Variable> = (0..n).map(|_| vars.add(variable().min(0))).collect();
    // Latency: `end` after every operation. Register pressure: per
    // producer, a "last use" after each of its consumers.
    let mut end = None;
    let mut last_uses: Vec<(usize, Variable)> = Vec::new();
    let objective_expr: Expression = match objective {
        Objective::Latency => {
            let v = vars.add(variable().min(0));
            end = Some(v);
            let weight = (n + 1) as f64;
            t.iter().fold(Expression::from(v) * weight, |e, &x| e + x)
        }
        Objective::RegisterPressure => {
            let mut e = Expression::from(0.0);
            for op in p.ops() {
                if p.dependences.iter().any(|d| d.src == op) {
                    let last = vars.add(variable().min(0));
                    last_uses.push((op.0 as usize, last));
                    e += last - t[op.0 as usize];
                }
            }
            e
        }
    };
    let mut model = vars.minimise(objective_expr).using(backend);
    for d in &p.dependences {
        let c = p.latency(d.src) as f64 - d.distance as f64 * ii as f64;
        model.add_constraint(constraint!(t[d.dst.0 as usize] - t[d.src.0 as usize] >= c));
    }
    if let Some(end) = end {
        for op in p.ops() {
            let lat = p.latency(op) as f64;
            model.add_constraint(constraint!(end - t[op.0 as usize] >= lat));
        }
    }
    for &(producer, last) in &last_uses {
        for d in p
            .dependences
            .iter()
            .filter(|d| d.src.0 as usize == producer)
        {
            model.add_constraint(constraint!(last - t[d.dst.0 as usize] >= 0));
        }
    }
    if objective == Objective::RegisterPressure {
        for op in p.ops() {
            let bound = (latency - p.latency(op) as i64) as f64;
            model.add_constraint(constraint!(t[op.0 as usize] <= bound));
        }
    }
    let solution = model.solve().ok()?;
    Some(t.iter().map(|&v| round(solution.value(v))).collect())
}

/// Bounds the solver's search time. Not with CBC: Debian's CBC 2.10
/// returns the LP relaxation's fractional point once a parameter or a
/// starting solution is set through its C interface.
#[cfg(not(feature = "cbc"))]
fn with_time_limit<M: WithTimeLimit>(model: M, seconds: f64) -> M {
    model.with_time_limit(seconds)
}

#[cfg(feature = "cbc")]
fn with_time_limit<M>(model: M, _seconds: f64) -> M {
    model
}

/// Warm-starts the solver (not CBC, as for the time limit).
#[cfg(not(feature = "cbc"))]
fn with_initial_solution<M: WithInitialSolution>(model: M, initial: Vec<(Variable, f64)>) -> M {
    model.with_initial_solution(initial)
}

#[cfg(feature = "cbc")]
fn with_initial_solution<M>(model: M, _initial: Vec<(Variable, f64)>) -> M {
    model
}

/// The outcome of an ILP run.
pub struct IlpOutcome {
    pub start_times: Vec<u32>,
    /// Whether the solver proved optimality (else it hit the time limit).
    pub optimal: bool,
}

/// Exact schedule under resource limits per time step (`ii == None`) or
/// modulo `ii`, minimising latency, with every start time below
/// `horizon`. `hint` is a feasible schedule within the horizon (the
/// heuristic's), used as a warm start. `None` when infeasible (or when
/// the time limit passed without a solution).
pub fn ilp_schedule(
    p: &Problem,
    ii: Option<u32>,
    horizon: u32,
    hint: Option<&[u32]>,
    time_limit_s: f64,
) -> Option<IlpOutcome> {
    let asap = earliest_starts(p, ii.unwrap_or(0))?;
    let n = p.operations.len();
    let mut vars = ProblemVariables::new();
    // x[i] = (first step, binaries for first..horizon-latency).
    let mut x: Vec<(u32, Vec<Variable>)> = Vec::with_capacity(n);
    for op in p.ops() {
        let first = asap[op.0 as usize].max(0) as u32;
        let last = horizon.saturating_sub(p.latency(op)).max(first);
        let vs = (first..=last)
            .map(|_| vars.add(variable().binary()))
            .collect();
        x.push((first, vs));
    }
    let end = vars.add(variable().min(0));
    let start_expr = |i: usize| -> Expression {
        let (first, vs) = &x[i];
        vs.iter()
            .enumerate()
            .fold(Expression::from(0.0), |e, (k, &v)| {
                e + v * (first + k as u32) as f64
            })
    };
    let mut model = with_time_limit(vars.minimise(end).using(backend), time_limit_s);
    if let Some(hint) = hint {
        let mut initial: Vec<(Variable, f64)> = Vec::new();
        for (i, (first, vs)) in x.iter().enumerate() {
            for (k, &v) in vs.iter().enumerate() {
                let on = hint[i] == first + k as u32;
                initial.push((v, if on { 1.0 } else { 0.0 }));
            }
        }
        initial.push((end, p.finish_time(hint) as f64));
        model = with_initial_solution(model, initial);
    }
    for (i, (_, vs)) in x.iter().enumerate() {
        let sum = vs.iter().fold(Expression::from(0.0), |e, &v| e + v);
        model.add_constraint(constraint!(sum == 1));
        let lat = p.latency(crate::problem::OpId(i as u32)) as f64;
        model.add_constraint(constraint!(end - start_expr(i) >= lat));
    }
    for d in &p.dependences {
        let c = p.latency(d.src) as f64 - d.distance as f64 * ii.unwrap_or(0) as f64;
        let (s, t) = (d.src.0 as usize, d.dst.0 as usize);
        model.add_constraint(constraint!(start_expr(t) - start_expr(s) >= c));
    }
    // Resource rows: one per (resource, step or congruence class).
    let mut rows: std::collections::HashMap<(usize, u32), (Expression, u32)> = Default::default();
    for op in p.ops() {
        let (first, vs) = &x[op.0 as usize];
        for (r, limit) in p.limited_resources(op) {
            for (k, &v) in vs.iter().enumerate() {
                let step = first + k as u32;
                let slot = ii.map_or(step, |ii| step % ii);
                let row = rows
                    .entry((r, slot))
                    .or_insert_with(|| (Expression::from(0.0), limit));
                row.0 += v;
            }
        }
    }
    for (_, (expr, limit)) in rows {
        model.add_constraint(constraint!(expr <= limit as f64));
    }
    let solution = model.solve().ok()?;
    let optimal = matches!(solution.status(), SolutionStatus::Optimal);
    // A solver that returned a fractional point did not solve the ILP.
    let integral = x
        .iter()
        .flat_map(|(_, vs)| vs)
        .all(|&v| (solution.value(v) - solution.value(v).round()).abs() < 1e-6);
    if !integral {
        return None;
    }
    let start_times = (0..n)
        .map(|i| {
            let (first, vs) = &x[i];
            let k = vs
                .iter()
                .position(|&v| solution.value(v) > 0.5)
                .unwrap_or(0);
            first + k as u32
        })
        .collect();
    Some(IlpOutcome {
        start_times,
        optimal,
    })
}
