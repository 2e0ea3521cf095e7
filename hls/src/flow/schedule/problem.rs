//! Building one problem of the scheduling library from kernel nodes:
//! operator types from the library (latency, measured delays
//! interpolated at the operation's width, clamped to the chaining budget:
//! the clock period less the fabric's register-to-register period (the
//! operations clamped are listed in the report's notes, `too_slow`); float
//! operators at the latency chosen for the design; dividers cut into as
//! many stages as their measured stages need to fit the clock), one
//! port resource per memory (limited to its ports), one unit resource
//! per operator class with a `[limits]` entry, value and memory-order
//! dependences (none between accesses at provably distinct addresses),
//! extra operations (carried-value registers), chain-breaking
//! operations and registers between block RAM reads and the DSP
//! multipliers that read them.

use crate::flow::analysis::constant_product::Forms;
use crate::flow::analysis::deps::distinct_addresses;
use crate::flow::front::{reciprocal, MAX_RECIPROCAL_WIDTH};
use crate::flow::schedule::floats::FloatChoices;
use crate::model::kernel::{Kernel, NodeId, Op, PortShares, Val};
use crate::model::target::library::rows_per_stage;
use crate::model::target::library::{class_of, kind_of, Library};
use crate::model::target::rams::in_block_rams;
use rustc_hash::{FxHashMap, FxHashSet};
use silica_scheduling::{
    chain_breaks, OpId, OperatorType, OperatorTypeId, Problem, ProblemKind, ResourceTypeId,
};

/// The stages of a `width`-bit divider whose combinational delay is
/// `delay_ns` within a chaining budget of `budget_ns`: none
/// (combinational) where it fits, else the fewest whose slowest stage
/// fits (the array has one row per bit, spread evenly:
/// `construct/divider_array.rs`; `stage_ns` is the delay of a stage of that
/// many rows), one a row where even one row does not; at least one for a
/// shared unit (`limited`), which registers its result.
fn divider_stages(
    delay_ns: f64,
    budget_ns: f64,
    width: u32,
    limited: bool,
    stage_ns: &dyn Fn(u32) -> f64,
) -> u32 {
    let width = width.max(1);
    let stages = if delay_ns <= budget_ns {
        0
    } else {
        (1..=width)
            .find(|&s| stage_ns(rows_per_stage(width, s)) <= budget_ns)
            .unwrap_or(width)
    };
    if limited {
        stages.max(1)
    } else {
        stages
    }
}

/// The wiring and multiplexers followed back from a product's operand
/// to the block RAM reads it chains after.
const READ_PATH: u32 = 8;

/// The nets from a block RAM's read port to a DSP column and back from
/// it (ns), which no operator's delay holds: the gap between a placed
/// gemm's critical path on ECP5 (21.0 ns from a buffer's read port
/// through a multiplier's DSPs and the adders after it) and the
/// library's delays along it (17.8), with a tenth to spare.
const RAM_TO_DSP_NS: f64 = 3.5;

/// A problem under construction; operation `i` is the `i`-th node added,
/// then extra operations.
pub struct ProblemBuilder<'a> {
    k: &'a Kernel,
    lib: &'a Library,
    floats: &'a FloatChoices,
    /// The chaining budget (ns): what operators may add to a register
    /// path within the clock period (`constant_product::budget_ns`).
    budget_ns: f64,
    /// The forms the kernel's products by constants take.
    forms: Forms<'a>,
    p: Problem,
    types: FxHashMap<(u32, u64, u64), OperatorTypeId>,
    ports: FxHashMap<usize, ResourceTypeId>,
    units: FxHashMap<&'static str, ResourceTypeId>,
    /// The problem operation of each node added.
    pub op_of: FxHashMap<NodeId, OpId>,
    latencies: Vec<u32>,
    /// The dependences added so far, so that none is added twice.
    dependences: FxHashSet<(OpId, OpId, u32)>,
    /// Units per class below the `[limits]` entry (`cap_units`).
    caps: Vec<(String, u32)>,
    /// How dataflow tasks share ports, found when first needed.
    shares: Option<PortShares>,
    /// The stores of each memory (`Kernel::stores_per_memory`).
    stores: Vec<u32>,
}

