//! Input checks (is the problem well formed and solvable?) and schedule
//! verification (does a schedule meet every constraint of the problem's
//! kind?), with CIRCT's messages where CIRCT has one, naming the
//! operations involved.

use crate::graph::find_cycle;
use crate::problem::{OpId, Problem, ProblemError, ProblemKind, Schedule};

/// Chaining delays are compared with this tolerance.
const EPS: f64 = 1e-9;

impl Problem {
    /// Checks that the problem is well formed for its kind: operator
    /// types are linked and have latencies (and delays, for chaining),
    /// dependences name operations, cycles carry a distance (and do not
    /// exist at all in acyclic kinds), and limited resources are usable.
    pub fn check(&self) -> Result<(), ProblemError> {
        self.check_links()?;
        for t in &self.operator_types {
            if t.latency.is_none() {
                return Err(ProblemError::new(format!(
                    "Operator type '{}' has no latency",
                    t.name
                )));
            }
        }
        if self.kind.has_chaining() {
            self.check_delays()?;
        }
        self.check_cycles()?;
        if self.kind.has_resources() {
            self.check_resources()?;
        }
        Ok(())
    }

    fn check_links(&self) -> Result<(), ProblemError> {
        for op in self.ops() {
            let o = &self.operations[op.0 as usize];
            match o.operator_type {
                Some(t) if (t.0 as usize) < self.operator_types.len() => {}
                Some(_) => {
                    return Err(ProblemError::at(
                        op,
                        format!("{} names an unknown operator type", self.describe(op)),
                    ))
                }
                None => {
                    return Err(ProblemError::at(
                        op,
                        format!("{} has no linked operator type", self.describe(op)),
                    ))
                }
            }
            if o.resources
                .iter()
                .any(|r| r.0 as usize >= self.resource_types.len())
            {
                return Err(ProblemError::at(
                    op,
                    format!("{} names an unknown resource type", self.describe(op)),
                ));
            }
        }
        let n = self.operations.len() as u32;
        for d in &self.dependences {
            if d.src.0 >= n || d.dst.0 >= n {
                return Err(ProblemError::new("dependence names an unknown operation"));
            }
            if d.distance > 0 && d.def_use && self.kind == ProblemKind::ChainingCyclicProblem {
                return Err(ProblemError::at(
                    d.dst,
                    "Def-use dependence cannot have non-zero distance.",
                ));
            }
            if d.distance > 0 && !self.kind.is_cyclic() {
                return Err(ProblemError::at(
                    d.dst,
                    format!(
                        "dependence {} -> {} has a distance, but a {} has no iterations",
                        self.describe(d.src),
                        self.describe(d.dst),
                        self.kind
                    ),
                ));
            }
        }
        Ok(())
    }

    fn check_delays(&self) -> Result<(), ProblemError> {
        for t in &self.operator_types {
            let (Some(inc), Some(out)) = (t.incoming_delay, t.outgoing_delay) else {
                return Err(ProblemError::new(format!(
                    "Missing delays for operator type '{}'",
                    t.name
                )));
            };
            if inc < 0.0 || out < 0.0 {
                return Err(ProblemError::new(format!(
                    "Negative delays for operator type '{}'",
                    t.name
                )));
            }
            if t.latency == Some(0) && (inc - out).abs() > EPS {
                return Err(ProblemError::new(format!(
                    "Incoming & outgoing delay must be equal for zero-latency operator type '{}'",
                    t.name
                )));
            }
        }
        Ok(())
    }

    /// Acyclic kinds: no cycle at all. Cyclic kinds: every cycle crosses
    /// an iteration (has a dependence with a distance).
    fn check_cycles(&self) -> Result<(), ProblemError> {
        let cyclic = self.kind.is_cyclic();
        let edges = self
            .dependences
            .iter()
            .filter(|d| !cyclic || d.distance == 0)
            .map(|d| (d.src, d.dst));
        let Some(cycle) = find_cycle(self.operations.len(), edges) else {
            return Ok(());
        };
        // CIRCT's schedulers say "problem is infeasible" (cyclic kinds) and
        // "dependence cycle detected"; the operations are named too.
        let what = if cyclic {
            "problem is infeasible: dependence cycle without distance"
        } else {
            "dependence cycle detected"
        };
        Err(ProblemError::at(
            cycle[0],
            format!("{what} through {}", describe_ops(self, &cycle)),
        ))
    }

