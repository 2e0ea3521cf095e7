//! The simulator's state for memories (see [`crate::seq::memory`] for their
//! meaning) and shift registers.

use crate::eval::Bits;
use crate::seq::memory::{memory, Memory};
use crate::seq::memory_ops::{fifo_operands, int_prop, shiftreg_operands};
use num_traits::ToPrimitive;
use silica_ir::diag::Diagnostic;
use silica_ir::{AttrKind, Context, Ir, OpId, ValueId};
use std::collections::HashMap;

type Res<T> = Result<T, Box<Diagnostic>>;

/// A memory's contents and its ports' read registers.
pub struct MemState {
    mem: Memory,
    words: Vec<Bits>,
    /// The data registers of registered read ports, by port op: the
    /// register the word is read into, then the pipeline after it.
    read_regs: HashMap<OpId, Vec<Bits>>,
}

/// A settled value (zero-width before the first settle).
fn val(values: &HashMap<ValueId, Bits>, v: ValueId) -> Bits {
    values.get(&v).cloned().unwrap_or_else(|| Bits::zero(0))
}

/// The flat word index of a port's address, if in range.
fn word_index(mem: &Memory, address: &[Bits]) -> Option<usize> {
    let flat = address
        .iter()
        .rev()
        .fold(Bits::zero(0), |acc, a| a.concat(&acc));
    flat.value()
        .to_u64()
        .filter(|&i| i < mem.depth)
        .map(|i| i as usize)
}

impl MemState {
    /// The memory `op` at power-up (its initialisation file's words, else
    /// zero).
    pub fn new(ctx: &Context, ir: &Ir, op: OpId) -> Res<MemState> {
        let mem = memory(ctx, ir, op)?;
        let w = mem.width as u32;
        let read_regs = mem
            .ports
            .iter()
            .filter(|p| p.read.is_some() && p.read_latency > 0)
            .map(|p| (p.op, vec![Bits::zero(w); p.read_latency as usize]))
            .collect();
        let words = match &mem.init {
            Some(init) => crate::seq::mem_init::load(init, mem.depth, w)
                .map_err(|m| Box::new(Diagnostic::error(ir.op_loc(op), m)))?
                .into_iter()
                .map(|word| word.unwrap_or_else(|| Bits::zero(w)))
                .collect(),
            None => vec![Bits::zero(w); mem.depth as usize],
        };
        Ok(MemState {
            words,
            read_regs,
            mem,
        })
    }

    /// The value a port op reads this cycle (`None` for ports that do not
    /// read), from the values settled so far.
    pub fn read(&self, port: OpId, values: &HashMap<ValueId, Bits>) -> Option<Bits> {
        if let Some(stages) = self.read_regs.get(&port) {
            return stages.last().cloned();
        }
        let p = self.mem.ports.iter().find(|p| p.op == port)?;
        p.read?;
        let address: Vec<Bits> = p.address.iter().map(|&a| val(values, a)).collect();
        Some(
            word_index(&self.mem, &address)
                .map(|i| self.words[i].clone())
                .unwrap_or_else(|| Bits::zero(self.mem.width as u32)),
        )
    }

    /// The clock edge: registered reads see the contents before this
    /// edge's writes; writes apply in port order.
    pub fn step(&mut self, values: &HashMap<ValueId, Bits>) {
        let high =
            |v: Option<ValueId>| v.is_none_or(|v| values.get(&v).is_some_and(|b| !b.is_zero()));
        let w = self.mem.width as u32;
        let mut writes = Vec::new();
        // Pipelines move on every edge; their first register only when
        // its port reads.
        for stages in self.read_regs.values_mut() {
            stages.rotate_right(1);
            stages[0] = stages[1.min(stages.len() - 1)].clone();
        }
        for p in &self.mem.ports {
            let address: Vec<Bits> = p.address.iter().map(|&a| val(values, a)).collect();
            let index = word_index(&self.mem, &address);
            let writing = p.writes && p.mode.is_none_or(|m| !val(values, m).is_zero());
            if high(p.enable) && writing {
                if let (Some(i), Some(d)) = (index, p.data) {
                    writes.push((i, val(values, d), p.mask.map(|m| val(values, m))));
                }
            } else if high(p.enable) && p.read.is_some() && p.read_latency > 0 {
                let word = index.map_or_else(|| Bits::zero(w), |i| self.words[i].clone());
                if let Some(first) = self.read_regs.get_mut(&p.op).and_then(|s| s.first_mut()) {
                    *first = word;
                }
            }
        }
        for (i, data, mask) in writes {
            self.words[i] = match (mask, self.mem.mask_group) {
                (Some(mask), Some(g)) => {
                    let g = g as u32;
                    (0..mask.width()).rev().fold(Bits::zero(0), |acc, k| {
                        let from = if mask.extract(k, 1).is_zero() {
                            &self.words[i]
                        } else {
                            &data
                        };
                        acc.concat(&from.extract(k * g, g))
                    })
                }
                _ => data,
            };
        }
    }
}

/// A shift register's stages, first stage first.
pub struct ShiftState {
    stages: Vec<Bits>,
}

