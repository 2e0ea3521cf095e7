//! The stream server: the AXI4 master's side of the core's streamed DMA
//! engines (`Interface::streams`), active while the core runs. It takes
//! each engine's command as soon as that engine has no transfer with the
//! server (`cmd_ready` a cycle later, from a register, since the core's
//! outputs must not reach its inputs through logic), keeping one
//! transfer per engine: the tile's next row (`per` words from `row`, rows
//! `stride` words apart), the column in it and the words left. It moves
//! tiles between host memory and the engines as `INCR` bursts, one at a
//! time: at most 256 beats, never past a row's end nor across a 4 KiB
//! page; a load's beats go to the engine as they arrive, a store's beats
//! are the engine's words. Between bursts it picks the transfer to serve
//! next: the lowest-numbered engine whose `waited` is high (the
//! controller waits for it), else the engine it served last while its
//! transfer lasts, else the lowest-numbered engine with a transfer; so
//! the transfer the core waits for goes ahead of prefetches, burst by
//! burst. After a transfer's last beat (a load) or its last write
//! response (a store) it raises the engine's `done`. Error responses,
//! and `rlast` off a burst's last beat, set the sticky `ap_error` as the
//! copy engine's do.
//!
//! States: idle, address (the burst's `ar` or `aw`), read beats, write
//! beats, write response.

use super::ports::master;
use super::wrapper::Wrapper;
use crate::flow::construct::hw::Reg;
use crate::model::interface::{names, Stream};
use crate::model::register_map::element_bits;
use silica_ir::ValueId;

const IDLE: u128 = 0;
const ADDRESS: u128 = 1;
const READ: u128 = 2;
const WRITE: u128 = 3;
const RESPONSE: u128 = 4;
const STATE_BITS: u32 = 3;

/// A route of some stream: the memref's base, log2 of its element's
/// bytes, the direction.
struct Route {
    base: ValueId,
    size: u32,
    store: bool,
}

