//! A static model of the cycles of a kernel with DMA, from its schedule
//! and the DMA engines `construct/dma.rs` builds, without simulating it: the
//! controller's states are walked as `trips` counts them, with a clock;
//! each `affine.dma_start` takes its state's cycle and queues its
//! transfer on its engine (one engine per group of linked memories, at
//! most [`QUEUE_DEPTH`] transfers queued besides the active one: a start
//! finding the queue full waits until one becomes active); an engine
//! moves a word a cycle, so a transfer of `N` words that becomes active
//! at cycle `b` (the cycle after its start, or after the engine's
//! previous transfer) has read its last word at `b + N`, and its tag
//! element's counter is seen at zero [`LAG`] cycles later; an
//! `affine.dma_wait` leaves the cycle after that (at least one cycle). With double
//! buffering (`affine-pipeline-data-transfer`) the next tile's transfer
//! runs while the pipelines compute on the current one, and only what
//! the computation does not hide is waited. The controller's accesses to
//! an external memory take its port from the engine (the engine then
//! waits for the cycles they leave): the model does not time that and
//! gives none for a kernel whose datapath accesses an external memory an
//! engine transfers from or to (`tests/hls/dma-shared.mlir`: 167 cycles
//! co-simulated, 103 by the model). Copy generation
//! (`affine-data-copy-generate`) moves every access of the copied band to
//! the on-chip buffers, which have DMA ports of their own: there the
//! engines never wait for the controller and the model is exact.

use crate::flow::analysis::dma_engines::{groups, QUEUE_DEPTH};
use crate::flow::analysis::trips::{value, DEPTH};
use crate::flow::schedule::Schedules;
use crate::model::kernel::{Item, Kernel, LoopId, Val};
use rustc_hash::FxHashMap;

/// Cycles from a transfer's last word read to its wait seeing the tag
/// counter at zero: the write a cycle after the read, the counter's
/// register a cycle after the write.
const LAG: u64 = 2;

/// Iterations visited before giving up.
const BUDGET: u64 = 20_000_000;

/// The modelled cycles from `start` to `done` of `k` under `s`; none
/// when a bound, a transfer's size or a tag element depends on the data,
/// the kernel has an `scf.while`, or its datapath shares an external
/// memory's port with an engine.
pub fn latency(k: &Kernel, s: &Schedules) -> Option<u64> {
    let (routes, of_start) = groups(k);
    let shared = |m: usize| {
        k.memories[m].arg.is_some() && routes.iter().flatten().any(|&(a, b)| a == m || b == m)
    };
    if k.nodes.iter().any(|n| n.op.memory().is_some_and(shared)) {
        return None;
    }
    let engines = of_start
        .iter()
        .flatten()
        .map(|&(e, _)| e + 1)
        .max()
        .unwrap_or(0);
    let mut m = Model {
        k,
        s,
        of_start,
        env: vec![None; k.loops.len()],
        t: 0,
        free: vec![0; engines],
        queued: vec![Vec::new(); engines],
        done: FxHashMap::default(),
        budget: BUDGET,
    };
    m.items(&k.body)?;
    Some(m.t + 1)
}

struct Model<'a> {
    k: &'a Kernel,
    s: &'a Schedules,
    of_start: Vec<Option<(usize, usize)>>,
    env: Vec<Option<i64>>,
    /// The current cycle (from the cycle `start` is taken).
    t: u64,
    /// The cycle each engine's last accepted transfer ends.
    free: Vec<u64>,
    /// The cycles each engine's transfers become active.
    queued: Vec<Vec<u64>>,
    /// The cycle each tag element's last transfer ends.
    done: FxHashMap<(usize, i64), u64>,
    budget: u64,
}

impl Model<'_> {
    fn items(&mut self, items: &[Item]) -> Option<()> {
        for it in items {
            match *it {
                Item::Block(b) => self.t += u64::from(self.s.states[b]),
                Item::Loop(l) => self.run_loop(l)?,
                Item::Dma(d) => self.dma(d)?,
                Item::Call(c) => self.t += self.k.calls[c].latency? + 1,
            }
        }
        Some(())
    }

    fn run_loop(&mut self, l: LoopId) -> Option<()> {
        let lp = &self.k.loops[l];
        if lp.test.is_some() {
            return None;
        }
        let crate::flow::analysis::trips::Iterations { lo, step, count: n } =
            crate::flow::analysis::trips::flat_iterations(self.k, &self.env, l)?;
        if let Some(p) = &self.s.pipes[l] {
            self.t += if n == 0 {
                1
            } else {
                (n - 1) * u64::from(p.ii) + u64::from(p.depth)
            };
            return Some(());
        }
        let head = crate::flow::schedule::needs_head(self.k, self.s, l);
        let mut iv = lo;
        for _ in 0..n {
            self.budget = self.budget.checked_sub(1)?;
            self.env[l] = Some(iv);
            self.t += u64::from(head);
            let body = lp.body.clone();
            self.items(&body)?;
            iv += step;
        }
        self.env[l] = None;
        self.t += u64::from(head);
        Some(())
    }

    fn dma(&mut self, d: usize) -> Option<()> {
        let dma = &self.k.dmas[d];
        let slot = (dma.tag, value(self.k, &self.env, dma.tag_index, DEPTH)?);
        let Some(transfer) = &dma.transfer else {
            // A wait: its state, until the element's transfers are done.
            let ready = self.done.get(&slot).copied().unwrap_or(0);
            self.t = self.t.max(ready) + 1;
            return Some(());
        };
        // The engine reads the count unsigned (a narrowed `index`
        // constant may have its top bit set).
        let words = match transfer.count {
            Val::Const(c) => u64::try_from(self.k.consts[c].0).ok()?,
            v => u64::try_from(value(self.k, &self.env, v, DEPTH)?).ok()?,
        };
        let (e, _) = self.of_start[d]?;
        // A full queue holds the start until a queued transfer is active.
        let waiting = |q: &[u64], t: u64| q.iter().filter(|&&b| b > t).count() as u32;
        while waiting(&self.queued[e], self.t) >= QUEUE_DEPTH {
            let next = self.queued[e]
                .iter()
                .copied()
                .filter(|&b| b > self.t)
                .min()?;
            self.t = next;
        }
        let begin = (self.t + 1).max(self.free[e]);
        let end = begin + words + LAG;
        self.free[e] = begin + words;
        self.queued[e].retain(|&b| b > self.t);
        self.queued[e].push(begin);
        let done = self.done.entry(slot).or_insert(0);
        *done = (*done).max(end);
        self.t += 1;
        Some(())
    }
}
