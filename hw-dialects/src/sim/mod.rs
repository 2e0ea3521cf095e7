//! A cycle-based simulator for hw/comb/seq modules (`silica sim`).
//!
//! Each cycle: the inputs are applied, the combinational logic settles
//! (ops run in a topological order in which registers are sources), the
//! outputs are sampled, then every register takes its next value at the
//! clock edge. All registers belong to one clock domain: the module's
//! clock (a register on a constant clock sees no edge; memory ports are
//! clocked by the module's clock whatever their clock operand).
//! Asynchronous resets act within the cycle they are raised in,
//! as an event-driven simulator sees them before sampling. Registers
//! start at zero (or their `preset`). Instances are simulated
//! hierarchically, each with its own state; an instance's outputs that
//! do not depend on all its inputs (registered ones) are settled first,
//! from the part of its body they depend on ([`order`], whose settling
//! order [`schedule`] also gives the Verilog emitter). The state of
//! memories, shift registers and FIFOs is in [`memory`].

pub mod memory;
pub mod order;

use crate::eval::{eval_results, int_attr, width_of, Bits};
use crate::hw::{find_module, instance_target, module_ports};
use crate::seq::initial::initial_values;
use crate::seq::memory::{is_memory, is_port};
use crate::seq::memory_ops::port_memory;
use crate::seq::{is_async, reg_operands};
use crate::sim::memory::{FifoState, MemState, ShiftState};
use crate::sim::order::{is_state, Orders, Step};
use crate::types::{bit_width, Direction};
use silica_ir::diag::Diagnostic;
use silica_ir::{Context, Ir, OpId, ValueId};
use std::collections::{HashMap, HashSet};

type Res<T> = Result<T, Box<Diagnostic>>;

fn err(ir: &Ir, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg))
}

fn is_register(name: &str) -> bool {
    matches!(name, "seq.compreg" | "seq.compreg.ce" | "seq.firreg")
}

/// The ops of `module`'s body in settling order ([`Orders::steps`]):
/// every op after the ops whose results it uses, registers' results
/// counting as sources; an instance after all its operands, though its
/// registered outputs may be used before it. A combinational cycle is
/// an error at one of its ops.
pub fn schedule(ctx: &Context, ir: &Ir, module: OpId) -> Res<Vec<OpId>> {
    let steps = Orders::default().steps(ctx, ir, module)?;
    Ok(steps
        .into_iter()
        .filter_map(|s| match s {
            Step::Op(op) => Some(op),
            Step::Outputs { .. } => None,
        })
        .collect())
}

/// The steps of a module's order that give some of its outputs (for a
/// parent's [`Step::Outputs`]), and those outputs.
struct Cone {
    steps: Vec<usize>,
    outputs: Vec<usize>,
}

/// The simulation state of one module instance.
pub struct ModuleSim {
    module: OpId,
    order: Vec<Step>,
    /// The `hw.output` of the module's body.
    output: Option<OpId>,
    /// For each [`Step::Outputs`] of `order` (by index), its cone in the
    /// instance's simulation.
    early: HashMap<usize, usize>,
    /// The parts of this module's order its parent settles early.
    cones: Vec<Cone>,
    regs: HashMap<OpId, Bits>,
    children: HashMap<OpId, ModuleSim>,
    memories: HashMap<OpId, MemState>,
    shiftregs: HashMap<OpId, ShiftState>,
    fifos: HashMap<OpId, FifoState>,
    /// Values fixed at power-up (`seq.initial` results).
    initials: HashMap<ValueId, Bits>,
    values: HashMap<ValueId, Bits>,
}

impl ModuleSim {
    /// A fresh instance of `module` (registers at zero or their preset).
    pub fn new(ctx: &Context, ir: &Ir, module: OpId) -> Res<ModuleSim> {
        ModuleSim::build(ctx, ir, module, &mut Orders::default())
    }

