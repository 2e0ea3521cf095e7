//! Static scheduling in the model of CIRCT's scheduling infrastructure:
//! problems (`problem`), their checks and schedule verification (`check`),
//! lower bounds (`graph`: ResMII, RecMII; `slots`: where recurrences
//! hold resource users in one slot), longest paths by Bellman–Ford
//! (`longest`) and schedulers: ASAP, list scheduling (`list`), SDC and
//! ILP through `good_lp` (`lp`), iterative modulo scheduling (`modulo`)
//! and chaining to a cycle time (`chaining`).
//! [`schedule`] picks the algorithm for a problem kind and reports the
//! bounds, the II and latency reached and whether they are proven optimal.
//! [`ssp`] is CIRCT's textual form of problems and schedules.

mod chaining;
mod check;
mod graph;
mod list;
mod longest;
mod lp;
mod modulo;
mod problem;
mod random;
mod slots;
pub mod ssp;

pub use chaining::chain_breaks;
pub use graph::{rec_mii, res_mii};
pub use list::list_schedule;
pub use lp::{ilp_schedule, sdc_schedule, IlpOutcome, Objective};
pub use modulo::modulo_schedule;
pub use problem::{
    Dependence, OpId, Operation, OperatorType, OperatorTypeId, Problem, ProblemError, ProblemKind,
    ResourceType, ResourceTypeId, Schedule, SlotShare,
};
pub use random::{random_problem, RandomShape};
pub use slots::{slot_conflict, slot_mii};

/// The scheduling algorithms.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Algorithm {
    /// As soon as possible (longest paths); no resource limits.
    Asap,
    /// Resource-constrained list scheduling.
    List,
    /// System of difference constraints, as an LP.
    Sdc,
    /// Exact integer linear program.
    Ilp,
    /// Iterative modulo scheduling.
    Modulo,
}

impl Algorithm {
    /// The algorithm's name: `asap`, `list`, `sdc`, `ilp` or `modulo`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Asap => "asap",
            Algorithm::List => "list",
            Algorithm::Sdc => "sdc",
            Algorithm::Ilp => "ilp",
            Algorithm::Modulo => "modulo",
        }
    }
}

/// Scheduler options.
#[derive(Clone, Debug)]
pub struct Options {
    pub algorithm: Algorithm,
    /// Target cycle time for chaining problems.
    pub cycle_time: Option<f64>,
    /// What SDC minimises.
    pub objective: Objective,
    /// Seconds the ILP may search.
    pub ilp_time_limit_s: f64,
}

impl Options {
    /// Defaults for `algorithm`.
    pub fn new(algorithm: Algorithm) -> Self {
        Options {
            algorithm,
            cycle_time: None,
            objective: Objective::Latency,
            ilp_time_limit_s: 10.0,
        }
    }
}

/// A verified schedule with its bounds.
#[derive(Clone, Debug)]
pub struct Solution {
    pub schedule: Schedule,
    /// Resource-constrained minimum II (1 without limits).
    pub res_mii: u32,
    /// Recurrence-constrained minimum II (1 without cycles).
    pub rec_mii: u32,
    /// When the last operation finishes.
    pub latency: u32,
    /// Whether the II (cyclic problems) or the latency (acyclic ones) is
    /// proven optimal.
    pub optimal: bool,
}

