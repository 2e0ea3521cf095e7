//! Overlap of consecutive pipelines: how many cycles before its last
//! iteration has drained a pipelined loop's state may be left (its
//! *lead*), so that what follows — the next entry of the same loop, a
//! sibling pipeline, a block — starts while the valid bits drain the
//! iterations still in flight (`pipeline.rs` leaves the state when only
//! the last `lead` steps of the last iteration remain).
//!
//! The lead of loop `l` (depth `d`) is the largest `e <= d - 1` such that,
//! on every path the controller can take from `l`'s exit, nothing started
//! in the `e` cycles the drain still runs conflicts with it. Cycle 0 is
//! the first cycle after the exit; the drain runs in cycles `0..e`, and
//! the last iteration's step `s` falls in cycle `s - d + e`. Paths are
//! followed, with their offset, through blocks (their accesses at their
//! steps), sequential loops without a head state (entered, latched,
//! left) up to the first pipelined loop (whose iteration 0 starts at the
//! offset, and whose state lasts at least `(N - 1) * II + 1` cycles, so
//! the drain must end within it), or the finish (which waits in a drain
//! state until every pipeline has drained, `construct/control/mod.rs`). Rules:
//!
//! - memory: an access of memory `M` at cycle `c` on the path comes after
//!   `l`'s last access of `M` in the drain (`c > s_max(M) - d + e`). One
//!   rule covers every true, anti and output dependence and the ports
//!   (the two never use `M` in the same cycle), without looking at
//!   addresses: the dependence analysis' finer answer (different words,
//!   a spare port) is not used;
//! - units: an operation of a limited class (`[limits]`, shared units)
//!   at cycle `c` on the path comes after the last cycle in which one of
//!   `l`'s operations of that class is in flight in the drain (from its
//!   start to its result, `c > s + latency - d + e`): the binder may give
//!   both the same unit, as they never run in the same cycle;
//! - values: no carried value of `l` is read outside it (its register is
//!   final only once drained), and re-entering `l` itself needs it to
//!   carry nothing (the entry writes the initial values while the
//!   previous entry's last iterations still write the registers);
//! - anything else on a path (a DMA operation, a call, a head state, an
//!   `scf.while`, a loop whose trip count is not a constant, the entry
//!   to a dataflow group or the end of one of its tasks) may start at
//!   its offset `o` only after the drain: `e <= o`.
//!
//! A kernel with DMA transfers overlaps nothing (its engines share the
//! ports outside the schedule).

use crate::flow::schedule::Schedules;
use crate::model::kernel::{Item, Kernel, LoopId, Val};
use rustc_hash::FxHashMap;

/// Paths followed before giving up (then no overlap).
const DEPTH: u32 = 64;

/// The lead of every loop (0 for sequential loops).
pub fn leads(k: &Kernel, s: &Schedules) -> Vec<u32> {
    let mut pos = FxHashMap::default();
    positions(k, &k.body, None, &mut pos);
    (0..k.loops.len()).map(|l| lead(k, s, &pos, l)).collect()
}

type Positions = FxHashMap<LoopId, (Option<LoopId>, usize)>;

fn positions(k: &Kernel, items: &[Item], parent: Option<LoopId>, pos: &mut Positions) {
    for (i, it) in items.iter().enumerate() {
        if let Item::Loop(l) = *it {
            pos.insert(l, (parent, i));
            positions(k, &k.loops[l].body, Some(l), pos);
        }
    }
}

/// The iterations of one entry of loop `l` (with the loops flattened into
/// it) when its bounds are constants.
fn const_trips(k: &Kernel, l: LoopId) -> Option<u64> {
    let mut n = 1u64;
    for &m in std::iter::once(&l).chain(&k.loops[l].flat) {
        let lp = &k.loops[m];
        let (lo, hi) = (lp.lower.constant()?, lp.upper.constant()?);
        let t = ((hi - lo).max(0) as u64).div_ceil(lp.step.max(1) as u64);
        n = n.checked_mul(t)?;
    }
    Some(n)
}

