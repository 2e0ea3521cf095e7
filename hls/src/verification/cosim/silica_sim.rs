//! The hardware side again, in silica's own cycle simulator (a second
//! opinion on the RTL for small designs, with no Verilog in between):
//! the `hw.module` is driven exactly as the Verilator testbench drives
//! the Verilog (see `verilator`), except that registers power up at zero
//! or their preset, as `silica sim` defines. The module must have
//! exactly the interface's ports in the contract's order
//! ([`check_ports`], which the RTL builder's tests can use too).

use super::outputs::Outputs;
use super::stimuli::Stimuli;
use super::verilator::{AFTER_DONE, IDLE_WAIT};
use super::CosimError;
use crate::model::interface::{names, Direction, Interface, Memory};
use num_bigint::BigUint;
use silica_hw_dialects::eval::Bits;
use silica_hw_dialects::hw::module_ports;
use silica_hw_dialects::sim::ModuleSim;
use silica_hw_dialects::types::{self, bit_width};
use silica_ir::{Context, Ir, OpId};
use std::collections::HashMap;

/// The simulated core and the models around it.
struct Bench<'a> {
    ctx: &'a Context,
    ir: &'a Ir,
    iface: &'a Interface,
    sim: ModuleSim,
    /// Input port values, in the module's input order.
    inputs: Vec<Bits>,
    input_slot: HashMap<String, usize>,
    output_slot: HashMap<String, usize>,
    /// The outputs of the last settle.
    outputs: Vec<Bits>,
    /// Per memory argument (in order), its words.
    memories: Vec<Vec<BigUint>>,
    /// Per memory and port, the word on `q`.
    q: Vec<Vec<BigUint>>,
    scalars: Vec<BigUint>,
    cycle: u64,
}

fn hardware(message: String) -> CosimError {
    CosimError::Hardware(message)
}

impl Bench<'_> {
    fn out(&self, name: &str) -> &Bits {
        &self.outputs[self.output_slot[name]]
    }

    fn high(&self, name: &str) -> bool {
        !self.out(name).is_zero()
    }

    fn set(&mut self, name: &str, value: &BigUint) {
        let slot = self.input_slot[name];
        let width = self.inputs[slot].width();
        self.inputs[slot] = Bits::new(width, value.clone());
    }

    /// Drives the inputs of a cycle and evaluates the logic.
    fn settle(&mut self, reset: bool, start: bool, latched: bool) -> Result<(), CosimError> {
        let (zero, one) = (BigUint::ZERO, BigUint::from(1u8));
        let bit = |b: bool| if b { one.clone() } else { zero.clone() };
        self.set(names::RESET, &bit(reset));
        self.set(names::START, &bit(start));
        let scalars: Vec<(String, u32)> = self
            .iface
            .scalars()
            .map(|(a, s)| (a.name.clone(), s.width))
            .collect();
        for (i, (name, width)) in scalars.iter().enumerate() {
            let value = if latched {
                let mask = (BigUint::from(1u8) << *width) - 1u8;
                &self.scalars[i] ^ mask
            } else {
                self.scalars[i].clone()
            };
            self.set(name, &value);
        }
        let qs: Vec<(String, BigUint)> = self
            .iface
            .memories()
            .enumerate()
            .flat_map(|(m, (arg, mem))| {
                (0..mem.ports).map(move |p| (names::q(&arg.name, p), m, p as usize))
            })
            .map(|(name, m, p)| (name, self.q[m][p].clone()))
            .collect();
        for (name, value) in qs {
            self.set(&name, &value);
        }
        self.outputs = self
            .sim
            .eval(self.ctx, self.ir, &self.inputs)
            .map_err(|d| hardware(format!("silica's simulator: {}", d.message)))?;
        Ok(())
    }

    /// The address on `port`, checked against the memory's size.
    fn address(&self, port: &str, words: u64) -> Result<usize, CosimError> {
        let a = self.out(port).value();
        match u64::try_from(a) {
            Ok(a) if a < words => Ok(a as usize),
            _ => Err(hardware(format!(
                "cycle {}: {port} = {a} is past the last word ({words} words)",
                self.cycle
            ))),
        }
    }

    /// Serves the memory ports at the coming edge (reads first), then
    /// steps the core; the name of a port that wrote, if any.
    fn edge(&mut self, serve: bool) -> Result<Option<String>, CosimError> {
        let mut writer = None;
        if serve {
            let memories: Vec<(String, Memory)> = self
                .iface
                .memories()
                .map(|(a, m)| (a.name.clone(), m.clone()))
                .collect();
            let mut writes = Vec::new();
            for (m, (name, memory)) in memories.iter().enumerate() {
                let (lanes, bits) = (memory.lanes.max(1) as usize, memory.element_width as usize);
                for p in 0..memory.ports {
                    if !self.high(&names::ce(name, p)) {
                        continue;
                    }
                    let address = names::address(name, p);
                    let first = self.address(&address, memory.words)? * lanes;
                    let we = self.out(&names::we(name, p)).value().clone();
                    if we.bits() > 0 {
                        let data = self.out(&names::d(name, p)).value().clone();
                        let mask = (BigUint::from(1u8) << bits) - 1u8;
                        for j in (0..lanes).filter(|&j| we.bit(j as u64)) {
                            let v = (&data >> (j * bits)) & &mask;
                            writes.push((m, first + j, v, names::we(name, p)));
                        }
                        writer = Some(names::we(name, p));
                    } else {
                        let elements = &self.memories[m];
                        self.q[m][p as usize] = (0..lanes)
                            .filter_map(|j| Some(elements.get(first + j)? << (j * bits)))
                            .fold(BigUint::default(), |w, e| w | e);
                    }
                }
            }
            for (m, e, v, port) in writes {
                let elements = self.memories[m].len();
                let slot = self.memories[m].get_mut(e).ok_or_else(|| {
                    hardware(format!(
                        "cycle {}: {port} writes element {e}, past the last ({elements} elements)",
                        self.cycle
                    ))
                })?;
                *slot = v;
            }
        }
        self.sim.step(self.ctx, self.ir);
        self.cycle += 1;
        Ok(writer)
    }
}

