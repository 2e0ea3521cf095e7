//! The model: what the flow reads and every later stage shares. The
//! kernel model (`kernel`), the target (`target`: the device and its
//! measured operator library), the top module's interface
//! (`interface`) and the register map a host sees it through
//! (`register_map`), the user's directives (`directives`), the
//! hand-written Verilog modules a design may instantiate (`ip`), and
//! what the user asks of a synthesis (`options`).

pub mod directives;
pub mod interface;
pub mod ip;
pub mod kernel;
pub mod options;
pub mod register_map;
pub mod target;
