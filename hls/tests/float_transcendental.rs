//! f32 and f64 `math.exp`, `math.log` and `math.powf` from the generated
//! operator modules against the host's libm (`f32::exp`, `ln`, `powf`
//! and their f64 versions):
//! every result within 1 ulp (the co-simulation's documented tolerance
//! for these functions; NaN matches NaN), on special values, arguments
//! across the whole range (random bits), near the overflow and underflow
//! thresholds and near 1, and for `powf` on every pair of specials,
//! integer exponents (signs of negative bases) and random pairs;
//! combinational, and a sample pipelined. `SILICA_FLOAT_CASES=N`
//! multiplies the random cases (the default keeps the suite quick).

mod float_support;

use float_support::*;
use silica_hls::float::{FloatOp, Format, Operator};

/// Whether the bits `got` and `want` of `layout` are within one ulp
/// (same sign, adjacent or equal encodings; ±0 equal; NaN matches NaN).
fn within_one_ulp(layout: Layout, got: u64, want: u64) -> bool {
    if same_float(layout, got, want) {
        return true;
    }
    let sign_bit = 1u64 << (layout.width() - 1);
    let magnitude = sign_bit - 1;
    let ordered = |x: u64| -> i128 {
        if x & sign_bit != 0 {
            -i128::from(x & magnitude)
        } else {
            i128::from(x)
        }
    };
    let infinity = layout.pack(0, (1 << layout.exp_bits) - 1, 0);
    let nan = |x: u64| x & magnitude > infinity;
    !nan(got) && !nan(want) && (ordered(got) - ordered(want)).abs() <= 1
}

/// Checks `operator` at latency 0 on every case and at `latency` on a
/// tenth of them; returns how many results were not bit-exact.
fn check(
    operator: Operator,
    reference: &dyn Fn(&[u64]) -> u64,
    cases: &[Vec<u64>],
    latency: u32,
) -> usize {
    let layout = if operator.format == Format::F32 {
        F32
    } else {
        F64
    };
    let widths = vec![layout.width(); cases[0].len()];
    let comb = design(operator, 0);
    let mut sim = Comb::new(&comb, &widths);
    let mut inexact = 0;
    for c in cases {
        let got = sim.eval(c);
        let want = reference(c);
        assert!(
            within_one_ulp(layout, got, want),
            "{}: {c:#x?}: got {got:#x}, libm {want:#x}",
            operator.module_name(0)
        );
        inexact += usize::from(!same_float(layout, got, want));
    }
    let piped = design(operator, latency);
    let some: Vec<Vec<u64>> = cases.iter().step_by(10).cloned().collect();
    let results = run_pipelined(&piped, &widths, latency, &some);
    for (c, got) in some.iter().zip(results) {
        let want = reference(c);
        assert!(
            within_one_ulp(layout, got, want),
            "{}: {c:#x?}: got {got:#x}, libm {want:#x}",
            operator.module_name(latency)
        );
    }
    inexact
}

fn f32_of(c: &[u64], i: usize) -> f32 {
    f32::from_bits(c[i] as u32)
}

fn f64_of(c: &[u64], i: usize) -> f64 {
    f64::from_bits(c[i])
}

/// Specials of `layout`, random bit patterns, and random values with
/// exponents drawn from `exponents` (biased), either sign unless
/// `positive`.
fn arguments(
    layout: Layout,
    random: usize,
    seed: u64,
    exponents: std::ops::Range<u64>,
    positive: bool,
) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = layout.specials().into_iter().map(|a| vec![a]).collect();
    let mut rng = Rng(seed);
    let all = ((1u128 << layout.width()) - 1) as u64;
    for i in 0..cases(random) {
        let x = if i % 3 == 0 {
            rng.next() & all
        } else {
            let e = exponents.start + rng.below(exponents.end - exponents.start);
            let sign = if positive { 0 } else { rng.below(2) };
            layout.pack(sign, e, rng.next())
        };
        out.push(vec![x]);
    }
    out
}

