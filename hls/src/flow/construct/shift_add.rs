//! A product by a constant as comb ops (`crate::flow::analysis::constant_product`'s
//! forms): wiring, a negation, or stages of signed digits, each digit a
//! shifted copy of the previous stage's value (the operand's, for the
//! first) or of the operand, the positive and the negative copies each
//! summed as a balanced tree (neighbouring shifts paired first), the
//! negative sum subtracted from the positive one. A stage whose constant
//! so far is positive computes only below the bits its product can set.
//!
//! Each partial sum is kept as the bits that can be nonzero: a copy
//! shifted by `p` has `p` zero low bits, and an operand zero-extended
//! from `s` bits has zero bits from `p + s`; an add spans only the bits
//! where both of its operands may be nonzero (the lower operand's bits
//! below the other's pass through), a carry out widening it by one bit.
//! Everything is modulo `2^width`, as the product is.

use super::hw::Hw;
use crate::flow::analysis::adder_chain::Stage;
use crate::flow::analysis::constant_product::Form;
use silica_ir::ValueId;

/// Bits `[lo, hi)` of a value whose other bits are zero; `v` holds them
/// (`hi - lo` bits wide, `lo < hi`).
#[derive(Clone, Copy)]
struct Term {
    v: ValueId,
    lo: u32,
    hi: u32,
}

/// `a * c` at `width` bits for the constant `c` whose form is `form`
/// (not [`Form::Multiplier`]); `a`'s low `significant` bits may be
/// nonzero (its others are zero: a zero-extended operand), `a` at least
/// that wide.
pub fn product(h: &mut Hw<'_>, a: ValueId, significant: u32, form: &Form, width: u32) -> ValueId {
    let significant = significant.min(width).min(h.width(a)).max(1);
    // Read through `shifted`, which takes its low bits.
    let operand = Term {
        v: a,
        lo: 0,
        hi: significant,
    };
    let stages = match form {
        Form::Zero | Form::Multiplier => return h.constant(0, width),
        Form::Shift(p) => vec![Stage::digits(vec![(false, *p)])],
        Form::Negated(p) => vec![Stage::digits(vec![(true, *p)])],
        Form::ShiftAdd(stages) => stages.clone(),
    };
    // The value so far, and the constant it is the operand's product by
    // (None once past i128).
    let (mut value, mut constant) = (Some(operand), Some(1i128));
    for stage in &stages {
        constant = constant.and_then(|c| stage.value(c));
        // A positive product of the operand's bits has no bits set past
        // theirs and the constant's: the stage computes below them.
        let top = match constant {
            Some(c) if c > 0 => (significant + (128 - c.leading_zeros())).min(width),
            _ => width,
        };
        let mut pos = Vec::new();
        let mut neg = Vec::new();
        let copies = (stage.previous.iter().map(|d| (d, value)))
            .chain(stage.operand.iter().map(|d| (d, Some(operand))));
        for (&(negative, p), of) in copies {
            let Some(t) = of.and_then(|of| shifted(h, of, p, top)) else {
                continue;
            };
            if negative {
                neg.push(t);
            } else {
                pos.push(t);
            }
        }
        let pos = sum(h, &pos, top);
        let neg = sum(h, &neg, top);
        value = match (pos, neg) {
            (Some(p), None) => Some(p),
            (p, Some(n)) => Some(subtract(h, p, n, top)),
            (None, None) => None,
        };
    }
    match value {
        Some(v) => widen(h, v, width),
        None => h.constant(0, width),
    }
}

/// `t` shifted left by `p` bits, its bits at and past `width` dropped
/// (None where none is left).
fn shifted(h: &mut Hw<'_>, t: Term, p: u32, width: u32) -> Option<Term> {
    let (lo, hi) = (t.lo + p, (t.hi + p).min(width));
    if lo >= hi {
        return None;
    }
    Some(Term {
        v: h.extract(t.v, 0, hi - lo),
        lo,
        hi,
    })
}

/// The balanced sum of `terms` (lowest shift first), `None` when empty.
fn sum(h: &mut Hw<'_>, terms: &[Term], width: u32) -> Option<Term> {
    match terms {
        [] => None,
        [t] => Some(*t),
        _ => {
            let (a, b) = terms.split_at(terms.len() / 2);
            let a = sum(h, a, width)?;
            let b = sum(h, b, width)?;
            Some(add(h, a, b, width))
        }
    }
}

/// `a + b`: an add over `[max lo, hi)`, the lower operand's bits below
/// the other's passed through.
fn add(h: &mut Hw<'_>, a: Term, b: Term, width: u32) -> Term {
    let (low, high) = if a.lo <= b.lo { (a, b) } else { (b, a) };
    let hi = (a.hi.max(b.hi) + 1).min(width);
    let x = bits(h, low, high.lo, hi);
    let y = bits(h, high, high.lo, hi);
    let s = h.comb("comb.add", &[x, y]);
    let v = if low.lo < high.lo {
        let below = bits(h, low, low.lo, high.lo);
        h.concat(s, below)
    } else {
        s
    };
    Term { v, lo: low.lo, hi }
}

/// `p - n` (`0 - n` without `p`) modulo `2^width`: a subtract from `n`'s
/// lowest bit up to the top, `p`'s bits below it passed through.
fn subtract(h: &mut Hw<'_>, p: Option<Term>, n: Term, width: u32) -> Term {
    let x = match p {
        Some(p) => bits(h, p, n.lo, width),
        None => h.constant(0, width - n.lo),
    };
    let y = bits(h, n, n.lo, width);
    let d = h.comb("comb.sub", &[x, y]);
    // p's bits below n's lowest: no borrow reaches them.
    match p {
        Some(p) if p.lo < n.lo => {
            let below = bits(h, p, p.lo, n.lo);
            Term {
                v: h.concat(d, below),
                lo: p.lo,
                hi: width,
            }
        }
        _ => Term {
            v: d,
            lo: n.lo,
            hi: width,
        },
    }
}