/// Whether a carried value of `l` is read anywhere but in `l`'s body and
/// yields.
fn carried_read_outside(k: &Kernel, l: LoopId) -> bool {
    let own: Vec<usize> = k.body_nodes(l);
    let is_l = |v: &Val| matches!(v, Val::Carried(m, _) if *m == l);
    let nodes = k
        .nodes
        .iter()
        .enumerate()
        .filter(|(n, _)| !own.contains(n))
        .any(|(_, node)| node.args.iter().any(is_l));
    let loops = k.loops.iter().enumerate().any(|(m, lp)| {
        let bounds = lp.lower.operands.iter().chain(&lp.upper.operands);
        let yields = lp.yields.iter().filter(|_| m != l);
        let test = lp.test.iter().map(|t| &t.cond);
        bounds.chain(&lp.inits).chain(yields).chain(test).any(is_l)
    });
    let calls = k.calls.iter().any(|c| c.scalars.iter().any(is_l));
    nodes || loops || calls || k.returned.iter().any(is_l)
}

struct Drain<'a> {
    k: &'a Kernel,
    s: &'a Schedules,
    pos: &'a Positions,
    l: LoopId,
    depth: i64,
    /// The last step of `l`'s iteration that accesses each memory.
    last_access: FxHashMap<usize, i64>,
    /// The last step of `l`'s iteration in which an operation of each
    /// limited class is in flight (its start plus its latency).
    last_unit: FxHashMap<&'static str, i64>,
    /// The lead allowed so far.
    e: i64,
}

fn lead(k: &Kernel, s: &Schedules, pos: &Positions, l: LoopId) -> u32 {
    let Some(p) = &s.pipes[l] else { return 0 };
    if !k.dmas.is_empty() || p.depth < 2 || carried_read_outside(k, l) {
        return 0;
    }
    let depth = i64::from(p.depth);
    let mut last_access = FxHashMap::default();
    let mut last_unit = FxHashMap::default();
    for n in k.body_nodes(l) {
        let start = i64::from(s.start[n]);
        if let Some(m) = k.nodes[n].op.memory() {
            let last = last_access.entry(m).or_insert(start);
            *last = (*last).max(start);
        }
        if let Some((class, _)) = k.limited(n) {
            let busy = start + i64::from(s.latency[n]);
            let last = last_unit.entry(class).or_insert(busy);
            *last = (*last).max(busy);
        }
    }
    let mut d = Drain {
        k,
        s,
        pos,
        l,
        depth,
        last_access,
        last_unit,
        e: depth - 1,
    };
    let (parent, i) = pos[&l];
    d.follow(parent, i + 1, 0, DEPTH);
    d.e.max(0) as u32
}