impl ShiftState {
    /// The shift register `op` at power-up: its `powerOn` value (which
    /// must be an `hw.constant`) or zero.
    pub fn new(ctx: &Context, ir: &Ir, op: OpId) -> Res<ShiftState> {
        let n = int_prop(ctx, ir, op, "numElements").unwrap_or(1).max(1) as usize;
        let w = crate::types::bit_width(ctx, ir.value_type(ir.result(op, 0))).unwrap_or(0) as u32;
        let init = match shiftreg_operands(ctx, ir, op)[5] {
            None => Bits::zero(w),
            Some(v) => {
                let value = ir
                    .defining_op(v)
                    .filter(|&d| ctx.str(ir.op_name(d)) == "hw.constant")
                    .and_then(|d| {
                        match ctx.attr_kind(silica_ir::dialect::inherent_attr(ctx, ir, d, "value")?)
                        {
                            AttrKind::Integer { value, .. } => Some(value.clone()),
                            _ => None,
                        }
                    })
                    .ok_or_else(|| {
                        Box::new(Diagnostic::error(
                            ir.op_loc(op),
                            "a shift register's power-on value must be an hw.constant",
                        ))
                    })?;
                Bits::from_bigint(w, &value)
            }
        };
        Ok(ShiftState {
            stages: vec![init; n],
        })
    }

    /// The last stage.
    pub fn output(&self) -> Bits {
        self.stages.last().cloned().unwrap_or_else(|| Bits::zero(0))
    }

    /// The clock edge: reset loads every stage; an enable shifts.
    pub fn step(&mut self, ctx: &Context, ir: &Ir, op: OpId, values: &HashMap<ValueId, Bits>) {
        let [input, _, enable, reset, reset_value, _] = shiftreg_operands(ctx, ir, op);
        let get = |v: Option<ValueId>| v.and_then(|v| values.get(&v)).cloned();
        if get(reset).is_some_and(|r| !r.is_zero()) {
            if let Some(v) = get(reset_value) {
                self.stages.iter_mut().for_each(|s| *s = v.clone());
            }
        } else if get(enable).is_some_and(|e| !e.is_zero()) {
            if let Some(v) = get(input) {
                self.stages.rotate_right(1);
                self.stages[0] = v;
            }
        }
    }
}

/// A FIFO's state. Its meaning (shared with the Verilog emitter): a
/// write stores when write-enabled and not full, a read advances when
/// read-enabled and not empty; `full`, `empty` and the thresholds
/// (`count >= almost_full`, `count <= almost_empty`) follow the count;
/// the output is the word at the read pointer, at once (read latency 0)
/// or loaded into a register when read-enabled (latency 1); a
/// synchronous reset empties it.
pub struct FifoState {
    words: Vec<Bits>,
    count: u64,
    read: usize,
    write: usize,
    out: Bits,
}

impl FifoState {
    /// An empty FIFO (all words zero).
    pub fn new(ctx: &Context, ir: &Ir, op: OpId) -> FifoState {
        let depth = int_prop(ctx, ir, op, "depth").unwrap_or(1).max(1) as usize;
        let w = ir
            .results(op)
            .next()
            .and_then(|r| crate::types::bit_width(ctx, ir.value_type(r)))
            .unwrap_or(0) as u32;
        FifoState {
            words: vec![Bits::zero(w); depth],
            count: 0,
            read: 0,
            write: 0,
            out: Bits::zero(w),
        }
    }

    /// The values of the FIFO's results this cycle.
    pub fn outputs(&self, ctx: &Context, ir: &Ir, op: OpId) -> Vec<Bits> {
        let bit = |b: bool| Bits::from_u64(1, u64::from(b));
        let latency = int_prop(ctx, ir, op, "rdLatency").unwrap_or(0);
        let out = if latency > 0 {
            self.out.clone()
        } else {
            self.words[self.read].clone()
        };
        let depth = self.words.len() as u64;
        let mut v = vec![out, bit(self.count == depth), bit(self.count == 0)];
        if let Some(t) = int_prop(ctx, ir, op, "almostFullThreshold") {
            v.push(bit(self.count as i64 >= t));
        }
        if let Some(t) = int_prop(ctx, ir, op, "almostEmptyThreshold") {
            v.push(bit(self.count as i64 <= t));
        }
        v
    }

    /// The clock edge.
    pub fn step(&mut self, ir: &Ir, op: OpId, values: &HashMap<ValueId, Bits>) {
        let [input, rd_en, wr_en, _, reset] = fifo_operands(ir, op);
        let high =
            |v: Option<ValueId>| v.is_some_and(|v| values.get(&v).is_some_and(|b| !b.is_zero()));
        let depth = self.words.len();
        if high(rd_en) {
            self.out = self.words[self.read].clone();
        }
        if high(reset) {
            (self.count, self.read, self.write) = (0, 0, 0);
            return;
        }
        let do_write = high(wr_en) && self.count < depth as u64;
        let do_read = high(rd_en) && self.count > 0;
        if do_write {
            if let Some(v) = input {
                self.words[self.write] = val(values, v);
            }
            self.write = (self.write + 1) % depth;
        }
        if do_read {
            self.read = (self.read + 1) % depth;
        }
        self.count = self.count + u64::from(do_write) - u64::from(do_read);
    }
}
