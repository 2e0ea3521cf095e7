//! The wrapper module `F_axi` as hw/comb/seq IR: its ports
//! (`ports.rs`), the core `F` as an `hw.instance`, one on-chip RAM per
//! memref argument that the core's memory ports address (`engine.rs`
//! fills it from host memory before the core starts and writes it back
//! after), the AXI4-Lite slave with the register map (`lite.rs`) and the
//! copy engine's AXI4 master (`engine.rs`), which the stream server
//! (`streams.rs`) borrows while the core runs to move the tiles of the
//! core's streamed DMA engines.

use super::engine::Engine;
use super::lite::Lite;
use super::ports;
use super::streams;
use crate::flow::construct::hw::{Hw, Reg};
use crate::model::interface::{names, Direction, Interface};
use crate::model::register_map::RegisterMap;
use rustc_hash::FxHashMap;
use silica_hw_dialects::types::{self as hwt, Direction as HwDir, Port};
use silica_ir::{Attr, BlockId, Context, Ir, OpId, ValueId};

/// The wrapper under construction.
pub(super) struct Wrapper<'c, 'i> {
    pub hw: Hw<'c>,
    pub iface: &'i Interface,
    pub map: &'i RegisterMap,
    inputs: FxHashMap<String, ValueId>,
    /// The wrapper's output values, by port name.
    pub outputs: FxHashMap<String, ValueId>,
    /// The core instance's outputs, by port name.
    pub core: FxHashMap<String, ValueId>,
    /// Deferred register writes (the first whose condition holds wins).
    writes: Vec<(Reg, Vec<(ValueId, ValueId)>)>,
    write_index: FxHashMap<OpId, usize>,
    /// The core instance, and the operand of each of its stream inputs
    /// (connected once the stream server is built).
    core_op: Option<OpId>,
    stream_inputs: FxHashMap<String, usize>,
}

impl Wrapper<'_, '_> {
    /// The wrapper's input port `name`.
    pub fn input(&self, name: &str) -> ValueId {
        self.inputs[name]
    }

    /// Adds a write of `value` to `reg` when `cond` holds (earlier
    /// writes win over later ones).
    pub fn write(&mut self, reg: Reg, cond: ValueId, value: ValueId) {
        let i = *self.write_index.entry(reg.op).or_insert_with(|| {
            self.writes.push((reg, Vec::new()));
            self.writes.len() - 1
        });
        self.writes[i].1.push((cond, value));
    }

    /// Drives the core's stream input `name` with `v`.
    pub fn connect_core_input(&mut self, name: &str, v: ValueId) {
        let op = self.core_op.expect("the core is instantiated first");
        self.hw.ir.set_operand(op, self.stream_inputs[name], v);
    }

    /// `a == b` (of one width).
    pub fn eq(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.hw.icmp(0, a, b)
    }

    /// `a == c` for the constant `c`.
    pub fn eq_const(&mut self, a: ValueId, c: u128) -> ValueId {
        let w = self.hw.width(a);
        let c = self.hw.constant(c, w);
        self.eq(a, c)
    }

    /// `a + b` (of one width).
    pub fn add(&mut self, a: ValueId, b: ValueId) -> ValueId {
        self.hw.comb("comb.add", &[a, b])
    }

    /// A 32-bit word made of `(bit, value)` single bits, zero elsewhere.
    pub fn bits_word(&mut self, bits: &[(u32, ValueId)]) -> ValueId {
        let mut word = self.hw.constant(0, 32);
        for &(bit, v) in bits {
            let wide = self.hw.resize(v, 32, false);
            let shift = self.hw.constant(u128::from(bit), 32);
            let placed = self.hw.comb("comb.shl", &[wide, shift]);
            word = self.hw.comb("comb.or", &[word, placed]);
        }
        word
    }
}

