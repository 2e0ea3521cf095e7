//! On-chip RAMs as synthesis maps them. yosys's `memory_libmap` takes
//! the cheapest of flip-flops (a cost of one a bit), block RAMs and LUT
//! RAM by the costs of the family's cell library ([`RamCells`]), a tie
//! going to flip-flops, then to block RAM: on ECP5 a 16×32 memory is
//! eight `TRELLIS_DPR16X4` LUT RAM cells (cost 32 against a block's
//! 128) and a 64×32 one a block; on iCE40 a 4×8 memory is flip-flops
//! and a 16×32 one two `SB_RAM40_4K` (16 bits a block). Measured with
//! the flow's yosys on both families, memories of 4 to 256 words of 8
//! and 32 bits, one and two ports: each maps as [`Ram::map`] says.
//!
//! A block or LUT RAM cell has a single write port: a memory written
//! through two ports takes a true dual-port block (ECP5) or flip-flops.
//! A LUT RAM cell, and an iCE40 block, has one read port: each further
//! read port takes a copy.

use super::device::RamCells;
use crate::model::kernel::Memory;

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
    /// Whether it asks for LUT RAM (`sv.ram_style = "distributed"`,
    /// [`lut_ram_relief`]).
    pub distributed: bool,
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

/// Whether on-chip memory `m`, written through `writes` of its ports
/// (its stores, at most all its ports), is in block RAMs before its
/// circuit is built: a ROM (of more than one word), or a RAM
/// [`Ram::map`] maps to blocks; not an external memory or a one-word
/// register.
pub fn in_block_rams(m: &Memory, writes: u32, cells: &RamCells) -> bool {
    m.arg.is_none()
        && m.words() > 1
        && (m.rom.is_some() || matches!(Ram::of_memory(m, writes).map(cells), Mapped::Blocks(_)))
}

impl Ram {
    /// An on-chip memory of the kernel before its circuit is built:
    /// its ports each read, and `writes` of them write (at least one, at
    /// most its ports).
    pub fn of_memory(m: &Memory, writes: u32) -> Ram {
        Ram {
            name: m.name.clone(),
            words: m.words(),
            width: m.element_width * m.lanes.max(1),
            reads: m.ports,
            writes: writes.clamp(1, m.ports.max(1)),
            distributed: false,
        }
    }

    /// The LUT RAM cells it takes in LUT RAM, where the family has them
    /// and it has one write port (a copy a read port).
    pub fn lut_ram_cells(&self, cells: &RamCells) -> Option<u64> {
        let ((words, bits), _) = cells.lut_ram.filter(|_| self.writes <= 1)?;
        Some(
            u64::from(self.reads.max(1))
                * self.words.div_ceil(words)
                * u64::from(self.width.div_ceil(bits)),
        )
    }

    /// Flip-flops, block RAMs or LUT RAM, by `cells`' costs (LUT RAM
    /// where it asks for it and can be).
    pub fn map(&self, cells: &RamCells) -> Mapped {
        let lut_ram = self.lut_ram_cells(cells);
        if let (true, Some(n)) = (self.distributed, lut_ram) {
            return Mapped::LutRam(n);
        }
        let mut best = (self.words * u64::from(self.width), Mapped::Flops);
        if let Some(n) = self.blocks(cells) {
            if n * cells.block_cost < best.0 {
                best = (n * cells.block_cost, Mapped::Blocks(n));
            }
        }
        if let (Some(((_, _), cost)), Some(n)) = (cells.lut_ram, lut_ram) {
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
            distributed: false,
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
        // Written through both ports: no LUT RAM cell has two write
        // ports (2mm's buffered `tmp`, banks of 48 words in DP16KD).
        assert_eq!(ram(48, 32, 2, 2).map(ecp5), Mapped::Blocks(2));
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
        // LUT RAM where asked, if one port writes.
        let asked = |r: Ram| Ram {
            distributed: true,
            ..r
        };
        assert_eq!(asked(ram(64, 32, 1, 1)).map(ecp5), Mapped::LutRam(32));
        assert_eq!(
            asked(ram(64, 32, 2, 2)).map(ecp5),
            ram(64, 32, 2, 2).map(ecp5)
        );
    }
}