/// Checks that the `hw.module` `module` has exactly the ports of
/// `iface`, in the contract's order, with their directions and widths
/// (what the RTL builder must produce; the clock may be `!seq.clock`).
pub fn check_ports(ctx: &Context, ir: &Ir, module: OpId, iface: &Interface) -> Result<(), String> {
    let have: Vec<(String, Option<Direction>, u32)> = module_ports(ctx, ir, module)
        .into_iter()
        .map(|p| {
            let dir = match p.dir {
                types::Direction::Input => Some(Direction::In),
                types::Direction::Output => Some(Direction::Out),
                types::Direction::InOut => None,
            };
            (p.name, dir, bit_width(ctx, p.ty).unwrap_or(0) as u32)
        })
        .collect();
    let want = iface.ports();
    for w in &want {
        match have.iter().find(|h| h.0 == w.name) {
            None => return Err(format!("the module has no port '{}'", w.name)),
            Some((_, dir, width)) if *dir != Some(w.direction) || *width != w.width => {
                return Err(format!(
                    "port '{}' is an {} of {width} bits; the interface wants an {} of {}",
                    w.name,
                    direction_word(*dir),
                    direction_word(Some(w.direction)),
                    w.width
                ))
            }
            Some(_) => {}
        }
    }
    if let Some(extra) = have.iter().find(|h| !want.iter().any(|w| w.name == h.0)) {
        return Err(format!(
            "the module has a port '{}' that the interface does not describe",
            extra.0
        ));
    }
    for (i, (h, w)) in have.iter().zip(&want).enumerate() {
        if h.0 != w.name {
            return Err(format!(
                "port {i} of the module is '{}'; the contract puts '{}' there",
                h.0, w.name
            ));
        }
    }
    Ok(())
}

/// The module's input values (zero) and its input and output slots by name.
#[allow(clippy::type_complexity)]
fn port_slots(
    ctx: &Context,
    ir: &Ir,
    module: OpId,
) -> (Vec<Bits>, HashMap<String, usize>, HashMap<String, usize>) {
    let mut inputs = Vec::new();
    let mut input_slot = HashMap::new();
    let mut output_slot = HashMap::new();
    for port in module_ports(ctx, ir, module) {
        let width = bit_width(ctx, port.ty).unwrap_or(0) as u32;
        match port.dir {
            types::Direction::Input => {
                input_slot.insert(port.name, inputs.len());
                inputs.push(Bits::zero(width));
            }
            types::Direction::Output => {
                output_slot.insert(port.name, output_slot.len());
            }
            types::Direction::InOut => inputs.push(Bits::zero(0)),
        }
    }
    (inputs, input_slot, output_slot)
}

