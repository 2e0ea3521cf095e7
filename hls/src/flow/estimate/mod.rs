//! The estimate of a built circuit from the target's measured operator
//! library: LUTs and DSPs of every comb op of the design's modules (the
//! controller, counters, register and port multiplexers included, not
//! only the kernel's operations), and the critical path: the longest
//! chain of op delays between registers, plus the fabric's
//! register-to-register period, as the predicted clock period. Control
//! logic is timed by the library's measured routing (class `route`): a
//! register's enable and reset selects end through one LUT driving the
//! register's bits (the measured enable fan-out), each LUT level of
//! gates on their way a measured further level (a LUT and its net); on
//! the way to a flip-flop's data input a run of gates costs its slowest
//! gate's measured delay (the tools merge it into few LUTs, the last in
//! the flip-flop's cell). A gate's levels are those of its whole cone
//! as the tools map it: through the gates that other logic reads too
//! (the mapper duplicates them), a tree of LUT4s over the bits the cone
//! reads, after its latest input. A carry chain's operand word that several
//! chains read comes over longer nets (`fanout`: the measured
//! `word_fanout` at that many readers). On iCE40 a register both reset
//! and enabled is enabled by its reset too (`SB_DFFESR` resets only when
//! enabled): a reset select's path takes a further level, the resets'
//! LUT before the enable's. Two products that only the exclusive arms of
//! one multiplexer read are one multiplier fed by operand multiplexers
//! (`share`: yosys's `share` pass), its operands arriving through the
//! select's logic and a LUT level.
//!
//! Float operator modules (`silica_*`) are not walked: their instances'
//! areas come from their measured points (`Library::float_area`; two
//! instances of one operator on the same operands once: yosys merges
//! them once it flattens the design), save their lone flip-flops, which
//! the measured LUTs leave out: those are counted from each operator
//! module's registers as the design's own are; a pipelined instance's first
//! stage continues the paths to its operands (after the multiplexers
//! before them, `Walk::operand_arrival`) and its last stage starts the
//! paths from its result, a combinational one is a delay on the paths
//! through it (the chosen latency's stage delays, scaled to the
//! operator's measured delay), and each instance's slowest stage is a
//! period of its own (`FloatChoices::period`).
//!
//! Each module's ops are priced (`price`) after what the synthesis tools
//! simplify first: constant operands, identities and duplicate ops
//! (`fold`), and the register-input multiplexers that become the
//! flip-flops' enables and synchronous resets (`absorb`).
//!
//! A pipelined divider's rows are subtracts and multiplexers of the
//! walked IR, whose carry-out selects every bit of the next partial
//! remainder: the tools time such a row well above its subtract and
//! multiplexer (ECP5: about 5 ns at 32 bits against 3 ns), so each
//! divider's slowest stage is a period of its own, as measured
//! (`Library::divider_stage_ns`, [`CircuitEstimate::add_dividers`]).
//!
//! Flip-flops are the register bits yosys keeps (`flops`): registers
//! of the same inputs merged, bits nothing reads and bits that load
//! only constants left out, and behind the scan wrapper the registers
//! of input ports that hold the input chain's bits.
//!
//! Registers loaded from no LUT (from other registers, ports, constants,
//! operator instances) are counted apart (`lone_ff`): an iCE40 logic cell
//! holds one LUT and one flip-flop, and nextpnr packs a flip-flop with the
//! LUT that computes what it loads, so those take cells of their own (the
//! report counts logic cells on iCE40). A design whose ports outnumber
//! the package's pins is placed behind the scan wrapper, whose logic
//! counts too (`scan`).

mod absorb;
mod cone;
mod demand;
mod fanout;
mod flops;
mod fold;
mod price;
pub mod rams;
pub mod scan;
mod share;
mod summary;

pub use summary::{is_zero, Estimate, MeasuredError, MEASURED_ERROR};

use crate::float::{FloatOp, LatencyChoice, Operator};
use crate::flow::schedule::floats::FloatChoices;
use crate::model::target::library::Library;
use price::Pricer;
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::{AttrKind, BlockId, Context, Ir, OpId, ValueId};

/// The estimate of a circuit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CircuitEstimate {
    pub lut: f64,
    pub dsp: u64,
    /// The predicted period (ns): the longest register-to-register path.
    pub period_ns: f64,
    /// The ops of that path, from its start (their `op` names).
    pub path: Vec<String>,
    /// Flip-flops loaded from no LUT (from registers, ports, constants,
    /// memory reads, operator instances): on iCE40 each takes a logic
    /// cell of its own, where a flip-flop loaded from a LUT shares the
    /// LUT's cell.
    pub lone_ff: u64,
    /// The flip-flops of the registers yosys keeps (`flops`).
    pub ff: u64,
    /// The pipeline flip-flops of the float operators (their measured
    /// points'; their LUTs and DSPs are in `lut` and `dsp`).
    pub float_ff: f64,
    /// The scan wrapper, when the design sits behind one (its LUTs and
    /// lone flip-flops are in `lut` and `lone_ff`).
    pub scan: Option<scan::Wrapper>,
    /// The multipliers the circuit keeps: products of two variable
    /// operands once duplicates fold (products of the same registers or
    /// memory read ports are one circuit however many operations the
    /// schedule has), and float multiplier instances on distinct
    /// operands.
    pub multipliers: u64,
    /// Per float operator, when its latest operand settles after the
    /// clock edge (ns, the register period excluded): the logic its
    /// first stage chains after (a shared unit's operand multiplexer and
    /// its selects), which `Library::reserve_float_inputs` keeps out of
    /// that stage's budget.
    pub float_inputs: Vec<(Operator, f64)>,
    /// Per module, when its latest output that the scan wrapper's
    /// output chain would read settles (ns after the clock edge, the
    /// register period excluded) and the ops on the way: where its
    /// outputs feed that chain, a path goes on there.
    pub outputs: Vec<(String, f64, Vec<String>)>,
    /// The on-chip RAMs and the ports they use.
    pub rams: Vec<crate::model::target::rams::Ram>,
}

impl CircuitEstimate {
    /// Times the pipelined dividers (width and rows of the slowest stage
    /// each, `construct::Circuit::dividers`): each one's slowest stage is a
    /// period of its own, the register period and the measured stage.
    pub fn add_dividers(&mut self, dividers: &[(u32, u32)], lib: &Library) {
        for &(width, rows) in dividers {
            let Some(stage) = lib.divider_stage_ns(width, rows) else {
                continue;
            };
            if lib.register_ns + stage > self.period_ns {
                self.period_ns = lib.register_ns + stage;
                self.path = vec![format!("divider stage ({rows} rows of {width} bits)")];
            }
        }
    }

    /// Notes that an operand of float operator `o` settles `t` ns after
    /// the clock edge (the latest so far is kept).
    fn note_float_input(&mut self, o: Operator, t: f64) {
        match self.float_inputs.iter_mut().find(|(x, _)| *x == o) {
            Some(f) => f.1 = f.1.max(t),
            None => self.float_inputs.push((o, t)),
        }
    }

    /// Adds the scan wrapper's logic, and the paths from the core's
    /// outputs through the output chain's xor LUTs where those are a LUT
    /// level of their own (ECP5: ECP5 vadd's 4.4 ns path runs from its
    /// add's carry chain through the xor into the chain's flip-flop).
    pub fn add_scan(&mut self, w: scan::Wrapper, lib: &Library) {
        if let (Some(top), Some((_, step))) = (&w.xor_level, lib.levels_ns()) {
            let latest = self.outputs.iter().find(|o| &o.0 == top);
            if let Some((_, t, path)) =
                latest.filter(|o| lib.register_ns + o.1 + step > self.period_ns)
            {
                self.period_ns = lib.register_ns + t + step;
                self.path = path.clone();
                self.path.push("scan chain xor".to_string());
            }
        }
        self.lut += w.lut;
        // The core's registers merged into the input chain loaded an
        // input port: lone flip-flops, now the chain's.
        self.ff = self.ff.saturating_sub(w.merged);
        self.lone_ff = self.lone_ff.saturating_sub(w.merged);
        self.lone_ff += w.lone_ff;
        self.scan = Some(w);
    }
}

