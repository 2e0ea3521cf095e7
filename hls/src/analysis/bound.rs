//! A lower bound on the static latency of a lifted kernel before it is
//! scheduled: what `silica dse` prunes points with. It walks the loop
//! tree as `trips` does, with each schedule figure replaced by a least
//! value the scheduler cannot go under:
//! - a sequential block takes at least `ceil(accesses / ports)` states
//!   for each memory it accesses (a port serves one access a cycle), and
//!   at least `C + 1`, `C` the most loads on a chain of data dependences
//!   to a memory access (a load's word arrives a cycle later; the other
//!   operations may chain in a cycle, and datapath rewriting keeps the
//!   accesses and their order);
//! - a pipelined loop of `N` iterations at least `(N - 1) * R + D`
//!   cycles, `R` the II bound of its memory ports
//!   (`max ceil(accesses per iteration / ports)`, at least 1), which its
//!   modulo schedule reaches at best, and `D` its body's `C + 1` (its
//!   depth); a loop that falls back to sequential execution takes at
//!   least `N * max(R, D)`;
//! - a sequential loop at least `N * max(body, 1)` (an iteration passes
//!   through a state of its body or through its head state), and
//!   `N + 1 + N * body` where it surely has a head state (its bounds are
//!   not constants, as the controller builds it);
//! - a call its callee's least latency plus one, a DMA operation one
//!   cycle, an `scf.while` nothing (it may leave at once), and a loop
//!   whose bounds depend on data nothing.
//!
//! Unit limits (`[limits]`) are left out: datapath rewriting may remove
//! operations of a limited class after this point, the memory accesses
//! it keeps.

use crate::kernel::{Item, Kernel, LoopId, Op, Val};

/// Iterations visited before the walk gives up (and bounds nothing).
const BUDGET: u64 = 2_000_000;

/// A lower bound on the cycles from `start` to `done` of `k` (lifted,
/// with its memories' ports set), for any schedule the flow gives it.
pub fn latency(k: &Kernel) -> u64 {
    let mut w = Walk {
        k,
        env: vec![None; k.loops.len()],
        budget: BUDGET,
    };
    w.items(&k.body).map_or(0, |c| c + 1)
}

/// The II bound of the memory ports for `nodes`, one iteration's (0
/// when they access no memory).
pub fn port_bound(k: &Kernel, nodes: &[usize]) -> u64 {
    if nodes.iter().all(|&n| k.nodes[n].op.memory().is_none()) {
        return 0;
    }
    let mut per_memory = vec![0u64; k.memories.len()];
    for &n in nodes {
        if let Some(m) = k.nodes[n].op.memory() {
            per_memory[m] += 1;
        }
    }
    per_memory
        .iter()
        .zip(&k.memories)
        .map(|(&n, m)| n.div_ceil(u64::from(m.ports.max(1))))
        .max()
        .unwrap_or(0)
        .max(1)
}

/// The steps from the first state of `nodes` (one block, or one
/// iteration's) to the last state a memory access among them can take,
/// plus one: the most loads on a chain of data dependences ending at an
/// access, plus one; 0 when they access no memory. `nodes` are in
/// program order (operands first).
pub fn chain(k: &Kernel, nodes: &[usize]) -> u64 {
    let mut ready = rustc_hash::FxHashMap::<usize, u64>::default();
    let mut last = None;
    for &n in nodes {
        let node = &k.nodes[n];
        let start = node
            .args
            .iter()
            .filter_map(|a| match a {
                Val::Node(m) => ready.get(m).copied(),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        let latency = u64::from(matches!(node.op, Op::Load(_)));
        ready.insert(n, start + latency);
        if node.op.memory().is_some() {
            last = last.max(Some(start));
        }
    }
    last.map_or(0, |s| s + 1)
}

struct Walk<'a> {
    k: &'a Kernel,
    env: Vec<Option<i64>>,
    budget: u64,
}

impl Walk<'_> {
    /// None: the walk gave up (the bound is then 0 for the whole run).
    fn items(&mut self, items: &[Item]) -> Option<u64> {
        let mut total = 0u64;
        for it in items {
            total = total.saturating_add(match *it {
                Item::Block(b) => self.block(b),
                Item::Loop(l) => self.run_loop(l)?,
                Item::Dma(_) => 1,
                Item::Call(c) => self.k.calls[c].latency_min.unwrap_or(0) + 1,
            });
        }
        Some(total)
    }

    /// A sequential block's states: each memory's accesses over its
    /// ports, its chain of loads (0 when it accesses no memory: a block
    /// may take no state).
    fn block(&self, b: usize) -> u64 {
        let nodes = &self.k.blocks[b];
        port_bound(self.k, nodes).max(chain(self.k, nodes))
    }

    fn run_loop(&mut self, l: LoopId) -> Option<u64> {
        let lp = &self.k.loops[l];
        if lp.test.is_some() {
            return Some(0);
        }
        let Some(super::trips::Iterations { lo, step, count: n }) =
            super::trips::flat_iterations(self.k, &self.env, l)
        else {
            return Some(0);
        };
        if lp.pipelined {
            if n == 0 {
                return Some(1);
            }
            let nodes = crate::schedule::body_nodes(self.k, l);
            let r = port_bound(self.k, &nodes).max(1);
            let depth = chain(self.k, &nodes).max(1);
            return Some((n - 1).saturating_mul(r).saturating_add(depth));
        }
        // Bounds that are not constants, or no iteration: a head state
        // each iteration and one to leave.
        let head = !matches!(
            (lp.lower.constant(), lp.upper.constant()),
            (Some(a), Some(b)) if b > a
        );
        let mut total = if head { n + 1 } else { 0 };
        let mut iv = lo;
        for _ in 0..n {
            self.budget = self.budget.checked_sub(1)?;
            self.env[l] = Some(iv);
            let body = lp.body.clone();
            let cycles = self.items(&body)?;
            total = total.saturating_add(if head { cycles } else { cycles.max(1) });
            iv += step;
        }
        self.env[l] = None;
        Some(total)
    }
}
