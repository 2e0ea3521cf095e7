//! Differential property tests of the constraint systems against brute
//! force enumeration of small boxes: emptiness, integer samples,
//! projection, constant bounds and bound expressions.

use super::*;
use proptest::prelude::*;

/// Every variable is kept in `[-BOX, BOX]` so enumeration is complete.
const BOX: i64 = 4;

#[derive(Clone, Debug)]
struct Case {
    vars: usize,
    equalities: Vec<Vec<i64>>,
    inequalities: Vec<Vec<i64>>,
}

fn row(vars: usize) -> impl Strategy<Value = Vec<i64>> {
    (prop::collection::vec(-4i64..=4, vars), -10i64..=10).prop_map(|(mut r, c)| {
        r.push(c);
        r
    })
}

fn case() -> impl Strategy<Value = Case> {
    (1usize..=3).prop_flat_map(|vars| {
        (
            prop::collection::vec(row(vars), 0..=1),
            prop::collection::vec(row(vars), 0..=4),
        )
            .prop_map(move |(equalities, inequalities)| Case {
                vars,
                equalities,
                inequalities,
            })
    })
}

fn system(c: &Case) -> IntegerSystem {
    let mut s = IntegerSystem::new(c.vars, 0, 0);
    for r in &c.equalities {
        s.add_equality(r);
    }
    for r in &c.inequalities {
        s.add_inequality(r);
    }
    for v in 0..c.vars {
        s.add_bound(v, BoundKind::Lower, -BOX);
        s.add_bound(v, BoundKind::Upper, BOX);
    }
    s
}

fn points(vars: usize) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for _ in 0..vars {
        out = out
            .into_iter()
            .flat_map(|p| {
                (-BOX..=BOX).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

fn solutions(s: &IntegerSystem, vars: usize) -> Vec<Vec<i64>> {
    points(vars).into_iter().filter(|p| s.contains(p)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn emptiness_and_samples_match_enumeration(c in case()) {
        let s = system(&c);
        let sols = solutions(&s, c.vars);
        prop_assert_eq!(s.is_empty(), sols.is_empty());
        match s.integer_sample() {
            Sample::Point(p) => {
                let p: Vec<i64> = p.iter().filter_map(Int::to_i64).collect();
                prop_assert!(s.contains(&p));
            }
            Sample::Empty => prop_assert!(sols.is_empty()),
            Sample::Unknown => prop_assert!(false, "bounded search gave up"),
        }
    }

    #[test]
    fn projection_is_sound_and_exact_when_it_says_so(c in case(), pick in 0usize..3) {
        let s = system(&c);
        let k = pick % c.vars;
        let mut p = s.clone();
        let exact = p.project_out(k, 1);
        let sols = solutions(&s, c.vars);
        let drop_k = |q: &Vec<i64>| {
            let mut q = q.clone();
            q.remove(k);
            q
        };
        for q in &sols {
            prop_assert!(p.contains(&drop_k(q)));
        }
        if exact {
            let projected: std::collections::HashSet<Vec<i64>> = sols.iter().map(drop_k).collect();
            for q in solutions(&p, c.vars - 1) {
                prop_assert!(projected.contains(&q));
            }
        }
    }

    #[test]
    fn constant_bounds_match_enumeration(c in case(), pick in 0usize..3) {
        let s = system(&c);
        let k = pick % c.vars;
        let sols = solutions(&s, c.vars);
        let min = sols.iter().map(|p| p[k]).min();
        let max = sols.iter().map(|p| p[k]).max();
        prop_assert_eq!(s.exact_constant_bound(k, BoundKind::Lower), min);
        prop_assert_eq!(s.exact_constant_bound(k, BoundKind::Upper), max);
        if let (Some(min), Some(lb)) = (min, s.constant_bound(k, BoundKind::Lower)) {
            prop_assert!(lb <= min);
        }
        if let (Some(max), Some(ub)) = (max, s.constant_bound(k, BoundKind::Upper)) {
            prop_assert!(ub >= max);
        }
    }

    #[test]
    fn bound_expressions_hold_at_every_point(c in case(), pick in 0usize..3) {
        let s = system(&c);
        let k = pick % c.vars;
        let b = s.var_bounds(k, &|col| col + 1 == k);
        for p in solutions(&s, c.vars) {
            for l in &b.lower {
                prop_assert!(l.eval(&p, BoundKind::Lower).is_some_and(|v| v <= p[k]));
            }
            for u in &b.upper {
                prop_assert!(u.eval(&p, BoundKind::Upper).is_some_and(|v| v >= p[k]));
            }
        }
    }

    #[test]
    fn redundancy_removal_keeps_the_set(c in case()) {
        let s = system(&c);
        let mut r = s.clone();
        r.remove_redundant_constraints();
        prop_assert_eq!(solutions(&s, c.vars), solutions(&r, c.vars));
    }
}
