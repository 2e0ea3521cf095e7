//! Pipelining a combinational operator body: placing `latency` ranks of
//! `seq.compreg` registers by the estimated delays of [`delay`].
//!
//! Ops are visited in the body's (topological) order and chained as an
//! HLS scheduler chains operations: an op starts in the latest stage of
//! its operands, at the latest time one of them is ready in that stage;
//! if it would end past the stage period `T`, it moves to the start of
//! the next stage (while stages remain). The smallest `T` (bisected
//! between the slowest single op and the whole combinational path) for
//! which every op fits in `latency + 1` stages is used. Every operand
//! that crosses stage boundaries goes through one register per boundary
//! (shared between uses); the outputs are delayed to the last stage, so
//! a result appears exactly `latency` cycles after its operands.
//! Constants are never registered.

use super::builder::Builder;
use super::delay::op_delay_ns;
use silica_ir::{BlockId, Context, Ir, OpId, ValueId};
use std::collections::HashMap;

/// Where each op of a body runs, and the estimated delay of each stage.
pub struct Plan {
    stage: HashMap<OpId, u32>,
    /// The estimated combinational delay of each stage (ns), from its
    /// start (registers or the operator's inputs) to its end.
    pub stage_delays_ns: Vec<f64>,
}

impl Plan {
    /// The largest stage delay: the operator's contribution to the
    /// clock period.
    pub fn max_stage_delay_ns(&self) -> f64 {
        self.stage_delays_ns.iter().copied().fold(0.0, f64::max)
    }
}

fn is_constant(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.str(ir.op_name(op)) == "hw.constant"
}

/// The ops of a body other than its terminator, in order: each op's
/// delay, whether it is a constant (never staged), and the positions of
/// the earlier non-constant ops its operands come from. `chain` runs
/// about forty times per operator on these dense vectors.
struct Timed {
    ops: Vec<OpId>,
    delay: Vec<f64>,
    constant: Vec<bool>,
    inputs: Vec<Vec<usize>>,
}

fn timed_ops(ctx: &Context, ir: &Ir, body: BlockId) -> Timed {
    let ops: Vec<OpId> = ir
        .block_ops(body)
        .filter(|&op| ctx.str(ir.op_name(op)) != "hw.output")
        .collect();
    let constant: Vec<bool> = ops.iter().map(|&op| is_constant(ctx, ir, op)).collect();
    let mut position: HashMap<OpId, usize> = HashMap::new();
    let mut inputs = Vec::with_capacity(ops.len());
    for (i, &op) in ops.iter().enumerate() {
        inputs.push(
            ir.operands(op)
                .filter_map(|v| ir.defining_op(v).and_then(|d| position.get(&d).copied()))
                .collect(),
        );
        if !constant[i] {
            position.insert(op, i);
        }
    }
    Timed {
        delay: ops.iter().map(|&op| op_delay_ns(ctx, ir, op)).collect(),
        ops,
        constant,
        inputs,
    }
}

/// The chained schedule of the ops for period `period` (each op's stage,
/// and each stage's delay), or `None` when it needs more than
/// `latency + 1` stages.
fn chain(t: &Timed, latency: u32, period: f64) -> Option<(Vec<u32>, Vec<f64>)> {
    // Each op's stage and the time its results are ready in it.
    let mut ready: Vec<(u32, f64)> = vec![(0, 0.0); t.ops.len()];
    let mut delays = vec![0.0f64; latency as usize + 1];
    for i in 0..t.ops.len() {
        if t.constant[i] {
            continue;
        }
        let mut stage = 0;
        let mut start = 0.0f64;
        for &p in &t.inputs[i] {
            let (s, e) = ready[p];
            if s > stage {
                stage = s;
                start = e;
            } else if s == stage {
                start = start.max(e);
            }
        }
        let delay = t.delay[i];
        if start + delay > period && start > 0.0 {
            if stage == latency {
                return None;
            }
            stage += 1;
            start = 0.0;
        }
        let end = start + delay;
        ready[i] = (stage, end);
        let d = &mut delays[stage as usize];
        *d = d.max(end);
    }
    Some((ready.into_iter().map(|(s, _)| s).collect(), delays))
}

/// The stage of every op of `body` for `latency` register ranks.
pub fn plan(ctx: &Context, ir: &Ir, body: BlockId, latency: u32) -> Plan {
    let t = timed_ops(ctx, ir, body);
    let slowest = t.delay.iter().copied().fold(0.0, f64::max);
    let whole = chain(&t, 0, f64::INFINITY)
        .map_or(slowest, |(_, d)| d[0])
        .max(slowest);
    // The whole path always fits (in one stage); bisect down from it.
    let (mut low, mut high) = (slowest, whole);
    let mut best = chain(&t, latency, high);
    if let Some(fits) = chain(&t, latency, low) {
        best = Some(fits);
    } else {
        for _ in 0..40 {
            let mid = (low + high) / 2.0;
            match chain(&t, latency, mid) {
                Some(fits) => {
                    high = mid;
                    best = Some(fits);
                }
                None => low = mid,
            }
        }
    }
    let best = best.map(|(stages, delays)| {
        let stage = t
            .ops
            .iter()
            .zip(stages)
            .zip(&t.constant)
            .filter(|(_, &constant)| !constant)
            .map(|((&op, s), _)| (op, s))
            .collect::<HashMap<OpId, u32>>();
        (stage, delays)
    });
    let (stage, stage_delays_ns) = best.unwrap_or_default();
    Plan {
        stage,
        stage_delays_ns,
    }
}

/// Inserts the registers of `plan` into `body` on `clock`, the outputs
/// delayed to stage `latency`.
pub fn insert_registers(
    b: &mut Builder<'_>,
    body: BlockId,
    plan: &Plan,
    clock: ValueId,
    latency: u32,
) {
    let ops: Vec<OpId> = b.ir.block_ops(body).collect();
    let mut delayed: HashMap<(ValueId, u32), ValueId> = HashMap::new();
    let mut counter = 0u32;
    for op in ops {
        let is_output = b.ctx.str(b.ir.op_name(op)) == "hw.output";
        let Some(&stage) = plan.stage.get(&op).or(is_output.then_some(&latency)) else {
            continue;
        };
        let operands: Vec<ValueId> = b.ir.operands(op).collect();
        for (i, v) in operands.into_iter().enumerate() {
            let from = match b.ir.defining_op(v) {
                Some(d) if is_constant(b.ctx, b.ir, d) => continue,
                Some(d) => plan.stage.get(&d).copied().unwrap_or(0),
                None => 0,
            };
            let mut value = v;
            for s in from + 1..=stage {
                value = match delayed.get(&(v, s)) {
                    Some(&r) => r,
                    None => {
                        counter += 1;
                        let r = b.register(value, clock, &format!("stage{s}_{counter}"));
                        delayed.insert((v, s), r);
                        r
                    }
                };
            }
            if value != v {
                b.ir.set_operand(op, i, value);
            }
        }
    }
}