/// Appends the wrapper module of `iface` (whose core module is already
/// in `top_block`) to `top_block`; gives the IR back.
pub fn build(
    ctx: &mut Context,
    mut ir: Ir,
    top_block: BlockId,
    iface: &Interface,
    map: &RegisterMap,
    loc: Attr,
) -> Ir {
    let ports: Vec<Port> = ports::ports(map)
        .into_iter()
        .map(|(name, dir, width)| {
            let ty = if name == names::CLOCK {
                hwt::clock(ctx)
            } else {
                ctx.signless(width)
            };
            let dir = match dir {
                Direction::In => HwDir::Input,
                Direction::Out => HwDir::Output,
            };
            Port { dir, name, ty }
        })
        .collect();
    let body_region = ir.create_region();
    let body = ir.create_block();
    ir.append_block(body_region, body);
    let mut inputs = FxHashMap::default();
    for p in &ports {
        if p.dir == HwDir::Input {
            inputs.insert(p.name.clone(), ir.add_block_arg(body, p.ty, Some(loc)));
        }
    }
    let module =
        silica_hw_dialects::hw::create_module(ctx, &mut ir, loc, &map.module, &ports, body_region);
    ir.append_op(top_block, module);
    let mut hw = Hw::new(ctx, ir, body, inputs[names::CLOCK], inputs[names::RESET]);
    hw.loc = loc;
    let mut w = Wrapper {
        hw,
        iface,
        map,
        inputs,
        outputs: FxHashMap::default(),
        core: FxHashMap::default(),
        writes: Vec::new(),
        write_index: FxHashMap::default(),
        core_op: None,
        stream_inputs: FxHashMap::default(),
    };
    let lite = Lite::create(&mut w);
    let mut engine = Engine::create(&mut w);
    w.instantiate_core(&lite, &mut engine);
    let server = streams::build(&mut w, &lite, engine.running, engine.error);
    engine.build(&mut w, &lite, server.as_ref());
    lite.build(&mut w, &engine);
    let outputs: Vec<ValueId> = ports
        .iter()
        .filter(|p| p.dir == HwDir::Output)
        .map(|p| w.outputs[&p.name])
        .collect();
    for (reg, writes) in std::mem::take(&mut w.writes) {
        w.hw.connect(reg, &writes);
    }
    w.hw.op("hw.output", &outputs, &[], vec![], vec![]);
    w.hw.finish();
    w.hw.ir
}

impl Wrapper<'_, '_> {
    /// The core `F` as an instance: started by the engine, its scalars
    /// from the argument registers, its memory ports on the RAMs.
    fn instantiate_core(&mut self, lite: &Lite, engine: &mut Engine) {
        let iface = self.iface;
        let core_ports = iface.ports();
        let start = engine.core_start(self);
        let mut inputs = Vec::new();
        let stream_inputs: Vec<(String, u32)> = iface
            .streams
            .iter()
            .flat_map(|s| s.ports())
            .filter(|p| p.direction == Direction::In)
            .map(|p| (p.name, p.width))
            .collect();
        for p in core_ports.iter().filter(|p| p.direction == Direction::In) {
            let v = match p.name.as_str() {
                names::CLOCK => self.hw.clock,
                names::RESET => self.hw.reset,
                names::START => start,
                name => match stream_inputs.iter().find(|(n, _)| n == name) {
                    Some(&(_, width)) => {
                        self.stream_inputs.insert(name.to_string(), inputs.len());
                        self.hw.constant(0, width)
                    }
                    None => match lite.scalar_value(self, name) {
                        Some(v) => v,
                        None => engine.read_data_of_port(name),
                    },
                },
            };
            inputs.push(v);
        }
        let mut arg_names = Vec::new();
        let mut results = Vec::new();
        for p in &core_ports {
            match p.direction {
                Direction::In => arg_names.push(p.name.as_str()),
                Direction::Out => results.push((p.name.as_str(), self.hw.int(p.width))),
            }
        }
        let inst = self
            .hw
            .instance(&iface.top, "core", &inputs, &arg_names, &results);
        self.core_op = Some(inst);
        let outs: Vec<ValueId> = self.hw.ir.results(inst).collect();
        for (p, v) in core_ports
            .iter()
            .filter(|p| p.direction == Direction::Out)
            .zip(outs)
        {
            self.core.insert(p.name.clone(), v);
        }
    }
}
