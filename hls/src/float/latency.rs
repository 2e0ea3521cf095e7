//! Latency choices for the scheduler: for each useful pipeline latency
//! of an operator, the estimated combinational delay of its stages
//! (from the delay model of [`super::delay`]: estimates, not
//! measurements), so that the flow can pick the latency that meets
//! `--clock-ns`. The operator's combinational datapath is built once
//! and planned at each latency tried (the stages a module of that
//! latency gets: the same datapath, registers placed by the same plan).

use super::module::build_module;
use super::operator::Operator;
use super::pipeline::plan;
use silica_ir::{BlockId, Context, Ir};

/// One latency of an operator and its estimated stage delays (ns).
#[derive(Debug, Clone, PartialEq)]
pub struct LatencyChoice {
    pub latency: u32,
    /// The slowest stage: what the operator asks of the clock period.
    pub stage_delay_ns: f64,
    /// From the operands to the first register (or to `result` when
    /// the latency is 0): logic that chains after the operands' own.
    pub input_delay_ns: f64,
    /// From the last register to `result`: logic the result's users
    /// chain after.
    pub output_delay_ns: f64,
}

/// The most latency considered for any operator.
pub const MAX_LATENCY: u32 = 64;

/// The latencies worth having, from 0 up to the one whose stages cannot
/// get faster (the slowest single op), each with its delays. Every
/// listed latency is strictly faster per stage than the one before.
pub fn latency_choices(ctx: &mut Context, operator: Operator) -> Vec<LatencyChoice> {
    let datapath = Datapath::new(ctx, operator);
    let mut choices: Vec<LatencyChoice> = Vec::new();
    while let Some(choice) = datapath.next_choice(ctx, operator, choices.last()) {
        choices.push(choice);
    }
    choices
}

/// How many more latencies are tried past one that does not make the
/// slowest stage faster: a long recurrence (the digits of a divider)
/// splits into stages a whole number of digits deep, so the stage delay
/// improves in steps, not at every latency.
const LOOKAHEAD: u32 = 6;

/// An operator's combinational datapath (its latency-0 module).
struct Datapath {
    ir: Ir,
    body: BlockId,
}

impl Datapath {
    fn new(ctx: &mut Context, operator: Operator) -> Datapath {
        let mut ir = Ir::new();
        let (module, _) = build_module(ctx, &mut ir, operator, 0);
        let body = ir
            .regions(module)
            .next()
            .and_then(|r| ir.entry_block(r))
            .expect("an operator module has a body");
        Datapath { ir, body }
    }

    /// The choice after `last` (the combinational one first): the next
    /// latency that makes the slowest stage faster, or `None` when none
    /// of the next few does.
    fn next_choice(
        &self,
        ctx: &Context,
        operator: Operator,
        last: Option<&LatencyChoice>,
    ) -> Option<LatencyChoice> {
        let first = last.map_or(0, |c| c.latency + 1);
        if first > 0 && !operator.pipelinable() {
            return None;
        }
        let end = (first + LOOKAHEAD).min(MAX_LATENCY + 1);
        (first..end).find_map(|latency| {
            let plan = plan(ctx, &self.ir, self.body, latency);
            let delays = &plan.stage_delays_ns;
            let choice = LatencyChoice {
                latency,
                stage_delay_ns: plan.max_stage_delay_ns(),
                input_delay_ns: delays.first().copied().unwrap_or(0.0),
                output_delay_ns: delays.last().copied().unwrap_or(0.0),
            };
            match last {
                Some(l) if choice.stage_delay_ns >= l.stage_delay_ns - 1e-9 => None,
                _ => Some(choice),
            }
        })
    }
}

/// The estimated slowest stage of `operator` at pipeline `latency`
/// (ns), whether or not that latency is one of its useful choices.
pub fn stage_delay_ns(ctx: &mut Context, operator: Operator, latency: u32) -> f64 {
    let datapath = Datapath::new(ctx, operator);
    plan(ctx, &datapath.ir, datapath.body, latency).max_stage_delay_ns()
}

