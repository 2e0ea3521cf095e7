//! Streamed DMA engines (`--interface axi`): an engine whose every
//! transfer moves words between an external memory and an on-chip RAM,
//! where nothing else touches the external memory, leaves the external
//! side to the environment (the AXI wrapper's master, which moves the
//! tile as bursts of host memory): the core has no memory ports for those
//! external memories, and the engine offers each transfer as a command
//! on the ports of its [`Stream`] instead of reading or writing words.
//!
//! [`plan`] decides which engines stream (a pure function of the kernel,
//! so the port list and the engines agree). The engine takes the head of
//! its queue, offers it (`cmd_valid` until `cmd_ready`), then for a load
//! writes each word given on `rvalid` into its RAM's DMA write port at
//! the next on-chip address, and for a store reads its RAM's DMA read
//! port one word a cycle into `wdata` (a held word while `wready` is low:
//! at most the word read and one held); the environment's `done` counts
//! the transfer's tag element down and frees the engine for the next.
//! `waited` tells the environment that the controller is in a wait for
//! a tag element of the active transfer or of one queued behind it, so
//! that it serves this engine first.
//! The pipeline meanwhile computes on the other half of a double buffer,
//! as with word-level engines.

use super::dma::{Cmd, COUNT, FAST, FIELDS, PER, ROUTE, SLOW, STRIDE, TAG};
use super::hw::Reg;
use super::Builder;
use crate::model::interface::{names, Stream, StreamRoute};
use crate::model::kernel::{Arg, Kernel, MemId, Predicate};
use rustc_hash::FxHashMap;
use silica_ir::ValueId;

/// The port prefix of engine `n`.
pub fn stream_name(n: usize) -> String {
    format!("dma{n}")
}

/// The engines of `k` that can stream: every transfer of the engine moves
/// words between an external memory (its strided, slow side) and an
/// on-chip RAM, and no load, store or call touches those external
/// memories.
pub fn plan(k: &Kernel) -> Vec<Stream> {
    let (groups, of_start) = crate::flow::analysis::dma_engines::groups(k);
    let external = |m: MemId| k.memories[m].arg.is_some();
    let ram = |m: MemId| k.memories[m].arg.is_none() && k.memories[m].rom.is_none();
    let touched = |m: MemId| {
        k.nodes.iter().any(|n| n.op.memory() == Some(m))
            || k.calls.iter().any(|c| c.memories.contains(&m))
    };
    let mut out = Vec::new();
    for (n, routes) in groups.iter().enumerate() {
        let each_route_fits = routes.iter().all(|&(s, d)| {
            let (ext, chip) = if external(s) { (s, d) } else { (d, s) };
            external(ext) && ram(chip) && !touched(ext)
        });
        // The external end is the transfer's slow (strided) side.
        let slow_external = k.dmas.iter().zip(&of_start).all(|(d, at)| match at {
            Some((e, _)) if *e == n => d
                .transfer
                .as_ref()
                .is_some_and(|t| t.src_is_slow == external(t.src)),
            _ => true,
        });
        let width = k.memories[routes[0].0].element_width;
        let one_width = routes.iter().all(|&(s, d)| {
            k.memories[s].element_width == width && k.memories[d].element_width == width
        });
        if !(each_route_fits && slow_external && one_width) {
            continue;
        }
        let address_width = routes
            .iter()
            .flat_map(|&(s, d)| [s, d])
            .map(|m| super::datapath::memory_address_width(&k.memories[m]))
            .max()
            .unwrap_or(1);
        out.push(Stream {
            name: stream_name(n),
            routes: routes
                .iter()
                .map(|&(s, d)| StreamRoute {
                    memory: k.memories[if external(s) { s } else { d }].name.clone(),
                    store: !external(s),
                })
                .collect(),
            address_width,
            count_width: k.index_width,
            data_width: width,
        });
    }
    out
}

