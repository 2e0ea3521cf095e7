//! Structure: the scheduled kernel as one `hw.module` of comb/seq ops
//! (and the `hw.module`s of its float operators, `float.rs`).
//! Ports follow the brief's contract (`ports.rs`); the controller and the
//! pipelines are in `control/`. The datapath is built on demand: a value
//! is asked for *as seen* at a controller state or at a step of a
//! pipelined iteration, and comes back as the wire that computes it there
//! (operations chained within a state), the register that captured it in
//! the state where it became valid, or a delay line within a pipeline.
//! Functions the kernel calls are modules of their own, built first into
//! the same `builtin.module` and instantiated per call (`call.rs`).

pub mod beside;
mod call;
pub mod control;
mod datapath;
mod divider;
pub mod divider_array;
pub(crate) mod dma;
mod float;
pub mod hw;
mod memory;
pub mod ports;
mod shift_add;
pub mod stream;

use crate::flow::analysis::constant_product::{Forms, Products};
use crate::flow::construct::control::{Control, ResultHold};
use crate::flow::schedule::Schedules;
use crate::model::kernel::{Arg, Kernel, LoopId, NodeId, Val};
use hw::{Hw, Reg};
use rustc_hash::FxHashMap;
use silica_hw_dialects::types::{Direction, Port};
use silica_ir::{Context, Diagnostic, Ir, OpId, OpSpec, ValueId};

/// Where a value is observed: in a controller state, or at a step of an
/// iteration of a pipelined loop.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum At {
    State(u32),
    Pipe(LoopId, u32),
}

/// Values a transition has just computed for induction variables and
/// carried values (stepped counters, yielded values, initial values),
/// standing for their registers, which take them only at the edge.
pub type Env = Vec<(Val, ValueId)>;

/// One access to a memory port.
pub struct Access {
    /// The memory port it uses.
    pub port: u32,
    pub enable: ValueId,
    pub address: ValueId,
    pub data: Option<ValueId>,
    /// A store to a packed memory: the lanes it writes, one bit each,
    /// low while it is not made.
    pub lanes: Option<ValueId>,
}

/// The circuit under construction.
pub struct Builder<'c, 'k> {
    pub hw: Hw<'c>,
    pub k: &'k Kernel,
    pub s: &'k Schedules,
    pub control: Control,
    /// Input ports of scalar arguments, and their registers.
    pub arg_ports: FxHashMap<usize, ValueId>,
    pub arg_regs: FxHashMap<usize, Reg>,
    /// Induction variable (counter) and carried-value registers.
    pub iv_regs: Vec<Reg>,
    pub carried_regs: Vec<Vec<Reg>>,
    /// The state register of each thread of the controller.
    pub states: Vec<Reg>,
    /// Node wires and capture registers.
    wires: FxHashMap<NodeId, ValueId>,
    captures: FxHashMap<NodeId, ValueId>,
    pub accesses: Vec<Vec<Access>>,
    /// The read data of each memory, per port.
    pub read_data: Vec<Vec<ValueId>>,
    /// Ports and shared units of the operations.
    pub binding: crate::flow::schedule::binding::Binding,
    /// The output of each shared unit, by class and unit.
    units: FxHashMap<(&'static str, u32), ValueId>,
    /// The pipelined dividers built: width and rows of the slowest stage.
    dividers: Vec<(u32, u32)>,
    /// How products by constants are built (`crate::flow::analysis::constant_product`).
    forms: Forms<'k>,
    /// The products by constants built, by form.
    products: Products,
    /// Bypass multiplexers of carried values whose `true` operand is
    /// connected last: the yielded value as seen where it is written.
    bypasses: Vec<(OpId, Val, At)>,
    /// Deferred writes of registers.
    pub writes: FxHashMap<OpId, (Reg, Vec<(ValueId, ValueId)>)>,
    state_tests: FxHashMap<u32, ValueId>,
    /// Valid signal of each pipeline step (index 0: the issue signal).
    pub valid: FxHashMap<LoopId, Vec<ValueId>>,
    /// On-chip RAMs: the memory value and its read ports.
    rams: FxHashMap<usize, (ValueId, Vec<OpId>)>,
    /// DMA engines and tag counters.
    dma: dma::Engines,
    /// ROMs: the read register and the table.
    roms: FxHashMap<usize, (Vec<Reg>, ValueId)>,
    /// The ports of the modules built before (the callees), by name.
    modules: &'k Modules,
    /// Each call's instance: its `done` output and its results.
    pub call_done: Vec<ValueId>,
    /// Each call's start register (high in the first cycle of its state).
    pub call_start: Vec<Reg>,
    call_results: Vec<Vec<ValueId>>,
    /// The engines the environment serves (`stream.rs`): the module's
    /// own, and for the top its calls' instances'.
    pub streams: &'k [crate::model::interface::Stream],
    /// The callees' streams, by module name.
    callee_streams: &'k FxHashMap<String, Vec<crate::model::interface::Stream>>,
    /// The streams' ports: inputs (block arguments) and outputs, by name.
    stream_ports: FxHashMap<String, ValueId>,
}

/// The ports of built modules, by module name.
pub type Modules = FxHashMap<String, Vec<Port>>;

/// The built design.
pub struct Circuit {
    pub ir: Ir,
    pub module: OpId,
    pub register_bits: u64,
    /// Units built per limited class, and the operations sharing them.
    pub units: Vec<(String, u32, usize)>,
    /// The controller states of DMA operations, and the names of each
    /// DMA engine's busy registers (for measurements in simulation).
    pub dma_states: Vec<u32>,
    pub dma_busy: Vec<[String; 3]>,
    /// The state that waits for transfers under way before `done`.
    pub drain_state: Option<u32>,
    /// The pipelined dividers of every module (`construct::divider_array`):
    /// width and rows of the slowest stage, which the estimate times
    /// (`estimate::CircuitEstimate::add_dividers`).
    pub dividers: Vec<(u32, u32)>,
    /// The products by constants built, by form, in every module.
    pub products: Products,
    /// The top module's controller states (`--trace` names them).
    pub states: control::ControllerStates,
}

/// What to observe: the states of DMA operations and the engines' busy
/// registers, by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DmaProbe {
    pub start_states: Vec<u32>,
    pub wait_states: Vec<u32>,
    pub busy: Vec<String>,
}

