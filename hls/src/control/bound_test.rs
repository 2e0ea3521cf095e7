//! Loop-bound tests held in registers. The controller asks two things of
//! a loop's counter: whether it is below the upper bound (a pipeline
//! issues, a head state enters the body) and whether it will be after one
//! more step (a pipeline has iterations left, a latch goes round again,
//! a flattened nest's inner counter wraps). Compared where they are
//! asked, both start at the counter's flip-flops and run its compare's
//! carry chain before the controller's gates and the enables they drive:
//! on the iCE40 UP5K that chain and six LUT levels after it were the
//! critical path of most designs.
//!
//! Where the bound is a constant, or stays the same while the loop runs
//! (made of the counters of the loops around it and the scalar
//! arguments: a triangular nest's `j < i`), two one-bit registers beside
//! the counter hold the answers (`below`: counter < bound; `next`:
//! counter + step < bound). Every write of the counter writes both,
//! under the same condition and in the same order (so the same write
//! wins), with the tests of the value written against the bound as it
//! is after that transition (evaluated with the values the transition
//! computes: entering an inner loop as the outer counter steps compares
//! against the stepped counter): a constant's tests against a constant
//! bound are constants, a multiplexer's are its arms' tests under its
//! select, the counter stepped is the `next` test already held for
//! `below` and a compare two steps ahead for `next`, any other value (a
//! lower bound computed from outer counters) is compared as it is
//! written. The compares move to the registers' inputs, off the
//! controller's paths; the answers are the same in every cycle, so the
//! schedule and its cycles are unchanged.

use crate::build::hw::Reg;
use crate::build::{At, Builder, Env};
use crate::kernel::{sign_extend, LoopId, Predicate, Val};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::ValueId;

/// The held tests of one counter.
#[derive(Clone, Copy)]
pub struct BoundTest {
    /// The upper bound (signed) when it is a constant; `None` for one
    /// that stays the same while the loop runs.
    upper: Option<i128>,
    /// counter < upper.
    below: Reg,
    /// counter + step < upper.
    next: Reg,
}

/// An upper bound to test against: a constant or a signal.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Limit {
    Constant(i128),
    Value(ValueId),
}

/// How many multiplexers deep a written value's tests follow its arms.
const MUX_DEPTH: u32 = 4;

impl Builder<'_, '_> {
    /// Whether the counter of loop `l` is below `upper`: its held test
    /// when `upper` is a constant, else a compare.
    pub fn iv_below(&mut self, l: LoopId, upper: ValueId) -> ValueId {
        match self.bound_test(l, upper) {
            Some(t) => t.below.q,
            None => self
                .hw
                .icmp(Predicate::Slt.code(), self.iv_regs[l].q, upper),
        }
    }

    /// Whether the counter of loop `l` plus its step is below `upper`:
    /// its held test when `upper` is a constant, else
    /// [`Builder::next_below`].
    pub fn iv_next_below(&mut self, l: LoopId, upper: ValueId) -> ValueId {
        match self.bound_test(l, upper) {
            Some(t) => t.next.q,
            None => self.next_below(self.iv_regs[l].q, self.k.loops[l].step, upper),
        }
    }

    /// Writes counter `l` with `value` when `cond` holds, in a transition
    /// seen as `at` that has computed `env`.
    pub fn write_iv(&mut self, l: LoopId, cond: ValueId, value: ValueId, at: At, env: &Env) {
        let reg = self.iv_regs[l];
        let index = self.writes.get(&reg.op).map_or(0, |(_, w)| w.len());
        self.control.iv_writes.insert((l, index), (at, env.clone()));
        self.write(reg, cond, value);
    }

    /// The held tests of loop `l`'s counter against `upper` (the bound
    /// as the loop's state sees it), made at the first ask; `None` where
    /// the bound is neither a constant nor the same while the loop runs,
    /// the step is not positive, or a constant bound two steps back does
    /// not fit the compare.
    fn bound_test(&mut self, l: LoopId, upper: ValueId) -> Option<BoundTest> {
        let upper = match self.hw.const_of(upper) {
            Some(bits) => Some(sign_extend(bits, self.hw.width(upper))),
            None if self.invariant_bound(l) => None,
            None => return None,
        };
        if let Some(t) = self.control.bound_tests.get(&l) {
            return (t.upper == upper).then_some(*t);
        }
        let step = i128::from(self.k.loops[l].step);
        let w = self.hw.width(self.iv_regs[l].q) + 1;
        let least = -(1i128 << (w - 1));
        if step <= 0 || upper.is_some_and(|u| u - 2 * step < least) {
            return None;
        }
        let t = BoundTest {
            upper,
            below: self.hw.reg(&format!("iv{l}_below"), 1, None),
            next: self.hw.reg(&format!("iv{l}_next_below"), 1, None),
        };
        self.control.bound_tests.insert(l, t);
        Some(t)
    }