/// Which DMA engines stream, per module.
#[derive(Default, Debug, Clone)]
pub struct Streams {
    /// The top's: its own engines' (`plan`), then those of its calls'
    /// instances ([`call_stream`]).
    pub top: Vec<Stream>,
    /// Each callee's own (its module's ports), by module name.
    pub callees: FxHashMap<String, Vec<Stream>>,
}

/// The top's stream for call `c`'s instance of stream `s` of the callee,
/// whose memory arguments the call binds to `memories` (names in the
/// top): named `call<c>_<name>`, its routes naming the top's memories.
pub fn call_stream(c: usize, s: &Stream, callee: &Kernel, memories: &[String]) -> Stream {
    let position = |name: &str| {
        callee
            .args
            .iter()
            .filter_map(|a| match a {
                Arg::Memory(m) => Some(&callee.memories[*m].name),
                Arg::Scalar(_) => None,
            })
            .position(|n| n == name)
            .expect("a stream's memory is a memref argument")
    };
    Stream {
        name: format!("call{c}_{}", s.name),
        routes: s
            .routes
            .iter()
            .map(|r| StreamRoute {
                memory: memories[position(&r.memory)].clone(),
                store: r.store,
            })
            .collect(),
        ..s.clone()
    }
}

/// The streams of `top` (the last of `kernels`) and of its callees: a
/// callee that only the top calls streams those of its engines (`plan`)
/// whose external memories are, at each of its calls, top arguments
/// that nothing else uses (no access, no engine, no other call or
/// operand of the call), so the wrapper's master serves the instance's
/// engines as it serves the top's.
pub fn plan_all(kernels: &[&Kernel]) -> Streams {
    let Some((&top, callees)) = kernels.split_last() else {
        return Streams::default();
    };
    let mut out = Streams {
        top: plan(top),
        ..Streams::default()
    };
    // How often each top memory is used: accesses, transfers, call
    // operands.
    let mut uses = vec![0usize; top.memories.len()];
    for n in &top.nodes {
        if let Some(m) = n.op.memory() {
            uses[m] += 1;
        }
    }
    for t in top.dmas.iter().filter_map(|d| d.transfer.as_ref()) {
        uses[t.src] += 1;
        uses[t.dst] += 1;
    }
    for c in &top.calls {
        for &m in &c.memories {
            uses[m] += 1;
        }
    }
    let free = |m: MemId| top.memories[m].arg.is_some() && uses[m] == 1;
    for g in callees {
        let nested = callees
            .iter()
            .any(|h| h.calls.iter().any(|c| c.callee == g.name));
        let sites: Vec<&crate::model::kernel::Call> =
            top.calls.iter().filter(|c| c.callee == g.name).collect();
        if nested || sites.is_empty() {
            continue;
        }
        let memory_args: Vec<MemId> = g
            .args
            .iter()
            .filter_map(|a| match a {
                Arg::Memory(m) => Some(*m),
                Arg::Scalar(_) => None,
            })
            .collect();
        let streams: Vec<Stream> = plan(g)
            .into_iter()
            .filter(|s| {
                s.routes.iter().all(|r| {
                    let j = memory_args
                        .iter()
                        .position(|&m| g.memories[m].name == r.memory)
                        .expect("a stream's memory is a memref argument");
                    sites.iter().all(|c| free(c.memories[j]))
                })
            })
            .collect();
        if streams.is_empty() {
            continue;
        }
        for (c, call) in top.calls.iter().enumerate() {
            if call.callee != g.name {
                continue;
            }
            let names: Vec<String> = call
                .memories
                .iter()
                .map(|&m| top.memories[m].name.clone())
                .collect();
            for s in &streams {
                out.top.push(call_stream(c, s, g, &names));
            }
        }
        out.callees.insert(g.name.clone(), streams);
    }
    out
}

