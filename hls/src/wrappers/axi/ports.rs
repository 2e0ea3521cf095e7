//! The ports of the wrapper module `F_axi`, in order: `clock`, `reset`
//! (synchronous, active high), the AXI4-Lite slave `s_axi_control_*`
//! (32-bit data), the AXI4 master `m_axi_gmem_*` (64-bit address, data
//! of `RegisterMap::master_data_width` bits; `INCR` bursts, no IDs) and `interrupt`. Names are AXI's signal
//! names in lower case after the interface's prefix; the testbench
//! spells them through [`lite`] and [`master`].

use crate::model::interface::Direction;
use crate::model::register_map::RegisterMap;
use crate::model::register_map::ADDRESS_WIDTH;

/// `s_axi_control_<signal>`.
pub fn lite(signal: &str) -> String {
    format!("s_axi_control_{signal}")
}

/// `m_axi_gmem_<signal>`.
pub fn master(signal: &str) -> String {
    format!("m_axi_gmem_{signal}")
}

/// The interrupt output (`irq`; `interrupt` is a C++ word Verilator renames): `GIE & (ISR[0] | ISR[1])`.
pub const INTERRUPT: &str = "irq";

/// Every port of the wrapper: name, direction, width (`clock` is the
/// one-bit clock).
pub fn ports(map: &RegisterMap) -> Vec<(String, Direction, u32)> {
    use Direction::{In, Out};
    let a = map.lite_address_width;
    let mut out: Vec<(String, Direction, u32)> =
        vec![("clock".into(), In, 1), ("reset".into(), In, 1)];
    let lite_ports: [(&str, Direction, u32); 17] = [
        ("awaddr", In, a),
        ("awvalid", In, 1),
        ("awready", Out, 1),
        ("wdata", In, 32),
        ("wstrb", In, 4),
        ("wvalid", In, 1),
        ("wready", Out, 1),
        ("bresp", Out, 2),
        ("bvalid", Out, 1),
        ("bready", In, 1),
        ("araddr", In, a),
        ("arvalid", In, 1),
        ("arready", Out, 1),
        ("rdata", Out, 32),
        ("rresp", Out, 2),
        ("rvalid", Out, 1),
        ("rready", In, 1),
    ];
    out.extend(lite_ports.iter().map(|&(s, d, w)| (lite(s), d, w)));
    let (aw, dw) = (ADDRESS_WIDTH, map.master_data_width);
    let master_ports: [(&str, Direction, u32); 25] = [
        ("awaddr", Out, aw),
        ("awlen", Out, 8),
        ("awsize", Out, 3),
        ("awburst", Out, 2),
        ("awvalid", Out, 1),
        ("awready", In, 1),
        ("wdata", Out, dw),
        ("wstrb", Out, dw / 8),
        ("wlast", Out, 1),
        ("wvalid", Out, 1),
        ("wready", In, 1),
        ("bresp", In, 2),
        ("bvalid", In, 1),
        ("bready", Out, 1),
        ("araddr", Out, aw),
        ("arlen", Out, 8),
        ("arsize", Out, 3),
        ("arburst", Out, 2),
        ("arvalid", Out, 1),
        ("arready", In, 1),
        ("rdata", In, dw),
        ("rresp", In, 2),
        ("rlast", In, 1),
        ("rvalid", In, 1),
        ("rready", Out, 1),
    ];
    out.extend(master_ports.iter().map(|&(s, d, w)| (master(s), d, w)));
    out.push((INTERRUPT.into(), Out, 1));
    out
}
