//! The integer divider as a restoring division array cut into pipeline
//! stages: one row per quotient bit from the top (the partial remainder,
//! below the divisor, shifted in the next bit of the dividend, less the
//! divisor where that does not borrow), with registers between rows
//! where the schedule asks for more than one cycle. The schedule gives a
//! division by a variable divisor as many cycles as its measured
//! combinational delay (`hls/library/*.toml`, class `div`) needs to fit
//! the clock (`schedule::problem`); the rows are spread evenly over the
//! stages, and every stage's register is free-running, so a new division
//! may start every cycle. Operands enter as magnitudes (a signed one's
//! negated when negative: the most negative value becomes its unsigned
//! magnitude); whether to negate the result travels with the rows and is
//! applied in the last stage, before the output register.
//! A zero divisor gives an all-ones quotient and the dividend as the
//! remainder (MLIR leaves it undefined, as the most negative value over
//! -1).

use super::Builder;
use crate::kernel::Op;
use silica_ir::ValueId;

impl Builder<'_, '_> {
    /// `op` (a signed or unsigned quotient or remainder) of `args` as a
    /// pipelined array whose result is registered `latency` (at least 1)
    /// cycles after its operands; `name` names its registers.
    pub(super) fn pipelined_division(
        &mut self,
        op: Op,
        args: &[ValueId],
        latency: u32,
        name: &str,
    ) -> ValueId {
        let signed = matches!(op, Op::DivS | Op::RemS);
        let remainder = matches!(op, Op::RemS | Op::RemU);
        let (a, a_negative) = self.magnitude(args[0], signed);
        let (b, b_negative) = self.magnitude(args[1], signed);
        let along = if !signed {
            Vec::new()
        } else if remainder {
            vec![a_negative]
        } else {
            vec![self.hw.comb("comb.xor", &[a_negative, b_negative])]
        };
        let (q, r, along) = self.restoring_array(a, b, &along, latency - 1, name);
        let mut result = if remainder { r } else { q };
        if let Some(&negate) = along.first() {
            result = self.negated_if(negate, result);
        }
        self.hw.delayed(result, 1, name)
    }

    /// `v` negated where `negate` holds.
    pub(super) fn negated_if(&mut self, negate: ValueId, v: ValueId) -> ValueId {
        let zero = self.hw.constant(0, self.hw.width(v));
        let negative = self.hw.comb("comb.sub", &[zero, v]);
        self.hw.mux(negate, negative, v)
    }

    /// The unsigned quotient and remainder of `a` by `b` (same width `w`)
    /// with `registers` stages of registers spread over the `w` rows (the
    /// `k`-th after row `k * w / (registers + 1)`), and the values of
    /// `along` delayed with them.
    pub(super) fn restoring_array(
        &mut self,
        a: ValueId,
        b: ValueId,
        along: &[ValueId],
        registers: u32,
        name: &str,
    ) -> (ValueId, ValueId, Vec<ValueId>) {
        let w = self.hw.width(a);
        let stages = u64::from(registers) + 1;
        let (mut rest_a, mut b, mut along) = (a, b, along.to_vec());
        let mut rest = self.hw.constant(0, w);
        let mut quotient: Option<ValueId> = None;
        for row in 0..=w {
            let cuts = (1..stages)
                .filter(|k| k * u64::from(w) / stages == u64::from(row))
                .count();
            for _ in 0..cuts {
                let mut stage = |v: ValueId| self.hw.delayed(v, 1, name);
                rest_a = stage(rest_a);
                b = stage(b);
                rest = stage(rest);
                quotient = quotient.map(&mut stage);
                along = along.into_iter().map(&mut stage).collect();
            }
            if row == w {
                break;
            }
            let remaining = self.hw.width(rest_a);
            let bit = self.hw.extract(rest_a, remaining - 1, 1);
            if remaining > 1 {
                rest_a = self.hw.extract(rest_a, 0, remaining - 1);
            }
            let wide_b = self.hw.resize(b, w + 2, false);
            let shifted = self.hw.concat(rest, bit);
            let wide = self.hw.resize(shifted, w + 2, false);
            let difference = self.hw.comb("comb.sub", &[wide, wide_b]);
            let borrow = self.hw.extract(difference, w + 1, 1);
            let q_bit = self.hw.not(borrow);
            quotient = Some(match quotient {
                Some(q) => self.hw.concat(q, q_bit),
                None => q_bit,
            });
            let kept = self.hw.extract(shifted, 0, w);
            let reduced = self.hw.extract(difference, 0, w);
            rest = self.hw.mux(borrow, kept, reduced);
        }
        let quotient = quotient.unwrap_or(rest);
        (quotient, rest, along)
    }
}
