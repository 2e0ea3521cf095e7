//! Memories: each one port shared by its accesses (the schedule never
//! puts two in one cycle): the address and write data of the active
//! access, enable the or of the accesses' enables, write enable the or of
//! the stores'. External memories drive the top module's ports; on-chip
//! ones are `seq.firmem`s with a synchronous read (read latency 1, what
//! yosys maps to block RAM) whose read and write ports share that one
//! address.

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
            let (words, width) = (self.k.memories[m].words(), self.k.memories[m].element_width);
            let name = self.k.memories[m].name.clone();
            let ty = hwt::firmem(self.hw.ctx, words, u64::from(width), None);
            let name_attr = self.hw.ctx.string_attr(name.as_bytes());
            let props = vec![
                ("name", name_attr),
                ("readLatency", self.hw.int_attr(32, 1)),
                ("writeLatency", self.hw.int_attr(32, 1)),
                ("ruw", self.hw.int_attr(32, 0)),
                ("wuw", self.hw.int_attr(32, 0)),
            ];
            let mem = self.hw.op("seq.firmem", &[], &[ty], props, vec![]);
            let handle = self.hw.ir.result(mem, 0);
            let aw = self.address_width(m);
            let address = self.hw.constant(0, aw);
            let enable = self.hw.constant(0, 1);
            let dt = self.hw.int(width);
            let clock = self.hw.clock;
            let port = self.hw.op(
                "seq.firmem.read_port",
                &[handle, address, clock, enable],
                &[dt],
                vec![],
                vec![],
            );
            self.read_data[m] = self.hw.ir.result(port, 0);
            self.rams.insert(m, (handle, port));
        }
    }

    /// Connects memory `m`'s accesses; gives the output port values
    /// (address, ce, we, d) of an external memory.
    pub(super) fn connect_memory(&mut self, m: usize) -> Vec<ValueId> {
        let aw = self.address_width(m);
        let dw = self.k.memories[m].element_width;
        let accesses = std::mem::take(&mut self.accesses[m]);
        let mut address = self.hw.constant(0, aw);
        let mut data = self.hw.constant(0, dw);
        let mut enables = Vec::new();
        let mut write_enables = Vec::new();
        for a in accesses.iter().rev() {
            address = self.hw.mux(a.enable, a.address, address);
            if let Some(d) = a.data {
                data = self.hw.mux(a.enable, d, data);
                write_enables.push(a.enable);
            }
            enables.push(a.enable);
        }
        let ce = self.hw.any(&enables);
        let we = self.hw.any(&write_enables);
        match self.rams.get(&m).copied() {
            None => vec![address, ce, we, data],
            Some((handle, read_port)) => {
                self.connect_ram(handle, read_port, address, ce, we, data);
                Vec::new()
            }
        }
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