/// One engine's transfer with the server.
struct Transfer {
    /// Taken and not finished.
    pending: Reg,
    /// The engine's `cmd_ready` (the cycle after taking).
    ack: Reg,
    /// The route (numbered over all streams).
    route: Reg,
    /// The current row's byte address, the column in it (words), the
    /// words left, the words per row, the rows' distance (bytes).
    row: Reg,
    col: Reg,
    left: Reg,
    per: Reg,
    stride: Reg,
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

/// `values[index]` (the last one for larger indices).
fn pick(w: &mut Wrapper<'_, '_>, index: ValueId, values: &[ValueId]) -> ValueId {
    let mut v = values[values.len() - 1];
    for (g, &x) in values.iter().enumerate().rev().skip(1) {
        let is = w.eq_const(index, g as u128);
        v = w.hw.mux(is, x, v);
    }
    v
}

/// The field `f` of the transfer of the stream `cur` selects.
fn current(
    w: &mut Wrapper<'_, '_>,
    cur_is: &[ValueId],
    transfers: &[Transfer],
    f: fn(&Transfer) -> Reg,
) -> ValueId {
    let mut v = f(&transfers[transfers.len() - 1]).q;
    for (i, t) in transfers.iter().enumerate().rev().skip(1) {
        v = w.hw.mux(cur_is[i], f(t).q, v);
    }
    v
}

/// The first of `conds` that holds, as an index of `bits` bits, and
/// whether any holds.
fn first(w: &mut Wrapper<'_, '_>, conds: &[ValueId], bits: u32) -> (ValueId, ValueId) {
    let mut v = w.hw.constant(0, bits);
    for (i, &c) in conds.iter().enumerate().rev() {
        let iv = w.hw.constant(i as u128, bits);
        v = w.hw.mux(c, iv, v);
    }
    (v, w.hw.any(conds))
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
    for s in &streams {
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
                base,
                size,
                store: r.store,
            });
        }
    }
    let route_bits = bits_for(routes.len() as u64 - 1);
    let cur_bits = bits_for(streams.len() as u64 - 1);
    let state = w.hw.reg("sv_state", STATE_BITS, Some(IDLE));
    let cur = w.hw.reg("sv_cur", cur_bits, None);
    let addr = w.hw.reg("sv_addr", 64, None);
    let beats = w.hw.reg("sv_beats", 8, None);
    let len = w.hw.reg("sv_len", 8, None);
    let transfers: Vec<Transfer> = (0..streams.len())
        .map(|i| {
            let mut reg =
                |field: &str, width, reset| w.hw.reg(&format!("sv{i}_{field}"), width, reset);
            Transfer {
                pending: reg("pending", 1, Some(0)),
                ack: reg("ack", 1, Some(0)),
                route: reg("route", route_bits, None),
                row: reg("row", 64, None),
                col: reg("col", 64, None),
                left: reg("left", 64, None),
                per: reg("per", 64, None),
                stride: reg("stride", 64, None),
            }
        })
        .collect();
    let st: Vec<ValueId> = (0..=RESPONSE).map(|s| w.eq_const(state.q, s)).collect();
    let st = |s: u128| st[s as usize];
    let to = |w: &mut Wrapper<'_, '_>, s: u128| w.hw.constant(s, STATE_BITS);
    let one = w.hw.constant(1, 1);
    let zero = w.hw.constant(0, 1);
    let zero64 = w.hw.constant(0, 64);
    let sizes: Vec<ValueId> = routes
        .iter()
        .map(|r| w.hw.constant(u128::from(r.size), 64))
        .collect();
    let stores: Vec<ValueId> = routes
        .iter()
        .map(|r| w.hw.constant(u128::from(r.store), 1))
        .collect();
    // Taking commands: each engine's as soon as it has no transfer here.
    let mut offered = Vec::new();
    let mut takes = Vec::new();
    for (i, s) in streams.iter().enumerate() {
        let t = &transfers[i];
        let valid = core_out(w, s, "cmd_valid");
        offered.push(valid);
        let busy = w.hw.any(&[t.pending.q, t.ack.q]);
        let free = w.hw.not(busy);
        let take = w.hw.and(valid, free);
        let take = w.hw.and(take, running);
        takes.push(take);
        let n = s.routes.len();
        let mine = first_route[i]..first_route[i] + n;
        let local = core_out(w, s, "cmd_route");
        let bases: Vec<ValueId> = routes[mine.clone()].iter().map(|r| r.base).collect();
        let base = pick(w, local, &bases);
        let size = pick(w, local, &sizes[mine]);
        let local = w.hw.resize(local, route_bits, false);
        let offset = w.hw.constant(first_route[i] as u128, route_bits);
        let route = w.add(local, offset);
        let field = |w: &mut Wrapper<'_, '_>, signal: &str| {
            let v = core_out(w, s, signal);
            w.hw.resize(v, 64, false)
        };
        let row = field(w, "cmd_row");
        let row_bytes = w.hw.comb("comb.shl", &[row, size]);
        let first_row = w.add(base, row_bytes);
        let count = field(w, "cmd_count");
        let per = field(w, "cmd_per");
        let stride = field(w, "cmd_stride");
        let stride_bytes = w.hw.comb("comb.shl", &[stride, size]);
        w.write(t.ack, one, take);
        w.write(t.pending, take, one);
        w.write(t.route, take, route);
        w.write(t.row, take, first_row);
        w.write(t.col, take, zero64);
        w.write(t.left, take, count);
        w.write(t.per, take, per);
        w.write(t.stride, take, stride_bytes);
    }
    // The current transfer's burst: the rest of the row, at most 256
    // beats, within a page.
    let cur_is: Vec<ValueId> = (0..streams.len())
        .map(|i| w.eq_const(cur.q, i as u128))
        .collect();
    let route = current(w, &cur_is, &transfers, |t| t.route);
    let row = current(w, &cur_is, &transfers, |t| t.row);
    let col = current(w, &cur_is, &transfers, |t| t.col);
    let left = current(w, &cur_is, &transfers, |t| t.left);
    let per = current(w, &cur_is, &transfers, |t| t.per);
    let stride = current(w, &cur_is, &transfers, |t| t.stride);
    let size = pick(w, route, &sizes);
    let store = pick(w, route, &stores);
    let load = w.hw.not(store);
    let col_bytes = w.hw.comb("comb.shl", &[col, size]);
    let address = w.add(row, col_bytes);
    let in_row = w.hw.comb("comb.sub", &[per, col]);
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
    let bus = w.map.master_data_width;
    let bus_bytes = bus / 8;
    let lane = w.hw.extract(addr.q, 0, bus_bytes.trailing_zeros());
    let zeros3 = w.hw.constant(0, 3);
    let lane_bits = w.hw.concat(lane, zeros3);
    let lane_bits = w.hw.resize(lane_bits, bus, false);
    let size_bytes = w.hw.comb("comb.shl", &[one64, size]);
    let next_addr = w.add(addr.q, size_bytes);
    let last_beat = w.eq_const(beats.q, 0);
    let one8 = w.hw.constant(1, 8);
    let fewer_beats = w.hw.comb("comb.sub", &[beats.q, one8]);
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
    let mut core_wvalid = zero;
    let mut core_wdata = w.hw.constant(0, bus);
    for (i, s) in streams.iter().enumerate() {
        let v = core_out(w, s, "wvalid");
        core_wvalid = w.hw.mux(cur_is[i], v, core_wvalid);
        let d = core_out(w, s, "wdata");
        let d = w.hw.resize(d, bus, false);
        core_wdata = w.hw.mux(cur_is[i], d, core_wdata);
    }
    let wvalid = w.hw.and(st(WRITE), core_wvalid);
    let wready = w.input(&master("wready"));
    let w_beat = w.hw.and(wvalid, wready);
    let wdata = w.hw.comb("comb.shl", &[core_wdata, lane_bits]);
    let mut strobe = w.hw.constant(0, bus_bytes);
    for (g, r) in routes.iter().enumerate() {
        let lanes = w.hw.constant((1u128 << (1 << r.size)) - 1, bus_bytes);
        let is = w.eq_const(route, g as u128);
        strobe = w.hw.mux(is, lanes, strobe);
    }
    let lane_bytes = w.hw.resize(lane, bus_bytes, false);
    let wstrb = w.hw.comb("comb.shl", &[strobe, lane_bytes]);
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
    // A burst's end: the transfer's next row or column, or its end.
    let r_last = w.hw.and(r_beat, last_beat);
    let burst_end = w.hw.any(&[r_last, response]);
    let len64 = w.hw.resize(len.q, 64, false);
    let moved = w.add(len64, one64);
    let col_after = w.add(col, moved);
    let left_after = w.hw.comb("comb.sub", &[left, moved]);
    let finished = w.eq_const(left_after, 0);
    let done = w.hw.and(burst_end, finished);
    let row_over = w.eq(col_after, per);
    let next_row = w.add(row, stride);
    for (i, t) in transfers.iter().enumerate() {
        let end = w.hw.and(burst_end, cur_is[i]);
        w.write(t.left, end, left_after);
        let wrap = w.hw.and(end, row_over);
        w.write(t.row, wrap, next_row);
        w.write(t.col, wrap, zero64);
        w.write(t.col, end, col_after);
        let over = w.hw.and(done, cur_is[i]);
        w.write(t.pending, over, zero);
    }
    // The next burst, when none is under way or as one ends: the awaited
    // transfers first, then the current one, then any.
    let between = w.hw.any(&[st(IDLE), burst_end]);
    let mut ready = Vec::new();
    let mut urgent = Vec::new();
    for (i, s) in streams.iter().enumerate() {
        let over = w.hw.and(done, cur_is[i]);
        let stays = w.hw.not(over);
        let still = w.hw.and(transfers[i].pending.q, stays);
        let r = w.hw.any(&[still, takes[i]]);
        let waited = core_out(w, s, "waited");
        urgent.push(w.hw.and(r, waited));
        ready.push(r);
    }
    let (first_urgent, any_urgent) = first(w, &urgent, cur_bits);
    let (first_ready, any_ready) = first(w, &ready, cur_bits);
    let mut cur_ready = zero;
    for (i, &r) in ready.iter().enumerate() {
        cur_ready = w.hw.mux(cur_is[i], r, cur_ready);
    }
    let other = w.hw.mux(cur_ready, cur.q, first_ready);
    let chosen = w.hw.mux(any_urgent, first_urgent, other);
    let go = w.hw.and(between, any_ready);
    w.write(cur, go, chosen);
    let next = to(w, ADDRESS);
    w.write(state, go, next);
    let none = w.hw.not(any_ready);
    let rest = w.hw.and(burst_end, none);
    let next = to(w, IDLE);
    w.write(state, rest, next);
    // The core's stream inputs.
    for (i, s) in streams.iter().enumerate() {
        let mine_r = w.hw.and(r_beat, cur_is[i]);
        let data = w.hw.extract(word, 0, s.data_width);
        let mine_w = w.hw.and(st(WRITE), cur_is[i]);
        let w_ready = w.hw.and(mine_w, wready);
        let mine_done = w.hw.and(done, cur_is[i]);
        for (signal, v) in [
            ("cmd_ready", transfers[i].ack.q),
            ("rvalid", mine_r),
            ("rdata", data),
            ("wready", w_ready),
            ("done", mine_done),
        ] {
            w.connect_core_input(&names::stream(&s.name, signal), v);
        }
    }
    let not_idle = w.hw.not(st(IDLE));
    let pending: Vec<ValueId> = transfers.iter().map(|t| t.pending.q).collect();
    let busy = w.hw.any(&[&offered[..], &pending[..]].concat());
    let quiet = w.hw.not(busy);
    let idle = w.hw.and(st(IDLE), quiet);
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
