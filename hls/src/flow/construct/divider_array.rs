//! The integer divider as a restoring division array cut into pipeline
//! stages: one row per quotient bit from the top (the partial remainder,
//! below the divisor, shifted in the next bit of the dividend, less the
//! divisor where that does not borrow), with registers between rows
//! where the schedule asks for more than one cycle. The schedule gives a
//! division by a variable divisor that does not fit the clock
//! combinationally (`hls/library/*.toml`, class `div`) the fewest cycles
//! whose slowest stage, as measured (kind `div_stage`), fits
//! (`schedule::problem`); the rows are spread evenly over the
//! stages, and every stage's register is free-running, so a new division
//! may start every cycle. Operands enter as magnitudes (a signed one's
//! negated when negative: the most negative value becomes its unsigned
//! magnitude); whether to negate the result travels with the rows and is
//! applied in the last stage, before the output register.
//! A zero divisor gives an all-ones quotient and the dividend as the
//! remainder (MLIR leaves it undefined, as the most negative value over
//! -1).
//!
//! The functions build on [`Hw`] alone, so that `silica characterize`
//! measures the very circuit the flow builds (kind `div_stage`).

use super::hw::Hw;
use crate::model::kernel::Op;
use silica_ir::ValueId;

/// `op` (a signed or unsigned quotient or remainder) of `args` as a
/// pipelined array whose result is registered `latency` (at least 1)
/// cycles after its operands; `name` names its registers.
pub fn pipelined_division(
    hw: &mut Hw<'_>,
    op: Op,
    args: &[ValueId],
    latency: u32,
    name: &str,
) -> ValueId {
    let signed = matches!(op, Op::DivS | Op::RemS);
    let remainder = matches!(op, Op::RemS | Op::RemU);
    let (a, a_negative) = magnitude(hw, args[0], signed);
    let (b, b_negative) = magnitude(hw, args[1], signed);
    let along = if !signed {
        Vec::new()
    } else if remainder {
        vec![a_negative]
    } else {
        vec![hw.comb("comb.xor", &[a_negative, b_negative])]
    };
    let (q, r, along) = restoring_array(hw, a, b, &along, latency - 1, name);
    let mut result = if remainder { r } else { q };
    if let Some(&negate) = along.first() {
        result = negated_if(hw, negate, result);
    }
    hw.delayed(result, 1, name)
}

/// `v`'s magnitude and whether it is negative (never, unsigned).
pub fn magnitude(hw: &mut Hw<'_>, v: ValueId, signed: bool) -> (ValueId, ValueId) {
    if !signed {
        let no = hw.constant(0, 1);
        return (v, no);
    }
    let w = hw.width(v);
    let negative = hw.extract(v, w - 1, 1);
    let zero = hw.constant(0, w);
    let minus = hw.comb("comb.sub", &[zero, v]);
    (hw.mux(negative, minus, v), negative)
}

/// `v` negated where `negate` holds.
pub fn negated_if(hw: &mut Hw<'_>, negate: ValueId, v: ValueId) -> ValueId {
    let zero = hw.constant(0, hw.width(v));
    let negative = hw.comb("comb.sub", &[zero, v]);
    hw.mux(negate, negative, v)
}

/// The unsigned quotient and remainder of `a` by `b` (same width `w`)
/// with `registers` stages of registers spread over the `w` rows (the
/// `k`-th after row `k * w / (registers + 1)`), and the values of
/// `along` delayed with them.
pub fn restoring_array(
    hw: &mut Hw<'_>,
    a: ValueId,
    b: ValueId,
    along: &[ValueId],
    registers: u32,
    name: &str,
) -> (ValueId, ValueId, Vec<ValueId>) {
    let w = hw.width(a);
    let stages = u64::from(registers) + 1;
    let (mut rest_a, mut b, mut along) = (a, b, along.to_vec());
    let mut rest = hw.constant(0, w);
    let mut quotient: Option<ValueId> = None;
    for row in 0..=w {
        let cuts = (1..stages)
            .filter(|k| k * u64::from(w) / stages == u64::from(row))
            .count();
        for _ in 0..cuts {
            let mut stage = |v: ValueId| hw.delayed(v, 1, name);
            rest_a = stage(rest_a);
            b = stage(b);
            rest = stage(rest);
            quotient = quotient.map(&mut stage);
            along = along.into_iter().map(&mut stage).collect();
        }
        if row == w {
            break;
        }
        let remaining = hw.width(rest_a);
        let bit = hw.extract(rest_a, remaining - 1, 1);
        if remaining > 1 {
            rest_a = hw.extract(rest_a, 0, remaining - 1);
        }
        let wide_b = hw.resize(b, w + 2, false);
        let shifted = hw.concat(rest, bit);
        let wide = hw.resize(shifted, w + 2, false);
        let difference = hw.comb("comb.sub", &[wide, wide_b]);
        let borrow = hw.extract(difference, w + 1, 1);
        let q_bit = hw.not(borrow);
        quotient = Some(match quotient {
            Some(q) => hw.concat(q, q_bit),
            None => q_bit,
        });
        let kept = hw.extract(shifted, 0, w);
        let reduced = hw.extract(difference, 0, w);
        rest = hw.mux(borrow, kept, reduced);
    }
    let quotient = quotient.unwrap_or(rest);
    (quotient, rest, along)
}
