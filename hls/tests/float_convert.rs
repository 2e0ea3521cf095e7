//! `arith.extf`/`arith.truncf` between f32 and f64 and
//! `arith.sitofp`/`arith.uitofp` from i32 and i64 to f32 and f64 from
//! the generated modules, bit-exact against the host's conversions.

mod float_support;

use float_support::*;
use silica_hls::float::{FloatOp, Format, Operator};

fn check(op: Operator, width: u32, inputs: &[u64], reference: &dyn Fn(u64) -> u64, to: Layout) {
    let d = design(op, 0);
    let mut sim = Comb::new(&d, &[width]);
    for &a in inputs {
        let (got, want) = (sim.eval(&[a]), reference(a));
        assert!(
            same_float(to, got, want),
            "{} {a:#x}: got {got:#x}, want {want:#x}",
            op.module_name(0)
        );
    }
    let piped = design(op, 2);
    let cases: Vec<Vec<u64>> = inputs.iter().step_by(5).map(|&a| vec![a]).collect();
    let results = run_pipelined(&piped, &[width], 2, &cases);
    for (c, got) in cases.iter().zip(results) {
        assert!(
            same_float(to, got, reference(c[0])),
            "{} l2 {:#x}",
            op.module_name(2),
            c[0]
        );
    }
}

#[test]
fn extf_and_truncf_are_bit_exact() {
    let mut rng = Rng(11);
    let mut singles = F32.specials();
    let mut doubles = F64.specials();
    for _ in 0..cases(1_500) {
        singles.push(F32.operand(&mut rng, None));
        let d = F64.operand(&mut rng, None);
        doubles.push(d);
        // Doubles around the f32 range: overflow, subnormal, ties.
        let exp = 1023 - 160 + rng.below(300);
        let frac = rng.next() & ((1 << 52) - 1) & !((1 << rng.below(40)) - 1);
        doubles.push(F64.pack(rng.below(2), exp, frac));
    }
    let ext = Operator::new(FloatOp::Convert { to: Format::F64 }, Format::F32);
    check(
        ext,
        32,
        &singles,
        &|a| f64::from(f32::from_bits(a as u32)).to_bits(),
        F64,
    );
    let trunc = Operator::new(FloatOp::Convert { to: Format::F32 }, Format::F64);
    check(
        trunc,
        64,
        &doubles,
        &|a| u64::from((f64::from_bits(a) as f32).to_bits()),
        F32,
    );
}

#[test]
fn int_to_float_is_bit_exact() {
    let mut rng = Rng(12);
    let mut ints: Vec<u64> = vec![
        0,
        1,
        2,
        3,
        u64::MAX,
        1 << 63,
        (1 << 63) - 1,
        1 << 31,
        (1 << 31) - 1,
        0xffff_ffff,
    ];
    for _ in 0..cases(1_500) {
        let shift = rng.below(64);
        ints.push(rng.next() >> shift);
        ints.push((rng.next() >> shift).wrapping_neg());
    }
    let ints32: Vec<u64> = ints.iter().map(|&v| v & 0xffff_ffff).collect();
    for (fmt, layout) in [(Format::F32, F32), (Format::F64, F64)] {
        let to_bits = move |x: f64, y: f32| {
            if fmt == Format::F32 {
                u64::from(y.to_bits())
            } else {
                x.to_bits()
            }
        };
        let si32 = Operator::new(
            FloatOp::IntToFloat {
                signed: true,
                int_bits: 32,
            },
            fmt,
        );
        check(
            si32,
            32,
            &ints32,
            &|a| to_bits(a as u32 as i32 as f64, a as u32 as i32 as f32),
            layout,
        );
        let ui32 = Operator::new(
            FloatOp::IntToFloat {
                signed: false,
                int_bits: 32,
            },
            fmt,
        );
        check(
            ui32,
            32,
            &ints32,
            &|a| to_bits(a as u32 as f64, a as u32 as f32),
            layout,
        );
        let si64 = Operator::new(
            FloatOp::IntToFloat {
                signed: true,
                int_bits: 64,
            },
            fmt,
        );
        check(
            si64,
            64,
            &ints,
            &|a| to_bits(a as i64 as f64, a as i64 as f32),
            layout,
        );
        let ui64 = Operator::new(
            FloatOp::IntToFloat {
                signed: false,
                int_bits: 64,
            },
            fmt,
        );
        check(ui64, 64, &ints, &|a| to_bits(a as f64, a as f32), layout);
    }
}

#[test]
fn float_to_int_truncates_like_the_host_in_range() {
    let mut rng = Rng(13);
    for (fmt, layout) in [(Format::F32, F32), (Format::F64, F64)] {
        for (signed, bits) in [(true, 32u32), (false, 32), (true, 64), (false, 64)] {
            let mut inputs = Vec::new();
            for _ in 0..cases(600) {
                // Exponents from below one up to the integer's range.
                let k = rng.below(u64::from(bits) + 2) as i64 - 2;
                let exp = (layout_bias(layout) + k) as u64;
                let sign = if signed { rng.below(2) } else { 0 };
                inputs.push(layout.pack(sign, exp, rng.next()));
            }
            inputs.extend(layout.specials().into_iter().filter(|&x| {
                let e = layout.exp_of(x);
                e < layout_bias(layout) as u64 + 20 && (signed || x >> (layout.width() - 1) == 0)
            }));
            let in_range: Vec<u64> = inputs
                .into_iter()
                .filter(|&x| host_int(layout, signed, bits, x).is_some())
                .collect();
            let op = Operator::new(
                FloatOp::FloatToInt {
                    signed,
                    int_bits: bits,
                },
                fmt,
            );
            let reference = |x: u64| host_int(layout, signed, bits, x).unwrap();
            let d = design(op, 0);
            let mut sim = Comb::new(&d, &[layout.width()]);
            for &x in &in_range {
                assert_eq!(sim.eval(&[x]), reference(x), "{} {x:#x}", op.module_name(0));
            }
            assert!(in_range.len() > 500);
        }
    }
    // Out of range and NaN: the x86-64 integer indefinite value.
    let op = Operator::new(
        FloatOp::FloatToInt {
            signed: true,
            int_bits: 32,
        },
        Format::F32,
    );
    let d = design(op, 0);
    let mut sim = Comb::new(&d, &[32]);
    for x in [f32::NAN, 3e9, -3e9, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(sim.eval(&[u64::from(x.to_bits())]), 0x8000_0000, "{x}");
    }
    assert_eq!(
        sim.eval(&[u64::from((-2147483648.0f32).to_bits())]),
        0x8000_0000
    );
}

fn layout_bias(layout: Layout) -> i64 {
    (1 << (layout.exp_bits - 1)) - 1
}

/// The host's conversion of `x`, when `x` is in the integer's range.
fn host_int(layout: Layout, signed: bool, bits: u32, x: u64) -> Option<u64> {
    let v = if layout.width() == 32 {
        f64::from(f32::from_bits(x as u32))
    } else {
        f64::from_bits(x)
    };
    let t = v.trunc();
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    };
    let range = 2f64.powi(bits as i32 - i32::from(signed));
    if v.is_nan() || t >= range || (signed && t < -range) || (!signed && t < 0.0) {
        return None;
    }
    Some(if signed {
        (t as i64 as u64) & mask
    } else {
        t as u64 & mask
    })
}
