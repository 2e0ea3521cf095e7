//! f32 and f64 add, sub, mul, neg, abs, maximum and minimum from the
//! generated operator modules, bit-exact against the host's IEEE
//! arithmetic on random operands weighted towards the hard cases
//! (cancellation, ties, subnormals, overflow, underflow, infinities,
//! NaNs) plus every pair of special values, combinational and
//! pipelined.

mod float_support;

use float_support::*;
use silica_hls::float::{FloatOp, Format, Operator};

fn f32_ref(f: fn(f32, f32) -> f32) -> impl Fn(u64, u64) -> u64 {
    move |a, b| u64::from(f(f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits())
}

fn f64_ref(f: fn(f64, f64) -> f64) -> impl Fn(u64, u64) -> u64 {
    move |a, b| f(f64::from_bits(a), f64::from_bits(b)).to_bits()
}

/// Operand pairs: every pair of specials, then `random` drawn ones.
fn pairs(layout: Layout, random: usize, seed: u64) -> Vec<Vec<u64>> {
    let specials = layout.specials();
    let mut cases: Vec<Vec<u64>> = Vec::new();
    for &a in &specials {
        for &b in &specials {
            cases.push(vec![a, b]);
        }
    }
    let mut rng = Rng(seed);
    for _ in 0..random {
        let a = layout.operand(&mut rng, None);
        let b = layout.operand(&mut rng, Some(a));
        cases.push(vec![a, b]);
    }
    cases
}

/// Checks `operator` at latency 0 on `random` cases and at `latency` on
/// a tenth of them; returns the number of cases checked.
fn check(
    operator: Operator,
    layout: Layout,
    reference: &dyn Fn(u64, u64) -> u64,
    random: usize,
    latency: u32,
) -> usize {
    let w = layout.width();
    let random = cases(random);
    let cases = pairs(layout, random, 0x5eed ^ u64::from(w) ^ (random as u64));
    let comb = design(operator, 0);
    let mut sim = Comb::new(&comb, &[w, w]);
    for c in &cases {
        let got = sim.eval(c);
        let want = reference(c[0], c[1]);
        assert!(
            same_float(layout, got, want),
            "{}: {:#x}, {:#x}: got {got:#x}, want {want:#x}",
            operator.module_name(0),
            c[0],
            c[1]
        );
    }
    let piped = design(operator, latency);
    let some: Vec<Vec<u64>> = cases.iter().step_by(10).cloned().collect();
    let results = run_pipelined(&piped, &[w, w], latency, &some);
    for (c, got) in some.iter().zip(results) {
        let want = reference(c[0], c[1]);
        assert!(
            same_float(layout, got, want),
            "{}: {:#x}, {:#x}: got {got:#x}, want {want:#x}",
            operator.module_name(latency),
            c[0],
            c[1]
        );
    }
    cases.len() + some.len()
}

#[test]
fn f32_add_is_bit_exact() {
    let op = Operator::new(FloatOp::Add, Format::F32);
    check(op, F32, &f32_ref(|a, b| a + b), 4_000, 3);
}

#[test]
fn f32_sub_is_bit_exact() {
    let op = Operator::new(FloatOp::Sub, Format::F32);
    check(op, F32, &f32_ref(|a, b| a - b), 2_000, 2);
}

#[test]
fn f32_mul_is_bit_exact() {
    let op = Operator::new(FloatOp::Mul, Format::F32);
    check(op, F32, &f32_ref(|a, b| a * b), 4_000, 4);
}

fn maximum(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a == b {
        // Equal zeros: +0 is the larger.
        if a.is_sign_negative() {
            b
        } else {
            a
        }
    } else {
        a.max(b)
    }
}

fn minimum(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else if a == b {
        if a.is_sign_negative() {
            a
        } else {
            b
        }
    } else {
        a.min(b)
    }
}

#[test]
fn f32_maximum_and_minimum_propagate_nan_and_order_zeros() {
    let max = Operator::new(FloatOp::Max, Format::F32);
    check(max, F32, &f32_ref(maximum), 1_000, 1);
    let min = Operator::new(FloatOp::Min, Format::F32);
    check(min, F32, &f32_ref(minimum), 1_000, 1);
}

#[test]
fn f32_neg_and_abs_touch_only_the_sign() {
    let w = F32.width();
    for (op, reference) in [
        (FloatOp::Neg, (|a: u64| a ^ (1 << 31)) as fn(u64) -> u64),
        (FloatOp::Abs, |a: u64| a & !(1 << 31)),
    ] {
        let d = design(Operator::new(op, Format::F32), 0);
        let mut sim = Comb::new(&d, &[w]);
        for a in F32.specials() {
            assert_eq!(sim.eval(&[a]), reference(a), "{op:?} {a:#x}");
        }
    }
}

#[test]
fn f64_add_and_mul_are_bit_exact() {
    let add = Operator::new(FloatOp::Add, Format::F64);
    check(add, F64, &f64_ref(|a, b| a + b), 1_500, 3);
    let mul = Operator::new(FloatOp::Mul, Format::F64);
    check(mul, F64, &f64_ref(|a, b| a * b), 1_500, 4);
}
