//! The FPGA devices `silica hls --target` names: each part's family,
//! operator library, package, capacity (LUTs, flip-flops, block RAMs,
//! LUT RAM cells, DSPs, user IO pins of the package) and the options
//! that select it in nextpnr. Figures are the vendors' data sheets' (IO
//! and LUT RAM sites as nextpnr counts them), and the RAM cells yosys
//! maps memories to ([`RamCells`]).

/// A device family: its fabric's behaviour as data ([`Fabric`]); the
/// tools that build its bitstreams are `fpga::toolchain`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Lattice iCE40: yosys `synth_ice40`, `nextpnr-ice40`, `icepack`.
    Ice40,
    /// Lattice ECP5: yosys `synth_ecp5`, `nextpnr-ecp5`, `ecppack`.
    Ecp5,
    /// No device: estimates only, no bitstream.
    Generic,
}

/// How a family's fabric, as its synthesis and placement build it,
/// differs where the estimate prices it: measured on the placed designs
/// (`docs/QOR.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fabric {
    /// The operand bits of one hard multiplier (`MULT18X18D`,
    /// `SB_MAC16`); none without a device.
    pub multiplier_bits: Option<u32>,
    /// Flip-flops take a synchronous reset only when enabled (iCE40's
    /// `SB_DFFESR`; ECP5's reset overrides the enable): yosys then
    /// enables a register that is both reset and enabled by its reset
    /// too, a LUT (the enable's) reading the resets' own.
    pub gated_reset: bool,
    /// Synthesis maps a sign test (`x < 0`, `x >= 0`, `x > -1`,
    /// `x <= -1`) to its operand's top bit: the ECP5 flow's Yosys
    /// (YoWASP's) does; the Yosys that Debian ships for the iCE40 flow
    /// builds it as a compare's carry chain.
    pub folds_sign_tests: bool,
    /// A logic cell pairs one LUT with one flip-flop (iCE40's
    /// `ICESTORM_LC`): a flip-flop loaded from no LUT takes a cell of its
    /// own, and the LUTs reported are logic cells.
    pub lone_flops_take_cells: bool,
    /// An adder's LUTs have an input to spare: one more input after an
    /// adder packs into them (iCE40's `SB_LUT4` beside `SB_CARRY`), and
    /// an output computed by LUTs takes the scan chain's xor into them.
    pub adders_pack_an_input: bool,
    /// Carry chains take feed cells of their own when placed (ECP5's
    /// `CCU2C`: `estimate::price::ECP5_CHAIN_CELLS` a chain), and have no
    /// input to spare: the scan chain's xor is a LUT level of its own.
    pub carry_chains_take_feed_cells: bool,
    /// ABC takes a min's or max's compare into each bit, a six-input
    /// function of four LUT4s (ECP5's `L6MUX21`).
    pub wide_min_max: bool,
    /// The RAM cells synthesis maps on-chip memories to.
    pub rams: &'static RamCells,
}

/// The RAM cells of a family as yosys's `memory_libmap` sees them (its
/// `brams.txt` and `lutrams.txt` for the family): the shapes of a block
/// RAM, the LUT RAM cell where the family has one, and the costs by
/// which it chooses between them and flip-flops (one a bit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RamCells {
    /// The (words, bits) one block RAM holds with one write port and
    /// one read port.
    pub block_shapes: &'static [(u64, u32)],
    /// The shapes with two read/write ports (a true dual-port block);
    /// empty where a block has a single read port, so that each further
    /// read port takes a copy.
    pub dual_shapes: &'static [(u64, u32)],
    pub block_cost: u64,
    /// The LUT RAM cell, (words, bits) with one write port and one
    /// asynchronous read port (a copy per read port), and its cost.
    pub lut_ram: Option<((u64, u32), u64)>,
}

