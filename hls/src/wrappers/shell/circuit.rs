//! The shell's circuit inside `hw.module @<top>_shell`: power-on and
//! button reset, the UART, the protocol's controller (one state
//! register), the memory arguments as `seq.firmem` RAMs whose port 0 the
//! controller uses while the core leaves it alone, the scalar registers,
//! the core instance, and the run's cycle counter.

use super::protocol as p;
use super::uart::{add_const, bits_for, eq_const, Received, Transmitter};
use crate::flow::construct::hw::{Hw, Reg};
use crate::model::interface::{names, Direction, Interface};
use silica_ir::{Type, ValueId};

/// Controller states.
mod state {
    pub const HEADER: u128 = 0;
    pub const DECODE: u128 = 1;
    pub const PAYLOAD: u128 = 2;
    pub const CHECK: u128 = 3;
    pub const DISCARD: u128 = 4;
    pub const REPLY_STATUS: u128 = 5;
    pub const REPLY_COMMAND: u128 = 6;
    pub const FETCH: u128 = 7;
    pub const LOAD: u128 = 8;
    pub const SEND: u128 = 9;
    pub const REPLY_SUM: u128 = 10;
}

/// Cycles of a power-on reset (from the all-zero state the FPGA
/// configures its flip-flops to).
const POWER_ON_BITS: u32 = 4;

/// Builds the shell's body: `clock`, `reset_n` (active-low button) and
/// `rx` are its inputs; gives the `tx` line.
pub fn build(
    hw: &mut Hw<'_>,
    iface: &Interface,
    divider: u64,
    reset_n: ValueId,
    rx_pin: ValueId,
) -> ValueId {
    // Reset: a power-on counter, or the button (synchronised).
    let por = hw.reg("power_on", POWER_ON_BITS, None);
    let full = u128::from((1u32 << POWER_ON_BITS) - 1);
    let por_done = eq_const(hw, por.q, full);
    let por_next = add_const(hw, por.q, 1);
    let por_counting = hw.not(por_done);
    hw.connect(por, &[(por_counting, por_next)]);
    let button = hw.delayed(reset_n, 2, "reset_n_sync");
    let pressed = hw.not(button);
    let reset = hw.any(&[por_counting, pressed]);
    hw.reset = reset;
    let rx = hw.delayed(rx_pin, 2, "rx_sync");
    let Received { valid, byte } = super::uart::receiver(hw, rx, divider);
    let tx = Transmitter::new(hw, divider);
    let mut c = Controller::new(hw, iface, divider);
    let core = c.core(hw, iface);
    c.logic(hw, iface, &core, valid, byte, &tx);
    tx.tx
}

/// The core instance's ports as seen by the shell.
struct Core {
    idle: ValueId,
    done: ValueId,
    results: Vec<ValueId>,
    /// Per memory: its RAM's port-0 read data.
    q0: Vec<ValueId>,
    /// Per memory, port 0: the core's address, ce, we, d.
    port0: Vec<[ValueId; 4]>,
    /// Per memory: the RAM handle and port 0's read port op.
    rams: Vec<(ValueId, silica_ir::OpId)>,
}

/// The controller's registers.
struct Controller {
    state: Reg,
    header_count: Reg,
    command: Reg,
    target: Reg,
    address: Reg,
    count: Reg,
    sum: Reg,
    reply_sum: Reg,
    word: Reg,
    byte_index: Reg,
    last_byte: Reg,
    left: Reg,
    error: Reg,
    gap: Reg,
    timeout: u128,
    divider: u64,
    start: Reg,
    running: Reg,
    finished: Reg,
    cycles: Reg,
    scalars: Vec<Reg>,
}

/// Bytes of every word the shell moves, the status included.
fn word_bytes_max(iface: &Interface) -> usize {
    let mems = iface.memories().map(|(_, m)| m.element_width);
    let scalars = iface.scalars().map(|(_, s)| s.width);
    let results = iface.results.iter().map(|r| r.width);
    mems.chain(scalars)
        .chain(results)
        .map(p::word_bytes)
        .max()
        .unwrap_or(1)
        .max(p::STATUS_BYTES)
}