    fn check_resources(&self) -> Result<(), ProblemError> {
        for op in self.ops() {
            for (r, limit) in self.limited_resources(op) {
                let name = self.resource_name(r);
                if self.latency(op) == 0 {
                    let opr = self.operator_type(op).map_or("", |t| t.name.as_str());
                    return Err(ProblemError::at(
                        op,
                        format!(
                            "Operator type '{opr}' using limited resource '{name}' has zero latency."
                        ),
                    ));
                }
                if limit == 0 {
                    return Err(ProblemError::at(
                        op,
                        format!(
                            "{} uses resource type '{name}', which has limit 0: no schedule exists",
                            self.describe(op)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Verifies that `s` meets every constraint of the problem's kind.
    pub fn verify(&self, s: &Schedule) -> Result<(), ProblemError> {
        let n = self.operations.len();
        if s.start_times.len() != n {
            return Err(ProblemError::new(format!(
                "schedule has {} start times for {n} operations",
                s.start_times.len()
            )));
        }
        let ii = if self.kind.is_cyclic() {
            match s.ii {
                Some(ii) if ii > 0 => ii,
                _ => return Err(ProblemError::new("Invalid initiation interval")),
            }
        } else {
            0
        };
        for d in &self.dependences {
            let src = s.start_times[d.src.0 as usize] as u64 + self.latency(d.src) as u64;
            let dst = s.start_times[d.dst.0 as usize] as u64 + d.distance as u64 * ii as u64;
            if dst < src {
                return Err(ProblemError::at(
                    d.dst,
                    format!(
                        "Precedence violated for dependence {} -> {}",
                        self.describe(d.src),
                        self.describe(d.dst)
                    ),
                ));
            }
        }
        if self.kind.has_chaining() {
            self.verify_chaining(s)?;
        }
        if self.kind.has_resources() {
            self.verify_resources(s, (self.kind.is_cyclic()).then_some(ii))?;
        }
        Ok(())
    }

    fn verify_chaining(&self, s: &Schedule) -> Result<(), ProblemError> {
        if s.start_in_cycle.len() != self.operations.len() {
            return Err(ProblemError::new(
                "Operation has no non-negative start time in cycle",
            ));
        }
        for op in self.ops() {
            let z = s.start_in_cycle[op.0 as usize];
            if z.is_nan() || z < 0.0 {
                return Err(ProblemError::at(
                    op,
                    format!(
                        "{} has no non-negative start time in cycle",
                        self.describe(op)
                    ),
                ));
            }
        }
        for d in self.dependences.iter().filter(|d| d.distance == 0) {
            let (i, j) = (d.src.0 as usize, d.dst.0 as usize);
            let lat = self.latency(d.src);
            let finish = s.start_times[i] + lat;
            // A result from an earlier cycle is registered: no chaining.
            if finish < s.start_times[j] {
                continue;
            }
            let out = self
                .operator_type(d.src)
                .and_then(|t| t.outgoing_delay)
                .unwrap_or(0.0);
            let ready = if lat == 0 {
                s.start_in_cycle[i] + out
            } else {
                out
            };
            if ready > s.start_in_cycle[j] + EPS {
                return Err(ProblemError::at(
                    d.dst,
                    format!(
                        "Precedence violated in cycle {finish} for dependence {} -> {}",
                        self.describe(d.src),
                        self.describe(d.dst)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Resource use per time step (`ii == None`) or per congruence class
    /// modulo `ii`.
    fn verify_resources(&self, s: &Schedule, ii: Option<u32>) -> Result<(), ProblemError> {
        let mut used: std::collections::HashMap<(usize, u32), (Vec<OpId>, u32)> =
            Default::default();
        let start = |op: OpId| i64::from(s.start_times[op.0 as usize]);
        for op in self.ops() {
            let t = s.start_times[op.0 as usize];
            let slot = ii.map_or(t, |ii| t % ii);
            for (r, limit) in self.limited_resources(op) {
                let (users, count) = used.entry((r, slot)).or_default();
                // Users of a resource of limit 1 in a modulo schedule
                // that never meet ([`Problem::shares`]) share its slot.
                let shared = limit == 1
                    && ii.is_some_and(|ii| {
                        !users.is_empty()
                            && (users.iter()).all(|&o| self.apart(op, start(op), o, start(o), ii))
                    });
                users.push(op);
                if !shared {
                    *count += 1;
                }
                if *count > limit {
                    return Err(ProblemError::at(
                        op,
                        format!(
                            "Resource type '{}' is oversubscribed",
                            self.resource_name(r)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// `ops` as named in messages, comma-separated.
pub(crate) fn describe_ops(p: &Problem, ops: &[OpId]) -> String {
    ops.iter()
        .map(|&op| p.describe(op))
        .collect::<Vec<_>>()
        .join(", ")
}
