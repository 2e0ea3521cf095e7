//! The boards a shell is built for, one per target family and package:
//! its oscillator, and its pin constraints (`.pcf` for nextpnr-ice40,
//! `.lpf` for nextpnr-ecp5) for the shell's four ports — `clock`,
//! `reset_n` (a push button, low when pressed), `uart_rx` (from the
//! board's USB serial bridge) and `uart_tx` (to it).

use crate::model::target::device::Device;

/// A board and its constraints.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Board {
    /// Its name.
    pub name: &'static str,
    /// The oscillator on the clock pin, in MHz.
    pub clock_mhz: f64,
    /// The constraints file's extension (`pcf`, `lpf`).
    pub extension: &'static str,
    /// The constraints.
    pub constraints: &'static str,
}

/// iCEBreaker (iCE40 UP5K, SG48): 12 MHz, the FTDI's second channel as
/// the UART, the user button.
const ICEBREAKER: Board = Board {
    name: "iCEBreaker",
    clock_mhz: 12.0,
    extension: "pcf",
    constraints: "# silica board shell on the iCEBreaker (iCE40 UP5K, SG48)\n\
                  set_io -nowarn clock 35\n\
                  set_io -nowarn -pullup yes reset_n 10\n\
                  set_io -nowarn uart_rx 6\n\
                  set_io -nowarn uart_tx 9\n",
};

/// ULX3S (ECP5 12F/25F/45F/85F, CABGA381): 25 MHz, the FT231X as the
/// UART, the PWR button (low when pressed).
const ULX3S: Board = Board {
    name: "ULX3S",
    clock_mhz: 25.0,
    extension: "lpf",
    constraints: "# silica board shell on the ULX3S (ECP5, CABGA381)\n\
                  LOCATE COMP \"clock\" SITE \"G2\";\n\
                  IOBUF PORT \"clock\" PULLMODE=NONE IO_TYPE=LVCMOS33;\n\
                  FREQUENCY PORT \"clock\" 25 MHZ;\n\
                  LOCATE COMP \"reset_n\" SITE \"D6\";\n\
                  IOBUF PORT \"reset_n\" PULLMODE=UP IO_TYPE=LVCMOS33;\n\
                  LOCATE COMP \"uart_rx\" SITE \"M1\";\n\
                  IOBUF PORT \"uart_rx\" PULLMODE=UP IO_TYPE=LVCMOS33;\n\
                  LOCATE COMP \"uart_tx\" SITE \"L4\";\n\
                  IOBUF PORT \"uart_tx\" PULLMODE=UP IO_TYPE=LVCMOS33 DRIVE=4;\n",
};

/// The board for `device`, or why there is none.
pub fn for_device(device: &Device) -> Result<Board, String> {
    match [ICEBREAKER, ULX3S]
        .into_iter()
        .find(|b| device.board == Some(b.name))
    {
        Some(b) => Ok(b),
        None => Err(format!(
            "no board is known for target '{}' (the UART shell has an iCEBreaker for \
             ice40-up5k and a ULX3S for ecp5-25k, ecp5-45k and ecp5-85k)",
            device.name
        )),
    }
}

/// The clock divider for `baud` on `board`: cycles per bit, rounded.
pub fn divider(board: &Board, baud: u32) -> Result<u64, String> {
    let cycles = board.clock_mhz * 1e6 / f64::from(baud);
    let d = cycles.round() as u64;
    let error = (cycles - d as f64).abs() / cycles;
    if d < 4 || error > 0.02 {
        return Err(format!(
            "{baud} baud is out of reach of the {}'s {} MHz clock (a divider of {cycles:.2})",
            board.name, board.clock_mhz
        ));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::target::device::lookup;

    #[test]
    fn boards_per_target() {
        let b = for_device(lookup("ice40-up5k").unwrap()).unwrap();
        assert_eq!((b.name, b.extension), ("iCEBreaker", "pcf"));
        assert_eq!(divider(&b, 115_200), Ok(104));
        let u = for_device(lookup("ecp5-85k").unwrap()).unwrap();
        assert_eq!(u.name, "ULX3S");
        assert_eq!(divider(&u, 115_200), Ok(217));
        assert!(for_device(lookup("ice40-hx8k").unwrap()).is_err());
        assert!(divider(&b, 4_000_000).is_err());
    }
}