impl Controller {
    fn new(hw: &mut Hw<'_>, iface: &Interface, divider: u64) -> Controller {
        let bytes = word_bytes_max(iface) as u64;
        let timeout = p::TIMEOUT_BYTE_TIMES * 10 * divider;
        let bw = bits_for(bytes);
        let scalars = iface
            .scalars()
            .map(|(a, s)| hw.reg(&format!("scalar_{}", a.name), s.width, Some(0)))
            .collect();
        Controller {
            state: hw.reg("state", 4, Some(state::HEADER)),
            header_count: hw.reg("header_count", 3, Some(0)),
            command: hw.reg("command", 8, Some(0)),
            target: hw.reg("target", 8, Some(0)),
            address: hw.reg("address", 32, Some(0)),
            count: hw.reg("count", 16, Some(0)),
            sum: hw.reg("sum", 8, Some(0)),
            reply_sum: hw.reg("reply_sum", 8, Some(0)),
            word: hw.reg("word", 8 * bytes as u32, Some(0)),
            byte_index: hw.reg("byte_index", bw, Some(0)),
            last_byte: hw.reg("last_byte", bw, Some(0)),
            left: hw.reg("left", 16, Some(0)),
            error: hw.reg("error", 8, Some(0)),
            gap: hw.reg("gap", bits_for(timeout), Some(0)),
            timeout: u128::from(timeout),
            divider,
            start: hw.reg("start", 1, Some(0)),
            running: hw.reg("running", 1, Some(0)),
            finished: hw.reg("finished", 1, Some(0)),
            cycles: hw.reg("cycles", 32, Some(0)),
            scalars,
        }
    }

    /// The RAMs and the core instance.
    fn core(&mut self, hw: &mut Hw<'_>, iface: &Interface) -> Core {
        // RAMs first (their read data feed the core), ports connected
        // once the core's outputs exist.
        let mut rams = Vec::new();
        let mut q = Vec::new();
        let mut read_ports = Vec::new();
        for (arg, m) in iface.memories() {
            let handle = hw.firmem(&format!("ram_{}", arg.name), m.words, m.element_width);
            let address = hw.constant(0, m.address_width);
            let dt = hw.int(m.element_width);
            let clock = hw.clock;
            let off = hw.constant(0, 1);
            let mut ports = Vec::new();
            let mut qs = Vec::new();
            for _ in 0..m.ports {
                let port = hw.op(
                    "seq.firmem.read_port",
                    &[handle, address, clock, off],
                    &[dt],
                    vec![],
                    vec![],
                );
                qs.push(hw.ir.result(port, 0));
                ports.push(port);
            }
            rams.push(handle);
            q.push(qs);
            read_ports.push(ports);
        }
        // The core: inputs in the contract's order.
        let ports = iface.ports();
        let mut operands = Vec::new();
        let mut scalar = 0;
        for port in ports.iter().filter(|p| p.direction == Direction::In) {
            let v = match port.name.as_str() {
                names::CLOCK => hw.clock,
                names::RESET => hw.reset,
                names::START => self.start.q,
                n => {
                    if let Some((mi, pi)) = memory_port_of(iface, n) {
                        q[mi][pi]
                    } else {
                        scalar += 1;
                        self.scalars[scalar - 1].q
                    }
                }
            };
            operands.push(v);
        }
        let outs = instance(hw, iface, &operands);
        let out = |n: &str| {
            ports
                .iter()
                .filter(|p| p.direction == Direction::Out)
                .position(|p| p.name == n)
                .map(|i| outs[i])
                .expect("the interface names the core's outputs")
        };
        let results = iface.results.iter().map(|r| out(&r.name)).collect();
        let mut port0 = Vec::new();
        for (mi, (arg, m)) in iface.memories().enumerate() {
            for pi in 0..m.ports {
                let a = &arg.name;
                let sig = [
                    out(&names::address(a, pi)),
                    out(&names::ce(a, pi)),
                    out(&names::we(a, pi)),
                    out(&names::d(a, pi)),
                ];
                if pi == 0 {
                    port0.push(sig);
                } else {
                    connect_port(hw, rams[mi], read_ports[mi][pi as usize], sig);
                }
            }
        }
        Core {
            idle: out(names::IDLE),
            done: out(names::DONE),
            results,
            q0: q.iter().map(|qs| qs[0]).collect(),
            port0,
            rams: rams
                .iter()
                .zip(&read_ports)
                .map(|(&h, ports)| (h, ports[0]))
                .collect(),
        }
    }

