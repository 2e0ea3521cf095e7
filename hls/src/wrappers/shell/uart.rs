//! A UART (8 data bits, no parity, one stop bit) as hw/comb/seq ops: a
//! receiver that samples the (already synchronised) line in the middle
//! of each bit and a transmitter, both timed by a divider of `divider`
//! clock cycles per bit.

use crate::flow::construct::hw::{Hw, Reg};
use silica_ir::ValueId;

/// Bits to count `0..=n`.
pub fn bits_for(n: u64) -> u32 {
    (64 - n.leading_zeros()).max(1)
}

/// `a == constant`.
pub fn eq_const(hw: &mut Hw<'_>, a: ValueId, c: u128) -> ValueId {
    let w = hw.width(a);
    let k = hw.constant(c, w);
    hw.icmp(0, a, k)
}

/// `a + constant` (wrapping at `a`'s width).
pub fn add_const(hw: &mut Hw<'_>, a: ValueId, c: u128) -> ValueId {
    let w = hw.width(a);
    let k = hw.constant(c, w);
    hw.comb("comb.add", &[a, k])
}

/// A received byte: `valid` is high for one cycle with `byte`.
pub struct Received {
    pub valid: ValueId,
    pub byte: ValueId,
}

/// The receiver on line `rx`: waits for a falling edge, checks the start
/// bit in its middle, samples 8 data bits (least significant first), and
/// delivers the byte if the stop bit is high (a framing error drops it).
pub fn receiver(hw: &mut Hw<'_>, rx: ValueId, divider: u64) -> Received {
    let cw = bits_for(divider);
    let busy = hw.reg("rx_busy", 1, Some(0));
    let count = hw.reg("rx_count", cw, Some(0));
    let bit = hw.reg("rx_bit", 4, Some(0));
    let shift = hw.reg("rx_shift", 8, Some(0));
    let valid = hw.reg("rx_valid", 1, Some(0));
    let one = hw.constant(1, 1);
    let zero = hw.constant(0, 1);
    let idle = hw.not(busy.q);
    let low = hw.not(rx);
    let begin = hw.and(idle, low);
    let tick = eq_const(hw, count.q, 0);
    let sample = hw.and(busy.q, tick);
    let not_tick = hw.not(tick);
    let counting = hw.and(busy.q, not_tick);
    let at_start = eq_const(hw, bit.q, 0);
    let at_stop = eq_const(hw, bit.q, 9);
    // A start bit that is high again in its middle was a glitch.
    let glitch = hw.and(at_start, rx);
    let sample_start_glitch = hw.and(sample, glitch);
    let stop = hw.and(sample, at_stop);
    let give_up = hw.any(&[sample_start_glitch, stop]);
    hw.connect(busy, &[(begin, one), (give_up, zero)]);
    let half = hw.constant(u128::from(divider / 2), cw);
    let full = hw.constant(u128::from(divider - 1), cw);
    let down = {
        let k = hw.constant(1, cw);
        hw.comb("comb.sub", &[count.q, k])
    };
    hw.connect(count, &[(begin, half), (sample, full), (counting, down)]);
    let next_bit = add_const(hw, bit.q, 1);
    let zero4 = hw.constant(0, 4);
    hw.connect(bit, &[(begin, zero4), (sample, next_bit)]);
    // Data bits 1..=8 shift in from the top.
    let not_start = hw.not(at_start);
    let not_stop = hw.not(at_stop);
    let data = hw.and(not_start, not_stop);
    let take = hw.and(sample, data);
    let upper = hw.extract(shift.q, 1, 7);
    let shifted = hw.concat(rx, upper);
    hw.connect(shift, &[(take, shifted)]);
    let framed = hw.and(stop, rx);
    hw.connect(valid, &[(framed, one), (one, zero)]);
    Received {
        valid: valid.q,
        byte: shift.q,
    }
}

/// The transmitter: `send` (while `ready`) loads `byte`; the line (a
/// register bit, high when idle) carries the start bit, the data bits
/// and the stop bit. Made in two steps, as what to send depends on
/// `ready`: [`Transmitter::new`], then [`Transmitter::connect`].
pub struct Transmitter {
    /// The line.
    pub tx: ValueId,
    /// High when a byte can be sent.
    pub ready: ValueId,
    busy: Reg,
    count: Reg,
    bit: Reg,
    shift: Reg,
}

impl Transmitter {
    /// The transmitter's registers, its line and `ready`.
    pub fn new(hw: &mut Hw<'_>, divider: u64) -> Transmitter {
        let cw = bits_for(divider);
        let busy = hw.reg("tx_busy", 1, Some(0));
        let count = hw.reg("tx_count", cw, Some(0));
        let bit = hw.reg("tx_bit", 4, Some(0));
        // Stop bit, data, start bit; ones shift in from the top, so the
        // line is high once a byte is out.
        let shift = hw.reg("tx_shift", 10, Some(0x3ff));
        let ready = hw.not(busy.q);
        let tx = hw.extract(shift.q, 0, 1);
        Transmitter {
            tx,
            ready,
            busy,
            count,
            bit,
            shift,
        }
    }

    /// Sends `byte` when `send` is high while ready.
    pub fn connect(&self, hw: &mut Hw<'_>, divider: u64, send: ValueId, byte: ValueId) {
        let cw = self.count.width;
        let one = hw.constant(1, 1);
        let zero = hw.constant(0, 1);
        let load = hw.and(self.ready, send);
        let tick = eq_const(hw, self.count.q, 0);
        let step = hw.and(self.busy.q, tick);
        let not_tick = hw.not(tick);
        let counting = hw.and(self.busy.q, not_tick);
        let last = eq_const(hw, self.bit.q, 9);
        let finish = hw.and(step, last);
        hw.connect(self.busy, &[(load, one), (finish, zero)]);
        let full = hw.constant(u128::from(divider - 1), cw);
        let k = hw.constant(1, cw);
        let down = hw.comb("comb.sub", &[self.count.q, k]);
        hw.connect(self.count, &[(load, full), (step, full), (counting, down)]);
        let next_bit = add_const(hw, self.bit.q, 1);
        let zero4 = hw.constant(0, 4);
        hw.connect(self.bit, &[(load, zero4), (step, next_bit)]);
        let stop_data = hw.concat(one, byte);
        let framed = hw.concat(stop_data, zero);
        let upper = hw.extract(self.shift.q, 1, 9);
        let shifted = hw.concat(one, upper);
        hw.connect(self.shift, &[(load, framed), (step, shifted)]);
    }
}