    fn build(ctx: &Context, ir: &Ir, module: OpId, orders: &mut Orders) -> Res<ModuleSim> {
        let order = orders.steps(ctx, ir, module)?;
        let mut regs = HashMap::new();
        let mut children = HashMap::new();
        let mut memories = HashMap::new();
        let mut shiftregs = HashMap::new();
        let mut fifos = HashMap::new();
        let mut output = None;
        let initials = initial_values(ctx, ir, module)?;
        for step in &order {
            let Step::Op(op) = *step else { continue };
            let name = ctx.str(ir.op_name(op));
            if name == "hw.output" {
                output = Some(op);
            } else if is_memory(name) {
                memories.insert(op, MemState::new(ctx, ir, op)?);
            } else if name == "seq.shiftreg" {
                shiftregs.insert(op, ShiftState::new(ctx, ir, op)?);
            } else if name == "seq.fifo" {
                fifos.insert(op, FifoState::new(ctx, ir, op));
            } else if is_register(name) {
                let r = ir.result(op, 0);
                let w = width_of(ctx, ir, r);
                let initial = reg_operands(ctx, ir, op).initial;
                let init = match (int_attr(ctx, ir, op, "preset"), initial) {
                    (Some(v), _) => Bits::from_bigint(w, &v),
                    (None, Some(i)) => initials.get(&i).cloned().unwrap_or_else(|| Bits::zero(w)),
                    (None, None) => Bits::zero(w),
                };
                regs.insert(op, init);
            } else if name == "hw.instance" {
                let target = instance_target(ctx, ir, op).unwrap_or_default();
                let callee = find_module(ctx, ir, op, &target)
                    .filter(|&m| ctx.str(ir.op_name(m)) == "hw.module")
                    .ok_or_else(|| {
                        err(
                            ir,
                            op,
                            format!("cannot simulate an instance of external module '{target}'"),
                        )
                    })?;
                children.insert(op, ModuleSim::build(ctx, ir, callee, orders)?);
            }
        }
        let mut early = HashMap::new();
        for (s, step) in order.iter().enumerate() {
            if let Step::Outputs {
                instance, outputs, ..
            } = step
            {
                if let Some(child) = children.get_mut(instance) {
                    early.insert(s, child.cone(ctx, ir, outputs));
                }
            }
        }
        Ok(ModuleSim {
            module,
            order,
            output,
            early,
            cones: Vec::new(),
            regs,
            children,
            memories,
            shiftregs,
            fifos,
            initials,
            values: HashMap::new(),
        })
    }

    /// Records the steps that give `outputs` (those their values depend
    /// on this cycle, state aside); the cone's index.
    fn cone(&mut self, ctx: &Context, ir: &Ir, outputs: &[usize]) -> usize {
        // Where each value is computed: an instance's early outputs at
        // their own step.
        let mut def: HashMap<ValueId, usize> = HashMap::new();
        for (s, step) in self.order.iter().enumerate() {
            match step {
                Step::Op(op) => {
                    for r in ir.results(*op) {
                        def.entry(r).or_insert(s);
                    }
                }
                Step::Outputs {
                    instance, outputs, ..
                } => {
                    for &k in outputs {
                        def.insert(ir.result(*instance, k), s);
                    }
                }
            }
        }
        let ends: Vec<ValueId> = self.output.map_or(Vec::new(), |o| ir.operands(o).collect());
        let mut work: Vec<usize> = outputs
            .iter()
            .filter_map(|&k| ends.get(k).and_then(|v| def.get(v)).copied())
            .collect();
        let mut steps = HashSet::new();
        while let Some(s) = work.pop() {
            if !steps.insert(s) {
                continue;
            }
            let used: Vec<ValueId> = match &self.order[s] {
                Step::Op(op) if is_state(ctx, ir, *op) => Vec::new(),
                Step::Op(op) => ir.operands(*op).collect(),
                Step::Outputs {
                    instance, inputs, ..
                } => {
                    let operands: Vec<ValueId> = ir.operands(*instance).collect();
                    inputs.iter().map(|&i| operands[i]).collect()
                }
            };
            work.extend(used.iter().filter_map(|v| def.get(v)).copied());
        }
        let mut steps: Vec<usize> = steps.into_iter().collect();
        steps.sort_unstable();
        self.cones.push(Cone {
            steps,
            outputs: outputs.to_vec(),
        });
        self.cones.len() - 1
    }

    /// Settles the combinational logic for `inputs` (one per input port,
    /// clocks included) and returns the outputs.
    pub fn eval(&mut self, ctx: &Context, ir: &Ir, inputs: &[Bits]) -> Res<Vec<Bits>> {
        for _ in 0..4 {
            let outputs = self.settle(ctx, ir, inputs)?;
            if !self.apply_async_resets(ctx, ir) {
                return Ok(outputs);
            }
        }
        self.settle(ctx, ir, inputs)
    }

