//! Trip counts and the static latency of a scheduled kernel, by walking
//! its loop tree with the values of the enclosing induction variables (so
//! triangular loops are counted exactly). The cycle counts are those of
//! the controller `control/` builds: a sequential loop with a head state
//! spends one head cycle per iteration plus one to leave (others none of
//! their own), a pipelined loop
//! `(N - 1) * II + depth - lead` cycles (one when it runs no iteration;
//! `N` the product of the trip counts for a flattened nest, or its
//! walked count where an inner loop's bounds vary; `lead` the
//! cycles what follows overlaps its drain, `schedule/overlap.rs`, which
//! the finish waits for after the last one), a block its states.
//! Bounds that depend on data, and DMA (whose waits last as long as the
//! transfers), make the latency unknown; an `scf.while` makes it
//! unbounded, its least the run where every `scf.while` leaves at its
//! first test. A call takes its callee's latency plus one cycle. A
//! dataflow group takes the cycles until its last task ends (each task
//! from its start, `dataflow.rs`) plus one, in which the controller sees
//! every task done.

use crate::flow::analysis::trips::{bound, constant_inner_bounds, walk_flat};
use crate::flow::schedule::Schedules;
use crate::model::kernel::{Bound, Item, Kernel, LoopId};

/// Work allowed before giving up (iterations visited).
const BUDGET: u64 = 20_000_000;

/// Static figures of a kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Cycles from the cycle `start` is taken to the cycle `done` is high,
    /// when the schedule fixes them.
    pub latency: Option<u64>,
    /// The least of those cycles (where an `scf.while` leaves at once).
    pub latency_min: Option<u64>,
    /// Smallest and largest trip count seen per loop.
    pub trips: Vec<Option<(u64, u64)>>,
    /// Iterations of each loop over the whole run.
    pub iterations: Vec<u64>,
    /// The cycles of a kernel with DMA by the static model of its engines
    /// (`dma_timing`); none without DMA.
    pub dma_model: Option<u64>,
}

struct Walk<'a> {
    k: &'a Kernel,
    s: &'a Schedules,
    env: Vec<Option<i64>>,
    trips: Vec<Option<(u64, u64)>>,
    iterations: Vec<u64>,
    budget: u64,
    /// Whether a DMA state was passed.
    dma: bool,
    /// Whether an `scf.while` was met (the latency is then a least).
    dynamic: bool,
    /// The cycles the pipeline that ran last still drains after its
    /// state (its lead, `schedule/overlap.rs`): the finish waits for them.
    tail: u64,
}

/// The latency and trip counts of `k` under schedule `s`.
pub fn figures(k: &Kernel, s: &Schedules) -> Figures {
    let mut w = Walk {
        k,
        s,
        env: vec![None; k.loops.len()],
        trips: vec![None; k.loops.len()],
        iterations: vec![0; k.loops.len()],
        budget: BUDGET,
        dma: false,
        dynamic: false,
        tail: 0,
    };
    let cycles = w.body().filter(|_| !w.dma).map(|c| c + w.tail);
    Figures {
        latency: cycles.filter(|_| !w.dynamic).map(|c| c + 1),
        latency_min: cycles.map(|c| c + 1),
        trips: w.trips,
        iterations: w.iterations,
        dma_model: if k.dmas.is_empty() {
            None
        } else {
            super::dma_timing::latency(k, s)
        },
    }
}

