//! The register map of the AXI4-Lite control interface, derived from the
//! kernel's [`Interface`]: the `ap_ctrl` block at 0x00..0x0C, then from
//! 0x10 one or more 32-bit words per argument in argument order (a
//! scalar takes `ceil(width / 32)` words, least significant first; a
//! memref takes two, its 64-bit base address in host memory, low word
//! first), then one or more read-only words per scalar result. It is
//! written into `F.json` (`axi`) and into the C header `F.h` (`header`).

use crate::model::interface::{ArgKind, Interface, Memory};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Address bits of the AXI4 master.
pub const ADDRESS_WIDTH: u32 = 64;
/// Data bits of the AXI4 master at least (the widest element it moves);
/// wider where a packed memory's word needs more ([`master_data_width`]).
pub const DATA_WIDTH: u32 = 64;

/// Byte offset of the control register (`ap_start`, `ap_done`, ...).
pub const CONTROL: u32 = 0x00;
/// Byte offset of the global interrupt enable (bit 0).
pub const GIE: u32 = 0x04;
/// Byte offset of the IP interrupt enable (bit 0 done, bit 1 ready).
pub const IER: u32 = 0x08;
/// Byte offset of the IP interrupt status (toggle on write).
pub const ISR: u32 = 0x0C;
/// Byte offset of the first argument register.
pub const FIRST_ARGUMENT: u32 = 0x10;

/// Bits of the control register.
pub mod bits {
    /// Set by the host to start; cleared when the run is over (kept with
    /// `AUTO_RESTART`).
    pub const AP_START: u32 = 0;
    /// Set when a run is over, every output in host memory; cleared when
    /// the control register is read.
    pub const AP_DONE: u32 = 1;
    /// High while the accelerator waits for `ap_start`.
    pub const AP_IDLE: u32 = 2;
    /// Set when the accelerator can take new arguments (with `AP_DONE`);
    /// cleared when the control register is read.
    pub const AP_READY: u32 = 3;
    /// Sticky: an AXI read or write of the last run had an error
    /// response (`SLVERR`/`DECERR`); cleared by the next start.
    pub const AP_ERROR: u32 = 4;
    /// Written by the host: start again as soon as a run is over.
    pub const AUTO_RESTART: u32 = 7;
}

/// The interrupt sources of `IER` and `ISR`.
pub mod irq {
    /// A run is over.
    pub const DONE: u32 = 0;
    /// The accelerator is ready for new arguments.
    pub const READY: u32 = 1;
}

/// What a register holds.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RegisterKind {
    /// A scalar argument (read and write).
    Scalar,
    /// The base address of a memref argument in host memory (read and write).
    Base,
    /// A scalar result (read only).
    Result,
}

/// One register (of one or more consecutive 32-bit words).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Register {
    /// The argument's or result's name (`hls.name`, `arg<i>`, `result<i>`).
    pub name: String,
    /// Byte offset of its first (least significant) word.
    pub offset: u32,
    /// How many 32-bit words it takes.
    pub words: u32,
    /// Its meaningful bits (the rest read as zero).
    pub width: u32,
    pub kind: RegisterKind,
    /// The argument's or result's position.
    pub index: usize,
    /// Its MLIR type.
    #[serde(rename = "type")]
    pub ty: String,
}

impl Register {
    /// Whether the host may write it.
    pub fn writable(&self) -> bool {
        self.kind != RegisterKind::Result
    }
}

/// The register map and the AXI ports of a wrapped kernel (`F.json`'s
/// `axi` section).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct RegisterMap {
    /// The wrapper module's name (`F_axi`); the core inside is `F`.
    pub module: String,
    /// Address bits of the AXI4-Lite slave (`s_axi_control_*`).
    pub lite_address_width: u32,
    /// Data bits of the AXI4-Lite slave.
    pub lite_data_width: u32,
    /// Address bits of the AXI4 master (`m_axi_gmem_*`).
    pub master_address_width: u32,
    /// Data bits of the AXI4 master.
    pub master_data_width: u32,
    /// Byte offsets of the `ap_ctrl` block.
    pub control: u32,
    pub gie: u32,
    pub ier: u32,
    pub isr: u32,
    /// Bit numbers in the control register.
    pub control_bits: BTreeMap<String, u32>,
    /// The argument and result registers, by offset.
    pub registers: Vec<Register>,
}

/// The bits one memory element takes in host memory: a power of two of
/// at least 8 (LLVM's allocation size of an integer or float).
pub fn element_bits(width: u32) -> u32 {
    width.next_power_of_two().max(8)
}

/// The bytes one word of memory `m`'s ports takes in host memory: its
/// lanes' elements side by side.
pub fn word_bytes(m: &Memory) -> u32 {
    m.lanes.max(1) * element_bits(m.element_width) / 8
}

/// The AXI4 master's data bits for `iface`: [`DATA_WIDTH`], or the widest
/// packed word a memory's ports move as one beat.
pub fn master_data_width(iface: &Interface) -> u32 {
    iface
        .memories()
        .map(|(_, m)| 8 * word_bytes(m))
        .fold(DATA_WIDTH, u32::max)
        .next_power_of_two()
}

