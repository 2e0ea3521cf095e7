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
use silica_hw_dialects::seq::memory_ops::{fir_port_operands, ram_style, FirPort};
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
            distributed: false,
        }
    }

    /// The LUT RAM cells it takes in LUT RAM, where the family has them
    /// and it has one write port (a copy a read port).
    fn lut_ram_cells(&self, cells: &RamCells) -> Option<u64> {
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

/// The RAMs of `built` (by name) that LUT RAM relieves where the
/// storage of a design (`used`: its block RAMs and LUT RAM cells, of
/// which `built`'s are part) needs more block RAMs than `device` has:
/// those synthesis would put in blocks, fewest LUT RAM cells a block
/// first, until the blocks fit, within the device's LUT RAM cells. None
/// where the blocks fit already, or where LUT RAM cannot make them fit.
pub fn lut_ram_relief(device: &Device, used: &Storage, built: &[Ram]) -> Vec<String> {
    let cells = device.family.fabric().rams;
    if used.bram <= device.brams {
        return Vec::new();
    }
    let mut candidates: Vec<(&Ram, u64, u64)> = (built.iter())
        .filter_map(|r| match (r.map(cells), r.lut_ram_cells(cells)) {
            (Mapped::Blocks(blocks), Some(lut)) => Some((r, blocks, lut)),
            _ => None,
        })
        .collect();
    // Fewest cells a block saved first (cross-multiplied: exact).
    candidates.sort_by(|a, b| (a.2 * b.1).cmp(&(b.2 * a.1)).then(a.0.name.cmp(&b.0.name)));
    let (mut bram, mut lut_rams) = (used.bram, used.lut_ram);
    let mut relieved = Vec::new();
    for (ram, blocks, lut) in candidates {
        if bram <= device.brams {
            break;
        }
        if lut_rams + lut > device.lut_rams {
            continue;
        }
        bram -= blocks;
        lut_rams += lut;
        relieved.push(ram.name.clone());
    }
    if bram > device.brams {
        return Vec::new();
    }
    relieved
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
            distributed: ram_style(ctx, ir, op).as_deref() == Some("distributed"),
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

    #[test]
    fn lut_ram_relieves_the_block_rams_that_cost_the_fewest_cells() {
        let device = DEVICES.iter().find(|d| d.name == "ecp5-25k").unwrap();
        let named = |name: &str, words: u64| Ram {
            name: name.into(),
            ..ram(words, 32, 1, 1)
        };
        // 60 blocks of 64 words (32 cells each to relieve) and one of
        // 512 (256 cells): five of the small ones make them fit.
        let mut built: Vec<Ram> = (0..60).map(|i| named(&format!("b{i:02}"), 64)).collect();
        built.push(named("big", 512));
        let used = Storage {
            bram: 61,
            ..Storage::default()
        };
        assert_eq!(
            lut_ram_relief(device, &used, &built),
            ["b00", "b01", "b02", "b03", "b04"]
        );
        // Fitting already: none.
        let fits = Storage {
            bram: 56,
            ..Storage::default()
        };
        assert!(lut_ram_relief(device, &fits, &built).is_empty());
        // Without the LUT RAM cells for it: none.
        let full = Storage {
            bram: 61,
            lut_ram: device.lut_rams - 100,
            ..Storage::default()
        };
        assert!(lut_ram_relief(device, &full, &built).is_empty());
    }
}
