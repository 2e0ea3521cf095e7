//! The board shell (`silica hls --shell uart`): a top module
//! `@<top>_shell` around the core that holds the kernel's memory
//! arguments in on-chip RAM, its scalars in registers, and talks to a
//! host over a UART (8N1), so a bitstream can run the kernel on a board.
//!
//! `protocol` is the serial protocol (also the host's side of it),
//! `uart` the serial line's circuits, `circuit` the shell's circuit,
//! `board` the boards and their pin constraints, `host` the host's
//! client (`silica run-board`), `serial` the serial port (termios) and
//! pseudo-terminals, `values` the client's input and output
//! files (`verification::emulator` runs the shell in Verilator behind a
//! byte stream). The shell is built through the IR API next to the core (parsed
//! back from `F.hw.mlir`) and emitted with it by the Verilog emitter
//! (`crate::flow::construct::beside`).

pub mod board;
pub mod circuit;
pub mod host;
pub mod protocol;
pub mod serial;
pub mod uart;
pub mod values;

use crate::flow::construct::beside::emit_beside;
use crate::model::interface::Interface;
use serde::{Deserialize, Serialize};
use silica_hw_dialects::types;
use silica_ir::Context;

/// The shell's ports.
pub mod ports {
    /// The board's oscillator.
    pub const CLOCK: &str = "clock";
    /// The reset button, low when pressed.
    pub const RESET_N: &str = "reset_n";
    /// The serial line from the host.
    pub const RX: &str = "uart_rx";
    /// The serial line to the host.
    pub const TX: &str = "uart_tx";
}

/// What `silica run-board` needs to know of a shell (`F.shell.json`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ShellInfo {
    /// The shell's module (the bitstream's top).
    pub module: String,
    /// The core's top (whose `F.json` describes the interface).
    pub top: String,
    /// The board the constraints are for.
    pub board: String,
    /// The board's clock, in MHz.
    pub clock_mhz: f64,
    /// The line's rate.
    pub baud: u32,
    /// Clock cycles per bit.
    pub divider: u64,
}

impl ShellInfo {
    /// `F.shell.json`'s text.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// The design's SystemVerilog with the shell `@<top>_shell` added (the
/// core's `F.hw.mlir` parsed back, the shell built beside it, both
/// emitted); `divider` is the clock cycles per bit of the UART.
pub fn wrap(
    ctx: &mut Context,
    hw_mlir: &str,
    iface: &Interface,
    divider: u64,
) -> Result<String, String> {
    if divider < 4 {
        return Err(format!(
            "a UART divider of {divider} is too small (at least 4)"
        ));
    }
    if iface.memories().count() > 255 || iface.scalars().count() > 255 || iface.results.len() > 255
    {
        return Err("the shell numbers memories, scalars and results with one byte".into());
    }
    let clock_ty = types::clock(ctx);
    let i1 = ctx.signless(1);
    let shell_ports = [
        (types::Direction::Input, ports::CLOCK, clock_ty),
        (types::Direction::Input, ports::RESET_N, i1),
        (types::Direction::Input, ports::RX, i1),
        (types::Direction::Output, ports::TX, i1),
    ];
    let name = shell_name(&iface.top);
    emit_beside(
        ctx,
        hw_mlir,
        &name,
        "the board shell",
        &shell_ports,
        |hw, args| {
            let (reset_n, rx) = (args[1], args[2]);
            // The reset is made inside (`circuit::build` sets it).
            Ok(vec![circuit::build(hw, iface, divider, reset_n, rx)])
        },
    )
}

/// The shell module's name for core `top`.
pub fn shell_name(top: &str) -> String {
    format!("{top}_shell")
}