/// Whether memory `m` of `k` is moved only by one of `streams`.
pub fn streamed(k: &Kernel, streams: &[Stream], m: MemId) -> bool {
    k.memories[m].arg.is_some()
        && streams
            .iter()
            .any(|s| s.routes.iter().any(|r| r.memory == k.memories[m].name))
}

impl Builder<'_, '_> {
    /// The input port `signal` of stream `s`.
    fn stream_input(&self, s: &Stream, signal: &str) -> ValueId {
        self.stream_ports[&names::stream(&s.name, signal)]
    }

    /// Builds engine `n` as stream `s`; gives its completion (condition,
    /// tag element).
    pub(super) fn build_stream_engine(&mut self, n: usize, s: &Stream) -> (ValueId, ValueId) {
        let routes = self.dma.engines[n].routes.clone();
        let w = self.dma.engines[n].widths;
        let head: Cmd = std::array::from_fn(|f| self.dma.engines[n].queue[0][f].q);
        let queued = self.dma.engines[n].queued;
        let always = self.hw.constant(1, 1);
        let name = |x: &str| format!("dma{n}_{x}");
        let active = self.hw.reg(&name("active"), 1, Some(0));
        let sent = self.hw.reg(&name("sent"), 1, Some(0));
        let a: [Reg; FIELDS] = std::array::from_fn(|f| {
            let label = [
                "route", "src_slow", "fast", "row", "left", "per", "stride", "tag",
            ][f];
            self.hw.reg(&name(label), w[f], None)
        });
        self.dma
            .busy
            .push([name("active"), name("active"), name("active")]);
        let cmd_ready = self.stream_input(s, "cmd_ready");
        let rvalid = self.stream_input(s, "rvalid");
        let rdata = self.stream_input(s, "rdata");
        let wready = self.stream_input(s, "wready");
        let done = self.stream_input(s, "done");
        // The command: the active transfer until the environment takes it.
        let not_sent = self.hw.not(sent.q);
        let cmd_valid = self.hw.and(active.q, not_sent);
        let cmd_fire = self.hw.and(cmd_valid, cmd_ready);
        let complete = self.hw.and(active.q, done);
        let zero_q = self.hw.constant(0, queued.width);
        let nonempty = self.hw.icmp(Predicate::Ne.code(), queued.q, zero_q);
        let not_active = self.hw.not(active.q);
        let free_slot = self.hw.any(&[not_active, complete]);
        let take = self.hw.and(nonempty, free_slot);
        self.build_queue(n, take);
        let not_complete = self.hw.not(complete);
        let keep = self.hw.and(active.q, not_complete);
        let next_active = self.hw.any(&[take, keep]);
        self.write(active, always, next_active);
        for (&reg, &value) in a.iter().zip(&head) {
            self.write(reg, take, value);
        }
        let zero = self.hw.constant(0, 1);
        self.write(sent, take, zero);
        self.write(sent, cmd_fire, always);
        let store_of: Vec<ValueId> = s
            .routes
            .iter()
            .map(|r| self.hw.constant(u128::from(r.store), 1))
            .collect();
        let is_store = self.by_route(a[ROUTE].q, &store_of);
        let is_load = self.hw.not(is_store);
        let moving = self.hw.and(active.q, sent.q);
        // Loads: each word given goes to the next on-chip address.
        let load_moving = self.hw.and(moving, is_load);
        let beat = self.hw.and(load_moving, rvalid);
        let fast_address = |b: &mut Self, m: MemId| {
            let aw = b.address_width(m);
            b.hw.resize(a[FAST].q, aw, false)
        };
        for (r, &(_, dst)) in routes.iter().enumerate() {
            if s.routes[r].store {
                continue;
            }
            let is = self.route_is(a[ROUTE].q, r);
            let en = self.hw.and(beat, is);
            let address = fast_address(self, dst);
            self.dma_write_port(dst, address, en, rdata);
        }
        // Stores: read a word when it will have a place.
        let one_c = self.hw.constant(1, w[COUNT]);
        let one_a = self.hw.constant(1, w[FAST]);
        let fast_next = self.hw.comb("comb.add", &[a[FAST].q, one_a]);
        let (wvalid, wdata) = if s.routes.iter().any(|r| r.store) {
            let dw = s.data_width;
            let inflight = self.hw.reg(&name("inflight"), 1, Some(0));
            let held = self.hw.reg(&name("held"), 1, Some(0));
            let h_data = self.hw.reg(&name("held_data"), dw, None);
            let buffered = self.hw.any(&[held.q, inflight.q]);
            let not_wready = self.hw.not(wready);
            let held_next = self.hw.and(buffered, not_wready);
            let zero_c = self.hw.constant(0, w[COUNT]);
            let more = self.hw.icmp(Predicate::Ne.code(), a[COUNT].q, zero_c);
            let store_moving = self.hw.and(moving, is_store);
            let can = self.hw.and(store_moving, more);
            let room = self.hw.not(held_next);
            let issue = self.hw.and(can, room);
            let mut src_data = Vec::new();
            for (r, &(src, _)) in routes.iter().enumerate() {
                if !s.routes[r].store {
                    src_data.push(self.hw.constant(0, dw));
                    continue;
                }
                let port = self.dma_read_port(src);
                let is = self.route_is(a[ROUTE].q, r);
                let en = self.hw.and(issue, is);
                let address = fast_address(self, src);
                self.hw.ir.set_operand(port, 1, address);
                self.hw.ir.set_operand(port, 3, en);
                src_data.push(self.hw.ir.result(port, 0));
            }
            let read_now = self.by_route(a[ROUTE].q, &src_data);
            let left = self.hw.comb("comb.sub", &[a[COUNT].q, one_c]);
            self.write(a[COUNT], issue, left);
            self.write(a[FAST], issue, fast_next);
            self.write(inflight, always, issue);
            self.write(held, always, held_next);
            let not_held = self.hw.not(held.q);
            let to_hold = self.hw.and(inflight.q, not_held);
            let to_hold = self.hw.and(to_hold, not_wready);
            self.write(h_data, to_hold, read_now);
            let data = self.hw.mux(held.q, h_data.q, read_now);
            (buffered, data)
        } else {
            (zero, self.hw.constant(0, s.data_width))
        };
        self.write(a[FAST], beat, fast_next);
        let waited = self.waited(n, active.q, a[TAG].q);
        let outs = [
            ("cmd_valid", cmd_valid),
            ("cmd_route", a[ROUTE].q),
            ("cmd_row", a[SLOW].q),
            ("cmd_count", a[COUNT].q),
            ("cmd_per", a[PER].q),
            ("cmd_stride", a[STRIDE].q),
            ("wvalid", wvalid),
            ("wdata", wdata),
            ("waited", waited),
        ];
        for (signal, v) in outs {
            self.stream_ports.insert(names::stream(&s.name, signal), v);
        }
        (complete, a[TAG].q)
    }

    /// Whether the controller waits for the tag element of engine `n`'s
    /// active transfer (`active`, tag `tag`) or of a queued one.
    fn waited(&mut self, n: usize, active: ValueId, tag: ValueId) -> ValueId {
        let queue = self.dma.engines[n].queue.clone();
        let queued = self.dma.engines[n].queued;
        let mut held = vec![(active, tag)];
        for (k, slot) in queue.iter().enumerate() {
            let kv = self.hw.constant(k as u128, queued.width);
            let valid = self.hw.icmp(Predicate::Ugt.code(), queued.q, kv);
            held.push((valid, slot[TAG].q));
        }
        let mut any = Vec::new();
        for (here, awaited) in self.dma.waits.clone() {
            for &(valid, t) in &held {
                let same = self.hw.icmp(Predicate::Eq.code(), t, awaited);
                let both = self.hw.and(valid, same);
                any.push(self.hw.and(here, both));
            }
        }
        self.hw.any(&any)
    }
}
