//! DMA engines: `affine.dma_start` queues a transfer on an engine that
//! runs concurrently with the controller; `affine.dma_wait` holds the
//! controller until its tag's transfers are done.
//!
//! Memories linked by transfers form a group (union of the transfers'
//! ends); each group has one engine, so an external memory and an
//! on-chip RAM's DMA ports belong to one engine only. An engine has a
//! queue of `QUEUE_DEPTH` transfers (a start state waits while it is
//! full), the active transfer (fast-side address, strided slow-side row
//! and column, words left) and two stages: it reads a word of the source
//! (`issue`) and writes it to the destination a cycle later, or from a
//! holding register when the destination was busy (one word at a time in
//! flight or held, one word per cycle when nothing blocks). On-chip RAMs
//! get DMA ports of their own (a read port for transfers out, a write
//! port for transfers in), so the engine fills one half of a double
//! buffer while the pipeline reads the other. An external memory's one
//! port is shared: the controller's accesses have it whenever they use it
//! (the schedule cannot stall), the engine takes the cycles they leave,
//! writes before reads. Tags are counters, one per tag element: a start
//! adds one, the last word of its transfer written takes one away; a wait
//! leaves when its element's counter is zero.

use super::hw::Reg;
use super::stream::stream_name;
use super::{Access, At, Builder};
use crate::flow::analysis::dma_engines::{groups, QUEUE_DEPTH};
use crate::model::kernel::{MemId, Predicate, Val};
use silica_ir::{OpId, ValueId};

/// The port of an external memory the engine shares (with two ports,
/// the controller may use the other one freely).
const DMA_PORT: u32 = 0;

/// The fields of a transfer command, in order.
pub(super) const ROUTE: usize = 0;
pub(super) const SRC_SLOW: usize = 1;
pub(super) const FAST: usize = 2;
pub(super) const SLOW: usize = 3;
pub(super) const COUNT: usize = 4;
pub(super) const PER: usize = 5;
pub(super) const STRIDE: usize = 6;
pub(super) const TAG: usize = 7;
pub(super) const FIELDS: usize = 8;

pub(super) type Cmd = [ValueId; FIELDS];

/// One engine.
pub(super) struct Engine {
    /// The (source, destination) memories of its transfers.
    pub(super) routes: Vec<(MemId, MemId)>,
    pub(super) widths: [u32; FIELDS],
    pub(super) queue: Vec<[Reg; FIELDS]>,
    pub(super) queued: Reg,
    /// Pushes from start states: condition and command.
    pushes: Vec<(ValueId, Cmd)>,
}

/// The DMA engines and tag counters of a design.
#[derive(Default)]
pub struct Engines {
    pub(super) engines: Vec<Engine>,
    /// Engine and route of each `dma_start`.
    of_start: Vec<Option<(usize, usize)>>,
    /// The counter of each tag element, and each tag's first.
    counters: Vec<Reg>,
    slot_base: Vec<u64>,
    tag_width: u32,
    /// Increments: condition and element.
    increments: Vec<(ValueId, ValueId)>,
    /// Waits: the condition of being in the wait's state, and the tag
    /// element it waits for.
    pub(super) waits: Vec<(ValueId, ValueId)>,
    /// Each engine's busy registers (active transfer, word in flight,
    /// word held), for measurements.
    pub busy: Vec<[String; 3]>,
}

fn bits_for(n: u64) -> u32 {
    (64 - n.leading_zeros()).max(1)
}