impl Circuit {
    /// What to observe in simulation to measure how much of the DMA
    /// time computation hides (kernel `k`'s DMA operations), where `k`
    /// has any.
    pub fn dma_probe(&self, k: &Kernel) -> Option<DmaProbe> {
        if k.dmas.is_empty() {
            return None;
        }
        let states = |start: bool| {
            k.dmas
                .iter()
                .zip(&self.dma_states)
                .filter(|(d, _)| d.transfer.is_some() == start)
                .map(|(_, &s)| s)
                .collect()
        };
        let mut wait_states: Vec<u32> = states(false);
        wait_states.extend(self.drain_state);
        Some(DmaProbe {
            start_states: states(true),
            wait_states,
            busy: self.dma_busy.iter().flatten().cloned().collect(),
        })
    }
}

impl<'c, 'k> Builder<'c, 'k> {
    /// Adds a write to a register (conditions of one register's writes
    /// exclude each other, except where order is stated).
    pub fn write(&mut self, reg: Reg, cond: ValueId, value: ValueId) {
        self.writes
            .entry(reg.op)
            .or_insert_with(|| (reg, Vec::new()))
            .1
            .push((cond, value));
    }

    /// Whether state `s` is its thread's state.
    pub fn in_state(&mut self, s: u32) -> ValueId {
        if let Some(&v) = self.state_tests.get(&s) {
            return v;
        }
        let thread = self.control.thread_of[s as usize];
        let reg = self.states[thread];
        let code = s ^ self.control.idle[thread];
        let c = self.hw.constant(u128::from(code), reg.width);
        let v = self.hw.icmp(0, reg.q, c);
        self.state_tests.insert(s, v);
        v
    }

    /// Whether a context is active this cycle.
    pub fn active(&mut self, at: At) -> ValueId {
        match at {
            At::State(s) => self.in_state(s),
            At::Pipe(l, t) => self.valid[&l][t as usize],
        }
    }

