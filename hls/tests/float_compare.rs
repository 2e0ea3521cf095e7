//! `arith.cmpf` with each of the sixteen predicates from the generated
//! f32 modules, against the host's comparisons (ordered predicates
//! false on NaN, unordered true, ±0 equal), on every pair of special
//! values and random operands, combinational and pipelined.

mod float_support;

use float_support::*;
use silica_hls::float::{FloatOp, FloatPredicate, Format, Operator};

fn host(pred: FloatPredicate, a: f32, b: f32) -> bool {
    use FloatPredicate as P;
    let uno = a.is_nan() || b.is_nan();
    match pred {
        P::False => false,
        P::Oeq => a == b,
        P::Ogt => a > b,
        P::Oge => a >= b,
        P::Olt => a < b,
        P::Ole => a <= b,
        P::One => !uno && a != b,
        P::Ord => !uno,
        P::Ueq => uno || a == b,
        P::Ugt => uno || a > b,
        P::Uge => uno || a >= b,
        P::Ult => uno || a < b,
        P::Ule => uno || a <= b,
        P::Une => a != b,
        P::Uno => uno,
        P::True => true,
    }
}

#[test]
fn f32_cmpf_matches_the_host_for_every_predicate() {
    let w = F32.width();
    let specials = F32.specials();
    let mut operands: Vec<Vec<u64>> = Vec::new();
    for &a in &specials {
        for &b in &specials {
            operands.push(vec![a, b]);
        }
    }
    let mut rng = Rng(7);
    for _ in 0..cases(300) {
        let a = F32.operand(&mut rng, None);
        // Equal operands half the time after the first draw.
        let b = if rng.below(4) == 0 {
            a
        } else {
            F32.operand(&mut rng, Some(a))
        };
        operands.push(vec![a, b]);
    }
    for pred in FloatPredicate::ALL {
        let op = Operator::new(FloatOp::Cmp(pred), Format::F32);
        let d = design(op, 0);
        let mut sim = Comb::new(&d, &[w, w]);
        for c in &operands {
            let (a, b) = (f32::from_bits(c[0] as u32), f32::from_bits(c[1] as u32));
            let want = u64::from(host(pred, a, b));
            assert_eq!(sim.eval(c), want, "{} {a:?} {b:?}", pred.name());
        }
        if op.pipelinable() {
            let piped = design(op, 1);
            let some: Vec<Vec<u64>> = operands.iter().step_by(7).cloned().collect();
            let got = run_pipelined(&piped, &[w, w], 1, &some);
            for (c, got) in some.iter().zip(got) {
                let (a, b) = (f32::from_bits(c[0] as u32), f32::from_bits(c[1] as u32));
                assert_eq!(got, u64::from(host(pred, a, b)), "{} l1", pred.name());
            }
        }
    }
}

#[test]
fn predicates_round_trip_through_names_and_codes() {
    for (i, p) in FloatPredicate::ALL.into_iter().enumerate() {
        assert_eq!(FloatPredicate::from_name(p.name()), Some(p));
        assert_eq!(FloatPredicate::from_code(i as i64), Some(p));
    }
    assert_eq!(FloatPredicate::from_code(16), None);
    assert_eq!(FloatPredicate::from_name("lt"), None);
}