    /// The protocol: receiving a frame, checking it, acting, replying.
    #[allow(clippy::too_many_lines)]
    fn logic(
        &mut self,
        hw: &mut Hw<'_>,
        iface: &Interface,
        core: &Core,
        valid: ValueId,
        byte: ValueId,
        tx: &Transmitter,
    ) {
        let one = hw.constant(1, 1);
        let zero = hw.constant(0, 1);
        let at = |hw: &mut Hw<'_>, s: u128| eq_const(hw, self.state.q, s);
        let header = at(hw, state::HEADER);
        let decode = at(hw, state::DECODE);
        let payload = at(hw, state::PAYLOAD);
        let check = at(hw, state::CHECK);
        let discard = at(hw, state::DISCARD);
        let reply_status = at(hw, state::REPLY_STATUS);
        let reply_command = at(hw, state::REPLY_COMMAND);
        let fetch = at(hw, state::FETCH);
        let load = at(hw, state::LOAD);
        let send_word = at(hw, state::SEND);
        let reply_sum = at(hw, state::REPLY_SUM);
        let st = |hw: &mut Hw<'_>, s: u128| hw.constant(s, 4);
        let is = |hw: &mut Hw<'_>, c: u8| eq_const(hw, self.command.q, u128::from(c));
        let target_is = |hw: &mut Hw<'_>, t: usize| eq_const(hw, self.target.q, t as u128);
        let mems: Vec<_> = iface.memories().map(|(_, m)| m.clone()).collect();
        let scalar_widths: Vec<u32> = iface.scalars().map(|(_, s)| s.width).collect();
        let result_widths: Vec<u32> = iface.results.iter().map(|r| r.width).collect();
        let bw = self.byte_index.width;
        let ww = self.word.width;

        // Receiving: the header.
        let header_byte = hw.and(header, valid);
        let hc = self.header_count.q;
        let hc_at = |hw: &mut Hw<'_>, n: u128| {
            let e = eq_const(hw, hc, n);
            hw.and(header_byte, e)
        };
        let take_command = hc_at(hw, 0);
        let take_target = hc_at(hw, 1);
        let hc_hi = hw.extract(hc, 1, 2);
        let addr_slot = {
            let a = eq_const(hw, hc_hi, 1);
            let b = eq_const(hw, hc_hi, 2);
            let either = hw.any(&[a, b]);
            hw.and(header_byte, either)
        };
        let count_slot = {
            let a = eq_const(hw, hc_hi, 3);
            hw.and(header_byte, a)
        };
        let last_header = hc_at(hw, p::HEADER_BYTES as u128 - 1);
        hw.connect(self.command, &[(take_command, byte)]);
        let target_writes = vec![(take_target, byte)];
        let addr_high = hw.extract(self.address.q, 8, 24);
        let addr_shifted = hw.concat(byte, addr_high);
        let count_high = hw.extract(self.count.q, 8, 8);
        let count_shifted = hw.concat(byte, count_high);
        let hc_next = add_const(hw, hc, 1);
        let zero3 = hw.constant(0, 3);
        let not_header = hw.not(header);
        hw.connect(
            self.header_count,
            &[(header_byte, hc_next), (not_header, zero3)],
        );
        hw.connect(self.target, &target_writes);
        hw.connect(self.count, &[(count_slot, count_shifted)]);

