//! The estimate of a built circuit from the target's measured operator
//! library: LUTs and DSPs of every comb op of the design's modules (the
//! controller, counters, register and port multiplexers included, not
//! only the kernel's operations), and the critical path: the longest
//! chain of op delays between registers, plus the fabric's
//! register-to-register period, as the predicted clock period.
//!
//! Float operator modules (`silica_*`) are not walked: their areas come
//! from their measured points (`Library::float_area`), their instances'
//! results start paths (the operators register their outputs whenever
//! they are pipelined), and their stages' periods are the measured
//! periods where the library has the kind at that latency.
//!
//! Op costs: `comb.add`/`sub` (class `add`), `icmp` (`cmp`, at the
//! operands' width), `mux` (`mux`), `and`/`or`/`xor` (`logic`: one-bit
//! gates pack three more inputs into each LUT4), shifts by a variable
//! amount (`shift`), `mul` (`mul`, by a constant: adds), `div`/`mod`
//! (`div`), `hw.array_get` (a ROM: a tree of multiplexers); wiring
//! (extract, concat, replicate, constants) costs nothing, and so do the
//! multiplexers at register inputs that become the flip-flops' enables
//! and synchronous resets.

use crate::library::Library;
use rustc_hash::{FxHashMap, FxHashSet};
use silica_hw_dialects::types::bit_width;
use silica_ir::{AttrKind, Context, Ir, OpId, ValueId};

/// The estimate of a circuit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CircuitEstimate {
    pub lut: f64,
    pub dsp: u64,
    /// The predicted period (ns): the longest register-to-register path.
    pub period_ns: f64,
    /// The ops of that path, from its start (their `op` names).
    pub path: Vec<String>,
}

/// Estimates the modules of the `builtin.module` `top`.
pub fn estimate(ctx: &Context, ir: &Ir, top: OpId, lib: &Library) -> CircuitEstimate {
    let mut e = CircuitEstimate {
        period_ns: lib.register_ns,
        ..CircuitEstimate::default()
    };
    let Some(body) = ir.regions(top).next().and_then(|r| ir.entry_block(r)) else {
        return e;
    };
    for module in ir.block_ops(body) {
        if ctx.str(ir.op_name(module)) != "hw.module"
            || string(ctx, ir, module, "sym_name").starts_with("silica_")
        {
            continue;
        }
        let Some(block) = ir.regions(module).next().and_then(|r| ir.entry_block(r)) else {
            continue;
        };
        let mut walk = Walk {
            ctx,
            ir,
            lib,
            arrival: FxHashMap::default(),
            absorbed: absorbed(ctx, ir, block),
        };
        for op in ir.block_ops(block) {
            let (lut, dsp) = walk.area(op);
            e.lut += lut;
            e.dsp += dsp;
            // Paths end at register inputs and memory ports.
            let name = ctx.str(ir.op_name(op));
            if name.starts_with("seq.") || name == "hw.output" || name == "hw.instance" {
                for v in ir.operands(op) {
                    let (t, path) = walk.arrival(v);
                    if lib.register_ns + t > e.period_ns {
                        e.period_ns = lib.register_ns + t;
                        e.path = path;
                    }
                }
            }
        }
    }
    e
}

/// The multiplexers at register inputs that the tools turn into the
/// flip-flops' clock enables and synchronous resets (yosys's `opt_dff`):
/// every one with an arm that holds the register's value, then, at the
/// top of what is left, one with a constant arm (where the register has
/// no reset of its own). Only multiplexers used once, on the way to the
/// register, count.
fn absorbed(ctx: &Context, ir: &Ir, block: silica_ir::BlockId) -> FxHashSet<OpId> {
    let mut free = FxHashSet::default();
    for op in ir.block_ops(block) {
        if ctx.str(ir.op_name(op)) != "seq.compreg" {
            continue;
        }
        let q = ir.result(op, 0);
        let top = strip(ctx, ir, ir.operand(op, 0), q, &mut free);
        let has_reset = ir.num_operands(op) > 2;
        if let Some(m) = single_mux(ctx, ir, top).filter(|_| !has_reset) {
            let constant = |v: ValueId| {
                ir.defining_op(v)
                    .is_some_and(|d| ctx.str(ir.op_name(d)) == "hw.constant")
            };
            let a = strip(ctx, ir, ir.operand(m, 1), q, &mut free);
            let b = strip(ctx, ir, ir.operand(m, 2), q, &mut free);
            if constant(a) || constant(b) {
                free.insert(m);
            }
        }
    }
    free
}

/// The multiplexer defining `v` when `v` has no other use.
fn single_mux(ctx: &Context, ir: &Ir, v: ValueId) -> Option<OpId> {
    let op = ir.defining_op(v)?;
    (ctx.str(ir.op_name(op)) == "comb.mux" && ir.uses(v).count() == 1).then_some(op)
}

/// `v` with the multiplexer arms holding `q` taken out (those
/// multiplexers recorded in `free`): what the register loads when enabled.
fn strip(ctx: &Context, ir: &Ir, v: ValueId, q: ValueId, free: &mut FxHashSet<OpId>) -> ValueId {
    if v == q {
        return q;
    }
    let Some(op) = single_mux(ctx, ir, v) else {
        return v;
    };
    let a = strip(ctx, ir, ir.operand(op, 1), q, free);
    let b = strip(ctx, ir, ir.operand(op, 2), q, free);
    if a == q {
        free.insert(op);
        b
    } else if b == q {
        free.insert(op);
        a
    } else {
        v
    }
}