impl<'a> ProblemBuilder<'a> {
    /// An empty problem; `cyclic` for modulo problems.
    pub fn new(
        k: &'a Kernel,
        (lib, floats): (&'a Library, &'a FloatChoices),
        clock_ns: f64,
        cyclic: bool,
    ) -> Self {
        let kind = if cyclic {
            ProblemKind::ModuloProblem
        } else {
            ProblemKind::SharedOperatorsProblem
        };
        ProblemBuilder {
            k,
            lib,
            floats,
            budget_ns: crate::flow::analysis::constant_product::budget_ns(lib, clock_ns),
            forms: Forms::of(k, lib, clock_ns),
            p: Problem::new(kind),
            types: FxHashMap::default(),
            ports: FxHashMap::default(),
            units: FxHashMap::default(),
            op_of: FxHashMap::default(),
            latencies: Vec::new(),
            dependences: FxHashSet::default(),
            caps: Vec::new(),
            shares: None,
            stores: k.stores_per_memory(),
        }
    }

    /// Gives the operations of limited class `class` `units` units, not
    /// the `[limits]` entry's number (before any node is added).
    pub fn cap_units(&mut self, class: &str, units: u32) {
        self.caps.retain(|(c, _)| c != class);
        self.caps.push((class.to_string(), units));
    }

    fn operator_type(&mut self, latency: u32, incoming: f64, outgoing: f64) -> OperatorTypeId {
        let key = (latency, incoming.to_bits(), outgoing.to_bits());
        if let Some(&t) = self.types.get(&key) {
            return t;
        }
        self.p.operator_types.push(OperatorType {
            name: format!("lat{latency}_in{incoming}_out{outgoing}"),
            latency: Some(latency),
            incoming_delay: Some(incoming),
            outgoing_delay: Some(outgoing),
            limit: None,
        });
        let id = OperatorTypeId(self.p.operator_types.len() as u32 - 1);
        self.types.insert(key, id);
        id
    }

    /// An extra operation of `latency` without resources (a register).
    pub fn add_extra(&mut self, latency: u32) -> OpId {
        let t = self.operator_type(latency, 0.0, 0.0);
        self.latencies.push(latency);
        self.p.add_operation(t, &[])
    }

    /// The latency node `n` is scheduled with (a float operation's only
    /// once the library has chosen it); none where the library has no row.
    pub fn latency_of_node(&self, n: NodeId) -> Option<u32> {
        self.timing(n).ok().map(|t| t.0)
    }

    /// The timing of node `n`'s operator: its latency and its measured
    /// delays in and out (not yet clamped to the chaining budget), and its
    /// library class.
    fn timing(&self, n: NodeId) -> Result<(u32, f64, f64, &'static str), String> {
        let node = &self.k.nodes[n];
        let class = class_of(node.op);
        let width = match node.op {
            Op::Store(_) => self.k.width(node.args[1]),
            Op::Cmp(_) => self.k.width(node.args[0]),
            Op::Float(o) => o.format.width(),
            // A shared unit is as wide (and as slow) as its widest user.
            _ if self.k.limited(n).is_some() => (0..self.k.nodes.len())
                .filter(|&x| self.k.limited(x).is_some_and(|(c, _)| c == class))
                .map(|x| self.k.nodes[x].width)
                .max()
                .unwrap_or(node.width),
            _ => node.width,
        };
        let row = self
            .lib
            .row(class, width)
            .ok_or_else(|| format!("the {} library has no '{class}' row", self.lib.device.name))?;
        Ok(match node.op {
            Op::Float(o) if row.auto => {
                let o = match self.k.limited(n) {
                    Some(_) => o.shared_unit(),
                    None => o,
                };
                let c = self.floats.latency(o).ok_or_else(|| {
                    format!(
                        "no latency was chosen for float operator {}",
                        o.module_name(0)
                    )
                })?;
                let outgoing = if c.latency == 0 {
                    c.input_delay_ns
                } else {
                    c.output_delay_ns
                };
                (c.latency, c.input_delay_ns, outgoing, class)
            }
            _ => {
                let product = match node.op {
                    Op::Mul => self.constant_product(n),
                    _ => None,
                };
                let delay = match (node.op, kind_of(node.op)) {
                    (Op::FloorDivC(c) | Op::CeilDivC(c) | Op::ModC(c), _)
                        if c.count_ones() != 1 =>
                    {
                        self.constant_division(node.op, c, width)
                    }
                    _ if product.is_some() => product,
                    (_, Some(kind)) => self.lib.kind_figures(kind, class, width).map(|f| f.0),
                    (_, None) => self.lib.delay_ns(class, width),
                }
                .unwrap_or(row.delay_ns);
                let limited = self.k.limited(n).is_some();
                let latency = match node.op {
                    Op::Load(_) | Op::Store(_) => 1,
                    // A divider is cut into as many stages as its delay
                    // needs to fit the cycle (`construct/divider_array.rs`).
                    _ if class == "div" => {
                        let stage_ns = |rows| self.divider_stage_ns(delay, width, rows);
                        divider_stages(delay, self.budget_ns, width, limited, &stage_ns)
                    }
                    // A shared unit registers its result (its operands
                    // change with the next user).
                    _ if limited => row.latency.max(1),
                    _ => row.latency,
                };
                let outgoing = match node.op {
                    Op::Load(_) => delay,
                    _ if latency > 0 => 0.0,
                    _ => delay,
                };
                // A divider's first stage takes as long as its slowest.
                let incoming = match latency {
                    0 => delay,
                    l if class == "div" => {
                        self.divider_stage_ns(delay, width, rows_per_stage(width.max(1), l))
                    }
                    _ => delay,
                };
                (latency, incoming, outgoing, class)
            }
        })
    }

