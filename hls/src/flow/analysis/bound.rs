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
//! - a pipelined loop of `N` iterations at least `(N - 1) * R + 1`
//!   cycles, `R` the II bound of its memory ports
//!   (`max ceil(accesses per iteration / ports)`, at least 1), which its
//!   modulo schedule reaches at best (its depth is not counted: what
//!   follows may overlap its drain, `schedule/overlap.rs`); a loop that
//!   falls back to sequential execution takes at least `N * max(R, D)`,
//!   `D` its body's `C + 1`;
//! - a sequential loop at least `N * max(body, 1)` (an iteration passes
//!   through a state of its body or through its head state), and
//!   `N + 1 + N * body` where it surely has a head state (its bounds are
//!   not constants, as the controller builds it);
//! - a call its callee's least latency plus one, a DMA operation one
//!   cycle, an `scf.while` nothing (it may leave at once), and a loop
//!   whose bounds depend on data nothing;
//! - a dataflow group its longest task's bound plus one (the join).
//!
//! - a pipelined loop's II bound is also at least `ceil(ops / units)`
//!   for each `[limits]` class that datapath rewriting leaves alone
//!   (divisions by a variable, float additions, multiplications and
//!   divisions): each operation takes a unit for at least a cycle of
//!   each II. Multiplications are left out (rewriting may factor
//!   products together);
//! - and at least the sure cycles of a chain closing a recurrence
//!   ([`recurrence`]): from a carried value to the value yielded for it,
//!   or from a load to the store it reads `d` iterations later (over
//!   `d`); the float operations, the dividers' stages and the loads on
//!   the chain: the part of the recurrence bound (RecMII) that rewriting
//!   cannot lower. Integer additions and the like count no cycle
//!   (rewriting reassociates them, and they chain within a cycle).
//!
//! The walk keeps each block's figure and each pipelined loop's II bound
//! and depth (they do not depend on the induction variables), so it costs
//! a step per iteration of the sequential loops.
//!
//! [`counter_luts`] adds the loop counters' incrementers on a path of the
//! loop tree to the LUTs.
//!
//! [`narrowest_product`] bounds the area: a product of two full-width
//! values (loads from external memories, scalar arguments, such
//! products) whose bits are all
//! read (by a store, or an add, subtract or multiply of its width whose
//! bits are) needs a multiplier whatever the schedule: rewriting may
//! factor products together (`a*b + a*c` to `a*(b + c)`) but keeps one,
//! and the estimate prices a multiplier of a product of full-width
//! operands at its width.

use super::deps::MemDep;
use crate::model::kernel::{Item, Kernel, LoopId, Op, Val};

/// Iterations visited before the walk gives up (and bounds nothing).
const BUDGET: u64 = 2_000_000;