        // Decoding: the errors a header can have.
        let idle = core.idle;
        let busy = hw.not(idle);
        let n_mems = mems.len();
        let below = |hw: &mut Hw<'_>, n: usize| {
            if n == 0 {
                hw.constant(0, 1)
            } else {
                let k = hw.constant(n as u128, 8);
                hw.icmp(6, self.target.q, k)
            }
        };
        let mem_target = below(hw, n_mems);
        let scalar_target = below(hw, scalar_widths.len());
        let result_target = below(hw, result_widths.len());
        let words = select_const(
            hw,
            &target_is,
            &mems.iter().map(|m| u128::from(m.words)).collect::<Vec<_>>(),
            34,
        );
        let addr34 = hw.resize(self.address.q, 34, false);
        let count34 = hw.resize(self.count.q, 34, false);
        let end = hw.comb("comb.add", &[addr34, count34]);
        let fits = hw.icmp(7, end, words);
        let nonzero = {
            let z = eq_const(hw, self.count.q, 0);
            hw.not(z)
        };
        let range_ok = hw.and(fits, nonzero);
        let is_write_mem = is(hw, p::WRITE_MEMORY);
        let is_read_mem = is(hw, p::READ_MEMORY);
        let is_write_scalar = is(hw, p::WRITE_SCALAR);
        let is_start = is(hw, p::START);
        let is_status = is(hw, p::STATUS);
        let is_read_result = is(hw, p::READ_RESULT);
        let is_mem = hw.any(&[is_write_mem, is_read_mem]);
        let code = |hw: &mut Hw<'_>, c: u8| hw.constant(u128::from(c), 8);
        let ok8 = code(hw, p::OK);
        // Per command, the first error found (or OK).
        let mem_error = {
            let busy_code = code(hw, p::BUSY);
            let range_code = code(hw, p::BAD_RANGE);
            let target_code = code(hw, p::BAD_TARGET);
            let e = hw.mux(busy, busy_code, ok8);
            let not_range = hw.not(range_ok);
            let e = hw.mux(not_range, range_code, e);
            let not_target = hw.not(mem_target);
            hw.mux(not_target, target_code, e)
        };
        let scalar_error = {
            let busy_code = code(hw, p::BUSY);
            let target_code = code(hw, p::BAD_TARGET);
            let e = hw.mux(busy, busy_code, ok8);
            let not_target = hw.not(scalar_target);
            hw.mux(not_target, target_code, e)
        };
        let start_error = {
            let busy_code = code(hw, p::BUSY);
            hw.mux(busy, busy_code, ok8)
        };
        let result_error = {
            let target_code = code(hw, p::BAD_TARGET);
            let not_target = hw.not(result_target);
            hw.mux(not_target, target_code, ok8)
        };
        let mut decoded = code(hw, p::BAD_COMMAND);
        for (c, e) in [
            (is_mem, mem_error),
            (is_write_scalar, scalar_error),
            (is_start, start_error),
            (is_status, ok8),
            (is_read_result, result_error),
        ] {
            decoded = hw.mux(c, e, decoded);
        }
        let refused = {
            let z = eq_const(hw, decoded, 0);
            hw.not(z)
        };
        let decode_refused = hw.and(decode, refused);
        let accepted = hw.not(refused);
        let decode_ok = hw.and(decode, accepted);
        let has_payload = hw.any(&[is_write_mem, is_write_scalar]);
        let to_payload = hw.and(decode_ok, has_payload);
        let no_payload = hw.not(has_payload);
        let to_check = hw.and(decode_ok, no_payload);
        // The word size and the number of words of the frame or reply.
        let bytes_of = |ws: &[u32]| -> Vec<u128> {
            ws.iter().map(|&w| p::word_bytes(w) as u128 - 1).collect()
        };
        let mem_last = select_const(
            hw,
            &target_is,
            &bytes_of(&mems.iter().map(|m| m.element_width).collect::<Vec<_>>()),
            bw,
        );
        let scalar_last = select_const(hw, &target_is, &bytes_of(&scalar_widths), bw);
        let result_last = select_const(hw, &target_is, &bytes_of(&result_widths), bw);
        let status_last = hw.constant(p::STATUS_BYTES as u128 - 1, bw);
        let mut last = status_last;
        last = hw.mux(is_read_result, result_last, last);
        last = hw.mux(is_write_scalar, scalar_last, last);
        last = hw.mux(is_mem, mem_last, last);
        let one16 = hw.constant(1, 16);
        let words_left = hw.mux(is_mem, self.count.q, one16);

        // Receiving: the payload, word by word.
        let payload_byte = hw.and(payload, valid);
        let index = self.byte_index.q;
        let at_last_byte = hw.icmp(0, index, self.last_byte.q);
        let shift = {
            let z3 = hw.constant(0, 3);
            let bits = hw.concat(index, z3);
            hw.resize(bits, ww, false)
        };
        let byte_wide = hw.resize(byte, ww, false);
        let placed = hw.comb("comb.shl", &[byte_wide, shift]);
        let first = eq_const(hw, index, 0);
        let zero_word = hw.constant(0, ww);
        let base = hw.mux(first, zero_word, self.word.q);
        let assembled = hw.comb("comb.or", &[base, placed]);
        let word_done = hw.and(payload_byte, at_last_byte);
        let last_word = eq_const(hw, self.left.q, 1);
        let payload_end = hw.and(word_done, last_word);

        // Receiving: the checksum, then acting.
        let check_byte = hw.and(check, valid);
        let total = hw.comb("comb.add", &[self.sum.q, byte]);
        let sum_ok = eq_const(hw, total, 0);
        let act = hw.and(check_byte, sum_ok);
        let sum_bad = hw.not(sum_ok);
        let bad_sum = hw.and(check_byte, sum_bad);
        let started = hw.and(act, is_start);
        for (s, reg) in self.scalars.clone().into_iter().enumerate() {
            let t = target_is(hw, s);
            let mine = hw.and(t, is_write_scalar);
            let set = hw.and(act, mine);
            let v = hw.extract(self.word.q, 0, reg.width);
            hw.connect(reg, &[(set, v)]);
        }
        hw.connect(self.start, &[(started, one), (one, zero)]);

        // Silence in the middle of a frame, or after a refused header.
        let gap_full = {
            let k = hw.constant(self.timeout, self.gap.width);
            hw.icmp(0, self.gap.q, k)
        };
        let gap_next = add_const(hw, self.gap.q, 1);
        let gap_zero = hw.constant(0, self.gap.width);
        let counting = hw.not(gap_full);
        hw.connect(self.gap, &[(valid, gap_zero), (counting, gap_next)]);
        let quiet = {
            let nv = hw.not(valid);
            hw.and(gap_full, nv)
        };
        let started_frame = {
            let z = eq_const(hw, hc, 0);
            let nz = hw.not(z);
            hw.and(header, nz)
        };
        let mid_frame = hw.any(&[started_frame, payload, check]);
        let stalled = hw.and(mid_frame, quiet);
        let discarded = hw.and(discard, quiet);

        // Replying.
        let ready = tx.ready;
        let sending_state = hw.any(&[reply_status, reply_command, send_word, reply_sum]);
        let send = hw.and(ready, sending_state);
        let status_sent = hw.and(ready, reply_status);
        let command_sent = hw.and(ready, reply_command);
        let word_sent_byte = hw.and(ready, send_word);
        let sum_sent = hw.and(ready, reply_sum);
        let out_shift = shift;
        let shifted = hw.comb("comb.shru", &[self.word.q, out_shift]);
        let out_byte = hw.extract(shifted, 0, 8);
        let neg_sum = {
            let z = hw.constant(0, 8);
            hw.comb("comb.sub", &[z, self.reply_sum.q])
        };
        let mut tx_byte = neg_sum;
        tx_byte = hw.mux(send_word, out_byte, tx_byte);
        tx_byte = hw.mux(reply_command, self.command.q, tx_byte);
        tx_byte = hw.mux(reply_status, self.error.q, tx_byte);
        tx.connect(hw, self.divider, send, tx_byte);
        let failed = {
            let z = eq_const(hw, self.error.q, 0);
            hw.not(z)
        };
        let succeeded = hw.not(failed);
        let word_end = hw.and(word_sent_byte, at_last_byte);
        let reply_end = hw.and(word_end, last_word);
        let more_words = {
            let nl = hw.not(last_word);
            hw.and(word_end, nl)
        };
        let command_ok = hw.and(command_sent, succeeded);
        let to_fetch = hw.and(command_ok, is_read_mem);
        let one_word = hw.any(&[is_read_result, is_status]);
        let to_send = hw.and(command_ok, one_word);
        let to_sum = {
            let fetching = hw.any(&[is_read_mem, one_word]);
            let nf = hw.not(fetching);
            let plain = hw.and(command_ok, nf);
            let failed_sent = hw.and(command_sent, failed);
            hw.any(&[plain, failed_sent, reply_end])
        };

        // The reply's sources: status, results, RAM read data.
        let status_word = {
            let z6 = hw.constant(0, 6);
            let f1 = hw.concat(self.finished.q, idle);
            let flags = hw.concat(z6, f1);
            let w = hw.concat(self.cycles.q, flags);
            hw.resize(w, ww, false)
        };
        let mut result_word = zero_word;
        for (r, &v) in core.results.iter().enumerate() {
            let t = target_is(hw, r);
            let wide = hw.resize(v, ww, false);
            result_word = hw.mux(t, wide, result_word);
        }
        let source = hw.mux(is_status, status_word, result_word);
        let mut ram_word = zero_word;
        for (mi, &q) in core.q0.iter().enumerate() {
            let t = target_is(hw, mi);
            let wide = hw.resize(q, ww, false);
            ram_word = hw.mux(t, wide, ram_word);
        }

        // The shell's accesses to the RAMs (port 0 when the core's ce is
        // low: the core only accesses its memories while it runs).
        let addr_next = add_const(hw, self.address.q, 1);
        for (mi, m) in mems.iter().enumerate() {
            let t = target_is(hw, mi);
            let write_mine = hw.and(t, is_write_mem);
            let shell_we = hw.and(word_done, write_mine);
            let shell_re = hw.and(fetch, t);
            let shell_ce = hw.any(&[shell_we, shell_re]);
            let shell_addr = hw.extract(self.address.q, 0, m.address_width);
            let shell_d = hw.extract(assembled, 0, m.element_width);
            let [addr, ce, we, d] = core.port0[mi];
            let address = hw.mux(ce, addr, shell_addr);
            let enable = hw.any(&[ce, shell_ce]);
            let write = hw.mux(ce, we, shell_we);
            let data = hw.mux(ce, d, shell_d);
            let (handle, read_port) = core.rams[mi];
            connect_port(hw, handle, read_port, [address, enable, write, data]);
        }

        // The registers' next values.
        let s = |hw: &mut Hw<'_>, n| st(hw, n);
        let decode_s = s(hw, state::DECODE);
        let payload_s = s(hw, state::PAYLOAD);
        let check_s = s(hw, state::CHECK);
        let discard_s = s(hw, state::DISCARD);
        let status_s = s(hw, state::REPLY_STATUS);
        let command_s = s(hw, state::REPLY_COMMAND);
        let fetch_s = s(hw, state::FETCH);
        let load_s = s(hw, state::LOAD);
        let send_s = s(hw, state::SEND);
        let sum_s = s(hw, state::REPLY_SUM);
        let header_s = s(hw, state::HEADER);
        let timed_out = hw.any(&[stalled, discarded]);
        let checked = check_byte;
        hw.connect(
            self.state,
            &[
                (last_header, decode_s),
                (decode_refused, discard_s),
                (to_payload, payload_s),
                (to_check, check_s),
                (payload_end, check_s),
                (checked, status_s),
                (timed_out, status_s),
                (status_sent, command_s),
                (to_fetch, fetch_s),
                (to_send, send_s),
                (to_sum, sum_s),
                (fetch, load_s),
                (load, send_s),
                (more_words, fetch_s),
                (sum_sent, header_s),
            ],
        );
        let bad_checksum = code(hw, p::BAD_CHECKSUM);
        let timeout_code = code(hw, p::TIMEOUT);
        hw.connect(
            self.error,
            &[
                (decode_refused, decoded),
                (bad_sum, bad_checksum),
                (stalled, timeout_code),
                (sum_sent, ok8),
            ],
        );
        let receiving_byte = {
            let r = hw.any(&[header, payload, check]);
            hw.and(r, valid)
        };
        let receiving = hw.any(&[header, decode, payload, check]);
        let not_receiving = hw.not(receiving);
        let sum_next = hw.comb("comb.add", &[self.sum.q, byte]);
        let zero8 = hw.constant(0, 8);
        hw.connect(
            self.sum,
            &[(receiving_byte, sum_next), (not_receiving, zero8)],
        );
        let rs_add = |hw: &mut Hw<'_>, b: ValueId| hw.comb("comb.add", &[self.reply_sum.q, b]);
        let rs_command = rs_add(hw, self.command.q);
        let rs_word = rs_add(hw, out_byte);
        hw.connect(
            self.reply_sum,
            &[
                (status_sent, self.error.q),
                (command_sent, rs_command),
                (word_sent_byte, rs_word),
            ],
        );
        hw.connect(
            self.word,
            &[
                (payload_byte, assembled),
                (to_send, source),
                (load, ram_word),
            ],
        );
        let index_next = add_const(hw, index, 1);
        let zero_index = hw.constant(0, bw);
        let byte_in = hw.any(&[payload_byte, word_sent_byte]);
        let byte_last = hw.and(byte_in, at_last_byte);
        hw.connect(
            self.byte_index,
            &[
                (decode, zero_index),
                (to_send, zero_index),
                (byte_last, zero_index),
                (byte_in, index_next),
            ],
        );
        hw.connect(self.last_byte, &[(decode, last)]);
        let left_next = {
            let k = hw.constant(1, 16);
            hw.comb("comb.sub", &[self.left.q, k])
        };
        let word_counted = hw.any(&[word_done, word_end]);
        hw.connect(
            self.left,
            &[(decode, words_left), (word_counted, left_next)],
        );
        let write_step = hw.and(word_done, is_write_mem);
        hw.connect(
            self.address,
            &[
                (addr_slot, addr_shifted),
                (write_step, addr_next),
                (load, addr_next),
            ],
        );

        // The run: started, finished, its cycles.
        hw.connect(self.running, &[(self.start.q, one), (core.done, zero)]);
        hw.connect(self.finished, &[(self.start.q, zero), (core.done, one)]);
        let one32 = hw.constant(1, 32);
        let cycles_next = add_const(hw, self.cycles.q, 1);
        let not_done = hw.not(core.done);
        let ticking = hw.and(self.running.q, not_done);
        hw.connect(
            self.cycles,
            &[(self.start.q, one32), (ticking, cycles_next)],
        );
    }
}