    /// The delay (ns) of a division or remainder `op` by the constant
    /// `c` (no power of two) at `width`, as construction builds it
    /// (`construct/datapath.rs`): the dividend's sign compared, flipped
    /// and restored around its product by the reciprocal, and for a
    /// remainder the quotient's product by `c` and a subtraction after
    /// it, each product in the form its constant takes (shifts and adds
    /// where they cost less, else a multiplier). A dividend too wide for
    /// the reciprocal is the library's figure.
    fn constant_division(&self, op: Op, c: i64, width: u32) -> Option<f64> {
        if width > MAX_RECIPROCAL_WIDTH || c <= 0 {
            return self.lib.constant_division_delay(op, width);
        }
        let forms = self.forms;
        let product = |c: i128, width: u32, significant: u32| {
            (forms
                .form(c, width, significant)
                .delay_ns(self.lib, width, significant))
            .or_else(|| self.lib.delay_ns("mul", width))
        };
        let (add, mux) = (
            self.lib.delay_ns("add", width)?,
            self.lib.delay_ns("mux", width)?,
        );
        let cmp = self.lib.delay_ns("cmp", width)?;
        let (m, _) = reciprocal(c as u128, width);
        let floor = cmp + 2.0 * (add + mux) + product(m as i128, 2 * width + 1, width)?;
        Some(match op {
            Op::CeilDivC(_) => floor + add,
            Op::ModC(_) => floor + product(i128::from(c), width, width)? + add,
            _ => floor,
        })
    }

    /// The delay (ns) of node `n`, a product by a constant built without
    /// a multiplier (`crate::flow::analysis::constant_product`): its adds, or none for
    /// wiring; `None` for any other node.
    fn constant_product(&self, n: NodeId) -> Option<f64> {
        let node = &self.k.nodes[n];
        let (c, x) = match node.args[..] {
            [a, b] => match (self.k.const_value(a), self.k.const_value(b)) {
                (_, Some(c)) => (c, a),
                (Some(c), None) => (c, b),
                (None, None) => return None,
            },
            _ => return None,
        };
        let significant = crate::flow::analysis::constant_product::significant(self.k, x);
        let forms = self.forms;
        let form = forms.form(c, node.width, significant);
        form.delay_ns(self.lib, node.width, significant)
    }

    /// The delay of a stage of `rows` rows of a `width`-bit pipelined
    /// divider whose combinational delay is `delay_ns`: the library's
    /// measured stage (`Library::divider_stage_ns`), else the rows' share
    /// of the combinational delay.
    fn divider_stage_ns(&self, delay_ns: f64, width: u32, rows: u32) -> f64 {
        self.lib
            .divider_stage_ns(width, rows)
            .unwrap_or(delay_ns * f64::from(rows) / f64::from(width.max(1)))
    }

    /// The operations of `nodes` whose measured delay in or out is longer
    /// than the chaining budget: the schedule counts them as fitting a
    /// cycle (their delays clamped to the budget), so the circuit misses
    /// the clock on them. One line each.
    pub fn too_slow(&self, nodes: impl Iterator<Item = NodeId>) -> Vec<String> {
        let mut out = Vec::new();
        for n in nodes {
            let Ok((_, incoming, outgoing, class)) = self.timing(n) else {
                continue;
            };
            let delay = incoming.max(outgoing);
            if delay > self.budget_ns {
                out.push(format!(
                    "{class}#{n} ({} bits) takes {delay:.2} ns, more than the {:.2} ns a cycle leaves operators (the clock less the {:.2} ns register period): the circuit will miss the clock on it",
                    self.k.nodes[n].width,
                    self.budget_ns,
                    self.lib.register_ns,
                ));
            }
        }
        out
    }