impl RegisterMap {
    /// The register map of `iface`, or why it cannot be wrapped.
    pub fn new(iface: &Interface) -> Result<RegisterMap, String> {
        let mut registers = Vec::new();
        let mut offset = FIRST_ARGUMENT;
        for arg in &iface.args {
            let (kind, width, ty) = match &arg.kind {
                ArgKind::Scalar(s) => (RegisterKind::Scalar, s.width, s.ty.clone()),
                ArgKind::Memory(m) => {
                    if element_bits(m.element_width) > DATA_WIDTH {
                        return Err(format!(
                            "argument {} ('{}') has {}-bit elements: the AXI master moves elements of at most {} bits",
                            arg.index, arg.name, m.element_width, DATA_WIDTH
                        ));
                    }
                    (RegisterKind::Base, ADDRESS_WIDTH, m.ty.clone())
                }
            };
            let words = width.div_ceil(32);
            registers.push(Register {
                name: arg.name.clone(),
                offset,
                words,
                width,
                kind,
                index: arg.index,
                ty,
            });
            offset += 4 * words;
        }
        for r in &iface.results {
            let words = r.width.div_ceil(32);
            registers.push(Register {
                name: r.name.clone(),
                offset,
                words,
                width: r.width,
                kind: RegisterKind::Result,
                index: r.index,
                ty: r.ty.clone(),
            });
            offset += 4 * words;
        }
        let lite_address_width = (32 - (offset - 1).leading_zeros()).max(5);
        let map = RegisterMap {
            module: format!("{}_axi", iface.top),
            lite_address_width,
            lite_data_width: 32,
            master_address_width: ADDRESS_WIDTH,
            master_data_width: master_data_width(iface),
            control: CONTROL,
            gie: GIE,
            ier: IER,
            isr: ISR,
            control_bits: [
                ("ap_start", bits::AP_START),
                ("ap_done", bits::AP_DONE),
                ("ap_idle", bits::AP_IDLE),
                ("ap_ready", bits::AP_READY),
                ("ap_error", bits::AP_ERROR),
                ("auto_restart", bits::AUTO_RESTART),
            ]
            .into_iter()
            .map(|(n, b)| (n.to_string(), b))
            .collect(),
            registers,
        };
        map.check_header_names(&iface.top)?;
        Ok(map)
    }

    /// The register of argument or result `name`.
    pub fn register(&self, name: &str) -> Option<&Register> {
        self.registers.iter().find(|r| r.name == name)
    }

    /// Reads the `axi` section of an `F.json`'s text.
    pub fn from_json(text: &str) -> Result<RegisterMap, String> {
        #[derive(Deserialize)]
        struct Report {
            axi: Option<RegisterMap>,
        }
        serde_json::from_str::<Report>(text)
            .map_err(|e| format!("invalid F.json: {e}"))?
            .axi
            .ok_or_else(|| "F.json has no 'axi' section".to_string())
    }

    /// Two registers whose header macros would be spelled alike (the
    /// header upper-cases names) are an error.
    fn check_header_names(&self, top: &str) -> Result<(), String> {
        let mut seen = std::collections::HashMap::new();
        for r in &self.registers {
            let macro_name = register_macro(top, r);
            if let Some(other) = seen.insert(macro_name.clone(), r.name.clone()) {
                return Err(format!(
                    "'{other}' and '{}' would both be {macro_name} in {top}.h: rename one with 'hls.name'",
                    r.name
                ));
            }
        }
        Ok(())
    }
}

/// The macro prefix of kernel `top`: its name upper-cased.
pub fn prefix(top: &str) -> String {
    top.to_ascii_uppercase()
}

/// The offset macro of register `r` of kernel `top`.
pub fn register_macro(top: &str, r: &Register) -> String {
    let p = prefix(top);
    match r.kind {
        RegisterKind::Result => format!("{p}_{}", r.name.to_ascii_uppercase()),
        _ => format!("{p}_ARG_{}", r.name.to_ascii_uppercase()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::interface::Access;
    use crate::test_support::{self, memory, scalar};

    fn interface(second: &str) -> Interface {
        let a = memory("memref<3xi8>", &[3], 8, Access::ReadWrite);
        test_support::interface(&[("n", scalar("i70", 70)), (second, a)], &[("i1", 1)])
    }

    #[test]
    fn arguments_then_results_from_0x10() {
        let map = RegisterMap::new(&interface("A")).unwrap();
        let layout: Vec<_> = map
            .registers
            .iter()
            .map(|r| (r.name.as_str(), r.offset, r.words, r.width, r.kind))
            .collect();
        assert_eq!(
            layout,
            [
                ("n", 0x10, 3, 70, RegisterKind::Scalar),
                ("A", 0x1c, 2, 64, RegisterKind::Base),
                ("result0", 0x24, 1, 1, RegisterKind::Result),
            ]
        );
        assert_eq!(map.lite_address_width, 6);
        assert_eq!(map.module, "k_axi");
        let mut json = String::from("{\"top\": \"k\", \"axi\": ");
        json.push_str(&serde_json::to_string(&map).unwrap());
        json.push('}');
        assert_eq!(RegisterMap::from_json(&json).unwrap(), map);
    }

    #[test]
    fn names_that_collide_in_the_header_are_refused() {
        let e = RegisterMap::new(&interface("N")).unwrap_err();
        assert_eq!(
            e,
            "'n' and 'N' would both be K_ARG_N in k.h: rename one with 'hls.name'"
        );
    }
}
