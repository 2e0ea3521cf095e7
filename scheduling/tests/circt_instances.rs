//! CIRCT's scheduling test instances (test/Scheduling/*.mlir), built
//! through the API: every one is solved and verified, with an II and a
//! latency no worse than the values CIRCT's CHECK lines expect.

use silica_scheduling::{schedule, Algorithm, OpId, Options, Problem, ProblemKind, ResourceTypeId};

/// Adds an operation of a fresh operator type with `latency`.
fn op(p: &mut Problem, latency: u32, resources: &[ResourceTypeId]) -> OpId {
    let name = format!("t{}", p.operator_types.len());
    let t = p.add_operator_type(&name, latency);
    p.add_operation(t, resources)
}

fn solve(p: &Problem, algorithm: Algorithm) -> silica_scheduling::Solution {
    schedule(p, &Options::new(algorithm)).unwrap_or_else(|e| panic!("{algorithm:?}: {e}"))
}

/// modulo-problems.mlir @canis14_fig2: CIRCT's simplex scheduler reaches II 4.
#[test]
fn canis14_fig2() {
    let mut p = Problem::new(ProblemKind::ModuloProblem);
    let port = p.add_resource_type("L1_rsrc", 1);
    let o0 = op(&mut p, 1, &[port]);
    let o1 = op(&mut p, 1, &[port]);
    let o2 = op(&mut p, 1, &[]);
    let o3 = op(&mut p, 1, &[port]);
    let last = op(&mut p, 1, &[]);
    p.add_dependence(o3, o0, 1);
    p.add_dependence(o0, o2, 0);
    p.add_dependence(o1, o2, 0);
    p.add_dependence(o2, o3, 0);
    p.add_dependence(o3, last, 0);
    for algorithm in [Algorithm::Modulo, Algorithm::Ilp] {
        let s = solve(&p, algorithm);
        assert_eq!((s.res_mii, s.rec_mii), (3, 3));
        assert!(
            s.schedule.ii.unwrap() <= 4,
            "{algorithm:?}: {:?}",
            s.schedule
        );
        assert!(s.schedule.ii.unwrap() >= 3);
    }
    // The ILP proves II 3.
    let s = solve(&p, Algorithm::Ilp);
    assert_eq!(s.schedule.ii, Some(3));
    assert!(s.optimal);
}

/// modulo-problems.mlir @minII_feasible: II 3, last operation at t 14.
#[test]
fn min_ii_feasible() {
    let mut p = Problem::new(ProblemKind::ModuloProblem);
    let r = p.add_resource_type("L1_rsrc", 1);
    let o0 = op(&mut p, 0, &[]);
    let o1 = op(&mut p, 2, &[]);
    let o2 = op(&mut p, 2, &[]);
    let o3 = op(&mut p, 1, &[]);
    let o4 = op(&mut p, 3, &[r]);
    let o5 = op(&mut p, 3, &[r]);
    let o6 = op(&mut p, 3, &[r]);
    let last = op(&mut p, 1, &[]);
    for (s, d, dist) in [
        (o6, o1, 5),
        (o5, o2, 3),
        (o1, o3, 0),
        (o0, o3, 0),
        (o3, o4, 0),
        (o2, o4, 0),
        (o0, o5, 0),
        (o4, o5, 0),
        (o4, o6, 0),
        (o5, o6, 0),
        (o6, last, 0),
    ] {
        p.add_dependence(s, d, dist);
    }
    let s = solve(&p, Algorithm::Modulo);
    assert_eq!(s.schedule.ii, Some(3));
    assert!(s.optimal);
    assert!(s.schedule.start_times[last.0 as usize] <= 14);
}