    /// Adds node `n` as an operation.
    pub fn add_node(&mut self, n: NodeId) -> Result<OpId, String> {
        let (latency, incoming, outgoing, class) = self.timing(n)?;
        let budget = self.budget_ns;
        let t = self.operator_type(latency, incoming.min(budget), outgoing.min(budget));
        let latency = self.p.operator_types[t.0 as usize].latency.unwrap_or(0);
        let node = &self.k.nodes[n];
        let resources: Vec<ResourceTypeId> = match node.op.memory() {
            Some(m) => {
                let next = self.p.resource_types.len();
                let r = *self.ports.entry(m).or_insert(ResourceTypeId(next as u32));
                if r.0 as usize == next {
                    let name = format!("{}_port", self.k.memories[m].name);
                    let ports = self.k.memories[m].ports;
                    let share = match self.k.dataflow.is_empty() {
                        true => ports,
                        false => {
                            (self.shares.get_or_insert_with(|| self.k.port_shares()))
                                .of(m, node.block, ports)
                                .1
                        }
                    };
                    self.p.add_resource_type(&name, share);
                }
                vec![r]
            }
            None => match self.k.limited(n) {
                Some((_, limit)) => {
                    let limit = self
                        .caps
                        .iter()
                        .find(|(c, _)| c == class)
                        .map_or(limit, |x| x.1);
                    let next = self.p.resource_types.len();
                    let r = *self
                        .units
                        .entry(class)
                        .or_insert(ResourceTypeId(next as u32));
                    if r.0 as usize == next {
                        self.p.add_resource_type(&format!("{class}_units"), limit);
                    }
                    vec![r]
                }
                None => Vec::new(),
            },
        };
        let id = self.p.add_operation(t, &resources);
        self.latencies.push(latency);
        self.op_of.insert(n, id);
        Ok(id)
    }

    /// The latency of operation `i`.
    pub fn latency_of(&self, i: usize) -> u32 {
        self.latencies[i]
    }

    /// Lets `a` and `b` share a slot of their port unless their
    /// iterations are `meets` or more than `reach` apart
    /// (`predicated.rs`).
    pub fn share_slot(&mut self, a: OpId, b: OpId, meets: Vec<i64>, reach: i64) {
        self.p.add_slot_share(a, b, meets, reach);
    }

    /// A dependence `src -> dst` at `distance`.
    pub fn depend(&mut self, src: OpId, dst: OpId, distance: u32) {
        if self.dependences.insert((src, dst, distance)) {
            self.p.add_dependence(src, dst, distance);
        }
    }

    /// Value dependences among `nodes` and the program order of accesses
    /// to one memory where one of them writes, unless their addresses
    /// provably differ (`distinct_addresses`).
    pub fn add_value_and_memory_order(&mut self, nodes: &[NodeId]) {
        for &n in nodes {
            let Some(&dst) = self.op_of.get(&n) else {
                continue;
            };
            for a in self.k.nodes[n].args.clone() {
                if let Val::Node(src) = a {
                    if let Some(&s) = self.op_of.get(&src) {
                        self.depend(s, dst, 0);
                    }
                }
            }
        }
        for (i, &a) in nodes.iter().enumerate() {
            for &b in &nodes[i + 1..] {
                let (oa, ob) = (self.k.nodes[a].op, self.k.nodes[b].op);
                let (Some(ma), Some(mb)) = (oa.memory(), ob.memory()) else {
                    continue;
                };
                let store = matches!(oa, Op::Store(_)) || matches!(ob, Op::Store(_));
                if ma == mb && store && !distinct_addresses(self.k, a, b) {
                    let (sa, sb) = (self.op_of[&a], self.op_of[&b]);
                    self.depend(sa, sb, 0);
                }
            }
        }
    }

    /// Times the nets between every read of a block RAM and a multiplier
    /// on DSPs that reads its data (through wiring and multiplexers): the
    /// nets from a RAM column to a DSP column are long, which the
    /// operators' delays, each measured beside their registers, leave
    /// out. An operation of no latency and [`RAM_TO_DSP_NS`] (with the
    /// multiplexers' delays on the way) stands between the two, so that
    /// the schedule registers the data where the chain through the
    /// product no longer fits the cycle, and chains it where it does
    /// (a 16-bit product, a slower clock). The path a placed gemm missed
    /// 50 MHz on was this one: 21.0 ns from a buffer's read port through
    /// a shared multiplier's operand multiplexer and its DSPs, where the
    /// library's delays add to 17.8.
    pub fn time_ram_to_dsp_nets(&mut self) {
        let mut edges: Vec<(OpId, OpId, u64)> = Vec::new();
        for (&n, &dst) in &self.op_of {
            if !self.on_dsps(n) {
                continue;
            }
            let mut reads = Vec::new();
            for &a in &self.k.nodes[n].args {
                self.block_ram_reads(a, READ_PATH, 0.0, &mut reads);
            }
            edges.extend(reads.iter().filter_map(|&(l, ns)| {
                Some((*self.op_of.get(&l)?, dst, (ns + RAM_TO_DSP_NS).to_bits()))
            }));
        }
        edges.sort_unstable();
        edges.dedup();
        for (src, dst, ns) in edges {
            let nets = self.add_wire(f64::from_bits(ns));
            self.depend(src, nets, 0);
            self.depend(nets, dst, 0);
        }
    }

