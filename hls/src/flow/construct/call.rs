//! Calls as instances of the callees' modules (`hw.instance`), one per
//! call site. The callee starts in the first cycle of the call's state
//! (a register set by every transition into it; the callee is idle
//! then, having finished any earlier call); its scalar inputs are the
//! operands as seen in that state, its results are read from its output
//! ports (held from `done` until it starts again). The memories the
//! caller passes are shared with the callee through the caller's port
//! multiplexer: the callee's reads and writes are accesses of the caller
//! enabled in the call's state, where nothing else of the caller runs.
//! A callee whose DMA engines stream (`stream::plan_all`; only the top
//! calls it) has no memory ports for those memories: its instance's
//! stream ports are the top's ports of the call's streams
//! (`call<c>_dma<n>_*`), which the environment serves.

use super::{Access, At, Builder};
use crate::model::interface::Direction::{In, Out};
use crate::model::interface::Stream;
use silica_hw_dialects::types::{Direction, Port};
use silica_ir::{Type, ValueId};

impl Builder<'_, '_> {
    /// Builds an instance for every call of the kernel.
    pub(super) fn build_calls(&mut self) {
        for c in 0..self.k.calls.len() {
            self.build_call(c);
        }
    }

    fn build_call(&mut self, c: usize) {
        let k = self.k;
        let call = &k.calls[c];
        let ports: Vec<Port> = self.modules[&call.callee].clone();
        let st = self.control.call_state[c];
        let here = self.in_state(st);
        let start = self.hw.reg(&format!("call{c}_start"), 1, Some(0));
        self.call_start.push(start);
        let mut inputs = vec![self.hw.clock, self.hw.reset, start.q];
        let scalars: Vec<ValueId> = call
            .scalars
            .iter()
            .map(|&v| self.seen(v, At::State(st)))
            .collect();
        let first_scalar = 3;
        let inputs_ports: Vec<&Port> = ports.iter().filter(|p| p.dir == Direction::Input).collect();
        for (i, &v) in scalars.iter().enumerate() {
            let w = self.port_width(inputs_ports[first_scalar + i]);
            inputs.push(self.hw.resize(v, w, true));
        }
        let streamed = |b: &Self, m: usize| super::stream::streamed(b.k, b.streams, m);
        for &m in &call.memories {
            if !streamed(self, m) {
                inputs.push(self.read_data[m][0]);
            }
        }
        let streams = self
            .callee_streams
            .get(&call.callee)
            .cloned()
            .unwrap_or_default();
        // Each callee stream's ports and the top's ports of its instance.
        let mut stream_ports = Vec::new();
        for s in &streams {
            let name = format!("call{c}_{}", s.name);
            let mine = Stream { name, ..s.clone() };
            stream_ports.extend(s.ports().into_iter().zip(mine.ports()));
        }
        for (_, top) in stream_ports.iter().filter(|(p, _)| p.direction == In) {
            inputs.push(self.stream_ports[&top.name]);
        }
        let (in_ports, out_ports): (Vec<&Port>, Vec<&Port>) =
            ports.iter().partition(|p| p.dir == Direction::Input);
        let arg_names: Vec<&str> = in_ports.iter().map(|p| p.name.as_str()).collect();
        let results: Vec<(&str, Type)> =
            out_ports.iter().map(|p| (p.name.as_str(), p.ty)).collect();
        let name = format!("call{c}_{}", call.callee);
        let inst = self
            .hw
            .instance(&call.callee, &name, &inputs, &arg_names, &results);
        let outs: Vec<ValueId> = self.hw.ir.results(inst).collect();
        self.call_done[c] = outs[0];
        let mut next = 2;
        let mut results = Vec::new();
        for &w in &call.results {
            results.push(self.hw.resize(outs[next], w, true));
            next += 1;
        }
        self.call_results[c] = results;
        for &m in &call.memories {
            if streamed(self, m) {
                continue;
            }
            let (address, ce, we, data) =
                (outs[next], outs[next + 1], outs[next + 2], outs[next + 3]);
            next += 4;
            let aw = self.address_width(m);
            let address = self.hw.resize(address, aw, false);
            let active = self.hw.and(here, ce);
            let not_we = self.hw.not(we);
            let read = self.hw.and(active, not_we);
            let write = self.hw.and(active, we);
            self.accesses[m].push(Access {
                port: 0,
                enable: read,
                address,
                data: None,
                lanes: None,
            });
            self.accesses[m].push(Access {
                port: 0,
                enable: write,
                address,
                data: Some(data),
                lanes: None,
            });
        }
        for (_, top) in stream_ports.iter().filter(|(p, _)| p.direction == Out) {
            self.stream_ports.insert(top.name.clone(), outs[next]);
            next += 1;
        }
    }

    fn port_width(&self, p: &Port) -> u32 {
        match self.hw.ctx.type_kind(p.ty) {
            silica_ir::TypeKind::Integer { width, .. } => *width,
            _ => 0,
        }
    }
}
