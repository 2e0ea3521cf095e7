//! On-chip RAMs as synthesis maps them. yosys's `memory_libmap` takes
//! the cheapest of flip-flops (a cost of one a bit), block RAMs and LUT
//! RAM by the costs of the family's cell library ([`RamCells`]), a tie
//! going to flip-flops, then to block RAM: on ECP5 a 16×32 memory is
//! eight `TRELLIS_DPR16X4` LUT RAM cells (cost 32 against a block's
//! 128) and a 64×32 one a block; on iCE40 a 4×8 memory is flip-flops
//! and a 16×32 one two `SB_RAM40_4K` (16 bits a block). Measured with
//! the flow's yosys on both families, memories of 4 to 256 words of 8
//! and 32 bits, one and two ports: each maps as [`map`] says.
//!
//! A block or LUT RAM cell has a single write port: a memory written
//! through two ports takes a true dual-port block (ECP5) or flip-flops.
//! A LUT RAM cell, and an iCE40 block, has one read port: each further
//! read port takes a copy.

use crate::model::kernel::Memory;
use crate::model::target::device::{Device, RamCells};
use silica_hw_dialects::seq::memory_ops::{fir_port_operands, FirPort};
use silica_hw_dialects::types::{hw_type, HwType};
use silica_ir::{BlockId, Context, Ir};

/// An on-chip RAM and its ports as the circuit uses them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ram {
    pub name: String,
    pub words: u64,
    pub width: u32,
    pub reads: u32,
    /// Write ports whose enable is not constant low (synthesis removes
    /// those).
    pub writes: u32,
}

/// What synthesis makes of a RAM.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mapped {
    /// Flip-flops, a word each, read through multiplexers.
    Flops,
    /// Block RAMs.
    Blocks(u64),
    /// LUT RAM cells.
    LutRam(u64),
}

impl Ram {
    /// An on-chip memory of the kernel before its circuit is built:
    /// its ports each read, and one writes.
    pub fn of_memory(m: &Memory) -> Ram {
        Ram {
            name: m.name.clone(),
            words: m.words(),
            width: m.element_width * m.lanes.max(1),
            reads: m.ports,
            writes: 1,
        }
    }

    /// Flip-flops, block RAMs or LUT RAM, by `cells`' costs.
    pub fn map(&self, cells: &RamCells) -> Mapped {
        let mut best = (self.words * u64::from(self.width), Mapped::Flops);
        if let Some(n) = self.blocks(cells) {
            if n * cells.block_cost < best.0 {
                best = (n * cells.block_cost, Mapped::Blocks(n));
            }
        }
        if let (Some(((words, bits), cost)), 0..=1) = (cells.lut_ram, self.writes) {
            let n = u64::from(self.reads.max(1))
                * self.words.div_ceil(words)
                * u64::from(self.width.div_ceil(bits));
            if n * cost < best.0 {
                best = (n * cost, Mapped::LutRam(n));
            }
        }
        best.1
    }

    /// The block RAMs it takes, where blocks can serve its ports.
    fn blocks(&self, cells: &RamCells) -> Option<u64> {
        let fit = |shapes: &[(u64, u32)]| {
            shapes
                .iter()
                .map(|&(words, bits)| {
                    self.words.div_ceil(words) * u64::from(self.width.div_ceil(bits))
                })
                .min()
        };
        let dual = !cells.dual_shapes.is_empty();
        match (self.writes, self.reads) {
            (0..=1, 0..=1) => fit(cells.block_shapes),
            (_, 0..=2) if dual && self.writes <= 2 => fit(cells.dual_shapes),
            (0..=1, reads) if !dual => fit(cells.block_shapes).map(|n| n * u64::from(reads)),
            _ => None,
        }
    }
}

/// Where a design's on-chip memories go, and the logic they take.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Storage {
    pub bram: u64,
    pub lut_ram: u64,
    /// The LUTs of LUT RAM cells (two each, as nextpnr packs them) and of
    /// the multiplexers that read RAMs of several cells or of flip-flops.
    pub lut: f64,
    /// The flip-flops of memories kept in flip-flops (one-word banks
    /// included).
    pub ff: u64,
}

