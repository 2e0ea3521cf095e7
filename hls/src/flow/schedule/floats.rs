//! The float operators' pipeline latencies chosen for one design: per
//! operator and clock period, the smallest latency whose stages fit the
//! clock as the target's library measures them
//! (`Library::choose_float_latency`), with the room its first stage must
//! leave for logic before its operands where an earlier build of the
//! design found some (its reserves). Scheduling reads the latencies, the
//! estimate the predicted stage periods, the report both.

use crate::float::{LatencyChoice, Operator};
use crate::model::kernel::{Kernel, Op};
use crate::model::target::library::Library;
use silica_ir::Context;

/// The choices of one design.
#[derive(Clone, Debug, Default)]
pub struct FloatChoices {
    /// The latency chosen for each float operator of the design.
    latencies: Vec<(Operator, LatencyChoice)>,
    /// The predicted period of each chosen operator's slowest stage (ns).
    periods: Vec<(Operator, f64)>,
    /// Per operator, the logic before its operands its first stage
    /// leaves room for (ns).
    reserves: Vec<(Operator, f64)>,
}

impl FloatChoices {
    /// Choices yet to be made, keeping `reserves` (operator, ns) out of
    /// their operators' first stages ([`FloatChoices::reserve_inputs`]).
    pub fn reserving(reserves: &[(Operator, f64)]) -> FloatChoices {
        let mut c = FloatChoices::default();
        c.reserve_inputs(reserves);
        c
    }

    /// Picks the pipeline latency of every float operator of `k` not
    /// chosen yet for a clock of `clock_ns` (`Library::choose_float_latency`;
    /// at least 1 for a unit shared under `[limits]`), and keeps its
    /// predicted stage period, the register period plus its slowest
    /// stage, for the estimate ([`FloatChoices::period`]).
    pub fn choose(&mut self, ctx: &mut Context, lib: &Library, k: &Kernel, clock_ns: f64) {
        for (i, n) in k.nodes.iter().enumerate() {
            let Op::Float(o) = n.op else { continue };
            // An operation on a shared unit runs on the unit's operator
            // (a subtraction on the adder): only that one is built.
            let shared = k.limited(i).is_some();
            let o = if shared { o.shared_unit() } else { o };
            if self.latency(o).is_none() {
                let choice = lib.choose_float_latency(ctx, o, clock_ns, shared, self.reserve(o));
                self.periods
                    .push((o, lib.register_ns + choice.stage_delay_ns));
                self.latencies.push((o, choice));
            }
        }
    }

    /// The latency chosen for operator `o`.
    pub fn latency(&self, o: Operator) -> Option<&LatencyChoice> {
        self.latencies.iter().find(|(x, _)| *x == o).map(|(_, c)| c)
    }

    /// Every operator's chosen latency, in the order they were chosen.
    pub fn latencies(&self) -> &[(Operator, LatencyChoice)] {
        &self.latencies
    }

    /// The predicted period of operator `o`'s slowest stage.
    pub fn period(&self, o: Operator) -> Option<f64> {
        self.periods.iter().find(|(x, _)| *x == o).map(|(_, p)| *p)
    }

    /// The logic before operator `o`'s operands that its first stage
    /// must leave room for (ns, [`FloatChoices::reserve_inputs`]).
    pub fn reserve(&self, o: Operator) -> f64 {
        self.reserves
            .iter()
            .find(|(x, _)| *x == o)
            .map_or(0.0, |r| r.1)
    }

    /// The float operators of a built design whose first stage, after
    /// the latest arrival of their operands (`inputs`, the estimate's:
    /// ns after the clock edge, `CircuitEstimate::float_inputs`), ends
    /// past the `clock_ns` period, with that arrival: what their
    /// latencies must be chosen again for (a shared unit's operand
    /// multiplexer and its selects take a third of a long UP5K clock,
    /// which the latency chosen from the operator's stages alone
    /// leaves no room for). Those already reserving as much are left
    /// out.
    pub fn late_inputs(
        &self,
        lib: &Library,
        inputs: &[(Operator, f64)],
        clock_ns: f64,
    ) -> Vec<(Operator, f64)> {
        inputs
            .iter()
            .filter(|&&(o, t)| {
                self.latency(o).is_some_and(|c| {
                    lib.register_ns + t + c.input_delay_ns > clock_ns + 1e-6
                        && t > self.reserve(o) + 1e-6
                })
            })
            .copied()
            .collect()
    }

    /// Keeps `reserves` (float operator, ns) out of their operators'
    /// first-stage budgets when their latencies are chosen; the larger
    /// reserve of an operator wins.
    pub fn reserve_inputs(&mut self, reserves: &[(Operator, f64)]) {
        for &(o, t) in reserves {
            match self.reserves.iter_mut().find(|(x, _)| *x == o) {
                Some(r) => r.1 = r.1.max(t),
                None => self.reserves.push((o, t)),
            }
        }
    }

    /// Records `choice` as operator `o`'s latency (a test's choice).
    #[cfg(test)]
    pub fn set(&mut self, o: Operator, choice: LatencyChoice) {
        match self.latencies.iter_mut().find(|(x, _)| *x == o) {
            Some(c) => c.1 = choice,
            None => self.latencies.push((o, choice)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::{FloatOp, Format};

    /// A shared unit's operand multiplexer and its selects settle 30 ns
    /// into UP5K jacobi-2d f32's 80 ns cycle: the adder's latency chosen
    /// from its stages alone has a first stage that ends past the clock
    /// after them; with those 30 ns reserved it gets a deeper pipeline
    /// whose first stage fits.
    #[test]
    fn float_first_stages_leave_room_for_the_logic_before_them() {
        let mut ctx = Context::new();
        silica_hw_dialects::register(&mut ctx);
        let add = Operator::new(FloatOp::Add, Format::F32);
        let lib = Library::for_target("ice40-up5k").unwrap();
        let mut floats = FloatChoices::default();
        let (clock, before) = (80.0, 30.0);
        let budget = clock - lib.register_ns;
        let plain = lib.choose_float_latency(&mut ctx, add, clock, true, 0.0);
        assert!(plain.input_delay_ns + before > budget, "{plain:?}");
        floats.set(add, plain.clone());
        let late = floats.late_inputs(&lib, &[(add, before), (add, 1.0)], clock);
        assert_eq!(late, [(add, before)]);
        floats.reserve_inputs(&late);
        floats.reserve_inputs(&[(add, 10.0)]);
        assert_eq!(floats.reserve(add), before);
        assert!(floats.late_inputs(&lib, &late, clock).is_empty());
        let reserved = lib.choose_float_latency(&mut ctx, add, clock, true, floats.reserve(add));
        assert!(reserved.latency > plain.latency, "{reserved:?}");
        assert!(reserved.input_delay_ns + before <= budget, "{reserved:?}");
        assert!(reserved.stage_delay_ns <= budget);
        // Nothing before the operands: the choice from the stages alone.
        let sub = Operator::new(FloatOp::Sub, Format::F32);
        let alone = lib.choose_float_latency(&mut ctx, sub, clock, true, floats.reserve(sub));
        assert_eq!(alone.latency, plain.latency);
    }
}