/// modulo-problems.mlir @four_read_pipeline: CIRCT reaches II 4, last at t 8.
#[test]
fn four_read_pipeline() {
    let mut p = Problem::new(ProblemKind::ModuloProblem);
    let r = p.add_resource_type("L1_rsrc", 1);
    let o0 = op(&mut p, 1, &[]);
    let o1 = op(&mut p, 1, &[]);
    let reads: Vec<OpId> = (0..4).map(|_| op(&mut p, 1, &[r])).collect();
    let o6 = op(&mut p, 1, &[]);
    let o7 = op(&mut p, 1, &[]);
    let o8 = op(&mut p, 1, &[]);
    let last = op(&mut p, 1, &[]);
    p.add_dependence(o0, o1, 0);
    for &x in &reads {
        p.add_dependence(o1, x, 0);
    }
    p.add_dependence(reads[0], o6, 0);
    p.add_dependence(reads[1], o6, 0);
    p.add_dependence(reads[2], o7, 0);
    p.add_dependence(reads[3], o7, 0);
    p.add_dependence(o6, o8, 0);
    p.add_dependence(o7, o8, 0);
    p.add_dependence(o8, last, 0);
    let s = solve(&p, Algorithm::Modulo);
    assert_eq!(s.schedule.ii, Some(4));
    assert!(s.schedule.start_times[last.0 as usize] <= 8);
}

/// shared-operators-problems.mlir style: two units, five operations.
#[test]
fn shared_operators_list_and_ilp() {
    let mut p = Problem::new(ProblemKind::SharedOperatorsProblem);
    let r = p.add_resource_type("mul", 2);
    let src = op(&mut p, 1, &[]);
    let muls: Vec<OpId> = (0..5).map(|_| op(&mut p, 3, &[r])).collect();
    let sink = op(&mut p, 1, &[]);
    for &m in &muls {
        p.add_dependence(src, m, 0);
        p.add_dependence(m, sink, 0);
    }
    let list = solve(&p, Algorithm::List);
    let ilp = solve(&p, Algorithm::Ilp);
    // 5 multiplications on 2 units need 3 steps: start 1, 1, 2, 2, 3.
    assert_eq!(list.latency, 1 + 2 + 3 + 1);
    assert!(ilp.latency <= list.latency);
    assert!(ilp.optimal);
}

/// problems.mlir / cyclic-problems.mlir: ASAP and SDC agree on latency.
#[test]
fn asap_and_sdc_agree() {
    for kind in [ProblemKind::Problem, ProblemKind::CyclicProblem] {
        let mut p = Problem::new(kind);
        let a = op(&mut p, 1, &[]);
        let b = op(&mut p, 2, &[]);
        let c = op(&mut p, 3, &[]);
        let d = op(&mut p, 0, &[]);
        p.add_dependence(a, b, 0);
        p.add_dependence(a, c, 0);
        p.add_dependence(b, d, 0);
        p.add_dependence(c, d, 0);
        if kind == ProblemKind::CyclicProblem {
            p.add_dependence(d, a, 2);
        }
        let asap = solve(&p, Algorithm::Asap);
        let sdc = solve(&p, Algorithm::Sdc);
        assert_eq!(asap.latency, 4);
        assert_eq!(sdc.latency, 4);
        if kind == ProblemKind::CyclicProblem {
            // Cycle a -> c -> d -> a: latency 4 over distance 2.
            assert_eq!(asap.rec_mii, 2);
            assert_eq!(sdc.schedule.ii, Some(2));
        }
    }
}

/// chaining-problems.mlir: delays 1.0 chain three deep at cycle time 3.0,
/// the fourth moves to the next cycle.
#[test]
fn chaining_to_cycle_time() {
    let mut p = Problem::new(ProblemKind::ChainingProblem);
    let t = p.add_operator_type("add", 0);
    p.operator_types[t.0 as usize].incoming_delay = Some(1.0);
    p.operator_types[t.0 as usize].outgoing_delay = Some(1.0);
    let ops: Vec<OpId> = (0..4).map(|_| p.add_operation(t, &[])).collect();
    for w in ops.windows(2) {
        p.add_dependence(w[0], w[1], 0);
    }
    let mut opts = Options::new(Algorithm::Asap);
    opts.cycle_time = Some(3.0);
    let s = schedule(&p, &opts).unwrap();
    assert_eq!(s.schedule.start_times, vec![0, 0, 0, 1]);
    assert_eq!(s.schedule.start_in_cycle, vec![0.0, 1.0, 2.0, 0.0]);
}