/// The smallest latency whose slowest stage fits in `clock_ns`, else
/// the fastest choice (the choices are built only up to the one that
/// fits), by the generator's estimates alone.
pub fn choose_latency(ctx: &mut Context, operator: Operator, clock_ns: f64) -> LatencyChoice {
    choose_scaled(ctx, operator, clock_ns, 0, 0.0, |_| 1.0)
}

/// The smallest latency of at least `least` whose slowest stage, the
/// estimate times `scale(latency)`, fits in `budget_ns`, and whose first
/// stage fits after `reserve_ns` of logic before the operands (a shared
/// unit's operand multiplexer), else the one whose scaled stages so
/// counted are the fastest; the choice's delays are so scaled (a
/// target's measured figures over the generator's estimates,
/// `crate::model::target::library::Library::choose_float_latencies`).
pub fn choose_scaled(
    ctx: &mut Context,
    operator: Operator,
    budget_ns: f64,
    least: u32,
    reserve_ns: f64,
    scale: impl Fn(u32) -> f64,
) -> LatencyChoice {
    let needs = |c: &LatencyChoice| c.stage_delay_ns.max(c.input_delay_ns + reserve_ns);
    let datapath = Datapath::new(ctx, operator);
    let scaled = |c: &LatencyChoice| {
        let s = scale(c.latency);
        LatencyChoice {
            latency: c.latency,
            stage_delay_ns: c.stage_delay_ns * s,
            input_delay_ns: c.input_delay_ns * s,
            output_delay_ns: c.output_delay_ns * s,
        }
    };
    let mut last: Option<LatencyChoice> = None;
    let mut fastest: Option<LatencyChoice> = None;
    while let Some(choice) = datapath.next_choice(ctx, operator, last.as_ref()) {
        let s = scaled(&choice);
        last = Some(choice);
        if s.latency < least {
            continue;
        }
        if needs(&s) <= budget_ns {
            return s;
        }
        if fastest.as_ref().is_none_or(|f| needs(&s) < needs(f)) {
            fastest = Some(s);
        }
    }
    fastest.unwrap_or(LatencyChoice {
        latency: 0,
        stage_delay_ns: 0.0,
        input_delay_ns: 0.0,
        output_delay_ns: 0.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::float::{FloatOp, Format};

    fn context() -> Context {
        let mut ctx = Context::new();
        silica_hw_dialects::register(&mut ctx);
        ctx
    }

    #[test]
    fn deeper_pipelines_have_shorter_stages() {
        let mut ctx = context();
        let mul = Operator::new(FloatOp::Mul, Format::F32);
        let choices = latency_choices(&mut ctx, mul);
        assert_eq!(choices[0].latency, 0);
        assert!(choices.len() > 3, "{choices:?}");
        for pair in choices.windows(2) {
            assert!(
                pair[1].stage_delay_ns < pair[0].stage_delay_ns,
                "{choices:?}"
            );
            assert!(pair[1].latency > pair[0].latency);
        }
        // The combinational choice is one stage: input to output.
        assert_eq!(choices[0].input_delay_ns, choices[0].stage_delay_ns);
        let clock = (choices[0].stage_delay_ns + choices[1].stage_delay_ns) / 2.0;
        let chosen = choose_latency(&mut ctx, mul, clock);
        assert_eq!(chosen, choices[1]);
        let fastest = choose_latency(&mut ctx, mul, 0.01);
        assert_eq!(&fastest, choices.last().unwrap());
    }

    #[test]
    fn sign_operators_are_combinational_only() {
        let mut ctx = context();
        let neg = Operator::new(FloatOp::Neg, Format::F32);
        let choices = latency_choices(&mut ctx, neg);
        assert_eq!(choices.len(), 1);
        assert_eq!(choices[0].latency, 0);
        assert!(choices[0].stage_delay_ns <= crate::float::delay::LUT_NS);
    }
}