    /// Writes the held tests: each write of a counter with held tests
    /// writes them too, with the tests of the value written (after every
    /// other write is added, before the registers are connected).
    pub fn build_bound_tests(&mut self) {
        let mut tests: Vec<(LoopId, BoundTest)> = self
            .control
            .bound_tests
            .iter()
            .map(|(&l, &t)| (l, t))
            .collect();
        tests.sort_unstable_by_key(|&(l, _)| l);
        for (l, t) in tests {
            let iv = self.iv_regs[l];
            let Some((_, writes)) = self.writes.get(&iv.op).cloned() else {
                continue;
            };
            let mut memo = FxHashMap::default();
            for (i, (cond, value)) in writes.into_iter().enumerate() {
                let limit = match t.upper {
                    Some(u) => Limit::Constant(u),
                    None => {
                        // The bound after the transition that writes.
                        let (at, env) = self
                            .control
                            .iv_writes
                            .get(&(l, i))
                            .cloned()
                            .unwrap_or((At::State(self.control.loop_state[l]), Vec::new()));
                        let upper = self.bound(&self.k.loops[l].upper, false, at, &env);
                        match self.hw.const_of(upper) {
                            Some(bits) => Limit::Constant(sign_extend(bits, self.hw.width(upper))),
                            None => Limit::Value(upper),
                        }
                    }
                };
                let below = self.test_of(l, t, value, 0, limit, MUX_DEPTH, &mut memo);
                let next = self.test_of(l, t, value, 1, limit, MUX_DEPTH, &mut memo);
                self.write(t.below, cond, below);
                self.write(t.next, cond, next);
            }
        }
    }

    /// Whether loop `l`'s upper bound stays the same while it runs: made
    /// of constants, scalar arguments (latched at the start) and the
    /// counters of the loops around it, which step only once it is left
    /// (not a loop flattened into another, whose counters step together).
    fn invariant_bound(&self, l: LoopId) -> bool {
        let k = self.k;
        if k.loops.iter().any(|o| o.flat.contains(&l)) {
            return false;
        }
        let mut around = FxHashSet::default();
        let mut parent = self.control.loop_pos.get(l).and_then(|p| p.0);
        while let Some(o) = parent {
            around.insert(o);
            parent = self.control.loop_pos.get(o).and_then(|p| p.0);
        }
        k.loops[l].upper.operands.iter().all(|v| match v {
            Val::Const(_) | Val::Arg(_) => true,
            Val::Iv(o) => around.contains(o),
            _ => false,
        })
    }

    /// Whether `v` plus `ahead` steps of loop `l` is below `limit`, as a
    /// signal for the held test's input.
    #[allow(clippy::too_many_arguments)]
    fn test_of(
        &mut self,
        l: LoopId,
        t: BoundTest,
        v: ValueId,
        ahead: i128,
        limit: Limit,
        depth: u32,
        memo: &mut FxHashMap<(ValueId, i128, Limit), ValueId>,
    ) -> ValueId {
        if let Some(&r) = memo.get(&(v, ahead, limit)) {
            return r;
        }
        let step = i128::from(self.k.loops[l].step);
        let iv = self.iv_regs[l].q;
        let r = match (self.hw.const_of(v), limit) {
            (Some(c), Limit::Constant(u)) => {
                let below = sign_extend(c, self.hw.width(v)) + ahead * step < u;
                self.hw.constant(u128::from(below), 1)
            }
            _ => {
                if let Some((s, a, b)) = self.mux_of(v).filter(|_| depth > 0) {
                    let a = self.test_of(l, t, a, ahead, limit, depth - 1, memo);
                    let b = self.test_of(l, t, b, ahead, limit, depth - 1, memo);
                    self.hw.mux(s, a, b)
                } else if self.is_stepped(v, iv, step) {
                    match ahead {
                        0 => t.next.q,
                        _ => self.below_by(iv, (ahead + 1) * step, limit),
                    }
                } else {
                    self.below_by(v, ahead * step, limit)
                }
            }
        };
        memo.insert((v, ahead, limit), r);
        r
    }

    /// `v + by < limit`, exactly: compared one bit wider than both, the
    /// limit less `by` (a constant when the limit is).
    fn below_by(&mut self, v: ValueId, by: i128, limit: Limit) -> ValueId {
        let (w, bound) = match limit {
            Limit::Constant(u) => {
                let w = self.hw.width(v) + 1;
                (w, self.hw.constant((u - by) as u128, w))
            }
            Limit::Value(u) => {
                let w = self.hw.width(v).max(self.hw.width(u)) + 1;
                let wide = self.hw.resize(u, w, true);
                let bound = match by {
                    0 => wide,
                    _ => {
                        let by = self.hw.constant(by as u128, w);
                        self.hw.comb("comb.sub", &[wide, by])
                    }
                };
                (w, bound)
            }
        };
        let wide = self.hw.resize(v, w, true);
        self.hw.icmp(Predicate::Slt.code(), wide, bound)
    }

    /// The select and arms of `v` when a multiplexer computes it.
    fn mux_of(&self, v: ValueId) -> Option<(ValueId, ValueId, ValueId)> {
        let ir = &self.hw.ir;
        let op = ir.defining_op(v)?;
        if self.hw.ctx.str(ir.op_name(op)) != "comb.mux" {
            return None;
        }
        let o: Vec<ValueId> = ir.operands(op).collect();
        Some((o[0], o[1], o[2]))
    }

    /// Whether `v` is counter `iv` plus `step`.
    fn is_stepped(&self, v: ValueId, iv: ValueId, step: i128) -> bool {
        let ir = &self.hw.ir;
        let Some(op) = ir.defining_op(v) else {
            return false;
        };
        if self.hw.ctx.str(ir.op_name(op)) != "comb.add" {
            return false;
        }
        let o: Vec<ValueId> = ir.operands(op).collect();
        o.len() == 2
            && o[0] == iv
            && self
                .hw
                .const_of(o[1])
                .is_some_and(|c| sign_extend(c, self.hw.width(o[1])) == step)
    }
}