/// Checks `p`, schedules it with `opts.algorithm` and verifies the result.
pub fn schedule(p: &Problem, opts: &Options) -> Result<Solution, ProblemError> {
    p.check()?;
    let kind = p.kind;
    let res = if kind.has_resources() { res_mii(p) } else { 1 };
    let rec = if kind.is_cyclic() { rec_mii(p) } else { 1 };
    let mii = res.max(rec);
    let unsupported = || {
        ProblemError::new(format!(
            "the {} scheduler does not solve a {kind}; use {}",
            opts.algorithm.name(),
            supported(kind)
        ))
    };
    let (schedule, optimal) = if kind.has_chaining() {
        let cycle_time = opts.cycle_time.ok_or_else(|| {
            ProblemError::new(format!("a {kind} needs a cycle time (--cycle-time)"))
        })?;
        if matches!(opts.algorithm, Algorithm::Ilp | Algorithm::List) {
            return Err(unsupported());
        }
        let chained = chaining::chain(p, cycle_time, rec)?;
        // Start times are as early as the chained dependences allow, so
        // the latency is optimal for the II found.
        let optimal = chained.ii.is_none_or(|ii| ii == rec);
        (
            Schedule {
                start_times: chained.start_times,
                start_in_cycle: chained.start_in_cycle,
                ii: chained.ii,
            },
            optimal,
        )
    } else {
        match (opts.algorithm, kind) {
            (
                Algorithm::Asap | Algorithm::Sdc,
                ProblemKind::Problem | ProblemKind::CyclicProblem,
            ) => {
                let ii = if kind.is_cyclic() { rec } else { 0 };
                let start_times = if opts.algorithm == Algorithm::Asap {
                    graph::earliest_starts(p, ii).map(|t| t.into_iter().map(|v| v as u32).collect())
                } else {
                    sdc_schedule(p, ii, opts.objective)
                };
                let start_times =
                    start_times.ok_or_else(|| ProblemError::new("no schedule exists"))?;
                let schedule = Schedule {
                    start_times,
                    start_in_cycle: Vec::new(),
                    ii: kind.is_cyclic().then_some(ii),
                };
                (schedule, opts.objective == Objective::Latency)
            }
            (Algorithm::List, ProblemKind::Problem | ProblemKind::SharedOperatorsProblem) => {
                let start_times = list_schedule(p);
                let s = Schedule {
                    start_times,
                    ..Schedule::default()
                };
                let optimal = p.schedule_latency(&s) == critical_path(p);
                (s, optimal)
            }
            (Algorithm::Modulo, ProblemKind::CyclicProblem | ProblemKind::ModuloProblem) => {
                let (start_times, ii) = modulo_schedule(p, mii);
                let s = Schedule {
                    start_times,
                    start_in_cycle: Vec::new(),
                    ii: Some(ii),
                };
                (s, ii == mii)
            }
            (Algorithm::Ilp, ProblemKind::SharedOperatorsProblem | ProblemKind::Problem) => {
                let heuristic = list_schedule(p);
                let horizon = p.finish_time(&heuristic);
                let out = ilp_schedule(p, None, horizon, Some(&heuristic), opts.ilp_time_limit_s)
                    .ok_or_else(|| ProblemError::new("the ILP found no schedule"))?;
                let s = Schedule {
                    start_times: out.start_times,
                    ..Schedule::default()
                };
                (s, out.optimal)
            }
            (Algorithm::Ilp, ProblemKind::ModuloProblem | ProblemKind::CyclicProblem) => {
                ilp_modulo(p, mii, opts.ilp_time_limit_s)?
            }
            _ => return Err(unsupported()),
        }
    };
    p.verify(&schedule)?;
    Ok(Solution {
        latency: p.schedule_latency(&schedule),
        schedule,
        res_mii: res,
        rec_mii: rec,
        optimal,
    })
}

/// Which algorithms solve `kind`, for messages.
fn supported(kind: ProblemKind) -> &'static str {
    match kind {
        ProblemKind::Problem => "asap, sdc, list or ilp",
        ProblemKind::CyclicProblem => "asap, sdc, modulo or ilp",
        ProblemKind::SharedOperatorsProblem => "list or ilp",
        ProblemKind::ModuloProblem => "modulo or ilp",
        ProblemKind::ChainingProblem | ProblemKind::ChainingCyclicProblem => "asap or sdc",
    }
}

/// The latency lower bound without resource limits.
fn critical_path(p: &Problem) -> u32 {
    graph::earliest_starts(p, 0).map_or(0, |t| {
        p.ops()
            .map(|op| t[op.0 as usize] as u32 + p.latency(op))
            .max()
            .unwrap_or(0)
    })
}

/// Modulo scheduling by ILP: the heuristic fixes an upper bound on II;
/// each smaller II from the lower bound up is tried exactly (within a
/// bounded horizon), improving on the heuristic where one is feasible.
/// The II is proven optimal when it equals the lower bound.
fn ilp_modulo(p: &Problem, mii: u32, time_limit_s: f64) -> Result<(Schedule, bool), ProblemError> {
    let (heuristic, heuristic_ii) = modulo_schedule(p, mii);
    for ii in mii..heuristic_ii {
        let horizon = horizon_for(p, ii, &heuristic);
        if let Some(out) = ilp_schedule(p, Some(ii), horizon, None, time_limit_s) {
            let s = Schedule {
                start_times: out.start_times,
                start_in_cycle: Vec::new(),
                ii: Some(ii),
            };
            if p.verify(&s).is_ok() {
                return Ok((s, ii == mii));
            }
        }
    }
    let horizon = horizon_for(p, heuristic_ii, &heuristic);
    let out = ilp_schedule(
        p,
        Some(heuristic_ii),
        horizon,
        Some(&heuristic),
        time_limit_s,
    );
    let start_times = out.map_or(heuristic, |o| o.start_times);
    let s = Schedule {
        start_times,
        start_in_cycle: Vec::new(),
        ii: Some(heuristic_ii),
    };
    Ok((s, heuristic_ii == mii))
}

/// A start-time horizon for the modulo ILP at `ii`: room for the
/// heuristic's schedule plus one II of slack per operation.
fn horizon_for(p: &Problem, ii: u32, heuristic: &[u32]) -> u32 {
    p.finish_time(heuristic) + ii * 2
}
