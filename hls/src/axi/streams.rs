//! The stream server: the AXI4 master's side of the core's streamed DMA
//! engines (`Interface::streams`), active while the core runs. It takes
//! one engine's command at a time (the lowest-numbered engine offering
//! one; `cmd_ready` a cycle later, from a register, since the core's
//! outputs must not reach its inputs through logic), and moves the tile it describes between host memory and the
//! engine as `INCR` bursts: a row (`per` words from `row`, rows `stride`
//! words apart) at a time, at most 256 beats and never across a 4 KiB
//! page; a load's beats go to the engine as they arrive, a store's beats
//! are the engine's words. After a transfer's last beat (a load) or its
//! last write response (a store) it raises the engine's `done`. Error
//! responses, and `rlast` off a burst's last beat, set the sticky
//! `ap_error` as the copy engine's do.
//!
//! States: idle, address (the burst's `ar` or `aw`), read beats, write
//! beats, write response.

use super::ports::master;
use super::regmap::element_bits;
use super::wrapper::Wrapper;
use super::DATA_WIDTH;
use crate::build::hw::Reg;
use crate::interface::{names, Stream};
use silica_ir::ValueId;

const IDLE: u128 = 0;
const ADDRESS: u128 = 1;
const READ: u128 = 2;
const WRITE: u128 = 3;
const RESPONSE: u128 = 4;
const STATE_BITS: u32 = 3;

/// A route of some stream: the stream, the memref's base, log2 of its
/// element's bytes, the direction.
struct Route {
    stream: usize,
    base: ValueId,
    size: u32,
    store: bool,
}