/// The storage of `memories`' on-chip ones on `device`: each RAM as
/// `built` (the circuit's, by name) has its ports, else as
/// [`Ram::of_memory`]; a ROM in block RAMs of the family's size; a
/// one-word bank a register.
pub fn storage(device: &Device, memories: &[Memory], built: &[Ram]) -> Storage {
    let mut s = Storage::default();
    let cells = device.family.fabric().rams;
    for m in memories.iter().filter(|m| m.arg.is_none()) {
        let bits = m.words() * u64::from(m.element_width);
        if m.words() == 1 {
            s.ff += u64::from(m.element_width);
            continue;
        }
        if m.rom.is_some() {
            s.bram += bits.div_ceil(device.bram_bits);
            continue;
        }
        let ram = built
            .iter()
            .find(|r| r.name == m.name)
            .cloned()
            .unwrap_or_else(|| Ram::of_memory(m));
        let read_bits = f64::from(ram.reads.max(1) * ram.width);
        match ram.map(cells) {
            Mapped::Blocks(n) => s.bram += n,
            Mapped::LutRam(n) => {
                s.lut_ram += n;
                let cell_words = cells.lut_ram.map_or(16, |((w, _), _)| w);
                let groups = ram.words.div_ceil(cell_words);
                s.lut += 2.0 * n as f64;
                if groups > 1 {
                    s.lut += (groups as f64 / 2.0 + 1.0) * read_bits;
                }
            }
            Mapped::Flops => {
                s.ff += bits;
                s.lut += ram.words as f64 * read_bits / 2.0;
            }
        }
    }
    s
}

/// The `seq.firmem`s of `block`, with their read ports and the write
/// ports that `never` (a port's enable) does not rule out.
pub fn rams(
    ctx: &Context,
    ir: &Ir,
    block: BlockId,
    never: &dyn Fn(silica_ir::ValueId) -> bool,
) -> Vec<Ram> {
    let mut rams = Vec::new();
    for op in ir.block_ops(block) {
        if ctx.str(ir.op_name(op)) != "seq.firmem" {
            continue;
        }
        let memory = ir.result(op, 0);
        let Some(HwType::FirMem { depth, width, .. }) = hw_type(ctx, ir.value_type(memory)) else {
            continue;
        };
        let (mut reads, mut writes) = (0, 0);
        for u in ir.uses(memory) {
            let port = ir.use_owner(u);
            match ctx.str(ir.op_name(port)) {
                "seq.firmem.read_port" => reads += 1,
                "seq.firmem.write_port" => {
                    let enable = fir_port_operands(ctx, ir, port, FirPort::Write).enable;
                    writes += u32::from(!enable.is_some_and(never));
                }
                _ => {}
            }
        }
        let name = super::string(ctx, ir, op, "name");
        rams.push(Ram {
            name,
            words: depth,
            width: width as u32,
            reads,
            writes,
        });
    }
    rams
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::target::device::{Family, DEVICES};

    fn ram(words: u64, width: u32, reads: u32, writes: u32) -> Ram {
        Ram {
            name: "t".into(),
            words,
            width,
            reads,
            writes,
        }
    }

    fn cells(family: Family) -> &'static RamCells {
        DEVICES
            .iter()
            .find(|d| d.family == family)
            .unwrap()
            .family
            .fabric()
            .rams
    }

    /// The mappings measured with the flow's yosys (synth_ecp5 of
    /// YoWASP, Debian's synth_ice40).
    #[test]
    fn memories_map_as_yosys_maps_them() {
        let ecp5 = cells(Family::Ecp5);
        assert_eq!(ram(16, 32, 1, 1).map(ecp5), Mapped::LutRam(8));
        assert_eq!(ram(48, 32, 1, 1).map(ecp5), Mapped::LutRam(24));
        assert_eq!(ram(128, 8, 1, 1).map(ecp5), Mapped::LutRam(16));
        // Ties go to the block.
        assert_eq!(ram(64, 32, 1, 1).map(ecp5), Mapped::Blocks(1));
        assert_eq!(ram(256, 8, 1, 1).map(ecp5), Mapped::Blocks(1));
        // Two read ports: a LUT RAM copy each, or a dual-port block of
        // 18 bits a word.
        assert_eq!(ram(32, 32, 2, 1).map(ecp5), Mapped::LutRam(32));
        let ice40 = cells(Family::Ice40);
        assert_eq!(ram(4, 8, 1, 1).map(ice40), Mapped::Flops);
        assert_eq!(ram(4, 32, 1, 1).map(ice40), Mapped::Flops);
        assert_eq!(ram(16, 8, 1, 1).map(ice40), Mapped::Blocks(1));
        assert_eq!(ram(16, 32, 1, 1).map(ice40), Mapped::Blocks(2));
        assert_eq!(ram(256, 32, 1, 1).map(ice40), Mapped::Blocks(2));
        // Each further read port of an iCE40 block is a copy; two
        // writers leave only flip-flops.
        assert_eq!(ram(256, 16, 2, 1).map(ice40), Mapped::Blocks(2));
        assert_eq!(ram(256, 16, 2, 2).map(ice40), Mapped::Flops);
    }
}