/// The constant `values[target]` at `width` bits (0 for other targets).
fn select_const(
    hw: &mut Hw<'_>,
    target_is: &dyn Fn(&mut Hw<'_>, usize) -> ValueId,
    values: &[u128],
    width: u32,
) -> ValueId {
    let mut v = hw.constant(0, width);
    for (i, &c) in values.iter().enumerate() {
        let t = target_is(hw, i);
        let k = hw.constant(c, width);
        v = hw.mux(t, k, v);
    }
    v
}

/// Which memory and port a `<A>_q<p>` input is.
fn memory_port_of(iface: &Interface, name: &str) -> Option<(usize, usize)> {
    iface.memories().enumerate().find_map(|(mi, (arg, m))| {
        (0..m.ports)
            .find(|&pi| names::q(&arg.name, pi) == name)
            .map(|pi| (mi, pi as usize))
    })
}

/// Connects a RAM port (read port `read_port` and a new write port of
/// `handle`) to address, ce, we, d, as the core's memory contract reads
/// them (a read when ce and not we, a write when both).
fn connect_port(
    hw: &mut Hw<'_>,
    handle: ValueId,
    read_port: silica_ir::OpId,
    [address, ce, we, data]: [ValueId; 4],
) {
    let not_we = hw.not(we);
    let read = hw.and(ce, not_we);
    hw.ir.set_operand(read_port, 1, address);
    hw.ir.set_operand(read_port, 3, read);
    let write = hw.and(ce, we);
    let seg = hw.ctx.int_array_attr(32, &[1, 1, 1, 1, 1, 0]);
    let clock = hw.clock;
    hw.op(
        "seq.firmem.write_port",
        &[handle, address, clock, write, data],
        &[],
        vec![("operandSegmentSizes", seg)],
        vec![],
    );
}

/// The core's `hw.instance` with `operands` (its inputs in order); gives
/// its outputs in order.
fn instance(hw: &mut Hw<'_>, iface: &Interface, operands: &[ValueId]) -> Vec<ValueId> {
    let ports = iface.ports();
    let ins: Vec<&str> = ports
        .iter()
        .filter(|p| p.direction == Direction::In)
        .map(|p| p.name.as_str())
        .collect();
    let outs: Vec<(&str, u32)> = ports
        .iter()
        .filter(|p| p.direction == Direction::Out)
        .map(|p| (p.name.as_str(), p.width))
        .collect();
    let typed: Vec<(&str, Type)> = outs.iter().map(|o| (o.0, hw.int(o.1))).collect();
    let inst = hw.instance(&iface.top, "core", operands, &ins, &typed);
    (0..outs.len()).map(|i| hw.ir.result(inst, i)).collect()
}