impl Drain<'_> {
    /// Something that may not overlap the drain starts at cycle `o`.
    fn barrier(&mut self, o: i64) {
        self.e = self.e.min(o);
    }

    /// An access of memory `m` at cycle `c`.
    fn access(&mut self, m: usize, c: i64) {
        if let Some(&last) = self.last_access.get(&m) {
            self.e = self.e.min(c + self.depth - 1 - last);
        }
    }

    /// Node `n` starting at cycle `c`: its memory access, or its use of a
    /// limited class's unit.
    fn node(&mut self, n: usize, c: i64) {
        if let Some(m) = self.k.nodes[n].op.memory() {
            self.access(m, c);
        }
        if let Some(&last) = self
            .k
            .limited(n)
            .and_then(|(class, _)| self.last_unit.get(class))
        {
            self.e = self.e.min(c + self.depth - 1 - last);
        }
    }

    /// The path from item `i` of `parent`'s body (the function's when
    /// `None`), reached at cycle `o`.
    fn follow(&mut self, parent: Option<LoopId>, i: usize, o: i64, budget: u32) {
        let k = self.k;
        if o >= self.e {
            return;
        }
        let Some(budget) = budget.checked_sub(1) else {
            return self.barrier(o);
        };
        if parent.is_some_and(|p| k.loops[p].test.is_some()) {
            return self.barrier(o);
        }
        // A dataflow group is entered, or one of its tasks ends: other
        // threads run there (`construct/control`).
        let grouped = |j: usize| k.task_at(j).is_some();
        if parent.is_none() && (grouped(i) || i.checked_sub(1).is_some_and(grouped)) {
            return self.barrier(o);
        }
        let items = parent.map_or(&k.body, |p| &k.loops[p].body);
        match items.get(i) {
            Some(&Item::Block(b)) => {
                let states = self.s.states[b];
                if states == 0 {
                    return self.barrier(o);
                }
                for &n in &k.blocks[b] {
                    self.node(n, o + i64::from(self.s.start[n]));
                }
                self.follow(parent, i + 1, o + i64::from(states), budget);
            }
            Some(&Item::Loop(m)) => self.enter(m, o, budget),
            Some(Item::Dma(_) | Item::Call(_)) => self.barrier(o),
            // The finish waits for the drain.
            None => {
                let Some(p) = parent else { return };
                if crate::flow::schedule::needs_head(k, self.s, p) {
                    return self.barrier(o);
                }
                // The latch: back into the body, or past the loop.
                self.follow(parent, 0, o, budget);
                let (outer, at) = self.pos[&p];
                self.follow(outer, at + 1, o, budget);
            }
        }
    }

    /// Entering loop `m` at cycle `o`.
    fn enter(&mut self, m: LoopId, o: i64, budget: u32) {
        let k = self.k;
        let lp = &k.loops[m];
        if lp.test.is_some() {
            return self.barrier(o);
        }
        let Some(p) = &self.s.pipes[m] else {
            if crate::flow::schedule::needs_head(k, self.s, m) {
                return self.barrier(o);
            }
            return self.follow(Some(m), 0, o, budget);
        };
        let n = const_trips(k, m).unwrap_or(0);
        if n == 0 || (m == self.l && !lp.inits.is_empty()) {
            return self.barrier(o);
        }
        for node in k.body_nodes(m) {
            self.node(node, o + i64::from(self.s.start[node]));
        }
        // The drain ends while `m`'s state lasts.
        let least = (n - 1).saturating_mul(u64::from(p.ii)).saturating_add(1);
        self.barrier(o.saturating_add(i64::try_from(least).unwrap_or(i64::MAX)));
    }
}

#[cfg(test)]
mod tests {
    use crate::model::target::library::Library;
    use crate::test_support::kernel;

    /// The depth and lead of each pipelined loop of `text`'s `f` on ECP5
    /// at 20 ns, in loop order.
    fn leads(text: &str) -> Vec<(u32, u32)> {
        leads_limited(text, &[])
    }

    /// `leads` with the `[limits]` entries `limits`.
    fn leads_limited(text: &str, limits: &[(&str, u32)]) -> Vec<(u32, u32)> {
        let mut k = kernel(text, "f");
        k.limits = limits.iter().map(|&(c, n)| (c.to_string(), n)).collect();
        let lib = Library::for_target("ecp5").unwrap();
        let deps = vec![Vec::new(); k.loops.len()];
        let (s, _) =
            crate::flow::schedule::schedule_kernel(&mut k, &lib, &Default::default(), 20.0, &deps)
                .unwrap();
        (0..k.loops.len())
            .filter_map(|l| Some((s.pipes[l].as_ref()?.depth, s.lead[l])))
            .collect()
    }

    /// Two sibling loops; the second reads `READ` of the first's `y`
    /// (stored early) and `z` (stored at its last step).
    const SIBLINGS: &str = r#"
        func.func @f(%x: memref<16xi32>, %y: memref<16xi32>, %z: memref<16xi32>,
                     %w: memref<16xi32>) {
          affine.for %i = 0 to 16 {
            %a = affine.load %x[%i] : memref<16xi32>
            affine.store %a, %y[%i] : memref<16xi32>
            %p = arith.muli %a, %a : i32
            %q = arith.muli %p, %a : i32
            %r = arith.muli %q, %a : i32
            %s = arith.muli %r, %a : i32
            affine.store %s, %z[%i] : memref<16xi32>
          }
          affine.for %i = 0 to 16 {
            %a = affine.load READ[%i] : memref<16xi32>
            affine.store %a, %w[%i] : memref<16xi32>
          }
          return
        }"#;

