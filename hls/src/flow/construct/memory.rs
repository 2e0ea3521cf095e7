//! Memories: each port (one, or two by the `ports` directive) shared by
//! the accesses bound to it (the schedule never puts more accesses into
//! one cycle than there are ports): the address and write data of the
//! active access, enable the or of the accesses' enables, write enable
//! the or of the stores'. External memories drive the top module's ports;
//! on-chip ones are `seq.firmem`s with a synchronous read (read latency
//! 1, what yosys maps to block RAM), a read and a write port per port
//! sharing that port's address (two: a true dual-port RAM).
//! ROMs (constant globals) are a constant `hw.array` read through
//! `hw.array_get` into a register per port (read latency 1 like the
//! RAMs; yosys maps it to block RAM or LUTs).

use super::Builder;
use silica_hw_dialects::types as hwt;
use silica_ir::{OpId, ValueId};

impl Builder<'_, '_> {
    /// Creates the on-chip RAMs and their read ports (connected later).
    pub(super) fn create_rams(&mut self) {
        for m in 0..self.k.memories.len() {
            if self.k.memories[m].arg.is_some() {
                continue;
            }
            if let Some(words) = self.k.memories[m].rom.clone() {
                self.create_rom(m, &words);
                continue;
            }
            let (words, width) = (self.k.memories[m].words(), self.k.memories[m].element_width);
            let name = self.k.memories[m].name.clone();
            let handle = self.hw.firmem(&name, words, width);
            let aw = self.address_width(m);
            let address = self.hw.constant(0, aw);
            let enable = self.hw.constant(0, 1);
            let dt = self.hw.int(width);
            let clock = self.hw.clock;
            let mut read_ports = Vec::new();
            for _ in 0..self.k.memories[m].ports {
                let port = self.hw.op(
                    "seq.firmem.read_port",
                    &[handle, address, clock, enable],
                    &[dt],
                    vec![],
                    vec![],
                );
                self.read_data[m].push(self.hw.ir.result(port, 0));
                read_ports.push(port);
            }
            self.rams.insert(m, (handle, read_ports));
        }
    }

    /// ROM `m` holding `words`: its table and the register its reads
    /// land in.
    fn create_rom(&mut self, m: usize, words: &[u128]) {
        let width = self.k.memories[m].element_width;
        let entries = 1u64 << self.address_width(m);
        let mut elements: Vec<ValueId> = (0..entries)
            .map(|i| {
                let w = words.get(i as usize).copied().unwrap_or(0);
                self.hw.constant(w, width)
            })
            .collect();
        // The first operand of `hw.array_create` is the highest element.
        elements.reverse();
        let et = self.hw.int(width);
        let ty = hwt::array(self.hw.ctx, entries, et);
        let table = self
            .hw
            .op("hw.array_create", &elements, &[ty], vec![], vec![]);
        let table = self.hw.ir.result(table, 0);
        let mut regs = Vec::new();
        for p in 0..self.k.memories[m].ports {
            let name = format!("{}_q{p}", self.k.memories[m].name);
            let reg = self.hw.reg(&name, width, None);
            self.read_data[m].push(reg.q);
            regs.push(reg);
        }
        self.roms.insert(m, (regs, table));
    }

    /// Connects memory `m`'s accesses; gives the output port values
    /// (address, ce, we, d per port) of an external memory.
    pub(super) fn connect_memory(&mut self, m: usize) -> Vec<ValueId> {
        let aw = self.address_width(m);
        let dw = self.k.memories[m].word_width();
        let lanes = self.k.memories[m].lanes;
        let accesses = std::mem::take(&mut self.accesses[m]);
        let mut outs = Vec::new();
        let rams = self.rams.get(&m).cloned();
        for p in 0..self.k.memories[m].ports {
            // Without an access the address and data are unread (`ce` and
            // `we` are low): the last access's need no multiplexer.
            let mut address = None;
            let mut data = None;
            let mut enables = Vec::new();
            let mut write_enables = Vec::new();
            for a in accesses.iter().rev().filter(|a| a.port == p) {
                address = Some(match address {
                    None => a.address,
                    Some(other) => self.hw.mux(a.enable, a.address, other),
                });
                if let Some(d) = a.data {
                    data = Some(match data {
                        None => d,
                        Some(other) => self.hw.mux(a.enable, d, other),
                    });
                    write_enables.push(a.lanes.unwrap_or(a.enable));
                }
                enables.push(a.enable);
            }
            let address = address.unwrap_or_else(|| self.hw.constant(0, aw));
            let data = data.unwrap_or_else(|| self.hw.constant(0, dw));
            let ce = self.hw.any(&enables);
            let we = if lanes > 1 {
                // Each store's lanes, low while it is not made.
                let none = self.hw.constant(0, lanes);
                write_enables
                    .iter()
                    .fold(none, |acc, &l| self.hw.comb("comb.or", &[acc, l]))
            } else {
                self.hw.any(&write_enables)
            };
            if let Some((regs, table)) = self.roms.get(&m).cloned() {
                let et = self.hw.int(dw);
                // A named wire, so the emitted index is a plain signal.
                let name = format!("{}_address{p}", self.k.memories[m].name);
                let name = self.hw.ctx.string_attr(name.as_bytes());
                let at = self.hw.ir.value_type(address);
                let wire = self
                    .hw
                    .op("hw.wire", &[address], &[at], vec![], vec![("name", name)]);
                let address = self.hw.ir.result(wire, 0);
                let word = self
                    .hw
                    .op("hw.array_get", &[table, address], &[et], vec![], vec![]);
                let word = self.hw.ir.result(word, 0);
                self.write(regs[p as usize], ce, word);
                continue;
            }
            match &rams {
                None => outs.extend([address, ce, we, data]),
                Some((handle, read_ports)) => {
                    self.connect_ram(*handle, read_ports[p as usize], address, ce, we, data);
                }
            }
        }
        outs
    }

    fn connect_ram(
        &mut self,
        handle: ValueId,
        read_port: OpId,
        address: ValueId,
        ce: ValueId,
        we: ValueId,
        data: ValueId,
    ) {
        let not_we = self.hw.not(we);
        let read_enable = self.hw.and(ce, not_we);
        self.hw.ir.set_operand(read_port, 1, address);
        self.hw.ir.set_operand(read_port, 3, read_enable);
        let write_enable = self.hw.and(ce, we);
        let seg = self.hw.ctx.int_array_attr(32, &[1, 1, 1, 1, 1, 0]);
        let clock = self.hw.clock;
        self.hw.op(
            "seq.firmem.write_port",
            &[handle, address, clock, write_enable, data],
            &[],
            vec![("operandSegmentSizes", seg)],
            vec![],
        );
    }
}