#[test]
fn f32_exp_is_within_one_ulp_of_libm() {
    let op = Operator::new(FloatOp::Exp, Format::F32);
    // Exponents up to |x| < 256: past both thresholds (88.7, -103.9).
    let mut inputs = arguments(F32, 300, 0xe4, 100..135, false);
    for x in [
        88.72283f32,
        88.72284,
        -87.33655,
        -103.27893,
        -103.97208,
        -104.0,
    ] {
        for d in [-1i64, 0, 1] {
            inputs.push(vec![(i64::from(x.to_bits()) + d) as u64]);
        }
    }
    let inexact = check(op, &|c| u64::from(f32_of(c, 0).exp().to_bits()), &inputs, 6);
    assert!(
        inexact * 20 < inputs.len(),
        "{inexact} of {} not exact",
        inputs.len()
    );
}

#[test]
fn f32_log_is_within_one_ulp_of_libm() {
    let op = Operator::new(FloatOp::Log, Format::F32);
    let mut inputs = arguments(F32, 300, 0x109, 0..255, true);
    // Near 1, where the logarithm cancels.
    let mut rng = Rng(7);
    for _ in 0..cases(100) {
        let d = rng.below(1 << 17) as i64 - (1 << 16);
        inputs.push(vec![(0x3f80_0000i64 + d) as u64]);
    }
    let inexact = check(op, &|c| u64::from(f32_of(c, 0).ln().to_bits()), &inputs, 6);
    assert!(
        inexact * 20 < inputs.len(),
        "{inexact} of {} not exact",
        inputs.len()
    );
}

#[test]
fn f32_powf_is_within_one_ulp_of_libm() {
    let op = Operator::new(FloatOp::Pow, Format::F32);
    // Zeros, a subnormal, the extremes, 1 and its neighbours, infinities,
    // NaNs (quiet, signaling), small integers and a half, both signs.
    let specials: Vec<u64> = [
        0x0000_0000u64,
        0x0000_0001,
        0x7f7f_ffff,
        0x3f80_0000,
        0x3f80_0001,
        0x3f7f_ffff,
        0x7f80_0000,
        0x7fc0_0000,
        0x7f80_0001,
        0x4000_0000,
        0x4040_0000,
        0x3f00_0000,
    ]
    .iter()
    .flat_map(|&v| [v, v | 0x8000_0000])
    .collect();
    let mut inputs = Vec::new();
    for &x in &specials {
        for &y in &specials {
            inputs.push(vec![x, y]);
        }
    }
    let mut rng = Rng(0x90f);
    for i in 0..cases(300) {
        let x = match i % 4 {
            0 => rng.next() & 0xffff_ffff,
            1 => F32.pack(rng.below(2), 120 + rng.below(15), rng.next()),
            // Near 1, raised to large powers.
            2 => (0x3f80_0000i64 + rng.below(1 << 12) as i64 - (1 << 11)) as u64,
            _ => F32.pack(rng.below(2), rng.below(255), rng.next()),
        };
        let y = match i % 5 {
            0 => rng.next() & 0xffff_ffff,
            // Small integers, odd and even, either sign.
            1 => u64::from((rng.below(41) as f32 - 20.0).to_bits()),
            2 => F32.pack(rng.below(2), 127 + rng.below(16), rng.next()),
            _ => F32.pack(rng.below(2), 110 + rng.below(30), rng.next()),
        };
        inputs.push(vec![x, y]);
    }
    let inexact = check(
        op,
        &|c| u64::from(f32_of(c, 0).powf(f32_of(c, 1)).to_bits()),
        &inputs,
        8,
    );
    assert!(
        inexact * 20 < inputs.len(),
        "{inexact} of {} not exact",
        inputs.len()
    );
}

