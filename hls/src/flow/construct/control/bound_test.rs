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
//! Where the bound is a constant, two one-bit registers beside the
//! counter hold the answers (`below`: counter < bound; `next`: counter +
//! step < bound). Every write of the counter writes both, under the same
//! condition and in the same order (so the same write wins), with the
//! tests of the value written: a constant's are constants, a
//! multiplexer's are its arms' tests under its select, the counter
//! stepped is the `next` test already held for `below` and a compare two
//! steps ahead for `next`, any other value (a lower bound computed from
//! outer counters) is compared as it is written. The compares move to
//! the registers' inputs, off the controller's paths; from the counter's
//! first write on the answers are the same in every cycle (the
//! controller reads them only after it), so the schedule and its cycles
//! are unchanged.

use crate::flow::construct::hw::Reg;
use crate::flow::construct::Builder;
use crate::model::kernel::{sign_extend, LoopId, Predicate};
use rustc_hash::FxHashMap;
use silica_ir::ValueId;

/// The held tests of one counter.
#[derive(Clone, Copy)]
pub struct BoundTest {
    /// The constant upper bound (signed).
    upper: i128,
    /// counter < upper.
    below: Reg,
    /// counter + step < upper.
    next: Reg,
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

    /// The held tests of loop `l`'s counter against `upper`, made at the
    /// first ask; `None` where `upper` is not a constant, the step is not
    /// positive, or a bound two steps back does not fit the compare.
    fn bound_test(&mut self, l: LoopId, upper: ValueId) -> Option<BoundTest> {
        let bits = self.hw.const_of(upper)?;
        let upper = sign_extend(bits, self.hw.width(upper));
        if let Some(t) = self.control.bound_tests.get(&l) {
            return (t.upper == upper).then_some(*t);
        }
        let step = i128::from(self.k.loops[l].step);
        let w = self.hw.width(self.iv_regs[l].q) + 1;
        let least = -(1i128 << (w - 1));
        if step <= 0 || upper - 2 * step < least {
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
            for (cond, value) in writes {
                let below = self.test_of(l, t, value, 0, MUX_DEPTH, &mut memo);
                let next = self.test_of(l, t, value, 1, MUX_DEPTH, &mut memo);
                self.write(t.below, cond, below);
                self.write(t.next, cond, next);
            }
        }
    }

    /// Whether `v` plus `ahead` steps of loop `l` is below the bound, as
    /// a signal for the held test's input.
    fn test_of(
        &mut self,
        l: LoopId,
        t: BoundTest,
        v: ValueId,
        ahead: i128,
        depth: u32,
        memo: &mut FxHashMap<(ValueId, i128), ValueId>,
    ) -> ValueId {
        if let Some(&r) = memo.get(&(v, ahead)) {
            return r;
        }
        let step = i128::from(self.k.loops[l].step);
        let iv = self.iv_regs[l].q;
        let r = if let Some(c) = self.hw.const_of(v) {
            let below = sign_extend(c, self.hw.width(v)) + ahead * step < t.upper;
            self.hw.constant(u128::from(below), 1)
        } else if let Some((s, a, b)) = self.mux_of(v).filter(|_| depth > 0) {
            let a = self.test_of(l, t, a, ahead, depth - 1, memo);
            let b = self.test_of(l, t, b, ahead, depth - 1, memo);
            self.hw.mux(s, a, b)
        } else if self.is_stepped(v, iv, step) {
            match ahead {
                0 => t.next.q,
                _ => self.below_by(iv, (ahead + 1) * step, t.upper),
            }
        } else {
            self.below_by(v, ahead * step, t.upper)
        };
        memo.insert((v, ahead), r);
        r
    }

    /// `v + by < upper`, exactly: `v` sign-extended one bit against the
    /// constant `upper - by`.
    pub(super) fn below_by(&mut self, v: ValueId, by: i128, upper: i128) -> ValueId {
        let w = self.hw.width(v) + 1;
        let wide = self.hw.resize(v, w, true);
        let limit = self.hw.constant((upper - by) as u128, w);
        self.hw.icmp(Predicate::Slt.code(), wide, limit)
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