impl Walk<'_> {
    /// The function's body, its dataflow groups' tasks side by side.
    fn body(&mut self) -> Option<u64> {
        let k = self.k;
        let mut total = 0u64;
        let mut i = 0;
        while i < k.body.len() {
            let Some((g, _)) = k.task_at(i) else {
                total += self.items(&k.body[i..=i])?;
                i += 1;
                continue;
            };
            let group = k.dataflow[g];
            let mut end = 0u64;
            let mut sequential = 0u64;
            for (t, j) in group.items().enumerate() {
                let cycles = self.items(&k.body[j..=j])?;
                let start = self.s.starts.get(g).and_then(|s| s.get(t).copied());
                end = end.max(start.unwrap_or(sequential) + cycles);
                sequential += cycles;
            }
            self.tail = 0;
            total += end + 1;
            i = group.first + group.tasks;
        }
        Some(total)
    }

    fn items(&mut self, items: &[Item]) -> Option<u64> {
        let mut total = 0u64;
        for it in items {
            self.tail = 0;
            total += match *it {
                Item::Block(b) => u64::from(self.s.states[b]),
                Item::Loop(l) => self.run_loop(l)?,
                // DMA states last as long as the transfers: the
                // latency is only measured.
                Item::Dma(_) => {
                    self.dma = true;
                    1
                }
                Item::Call(c) => self.call(c)?,
            };
        }
        Some(total)
    }

    fn run_loop(&mut self, l: LoopId) -> Option<u64> {
        let lp = &self.k.loops[l];
        if let Some(t) = lp.test {
            // At least: the head, the `before` items once, leaving.
            self.dynamic = true;
            let head = u64::from(crate::flow::schedule::needs_head(self.k, self.s, l));
            let body = lp.body.clone();
            return Some(head + self.items(&body[..t.split])?);
        }
        let lo = self.bound(&lp.lower, true)?;
        let hi = self.bound(&lp.upper, false)?;
        let step = lp.step.max(1);
        let n = if hi > lo {
            ((hi - lo) as u64).div_ceil(step as u64)
        } else {
            0
        };
        // A flattened nest runs the product of its loops' trip counts,
        // or (where an inner loop's bounds vary) as many as a walk of its
        // counter chain counts.
        let mut n = n;
        if constant_inner_bounds(self.k, l) {
            for &m in &lp.flat {
                let inner = &self.k.loops[m];
                let (lo, hi) = (inner.lower.constant()?, inner.upper.constant()?);
                let t = ((hi - lo).max(0) as u64).div_ceil(inner.step.max(1) as u64);
                let tm = &mut self.trips[m];
                *tm = Some(tm.map_or((t, t), |(a, b)| (a.min(t), b.max(t))));
                n *= t;
                self.iterations[m] += n;
            }
        } else {
            n = self.walk_varying(l)?;
        }
        let t = &mut self.trips[l];
        *t = Some(t.map_or((n, n), |(a, b)| (a.min(n), b.max(n))));
        self.iterations[l] += n;
        if let Some(p) = &self.s.pipes[l] {
            let lead = u64::from(self.s.lead[l]);
            self.tail = if n == 0 { 0 } else { lead };
            return Some(if n == 0 {
                1
            } else {
                (n - 1) * u64::from(p.ii) + u64::from(p.depth) - lead
            });
        }
        let mut total = if crate::flow::schedule::needs_head(self.k, self.s, l) {
            n + 1
        } else {
            0
        };
        let mut iv = lo;
        for _ in 0..n {
            self.budget = self.budget.checked_sub(1)?;
            self.env[l] = Some(iv);
            let body = lp.body.clone();
            total += self.items(&body)?;
            iv += step;
        }
        self.env[l] = None;
        Some(total)
    }

    /// A call: its state from the cycle that starts the callee to the
    /// cycle of its `done`.
    fn call(&mut self, c: usize) -> Option<u64> {
        let call = &self.k.calls[c];
        if call.latency.is_none() {
            self.dynamic = true;
        }
        Some(call.latency.or(call.latency_min)? + 1)
    }

    /// The iterations of flattened nest `l` whose inner bounds vary, by
    /// a walk of its counter chain that counts each inner loop's trips
    /// per entry and iterations.
    fn walk_varying(&mut self, l: LoopId) -> Option<u64> {
        let nest: Vec<LoopId> = std::iter::once(l)
            .chain(self.k.loops[l].flat.iter().copied())
            .collect();
        // Per inner loop (nest[q + 1]): the induction variables down to
        // its own at its last iteration seen, its trips in the entry
        // being walked, the least and most trips of an entry, and its
        // iterations.
        let inner = nest.len() - 1;
        let mut last: Vec<Option<Vec<Option<i64>>>> = vec![None; inner];
        let mut trip = vec![0u64; inner];
        let mut trips: Vec<Option<(u64, u64)>> = vec![None; inner];
        let mut iterations = vec![0u64; inner];
        let mut count = 0u64;
        let mut budget = BUDGET;
        let close = |range: &mut Option<(u64, u64)>, t: u64| {
            if t > 0 {
                *range = Some(range.map_or((t, t), |(a, b)| (a.min(t), b.max(t))));
            }
        };
        walk_flat(self.k, &mut self.env.clone(), l, &mut |env| {
            budget = budget.checked_sub(1)?;
            count += 1;
            for q in 0..inner {
                let ivs = || nest[..q + 2].iter().map(|&m| env[m]);
                let seen = last[q].as_ref();
                if seen.is_some_and(|p| p.iter().copied().eq(ivs())) {
                    continue;
                }
                let same_entry =
                    seen.is_some_and(|p| p[..=q].iter().copied().eq(ivs().take(q + 1)));
                if !same_entry {
                    close(&mut trips[q], trip[q]);
                    trip[q] = 0;
                }
                trip[q] += 1;
                iterations[q] += 1;
                last[q] = Some(ivs().collect());
            }
            Some(())
        })?;
        for q in 0..inner {
            close(&mut trips[q], trip[q]);
            let m = nest[q + 1];
            if let Some((a, b)) = trips[q] {
                let tm = &mut self.trips[m];
                *tm = Some(tm.map_or((a, b), |(x, y)| (x.min(a), y.max(b))));
            }
            self.iterations[m] += iterations[q];
        }
        Some(count)
    }

    fn bound(&self, b: &Bound, lower: bool) -> Option<i64> {
        bound(self.k, &self.env, b, lower)
    }
}

#[cfg(test)]
mod tests {
    use crate::flow::schedule::schedule_kernel;
    use crate::model::target::library::Library;
    use crate::test_support::kernel;

    #[test]
    fn triangular_loops_are_counted_per_outer_iteration() {
        let mut k = kernel(
            "func.func @f(%a: memref<10x10xi32>) {
               affine.for %i = 0 to 10 {
                 affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
                   %v = affine.load %a[%i, %j] : memref<10x10xi32>
                   affine.store %v, %a[%j, %i] : memref<10x10xi32>
                 }
               }
               return
             }",
            "f",
        );
        let lib = Library::for_target("ice40").unwrap();
        let deps = vec![Vec::new(); k.loops.len()];
        let (s, _) = schedule_kernel(&mut k, &lib, &Default::default(), 20.0, &deps).unwrap();
        let f = super::figures(&k, &s);
        assert_eq!(f.trips[1], Some((0, 9)));
        assert_eq!(f.iterations[1], 45);
        assert_eq!(f.iterations[0], 10);
        assert!(f.latency.is_some());
    }
}