    /// Sets registers whose asynchronous reset is high to their reset
    /// value; whether any changed.
    fn apply_async_resets(&mut self, ctx: &Context, ir: &Ir) -> bool {
        let mut changed = false;
        for (&op, state) in self.regs.iter_mut() {
            if !(ctx.str(ir.op_name(op)) == "seq.firreg" && is_async(ctx, ir, op)) {
                continue;
            }
            let r = reg_operands(ctx, ir, op);
            if let (Some(rst), Some(rv)) = (r.reset, r.reset_value) {
                if self.values.get(&rst).is_some_and(|b| !b.is_zero()) {
                    if let Some(v) = self.values.get(&rv) {
                        if v != state {
                            *state = v.clone();
                            changed = true;
                        }
                    }
                }
            }
        }
        let children = self.children.values_mut();
        for c in children {
            changed |= c.apply_async_resets(ctx, ir);
        }
        changed
    }

    fn set_inputs(&mut self, ir: &Ir, inputs: &[Bits]) {
        if let Some(block) = ir
            .regions(self.module)
            .next()
            .and_then(|r| ir.entry_block(r))
        {
            for (&a, v) in ir.block_args(block).iter().zip(inputs) {
                self.values.insert(a, v.clone());
            }
        }
    }

    /// The current values of `outputs` (all where `None`).
    fn outputs(&self, ctx: &Context, ir: &Ir, outputs: Option<&[usize]>) -> Vec<Bits> {
        let ends: Vec<ValueId> = self.output.map_or(Vec::new(), |o| ir.operands(o).collect());
        let value = |v: ValueId| {
            self.values
                .get(&v)
                .cloned()
                .unwrap_or_else(|| Bits::zero(width_of(ctx, ir, v)))
        };
        match outputs {
            Some(ks) => ks.iter().map(|&k| value(ends[k])).collect(),
            None => ends.into_iter().map(value).collect(),
        }
    }

    /// Settles every step (an instance's body included) for `inputs`;
    /// the outputs.
    fn settle(&mut self, ctx: &Context, ir: &Ir, inputs: &[Bits]) -> Res<Vec<Bits>> {
        self.values.clear();
        self.set_inputs(ir, inputs);
        for s in 0..self.order.len() {
            self.run(ctx, ir, s)?;
        }
        Ok(self.outputs(ctx, ir, None))
    }

    /// Settles only the steps of `cone` for `inputs` (those its outputs
    /// do not depend on may not be known yet); the cone's outputs.
    fn settle_cone(
        &mut self,
        ctx: &Context,
        ir: &Ir,
        cone: usize,
        inputs: &[Bits],
    ) -> Res<Vec<Bits>> {
        self.set_inputs(ir, inputs);
        for i in 0..self.cones[cone].steps.len() {
            self.run(ctx, ir, self.cones[cone].steps[i])?;
        }
        let outputs = std::mem::take(&mut self.cones[cone].outputs);
        let values = self.outputs(ctx, ir, Some(&outputs));
        self.cones[cone].outputs = outputs;
        Ok(values)
    }

    /// Evaluates step `s` of the order into `values`.
    fn run(&mut self, ctx: &Context, ir: &Ir, s: usize) -> Res<()> {
        let (op, early) = match &self.order[s] {
            Step::Op(op) => (*op, None),
            Step::Outputs {
                instance, outputs, ..
            } => (*instance, Some(outputs.clone())),
        };
        let name = ctx.str(ir.op_name(op));
        if name == "hw.output" {
            return Ok(());
        }
        let args: Vec<Bits> = ir
            .operands(op)
            .map(|v| {
                self.values
                    .get(&v)
                    .cloned()
                    .unwrap_or_else(|| Bits::zero(width_of(ctx, ir, v)))
            })
            .collect();
        if let Some(outputs) = early {
            let cone = self.early[&s];
            let child = self
                .children
                .get_mut(&op)
                .ok_or_else(|| err(ir, op, "unknown instance"))?;
            let values = child.settle_cone(ctx, ir, cone, &args)?;
            for (k, v) in outputs.into_iter().zip(values) {
                self.values.insert(ir.result(op, k), v);
            }
            return Ok(());
        }
        let results = if matches!(name, "seq.initial" | "seq.from_immutable") {
            ir.results(op)
                .map(|r| {
                    self.initials
                        .get(&r)
                        .cloned()
                        .unwrap_or_else(|| Bits::zero(0))
                })
                .collect()
        } else if is_register(name) {
            vec![self.regs[&op].clone()]
        } else if is_memory(name) {
            vec![Bits::zero(0)]
        } else if is_port(name) {
            let mem = port_memory(ir, op).and_then(|m| self.memories.get(&m));
            mem.and_then(|m| m.read(op, &self.values))
                .into_iter()
                .collect()
        } else if let Some(sr) = self.shiftregs.get(&op) {
            vec![sr.output()]
        } else if let Some(f) = self.fifos.get(&op) {
            f.outputs(ctx, ir, op)
        } else if name == "hw.instance" {
            let child = self
                .children
                .get_mut(&op)
                .ok_or_else(|| err(ir, op, "unknown instance"))?;
            child.settle(ctx, ir, &args)?
        } else {
            eval_results(ctx, ir, op, &args)?
        };
        for (r, v) in ir.results(op).zip(results) {
            self.values.insert(r, v);
        }
        Ok(())
    }

