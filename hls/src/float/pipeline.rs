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

/// Ops of `body` other than its terminator, in order, with delays.
fn timed_ops(ctx: &Context, ir: &Ir, body: BlockId) -> Vec<(OpId, f64)> {
    ir.block_ops(body)
        .filter(|&op| ctx.str(ir.op_name(op)) != "hw.output")
        .map(|op| (op, op_delay_ns(ctx, ir, op)))
        .collect()
}

/// The chained schedule of `ops` for period `period`, or `None` when it
/// needs more than `latency + 1` stages.
fn chain(
    ir: &Ir,
    ops: &[(OpId, f64)],
    constants: &[bool],
    latency: u32,
    period: f64,
) -> Option<(HashMap<OpId, u32>, Vec<f64>)> {
    let mut ready: HashMap<ValueId, (u32, f64)> = HashMap::new();
    let mut stage_of = HashMap::new();
    let mut delays = vec![0.0f64; latency as usize + 1];
    for (&(op, delay), &constant) in ops.iter().zip(constants) {
        if constant {
            continue;
        }
        let mut stage = 0;
        let mut start = 0.0f64;
        for v in ir.operands(op) {
            let Some(&(s, t)) = ready.get(&v) else {
                continue;
            };
            if s > stage {
                stage = s;
                start = t;
            } else if s == stage {
                start = start.max(t);
            }
        }
        if start + delay > period && start > 0.0 {
            if stage == latency {
                return None;
            }
            stage += 1;
            start = 0.0;
        }
        let end = start + delay;
        for r in ir.results(op) {
            ready.insert(r, (stage, end));
        }
        stage_of.insert(op, stage);
        let d = &mut delays[stage as usize];
        *d = d.max(end);
    }
    Some((stage_of, delays))
}

/// The stage of every op of `body` for `latency` register ranks.
pub fn plan(ctx: &Context, ir: &Ir, body: BlockId, latency: u32) -> Plan {
    let ops = timed_ops(ctx, ir, body);
    let constants: Vec<bool> = ops
        .iter()
        .map(|&(op, _)| is_constant(ctx, ir, op))
        .collect();
    let slowest = ops.iter().map(|&(_, d)| d).fold(0.0, f64::max);
    let whole = chain(ir, &ops, &constants, 0, f64::INFINITY)
        .map_or(slowest, |(_, d)| d[0])
        .max(slowest);
    // The whole path always fits (in one stage); bisect down from it.
    let (mut low, mut high) = (slowest, whole);
    let mut best = chain(ir, &ops, &constants, latency, high);
    if let Some(fits) = chain(ir, &ops, &constants, latency, low) {
        best = Some(fits);
    } else {
        for _ in 0..40 {
            let mid = (low + high) / 2.0;
            match chain(ir, &ops, &constants, latency, mid) {
                Some(fits) => {
                    high = mid;
                    best = Some(fits);
                }
                None => low = mid,
            }
        }
    }
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