impl Builder<'_, '_> {
    /// The engines and tag counters (before the controller asks for
    /// [`Builder::dma_go`]).
    pub(super) fn plan_dma(&mut self) {
        let k = self.k;
        let mut e = Engines {
            of_start: vec![None; k.dmas.len()],
            ..Engines::default()
        };
        let total: u64 = k.tags.iter().map(|t| t.slots).sum();
        e.tag_width = bits_for(total);
        let mut base = 0;
        for t in &k.tags {
            e.slot_base.push(base);
            base += t.slots;
        }
        let (groups, of_start) = groups(k);
        e.of_start = of_start;
        for (n, routes) in groups.into_iter().enumerate() {
            let aw = routes
                .iter()
                .flat_map(|&(s, d)| [s, d])
                .map(|m| self.address_width(m))
                .max()
                .unwrap_or(1);
            let cw = k.index_width;
            let widths = [
                bits_for(routes.len() as u64 - 1),
                1,
                aw,
                aw,
                cw,
                cw,
                aw,
                e.tag_width,
            ];
            let queue = (0..QUEUE_DEPTH)
                .map(|slot| {
                    std::array::from_fn(|f| {
                        self.hw.reg(&format!("dma{n}_q{slot}_{f}"), widths[f], None)
                    })
                })
                .collect();
            let queued = self.hw.reg(
                &format!("dma{n}_queued"),
                bits_for(u64::from(QUEUE_DEPTH)),
                Some(0),
            );
            e.engines.push(Engine {
                routes,
                widths,
                queue,
                queued,
                pushes: Vec::new(),
            });
        }
        // At most every queued, active and in-flight transfer of every
        // engine is counted on one element.
        let most = e.engines.len() as u64 * (u64::from(QUEUE_DEPTH) + 2);
        for slot in 0..total {
            let r = self
                .hw
                .reg(&format!("tag{slot}_pending"), bits_for(most), Some(0));
            e.counters.push(r);
        }
        self.dma = e;
    }

    /// The tag element DMA operation `d` names, as seen in its state.
    fn tag_slot(&mut self, d: usize, at: At) -> ValueId {
        let dma = &self.k.dmas[d];
        let (tag, index) = (dma.tag, dma.tag_index);
        let tw = self.dma.tag_width;
        let v = self.seen(index, at);
        let v = self.hw.resize(v, tw, false);
        let base = self.hw.constant(u128::from(self.dma.slot_base[tag]), tw);
        self.hw.comb("comb.add", &[v, base])
    }

    fn seen_sized(&mut self, v: Val, at: At, width: u32) -> ValueId {
        let x = self.seen(v, at);
        self.hw.resize(x, width, false)
    }

    /// When the controller leaves the state of DMA operation `d`: a start
    /// once its engine takes the transfer (at once for no words), a wait
    /// once its tag element's counter is zero.
    pub fn dma_go(&mut self, d: usize) -> ValueId {
        let st = self.control.dma_state[d];
        let at = At::State(st);
        let here = self.in_state(st);
        let slot = self.tag_slot(d, at);
        let Some(t) = self.k.dmas[d].transfer.clone() else {
            let mut pending = Vec::new();
            let tag = self.k.dmas[d].tag;
            let base = self.dma.slot_base[tag];
            for j in base..base + self.k.tags[tag].slots {
                let c = self.dma.counters[j as usize];
                let zero = self.hw.constant(0, c.width);
                let busy = self.hw.icmp(Predicate::Ne.code(), c.q, zero);
                let jv = self.hw.constant(u128::from(j), self.dma.tag_width);
                let this = self.hw.icmp(Predicate::Eq.code(), slot, jv);
                pending.push(self.hw.and(this, busy));
            }
            self.dma.waits.push((here, slot));
            let pending = self.hw.any(&pending);
            let done = self.hw.not(pending);
            return self.hw.and(here, done);
        };
        let Some((n, r)) = self.dma.of_start[d] else {
            return here;
        };
        let w = self.dma.engines[n].widths;
        let count = self.seen_sized(t.count, at, w[COUNT]);
        let zero = self.hw.constant(0, w[COUNT]);
        let empty = self.hw.icmp(Predicate::Eq.code(), count, zero);
        let queued = self.dma.engines[n].queued;
        let full_at = self.hw.constant(u128::from(QUEUE_DEPTH), queued.width);
        let room = self.hw.icmp(Predicate::Ne.code(), queued.q, full_at);
        let (slow, fast) = if t.src_is_slow {
            (t.src_address, t.dst_address)
        } else {
            (t.dst_address, t.src_address)
        };
        let (per, stride) = match t.stride {
            Some((stride, per)) => (
                self.seen_sized(per, at, w[PER]),
                self.seen_sized(stride, at, w[STRIDE]),
            ),
            None => (count, self.hw.resize(count, w[STRIDE], false)),
        };
        let cmd: Cmd = [
            self.hw.constant(r as u128, w[ROUTE]),
            self.hw.constant(u128::from(t.src_is_slow), 1),
            self.seen_sized(fast, at, w[FAST]),
            self.seen_sized(slow, at, w[SLOW]),
            count,
            per,
            stride,
            slot,
        ];
        let words = self.hw.not(empty);
        let take = self.hw.and(words, room);
        let push = self.hw.and(here, take);
        self.dma.engines[n].pushes.push((push, cmd));
        self.dma.increments.push((push, slot));
        let ok = self.hw.any(&[empty, room]);
        self.hw.and(here, ok)
    }