/// Bits `[from, to)` of `t`'s value (`to > from`), zeros outside
/// `[t.lo, t.hi)`.
fn bits(h: &mut Hw<'_>, t: Term, from: u32, to: u32) -> ValueId {
    let (start, end) = (t.lo.max(from), t.hi.min(to));
    if end <= start {
        return h.constant(0, to - from);
    }
    let mut v = h.extract(t.v, start - t.lo, end - start);
    if start > from {
        let zeros = h.constant(0, start - from);
        v = h.concat(v, zeros);
    }
    if end < to {
        let zeros = h.constant(0, to - end);
        v = h.concat(zeros, v);
    }
    v
}

/// `t` as a `width`-bit value.
fn widen(h: &mut Hw<'_>, t: Term, width: u32) -> ValueId {
    let mut v = t.v;
    if t.lo > 0 {
        let zeros = h.constant(0, t.lo);
        v = h.concat(v, zeros);
    }
    if t.hi < width {
        let zeros = h.constant(0, width - t.hi);
        v = h.concat(zeros, v);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::analysis::adder_chain::fewest;
    use crate::flow::analysis::constant_product::{digits, Form};
    use num_bigint::BigUint;
    use silica_hw_dialects::eval::Bits;
    use silica_hw_dialects::sim::ModuleSim;
    use silica_hw_dialects::types::{Direction, Port};
    use silica_ir::{Context, Ir};

    /// The product of every input in `inputs` by `c`, `width` bits wide,
    /// as the circuit computes it in silica's simulator, for an operand
    /// of `significant` bits zero-extended to the width.
    /// `factored`: in `adder_chain`'s stages where they take fewer adds.
    fn simulate(
        c: i128,
        significant: u32,
        width: u32,
        factored: bool,
        inputs: &[u128],
    ) -> Vec<BigUint> {
        let mut ctx = Context::new();
        silica_hw_dialects::register(&mut ctx);
        let mut ir = Ir::new();
        let loc = ctx.unknown_loc();
        let ports = [
            Port {
                dir: Direction::Input,
                name: "a".into(),
                ty: ctx.signless(significant),
            },
            Port {
                dir: Direction::Output,
                name: "p".into(),
                ty: ctx.signless(width),
            },
        ];
        let region = ir.create_region();
        let body = ir.create_block();
        ir.append_block(region, body);
        let a = ir.add_block_arg(body, ports[0].ty, Some(loc));
        let module =
            silica_hw_dialects::hw::create_module(&mut ctx, &mut ir, loc, "m", &ports, region);
        let mut h = Hw::new(&mut ctx, ir, body, a, a);
        let digits = digits(c, width);
        let form = match digits.as_slice() {
            [] => Form::Zero,
            [(false, p)] => Form::Shift(*p),
            [(true, p)] => Form::Negated(*p),
            _ if factored => match fewest(c, width) {
                Some(stages) => Form::ShiftAdd(stages),
                None => Form::digits(digits),
            },
            _ => Form::digits(digits),
        };
        let p = product(&mut h, a, significant, &form, width);
        h.op("hw.output", &[p], &[], vec![], vec![]);
        h.finish();
        let ir = h.ir;
        let mut sim = ModuleSim::new(&ctx, &ir, module).expect("simulates");
        inputs
            .iter()
            .map(|&x| {
                let x = Bits::new(
                    significant,
                    BigUint::from(x) % (BigUint::from(1u8) << significant),
                );
                sim.eval(&ctx, &ir, &[x]).expect("evaluates")[0]
                    .value()
                    .clone()
            })
            .collect()
    }

    #[test]
    fn products_by_constants_are_exact() {
        let mut next = crate::test_support::xorshift(0x2545_f491_4f6c_dd1du64);
        let reciprocal = |d: i128, l: u32| (1i128 << (32 + l)) / d + 1;
        let cases: [(u32, u32); 6] = [(8, 8), (13, 13), (32, 32), (64, 64), (65, 32), (20, 7)];
        for (width, significant) in cases {
            let mut constants = vec![
                0,
                1,
                -1,
                2,
                -4,
                3,
                9,
                -7,
                10,
                1000003,
                0x5555_5555,
                reciprocal(9, 4),
                reciprocal(5, 3),
                reciprocal(3, 2),
                reciprocal(7, 3),
                0xcccc_cccd,
            ];
            constants.extend((0..12).map(|_| i128::from(next() as i64)));
            let mut inputs: Vec<u128> =
                vec![0, 1, (1u128 << significant) - 1, 1u128 << (significant - 1)];
            inputs.extend((0..12).map(|_| u128::from(next())));
            let modulus = BigUint::from(1u8) << width;
            for (&c, factored) in constants.iter().flat_map(|c| [(c, false), (c, true)]) {
                let got = simulate(c, significant, width, factored, &inputs);
                let c_bits =
                    BigUint::from((c as u128) & ((1u128 << width.min(127)) - 1)) % &modulus;
                for (x, got) in inputs.iter().zip(got) {
                    let x = BigUint::from(*x) % (BigUint::from(1u8) << significant);
                    let want = (&x * &c_bits) % &modulus;
                    assert_eq!(
                        got, want,
                        "{x} * {c} at {width} bits ({significant} significant, factored: {factored})"
                    );
                }
            }
        }
    }
}