/// ECP5: `DP16KD` (true dual port up to 18 bits, `PDPW16KD` 36 bits
/// with one write and one read port), `TRELLIS_DPR16X4` LUT RAM.
const ECP5_RAMS: RamCells = RamCells {
    block_shapes: &[
        (16_384, 1),
        (8192, 2),
        (4096, 4),
        (2048, 9),
        (1024, 18),
        (512, 36),
    ],
    dual_shapes: &[(16_384, 1), (8192, 2), (4096, 4), (2048, 9), (1024, 18)],
    block_cost: 128,
    lut_ram: Some(((16, 4), 4)),
};

/// iCE40: `SB_RAM40_4K`, one write and one read port; no LUT RAM.
const ICE40_RAMS: RamCells = RamCells {
    block_shapes: &[(2048, 2), (1024, 4), (512, 8), (256, 16)],
    dual_shapes: &[],
    block_cost: 64,
    lut_ram: None,
};

const ICE40_FABRIC: Fabric = Fabric {
    multiplier_bits: Some(16),
    gated_reset: true,
    folds_sign_tests: false,
    lone_flops_take_cells: true,
    adders_pack_an_input: true,
    carry_chains_take_feed_cells: false,
    wide_min_max: false,
    rams: &ICE40_RAMS,
};

const ECP5_FABRIC: Fabric = Fabric {
    multiplier_bits: Some(18),
    gated_reset: false,
    folds_sign_tests: true,
    lone_flops_take_cells: false,
    adders_pack_an_input: false,
    carry_chains_take_feed_cells: true,
    wide_min_max: true,
    rams: &ECP5_RAMS,
};

/// No device: no hard multipliers of a known width, no family's
/// packing; sign tests fold and memories map as on ECP5 (the generic
/// target's library is ECP5's).
const GENERIC_FABRIC: Fabric = Fabric {
    multiplier_bits: None,
    gated_reset: false,
    folds_sign_tests: true,
    lone_flops_take_cells: false,
    adders_pack_an_input: false,
    carry_chains_take_feed_cells: false,
    wide_min_max: false,
    rams: &ECP5_RAMS,
};

impl Family {
    /// The family's fabric.
    pub fn fabric(self) -> &'static Fabric {
        match self {
            Family::Ice40 => &ICE40_FABRIC,
            Family::Ecp5 => &ECP5_FABRIC,
            Family::Generic => &GENERIC_FABRIC,
        }
    }

    /// The name of the family's unit of logic, which a device's `luts`
    /// count: `LC` where a logic cell pairs a LUT4 with a flip-flop
    /// (iCE40), else `LUT`.
    pub fn logic_name(self) -> &'static str {
        if self.fabric().lone_flops_take_cells {
            "LC"
        } else {
            "LUT"
        }
    }

    /// Whether the family is a real device (not the estimates-only
    /// `generic`): one that can be synthesised, placed and fitted to.
    pub fn is_device(self) -> bool {
        self != Family::Generic
    }
}

/// One target device.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Device {
    /// The `--target` name (`ecp5-25k`).
    pub name: &'static str,
    pub family: Family,
    /// The operator library file (`hls/library/<library>.toml`): the
    /// part's own, or a part of the same fabric whose figures it shares.
    pub library: &'static str,
    /// nextpnr's device option (`--up5k`, `--25k`).
    pub nextpnr_device: &'static str,
    /// nextpnr's package name.
    pub package: &'static str,
    /// Units of logic: 4-input LUTs, or iCE40's logic cells of one LUT4
    /// and one flip-flop each (`Family::logic_name`).
    pub luts: u64,
    pub ffs: u64,
    /// Block RAMs, each of `bram_bits` bits.
    pub brams: u64,
    pub bram_bits: u64,
    /// LUT RAM cells (ECP5 `TRELLIS_DPR16X4`, 16 words of 4 bits, each
    /// taking a `TRELLIS_RAMW` site; none on iCE40).
    pub lut_rams: u64,
    /// Hard multipliers (iCE40 `SB_MAC16`, ECP5 `MULT18X18D`).
    pub dsps: u64,
    /// User IO pins of the package.
    pub io: u64,
    /// The board the UART shell is built for (`wrappers::shell::board`),
    /// where one is known.
    pub board: Option<&'static str>,
}