    /// No transfer is under way (every tag element's counter is zero)
    /// and none starts this cycle.
    pub(crate) fn dma_quiet(&mut self) -> ValueId {
        let mut busy: Vec<ValueId> = self.dma.increments.iter().map(|&(c, _)| c).collect();
        for c in self.dma.counters.clone() {
            let zero = self.hw.constant(0, c.width);
            busy.push(self.hw.icmp(Predicate::Ne.code(), c.q, zero));
        }
        let busy = self.hw.any(&busy);
        self.hw.not(busy)
    }

    /// `values[route]` for a route register.
    pub(super) fn by_route(&mut self, route: ValueId, values: &[ValueId]) -> ValueId {
        let mut v = values[values.len() - 1];
        for r in (0..values.len() - 1).rev() {
            let rc = self.hw.constant(r as u128, self.hw.width(route));
            let is = self.hw.icmp(Predicate::Eq.code(), route, rc);
            v = self.hw.mux(is, values[r], v);
        }
        v
    }

    pub(super) fn route_is(&mut self, route: ValueId, r: usize) -> ValueId {
        let rc = self.hw.constant(r as u128, self.hw.width(route));
        self.hw.icmp(Predicate::Eq.code(), route, rc)
    }

    /// Whether memory `m` is an external one.
    pub(super) fn external(&self, m: MemId) -> bool {
        self.k.memories[m].arg.is_some()
    }

    /// Builds the engines and the tag counters (after every controller
    /// access is known, before the memories are connected).
    pub(super) fn build_dma(&mut self) {
        let always = self.hw.constant(1, 1);
        let mut decrements = Vec::new();
        for n in 0..self.dma.engines.len() {
            let streams = self.streams;
            let done = match streams.iter().find(|s| s.name == stream_name(n)) {
                Some(s) => self.build_stream_engine(n, s),
                None => self.build_engine(n),
            };
            decrements.push(done);
        }
        for (j, c) in self.dma.counters.clone().into_iter().enumerate() {
            let jv = self.hw.constant(j as u128, self.dma.tag_width);
            let mut incs = Vec::new();
            for (cond, slot) in self.dma.increments.clone() {
                let this = self.hw.icmp(Predicate::Eq.code(), slot, jv);
                incs.push(self.hw.and(cond, this));
            }
            let inc = self.hw.any(&incs);
            let mut next = self.hw.resize(inc, c.width, false);
            next = self.hw.comb("comb.add", &[c.q, next]);
            for &(cond, slot) in &decrements {
                let this = self.hw.icmp(Predicate::Eq.code(), slot, jv);
                let dec = self.hw.and(cond, this);
                let dec = self.hw.resize(dec, c.width, false);
                next = self.hw.comb("comb.sub", &[next, dec]);
            }
            self.write(c, always, next);
        }
    }

