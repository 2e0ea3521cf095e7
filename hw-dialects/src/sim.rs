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
//! from the part of its body they depend on ([`crate::sim_order`]).

use crate::aggregates::{array_of, field_of, field_offset, struct_fields};
use crate::eval::{Bits, Predicate};
use crate::hw::{find_module, instance_target, module_ports};
use crate::initial::initial_values;
use crate::memory::{is_memory, is_port};
use crate::seq::{is_async, reg_operands};
use crate::seq_memory::port_memory;
use crate::sim_memory::{FifoState, MemState, ShiftState};
use crate::sim_order::{is_state, Orders, Step};
use crate::types::{bit_width, Direction};
use num_traits::ToPrimitive;
use silica_ir::diag::Diagnostic;
use silica_ir::dialect::inherent_attr;
use silica_ir::{AttrKind, Context, Ir, OpId, ValueId};
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

fn int_attr(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> Option<num_bigint::BigInt> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, name)?) {
        AttrKind::Integer { value, .. } => Some(value.clone()),
        _ => None,
    }
}

fn width_of(ctx: &Context, ir: &Ir, v: ValueId) -> u32 {
    bit_width(ctx, ir.value_type(v)).unwrap_or(0) as u32
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
                .is_some_and(|c| crate::seq_canonicalize::constant_clock(ctx, ir, c).is_some());
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

/// The values of an op's results from its operands' values.
pub fn eval_results(ctx: &Context, ir: &Ir, op: OpId, args: &[Bits]) -> Res<Vec<Bits>> {
    if ctx.str(ir.op_name(op)) != "hw.struct_explode" {
        return Ok(vec![eval_op(ctx, ir, op, args)?]);
    }
    let fields = ir
        .operands(op)
        .next()
        .and_then(|v| struct_fields(ctx, ir.value_type(v)))
        .unwrap_or_default();
    Ok((0..fields.len())
        .map(|i| {
            let w = bit_width(ctx, fields[i].1).unwrap_or(0) as u32;
            args[0].extract(field_offset(ctx, &fields, i) as u32, w)
        })
        .collect())
}

/// The bits of an `hw.aggregate_constant`'s `fields` (or a nested
/// element) as a value of type `t`.
pub(crate) fn aggregate_bits(
    ctx: &Context,
    a: silica_ir::Attr,
    t: silica_ir::Type,
) -> Option<Bits> {
    let w = bit_width(ctx, t)? as u32;
    match ctx.attr_kind(a) {
        AttrKind::Integer { value, .. } => Some(Bits::from_bigint(w, value)),
        // An enum field: its index.
        AttrKind::String { value, .. } => {
            let fields = crate::enums::enum_fields(ctx, t)?;
            let index = fields.iter().position(|f| f.as_bytes() == &value[..])?;
            Some(Bits::from_u64(w, index as u64))
        }
        AttrKind::Array(items) => {
            let element_types: Vec<silica_ir::Type> = match array_of(ctx, t) {
                Some((n, e)) => vec![e; n as usize],
                None => struct_fields(ctx, t)?.into_iter().map(|f| f.1).collect(),
            };
            if element_types.len() != items.len() {
                return None;
            }
            let mut out = Bits::zero(0);
            for (&i, &et) in items.iter().zip(&element_types) {
                out = out.concat(&aggregate_bits(ctx, i, et)?);
            }
            Some(out)
        }
        _ => None,
    }
}

/// The value of a comb/hw op's result from its operands' values.
pub fn eval_op(ctx: &Context, ir: &Ir, op: OpId, args: &[Bits]) -> Res<Bits> {
    let name = ctx.str(ir.op_name(op));
    let result_width = ir.results(op).next().map_or(0, |r| width_of(ctx, ir, r));
    let fold = |f: fn(&Bits, &Bits) -> Bits| -> Res<Bits> {
        let mut it = args.iter();
        let first = it.next().ok_or_else(|| err(ir, op, "expected operands"))?;
        Ok(it.fold(first.clone(), |acc, x| f(&acc, x)))
    };
    let two = || -> Res<(&Bits, &Bits)> {
        match args {
            [a, b] => Ok((a, b)),
            _ => Err(err(ir, op, "expected two operands")),
        }
    };
    Ok(match name {
        "hw.constant" => {
            let v = int_attr(ctx, ir, op, "value").unwrap_or_default();
            Bits::from_bigint(result_width, &v)
        }
        "comb.add" => fold(Bits::add)?,
        "comb.mul" => fold(Bits::mul)?,
        "comb.and" => fold(Bits::and)?,
        "comb.or" => fold(Bits::or)?,
        "comb.xor" => fold(Bits::xor)?,
        "comb.sub" => two().map(|(a, b)| a.sub(b))?,
        "comb.divu" => two().map(|(a, b)| a.divu(b))?,
        "comb.divs" => two().map(|(a, b)| a.divs(b))?,
        "comb.modu" => two().map(|(a, b)| a.modu(b))?,
        "comb.mods" => two().map(|(a, b)| a.mods(b))?,
        "comb.shl" => two().map(|(a, b)| a.shl(b))?,
        "comb.shru" => two().map(|(a, b)| a.shru(b))?,
        "comb.shrs" => two().map(|(a, b)| a.shrs(b))?,
        "comb.icmp" => {
            let code = int_attr(ctx, ir, op, "predicate")
                .and_then(|v| i64::try_from(v).ok())
                .and_then(Predicate::from_code)
                .ok_or_else(|| err(ir, op, "unknown predicate"))?;
            two().map(|(a, b)| a.icmp(code, b))?
        }
        "comb.parity" => args[0].parity(),
        "comb.extract" => {
            let low = int_attr(ctx, ir, op, "lowBit")
                .and_then(|v| u32::try_from(v).ok())
                .unwrap_or(0);
            args[0].extract(low, result_width)
        }
        "comb.concat" => args.iter().fold(Bits::zero(0), |acc, x| acc.concat(x)),
        "comb.replicate" => {
            let w = args[0].width();
            args[0].replicate(result_width.checked_div(w).unwrap_or(0))
        }
        "comb.mux" => {
            if args[0].is_zero() {
                args[2].clone()
            } else {
                args[1].clone()
            }
        }
        "comb.reverse" => args[0].reverse(),
        "comb.truth_table" => {
            let mut index = 0usize;
            for a in args {
                index = (index << 1) | usize::from(!a.is_zero());
            }
            let entry = match inherent_attr(ctx, ir, op, "lookupTable").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::Array(items)) => items.get(index).copied(),
                _ => None,
            };
            let bit = entry.is_some_and(|e| matches!(ctx.attr_kind(e), AttrKind::Integer { value, .. } if *value != 0.into()));
            Bits::from_u64(1, u64::from(bit))
        }
        "hw.wire" | "seq.to_clock" | "seq.from_clock" => args[0].clone(),
        "hw.bitcast" if args[0].width() == result_width => args[0].clone(),
        "hw.array_create" | "hw.array_concat" | "hw.struct_create" => {
            args.iter().fold(Bits::zero(0), |acc, x| acc.concat(x))
        }
        "hw.array_get" | "hw.array_slice" => {
            let (n, e) = ir
                .operands(op)
                .next()
                .and_then(|v| array_of(ctx, ir.value_type(v)))
                .ok_or_else(|| err(ir, op, "expected an array operand"))?;
            let ew = bit_width(ctx, e).unwrap_or(0);
            let index = args[1].value().to_u64().filter(|&i| i < n);
            match index {
                Some(i) => args[0].extract((i * ew) as u32, result_width),
                None => Bits::zero(result_width),
            }
        }
        "hw.array_inject" => {
            let (n, e) = ir
                .operands(op)
                .next()
                .and_then(|v| array_of(ctx, ir.value_type(v)))
                .ok_or_else(|| err(ir, op, "expected an array operand"))?;
            let ew = bit_width(ctx, e).unwrap_or(0) as u32;
            // An index past the end leaves the array as it is.
            match args[1].value().to_u64().filter(|&i| i < n) {
                Some(i) => {
                    let low = i as u32 * ew;
                    let total = args[0].width();
                    let high = args[0].extract(low + ew, total - low - ew);
                    high.concat(&args[2]).concat(&args[0].extract(0, low))
                }
                None => args[0].clone(),
            }
        }
        "hw.struct_extract" | "hw.struct_inject" => {
            let fields = ir
                .operands(op)
                .next()
                .and_then(|v| struct_fields(ctx, ir.value_type(v)))
                .ok_or_else(|| err(ir, op, "expected a struct operand"))?;
            let i = field_of(ctx, ir, op)
                .filter(|&i| i < fields.len())
                .ok_or_else(|| err(ir, op, "field index out of range"))?;
            let off = field_offset(ctx, &fields, i) as u32;
            let fw = bit_width(ctx, fields[i].1).unwrap_or(0) as u32;
            if name == "hw.struct_extract" {
                args[0].extract(off, fw)
            } else {
                let total = args[0].width();
                let high = args[0].extract(off + fw, total - off - fw);
                let low = args[0].extract(0, off);
                high.concat(&args[1]).concat(&low)
            }
        }
        "hw.enum.constant" => {
            let index = crate::enums::constant_index(ctx, ir, op)
                .ok_or_else(|| err(ir, op, "enum value not in its type"))?;
            Bits::from_u64(result_width, index as u64)
        }
        "hw.enum.cmp" => Bits::from_u64(1, u64::from(args[0] == args[1])),
        "hw.union_create" | "hw.union_extract" => {
            let (lo, w) = crate::unions::accessed(ctx, ir, op)
                .and_then(|(fields, i)| crate::unions::field_bits(ctx, &fields, i))
                .ok_or_else(|| err(ir, op, "field index out of range"))?;
            if name == "hw.union_extract" {
                args[0].extract(lo as u32, w as u32)
            } else {
                let high = Bits::zero(result_width - (lo + w) as u32);
                high.concat(&args[0]).concat(&Bits::zero(lo as u32))
            }
        }
        "hw.aggregate_constant" => {
            let t = ir.value_type(ir.result(op, 0));
            inherent_attr(ctx, ir, op, "fields")
                .and_then(|a| aggregate_bits(ctx, a, t))
                .ok_or_else(|| err(ir, op, "malformed aggregate constant"))?
        }
        "seq.clock_inv" => Bits::from_u64(1, u64::from(args[0].is_zero())),
        "seq.const_clock" => {
            let v = int_attr(ctx, ir, op, "value").unwrap_or_default();
            Bits::from_bigint(1, &v)
        }
        _ => return Err(err(ir, op, format!("'{name}' is not simulated"))),
    })
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
    use crate::sim_order::tests::{module, parse_hw, FEEDBACK};

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
