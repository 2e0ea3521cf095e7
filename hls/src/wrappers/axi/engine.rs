//! The copy engine: the wrapper's controller and its AXI4 master
//! `m_axi_gmem`. Each memref argument that is not streamed (those the
//! stream server moves tile by tile while the core runs, `streams.rs`,
//! have no RAM and no copies) is an on-chip RAM (`seq.firmem`,
//! read latency 1, as many ports as the core's memory has) that the
//! core's memory ports address. On `ap_start` the engine copies every
//! memref from host memory into its RAM (loads), starts the core, waits
//! for its `done`, copies every memref the kernel may write back to host
//! memory (stores, all words: what the kernel leaves alone goes back
//! unchanged), then sets `ap_done`. Reads and writes are `INCR` bursts
//! (the rest of the memref, at most 256 beats, never across a 4 KiB
//! boundary), one RAM word per beat (a write beat per RAM fetch: fetch,
//! hold, beat): an element, or a packed memory's lanes (`width = N`),
//! which lie side by side in host memory, so that `size` is the word's
//! bytes in host memory (a power of two; the memref's base must be
//! aligned to it) and its byte lanes follow the address's low bits; the
//! last word of a memref whose elements do not fill it writes only its
//! elements' bytes. One transaction outstanding. An error response, or `rlast` not
//! on a burst's last beat, sets the sticky `ap_error`; the run goes on.
//!
//! States: idle, read address, read data, start the core, run, fetch
//! (RAM read), hold (the word into the write-data register), write
//! (the burst's address once, and a data beat; each handshake on its
//! own), write response, finish.

use super::lite::Lite;
use super::ports::master;
use super::streams::Server;
use super::wrapper::Wrapper;
use crate::flow::construct::hw::Reg;
use crate::model::interface::names;
use crate::model::register_map::{element_bits, word_bytes};
use silica_ir::{OpId, ValueId};

const IDLE: u128 = 0;
const READ_ADDRESS: u128 = 1;
const READ_DATA: u128 = 2;
const START: u128 = 3;
const RUN: u128 = 4;
const FETCH: u128 = 5;
const HOLD: u128 = 6;
const WRITE: u128 = 7;
const RESPONSE: u128 = 8;
const FINISH: u128 = 9;
const STATE_BITS: u32 = 4;

/// One memref argument's RAM.
struct Ram {
    name: String,
    words: u64,
    /// Elements a word (`width = N`), of `element_width` bits each.
    lanes: u32,
    element_width: u32,
    /// The elements in the memref's last word.
    last_lanes: u32,
    address_width: u32,
    /// log2 of a word's bytes in host memory.
    size: u32,
    handle: ValueId,
    read_ports: Vec<OpId>,
    read_data: Vec<ValueId>,
}

/// A copy of one RAM: from host memory (load) or to it (store).
#[derive(Clone, Copy)]
struct Job {
    ram: usize,
    store: bool,
}

/// The engine's registers and RAMs.
pub(super) struct Engine {
    state: Reg,
    job: Reg,
    word: Reg,
    left: Reg,
    aw_done: Reg,
    w_done: Reg,
    wdata: Reg,
    pub error: Reg,
    rams: Vec<Ram>,
    jobs: Vec<Job>,
    /// The core's `done` seen while streams were still being served.
    core_ran: Reg,
    /// `state == idle`, `state == finish`, `state == run`.
    pub idle: ValueId,
    pub finish: ValueId,
    pub running: ValueId,
}

fn bits_for(max: u64) -> u32 {
    (64 - max.leading_zeros()).max(1)
}