#[test]
fn f64_exp_is_within_one_ulp_of_libm() {
    let op = Operator::new(FloatOp::Exp, Format::F64);
    // Exponents up to |x| < 2048: past both thresholds (709.8, -745.1).
    let mut inputs = arguments(F64, 120, 0x64e4, 980..1034, false);
    for x in [
        709.782712893384f64,
        709.7827128933841,
        -708.3964185322641,
        -745.1332191019411,
        -745.1332191019412,
        -1024.0,
        1e-300,
    ] {
        for d in [-1i64, 0, 1] {
            inputs.push(vec![(x.to_bits() as i64 + d) as u64]);
        }
    }
    let inexact = check(op, &|c| f64_of(c, 0).exp().to_bits(), &inputs, 8);
    assert!(
        inexact * 20 < inputs.len(),
        "{inexact} of {} not exact",
        inputs.len()
    );
}

#[test]
fn f64_log_is_within_one_ulp_of_libm() {
    let op = Operator::new(FloatOp::Log, Format::F64);
    let mut inputs = arguments(F64, 120, 0x6409, 0..2047, true);
    // Near 1, where the logarithm cancels, down to its neighbours.
    let mut rng = Rng(0x6407);
    for i in 0..cases(40) {
        let d = if i % 2 == 0 {
            rng.below(1 << 41) as i64 - (1 << 40)
        } else {
            rng.below(33) as i64 - 16
        };
        inputs.push(vec![(0x3ff0_0000_0000_0000i64 + d) as u64]);
    }
    let inexact = check(op, &|c| f64_of(c, 0).ln().to_bits(), &inputs, 8);
    assert!(
        inexact * 20 < inputs.len(),
        "{inexact} of {} not exact",
        inputs.len()
    );
}

#[test]
fn f64_powf_is_within_one_ulp_of_libm() {
    let op = Operator::new(FloatOp::Pow, Format::F64);
    // Zeros, a subnormal, the largest value, 1 and its neighbours,
    // infinities, NaNs (quiet, signaling), 2, 3 and a half, both signs.
    let specials: Vec<u64> = [
        0u64,
        1,
        0x7fef_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0x3ff0_0000_0000_0001,
        0x3fef_ffff_ffff_ffff,
        0x7ff0_0000_0000_0000,
        0x7ff8_0000_0000_0000,
        0x7ff0_0000_0000_0001,
        0x4000_0000_0000_0000,
        0x4008_0000_0000_0000,
        0x3fe0_0000_0000_0000,
    ]
    .iter()
    .flat_map(|&v| [v, v | 1 << 63])
    .collect();
    let mut inputs = Vec::new();
    for &x in &specials {
        for &y in &specials {
            inputs.push(vec![x, y]);
        }
    }
    let mut rng = Rng(0x690f);
    for i in 0..cases(160) {
        let x = match i % 4 {
            0 => rng.next(),
            1 => F64.pack(rng.below(2), 1016 + rng.below(15), rng.next()),
            // Near 1, raised to large powers.
            2 => (0x3ff0_0000_0000_0000i64 + rng.below(1 << 31) as i64 - (1 << 30)) as u64,
            _ => F64.pack(rng.below(2), rng.below(2047), rng.next()),
        };
        let y = match i % 5 {
            0 => rng.next(),
            // Small integers, odd and even, either sign.
            1 => (rng.below(41) as f64 - 20.0).to_bits(),
            2 => F64.pack(rng.below(2), 1023 + rng.below(34), rng.next()),
            _ => F64.pack(rng.below(2), 1000 + rng.below(30), rng.next()),
        };
        inputs.push(vec![x, y]);
    }
    let inexact = check(
        op,
        &|c| f64_of(c, 0).powf(f64_of(c, 1)).to_bits(),
        &inputs,
        10,
    );
    assert!(
        inexact * 20 < inputs.len(),
        "{inexact} of {} not exact",
        inputs.len()
    );
}
