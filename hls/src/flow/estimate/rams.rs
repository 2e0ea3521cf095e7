//! The storage of a design's on-chip memories: the block RAMs, LUT RAM
//! cells and flip-flops they take as synthesis maps them
//! (`crate::model::target::rams`), the RAMs of a built circuit, and the
//! ones LUT RAM relieves where block RAMs run short.

use crate::model::kernel::Memory;
use crate::model::target::device::Device;
use crate::model::target::rams::{Mapped, Ram};
use silica_hw_dialects::seq::memory_ops::{fir_port_operands, ram_style, FirPort};
use silica_hw_dialects::types::{hw_type, HwType};
use silica_ir::{BlockId, Context, Ir};

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
/// [`Ram::of_memory`] with one write port (the fewest); a ROM in block
/// RAMs of the family's size; a one-word bank a register.
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
            .unwrap_or_else(|| Ram::of_memory(m, 1));
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

/// The `seq.firmem`s of `block`, with the read ports whose data is used
/// and the write ports that `never` (a port's enable) does not rule out.
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
                // A port no load reads (one that only writes) is no
                // read port after synthesis.
                "seq.firmem.read_port" => {
                    reads += u32::from(ir.uses(ir.result(port, 0)).next().is_some())
                }
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
    use crate::model::target::device::DEVICES;

    #[test]
    fn lut_ram_relieves_the_block_rams_that_cost_the_fewest_cells() {
        let device = DEVICES.iter().find(|d| d.name == "ecp5-25k").unwrap();
        let named = |name: &str, words: u64| Ram {
            name: name.into(),
            words,
            width: 32,
            reads: 1,
            writes: 1,
            distributed: false,
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