/// A module's comb graph with the arrival times found so far.
struct Walk<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    lib: &'a Library,
    arrival: FxHashMap<ValueId, (f64, Vec<String>)>,
    /// Multiplexers that become flip-flop enables and resets.
    absorbed: FxHashSet<OpId>,
}

impl Walk<'_> {
    fn width(&self, v: ValueId) -> u32 {
        bit_width(self.ctx, self.ir.value_type(v)).unwrap_or(0) as u32
    }

    /// The library class and width an op costs as, and whether it is a
    /// one-bit gate of `n` inputs (packed into LUT4s).
    fn class(&self, op: OpId) -> Option<(&'static str, u32)> {
        let ir = self.ir;
        if self.absorbed.contains(&op) {
            return None;
        }
        let constant = |i: usize| {
            ir.operands(op)
                .nth(i)
                .and_then(|v| ir.defining_op(v))
                .is_some_and(|d| self.ctx.str(ir.op_name(d)) == "hw.constant")
        };
        let out = ir.results(op).next().map_or(0, |v| self.width(v));
        let first = ir.operands(op).next().map_or(0, |v| self.width(v));
        Some(match self.ctx.str(ir.op_name(op)) {
            "comb.add" | "comb.sub" => ("add", out),
            "comb.icmp" => ("cmp", first),
            "comb.mux" => ("mux", out),
            "comb.and" | "comb.or" | "comb.xor" | "comb.parity" => ("logic", out.max(first)),
            "comb.shl" | "comb.shru" | "comb.shrs" if !constant(1) => ("shift", out),
            "comb.mul" if constant(0) || constant(1) => ("add", out),
            "comb.mul" => ("mul", out),
            "comb.divu" | "comb.divs" | "comb.modu" | "comb.mods" => ("div", out),
            "hw.array_get" => ("mux", out),
            _ => return None,
        })
    }

    /// How many of the op's class units it is: a one-bit gate of `n`
    /// inputs fills `(n - 1) / 3` LUT4s; a ROM read is a multiplexer
    /// tree over its words, four words per LUT level.
    fn units(&self, op: OpId, class: &str, width: u32) -> f64 {
        let n = self.ir.num_operands(op) as f64;
        match class {
            "logic" if width == 1 => ((n - 1.0) / 3.0).max(1.0 / 3.0),
            "logic" => (n - 1.0).max(1.0),
            "mux" if width == 1 => 2.0 / 3.0,
            _ if self.ctx.str(self.ir.op_name(op)) == "hw.array_get" => {
                let words = self.ir.operands(op).next().map_or(1, |a| {
                    let bits = self.width(a);
                    bits / width.max(1)
                });
                f64::from(words.max(2)) / 3.0
            }
            _ => 1.0,
        }
    }

    /// The LUTs and DSPs of one op.
    fn area(&self, op: OpId) -> (f64, u64) {
        let Some((class, width)) = self.class(op) else {
            return (0.0, 0);
        };
        let units = self.units(op, class, width);
        let lut = self.lib.luts(class, width).unwrap_or(0.0) * units;
        let dsp = if class == "mul" {
            self.lib.dsps(class, width).unwrap_or(0)
        } else {
            0
        };
        (lut, dsp)
    }

    /// The delay of one op (ns).
    fn delay(&self, op: OpId) -> f64 {
        let Some((class, width)) = self.class(op) else {
            return 0.0;
        };
        let d = self.lib.delay_ns(class, width).unwrap_or(0.0);
        match self.ctx.str(self.ir.op_name(op)) {
            "hw.array_get" => d * self.units(op, class, width).log(4.0).ceil().max(1.0),
            _ => d,
        }
    }

    /// When `v` settles after the clock edge (ns, the register's own
    /// period excluded), and the ops on the way.
    fn arrival(&mut self, v: ValueId) -> (f64, Vec<String>) {
        if let Some(a) = self.arrival.get(&v) {
            return a.clone();
        }
        // Iteratively: the ops still to evaluate, operands first.
        let mut stack = vec![v];
        let mut started = FxHashSet::default();
        while let Some(&x) = stack.last() {
            if self.arrival.contains_key(&x) {
                stack.pop();
                continue;
            }
            let Some(op) = self.ir.defining_op(x) else {
                self.arrival.insert(x, (0.0, Vec::new()));
                stack.pop();
                continue;
            };
            let name = self.ctx.str(self.ir.op_name(op));
            if !name.starts_with("comb.") && name != "hw.array_get" {
                // Registers, memory read ports, instances, constants.
                self.arrival.insert(x, (0.0, Vec::new()));
                stack.pop();
                continue;
            }
            let pending: Vec<ValueId> = self
                .ir
                .operands(op)
                .filter(|o| !self.arrival.contains_key(o))
                .collect();
            // A value met again before its operands settle is on a
            // combinational loop: the loop is cut there.
            if !pending.is_empty() && started.insert(x) {
                stack.extend(pending);
                continue;
            }
            let (t, mut path) = self
                .ir
                .operands(op)
                .map(|o| self.arrival.get(&o).cloned().unwrap_or_default())
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .unwrap_or_default();
            let d = self.delay(op);
            if d > 0.0 {
                path.push(name.trim_start_matches("comb.").to_string());
            }
            for r in self.ir.results(op) {
                self.arrival.insert(r, (t + d, path.clone()));
            }
            stack.pop();
        }
        self.arrival[&v].clone()
    }
}

/// The string attribute `name` of `op` (empty when absent).
fn string(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> String {
    match silica_ir::dialect::inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    }
}