fn direction_word(d: Option<Direction>) -> &'static str {
    match d {
        Some(Direction::In) => "input",
        Some(Direction::Out) => "output",
        None => "inout",
    }
}

/// Runs the `hw.module` `module` on `stimuli`: its latency and outputs.
pub fn run(
    ctx: &Context,
    ir: &Ir,
    module: OpId,
    iface: &Interface,
    stimuli: &Stimuli,
    max_cycles: u64,
) -> Result<(u64, Outputs), CosimError> {
    run_observed(ctx, ir, module, iface, stimuli, max_cycles, None)
}

/// [`run`], showing `observer` every cycle from the one after `start`
/// to `done`.
pub fn run_observed(
    ctx: &Context,
    ir: &Ir,
    module: OpId,
    iface: &Interface,
    stimuli: &Stimuli,
    max_cycles: u64,
    mut observer: Option<&mut super::overlap::Observer>,
) -> Result<(u64, Outputs), CosimError> {
    check_ports(ctx, ir, module, iface).map_err(hardware)?;
    let (inputs, input_slot, output_slot) = port_slots(ctx, ir, module);
    let sim = ModuleSim::new(ctx, ir, module)
        .map_err(|d| hardware(format!("silica's simulator: {}", d.message)))?;
    let memories: Vec<Vec<BigUint>> = iface
        .memories()
        .map(|(a, _)| stimuli.values[a.index].clone())
        .collect();
    let q = iface
        .memories()
        .map(|(_, m)| vec![BigUint::ZERO; m.ports as usize])
        .collect();
    let scalars = iface
        .scalars()
        .map(|(a, _)| stimuli.values[a.index][0].clone())
        .collect();
    let mut b = Bench {
        ctx,
        ir,
        iface,
        sim,
        inputs,
        input_slot,
        output_slot,
        outputs: Vec::new(),
        memories,
        q,
        scalars,
        cycle: 0,
    };
    for _ in 0..2 {
        b.settle(true, false, false)?;
        b.edge(false)?;
    }
    let mut waited = 0;
    loop {
        b.settle(false, false, false)?;
        if b.high(names::IDLE) {
            break;
        }
        if waited == IDLE_WAIT {
            return Err(hardware(format!(
                "idle is not high within {IDLE_WAIT} cycles after reset"
            )));
        }
        waited += 1;
        b.edge(true)?;
    }
    b.settle(false, true, false)?;
    b.edge(true)?;
    let mut latency = 0;
    loop {
        latency += 1;
        b.settle(false, false, true)?;
        if let Some(o) = observer.as_deref_mut() {
            o.observe(&b.sim);
        }
        if b.high(names::DONE) {
            break;
        }
        if latency >= max_cycles {
            return Err(hardware(format!(
                "timeout: done is not high within {max_cycles} cycles after start"
            )));
        }
        b.edge(true)?;
    }
    let results = iface
        .results
        .iter()
        .map(|r| b.out(&r.name).value().clone())
        .collect();
    if let Some(w) = b.edge(true)? {
        return Err(hardware(format!(
            "{w} is high in the done cycle ({latency}): every memory write must be performed when done rises"
        )));
    }
    for i in 0..AFTER_DONE {
        b.settle(false, false, true)?;
        for (r, value) in iface.results.iter().zip(&results) {
            if b.out(&r.name).value() != value {
                return Err(hardware(format!(
                    "{} changes after done (it must hold until the next start)",
                    r.name
                )));
            }
        }
        for (r, value) in iface.results.iter().zip(&results) {
            if b.out(&r.name).value() != value {
                return Err(hardware(format!(
                    "{} changes after done (it must hold until the next start)",
                    r.name
                )));
            }
        }
        if b.high(names::DONE) {
            return Err(hardware(
                if i == 0 {
                    "done is high for more than one cycle"
                } else {
                    "done rises again without a start"
                }
                .into(),
            ));
        }
        if let Some(w) = b.edge(true)? {
            return Err(hardware(format!("{w} is high after done")));
        }
    }
    Ok((
        latency,
        Outputs {
            memories: b.memories,
            results,
        },
    ))
}