/// Estimates the modules of the `builtin.module` `top`. The ports of the
/// module named `pins`, when given, are the package's pins: paths from
/// and to them are not timed (nextpnr reports them apart from the
/// clock's Fmax; ECP5 dot's product of two input ports is not on its
/// 4.2 ns critical path).
pub fn estimate(
    ctx: &Context,
    ir: &Ir,
    top: OpId,
    (lib, floats): (&Library, &FloatChoices),
    pins: Option<&str>,
) -> CircuitEstimate {
    let mut e = CircuitEstimate {
        period_ns: lib.register_ns,
        ..CircuitEstimate::default()
    };
    let Some(body) = ir.regions(top).next().and_then(|r| ir.entry_block(r)) else {
        return e;
    };
    let mut merged = FxHashSet::default();
    let mut float_lone = FxHashMap::default();
    // Lone flip-flops take logic cells of their own on iCE40 only.
    let lone_cells = lib.fabric().lone_flops_take_cells;
    for module in ir.block_ops(body) {
        if ctx.str(ir.op_name(module)) != "hw.module"
            || string(ctx, ir, module, "sym_name").starts_with("silica_")
        {
            continue;
        }
        let Some(block) = ir.regions(module).next().and_then(|r| ir.entry_block(r)) else {
            continue;
        };
        let pins = pins.is_some_and(|p| string(ctx, ir, module, "sym_name") == p);
        let flops = flops::Flops::of(ctx, ir, block);
        e.ff += flops.bits();
        let mut walk = Walk::new(ctx, ir, (lib, floats), block, pins);
        e.rams.extend(rams::rams(ctx, ir, block, &|enable| {
            walk.price.small_constant(enable) == Some(0)
        }));
        for op in ir.block_ops(block) {
            let (lut, dsp) = walk.price.placed_area(op);
            e.lut += lut;
            e.dsp += dsp;
            e.multipliers += u64::from(walk.price.is_multiplier(op));
            // Paths end at register inputs and memory ports.
            let name = ctx.str(ir.op_name(op));
            if let Some((module, o, latency)) = float_instance(ctx, ir, op, floats) {
                // Instances of one operator on the same operands are
                // one circuit after yosys flattens and merges them.
                let operands: Vec<ValueId> =
                    ir.operands(op).map(|v| walk.price.resolve(v)).collect();
                if merged.insert((module.clone(), operands)) {
                    e.multipliers += u64::from(matches!(o.op, FloatOp::Mul));
                    if let Some((lut, ff, dsp)) = lib.float_area(o, latency) {
                        e.lut += lut;
                        e.float_ff += ff;
                        e.dsp += dsp;
                    }
                    if lone_cells {
                        let lone = float_lone.entry(module.clone()).or_insert_with(|| {
                            FloatLone::of(ctx, ir, (lib, floats), body, &module)
                        });
                        // An operand computed by LUTs here packs with
                        // the flip-flops it loads there, once flattened.
                        let packed: u64 = ir
                            .operands(op)
                            .enumerate()
                            .filter(|&(_, v)| walk.price.computed_by_luts(v))
                            .filter_map(|(i, _)| lone.from_port.get(&i))
                            .sum();
                        e.lone_ff += lone.total.saturating_sub(packed);
                    }
                }
                if let Some(t) = floats.period(o).filter(|&t| t > e.period_ns) {
                    e.period_ns = t;
                    e.path = vec![format!("{module} (its slowest stage)")];
                }
            }
            if matches!(name, "seq.compreg" | "seq.firreg") {
                e.lone_ff += walk.lone_bits(op, &flops);
            }
            // A pipelined float operator's first stage continues the
            // paths to its operands (a combinational one, every path
            // through it: its results' arrivals).
            let first = float_stages(ctx, ir, op, floats);
            if first.as_ref().is_some_and(|(_, _, c)| c.latency == 0) {
                continue;
            }
            if let Some((module, o, c)) = &first {
                for v in ir.operands(op) {
                    let mut a = walk.operand_arrival(v);
                    e.note_float_input(*o, a.t);
                    a.path.push(format!("{module} (first stage)"));
                    let t = a.t + c.input_delay_ns;
                    if lib.register_ns + t > e.period_ns {
                        e.period_ns = lib.register_ns + t;
                        e.path = a.path;
                    }
                }
                continue;
            }
            if name.starts_with("seq.") || (name == "hw.output" && !pins) || name == "hw.instance" {
                let scanned = outputs_scanned(ctx, ir, module, op);
                for (i, (t, path)) in walk.ends(op).into_iter().enumerate() {
                    if scanned.get(i).copied().unwrap_or(false) {
                        note_output(
                            &mut e.outputs,
                            &string(ctx, ir, module, "sym_name"),
                            t,
                            &path,
                        );
                    }
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

/// The lone flip-flops (loaded from no LUT) of a float operator's
/// module: its pipeline registers that carry a sign, an exponent or an
/// operand on through its stages take logic cells of their own on
/// iCE40, which its measured LUTs do not count.
struct FloatLone {
    total: u64,
    /// Of those, the bits of registers loaded straight from input port
    /// `i` (through slices): an instance whose operand there is computed
    /// by LUTs packs them with those LUTs.
    from_port: FxHashMap<usize, u64>,
}

impl FloatLone {
    /// The lone flip-flops of the module named `name` in `body`.
    fn of(
        ctx: &Context,
        ir: &Ir,
        operators: (&Library, &FloatChoices),
        body: BlockId,
        name: &str,
    ) -> FloatLone {
        let mut lone = FloatLone {
            total: 0,
            from_port: FxHashMap::default(),
        };
        let Some(block) = ir
            .block_ops(body)
            .find(|&m| {
                ctx.str(ir.op_name(m)) == "hw.module" && string(ctx, ir, m, "sym_name") == name
            })
            .and_then(|m| ir.regions(m).next())
            .and_then(|r| ir.entry_block(r))
        else {
            return lone;
        };
        let flops = flops::Flops::of(ctx, ir, block);
        let walk = Walk::new(ctx, ir, operators, block, false);
        let args = ir.block_args(block);
        for op in ir.block_ops(block) {
            if !matches!(ctx.str(ir.op_name(op)), "seq.compreg" | "seq.firreg") {
                continue;
            }
            let bits = walk.lone_bits(op, &flops);
            lone.total += bits;
            let port = ir.operands(op).next().map(|v| {
                let mut v = walk.price.resolve(v);
                while let Some(d) = ir
                    .defining_op(v)
                    .filter(|&d| ctx.str(ir.op_name(d)) == "comb.extract")
                {
                    v = walk.price.resolve(ir.operand(d, 0));
                }
                v
            });
            if let Some(i) = port.and_then(|v| args.iter().position(|&a| a == v)) {
                *lone.from_port.entry(i).or_default() += bits;
            }
        }
        lone
    }
}

/// For each operand of `op`, when it is module `module`'s `hw.output`:
/// whether it is an output the scan wrapper's output chain reads (not a
/// control port such as `done`, nor a constant); empty for other ops.
fn outputs_scanned(ctx: &Context, ir: &Ir, module: OpId, op: OpId) -> Vec<bool> {
    if ctx.str(ir.op_name(op)) != "hw.output" {
        return Vec::new();
    }
    let names: Vec<String> = silica_hw_dialects::hw::module_ports(ctx, ir, module)
        .into_iter()
        .filter(|p| p.dir == silica_hw_dialects::types::Direction::Output)
        .map(|p| p.name)
        .collect();
    ir.operands(op)
        .zip(names)
        .map(|(v, name)| {
            let constant = ir
                .defining_op(v)
                .is_some_and(|d| ctx.str(ir.op_name(d)) == "hw.constant");
            !constant && !crate::model::interface::names::CONTROL.contains(&name.as_str())
        })
        .collect()
}

/// Notes that an output of module `module` settles `t` ns after the
/// clock edge through `path` (the latest of each module is kept).
fn note_output(
    outputs: &mut Vec<(String, f64, Vec<String>)>,
    module: &str,
    t: f64,
    path: &[String],
) {
    match outputs.iter_mut().find(|o| o.0 == module) {
        Some(o) if o.1 >= t => {}
        Some(o) => {
            o.1 = t;
            o.2 = path.to_vec();
        }
        None => outputs.push((module.to_string(), t, path.to_vec())),
    }
}

/// When a value settles after the clock edge (ns, the register's own
/// period excluded), the ops on the way, and whether the last op that
/// took time was a LUT level of gates.
#[derive(Clone, Debug, Default)]
struct Arrival {
    t: f64,
    path: Vec<String>,
    gate: bool,
    /// On the way to a data input: the delay of the run of gates the
    /// value ends (its slowest gate's).
    run: f64,
    /// The LUT levels of that run; on the way to an enable, those of the
    /// gates since the last op of another kind.
    levels: u32,
    /// Whether the value comes straight from a carry chain's sums (an
    /// add, a subtract, a product by a constant priced as adds), through
    /// wiring only.
    chain: bool,
}

impl Arrival {
    /// When the value settles at the input of an op that cannot take in
    /// the run of gates it ends (an adder's carry chain, a compare, a
    /// multiplier): the run costs its LUT levels, each a measured further
    /// level (a LUT and its net), not its slowest gate; only a flip-flop's
    /// cell merges it.
    /// `measured` of the levels are in the op's own measured delay (a
    /// multiplier is measured fed by one LUT level).
    fn unmerged(&self, step: f64, measured: u32) -> f64 {
        if self.levels == 0 {
            return self.t;
        }
        self.t - self.run + f64::from(self.levels.saturating_sub(measured)) * step
    }
}

/// A module's comb graph with the arrival times found so far.
struct Walk<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    lib: &'a Library,
    /// The design's float operator latencies.
    floats: &'a FloatChoices,
    /// The measured LUT levels: the first's delay, each further one's.
    levels: Option<(f64, f64)>,
    price: Pricer<'a>,
    /// Whether the module's ports are the package's pins (its inputs
    /// start no timed path).
    pins: bool,
    /// Arrivals on the way to flip-flops' data inputs (`false`) and to
    /// their enables (`true`).
    arrival: FxHashMap<(ValueId, bool), Arrival>,
}

impl<'a> Walk<'a> {
    /// The walk of module body `block`, its ports the package's pins
    /// where `pins`.
    fn new(
        ctx: &'a Context,
        ir: &'a Ir,
        (lib, floats): (&'a Library, &'a FloatChoices),
        block: BlockId,
        pins: bool,
    ) -> Walk<'a> {
        Walk {
            pins,
            ctx,
            ir,
            lib,
            floats,
            levels: lib.levels_ns(),
            price: Pricer::new(ctx, ir, lib, block),
            arrival: FxHashMap::default(),
        }
    }
}

impl Walk<'_> {
    /// The paths ending at `op`'s operands: their delays besides the
    /// register period, and their ops. A register's input multiplexers
    /// that become its enable and synchronous reset split its paths: the
    /// data it loads ends at the flip-flops' inputs; the selects end at
    /// the enable, through one LUT driving the register's bits (the
    /// library's measured enable fan-out).
    fn ends(&mut self, op: OpId) -> Vec<(f64, Vec<String>)> {
        let ir = self.ir;
        let register = matches!(self.ctx.str(ir.op_name(op)), "seq.compreg" | "seq.firreg");
        let mut data = Vec::new();
        let mut selects = Vec::new();
        for (i, v) in ir.operands(op).enumerate() {
            if register && i == 0 {
                self.register_input(v, &mut data, &mut selects);
            } else {
                data.push(v);
            }
        }
        let (_, step) = self.levels.unwrap_or_default();
        let mut ends: Vec<(f64, Vec<String>)> = data
            .into_iter()
            .map(|v| {
                let a = self.arrival(v, false);
                (a.t, a.path)
            })
            .collect();
        selects.sort_unstable();
        selects.dedup();
        let bits = ir.operands(op).next().map_or(1, |v| {
            silica_hw_dialects::types::bit_width(self.ctx, ir.value_type(v)).unwrap_or(1) as u32
        });
        if let (Some(enable), false) = (self.lib.enable_ns(bits), selects.is_empty()) {
            let single = selects.len() == 1;
            // iCE40's flip-flops reset only when enabled (`SB_DFFESR`):
            // a register both reset and enabled is enabled by the reset
            // too, the resets' own LUT (their signal, which the resets
            // drive) read by the enable's (`Library::gated_reset`). A
            // reset select that ends a run of more than one LUT level of
            // gates is left as it is: ABC maps the run and the resets'
            // LUT into fewer levels than its gates' own (iCE40 gemm,
            // jacobi-2d, floyd-warshall: runs of six gates after a loop
            // compare, predicted 3-6 ns slower than placed already).
            let gated = self.lib.fabric().gated_reset
                && selects.iter().any(|s| s.1)
                && selects.iter().any(|s| !s.1);
            let arrivals: Vec<Arrival> = selects
                .into_iter()
                .map(|(s, reset)| {
                    let mut a = self.arrival(s, true);
                    if gated && reset && a.levels <= 1 {
                        a.t += step;
                        a.path.push("reset".to_string());
                        a.gate = true;
                    }
                    a
                })
                .collect();
            let a = arrivals
                .into_iter()
                .max_by(|a, b| a.t.total_cmp(&b.t))
                .unwrap_or_default();
            // One select computed by a gate: that gate is the enable's LUT.
            let shared = if single && a.gate { step } else { 0.0 };
            let mut path = a.path;
            path.push("enable".to_string());
            ends.push((a.t - shared + enable, path));
        }
        ends
    }

    /// The kept flip-flops of register `op` (`flops`) when no LUT
    /// computes what it loads (none otherwise).
    fn lone_bits(&self, op: OpId, flops: &flops::Flops) -> u64 {
        let Some(input) = self.ir.operands(op).next() else {
            return 0;
        };
        let (mut data, mut selects) = (Vec::new(), Vec::new());
        self.register_input(input, &mut data, &mut selects);
        if data.iter().any(|&v| self.price.computed_by_luts(v)) {
            return 0;
        }
        let bits =
            silica_hw_dialects::types::bit_width(self.ctx, self.ir.value_type(input)).unwrap_or(0);
        bits.min(u64::from(flops.kept(op)))
    }

    /// Splits a register's input `v` at the multiplexers that become its
    /// enable and reset: the values it loads (`data`) and their selects,
    /// each with whether it resets (an arm is a constant) or enables.
    fn register_input(
        &self,
        v: ValueId,
        data: &mut Vec<ValueId>,
        selects: &mut Vec<(ValueId, bool)>,
    ) {
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            match self.ir.defining_op(x) {
                Some(m) if self.price.is_absorbed(m) => {
                    let mut operands = self.ir.operands(m);
                    let select = operands.next();
                    let arms: Vec<ValueId> = operands.collect();
                    let reset = arms.iter().any(|&a| self.price.is_constant(a));
                    selects.extend(select.map(|s| (s, reset)));
                    stack.extend(arms);
                }
                _ => data.push(x),
            }
        }
    }

    /// When `v` settles after the clock edge, on the way to a register's
    /// enable (`control`) or to a flip-flop's data input.
    fn arrival(&mut self, v: ValueId, control: bool) -> Arrival {
        if let Some(a) = self.arrival.get(&(v, control)) {
            return a.clone();
        }
        // Iteratively: the ops still to evaluate, operands first.
        let mut stack = vec![v];
        let mut started = FxHashSet::default();
        while let Some(&x) = stack.last() {
            if self.arrival.contains_key(&(x, control)) {
                stack.pop();
                continue;
            }
            let Some(op) = self.ir.defining_op(x) else {
                let t = if self.pins { f64::NEG_INFINITY } else { 0.0 };
                self.arrival.insert(
                    (x, control),
                    Arrival {
                        t,
                        ..Arrival::default()
                    },
                );
                stack.pop();
                continue;
            };
            let name = self.ctx.str(self.ir.op_name(op));
            if let Some((module, _, c)) = float_stages(self.ctx, self.ir, op, self.floats) {
                // A float operator's result settles its last stage after
                // its last register, or, combinational, after its
                // operands and its whole delay.
                let pending: Vec<ValueId> = self
                    .ir
                    .operands(op)
                    .filter(|o| c.latency == 0 && !self.arrival.contains_key(&(*o, control)))
                    .collect();
                if !pending.is_empty() && started.insert(x) {
                    stack.extend(pending);
                    continue;
                }
                let mut a = match c.latency {
                    0 => self
                        .ir
                        .operands(op)
                        .filter_map(|o| self.arrival.get(&(o, control)).cloned())
                        .max_by(|a, b| a.t.total_cmp(&b.t))
                        .map(|mut a| {
                            a.t = a.unmerged(self.levels.map_or(0.0, |l| l.1), 0);
                            a
                        })
                        .unwrap_or_default(),
                    _ => Arrival::default(),
                };
                let stage = if c.latency == 0 {
                    c.input_delay_ns
                } else {
                    c.output_delay_ns
                };
                if stage > 0.0 {
                    a.t += stage;
                    a.path.push(format!("{module} (last stage)"));
                }
                a.run = 0.0;
                a.levels = 0;
                a.gate = false;
                a.chain = false;
                for r in self.ir.results(op) {
                    self.arrival.insert((r, control), a.clone());
                }
                stack.pop();
                continue;
            }
            if !name.starts_with("comb.") && name != "hw.array_get" {
                // Registers, memory read ports, instances, constants.
                self.arrival.insert((x, control), Arrival::default());
                stack.pop();
                continue;
            }
            // A multiplier yosys shares is fed by its operand multiplexers
            // too: their select's path is one of its inputs' (`share`).
            let select = self.price.shared_select(op).filter(|_| !control);
            let inputs: Vec<ValueId> = self.ir.operands(op).chain(select).collect();
            let pending: Vec<ValueId> = inputs
                .iter()
                .copied()
                .filter(|o| !self.arrival.contains_key(&(*o, control)))
                .collect();
            // A value met again before its operands settle is on a
            // combinational loop: the loop is cut there.
            if !pending.is_empty() && started.insert(x) {
                stack.extend(pending);
                continue;
            }
            // On the way to an enable a LUT level of gates costs the
            // measured further level (a LUT and a net); other ops their
            // own measured delays; on the way to a data input a run of
            // gates costs its slowest gate (the tools merge the run into
            // the LUTs of the flip-flop's cell: ECP5 vadd's three gates
            // after its loop compare take less than one LUT level), unless
            // an op with a delay of its own follows (`Arrival::unmerged`).
            let levels = self.price.levels(op);
            let step = self.levels.map_or(0.0, |(_, step)| step);
            if let (true, Some(_), Some((_, step))) = (control, levels, self.levels) {
                if let Some(a) = self.cone_arrival(op, step) {
                    for r in self.ir.results(op) {
                        self.arrival.insert((r, control), a.clone());
                    }
                    stack.pop();
                    continue;
                }
            }
            let (d, gate) = match (levels, self.levels) {
                (Some(n), Some((_, step))) if control => (f64::from(n) * step, true),
                _ => (self.price.delay(op), false),
            };
            let ends_run = !control && levels.is_none() && d > 0.0;
            // A carry chain's operand words come over the nets of their
            // readers' chains (`Pricer::net_delay`).
            let chain_op = levels.is_none() && d > 0.0 && fanout::chain(self.ctx, self.ir, op);
            // An add reading another carry chain's sums overlaps it.
            let chained = match levels {
                None if d > 0.0 => self.price.chained_delay(op),
                _ => None,
            };
            let cost = |a: &Arrival| match chained {
                Some(h) if a.chain => h,
                _ => d,
            };
            let mut a = inputs
                .iter()
                .map(|&o| {
                    let mut a = self.arrival.get(&(o, control)).cloned().unwrap_or_default();
                    if Some(o) == select {
                        // The operand multiplexers: a LUT level more.
                        a.path.push("mux".to_string());
                        a.levels += 1;
                        a.gate = false;
                        a.chain = false;
                    } else if chain_op {
                        a.t += self.price.net_delay(o);
                    }
                    if ends_run {
                        a.t = a.unmerged(step, u32::from(name == "comb.mul"));
                        a.run = 0.0;
                        a.levels = 0;
                    }
                    a
                })
                .max_by(|a, b| (a.t + cost(a)).total_cmp(&(b.t + cost(b))))
                .unwrap_or_default();
            let own = cost(&a);
            if d > 0.0 || (levels.is_some() && !control) {
                if d > 0.0 {
                    a.path.push(name.trim_start_matches("comb.").to_string());
                }
                if levels.is_some() && !control {
                    let run = a.run.max(d);
                    a.t += run - a.run;
                    a.run = run;
                    a.levels += levels.unwrap_or(0);
                    a.chain = false;
                    // The run as its whole cone maps, where that is
                    // slower; its LUT levels the cone's either way.
                    if let Some(cone) = self.cone_run(op, step) {
                        if cone.t > a.t {
                            a = cone;
                        } else {
                            a.levels = a.levels.min(cone.levels);
                        }
                    }
                } else {
                    a.t += own;
                    a.gate = gate;
                    a.run = 0.0;
                    a.levels = if gate {
                        a.levels + levels.unwrap_or(0)
                    } else {
                        0
                    };
                    a.chain = chained.is_some();
                }
            }
            // A sign test is the top sum bit: what reads it waits for
            // the whole carry chain, not for its low bits.
            if self.price.is_sign_test(op) {
                a.chain = false;
            }
            if !control && name == "comb.mux" {
                if let Some(shared) = self.shared(op, step) {
                    if shared.t > a.t {
                        a = shared;
                    }
                }
            }
            for r in self.ir.results(op) {
                self.arrival.insert((r, control), a.clone());
            }
            stack.pop();
        }
        self.arrival[&(v, control)].clone()
    }
}

impl Walk<'_> {
    /// When operand `v` of a float operator settles at the LUTs of the
    /// operator's first stage, which take in none of the logic before
    /// them: the tree of multiplexers on the way (a shared unit's
    /// operand multiplexer, its arms chosen in priority) becomes LUTs of
    /// its own, `ceil(log2(k + 1))` levels for `k` multiplexers (the
    /// tools rebalance a priority chain), each a measured further level
    /// (a LUT and its net), after its latest select or arm; a run of
    /// gates before it costs its LUT levels. UP5K jacobi-2d f32 at 80
    /// ns: nextpnr's path runs 30 ns from the loop's compare through
    /// the select of the shared adder's 6-multiplexer chain to the
    /// adder, which the multiplexers' packed delays (0.8 ns each, into a
    /// flip-flop's cell) put at 13.
    fn operand_arrival(&mut self, v: ValueId) -> Arrival {
        let step = self.levels.map_or(0.0, |l| l.1);
        let mut leaves = Vec::new();
        let mut muxes = Vec::new();
        let mut stack = vec![v];
        while let Some(x) = stack.pop() {
            match self.ir.defining_op(x) {
                Some(m)
                    if self.ctx.str(self.ir.op_name(m)) == "comb.mux" && muxes.len() < MUX_TREE =>
                {
                    muxes.push(m);
                    let mut operands = self.ir.operands(m);
                    leaves.extend(operands.next());
                    stack.extend(operands);
                }
                _ => leaves.push(x),
            }
        }
        let mut latest: Option<Arrival> = None;
        for leaf in leaves {
            let mut a = self.arrival(leaf, false);
            a.t = a.unmerged(step, 0);
            if latest.as_ref().is_none_or(|l| a.t > l.t) {
                latest = Some(a);
            }
        }
        let mut a = latest.unwrap_or_default();
        if let Some(&m) = muxes.first() {
            let level = step.max(self.price.delay(m));
            let levels = f64::from(muxes.len() as u32 + 1).log2().ceil();
            a.t += levels * level;
            a.path
                .push(format!("mux tree ({} multiplexers)", muxes.len()));
            a.run = 0.0;
            a.levels = 0;
            a.gate = false;
            a.chain = false;
        }
        a
    }

    /// The path through the multiplexer `mux` when yosys's `opt_share`
    /// pushes it below the operators on its arms (every arm an add,
    /// subtract or multiply read only by multiplexers, or a multiplexer
    /// of such): its select, a LUT level more (the multiplexers now on
    /// the operands), then the shared operators (iCE40 mvt and trmm: a
    /// loop compare selects between two address computations, and
    /// nextpnr's critical path runs from the compare through both adds
    /// of the address).
    fn shared(&self, mux: OpId, step: f64) -> Option<Arrival> {
        let ir = self.ir;
        let mut operands = ir.operands(mux);
        let select = operands.next()?;
        let mut ops = Vec::new();
        let mut through = f64::INFINITY;
        for arm in operands {
            let (t, names) = self.through(arm, None, SHARE_DEPTH)?;
            if t < through {
                through = t;
                ops = names;
            }
        }
        let s = self.arrival.get(&(select, false))?;
        let mut a = Arrival {
            t: s.t - s.run + f64::from(s.levels + 1) * step + through,
            path: s.path.clone(),
            ..Arrival::default()
        };
        a.path.push("mux".to_string());
        a.path.extend(ops);
        Some(a)
    }

    /// The delay of the shared operators under an arm `v` of a shared
    /// multiplexer (a multiplexer's arms: the slowest), and their names;
    /// `None` when `v` is not such an operator.
    fn through(&self, v: ValueId, user: Option<OpId>, depth: u32) -> Option<(f64, Vec<String>)> {
        let op = self
            .ir
            .defining_op(self.price.resolve(v))
            .filter(|_| depth > 0)?;
        let name = self.ctx.str(self.ir.op_name(op));
        if name == "comb.extract" {
            return self.through(self.ir.operands(op).next()?, user, depth - 1);
        }
        if name == "comb.mux" && user.is_none() {
            return self
                .ir
                .operands(op)
                .skip(1)
                .map(|arm| self.through(arm, None, depth - 1))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .max_by(|a, b| a.0.total_cmp(&b.0));
        }
        if !self.price.shareable(op, user) {
            return None;
        }
        // Its operands that are operators read only by it are shared too.
        let (t, mut names) = self
            .ir
            .operands(op)
            .filter(|o| !self.price.is_constant(*o))
            .filter_map(|o| self.through(o, Some(op), depth - 1))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .unwrap_or_default();
        names.push(name.trim_start_matches("comb.").to_string());
        Some((t + self.price.delay(op), names))
    }
}