    /// The queue of engine `n`: pushes in, the head out when `pop`.
    pub(super) fn build_queue(&mut self, n: usize, pop: ValueId) {
        let e = &self.dma.engines[n];
        let (queue, queued, widths) = (e.queue.clone(), e.queued, e.widths);
        let pushes = e.pushes.clone();
        let push = self.hw.any(&pushes.iter().map(|p| p.0).collect::<Vec<_>>());
        let cmd: Cmd = std::array::from_fn(|f| {
            let mut v = self.hw.constant(0, widths[f]);
            for (cond, c) in pushes.iter().rev() {
                v = self.hw.mux(*cond, c[f], v);
            }
            v
        });
        let qw = queued.width;
        let pop_w = self.hw.resize(pop, qw, false);
        let push_w = self.hw.resize(push, qw, false);
        let after_pop = self.hw.comb("comb.sub", &[queued.q, pop_w]);
        for (i, slot) in queue.iter().enumerate() {
            let iv = self.hw.constant(i as u128, qw);
            let here = self.hw.icmp(Predicate::Eq.code(), after_pop, iv);
            let into = self.hw.and(push, here);
            for (f, (&reg, &value)) in slot.iter().zip(&cmd).enumerate() {
                self.write(reg, into, value);
                if let Some(next) = queue.get(i + 1) {
                    self.write(reg, pop, next[f].q);
                }
            }
        }
        let next = self.hw.comb("comb.add", &[after_pop, push_w]);
        let always = self.hw.constant(1, 1);
        self.write(queued, always, next);
    }