    /// The current value of register `op` of this module.
    pub fn register(&self, op: OpId) -> Option<&Bits> {
        self.regs.get(&op)
    }

    /// The clock edge: every register takes its next value (after
    /// [`ModuleSim::eval`] of the same cycle).
    pub fn step(&mut self, ctx: &Context, ir: &Ir) {
        let get = |v: Option<ValueId>| v.and_then(|v| self.values.get(&v));
        let mut next = Vec::new();
        for (&op, state) in &self.regs {
            let r = reg_operands(ctx, ir, op);
            // A register on a constant clock sees no edge.
            let stopped = r
                .clock
                .is_some_and(|c| crate::seq::canonicalize::constant_clock(ctx, ir, c).is_some());
            if stopped {
                continue;
            }
            let reset = get(r.reset).is_some_and(|b| !b.is_zero());
            let value = if reset {
                get(r.reset_value).cloned()
            } else if r.enable.is_some() && get(r.enable).is_none_or(Bits::is_zero) {
                Some(state.clone())
            } else {
                get(r.input).cloned()
            };
            if let Some(v) = value {
                next.push((op, v));
            }
        }
        for (op, v) in next {
            self.regs.insert(op, v);
        }
        for m in self.memories.values_mut() {
            m.step(&self.values);
        }
        for (&op, sr) in self.shiftregs.iter_mut() {
            sr.step(ctx, ir, op, &self.values);
        }
        for (&op, f) in self.fifos.iter_mut() {
            f.step(ir, op, &self.values);
        }
        for c in self.children.values_mut() {
            c.step(ctx, ir);
        }
    }
}

/// The input ports of `module` that are not clocks, by name and width.
pub fn data_inputs(ctx: &Context, ir: &Ir, module: OpId) -> Vec<(String, u32, bool)> {
    module_ports(ctx, ir, module)
        .into_iter()
        .filter(|p| p.dir == Direction::Input)
        .map(|p| {
            let clock = crate::types::is_clock(ctx, p.ty);
            (p.name, bit_width(ctx, p.ty).unwrap_or(0) as u32, clock)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::order::tests::{module, parse_hw, FEEDBACK};

    #[test]
    fn a_unit_feeding_its_own_input_through_a_register_simulates() {
        let (ctx, m) = parse_hw(FEEDBACK);
        let top = module(&ctx, &m, "top");
        let mut sim = ModuleSim::new(&ctx, &m.ir, top).unwrap();
        let mut q = 0u64;
        for x in [5u64, 7, 1, 250] {
            let out = sim
                .eval(&ctx, &m.ir, &[Bits::zero(1), Bits::from_u64(8, x)])
                .unwrap();
            assert_eq!(
                out,
                [Bits::from_u64(8, q), Bits::from_u64(8, (x + 1) % 256)]
            );
            sim.step(&ctx, &m.ir);
            q = ((q ^ 3) + x) % 256;
        }
    }

    #[test]
    fn schedule_keeps_each_op_once() {
        let (ctx, m) = parse_hw(FEEDBACK);
        let top = module(&ctx, &m, "top");
        let order = schedule(&ctx, &m.ir, top).unwrap();
        let block = m.ir.regions(top).next().and_then(|r| m.ir.entry_block(r));
        assert_eq!(order.len(), m.ir.block_ops(block.unwrap()).count());
    }
}
