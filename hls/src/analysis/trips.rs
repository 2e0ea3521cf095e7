//! Trip counts and the static latency of a scheduled kernel, by walking
//! its loop tree with the values of the enclosing induction variables (so
//! triangular loops are counted exactly). The cycle counts are those of
//! the controller `control/` builds: a sequential loop with a head state
//! spends one head cycle per iteration plus one to leave (others none of
//! their own), a pipelined loop
//! `(N - 1) * II + depth` cycles (one when it runs no iteration), a block
//! its states. Bounds that depend on data make the latency unknown.

use crate::kernel::{Bound, Item, Kernel, LoopId, Val};
use crate::schedule::Schedules;
use silica_ir::affine::AffineExpr;

/// Work allowed before giving up (iterations visited).
const BUDGET: u64 = 20_000_000;

/// Static figures of a kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Cycles from the cycle `start` is taken to the cycle `done` is high.
    pub latency: Option<u64>,
    /// Smallest and largest trip count seen per loop.
    pub trips: Vec<Option<(u64, u64)>>,
}

struct Walk<'a> {
    k: &'a Kernel,
    s: &'a Schedules,
    env: Vec<Option<i64>>,
    trips: Vec<Option<(u64, u64)>>,
    budget: u64,
}

/// The latency and trip counts of `k` under schedule `s`.
pub fn figures(k: &Kernel, s: &Schedules) -> Figures {
    let mut w = Walk {
        k,
        s,
        env: vec![None; k.loops.len()],
        trips: vec![None; k.loops.len()],
        budget: BUDGET,
    };
    let cycles = w.items(&k.body);
    Figures {
        latency: cycles.map(|c| c + 1),
        trips: w.trips,
    }
}

impl Walk<'_> {
    fn items(&mut self, items: &[Item]) -> Option<u64> {
        let mut total = 0u64;
        for it in items {
            total += match *it {
                Item::Block(b) => u64::from(self.s.states[b]),
                Item::Loop(l) => self.run_loop(l)?,
            };
        }
        Some(total)
    }

    fn run_loop(&mut self, l: LoopId) -> Option<u64> {
        let lp = &self.k.loops[l];
        let lo = self.bound(&lp.lower, true)?;
        let hi = self.bound(&lp.upper, false)?;
        let step = lp.step.max(1);
        let n = if hi > lo {
            ((hi - lo) as u64).div_ceil(step as u64)
        } else {
            0
        };
        let t = &mut self.trips[l];
        *t = Some(t.map_or((n, n), |(a, b)| (a.min(n), b.max(n))));
        if let Some(p) = &self.s.pipes[l] {
            return Some(if n == 0 {
                1
            } else {
                (n - 1) * u64::from(p.ii) + u64::from(p.depth)
            });
        }
        let mut total = if crate::control::needs_head(self.k, self.s, l) {
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

    fn value(&self, v: Val) -> Option<i64> {
        match v {
            Val::Iv(l) => self.env[l],
            _ => self.k.const_value(v).and_then(|c| i64::try_from(c).ok()),
        }
    }

    fn bound(&self, b: &Bound, lower: bool) -> Option<i64> {
        let vals: Option<Vec<i64>> = b.operands.iter().map(|&v| self.value(v)).collect();
        let vals = vals?;
        let nd = b.map.num_dims as usize;
        let results: Option<Vec<i64>> = b
            .map
            .results
            .iter()
            .map(|e: &AffineExpr| e.eval(&vals[..nd], &vals[nd..]))
            .collect();
        let results = results?;
        if lower {
            results.into_iter().max()
        } else {
            results.into_iter().min()
        }
    }
}