    /// The value `v` as seen at `at`.
    pub fn seen(&mut self, v: Val, at: At) -> ValueId {
        let k = self.k;
        if let Some((l, t)) = self.held_from_issue(v, at) {
            // What follows the pipeline may change the value while this
            // step drains: the value the iteration saw when it issued.
            let q = self.seen(v, At::Pipe(l, 0));
            return self.hw.delayed(q, t, "held");
        }
        match v {
            Val::Const(c) => {
                let (bits, w) = k.consts[c];
                self.hw.constant(bits, w)
            }
            Val::Arg(i) => {
                if at == At::State(crate::flow::construct::control::IDLE) {
                    self.arg_ports[&i]
                } else {
                    self.arg_regs[&i].q
                }
            }
            Val::Iv(l) => {
                let q = self.iv_regs[l].q;
                match at {
                    At::Pipe(pl, t) if pl == k.counter_owner(l) => self.hw.delayed(q, t, "iv"),
                    _ => q,
                }
            }
            Val::Carried(l, i) => {
                let q = self.carried_regs[l][i].q;
                match at {
                    At::Pipe(pl, t) if pl == l => {
                        let written = self.s.pipes[l].as_ref().and_then(|p| p.carry[i]);
                        let ii = self.s.pipes[l].as_ref().map_or(1, |p| p.ii);
                        match written {
                            Some(ty) if t > ty => self.hw.delayed(q, t - ty, "carried"),
                            // The previous iteration computes the value in
                            // this very cycle (a bypassed carried value):
                            // its wire, unless no iteration is there (the
                            // wire is connected once every node is built:
                            // it may be the user's own result).
                            Some(ty) if t + ii == ty => {
                                let en = self.active(At::Pipe(l, ty));
                                let ty_q = self.hw.ir.value_type(q);
                                let mux =
                                    self.hw.op("comb.mux", &[en, q, q], &[ty_q], vec![], vec![]);
                                self.bypasses.push((
                                    mux,
                                    self.k.loops[l].yields[i],
                                    At::Pipe(l, ty),
                                ));
                                self.hw.ir.result(mux, 0)
                            }
                            _ => q,
                        }
                    }
                    // Leaving a pipeline state, the last iteration may
                    // write the register at this very edge: read through.
                    At::State(st) if st == self.control.loop_state[l] => {
                        let written = self.s.pipes[l].as_ref().and_then(|p| p.carry[i]);
                        match written {
                            Some(ty) if self.k.loops[l].yields[i] != Val::Carried(l, i) => {
                                let new = self.seen(self.k.loops[l].yields[i], At::Pipe(l, ty));
                                let en = self.active(At::Pipe(l, ty));
                                self.hw.mux(en, new, q)
                            }
                            _ => q,
                        }
                    }
                    _ => q,
                }
            }
            Val::Node(n) => self.seen_node(n, at),
            Val::Result(c, i) => self.call_results[c][i],
        }
    }

    /// Whether `v` is defined outside pipelined loop `l` and read at a
    /// step `t` of it that may run after its state is left (the last
    /// `lead` steps, `schedule/overlap.rs`), where what follows may write
    /// it (outer counters and carried values, captured results of
    /// blocks; not constants or scalar arguments, which a run keeps).
    /// Such a value is constant during the state, so the one an iteration
    /// reads is the one `t` cycles before.
    fn held_from_issue(&self, v: Val, at: At) -> Option<(LoopId, u32)> {
        let At::Pipe(l, t) = at else { return None };
        let depth = self.s.pipes[l].as_ref()?.depth;
        if t == 0 || t + self.s.lead[l] < depth {
            return None;
        }
        let outside = match v {
            Val::Iv(m) => self.k.counter_owner(m) != l,
            Val::Carried(m, _) => m != l,
            Val::Node(n) => self.k.pipelined_loop_of(self.k.nodes[n].block) != Some(l),
            Val::Result(..) => true,
            Val::Const(_) | Val::Arg(_) => false,
        };
        outside.then_some((l, t))
    }

    /// The value `v` as seen at `at` during a transition that has computed
    /// the values of `env`.
    pub fn seen_in(&mut self, v: Val, at: At, env: &Env) -> ValueId {
        match env.iter().rev().find(|(x, _)| *x == v) {
            Some(&(_, value)) => value,
            None => self.seen(v, at),
        }
    }

    /// Where node `n` is computed, and the step its result is valid.
    fn home(&self, n: NodeId) -> (At, At) {
        let b = self.k.nodes[n].block;
        let (start, ready) = (self.s.start[n], self.s.ready(n));
        match self.k.pipelined_loop_of(b) {
            Some(l) => (At::Pipe(l, start), At::Pipe(l, ready)),
            None => {
                let base = self.control.block_base[b];
                (At::State(base + start), At::State(base + ready))
            }
        }
    }

