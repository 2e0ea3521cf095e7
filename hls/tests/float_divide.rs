//! f32 and f64 division, square root and fused multiply-add from the
//! generated operator modules, bit-exact against the host's correctly
//! rounded IEEE operations (`/`, `sqrt`, `mul_add`) on every pair of
//! special values (for fma: every pair with a set of addends) and
//! random operands weighted towards the hard cases (subnormals, ties,
//! exact results, cancellation against the product, overflow and
//! underflow), combinational and pipelined.

mod float_support;

use float_support::*;
use silica_hls::float::{FloatOp, Format, Operator};

/// Checks `operator` at latency 0 on `cases` and at `latency` on a tenth
/// of them.
fn check(
    operator: Operator,
    layout: Layout,
    reference: &dyn Fn(&[u64]) -> u64,
    cases: &[Vec<u64>],
    latency: u32,
) {
    let w = layout.width();
    let widths = vec![w; cases[0].len()];
    let comb = design(operator, 0);
    let mut sim = Comb::new(&comb, &widths);
    for c in cases {
        let got = sim.eval(c);
        let want = reference(c);
        assert!(
            same_float(layout, got, want),
            "{}: {c:#x?}: got {got:#x}, want {want:#x}",
            operator.module_name(0)
        );
    }
    let piped = design(operator, latency);
    let some: Vec<Vec<u64>> = cases.iter().step_by(10).cloned().collect();
    let results = run_pipelined(&piped, &widths, latency, &some);
    for (c, got) in some.iter().zip(results) {
        let want = reference(c);
        assert!(
            same_float(layout, got, want),
            "{}: {c:#x?}: got {got:#x}, want {want:#x}",
            operator.module_name(latency)
        );
    }
}

/// Every pair of specials, then `random` pairs.
fn pairs(layout: Layout, random: usize, seed: u64) -> Vec<Vec<u64>> {
    let specials = layout.specials();
    let mut out = Vec::new();
    for &a in &specials {
        for &b in &specials {
            out.push(vec![a, b]);
        }
    }
    let mut rng = Rng(seed);
    for _ in 0..cases(random) {
        let a = layout.operand(&mut rng, None);
        let b = layout.operand(&mut rng, Some(a));
        out.push(vec![a, b]);
    }
    out
}

fn f32_of(c: &[u64], i: usize) -> f32 {
    f32::from_bits(c[i] as u32)
}

fn f64_of(c: &[u64], i: usize) -> f64 {
    f64::from_bits(c[i])
}

#[test]
fn f32_div_is_bit_exact() {
    let op = Operator::new(FloatOp::Div, Format::F32);
    let cases = pairs(F32, 1_500, 0xd1f);
    check(
        op,
        F32,
        &|c| u64::from((f32_of(c, 0) / f32_of(c, 1)).to_bits()),
        &cases,
        6,
    );
}

#[test]
fn f64_div_is_bit_exact() {
    let op = Operator::new(FloatOp::Div, Format::F64);
    let cases = pairs(F64, 400, 0xd164);
    check(
        op,
        F64,
        &|c| (f64_of(c, 0) / f64_of(c, 1)).to_bits(),
        &cases,
        9,
    );
}

/// Specials, random operands and perfect squares (exact roots) and
/// their neighbours.
fn radicands(layout: Layout, random: usize, seed: u64) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = layout.specials().into_iter().map(|a| vec![a]).collect();
    let mut rng = Rng(seed);
    for i in 0..cases(random) {
        let a = layout.operand(&mut rng, None);
        let a = if i % 4 == 0 {
            // The square of a short significand: an exact root.
            let root = a & !((1u64 << (layout.man_bits / 2)) - 1);
            let root = root & !(1u64 << (layout.width() - 1));
            if layout.width() == 32 {
                let r = f32::from_bits(root as u32);
                u64::from((r * r).to_bits()) ^ (rng.below(3) & 1)
            } else {
                let r = f64::from_bits(root);
                (r * r).to_bits() ^ (rng.below(3) & 1)
            }
        } else {
            a
        };
        out.push(vec![a]);
    }
    out
}

#[test]
fn f32_sqrt_is_bit_exact() {
    let op = Operator::new(FloatOp::Sqrt, Format::F32);
    let cases = radicands(F32, 1_500, 0x5917);
    check(
        op,
        F32,
        &|c| u64::from(f32_of(c, 0).sqrt().to_bits()),
        &cases,
        5,
    );
}

#[test]
fn f64_sqrt_is_bit_exact() {
    let op = Operator::new(FloatOp::Sqrt, Format::F64);
    let cases = radicands(F64, 400, 0x5964);
    check(op, F64, &|c| f64_of(c, 0).sqrt().to_bits(), &cases, 8);
}

/// Every pair of specials with a few addends, then random triples, a
/// third of them with an addend cancelling most of the product.
fn triples(layout: Layout, random: usize, seed: u64) -> Vec<Vec<u64>> {
    let specials = layout.specials();
    let mut out = Vec::new();
    for &a in &specials {
        for &b in &specials {
            for &c in specials.iter().step_by(9) {
                out.push(vec![a, b, c]);
            }
        }
    }
    let mut rng = Rng(seed);
    for i in 0..cases(random) {
        let a = layout.operand(&mut rng, None);
        let b = layout.operand(&mut rng, Some(a));
        let c = if i % 3 == 0 {
            let product = if layout.width() == 32 {
                u64::from((f32::from_bits(a as u32) * f32::from_bits(b as u32)).to_bits())
            } else {
                (f64::from_bits(a) * f64::from_bits(b)).to_bits()
            };
            let near = product ^ (1u64 << (layout.width() - 1));
            near ^ (rng.next() & 0xff)
        } else {
            layout.operand(&mut rng, Some(a))
        };
        out.push(vec![a, b, c]);
    }
    out
}

#[test]
fn f32_fma_is_bit_exact() {
    let op = Operator::new(FloatOp::Fma, Format::F32);
    let cases = triples(F32, 1_500, 0xf3a);
    check(
        op,
        F32,
        &|c| u64::from(f32_of(c, 0).mul_add(f32_of(c, 1), f32_of(c, 2)).to_bits()),
        &cases,
        5,
    );
}

#[test]
fn f64_fma_is_bit_exact() {
    let op = Operator::new(FloatOp::Fma, Format::F64);
    let cases = triples(F64, 400, 0xf64a);
    check(
        op,
        F64,
        &|c| f64_of(c, 0).mul_add(f64_of(c, 1), f64_of(c, 2)).to_bits(),
        &cases,
        6,
    );
}