/// A lower bound on the cycles from `start` to `done` of `k` (lifted,
/// with its memories' ports set), for any schedule the flow gives it;
/// `recurrences` has each pipelined loop's [`recurrence`] bound.
pub fn latency(k: &Kernel, recurrences: &[u64]) -> u64 {
    let mut w = Walk {
        k,
        recurrences,
        env: vec![None; k.loops.len()],
        budget: BUDGET,
        blocks: vec![None; k.blocks.len()],
        pipelines: vec![None; k.loops.len()],
    };
    w.body().map_or(0, |c| c + 1)
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

/// The II bound of the limited units for `nodes`, one iteration's: the
/// most operations of a class rewriting keeps (not `mul`; divisions by a
/// variable) over its `[limits]` units (0 when none is limited).
pub fn unit_bound(k: &Kernel, nodes: &[usize]) -> u64 {
    let mut per_class = rustc_hash::FxHashMap::<&str, (u64, u32)>::default();
    for &n in nodes {
        let Some((class, units)) = k.limited(n) else {
            continue;
        };
        let by_constant = k.nodes[n].args.iter().any(|&a| k.const_value(a).is_some());
        if class == "mul" || (class == "div" && by_constant) {
            continue;
        }
        per_class.entry(class).or_insert((0, units)).0 += 1;
    }
    per_class
        .values()
        .map(|&(ops, units)| ops.div_ceil(u64::from(units.max(1))))
        .max()
        .unwrap_or(0)
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

/// The recurrence bound (RecMII) of pipelined loop `l`: the most sure
/// cycles (`cycles` of a node: a float operation's latency, a divider's
/// stages, a load's cycle) on a chain closing a recurrence, 0 where none
/// does. The chains are
/// - from a value `l` carries to the value yielded for it: the next
///   iteration's first operation on the chain waits for the last one's
///   result (read through a wire at best in the cycle it is computed);
/// - from a load to the data of a store that the load `distance`
///   iterations later reads (`deps`), over the distance: the store's
///   data reaches that load, forwarded at best, when the load's own
///   word would (its cycle is not counted).
///
/// A chain passes through the operations rewriting leaves alone (float
/// operations, divisions by a variable, loads: their operands stay
/// theirs) and through integer operations that are one-to-one in the
/// chain's value whatever their other operands are: an add, subtract or
/// xor whose other operand does not depend on the chain, a sign or zero
/// extension. Rewriting keeps what such a value computes, so it keeps
/// its dependence on the chain (a product, a shift or a select may lose
/// it: `x * 0`, `x - x`).
pub fn recurrence(
    k: &Kernel,
    l: LoopId,
    deps: &[MemDep],
    cycles: &mut dyn FnMut(usize) -> u64,
) -> u64 {
    let nodes = k.body_nodes(l);
    let mut most = 0;
    for (i, &y) in k.loops[l].yields.iter().enumerate() {
        let Val::Node(end) = y else { continue };
        let reached = chains(k, &nodes, Val::Carried(l, i), cycles);
        most = most.max(reached.get(&Val::Node(end)).copied().unwrap_or(0));
    }
    for d in deps {
        let (Op::Store(_), Op::Load(_)) = (k.nodes[d.src].op, k.nodes[d.dst].op) else {
            continue;
        };
        let Some(&data) = k.nodes[d.src].args.get(1) else {
            continue;
        };
        let reached = chains(k, &nodes, Val::Node(d.dst), cycles);
        if let Some(&c) = reached.get(&data) {
            most = most.max(c.div_ceil(u64::from(d.distance.max(1))));
        }
    }
    most
}

/// The sure cycles from `source` to each value of `nodes` (program
/// order) that a chain reaches (see [`recurrence`]); `source` at 0.
fn chains(
    k: &Kernel,
    nodes: &[usize],
    source: Val,
    cycles: &mut dyn FnMut(usize) -> u64,
) -> rustc_hash::FxHashMap<Val, u64> {
    let mut reached = rustc_hash::FxHashMap::<Val, u64>::default();
    reached.insert(source, 0);
    // Every value that depends on `source` at all.
    let mut depends = rustc_hash::FxHashSet::<Val>::default();
    depends.insert(source);
    let start = match source {
        Val::Node(s) => nodes.iter().position(|&n| n == s).map_or(0, |p| p + 1),
        _ => 0,
    };
    for &n in &nodes[start..] {
        let node = &k.nodes[n];
        if !node.args.iter().any(|a| depends.contains(a)) {
            continue;
        }
        depends.insert(Val::Node(n));
        let on_chain: Vec<(usize, u64)> = node
            .args
            .iter()
            .enumerate()
            .filter_map(|(j, a)| reached.get(a).map(|&c| (j, c)))
            .collect();
        let Some(from) = on_chain.iter().map(|&(_, c)| c).max() else {
            continue;
        };
        let dependent = node.args.iter().filter(|a| depends.contains(a)).count();
        let passes = match node.op {
            Op::Float(_) => true,
            Op::DivS | Op::DivU | Op::RemS | Op::RemU => node
                .args
                .get(1)
                .is_some_and(|&d| k.const_value(d).is_none()),
            Op::Load(_) => on_chain.iter().any(|&(j, _)| j == 0),
            Op::Add | Op::Sub | Op::Xor | Op::SExt | Op::ZExt => dependent == 1,
            _ => false,
        };
        if passes {
            reached.insert(Val::Node(n), from + cycles(n));
        }
    }
    reached
}

/// A sequential block's states: each memory's accesses over its ports,
/// its chain of loads (0 when it accesses no memory: a block may take no
/// state).
fn block(k: &Kernel, b: usize) -> u64 {
    let nodes = &k.blocks[b];
    port_bound(k, nodes).max(chain(k, nodes))
}

/// The width of the narrowest product of `k` that keeps a multiplier in
/// every design (see the module's doc), if any.
pub fn narrowest_product(k: &Kernel) -> Option<u32> {
    let n = k.nodes.len();
    // Whether all of a node's bits (`read`) and of a loop's carried value
    // (`carried`) are read: by a store's data, an add, subtract or
    // multiply of the same width whose bits are, or (a node) the carried
    // value it yields; to a fixed point (recurrences).
    let mut read = vec![false; n];
    let mut carried: Vec<Vec<bool>> = k
        .loops
        .iter()
        .map(|l| vec![false; l.yields.len()])
        .collect();
    let mut users = rustc_hash::FxHashMap::<Val, Vec<usize>>::default();
    for (u, node) in k.nodes.iter().enumerate() {
        for &a in &node.args {
            if matches!(a, Val::Node(_) | Val::Carried(..)) {
                users.entry(a).or_default().push(u);
            }
        }
    }
    let reads_all = |read: &[bool], v: Val, w: u32| {
        users.get(&v).is_some_and(|us| {
            us.iter().any(|&u| {
                let user = &k.nodes[u];
                match user.op {
                    Op::Store(_) => user.args.get(1) == Some(&v),
                    Op::Add | Op::Sub | Op::Mul => user.width == w && read[u],
                    _ => false,
                }
            })
        })
    };
    // The carried values each node yields.
    let mut yields: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (l, lp) in k.loops.iter().enumerate() {
        for (i, &y) in lp.yields.iter().enumerate() {
            if let Val::Node(m) = y {
                yields[m].push((l, i));
            }
        }
    }
    loop {
        let mut changed = false;
        for (l, lp) in k.loops.iter().enumerate() {
            for (i, &w) in lp.carried_widths.iter().enumerate() {
                if i < carried[l].len() && !carried[l][i] && reads_all(&read, Val::Carried(l, i), w)
                {
                    carried[l][i] = true;
                    changed = true;
                }
            }
        }
        for m in (0..n).rev() {
            if read[m] {
                continue;
            }
            let yielded = yields[m].iter().any(|&(l, i)| carried[l][i]);
            if yielded || reads_all(&read, Val::Node(m), k.nodes[m].width) {
                read[m] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Whether a value may have all of its bits set: a load from an
    // external memory (a port; on-chip arrays may become registers whose
    // bits the estimate follows), a scalar argument, a product of such
    // (operands first).
    let mut full = vec![false; n];
    let operand = |full: &[bool], v: Val| match v {
        Val::Node(m) => full.get(m).copied().unwrap_or(false),
        Val::Arg(i) => matches!(k.args.get(i), Some(crate::model::kernel::Arg::Scalar(_))),
        _ => false,
    };
    let mut narrowest: Option<u32> = None;
    for m in 0..n {
        let node = &k.nodes[m];
        full[m] = match node.op {
            Op::Load(mem) => k.memories[mem].arg.is_some(),
            Op::Mul => node.args.len() == 2 && node.args.iter().all(|&a| operand(&full, a)),
            _ => false,
        };
        if node.op == Op::Mul && full[m] && read[m] && node.width > 0 {
            narrowest = Some(narrowest.map_or(node.width, |w| w.min(node.width)));
        }
    }
    narrowest
}

/// The LUTs of the loop counters' incrementers on the costliest path of
/// the loop tree: each loop of constant bounds that runs at least 4
/// iterations (not flattened, not an `scf.while`) counts with a register
/// and an adder of its own, of at least `ceil(log2(trip))` bits (priced
/// as the library's add at that width); loops on one path run together,
/// so their counters are distinct (siblings may share one, so only the
/// costliest path counts).
pub fn counter_luts(k: &Kernel, lib: &crate::model::target::library::Library) -> u64 {
    fn path(k: &Kernel, lib: &crate::model::target::library::Library, list: &[Item]) -> u64 {
        list.iter()
            .map(|it| match *it {
                Item::Loop(l) => {
                    let lp = &k.loops[l];
                    let trip = match (lp.lower.constant(), lp.upper.constant()) {
                        (Some(a), Some(b)) if b > a => {
                            ((b - a) as u64).div_ceil(lp.step.max(1) as u64)
                        }
                        _ => 0,
                    };
                    let own = if trip >= 4 && lp.flat.is_empty() && lp.test.is_none() {
                        let bits = u64::BITS - (trip - 1).leading_zeros();
                        lib.luts("add", bits)
                            .map_or(0, |l| l.max(0.0).floor() as u64)
                    } else {
                        0
                    };
                    own + path(k, lib, &lp.body)
                }
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }
    path(k, lib, &k.body)
}

struct Walk<'a> {
    k: &'a Kernel,
    /// Each pipelined loop's recurrence bound.
    recurrences: &'a [u64],
    env: Vec<Option<i64>>,
    budget: u64,
    /// Each block's figure, once computed.
    blocks: Vec<Option<u64>>,
    /// Each pipelined loop's II bound, once computed.
    pipelines: Vec<Option<u64>>,
}

impl Walk<'_> {
    /// The function's body, the tasks of a group that may run at once
    /// side by side.
    fn body(&mut self) -> Option<u64> {
        let k = self.k;
        let mut total = 0u64;
        let mut i = 0;
        while i < k.body.len() {
            let Some(&group) = k.groups.iter().find(|g| g.first == i) else {
                total = total.saturating_add(self.items(&k.body[i..=i])?);
                i += 1;
                continue;
            };
            let mut longest = 0u64;
            for j in group.items() {
                longest = longest.max(self.items(&k.body[j..=j])?);
            }
            total = total.saturating_add(longest + 1);
            i = group.first + group.tasks;
        }
        Some(total)
    }

    /// None: the walk gave up (the bound is then 0 for the whole run).
    fn items(&mut self, items: &[Item]) -> Option<u64> {
        let mut total = 0u64;
        for it in items {
            total = total.saturating_add(match *it {
                Item::Block(b) => *self.blocks[b].get_or_insert_with(|| block(self.k, b)),
                Item::Loop(l) => self.run_loop(l)?,
                Item::Dma(_) => 1,
                Item::Call(c) => self.k.calls[c].latency_min.unwrap_or(0) + 1,
            });
        }
        Some(total)
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
            let k = self.k;
            let recurrence = self.recurrences.get(l).copied().unwrap_or(0);
            let r = *self.pipelines[l].get_or_insert_with(|| {
                let nodes = k.body_nodes(l);
                port_bound(k, &nodes)
                    .max(unit_bound(k, &nodes))
                    .max(recurrence)
                    .max(1)
            });
            return Some((n - 1).saturating_mul(r).saturating_add(1));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A nest of 16 x 8 iterations beside a loop of 64: the costlier
    /// path is the nest's two counters (4 and 3 bits), not the single
    /// counter of 6 bits; a loop of 2 iterations counts nothing.
    #[test]
    fn counters_of_the_costliest_nest_path() {
        let k = crate::test_support::kernel(
            "func.func @f(%a: memref<64xi32>) {
  %c = arith.constant 7 : i32
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 8 {
      affine.for %t = 0 to 2 {
        affine.store %c, %a[%i + %j + %t] : memref<64xi32>
      }
    }
  }
  affine.for %i = 0 to 64 {
    affine.store %c, %a[%i] : memref<64xi32>
  }
  return
}",
            "f",
        );
        let lib = crate::model::target::library::Library::for_target("ecp5-25k").unwrap();
        let luts = |bits| lib.luts("add", bits).unwrap().floor() as u64;
        assert!(luts(4) + luts(3) > luts(6));
        assert_eq!(counter_luts(&k, &lib), luts(4) + luts(3));
    }
}