    fn seen_node(&mut self, n: NodeId, at: At) -> ValueId {
        let (_, ready) = self.home(n);
        if ready == at {
            return self.wire(n);
        }
        match (ready, at) {
            (At::Pipe(l, r), At::Pipe(l2, t)) if l == l2 && t >= r => {
                let w = self.wire(n);
                self.hw.delayed(w, t - r, "pipe")
            }
            _ => self.capture(n),
        }
    }

    /// The register that holds node `n`'s result after the state where it
    /// is valid.
    fn capture(&mut self, n: NodeId) -> ValueId {
        if let Some(&v) = self.captures.get(&n) {
            return v;
        }
        let (_, ready) = self.home(n);
        let wire = self.wire(n);
        let width = self.hw.width(wire);
        let reg = self.hw.reg(&format!("v{n}"), width, None);
        self.captures.insert(n, reg.q);
        let cond = self.active(ready);
        self.write(reg, cond, wire);
        reg.q
    }

    /// Node `n`'s result where it becomes valid.
    pub fn wire(&mut self, n: NodeId) -> ValueId {
        if let Some(&v) = self.wires.get(&n) {
            return v;
        }
        let v = self.build_node(n);
        self.wires.insert(n, v);
        v
    }
}

/// Builds the circuits of scheduled kernels into a fresh
/// `builtin.module`, one `hw.module` each, in order (callees before their
/// callers; the last is the top), after an `hw.module.extern` for each of
/// `externs` (hand-written modules that calls instantiate, with their
/// ports).
pub fn build(
    ctx: &mut Context,
    lib: &crate::model::target::library::Library,
    clock_ns: f64,
    kernels: &[(&Kernel, &Schedules)],
    externs: &[(String, Vec<crate::model::interface::Port>)],
    streams: &stream::Streams,
) -> Result<Circuit, Box<Diagnostic>> {
    let mut ir = Ir::new();
    let loc = kernels
        .last()
        .map_or_else(|| ctx.unknown_loc(), |(k, _)| k.loc);
    let module_name = ctx.sym("builtin.module");
    let empty = ctx.dict_attr(Vec::new());
    let top_region = ir.create_region();
    let top_block = ir.create_block();
    ir.append_block(top_region, top_block);
    let top = ir.create_op(OpSpec {
        name: module_name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[top_region],
        attrs: empty,
        props: None,
    });
    let mut modules = Modules::default();
    for (name, ports) in externs {
        let ports = extern_module(ctx, &mut ir, top_block, loc, name, ports);
        modules.insert(name.clone(), ports);
    }
    let mut register_bits = 0;
    let mut dividers = Vec::new();
    let mut products = Products::default();
    let mut last = Default::default();
    for (i, &(k, s)) in kernels.iter().enumerate() {
        let own: &[crate::model::interface::Stream] = if i + 1 == kernels.len() {
            &streams.top
        } else {
            streams.callees.get(&k.name).map_or(&[], Vec::as_slice)
        };
        float::operator_modules(ctx, &mut ir, top, k, s)?;
        let scope = Scope {
            lib,
            clock_ns,
            modules: &modules,
            streams: own,
            callee_streams: &streams.callees,
        };
        let built = build_module(ctx, ir, top_block, k, s, &scope);
        ir = built.ir;
        register_bits += built.register_bits;
        dividers.extend(built.dividers);
        products.merge(built.products);
        modules.insert(k.name.clone(), ports::ports(ctx, k, own));
        last = (
            built.units,
            built.dma_states,
            built.dma_busy,
            built.drain_state,
            built.states,
        );
    }
    let (units, dma_states, dma_busy, drain_state, states) = last;
    Ok(Circuit {
        ir,
        module: top,
        register_bits,
        units,
        dma_states,
        dma_busy,
        drain_state,
        dividers,
        products,
        states,
    })
}

/// One built module: the IR given back, its register bits, its units
/// per limited class (class, units built, operations on them) and its
/// DMA states and busy signals.
struct Built {
    ir: Ir,
    register_bits: u64,
    units: Vec<(String, u32, usize)>,
    dma_states: Vec<u32>,
    dma_busy: Vec<[String; 3]>,
    drain_state: Option<u32>,
    dividers: Vec<(u32, u32)>,
    products: Products,
    states: control::ControllerStates,
}