    #[test]
    fn a_sibling_starts_after_the_last_access_of_what_it_reads() {
        // y is stored in step 1 (the word loaded arrives there): the
        // second loop's load of it in its step 0 comes a cycle later, as
        // the steps after it drain.
        let near = leads(&SIBLINGS.replace("READ", "%y"));
        assert!(near[0].0 > 3, "{near:?}");
        assert_eq!(near[0].1, near[0].0 - 2);
        // z is stored in the last step: no overlap.
        let far = leads(&SIBLINGS.replace("READ", "%z"));
        assert_eq!(far[0].1, 0, "{far:?}");
    }

    /// An inner loop entered once per row: `BODY` within it.
    const ROWS: &str = r#"
        func.func @f(%a: memref<4x8xi32>, %c: memref<4x8xi32>, %s: memref<4xi32>) {
          %zero = arith.constant 0 : i32
          affine.for %i = 0 to 4 {
            BODY
          }
          return
        }"#;

    #[test]
    fn a_repeated_pipeline_overlaps_itself_unless_its_result_is_read() {
        let rows = leads(&ROWS.replace(
            "BODY",
            "affine.for %j = 0 to 8 {
               %v = affine.load %a[%i, %j] : memref<4x8xi32>
               %p = arith.muli %v, %v : i32
               %q = arith.muli %p, %v : i32
               affine.store %q, %c[%i, %j] : memref<4x8xi32>
             }",
        ));
        assert!(rows[0].0 > 1, "{rows:?}");
        assert_eq!(rows[0].1, rows[0].0 - 1);
        // The row sum is final only once the loop has drained.
        let sums = leads(&ROWS.replace(
            "BODY",
            "%t = affine.for %j = 0 to 8 iter_args(%acc = %zero) -> i32 {
               %v = affine.load %a[%i, %j] : memref<4x8xi32>
               %p = arith.muli %v, %v : i32
               %n = arith.addi %acc, %p : i32
               affine.yield %n : i32
             }
             affine.store %t, %s[%i] : memref<4xi32>",
        ));
        assert_eq!(sums[0].1, 0, "{sums:?}");
        // Loads of the row being written in the last step: the next
        // entry's first loads come after them only without overlap.
        let inplace = leads(&ROWS.replace(
            "BODY",
            "affine.for %j = 0 to 8 {
               %v = affine.load %c[%i, %j] : memref<4x8xi32>
               %p = arith.muli %v, %v : i32
               %q = arith.muli %p, %v : i32
               affine.store %q, %c[%i, %j] : memref<4x8xi32>
             }",
        ));
        assert_eq!(inplace[0].1, 0, "{inplace:?}");
    }

    /// Two sibling loops on one shared multiplier: the first multiplies
    /// in its first steps and then stores through a chain of loads; the
    /// second multiplies in its step 1.
    const SHARED: &str = r#"
        func.func @f(%x: memref<16xi32>, %y: memref<16xi32>, %z: memref<16xi32>,
                     %w: memref<16xi32>, %v: memref<16xi32>) {
          affine.for %i = 0 to 16 {
            %a = affine.load %x[%i] : memref<16xi32>
            %p = arith.muli %a, %a : i32
            %j = arith.index_cast %p : i32 to index
            %b = memref.load %y[%j] : memref<16xi32>
            %k = arith.index_cast %b : i32 to index
            %c = memref.load %y[%k] : memref<16xi32>
            affine.store %c, %z[%i] : memref<16xi32>
          }
          affine.for %i = 0 to 16 {
            %a = affine.load %w[%i] : memref<16xi32>
            %p = arith.muli %a, %a : i32
            affine.store %p, %v[%i] : memref<16xi32>
          }
          return
        }"#;

    #[test]
    fn a_shared_unit_is_taken_once_the_drain_no_longer_uses_it() {
        // The first loop's product is in flight in steps 1 and 2; the
        // second loop's starts in its step 1, so the drain may run until
        // step 2 of the first loop's last iteration is past: a lead of
        // depth - 2, not the depth - 3 that waiting for the unit to be
        // idle before leaving would give.
        let shared = leads_limited(SHARED, &[("mul", 1)]);
        assert!(shared[0].0 > 4, "{shared:?}");
        assert_eq!(shared[0].1, shared[0].0 - 2, "{shared:?}");
    }
}