    /// An extra operation of no latency and `delay_ns` (clamped to the
    /// chaining budget), without resources: wiring.
    fn add_wire(&mut self, delay_ns: f64) -> OpId {
        let delay = delay_ns.min(self.budget_ns);
        let t = self.operator_type(0, delay, delay);
        self.latencies.push(0);
        self.p.add_operation(t, &[])
    }

    /// Whether node `n` is a product synthesis maps onto DSPs: of two
    /// variables, at a width whose library row takes DSPs.
    fn on_dsps(&self, n: NodeId) -> bool {
        let node = &self.k.nodes[n];
        node.op == Op::Mul
            && node.args.iter().all(|&a| self.k.const_value(a).is_none())
            && self.lib.row("mul", node.width).is_some_and(|r| r.dsp > 0)
    }

    /// The loads whose data `v` is, through wiring (extensions, bit
    /// selects) and multiplexers (a partitioned array's banks, an
    /// if-converted choice), that read on-chip memories synthesis puts in
    /// block RAMs (`in_block_rams`, a memory written through as many of
    /// its ports as it has stores), each with the delay of the
    /// multiplexers on its way (`ns`: those met so far).
    fn block_ram_reads(&self, v: Val, depth: u32, ns: f64, out: &mut Vec<(NodeId, f64)>) {
        let Val::Node(x) = v else { return };
        let node = &self.k.nodes[x];
        match node.op {
            Op::Load(m) => {
                let cells = self.lib.device.family.fabric().rams;
                if in_block_rams(&self.k.memories[m], self.stores[m], cells) {
                    out.push((x, ns));
                }
            }
            _ if depth == 0 => {}
            Op::Mux => {
                let mux = self.timing(x).map_or(0.0, |t| t.1);
                for &a in &node.args[1..] {
                    self.block_ram_reads(a, depth - 1, ns + mux, out);
                }
            }
            op if class_of(op) == "ext" => {
                if let Some(&a) = node.args.first() {
                    self.block_ram_reads(a, depth - 1, ns, out);
                }
            }
            _ => {}
        }
    }

    /// Cuts every combinational path longer than the clock period with a
    /// latency-1 operation between its ends.
    pub fn break_long_chains(&mut self) {
        let mut kind = self.p.clone();
        kind.kind = ProblemKind::ChainingProblem;
        for (s, d) in chain_breaks(&kind, self.budget_ns) {
            let mid = self.add_extra(1);
            self.depend(s, mid, 0);
            self.depend(mid, d, 0);
        }
    }

    /// The problem.
    pub fn problem(&self) -> &Problem {
        &self.p
    }
}

#[cfg(test)]
mod tests {
    use super::divider_stages;

    #[test]
    fn a_divider_gets_the_stages_its_rows_need() {
        // Rows of 1 ns, as the combinational delay's share.
        let share = |rows: u32| f64::from(rows);
        // It fits: combinational, but a shared unit registers its result.
        assert_eq!(divider_stages(10.0, 18.0, 32, false, &share), 0);
        assert_eq!(divider_stages(10.0, 18.0, 32, true, &share), 1);
        // 64 rows of 1 ns in 18 ns stages: 16 rows a stage, 4 stages.
        assert_eq!(divider_stages(64.0, 18.0, 64, false, &share), 4);
        // A row longer than a stage: one stage a row.
        assert_eq!(
            divider_stages(200.0, 2.0, 8, false, &|r| 25.0 * f64::from(r)),
            8
        );
        // A measured stage: a 3 ns negation and 5 ns rows (longer than
        // the 4.3 ns share of a 138 ns combinational divider) fit three
        // rows in 18.8 ns: 11 stages of 32 rows.
        let measured = |rows: u32| 3.0 + 5.0 * f64::from(rows);
        assert_eq!(divider_stages(138.0, 18.8, 32, false, &measured), 11);
        assert_eq!(
            divider_stages(138.0, 18.8, 32, false, &|r| 4.3 * f64::from(r)),
            8
        );
    }
}