impl Engine {
    /// Creates the registers and the RAMs (read ports connected later).
    pub fn create(w: &mut Wrapper<'_, '_>) -> Engine {
        let mut rams = Vec::new();
        for (arg, m) in w.iface.memories().filter(|(_, m)| !m.streamed) {
            let handle = w.hw.masked_firmem(
                &format!("ram_{}", arg.name),
                m.words,
                m.word_width(),
                m.lanes.max(1),
            );
            let address = w.hw.constant(0, m.address_width);
            let enable = w.hw.constant(0, 1);
            let dt = w.hw.int(m.word_width());
            let clock = w.hw.clock;
            let mut read_ports = Vec::new();
            let mut read_data = Vec::new();
            for _ in 0..m.ports {
                let port = w.hw.op(
                    "seq.firmem.read_port",
                    &[handle, address, clock, enable],
                    &[dt],
                    vec![],
                    vec![],
                );
                read_data.push(w.hw.ir.result(port, 0));
                read_ports.push(port);
            }
            rams.push(Ram {
                name: arg.name.clone(),
                words: m.words,
                lanes: m.lanes.max(1),
                element_width: m.element_width,
                last_lanes: (m.elements() - (m.words - 1) * u64::from(m.lanes.max(1))) as u32,
                address_width: m.address_width,
                size: word_bytes(m).trailing_zeros(),
                handle,
                read_ports,
                read_data,
            });
        }
        let mut jobs: Vec<Job> = (0..rams.len())
            .map(|ram| Job { ram, store: false })
            .collect();
        let copied = w.iface.memories().filter(|(_, m)| !m.streamed);
        for (i, (_, m)) in copied.enumerate() {
            if m.access.writes() {
                jobs.push(Job {
                    ram: i,
                    store: true,
                });
            }
        }
        let word_bits = rams.iter().map(|r| r.address_width).max().unwrap_or(1);
        let state = w.hw.reg("state", STATE_BITS, Some(IDLE));
        let idle = w.eq_const(state.q, IDLE);
        let finish = w.eq_const(state.q, FINISH);
        let running = w.eq_const(state.q, RUN);
        Engine {
            state,
            job: w
                .hw
                .reg("job", bits_for(jobs.len().max(1) as u64 - 1), None),
            word: w.hw.reg("word", word_bits, None),
            left: w.hw.reg("left", 8, None),
            aw_done: w.hw.reg("aw_done", 1, None),
            w_done: w.hw.reg("w_done", 1, None),
            wdata: w.hw.reg("wdata", w.map.master_data_width, None),
            error: w.hw.reg("error", 1, Some(0)),
            core_ran: w.hw.reg("core_ran", 1, Some(0)),
            rams,
            jobs,
            idle,
            finish,
            running,
        }
    }

    /// The core's `start`: high in the start state while the core is idle.
    pub fn core_start(&self, w: &mut Wrapper<'_, '_>) -> ValueId {
        w.eq_const(self.state.q, START)
    }

    /// The RAM read data that drives the core's input port `name`.
    pub fn read_data_of_port(&self, name: &str) -> ValueId {
        for r in &self.rams {
            for (p, &q) in r.read_data.iter().enumerate() {
                if names::q(&r.name, p as u32) == name {
                    return q;
                }
            }
        }
        unreachable!("the core's input '{name}' is neither a scalar nor a memory's read data")
    }