/// What the copy engine needs of the server.
pub(super) struct Server {
    /// No transfer under way and none offered.
    pub idle: ValueId,
    /// A transfer under way: the master's channels are the server's.
    pub busy: ValueId,
    /// The master's outputs, by signal name.
    pub outputs: Vec<(&'static str, ValueId)>,
}

fn bits_for(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

/// The core's output `signal` of stream `s`.
fn core_out(w: &Wrapper<'_, '_>, s: &Stream, signal: &str) -> ValueId {
    w.core[&names::stream(&s.name, signal)]
}

/// Builds the server of `w.iface.streams` (none: `None`), serving while
/// `running`; sets `error` on a bad response; connects the core's stream
/// inputs.
pub(super) fn build(
    w: &mut Wrapper<'_, '_>,
    lite: &super::lite::Lite,
    running: ValueId,
    error: Reg,
) -> Option<Server> {
    let streams = w.iface.streams.clone();
    if streams.is_empty() {
        return None;
    }
    let mut routes = Vec::new();
    let mut first_route = Vec::new();
    for (i, s) in streams.iter().enumerate() {
        first_route.push(routes.len());
        for r in &s.routes {
            let (_, m) = w
                .iface
                .memories()
                .find(|(a, _)| a.name == r.memory)
                .expect("a stream's memory is a memref argument");
            let size = element_bits(m.element_width).trailing_zeros() - 3;
            let base = lite.base(w, &r.memory);
            routes.push(Route {
                stream: i,
                base,
                size,
                store: r.store,
            });
        }
    }
    let state = w.hw.reg("sv_state", STATE_BITS, Some(IDLE));
    let route =
        w.hw.reg("sv_route", bits_for(routes.len() as u64 - 1), None);
    let row = w.hw.reg("sv_row", 64, None);
    let col = w.hw.reg("sv_col", 64, None);
    let left = w.hw.reg("sv_left", 64, None);
    let per = w.hw.reg("sv_per", 64, None);
    let stride = w.hw.reg("sv_stride", 64, None);
    let addr = w.hw.reg("sv_addr", 64, None);
    let beats = w.hw.reg("sv_beats", 8, None);
    let len = w.hw.reg("sv_len", 8, None);
    let ack = w.hw.reg("sv_ack", 1, Some(0));
    let st: Vec<ValueId> = (0..=RESPONSE).map(|s| w.eq_const(state.q, s)).collect();
    let st = |s: u128| st[s as usize];
    let to = |w: &mut Wrapper<'_, '_>, s: u128| w.hw.constant(s, STATE_BITS);
    let one = w.hw.constant(1, 1);
    let always = one;
    // Taking a command: the lowest-numbered stream offering one.
    let waiting = w.hw.and(st(IDLE), running);
    let mut offered = Vec::new();
    let mut taken_route = w.hw.constant(0, route.width);
    let mut cmd = [(); 4].map(|_| w.hw.constant(0, 64));
    for (i, s) in streams.iter().enumerate().rev() {
        let valid = core_out(w, s, "cmd_valid");
        let r = core_out(w, s, "cmd_route");
        let r = w.hw.resize(r, route.width, false);
        let offset = w.hw.constant(first_route[i] as u128, route.width);
        let g = w.add(r, offset);
        taken_route = w.hw.mux(valid, g, taken_route);
        for (f, signal) in ["cmd_row", "cmd_count", "cmd_per", "cmd_stride"]
            .iter()
            .enumerate()
        {
            let v = core_out(w, s, signal);
            let v = w.hw.resize(v, 64, false);
            cmd[f] = w.hw.mux(valid, v, cmd[f]);
        }
        offered.push(valid);
    }
    offered.reverse();
    let any_offer = w.hw.any(&offered);
    let take = w.hw.and(waiting, any_offer);
    // By route: base, size, direction, stream.
    let route_is = |w: &mut Wrapper<'_, '_>, r: ValueId, g: usize| w.eq_const(r, g as u128);
    let pick = |w: &mut Wrapper<'_, '_>, r: ValueId, values: &[ValueId]| {
        let mut v = values[values.len() - 1];
        for (g, &x) in values.iter().enumerate().rev().skip(1) {
            let is = route_is(w, r, g);
            v = w.hw.mux(is, x, v);
        }
        v
    };
    let bases: Vec<ValueId> = routes.iter().map(|r| r.base).collect();
    let sizes: Vec<ValueId> = routes
        .iter()
        .map(|r| w.hw.constant(u128::from(r.size), 64))
        .collect();
    let stores: Vec<ValueId> = routes
        .iter()
        .map(|r| w.hw.constant(u128::from(r.store), 1))
        .collect();
    let new_base = pick(w, taken_route, &bases);
    let new_size = pick(w, taken_route, &sizes);
    let row_bytes = w.hw.comb("comb.shl", &[cmd[0], new_size]);
    let first_row = w.add(new_base, row_bytes);
    let stride_bytes = w.hw.comb("comb.shl", &[cmd[3], new_size]);
    let zero64 = w.hw.constant(0, 64);
    w.write(route, take, taken_route);
    w.write(ack, always, take);
    w.write(row, take, first_row);
    w.write(col, take, zero64);
    w.write(left, take, cmd[1]);
    w.write(per, take, cmd[2]);
    w.write(stride, take, stride_bytes);
    let next = to(w, ADDRESS);
    w.write(state, take, next);
    // The burst: the rest of the row, at most 256 beats, within a page.
    let size = pick(w, route.q, &sizes);
    let store = pick(w, route.q, &stores);
    let load = w.hw.not(store);
    let col_bytes = w.hw.comb("comb.shl", &[col.q, size]);
    let address = w.add(row.q, col_bytes);
    let in_row = w.hw.comb("comb.sub", &[per.q, col.q]);
    let most = w.hw.constant(256, 64);
    let fewer = w.hw.icmp(6, in_row, most);
    let n = w.hw.mux(fewer, in_row, most);
    let page = w.hw.constant(4096, 64);
    let in_page = w.hw.extract(address, 0, 12);
    let in_page = w.hw.resize(in_page, 64, false);
    let page_bytes = w.hw.comb("comb.sub", &[page, in_page]);
    let page_beats = w.hw.comb("comb.shru", &[page_bytes, size]);
    let shorter = w.hw.icmp(6, page_beats, n);
    let n = w.hw.mux(shorter, page_beats, n);
    let one64 = w.hw.constant(1, 64);
    let burst_len = w.hw.comb("comb.sub", &[n, one64]);
    let burst_len = w.hw.extract(burst_len, 0, 8);
    let size3 = w.hw.extract(size, 0, 3);
    let arvalid = w.hw.and(st(ADDRESS), load);
    let awvalid = w.hw.and(st(ADDRESS), store);
    let (arready, awready) = (w.input(&master("arready")), w.input(&master("awready")));
    let ar_fire = w.hw.and(arvalid, arready);
    let aw_fire = w.hw.and(awvalid, awready);
    let a_fire = w.hw.any(&[ar_fire, aw_fire]);
    w.write(beats, a_fire, burst_len);
    w.write(len, a_fire, burst_len);
    w.write(addr, a_fire, address);
    let next = to(w, READ);
    w.write(state, ar_fire, next);
    let next = to(w, WRITE);
    w.write(state, aw_fire, next);
    // Beats: lanes by the beat's address.
    let lane = w.hw.extract(addr.q, 0, 3);
    let zeros3 = w.hw.constant(0, 3);
    let lane_bits = w.hw.concat(lane, zeros3);
    let lane_bits = w.hw.resize(lane_bits, DATA_WIDTH, false);
    let size_bytes = w.hw.comb("comb.shl", &[one64, size]);
    let next_addr = w.add(addr.q, size_bytes);
    let last_beat = w.eq_const(beats.q, 0);
    let one8 = w.hw.constant(1, 8);
    let fewer_beats = w.hw.comb("comb.sub", &[beats.q, one8]);
    let stream_is: Vec<ValueId> = (0..streams.len())
        .map(|i| {
            let of: Vec<ValueId> = routes
                .iter()
                .map(|r| w.hw.constant(u128::from(r.stream == i), 1))
                .collect();
            pick(w, route.q, &of)
        })
        .collect();
    // Read beats go to the engine as they come.
    let rvalid = w.input(&master("rvalid"));
    let rresp = w.input(&master("rresp"));
    let rlast = w.input(&master("rlast"));
    let rdata = w.input(&master("rdata"));
    let r_beat = w.hw.and(st(READ), rvalid);
    let okay = w.eq_const(rresp, 0);
    let resp_bad = w.hw.not(okay);
    let last_wrong = w.hw.comb("comb.xor", &[rlast, last_beat]);
    let bad = w.hw.any(&[resp_bad, last_wrong]);
    let bad = w.hw.and(r_beat, bad);
    w.write(error, bad, one);
    let word = w.hw.comb("comb.shru", &[rdata, lane_bits]);
    // Write beats are the engine's words.
    let mut core_wvalid = w.hw.constant(0, 1);
    let mut core_wdata = w.hw.constant(0, DATA_WIDTH);
    for (i, s) in streams.iter().enumerate() {
        let v = core_out(w, s, "wvalid");
        core_wvalid = w.hw.mux(stream_is[i], v, core_wvalid);
        let d = core_out(w, s, "wdata");
        let d = w.hw.resize(d, DATA_WIDTH, false);
        core_wdata = w.hw.mux(stream_is[i], d, core_wdata);
    }
    let wvalid = w.hw.and(st(WRITE), core_wvalid);
    let wready = w.input(&master("wready"));
    let w_beat = w.hw.and(wvalid, wready);
    let wdata = w.hw.comb("comb.shl", &[core_wdata, lane_bits]);
    let mut strobe = w.hw.constant(0, 8);
    for (g, r) in routes.iter().enumerate() {
        let lanes = w.hw.constant((1u128 << (1 << r.size)) - 1, 8);
        let is = route_is(w, route.q, g);
        strobe = w.hw.mux(is, lanes, strobe);
    }
    let lane8 = w.hw.resize(lane, 8, false);
    let wstrb = w.hw.comb("comb.shl", &[strobe, lane8]);
    let beat = w.hw.any(&[r_beat, w_beat]);
    w.write(addr, beat, next_addr);
    w.write(beats, beat, fewer_beats);
    let w_last = w.hw.and(w_beat, last_beat);
    let next = to(w, RESPONSE);
    w.write(state, w_last, next);
    let bvalid = w.input(&master("bvalid"));
    let bresp = w.input(&master("bresp"));
    let response = w.hw.and(st(RESPONSE), bvalid);
    let okay = w.eq_const(bresp, 0);
    let resp_bad = w.hw.not(okay);
    let bad = w.hw.and(response, resp_bad);
    w.write(error, bad, one);
    // A burst's end: the next row or burst, or the transfer done.
    let r_last = w.hw.and(r_beat, last_beat);
    let burst_end = w.hw.any(&[r_last, response]);
    let len64 = w.hw.resize(len.q, 64, false);
    let moved = w.add(len64, one64);
    let col_after = w.add(col.q, moved);
    let left_after = w.hw.comb("comb.sub", &[left.q, moved]);
    let finished = w.eq_const(left_after, 0);
    let done = w.hw.and(burst_end, finished);
    let not_finished = w.hw.not(finished);
    let more = w.hw.and(burst_end, not_finished);
    let next = to(w, IDLE);
    w.write(state, done, next);
    let next = to(w, ADDRESS);
    w.write(state, more, next);
    w.write(left, burst_end, left_after);
    let row_over = w.eq(col_after, per.q);
    let new_row = w.hw.and(more, row_over);
    let next_row = w.add(row.q, stride.q);
    w.write(row, new_row, next_row);
    w.write(col, new_row, zero64);
    w.write(col, more, col_after);
    // The core's stream inputs.
    for (i, s) in streams.iter().enumerate() {
        let mine_r = w.hw.and(r_beat, stream_is[i]);
        let data = w.hw.extract(word, 0, s.data_width);
        let mine_w = w.hw.and(st(WRITE), stream_is[i]);
        let w_ready = w.hw.and(mine_w, wready);
        let mine_done = w.hw.and(done, stream_is[i]);
        let ready = w.hw.and(ack.q, stream_is[i]);
        for (signal, v) in [
            ("cmd_ready", ready),
            ("rvalid", mine_r),
            ("rdata", data),
            ("wready", w_ready),
            ("done", mine_done),
        ] {
            w.connect_core_input(&names::stream(&s.name, signal), v);
        }
    }
    let not_idle = w.hw.not(st(IDLE));
    let no_offer = w.hw.not(any_offer);
    let idle = w.hw.and(st(IDLE), no_offer);
    let incr = w.hw.constant(1, 2);
    let outputs = vec![
        ("awaddr", address),
        ("awlen", burst_len),
        ("awsize", size3),
        ("awburst", incr),
        ("awvalid", awvalid),
        ("wdata", wdata),
        ("wstrb", wstrb),
        ("wlast", last_beat),
        ("wvalid", wvalid),
        ("bready", st(RESPONSE)),
        ("araddr", address),
        ("arlen", burst_len),
        ("arsize", size3),
        ("arburst", incr),
        ("arvalid", arvalid),
        ("rready", st(READ)),
    ];
    Some(Server {
        idle,
        busy: not_idle,
        outputs,
    })
}
