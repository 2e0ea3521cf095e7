//! The FPGA devices `silica hls --target` names: each part's family,
//! operator library, package, capacity (LUTs, flip-flops, block RAMs,
//! DSPs, user IO pins of the package) and the options that select it in
//! nextpnr. Figures are the vendors' data sheets' (IO counts as nextpnr
//! places them).

/// A device family: which tools build its bitstream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Lattice iCE40: yosys `synth_ice40`, `nextpnr-ice40`, `icepack`.
    Ice40,
    /// Lattice ECP5: yosys `synth_ecp5`, `nextpnr-ecp5`, `ecppack`.
    Ecp5,
    /// No device: estimates only, no bitstream.
    Generic,
}

impl Family {
    /// The operand bits of one hard multiplier (`MULT18X18D`, `SB_MAC16`);
    /// none without a device.
    pub fn multiplier_bits(self) -> Option<u32> {
        match self {
            Family::Ecp5 => Some(18),
            Family::Ice40 => Some(16),
            Family::Generic => None,
        }
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
    /// Logic cells (4-input LUTs).
    pub luts: u64,
    pub ffs: u64,
    /// Block RAMs, each of `bram_bits` bits.
    pub brams: u64,
    pub bram_bits: u64,
    /// Hard multipliers (iCE40 `SB_MAC16`, ECP5 `MULT18X18D`).
    pub dsps: u64,
    /// User IO pins of the package.
    pub io: u64,
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
        dsps: 28,
        io: 197,
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
        dsps: 72,
        io: 203,
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
        dsps: 156,
        io: 205,
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
        dsps: 8,
        io: 39,
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
        dsps: 0,
        io: 206,
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
        dsps: 0,
        io: 0,
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