    /// Builds engine `n`; gives its completion (condition, tag element).
    fn build_engine(&mut self, n: usize) -> (ValueId, ValueId) {
        let (routes, w) = (
            self.dma.engines[n].routes.clone(),
            self.dma.engines[n].widths,
        );
        let head: Cmd = std::array::from_fn(|f| self.dma.engines[n].queue[0][f].q);
        let queued = self.dma.engines[n].queued;
        let dw = self.k.memories[routes[0].0].element_width;
        let aw = w[FAST];
        let always = self.hw.constant(1, 1);
        let name = |s: &str| format!("dma{n}_{s}");
        // The active transfer.
        let active = self.hw.reg(&name("active"), 1, Some(0));
        let a: [Reg; FIELDS] = std::array::from_fn(|f| {
            let label = [
                "route", "src_slow", "fast", "row", "left", "per", "stride", "tag",
            ][f];
            self.hw.reg(&name(label), w[f], None)
        });
        let col = self.hw.reg(&name("col"), w[COUNT], None);
        // The word in flight (read last cycle) and the held word.
        let inflight = self.hw.reg(&name("inflight"), 1, Some(0));
        let r_route = self.hw.reg(&name("r_route"), w[ROUTE], None);
        let r_dst = self.hw.reg(&name("r_dst"), aw, None);
        let r_last = self.hw.reg(&name("r_last"), 1, None);
        let r_tag = self.hw.reg(&name("r_tag"), w[TAG], None);
        let held = self.hw.reg(&name("held"), 1, Some(0));
        let h_route = self.hw.reg(&name("h_route"), w[ROUTE], None);
        let h_dst = self.hw.reg(&name("h_dst"), aw, None);
        let h_last = self.hw.reg(&name("h_last"), 1, None);
        let h_tag = self.hw.reg(&name("h_tag"), w[TAG], None);
        let h_data = self.hw.reg(&name("h_data"), dw, None);
        self.dma
            .busy
            .push([name("active"), name("inflight"), name("held")]);
        // The controller's use of each external memory this cycle.
        let mut controller = rustc_hash::FxHashMap::default();
        for &(s, d) in &routes {
            for m in [s, d] {
                if self.external(m) && !controller.contains_key(&m) {
                    let en: Vec<ValueId> = self.accesses[m]
                        .iter()
                        .filter(|x| x.port == DMA_PORT)
                        .map(|x| x.enable)
                        .collect();
                    let used = self.hw.any(&en);
                    controller.insert(m, used);
                }
            }
        }
        // DMA read ports of on-chip sources (connected below).
        let mut read_ports: rustc_hash::FxHashMap<MemId, OpId> = Default::default();
        let mut src_data = Vec::new();
        for &(s, _) in &routes {
            if self.external(s) {
                src_data.push(self.read_data[s][DMA_PORT as usize]);
                continue;
            }
            let port = match read_ports.get(&s) {
                Some(&p) => p,
                None => {
                    let p = self.dma_read_port(s);
                    read_ports.insert(s, p);
                    p
                }
            };
            src_data.push(self.hw.ir.result(port, 0));
        }
        // Write stage: the held word, else the word in flight.
        let cand_v = self.hw.any(&[held.q, inflight.q]);
        let cand_route = self.hw.mux(held.q, h_route.q, r_route.q);
        let cand_dst = self.hw.mux(held.q, h_dst.q, r_dst.q);
        let cand_last = self.hw.mux(held.q, h_last.q, r_last.q);
        let cand_tag = self.hw.mux(held.q, h_tag.q, r_tag.q);
        let read_now = self.by_route(r_route.q, &src_data);
        let cand_data = self.hw.mux(held.q, h_data.q, read_now);
        let mut dst_free = Vec::new();
        for &(_, d) in &routes {
            dst_free.push(match controller.get(&d) {
                Some(&used) => self.hw.not(used),
                None => always,
            });
        }
        let free = self.by_route(cand_route, &dst_free);
        let wok = self.hw.and(cand_v, free);
        let mut writes_to: rustc_hash::FxHashMap<MemId, Vec<ValueId>> = Default::default();
        for (r, &(_, d)) in routes.iter().enumerate() {
            let is = self.route_is(cand_route, r);
            let en = self.hw.and(wok, is);
            writes_to.entry(d).or_default().push(en);
        }
        let not_wok = self.hw.not(wok);
        let stay = self.hw.and(cand_v, not_wok);
        self.write(held, always, stay);
        let not_held = self.hw.not(held.q);
        let to_hold = self.hw.and(not_held, stay);
        self.write(h_route, to_hold, r_route.q);
        self.write(h_dst, to_hold, r_dst.q);
        self.write(h_last, to_hold, r_last.q);
        self.write(h_tag, to_hold, r_tag.q);
        self.write(h_data, to_hold, read_now);
        let complete = self.hw.and(wok, cand_last);
        // Issue stage.
        let mut src_free = Vec::new();
        for &(s, _) in &routes {
            src_free.push(match controller.get(&s) {
                Some(&used) => {
                    let writing = writes_to.get(&s).cloned().unwrap_or_default();
                    let writing = self.hw.any(&writing);
                    let busy = self.hw.any(&[used, writing]);
                    self.hw.not(busy)
                }
                None => always,
            });
        }
        let free = self.by_route(a[ROUTE].q, &src_free);
        let blocked = self.hw.and(inflight.q, not_wok);
        let room = self.hw.any(&[held.q, blocked]);
        let room = self.hw.not(room);
        let ready = self.hw.and(active.q, free);
        let issue = self.hw.and(ready, room);
        let col_w = self.hw.resize(col.q, aw, false);
        let slow_addr = self.hw.comb("comb.add", &[a[SLOW].q, col_w]);
        let src_addr = self.hw.mux(a[SRC_SLOW].q, slow_addr, a[FAST].q);
        let dst_addr = self.hw.mux(a[SRC_SLOW].q, a[FAST].q, slow_addr);
        let one_c = self.hw.constant(1, w[COUNT]);
        let last = self.hw.icmp(Predicate::Eq.code(), a[COUNT].q, one_c);
        let col_next = self.hw.comb("comb.add", &[col.q, one_c]);
        let wrap = self.hw.icmp(Predicate::Eq.code(), col_next, a[PER].q);
        // Take the queue's head when idle or as the last word issues.
        let zero_q = self.hw.constant(0, queued.width);
        let nonempty = self.hw.icmp(Predicate::Ne.code(), queued.q, zero_q);
        let finishing = self.hw.and(issue, last);
        let not_active = self.hw.not(active.q);
        let free_slot = self.hw.any(&[not_active, finishing]);
        let take = self.hw.and(nonempty, free_slot);
        self.build_queue(n, take);
        let not_finishing = self.hw.not(finishing);
        let keep = self.hw.and(active.q, not_finishing);
        let next_active = self.hw.any(&[take, keep]);
        self.write(active, always, next_active);
        for (&reg, &value) in a.iter().zip(&head) {
            self.write(reg, take, value);
        }
        let zero_col = self.hw.constant(0, w[COUNT]);
        self.write(col, take, zero_col);
        let left = self.hw.comb("comb.sub", &[a[COUNT].q, one_c]);
        self.write(a[COUNT], issue, left);
        let one_a = self.hw.constant(1, aw);
        let fast_next = self.hw.comb("comb.add", &[a[FAST].q, one_a]);
        self.write(a[FAST], issue, fast_next);
        let col_after = self.hw.mux(wrap, zero_col, col_next);
        self.write(col, issue, col_after);
        let row_next = self.hw.comb("comb.add", &[a[SLOW].q, a[STRIDE].q]);
        let row_after = self.hw.mux(wrap, row_next, a[SLOW].q);
        self.write(a[SLOW], issue, row_after);
        self.write(inflight, always, issue);
        self.write(r_route, issue, a[ROUTE].q);
        self.write(r_dst, issue, dst_addr);
        self.write(r_last, issue, last);
        self.write(r_tag, issue, a[TAG].q);
        // The memories' DMA accesses.
        let mut reads_from: rustc_hash::FxHashMap<MemId, Vec<ValueId>> = Default::default();
        for (r, &(s, _)) in routes.iter().enumerate() {
            let is = self.route_is(a[ROUTE].q, r);
            let en = self.hw.and(issue, is);
            reads_from.entry(s).or_default().push(en);
        }
        for (m, ens) in reads_from {
            let en = self.hw.any(&ens);
            let address = self.hw.resize(src_addr, self.address_width(m), false);
            match read_ports.get(&m) {
                Some(&port) => {
                    self.hw.ir.set_operand(port, 1, address);
                    self.hw.ir.set_operand(port, 3, en);
                }
                None => self.accesses[m].push(Access {
                    port: DMA_PORT,
                    enable: en,
                    address,
                    data: None,
                    lanes: None,
                }),
            }
        }
        for (m, ens) in writes_to {
            let en = self.hw.any(&ens);
            let address = self.hw.resize(cand_dst, self.address_width(m), false);
            if self.external(m) {
                self.accesses[m].push(Access {
                    port: DMA_PORT,
                    enable: en,
                    address,
                    data: Some(cand_data),
                    lanes: None,
                });
            } else {
                self.dma_write_port(m, address, en, cand_data);
            }
        }
        (complete, cand_tag)
    }

    /// A read port of on-chip memory `m` for its engine (address and
    /// enable connected later).
    pub(super) fn dma_read_port(&mut self, m: MemId) -> OpId {
        let handle = self.rams[&m].0;
        let address = self.hw.constant(0, self.address_width(m));
        let enable = self.hw.constant(0, 1);
        let dt = self.hw.int(self.k.memories[m].element_width);
        let clock = self.hw.clock;
        self.hw.op(
            "seq.firmem.read_port",
            &[handle, address, clock, enable],
            &[dt],
            vec![],
            vec![],
        )
    }

    /// A write port of on-chip memory `m` for its engine.
    pub(super) fn dma_write_port(
        &mut self,
        m: MemId,
        address: ValueId,
        enable: ValueId,
        data: ValueId,
    ) {
        let handle = self.rams[&m].0;
        let seg = self.hw.ctx.int_array_attr(32, &[1, 1, 1, 1, 1, 0]);
        let clock = self.hw.clock;
        self.hw.op(
            "seq.firmem.write_port",
            &[handle, address, clock, enable, data],
            &[],
            vec![("operandSegmentSizes", seg)],
            vec![],
        );
    }
}