/// Builds `k`'s `hw.module` at the end of `top_block`; gives the IR back
/// with the module's register bits and its functional units per limited
/// class (class, units built, operations bound to them).
/// What a module is built against: the modules built before (the
/// callees), its own streams, and the callees' streams.
struct Scope<'a> {
    lib: &'a crate::model::target::library::Library,
    clock_ns: f64,
    modules: &'a Modules,
    streams: &'a [crate::model::interface::Stream],
    callee_streams: &'a FxHashMap<String, Vec<crate::model::interface::Stream>>,
}

fn build_module(
    ctx: &mut Context,
    mut ir: Ir,
    top_block: silica_ir::BlockId,
    k: &Kernel,
    s: &Schedules,
    scope: &Scope<'_>,
) -> Built {
    let streams = scope.streams;
    let control = Control::plan(k, s);
    let binding = crate::flow::schedule::binding::bind(k, s);
    let loc = k.loc;
    let ports = ports::ports(ctx, k, streams);
    let body_region = ir.create_region();
    let body = ir.create_block();
    ir.append_block(body_region, body);
    let mut inputs = Vec::new();
    for p in &ports {
        if p.dir == Direction::Input {
            inputs.push(ir.add_block_arg(body, p.ty, Some(loc)));
        }
    }
    let module =
        silica_hw_dialects::hw::create_module(ctx, &mut ir, loc, &k.name, &ports, body_region);
    ir.append_op(top_block, module);
    let input_of = |name: &str| -> ValueId {
        let i = ports
            .iter()
            .filter(|p| p.dir == Direction::Input)
            .position(|p| p.name == name)
            .unwrap_or(0);
        inputs[i]
    };
    let (clock, reset, start) = (input_of("clock"), input_of("reset"), input_of("start"));
    let mut arg_ports = FxHashMap::default();
    for (i, sc) in k.scalars() {
        arg_ports.insert(i, input_of(&sc.name));
    }
    let mut read_data = Vec::new();
    for (i, m) in k.memories.iter().enumerate() {
        read_data.push(if m.arg.is_some() && !stream::streamed(k, streams, i) {
            (0..m.ports)
                .map(|p| input_of(&ports::memory_port(&m.name, "q", p)))
                .collect()
        } else {
            Vec::new()
        });
    }
    let mut stream_ports = FxHashMap::default();
    for p in streams.iter().flat_map(|s| s.ports()) {
        if p.direction == crate::model::interface::Direction::In {
            stream_ports.insert(p.name.clone(), input_of(&p.name));
        }
    }
    let mut hw = Hw::new(ctx, ir, body, clock, reset);
    hw.loc = loc;
    let state_width = (32 - (control.num_states.max(2) - 1).leading_zeros()).max(1);
    // One state register a thread (`control/`): the controller's own,
    // then one for each dataflow task after a group's first. A thread's
    // register holds its state XOR its idle state, so that every thread
    // powers up and resets idle.
    let states = (0..control.idle.len())
        .map(|t| hw.reg(&control::state_register(t), state_width, Some(0)))
        .collect();
    let mut arg_regs = FxHashMap::default();
    for (i, sc) in k.scalars() {
        arg_regs.insert(i, hw.reg(&sc.name, sc.width, None));
    }
    let iv_regs = (0..k.loops.len())
        .map(|l| hw.reg(&format!("iv{l}"), k.index_width, None))
        .collect();
    let carried_regs = k
        .loops
        .iter()
        .enumerate()
        .map(|(l, lp)| {
            lp.carried_widths
                .iter()
                .enumerate()
                .map(|(i, &w)| hw.reg(&format!("carried{l}_{i}"), w, None))
                .collect()
        })
        .collect();
    let mut b = Builder {
        hw,
        k,
        s,
        control,
        arg_ports,
        arg_regs,
        iv_regs,
        carried_regs,
        states,
        wires: FxHashMap::default(),
        captures: FxHashMap::default(),
        accesses: k.memories.iter().map(|_| Vec::new()).collect(),
        read_data,
        binding,
        units: FxHashMap::default(),
        dividers: Vec::new(),
        forms: Forms::of(k, scope.lib, scope.clock_ns),
        products: Products::default(),
        writes: FxHashMap::default(),
        bypasses: Vec::new(),
        state_tests: FxHashMap::default(),
        valid: FxHashMap::default(),
        rams: FxHashMap::default(),
        dma: dma::Engines::default(),
        roms: FxHashMap::default(),
        modules: scope.modules,
        callee_streams: scope.callee_streams,
        call_done: Vec::new(),
        call_start: Vec::new(),
        call_results: vec![Vec::new(); k.calls.len()],
        streams,
        stream_ports,
    };
    b.call_done = vec![b.hw.constant(0, 1); k.calls.len()];
    b.create_rams();
    b.build_calls();
    let pipe_writes = b.build_pipeline_valids();
    b.plan_dma();
    b.build_control(start);
    b.add_pipeline_writes(pipe_writes);
    // Stores (and loads nothing reads) are built here.
    for n in 0..k.nodes.len() {
        b.wire(n);
    }
    while let Some((mux, y, at)) = b.bypasses.pop() {
        let v = b.seen(y, at);
        b.hw.ir.set_operand(mux, 1, v);
    }
    b.build_dma();
    b.build_done();
    let outputs = b.finish_outputs();
    b.build_bound_tests();
    let writes: Vec<_> = std::mem::take(&mut b.writes).into_values().collect();
    for (reg, w) in writes {
        b.hw.connect(reg, &w);
    }
    b.hw.op("hw.output", &outputs, &[], vec![], vec![]);
    b.hw.finish();
    let register_bits = b.hw.register_bits;
    let mut units: Vec<(String, u32, usize)> = Vec::new();
    for (class, _) in &k.limits {
        let built = b.binding.members.keys().filter(|(c, _)| c == class).count();
        let ops = b
            .binding
            .members
            .iter()
            .filter(|((c, _), _)| c == class)
            .map(|(_, v)| v.len())
            .sum();
        units.push((class.clone(), built as u32, ops));
    }
    let states = b.control.states(k, s);
    Built {
        ir: b.hw.ir,
        register_bits,
        units,
        dma_states: b.control.dma_state,
        dma_busy: b.dma.busy,
        drain_state: b.control.drain,
        dividers: b.dividers,
        products: b.products,
        states,
    }
}

