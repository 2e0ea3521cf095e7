//! Wrappers around a built core: the AXI interface for a host (`axi`),
//! the board shell driven over a UART (`shell`) and the host code that
//! drives either (`host`).

pub mod axi;
pub mod host;
pub mod shell;