/// Every device, the default first.
pub const DEVICES: [Device; 6] = [
    Device {
        name: "ecp5-25k",
        family: Family::Ecp5,
        library: "ecp5-25k",
        nextpnr_device: "--25k",
        package: "CABGA381",
        luts: 24_288,
        ffs: 24_288,
        brams: 56,
        bram_bits: 18 * 1024,
        lut_rams: 3036,
        dsps: 28,
        io: 197,
        board: Some("ULX3S"),
    },
    Device {
        name: "ecp5-45k",
        family: Family::Ecp5,
        library: "ecp5-25k",
        nextpnr_device: "--45k",
        package: "CABGA381",
        luts: 43_848,
        ffs: 43_848,
        brams: 108,
        bram_bits: 18 * 1024,
        lut_rams: 5481,
        dsps: 72,
        io: 203,
        board: Some("ULX3S"),
    },
    Device {
        name: "ecp5-85k",
        family: Family::Ecp5,
        library: "ecp5-25k",
        nextpnr_device: "--85k",
        package: "CABGA381",
        luts: 83_640,
        ffs: 83_640,
        brams: 208,
        bram_bits: 18 * 1024,
        lut_rams: 10_455,
        dsps: 156,
        io: 205,
        board: Some("ULX3S"),
    },
    Device {
        name: "ice40-up5k",
        family: Family::Ice40,
        library: "ice40-up5k",
        nextpnr_device: "--up5k",
        package: "sg48",
        luts: 5_280,
        ffs: 5_280,
        brams: 30,
        bram_bits: 4 * 1024,
        lut_rams: 0,
        dsps: 8,
        io: 39,
        board: Some("iCEBreaker"),
    },
    Device {
        name: "ice40-hx8k",
        family: Family::Ice40,
        library: "ice40-hx8k",
        nextpnr_device: "--hx8k",
        package: "ct256",
        luts: 7_680,
        ffs: 7_680,
        brams: 32,
        bram_bits: 4 * 1024,
        lut_rams: 0,
        dsps: 0,
        io: 206,
        board: None,
    },
    Device {
        name: "generic",
        family: Family::Generic,
        library: "ecp5-25k",
        nextpnr_device: "",
        package: "",
        luts: 0,
        ffs: 0,
        brams: 0,
        bram_bits: 18 * 1024,
        lut_rams: 0,
        dsps: 0,
        io: 0,
        board: None,
    },
];

/// The default target.
pub const DEFAULT_TARGET: &str = "ecp5-25k";

/// Family names accepted for their smallest part of the list.
const ALIASES: [(&str, &str); 2] = [("ice40", "ice40-up5k"), ("ecp5", "ecp5-25k")];

/// The device `--target` names (an alias of `ALIASES` names its part).
pub fn lookup(target: &str) -> Result<&'static Device, String> {
    let name = ALIASES
        .iter()
        .find(|a| a.0 == target)
        .map_or(target, |a| a.1);
    DEVICES.iter().find(|d| d.name == name).ok_or_else(|| {
        let names: Vec<&str> = DEVICES.iter().map(|d| d.name).collect();
        format!(
            "unknown target '{target}'; known targets: {}",
            names.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases() {
        assert_eq!(lookup("ecp5-45k").unwrap().nextpnr_device, "--45k");
        assert_eq!(lookup("ice40").unwrap().name, "ice40-up5k");
        assert_eq!(lookup("ecp5").unwrap().name, "ecp5-25k");
        assert_eq!(lookup(DEFAULT_TARGET).unwrap().family, Family::Ecp5);
        assert_eq!(lookup("generic").unwrap().family, Family::Generic);
        let e = lookup("xc7").unwrap_err();
        assert!(e.contains("ecp5-25k, ecp5-45k, ecp5-85k, ice40-up5k, ice40-hx8k, generic"));
    }
}