impl Builder<'_, '_> {
    /// The output values in port order, with memory ports connected.
    fn finish_outputs(&mut self) -> Vec<ValueId> {
        let mut outs = Vec::new();
        let idle = self.in_state(crate::flow::construct::control::IDLE);
        outs.push(self.control_done());
        outs.push(idle);
        for (i, hold) in self.control.results.clone().into_iter().enumerate() {
            let held = match hold {
                ResultHold::Register(r) => r.q,
                ResultHold::Carried(l, j) => {
                    let q = self.carried_regs[l][j].q;
                    self.hw.resize(q, self.k.results[i], true)
                }
            };
            outs.push(held);
        }
        for m in 0..self.k.memories.len() {
            let ports = self.connect_memory(m);
            if self.k.memories[m].arg.is_some() && !stream::streamed(self.k, self.streams, m) {
                outs.extend(ports);
            }
        }
        for p in self.streams.iter().flat_map(|s| s.ports()) {
            if p.direction == crate::model::interface::Direction::Out {
                outs.push(self.stream_ports[&p.name]);
            }
        }
        outs
    }

    fn control_done(&mut self) -> ValueId {
        self.control
            .done
            .map_or_else(|| self.hw.constant(0, 1), |r| r.q)
    }

    /// Whether argument `i` is a scalar.
    pub fn is_scalar(&self, i: usize) -> bool {
        matches!(self.k.args[i], Arg::Scalar(_))
    }
}

/// The port list of a kernel, re-exported for the report.
pub fn module_ports(ctx: &mut Context, k: &Kernel) -> Vec<Port> {
    ports::ports(ctx, k, &[])
}

/// An `hw.module.extern @name` with `ports` at the end of `top_block`;
/// gives its ports as hw types.
fn extern_module(
    ctx: &mut Context,
    ir: &mut Ir,
    top_block: silica_ir::BlockId,
    loc: silica_ir::Attr,
    name: &str,
    ports: &[crate::model::interface::Port],
) -> Vec<Port> {
    let ports: Vec<Port> = ports
        .iter()
        .map(|p| Port {
            dir: match p.direction {
                crate::model::interface::Direction::In => Direction::Input,
                crate::model::interface::Direction::Out => Direction::Output,
            },
            name: p.name.clone(),
            ty: if p.name == crate::model::interface::names::CLOCK {
                silica_hw_dialects::types::clock(ctx)
            } else {
                ctx.signless(p.width)
            },
        })
        .collect();
    let op = silica_hw_dialects::hw::create_extern_module(ctx, ir, loc, name, &ports);
    ir.append_op(top_block, op);
    ports
}