    /// Builds the controller, the master's channels and the RAMs' ports.
    pub fn build(&mut self, w: &mut Wrapper<'_, '_>, lite: &Lite, server: Option<&Server>) {
        let in_state: Vec<ValueId> = (0..=FINISH).map(|s| w.eq_const(self.state.q, s)).collect();
        let st = |s: u128| in_state[s as usize];
        let one = w.hw.constant(1, 1);
        let zero = w.hw.constant(0, 1);
        let state = |w: &mut Wrapper<'_, '_>, s: u128| w.hw.constant(s, STATE_BITS);
        let job_is: Vec<ValueId> = (0..self.jobs.len())
            .map(|j| w.eq_const(self.job.q, j as u128))
            .collect();
        // The current job's address, size, strobes and last word.
        let bus = w.map.master_data_width;
        let bus_bytes = bus / 8;
        let word64 = w.hw.resize(self.word.q, 64, false);
        let mut address = w.hw.constant(0, 64);
        let mut size = w.hw.constant(0, 3);
        let mut strobe = w.hw.constant(0, bus_bytes);
        let mut last = w.hw.constant(0, 1);
        for (j, job) in self.jobs.iter().enumerate() {
            let ram = &self.rams[job.ram];
            let base = lite.base(w, &ram.name);
            let shift = w.hw.constant(u128::from(ram.size), 64);
            let offset = w.hw.comb("comb.shl", &[word64, shift]);
            let a = w.add(base, offset);
            address = w.hw.mux(job_is[j], a, address);
            let s = w.hw.constant(u128::from(ram.size), 3);
            size = w.hw.mux(job_is[j], s, size);
            let l = w.eq_const(self.word.q, u128::from(ram.words - 1));
            let mut bytes = w.hw.constant(ones(1 << ram.size), bus_bytes);
            if ram.last_lanes < ram.lanes {
                let host_bytes = element_bits(ram.element_width) / 8;
                let partial = w.hw.constant(ones(ram.last_lanes * host_bytes), bus_bytes);
                bytes = w.hw.mux(l, partial, bytes);
            }
            strobe = w.hw.mux(job_is[j], bytes, strobe);
            last = w.hw.mux(job_is[j], l, last);
        }
        let lane_address_bits = bus_bytes.trailing_zeros();
        let lane = w.hw.extract(address, 0, lane_address_bits);
        let zeros3 = w.hw.constant(0, 3);
        let lane_bits = w.hw.concat(lane, zeros3);
        let lane_bits = w.hw.resize(lane_bits, bus, false);
        let lane_bytes = w.hw.resize(lane, bus_bytes, false);
        let wstrb = w.hw.comb("comb.shl", &[strobe, lane_bytes]);
        let loads = self.rams.len();
        let stores = self.jobs.len() - loads;
        let not_last = w.hw.not(last);
        let one_word = w.hw.constant(1, self.word.width);
        let next_word = w.add(self.word.q, one_word);
        let one_job = w.hw.constant(1, self.job.width);
        let next_job = w.add(self.job.q, one_job);
        let first_job = w.hw.constant(0, self.job.width);
        let first_word = w.hw.constant(0, self.word.width);
        // Idle: a start begins the loads (or the core, without memories).
        let begin = w.hw.and(st(IDLE), lite.ap_start.q);
        let first = state(w, if loads > 0 { READ_ADDRESS } else { START });
        w.write(self.state, begin, first);
        w.write(self.job, begin, first_job);
        w.write(self.word, begin, first_word);
        w.write(self.error, begin, zero);
        // Loads.
        let arready = w.input(&master("arready"));
        let rvalid = w.input(&master("rvalid"));
        let rresp = w.input(&master("rresp"));
        let rlast = w.input(&master("rlast"));
        let rdata = w.input(&master("rdata"));
        let ar_taken = w.hw.and(st(READ_ADDRESS), arready);
        let to = state(w, READ_DATA);
        w.write(self.state, ar_taken, to);
        // A burst: the rest of the memref, at most 256 beats, not across
        // a 4 KiB boundary; `left` counts the beats after the current one.
        let mut remaining = w.hw.constant(0, 64);
        for (j, job) in self.jobs.iter().enumerate() {
            let end = w.hw.constant(u128::from(self.rams[job.ram].words - 1), 64);
            let r = w.hw.comb("comb.sub", &[end, word64]);
            remaining = w.hw.mux(job_is[j], r, remaining);
        }
        let most = w.hw.constant(255, 64);
        let fewer = w.hw.icmp(6, remaining, most);
        let len = w.hw.mux(fewer, remaining, most);
        let len = w.hw.extract(len, 0, 13);
        let page = w.hw.constant(4096, 13);
        let in_page = w.hw.extract(address, 0, 12);
        let in_page = w.hw.resize(in_page, 13, false);
        let page_bytes = w.hw.comb("comb.sub", &[page, in_page]);
        let size13 = w.hw.resize(size, 13, false);
        let page_beats = w.hw.comb("comb.shru", &[page_bytes, size13]);
        let one13 = w.hw.constant(1, 13);
        let page_len = w.hw.comb("comb.sub", &[page_beats, one13]);
        let shorter = w.hw.icmp(6, page_len, len);
        let len = w.hw.mux(shorter, page_len, len);
        let arlen = w.hw.extract(len, 0, 8);
        w.write(self.left, ar_taken, arlen);
        let beat = w.hw.and(st(READ_DATA), rvalid);
        let burst_end = w.eq_const(self.left.q, 0);
        let resp_bad = w.eq_const(rresp, 0);
        let resp_bad = w.hw.not(resp_bad);
        let last_wrong = w.hw.comb("comb.xor", &[rlast, burst_end]);
        let read_bad = w.hw.any(&[resp_bad, last_wrong]);
        let read_bad = w.hw.and(beat, read_bad);
        w.write(self.error, read_bad, one);
        let beat_last = w.hw.and(beat, last);
        let beat_more = w.hw.and(beat, not_last);
        let in_burst = w.hw.not(burst_end);
        let beat_next = w.hw.and(beat_more, in_burst);
        let one8 = w.hw.constant(1, 8);
        let fewer_left = w.hw.comb("comb.sub", &[self.left.q, one8]);
        w.write(self.left, beat_next, fewer_left);
        let beat_more = w.hw.and(beat_more, burst_end);
        if loads > 0 {
            let last_load = job_is[loads - 1];
            let loads_done = w.hw.and(beat_last, last_load);
            let to = state(w, START);
            w.write(self.state, loads_done, to);
            let not_last_load = w.hw.not(last_load);
            let next_load = w.hw.and(beat_last, not_last_load);
            let to = state(w, READ_ADDRESS);
            w.write(self.state, next_load, to);
            w.write(self.job, next_load, next_job);
            w.write(self.word, next_load, first_word);
            w.write(self.state, beat_more, to);
            w.write(self.word, beat_more, next_word);
            w.write(self.word, beat_next, next_word);
        }
        let read_word = w.hw.comb("comb.shru", &[rdata, lane_bits]);
        // Start and run.
        let core_idle = w.core[names::IDLE];
        let core_done = w.core[names::DONE];
        let started = w.hw.and(st(START), core_idle);
        let to = state(w, RUN);
        w.write(self.state, started, to);
        // The run is over at the core's `done` once the stream server has
        // finished its transfers.
        let mut ran = w.hw.and(st(RUN), core_done);
        if let Some(server) = server {
            let seen = w.hw.any(&[core_done, self.core_ran.q]);
            let seen = w.hw.and(st(RUN), seen);
            w.write(self.core_ran, begin, zero);
            w.write(self.core_ran, seen, one);
            ran = w.hw.and(seen, server.idle);
        }
        if stores > 0 {
            let to = state(w, FETCH);
            w.write(self.state, ran, to);
            let first_store = w.hw.constant(loads as u128, self.job.width);
            w.write(self.job, ran, first_store);
            w.write(self.word, ran, first_word);
            w.write(self.aw_done, ran, zero);
        } else {
            let to = state(w, FINISH);
            w.write(self.state, ran, to);
        }
        // Stores: fetch the word, hold it, write it, wait for the response.
        let to = state(w, HOLD);
        w.write(self.state, st(FETCH), to);
        let mut fetched = w.hw.constant(0, bus);
        for (j, job) in self.jobs.iter().enumerate() {
            if job.store {
                let ram = &self.rams[job.ram];
                let q = to_host(w, ram.read_data[0], ram.lanes, ram.element_width);
                let q = w.hw.resize(q, bus, false);
                fetched = w.hw.mux(job_is[j], q, fetched);
            }
        }
        let placed = w.hw.comb("comb.shl", &[fetched, lane_bits]);
        w.write(self.wdata, st(HOLD), placed);
        w.write(self.w_done, st(HOLD), zero);
        let to = state(w, WRITE);
        w.write(self.state, st(HOLD), to);
        let awready = w.input(&master("awready"));
        let wready = w.input(&master("wready"));
        let aw_pending = w.hw.not(self.aw_done.q);
        let awvalid = w.hw.and(st(WRITE), aw_pending);
        let w_pending = w.hw.not(self.w_done.q);
        let wvalid = w.hw.and(st(WRITE), w_pending);
        let aw_fire = w.hw.and(awvalid, awready);
        let aw_now = w.hw.any(&[self.aw_done.q, aw_fire]);
        let w_fire = w.hw.and(wvalid, wready);
        let w_now = w.hw.any(&[self.w_done.q, w_fire]);
        // A write burst: its address once (`awlen` the beats after the
        // first, `left` counting them once the address is taken), then a
        // beat per fetched word, `wlast` on the last.
        let left_now = w.hw.mux(self.aw_done.q, self.left.q, arlen);
        let burst_over = w.eq_const(left_now, 0);
        let both = w.hw.and(aw_now, w_now);
        let both = w.hw.and(st(WRITE), both);
        let beat_done = w.hw.and(both, burst_over);
        let to = state(w, RESPONSE);
        w.write(self.state, beat_done, to);
        let more_beats = w.hw.not(burst_over);
        let write_more = w.hw.and(both, more_beats);
        let to = state(w, FETCH);
        w.write(self.state, write_more, to);
        w.write(self.word, write_more, next_word);
        let fewer = w.hw.comb("comb.sub", &[left_now, one8]);
        w.write(self.left, write_more, fewer);
        w.write(self.left, aw_fire, arlen);
        w.write(self.aw_done, st(WRITE), aw_now);
        w.write(self.w_done, st(WRITE), w_now);
        let bvalid = w.input(&master("bvalid"));
        let bresp = w.input(&master("bresp"));
        let response = w.hw.and(st(RESPONSE), bvalid);
        w.write(self.aw_done, response, zero);
        let okay = w.eq_const(bresp, 0);
        let bad = w.hw.not(okay);
        let write_bad = w.hw.and(response, bad);
        w.write(self.error, write_bad, one);
        let response_last = w.hw.and(response, last);
        let response_more = w.hw.and(response, not_last);
        if stores > 0 {
            let last_store = job_is[self.jobs.len() - 1];
            let stores_done = w.hw.and(response_last, last_store);
            let to = state(w, FINISH);
            w.write(self.state, stores_done, to);
            let not_last_store = w.hw.not(last_store);
            let next_store = w.hw.and(response_last, not_last_store);
            let to = state(w, FETCH);
            w.write(self.state, next_store, to);
            w.write(self.job, next_store, next_job);
            w.write(self.word, next_store, first_word);
            w.write(self.state, response_more, to);
            w.write(self.word, response_more, next_word);
        }
        let to = state(w, IDLE);
        w.write(self.state, st(FINISH), to);
        // The master's outputs.
        let incr = w.hw.constant(1, 2);
        let outs = [
            ("awaddr", address),
            ("awlen", arlen),
            ("awsize", size),
            ("awburst", incr),
            ("awvalid", awvalid),
            ("wdata", self.wdata.q),
            ("wstrb", wstrb),
            ("wlast", burst_over),
            ("wvalid", wvalid),
            ("bready", st(RESPONSE)),
            ("araddr", address),
            ("arlen", arlen),
            ("arsize", size),
            ("arburst", incr),
            ("arvalid", st(READ_ADDRESS)),
            ("rready", st(READ_DATA)),
        ];
        for (name, v) in outs {
            let v = match server.and_then(|s| s.outputs.iter().find(|(n, _)| *n == name)) {
                Some(&(_, theirs)) if name.ends_with("valid") || name.ends_with("ready") => {
                    w.hw.any(&[v, theirs])
                }
                Some(&(_, theirs)) => w.hw.mux(server.map_or(zero, |s| s.busy), theirs, v),
                None => v,
            };
            w.outputs.insert(master(name), v);
        }
        // The RAMs: port 0 shared by the engine and the core.
        for (i, ram) in self.rams.iter().enumerate() {
            let mut engine_read = zero;
            let mut engine_write = zero;
            for (j, job) in self.jobs.iter().enumerate() {
                if job.ram != i {
                    continue;
                }
                if job.store {
                    let e = w.hw.and(st(FETCH), job_is[j]);
                    engine_read = w.hw.any(&[engine_read, e]);
                } else {
                    let e = w.hw.and(beat, job_is[j]);
                    engine_write = w.hw.any(&[engine_write, e]);
                }
            }
            let engine_address = w.hw.resize(self.word.q, ram.address_width, false);
            let engine_data = from_host(w, read_word, ram.lanes, ram.element_width);
            for (p, &read_port) in ram.read_ports.iter().enumerate() {
                let p32 = p as u32;
                let core_address = w.core[&names::address(&ram.name, p32)];
                let ce = w.core[&names::ce(&ram.name, p32)];
                // `we`: a bit a lane; any set writes those lanes.
                let we = w.core[&names::we(&ram.name, p32)];
                let d = w.core[&names::d(&ram.name, p32)];
                let no_lane = w.eq_const(we, 0);
                let writes = w.hw.not(no_lane);
                let mut read = w.hw.and(ce, no_lane);
                let mut write = w.hw.and(ce, writes);
                let (mut address, mut data, mut mask) = (core_address, d, we);
                if p == 0 {
                    let engine = w.hw.any(&[engine_read, engine_write]);
                    address = w.hw.mux(engine, engine_address, address);
                    data = w.hw.mux(engine_write, engine_data, data);
                    let every_lane = w.hw.constant(ones(ram.lanes), ram.lanes);
                    mask = w.hw.mux(engine_write, every_lane, mask);
                    read = w.hw.any(&[read, engine_read]);
                    write = w.hw.any(&[write, engine_write]);
                }
                w.hw.ir.set_operand(read_port, 1, address);
                w.hw.ir.set_operand(read_port, 3, read);
                let masked = i64::from(ram.lanes > 1);
                let seg = w.hw.ctx.int_array_attr(32, &[1, 1, 1, 1, 1, masked]);
                let clock = w.hw.clock;
                let mut operands = vec![ram.handle, address, clock, write, data];
                if ram.lanes > 1 {
                    operands.push(mask);
                }
                w.hw.op(
                    "seq.firmem.write_port",
                    &operands,
                    &[],
                    vec![("operandSegmentSizes", seg)],
                    vec![],
                );
            }
        }
    }
}

/// A mask of the low `n` bits.
fn ones(n: u32) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// The RAM word of `lanes` elements of `bits` bits from the low bytes of
/// `host` (the elements side by side, each in its bytes in host memory).
fn from_host(w: &mut Wrapper<'_, '_>, host: ValueId, lanes: u32, bits: u32) -> ValueId {
    let slot = element_bits(bits);
    let mut word = w.hw.extract(host, 0, bits);
    for j in 1..lanes {
        let element = w.hw.extract(host, j * slot, bits);
        word = w.hw.concat(element, word);
    }
    word
}

/// The host-memory bytes of a RAM word of `lanes` elements of `bits`
/// bits: each element zero-extended to its bytes in host memory.
fn to_host(w: &mut Wrapper<'_, '_>, word: ValueId, lanes: u32, bits: u32) -> ValueId {
    let slot = element_bits(bits);
    let mut host = None;
    for j in 0..lanes {
        let element = w.hw.extract(word, j * bits, bits);
        let element = w.hw.resize(element, slot, false);
        host = Some(match host {
            None => element,
            Some(low) => w.hw.concat(element, low),
        });
    }
    host.expect("a word has a lane")
}