/// How many multiplexers `Walk::operand_arrival` follows back from a
/// float operator's operand.
const MUX_TREE: usize = 64;

/// How deep `Walk::through` looks below a shared multiplexer.
const SHARE_DEPTH: u32 = 6;

/// The float operator module that `op` instantiates, if it is such an
/// instance, its operator and its chosen latency with its stages' delays.
fn float_stages(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    floats: &FloatChoices,
) -> Option<(String, Operator, LatencyChoice)> {
    let (module, o, _) = float_instance(ctx, ir, op, floats)?;
    let c = floats.latency(o)?.clone();
    Some((module, o, c))
}

/// The float operator module that `op` instantiates, if it is such an
/// instance, its operator and its latency.
fn float_instance(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    floats: &FloatChoices,
) -> Option<(String, Operator, u32)> {
    let a = silica_ir::dialect::inherent_attr(ctx, ir, op, "moduleName")?;
    let AttrKind::SymbolRef { root, .. } = ctx.attr_kind(a) else {
        return None;
    };
    let module = ctx.str(*root);
    let (o, c) = floats
        .latencies()
        .iter()
        .find(|(o, c)| o.module_name(c.latency) == module)?;
    Some((module.to_string(), *o, c.latency))
}

/// The string attribute `name` of `op` (empty when absent).
fn string(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> String {
    match silica_ir::dialect::inherent_attr(ctx, ir, op, name).map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::String { value, .. }) => String::from_utf8_lossy(value).into_owned(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::circuit;

    /// The estimate of the module `body` (its ports `ports`) on `target`.
    fn priced(target: &str, ports: &str, body: &str) -> CircuitEstimate {
        let (ctx, ir, top) = circuit(&format!("hw.module @m({ports}) {{\n{body}\n}}"));
        estimate(
            &ctx,
            &ir,
            top,
            (
                &Library::for_target(target).unwrap(),
                &FloatChoices::default(),
            ),
            None,
        )
    }

    #[test]
    fn adds_and_subtracts_are_priced_by_their_own_kind() {
        let ports = "in %a : i8, in %b : i8, out y : i8";
        let add = priced(
            "ice40-up5k",
            ports,
            "%0 = comb.add %a, %b : i8\nhw.output %0 : i8",
        );
        let sub = priced(
            "ice40-up5k",
            ports,
            "%0 = comb.sub %a, %b : i8\nhw.output %0 : i8",
        );
        // The measured iCE40 8-bit add and subtract.
        assert_eq!((add.lut, sub.lut), (8.0, 15.0));
        // Less a constant: an add.
        let sub_c = priced(
            "ice40-up5k",
            ports,
            "%c = hw.constant 3 : i8\n%0 = comb.sub %a, %c : i8\nhw.output %0 : i8",
        );
        assert_eq!(sub_c.lut, 8.0);
        assert!(sub.period_ns > add.period_ns);
        // A second subtract of the same subtrahend shares its inverters.
        let two = priced(
            "ice40-up5k",
            "in %a : i8, in %b : i8, in %d : i8, out y : i8, out z : i8",
            "%0 = comb.sub %a, %d : i8\n%1 = comb.sub %b, %d : i8\nhw.output %0, %1 : i8, i8",
        );
        assert_eq!(two.lut, 15.0 + 8.0);
    }

    #[test]
    fn multipliers_are_the_products_kept_once_duplicates_fold() {
        // Three products of a and b (one of them commuted), one of a and
        // d, one by a constant, one unread: two multipliers.
        let e = priced(
            "ecp5-25k",
            "in %a : i32, in %b : i32, in %d : i32, out x : i32, out y : i32, out z : i32, out w : i32, out v : i32",
            "%c = hw.constant 7 : i32
             %0 = comb.mul %a, %b : i32
             %1 = comb.mul %a, %b : i32
             %2 = comb.mul %b, %a : i32
             %3 = comb.mul %a, %d : i32
             %4 = comb.mul %a, %c : i32
             %5 = comb.mul %d, %b : i32
             hw.output %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32",
        );
        assert_eq!(e.multipliers, 2);
    }

    #[test]
    fn constants_duplicates_and_unread_bits_cost_nothing() {
        let e = priced(
            "ecp5-25k",
            "in %a : i8, in %b : i8, out y : i8, out z : i8, out w : i4",
            "%c1 = hw.constant 1 : i8
             %c2 = hw.constant 2 : i8
             %k = comb.add %c1, %c2 : i8
             %0 = comb.add %a, %b : i8
             %1 = comb.add %b, %a : i8
             %2 = comb.mul %a, %k : i8
             %3 = comb.add %a, %k : i8
             %4 = comb.extract %3 from 0 : (i8) -> i4
             %5 = comb.mul %b, %c2 : i8
             hw.output %0, %1, %4 : i8, i8, i4",
        );
        // One 8-bit add (its duplicate merged), a 4-bit add of the
        // constant (the rest of its bits unread); the multiplies are
        // unread or by a power of two. The 8-bit add is a carry chain.
        let lib = Library::for_target("ecp5-25k").unwrap();
        let add = |w| lib.kind_figures("add", "add", w).unwrap().1;
        assert_eq!(e.lut, add(8) + price::ECP5_CHAIN_CELLS + add(4));
        assert_eq!(e.dsp, 0);
    }

    #[test]
    fn multiplies_by_constants_are_adders_or_hard_multipliers() {
        let body = "%c = hw.constant 14 : i9\n%0 = comb.mul %a, %c : i9\nhw.output %0 : i9";
        let ports = "in %a : i9, out y : i9";
        // iCE40 maps no 9-bit multiply to an SB_MAC16: two adds (14 =
        // 8 + 4 + 2); ECP5 maps it to a MULT18X18D.
        let ice40 = priced("ice40-up5k", ports, body);
        assert_eq!((ice40.lut, ice40.dsp), (18.0, 0));
        let ecp5 = priced("ecp5-25k", ports, body);
        assert_eq!((ecp5.lut, ecp5.dsp), (0.0, 1));
    }

    #[test]
    fn gates_pack_into_lut4_cones() {
        // y = s ? a : (t ? b : c) & ~u: five inputs a bit, two LUTs each;
        // the inner multiplexer alone is one.
        let ports = "in %a : i8, in %b : i8, in %c : i8, in %s : i1, in %t : i1, out y : i8";
        let chain = priced(
            "ecp5-25k",
            ports,
            "%0 = comb.mux %t, %b, %c : i8
             %1 = comb.mux %s, %a, %0 : i8
             hw.output %1 : i8",
        );
        assert_eq!(chain.lut, 16.0);
        // Gated by constant arms: the selects combine into one signal
        // (one LUT), then three inputs a bit.
        let gated = priced(
            "ecp5-25k",
            ports,
            "%z = hw.constant 0 : i8
             %0 = comb.mux %t, %z, %b : i8
             %1 = comb.mux %s, %z, %0 : i8
             %2 = comb.and %1, %a : i8
             hw.output %2 : i8",
        );
        assert_eq!(gated.lut, 9.0);
        // One-bit inverters and identities vanish into their users.
        let control = priced(
            "ecp5-25k",
            "in %s : i1, in %t : i1, out y : i1",
            "%true = hw.constant true
             %0 = comb.xor %s, %true : i1
             %1 = comb.mux %t, %true, %0 : i1
             hw.output %1 : i1",
        );
        assert_eq!(control.lut, 1.0);
    }

    #[test]
    fn an_ice40_adder_holds_one_more_input() {
        let body = "%z = hw.constant 0 : i8
                    %0 = comb.add %a, %b : i8
                    %1 = comb.mux %s, %0, %z : i8
                    hw.output %1 : i8";
        let ports = "in %a : i8, in %b : i8, in %s : i1, out y : i8";
        assert_eq!(priced("ice40-up5k", ports, body).lut, 8.0);
        assert_eq!(
            priced("ecp5-25k", ports, body).lut,
            16.0 + price::ECP5_CHAIN_CELLS
        );
    }

    #[test]
    fn register_enables_and_resets_are_free() {
        // r <= go ? 0 : clear ? 0 : en ? a + r : r: an enable and one
        // synchronous reset around the add.
        let e = priced(
            "ecp5-25k",
            "in %clk : !seq.clock, in %a : i8, in %en : i1, in %go : i1, in %clear : i1, out y : i8",
            "%z = hw.constant 0 : i8
             %r = seq.compreg %3, %clk : i8
             %0 = comb.add %a, %r : i8
             %1 = comb.mux %en, %0, %r : i8
             %2 = comb.mux %clear, %z, %1 : i8
             %3 = comb.mux %go, %z, %2 : i8
             hw.output %r : i8",
        );
        assert_eq!(e.lut, 8.0 + price::ECP5_CHAIN_CELLS);
    }

    /// On ECP5 every carry chain (adds and ordering compares of more than
    /// four bits) takes its feed cells besides its carry cells.
    #[test]
    fn ecp5_carry_chains_pay_their_feed_cells() {
        let ports = "in %a : i8, in %b : i8, out y : i8, out z : i1";
        let ecp5 = priced(
            "ecp5-25k",
            ports,
            "%0 = comb.add %a, %b : i8\n%1 = comb.icmp ult %a, %b : i8\nhw.output %0, %1 : i8, i1",
        );
        let no_chain = priced(
            "ecp5-25k",
            "in %a : i4, in %b : i4, out y : i4",
            "%0 = comb.add %a, %b : i4\nhw.output %0 : i4",
        );
        let lib = Library::for_target("ecp5-25k").unwrap();
        let add = lib.kind_figures("add", "add", 8).unwrap().1;
        let cmp = lib.luts("cmp", 8).unwrap();
        assert_eq!(ecp5.lut, add + cmp + 2.0 * price::ECP5_CHAIN_CELLS);
        assert_eq!(no_chain.lut, lib.kind_figures("add", "add", 4).unwrap().1);
    }

    /// Flip-flops loaded from registers, ports or constants (through
    /// their enables) have no LUT to share a logic cell with; those
    /// loaded from an adder or a multiplexer of data have.
    #[test]
    fn flip_flops_loaded_from_no_lut_are_lone() {
        let e = priced(
            "ice40-up5k",
            "in %clk : !seq.clock, in %a : i8, in %b : i8, in %en : i1, in %s : i1, out y : i8, out z : i8, out w : i8, out v : i4",
            "%r = seq.compreg %0, %clk : i8
             %0 = comb.mux %en, %a, %r : i8
             %q = seq.compreg %r, %clk : i8
             %sum = comb.add %a, %q : i8
             %t = seq.compreg %sum, %clk : i8
             %pick = comb.mux %s, %a, %b : i8
             %u = seq.compreg %pick, %clk : i8
             %c = hw.constant 3 : i4
             %k = seq.compreg %c, %clk : i4
             hw.output %q, %t, %u, %k : i8, i8, i8, i4",
        );
        // r (a port behind an enable), q (a register), k (a constant:
        // only its two bits that load ones are kept flip-flops, its high
        // bits loading zeros are constant, `flops`).
        assert_eq!(e.lone_ff, 8 + 8 + 2);
    }

    /// A product of registers is timed as the measured `mul_reg` (yosys
    /// packs the registers into the SB_MAC16), a product fed by logic as
    /// `mul`.
    #[test]
    fn products_of_registers_are_timed_as_packed_multipliers() {
        let ports = "in %clk : !seq.clock, in %a : i32, in %b : i32, out y : i32";
        let period = |operands: &str| {
            let body = format!(
                "%ra = seq.compreg %a, %clk : i32
                 %rb = seq.compreg %b, %clk : i32
                 %x = comb.xor %ra, %b : i32
                 %p = comb.mul {operands} : i32
                 %r = seq.compreg %p, %clk : i32
                 hw.output %r : i32"
            );
            priced("ice40-up5k", ports, &body).period_ns
        };
        let lib = Library::for_target("ice40-up5k").unwrap();
        let delay = |kind| lib.kind_figures(kind, "mul", 32).unwrap().0;
        let registered = period("%ra, %rb");
        assert!((registered - lib.register_ns - delay("mul_reg")).abs() < 1e-9);
        // Module inputs are timed as registers.
        assert!((period("%a, %b") - registered).abs() < 1e-9);
        let fed = period("%x, %rb");
        assert!((fed - lib.register_ns - delay("mul")).abs() < 1e-9);
        assert!(registered < fed);
    }

    /// A division by a constant is priced as the measured `div_const`,
    /// one by a variable as the divider.
    #[test]
    fn divisions_by_constants_are_priced_as_measured() {
        let ports = "in %a : i16, in %b : i16, out y : i16";
        let lut = |divisor: &str| {
            let body = format!(
                "%c = hw.constant 5 : i16\n%0 = comb.divs %a, {divisor} : i16\nhw.output %0 : i16"
            );
            priced("ecp5-25k", ports, &body).lut
        };
        let lib = Library::for_target("ecp5-25k").unwrap();
        let own = |kind| lib.kind_figures(kind, "div", 16).unwrap().1;
        assert_eq!(lut("%c"), own("div_const"));
        assert_eq!(lut("%b"), lib.luts("div", 16).unwrap());
        assert!(lut("%c") < lut("%b"));
    }

    /// iCE40 (`SB_DFFESR`): a register both reset and enabled is enabled
    /// by its reset too, the resets' LUT read by the enable's: one further
    /// level on a reset select's path (not on ECP5, whose reset overrides
    /// the enable, nor after a run of gates of more than one level).
    #[test]
    fn resets_of_enabled_ice40_registers_take_a_further_level() {
        let period = |target: &str, reset: &str| {
            let body = format!(
                "%z = hw.constant 0 : i32
                 %k = hw.constant 5 : i8
                 %r = seq.compreg %2, %clk : i32
                 %lt = comb.icmp slt %i, %k : i8
                 {reset}
                 %0 = comb.add %r, %a : i32
                 %1 = comb.mux %e, %0, %r : i32
                 %2 = comb.mux %g, %z, %1 : i32
                 hw.output %r : i32"
            );
            priced(
                target,
                "in %clk : !seq.clock, in %a : i32, in %i : i8, in %s : i1, in %t : i1, in %u : i1, \
                 in %v : i1, in %e : i1, out y : i32",
                &body,
            )
        };
        let short = "%g = comb.and %lt, %s : i1";
        let deep = "%g0 = comb.and %lt, %s : i1
                    %g1 = comb.xor %g0, %t : i1
                    %g2 = comb.or %g1, %u : i1
                    %g = comb.and %g2, %v : i1";
        let lib = Library::for_target("ice40-up5k").unwrap();
        let (_, step) = lib.levels_ns().unwrap();
        let compare = ["cmp_pow2", "cmp_const"]
            .map(|kind| lib.kind_figures(kind, "cmp", 8).unwrap().0)
            .into_iter()
            .reduce(f64::max)
            .unwrap();
        // The compare, the and's level, the reset's, then the enable.
        let e = period("ice40-up5k", short);
        let expected = lib.register_ns + compare + 2.0 * step + lib.enable_ns(32).unwrap();
        assert!(
            (e.period_ns - expected).abs() < 1e-9,
            "{} {expected}",
            e.period_ns
        );
        assert_eq!(e.path, ["icmp", "and", "reset", "enable"]);
        // A cone of two levels (five inputs): its own levels only.
        let e = period("ice40-up5k", deep);
        assert!(!e.path.contains(&"reset".to_string()), "{:?}", e.path);
        // ECP5: no further level.
        let e = period("ecp5-25k", short);
        assert_eq!(e.path, ["icmp", "and", "enable"]);
    }

    /// Two products of one width that only the arms of one multiplexer
    /// read (one through an enable and an add) are one multiplier: its
    /// operands pass the select's logic and the operand multiplexers, and
    /// it is the measured `mul` (fed by a LUT level), not `mul_reg`.
    #[test]
    fn multipliers_under_exclusive_arms_are_shared() {
        let period = |out: &str| {
            let body = format!(
                "%c4 = hw.constant 4 : i3
                 %acc = seq.compreg %3, %clk : i32
                 %s = comb.icmp eq %st, %c4 : i3
                 %m0 = comb.mul %a, %b : i32
                 %m1 = comb.mul %c, %d : i32
                 %0 = comb.add %acc, %m1 : i32
                 %1 = comb.mux %v, %0, %acc : i32
                 %3 = comb.mux %s, %m0, %1 : i32
                 hw.output %acc, {out} : i32, i32"
            );
            priced(
                "ecp5-25k",
                "in %clk : !seq.clock, in %st : i3, in %v : i1, in %a : i32, in %b : i32, \
                 in %c : i32, in %d : i32, out y : i32, out z : i32",
                &body,
            )
        };
        let lib = Library::for_target("ecp5-25k").unwrap();
        let (_, step) = lib.levels_ns().unwrap();
        let mul = |kind| lib.kind_figures(kind, "mul", 32).unwrap().0;
        let shared = period("%acc");
        assert_eq!(shared.path, ["icmp", "mux", "mul", "add", "mux"]);
        // The second product read elsewhere too: both are needed in one
        // cycle, nothing is shared, each is fed by registers.
        let alone = period("%m1");
        assert_eq!(alone.path, ["mul", "add", "mux"]);
        let more = shared.period_ns - alone.period_ns;
        let expected = step + mul("mul") - mul("mul_reg");
        assert!((more - expected).abs() < 1e-9, "{more} {expected}");
        assert!(more > 0.5, "{more}");
    }

    /// A register's enable ends through the measured enable fan-out,
    /// each gate on its way a measured further LUT level; a compare
    /// against a constant is timed as the slower of `cmp_pow2` and
    /// `cmp_const`.
    #[test]
    fn enables_pay_their_gate_levels_and_fan_out() {
        let lib = Library::for_target("ice40-up5k").unwrap();
        let (_, step) = lib.levels_ns().unwrap();
        let compare = |kind| lib.kind_figures(kind, "cmp", 8).unwrap().0;
        let period = |bound: i64, gates: &str| {
            let body = format!(
                "%k = hw.constant {bound} : i8
                 %r = seq.compreg %1, %clk : i8
                 %lt = comb.icmp slt %r, %k : i8
                 {gates}
                 %0 = comb.add %r, %a : i8
                 %1 = comb.mux %en, %0, %r : i8
                 hw.output %r, %en : i8, i1"
            );
            priced(
                "ice40-up5k",
                "in %clk : !seq.clock, in %a : i8, in %s : i1, in %t : i1, in %u : i1, in %v : i1, \
                 out y : i8, out e : i1",
                &body,
            )
            .period_ns
        };
        // The enable is the compare itself, or gates after it: a cone
        // of five inputs, two LUT levels.
        let direct = "%en = comb.and %lt, %lt : i1";
        let gated = "%g = comb.and %lt, %s : i1
                     %h = comb.xor %g, %t : i1
                     %w = comb.or %h, %v : i1
                     %en = comb.and %w, %u : i1";
        let enable = lib.register_ns + lib.enable_ns(8).unwrap();
        let slower = compare("cmp_pow2").max(compare("cmp_const"));
        assert!((period(8, direct) - enable - slower).abs() < 1e-9);
        assert!((period(85, direct) - enable - slower).abs() < 1e-9);
        // The enable's own LUT is the fan-out's: one further level.
        let further = period(85, gated) - period(85, direct);
        assert!((further - step).abs() < 1e-9, "{further} {step}");
        assert!(step > 1.0, "{step}");
    }

    /// An enable's gates are timed as their whole cone maps, a LUT4 tree
    /// over its inputs after the latest (the compare), though other
    /// logic reads each gate.
    #[test]
    fn enables_pay_their_whole_cone() {
        let further = |target: &str| {
            let period = |gates: &str, outs: &str, types: &str| {
                let body = format!(
                    "%k = hw.constant 85 : i8
                     %r = seq.compreg %1, %clk : i8
                     %lt = comb.icmp slt %r, %k : i8
                     {gates}
                     %0 = comb.add %r, %a : i8
                     %1 = comb.mux %en, %0, %r : i8
                     hw.output %r, {outs} : i8, {types}"
                );
                priced(
                    target,
                    "in %clk : !seq.clock, in %a : i8, in %s : i1, in %t : i1, in %u : i1, in %v : i1, \
                     out y : i8, out p : i1, out q : i1, out w : i1, out x : i1",
                    &body,
                )
                .period_ns
            };
            let direct = period(
                "%en = comb.and %lt, %lt : i1",
                "%en, %en, %en, %en",
                "i1, i1, i1, i1",
            );
            // Four gates that the outputs read too, then the enable's:
            // five inputs, two LUT levels, the enable's LUT the last.
            let chain = period(
                "%g1 = comb.and %lt, %s : i1
                 %g2 = comb.or %g1, %t : i1
                 %g3 = comb.and %g2, %u : i1
                 %g4 = comb.xor %g3, %v : i1
                 %en = comb.and %g4, %g1 : i1",
                "%g1, %g2, %g3, %g4",
                "i1, i1, i1, i1",
            );
            let (_, step) = Library::for_target(target).unwrap().levels_ns().unwrap();
            (chain - direct) / step
        };
        for target in ["ecp5-25k", "ice40-up5k"] {
            assert!((further(target) - 1.0).abs() < 1e-9, "{}", further(target));
        }
    }

    /// A cone counts the bits it reads of each value: five slices of
    /// one register are five inputs (two LUT levels), four are one.
    #[test]
    fn cones_count_each_bit_they_read() {
        let period = |n: usize| {
            let slices: String = (0..n)
                .map(|i| format!("%b{i} = comb.extract %q from {i} : (i8) -> i1\n"))
                .collect();
            let bits: Vec<String> = (0..n).map(|i| format!("%b{i}")).collect();
            let body = format!(
                "%q = seq.compreg %a, %clk : i8
                 {slices}%en = comb.and {} : i1
                 %r = seq.compreg %1, %clk : i8
                 %1 = comb.mux %en, %a, %r : i8
                 hw.output %r, %q : i8, i8",
                bits.join(", ")
            );
            priced(
                "ecp5-25k",
                "in %clk : !seq.clock, in %a : i8, out y : i8, out z : i8",
                &body,
            )
            .period_ns
        };
        let (_, step) = Library::for_target("ecp5-25k")
            .unwrap()
            .levels_ns()
            .unwrap();
        assert!(
            (period(5) - period(4) - step).abs() < 1e-9,
            "{} {}",
            period(5),
            period(4)
        );
    }

    /// An ECP5 min or max (a multiplexer between the two variables its
    /// signed select compares) takes the compare's last LUT into each
    /// bit: four LUT4s a bit, where a multiplexer of other arms is one;
    /// iCE40's mapper keeps them apart.
    #[test]
    fn ecp5_min_and_max_take_their_compare_into_each_bit() {
        let ports = "in %a : i8, in %b : i8, in %c : i8, out y : i8";
        let mux = |target: &str, arm: &str| {
            let body = format!(
                "%lt = comb.icmp slt %a, %b : i8
                 %m = comb.mux %lt, %a, {arm} : i8
                 hw.output %m : i8"
            );
            priced(target, ports, &body).lut
        };
        let lib = Library::for_target("ecp5-25k").unwrap();
        let bit = lib.luts("logic", 8).unwrap();
        assert!((mux("ecp5-25k", "%b") - mux("ecp5-25k", "%c") - 3.0 * bit).abs() < 1e-9);
        assert_eq!(mux("ice40-up5k", "%b"), mux("ice40-up5k", "%c"));
    }

    /// A signed compare's last LUT (the sign bits' correction of its
    /// carry) merges into the gates reading it: the enable `(a < b) & s`
    /// is one level shorter when the compare is signed.
    #[test]
    fn signed_compares_last_lut_merges_into_their_readers() {
        let period = |predicate: &str| {
            let body = format!(
                "%r = seq.compreg %1, %clk : i8
                 %lt = comb.icmp {predicate} %r, %b : i8
                 %en = comb.and %lt, %s : i1
                 %0 = comb.add %r, %a : i8
                 %1 = comb.mux %en, %0, %r : i8
                 hw.output %r : i8"
            );
            priced(
                "ice40-up5k",
                "in %clk : !seq.clock, in %a : i8, in %b : i8, in %s : i1, out y : i8",
                &body,
            )
            .period_ns
        };
        let (_, step) = Library::for_target("ice40-up5k")
            .unwrap()
            .levels_ns()
            .unwrap();
        let merged = period("ult") - period("slt");
        assert!((merged - step).abs() < 1e-9, "{merged} {step}");
    }

    /// A run of gates to a flip-flop's data input costs its slowest gate,
    /// after the further levels of its cone's LUT tree.
    #[test]
    fn gate_runs_to_data_inputs_cost_their_slowest_gate() {
        let e = priced(
            "ecp5-25k",
            "in %clk : !seq.clock, in %a : i1, in %b : i1, in %c : i1, in %d : i1, out y : i1, out p : i1, out q : i1",
            "%0 = comb.and %a, %b : i1
             %1 = comb.or %0, %c : i1
             %2 = comb.xor %1, %d : i1
             %r = seq.compreg %2, %clk : i1
             hw.output %r, %0, %1 : i1, i1, i1",
        );
        let lib = Library::for_target("ecp5-25k").unwrap();
        let gate = lib.delay_ns("logic", 1).unwrap();
        assert!(gate > 0.0);
        assert!((e.period_ns - lib.register_ns - gate).abs() < 1e-9, "{e:?}");
        // Eight inputs (the gates read by outputs too, the mapper
        // duplicates them): two LUT levels, the first a further level.
        let e = priced(
            "ecp5-25k",
            "in %clk : !seq.clock, in %a : i1, in %b : i1, in %c : i1, in %d : i1, in %e : i1, \
             in %f : i1, in %g : i1, in %h : i1, out y : i1, out p : i1, out q : i1",
            "%0 = comb.and %a, %b : i1
             %1 = comb.and %c, %d : i1
             %2 = comb.or %0, %1 : i1
             %3 = comb.and %e, %f : i1
             %4 = comb.and %g, %h : i1
             %5 = comb.or %3, %4 : i1
             %6 = comb.xor %2, %5 : i1
             %r = seq.compreg %6, %clk : i1
             hw.output %r, %2, %5 : i1, i1, i1",
        );
        let (_, step) = lib.levels_ns().unwrap();
        assert!(
            (e.period_ns - lib.register_ns - step - gate).abs() < 1e-9,
            "{e:?}"
        );
    }

    /// A product of constants' adds is timed as its tree of adds (14 =
    /// 8 + 4 + 2: two levels), as its area counts them.
    #[test]
    fn products_by_constants_are_timed_as_their_adds() {
        let e = priced(
            "ice40-up5k",
            "in %clk : !seq.clock, in %a : i9, out y : i9",
            "%c = hw.constant 14 : i9
             %0 = comb.mul %a, %c : i9
             %r = seq.compreg %0, %clk : i9
             hw.output %r : i9",
        );
        let lib = Library::for_target("ice40-up5k").unwrap();
        let add = lib.kind_figures("add", "add", 9).unwrap().0;
        let chained = lib.chained_add_ns(9).unwrap();
        assert!(
            (e.period_ns - lib.register_ns - add - chained).abs() < 1e-9,
            "{e:?}"
        );
    }

    /// An add reading another add's sums overlaps it (ripple carry
    /// chains): it adds the measured chained add, less than an add at 16
    /// bits; a LUT level between them (a multiplexer of three inputs, no
    /// room in the adder's LUTs) ends the overlap.
    #[test]
    fn chained_adds_overlap() {
        let period = |body: &str| {
            priced(
                "ice40-up5k",
                "in %clk : !seq.clock, in %a : i16, in %b : i16, in %c : i16, in %t : i1, out y : i16",
                &format!("{body}\n%r = seq.compreg %0, %clk : i16\nhw.output %r : i16"),
            )
            .period_ns
        };
        let lib = Library::for_target("ice40-up5k").unwrap();
        let add = lib.kind_figures("add", "add", 16).unwrap().0;
        let chained = lib.chained_add_ns(16).unwrap();
        assert!(chained > 0.0 && chained < add, "{chained} {add}");
        let one = period("%0 = comb.add %a, %b : i16");
        let two = period("%s = comb.add %a, %b : i16\n%0 = comb.add %s, %c : i16");
        assert!((two - one - chained).abs() < 1e-9, "{one} {two}");
        let gated = period(
            "%s = comb.add %a, %b : i16\n%g = comb.mux %t, %s, %c : i16\n%0 = comb.add %g, %b : i16",
        );
        let (_, step) = lib.levels_ns().unwrap();
        assert!((gated - one - step - add).abs() < 1e-9, "{one} {gated}");
    }

    /// A signed division by a power of two (`x / 8`: the sign bit copied
    /// into the low bits as the rounding bias, added, then shifted) costs
    /// its add alone on ECP5: the sign test and the multiplexer between
    /// constants are wiring. The add reads the first chain's top bit, so
    /// it waits for that whole chain (no overlap).
    #[test]
    fn a_division_by_a_power_of_two_is_its_bias_add() {
        let ports = "in %clk : !seq.clock, in %a : i16, in %b : i16, out y : i16";
        let lib = Library::for_target("ecp5-25k").unwrap();
        let add = lib.kind_figures("add", "add", 16).unwrap();
        let body = "%z = hw.constant 0 : i16
             %c7 = hw.constant 7 : i16
             %s = comb.add %a, %b : i16
             %neg = comb.icmp slt %s, %z : i16
             %bias = comb.mux %neg, %c7, %z : i16
             %0 = comb.add %s, %bias : i16
             %r = seq.compreg %0, %clk : i16
             hw.output %r : i16";
        let alone =
            "%0 = comb.add %a, %b : i16\n%r = seq.compreg %0, %clk : i16\nhw.output %r : i16";
        let e = priced("ecp5-25k", ports, body);
        let chain = add.1 + price::ECP5_CHAIN_CELLS;
        assert_eq!(e.lut, 2.0 * chain);
        let one = priced("ecp5-25k", ports, alone);
        assert!((e.period_ns - one.period_ns - add.0).abs() < 1e-9, "{e:?}");
        // The iCE40 flow's Yosys builds the sign test as a compare's
        // carry chain, on the path between the two adds.
        let lib = Library::for_target("ice40-up5k").unwrap();
        let add = lib.kind_figures("add", "add", 16).unwrap();
        let e = priced("ice40-up5k", ports, body);
        let one = priced("ice40-up5k", ports, alone);
        assert!(e.lut > 2.0 * add.1, "{e:?}");
        assert!(e.period_ns > one.period_ns + add.0 + 1.0, "{e:?}");
    }

    /// A word read by several adds reaches their carry chains over longer
    /// nets: each add's path pays the measured `word_fanout` for its
    /// readers, a word read by one nothing more.
    #[test]
    fn words_read_by_several_chains_pay_their_nets() {
        let ports = "in %clk : !seq.clock, in %a : i16, in %b : i16, in %c : i16, \
                     in %d : i16, in %e : i16, out y : i16";
        let period = |body: &str| priced("ice40-up5k", ports, body).period_ns;
        let reg = |v: &str| format!("%r{v} = seq.compreg %{v}, %clk : i16\n");
        let one = period(&format!(
            "%0 = comb.add %a, %b : i16\n{}hw.output %r0 : i16",
            reg("0")
        ));
        let four = period(&format!(
            "%0 = comb.add %a, %b : i16\n%1 = comb.add %a, %c : i16\n\
             %2 = comb.add %a, %d : i16\n%3 = comb.add %a, %e : i16\n\
             {}{}{}{}%x = comb.xor %r0, %r1 : i16\n%y = comb.xor %r2, %r3 : i16\n\
             %z = comb.xor %x, %y : i16\nhw.output %z : i16",
            reg("0"),
            reg("1"),
            reg("2"),
            reg("3")
        ));
        let lib = Library::for_target("ice40-up5k").unwrap();
        let net = lib.fanout_net_ns(4, 16).unwrap();
        assert!(net > 0.0);
        assert!((four - one - net).abs() < 1e-9, "{one} {four} {net}");
    }

    /// A run of gates that an add reads is not merged into a flip-flop's
    /// cell: it costs its LUT levels, each the measured further level.
    #[test]
    fn gate_runs_before_an_add_cost_their_levels() {
        let period = |body: &str| {
            priced(
                "ice40-up5k",
                "in %clk : !seq.clock, in %a : i8, in %p : i8, in %q : i8, out y : i8",
                &format!("{body}\n%r = seq.compreg %0, %clk : i8\nhw.output %r : i8"),
            )
            .period_ns
        };
        let lib = Library::for_target("ice40-up5k").unwrap();
        let (_, step) = lib.levels_ns().unwrap();
        let add = period("%0 = comb.add %a, %p : i8");
        let gated = period("%g = comb.and %p, %q : i8\n%0 = comb.add %a, %g : i8");
        assert!((gated - add - step).abs() < 1e-9, "{gated} {add} {step}");
        // Into the flip-flop the gate is free (the LUT of its cell).
        let after = period("%s = comb.add %a, %p : i8\n%0 = comb.and %s, %q : i8");
        assert!((after - add).abs() < 1e-9, "{after} {add}");
    }

    /// A multiplexer of two adds that nothing else reads is one add of
    /// multiplexed operands after yosys's `opt_share`: its select's path
    /// runs through a LUT level and the add.
    #[test]
    fn multiplexers_of_adds_are_timed_through_the_shared_add() {
        let period = |x: &str| {
            let body = format!(
                "%k = hw.constant 85 : i8
                 %i = seq.compreg %a, %clk : i8
                 %lt = comb.icmp slt %i, %k : i8
                 %x = {x} : i8
                 %y = comb.add %c, %d : i8
                 %m = comb.mux %lt, %x, %y : i8
                 %r = seq.compreg %m, %clk : i8
                 hw.output %r : i8"
            );
            priced(
                "ice40-up5k",
                "in %clk : !seq.clock, in %a : i8, in %b : i8, in %c : i8, in %d : i8, out y : i8",
                &body,
            )
            .period_ns
        };
        let lib = Library::for_target("ice40-up5k").unwrap();
        let (_, step) = lib.levels_ns().unwrap();
        let compare = |kind| lib.kind_figures(kind, "cmp", 8).unwrap().0;
        let compare = compare("cmp_pow2").max(compare("cmp_const"));
        let add = lib.kind_figures("add", "add", 8).unwrap().0;
        let shared = period("comb.add %a, %b");
        assert!(
            (shared - lib.register_ns - compare - step - add).abs() < 1e-9,
            "{shared}"
        );
        // An arm that is no operator: nothing is shared, the select's
        // path ends at the multiplexer's gate.
        let plain = period("comb.xor %a, %b");
        let gate = lib.delay_ns("mux", 8).unwrap();
        assert!(
            (plain - lib.register_ns - compare - gate).abs() < 1e-9,
            "{plain}"
        );
    }

    /// A pipelined float operator's first stage continues the paths to
    /// its operands, which a shared unit's operand multiplexers reach a
    /// LUT level and net each (the operator's LUTs take in none of
    /// them), and its last stage starts the paths from its result.
    #[test]
    fn float_stages_continue_the_paths_through_their_operand_multiplexers() {
        let add = Operator::new(FloatOp::Add, crate::float::Format::F32);
        let mut floats = FloatChoices::default();
        let lib = Library::for_target("ice40-up5k").unwrap();
        let choice = |input_delay_ns, output_delay_ns| LatencyChoice {
            latency: 3,
            stage_delay_ns: 50.0,
            input_delay_ns,
            output_delay_ns,
        };
        let (ctx, ir, top) = circuit(
            "hw.module @m(in %clk : !seq.clock, in %a : i8, in %v : i1, in %x : i32, in %y : i32, out q : i32) {
               %k = hw.constant 85 : i8
               %i = seq.compreg %a, %clk : i8
               %lt = comb.icmp slt %i, %k : i8
               %s = seq.compreg %v, %clk : i1
               %rx = seq.compreg %x, %clk : i32
               %ry = seq.compreg %y, %clk : i32
               %m1 = comb.mux %lt, %rx, %ry : i32
               %m2 = comb.mux %s, %ry, %m1 : i32
               %r = hw.instance \"fadd\" @silica_fadd_f32_l3(clock: %clk: !seq.clock, a: %m2: i32, b: %ry: i32) -> (result: i32)
               %q = seq.compreg %r, %clk : i32
               hw.output %q : i32
             }",
        );
        let (_, step) = lib.levels_ns().unwrap();
        let compare = |kind| lib.kind_figures(kind, "cmp", 8).unwrap().0;
        let compare = compare("cmp_pow2").max(compare("cmp_const"));
        // Two multiplexers: two levels after the later select.
        let before = compare + 2.0 * step;
        floats.set(add, choice(40.0, 10.0));
        let e = estimate(&ctx, &ir, top, (&lib, &floats), None);
        assert!(
            (e.period_ns - lib.register_ns - before - 40.0).abs() < 1e-9,
            "{e:?}"
        );
        assert_eq!(e.path.last().unwrap(), "silica_fadd_f32_l3 (first stage)");
        assert_eq!(e.float_inputs.len(), 1);
        assert!((e.float_inputs[0].1 - before).abs() < 1e-9);
        // A last stage longer than the first and the logic before it.
        floats.set(add, choice(1.0, 45.0));
        let e = estimate(&ctx, &ir, top, (&lib, &floats), None);
        assert!((e.period_ns - lib.register_ns - 45.0).abs() < 1e-9, "{e:?}");
    }

    /// A float operator's registers loaded from no LUT (a sign, an
    /// operand carried on) are lone flip-flops of each distinct instance;
    /// a register loaded from its adder is not.
    #[test]
    fn float_operators_own_lone_flip_flops_count_per_circuit() {
        let add = Operator::new(FloatOp::Add, crate::float::Format::F32);
        let choice = LatencyChoice {
            latency: 3,
            stage_delay_ns: 10.0,
            input_delay_ns: 10.0,
            output_delay_ns: 10.0,
        };
        let mut floats = FloatChoices::default();
        let lib = Library::for_target("ice40-up5k").unwrap();
        floats.set(add, choice.clone());
        let (ctx, ir, top) = circuit(
            "hw.module @silica_fadd_f32_l3(in %clock : !seq.clock, in %a : i32, in %b : i32, out result : i32) {
               %s = comb.extract %b from 31 : (i32) -> i1
               %rs = seq.compreg %s, %clock : i1
               %ra = seq.compreg %a, %clock : i32
               %sum = comb.add %ra, %b : i32
               %rsum = seq.compreg %sum, %clock : i32
               %hi = comb.extract %rsum from 1 : (i32) -> i31
               %r = comb.concat %rs, %hi : i1, i31
               hw.output %r : i32
             }
             hw.module @m(in %clk : !seq.clock, in %s : i1, in %x : i32, in %y : i32, out p : i32, out q : i32, out r : i32, out t : i32) {
               %0 = hw.instance \"f0\" @silica_fadd_f32_l3(clock: %clk: !seq.clock, a: %x: i32, b: %y: i32) -> (result: i32)
               %1 = hw.instance \"f1\" @silica_fadd_f32_l3(clock: %clk: !seq.clock, a: %x: i32, b: %y: i32) -> (result: i32)
               %2 = hw.instance \"f2\" @silica_fadd_f32_l3(clock: %clk: !seq.clock, a: %y: i32, b: %x: i32) -> (result: i32)
               %m = comb.mux %s, %x, %y : i32
               %3 = hw.instance \"f3\" @silica_fadd_f32_l3(clock: %clk: !seq.clock, a: %m: i32, b: %x: i32) -> (result: i32)
               hw.output %0, %1, %2, %3 : i32, i32, i32, i32
             }",
        );
        let e = estimate(&ctx, &ir, top, (&lib, &floats), None);
        // Two circuits (f0 and f1 merge), 1 + 32 lone bits each (a
        // register of a's sign would be ra's bit, merged).
        // f3's operand a comes out of a LUT (a multiplexer), which packs
        // with the 32 flip-flops it loads: its sign register alone.
        assert_eq!(e.lone_ff, 2 * 33 + 1, "{e:?}");
        // ECP5 counts no lone flip-flops of the operators.
        let mut floats = FloatChoices::default();
        let lib = Library::for_target("ecp5-25k").unwrap();
        floats.set(add, choice);
        assert_eq!(estimate(&ctx, &ir, top, (&lib, &floats), None).lone_ff, 0);
    }

    /// The ports of a module that are the package's pins start and end
    /// no timed path: nextpnr times them apart from the clock.
    #[test]
    fn ports_that_are_pins_are_not_timed() {
        let (ctx, ir, top) = circuit(
            "hw.module @m(in %clk : !seq.clock, in %a : i32, in %b : i32, out y : i32, out z : i32) {
               %p = comb.mul %a, %b : i32
               %r = seq.compreg %p, %clk : i32
               %s = comb.add %r, %r : i32
               hw.output %r, %s : i32, i32
             }",
        );
        let floats = FloatChoices::default();
        let lib = Library::for_target("ecp5-25k").unwrap();
        let core = estimate(&ctx, &ir, top, (&lib, &floats), None);
        let mul = lib.kind_figures("mul_reg", "mul", 32).unwrap().0;
        assert!(
            (core.period_ns - lib.register_ns - mul).abs() < 1e-9,
            "{core:?}"
        );
        let pins = estimate(&ctx, &ir, top, (&lib, &floats), Some("m"));
        assert_eq!(pins.period_ns, lib.register_ns, "{pins:?}");
        // Another module's ports are not the pins.
        assert_eq!(estimate(&ctx, &ir, top, (&lib, &floats), Some("n")), core);
    }

    #[test]
    fn compares_against_constants() {
        let cmp = |pred: &str, k: i64| {
            priced(
                "ice40-up5k",
                "in %a : i8, out y : i1",
                &format!(
                    "%c = hw.constant {k} : i8\n%0 = comb.icmp {pred} %a, %c : i8\nhw.output %0 : i1"
                ),
            )
            .lut
        };
        // Equality: a tree over the eight bits; a signed bound of 64: the
        // top two bits; another bound: the carry chain of an add.
        assert_eq!(cmp("eq", 5), 3.0);
        assert_eq!(cmp("slt", 64), 1.0);
        assert_eq!(cmp("slt", 14), 8.0);
    }
}
