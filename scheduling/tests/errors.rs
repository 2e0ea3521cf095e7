//! Bad problems get clear errors naming the operations involved.

use silica_scheduling::{schedule, Algorithm, Options, Problem, ProblemKind, Schedule};

fn error(p: &Problem, algorithm: Algorithm) -> String {
    match schedule(p, &Options::new(algorithm)) {
        Ok(s) => panic!("expected an error, got {s:?}"),
        Err(e) => e.message,
    }
}

#[test]
fn cycle_without_distance_names_its_operations() {
    let mut p = Problem::new(ProblemKind::CyclicProblem);
    let t = p.add_operator_type("t", 1);
    let a = p.add_operation(t, &[]);
    let b = p.add_operation(t, &[]);
    p.operations[b.0 as usize].name = Some("b".into());
    p.add_dependence(a, b, 0);
    p.add_dependence(b, a, 0);
    let msg = error(&p, Algorithm::Modulo);
    assert!(msg.contains("dependence cycle without distance"), "{msg}");
    assert!(
        msg.contains("operation #0") && msg.contains("operation @b"),
        "{msg}"
    );
}

#[test]
fn cycle_in_acyclic_problem() {
    let mut p = Problem::new(ProblemKind::Problem);
    let t = p.add_operator_type("t", 1);
    let a = p.add_operation(t, &[]);
    p.add_dependence(a, a, 0);
    assert!(error(&p, Algorithm::Asap).contains("dependence cycle detected through operation #0"));
}

#[test]
fn zero_limit_resource_in_use() {
    let mut p = Problem::new(ProblemKind::ModuloProblem);
    let t = p.add_operator_type("t", 1);
    let r = p.add_resource_type("port", 0);
    p.add_operation(t, &[r]);
    let msg = error(&p, Algorithm::Modulo);
    assert!(
        msg.contains("operation #0 uses resource type 'port', which has limit 0"),
        "{msg}"
    );
}

#[test]
fn missing_operator_type_and_latency() {
    let mut p = Problem::new(ProblemKind::Problem);
    p.operations.push(Default::default());
    assert!(error(&p, Algorithm::Asap).contains("operation #0 has no linked operator type"));
    let mut p = Problem::new(ProblemKind::Problem);
    let t = p.add_operator_type("foo", 1);
    p.operator_types[0].latency = None;
    p.add_operation(t, &[]);
    assert_eq!(
        error(&p, Algorithm::Asap),
        "Operator type 'foo' has no latency"
    );
}

#[test]
fn zero_latency_on_limited_resource() {
    let mut p = Problem::new(ProblemKind::SharedOperatorsProblem);
    let t = p.add_operator_type("limited", 0);
    let r = p.add_resource_type("limited_rsrc", 1);
    p.add_operation(t, &[r]);
    assert_eq!(
        error(&p, Algorithm::List),
        "Operator type 'limited' using limited resource 'limited_rsrc' has zero latency."
    );
}

#[test]
fn unsupported_scheduler_is_named() {
    let mut p = Problem::new(ProblemKind::ModuloProblem);
    let t = p.add_operator_type("t", 1);
    p.add_operation(t, &[]);
    let msg = error(&p, Algorithm::List);
    assert!(
        msg.contains("does not solve a ModuloProblem; use modulo or ilp"),
        "{msg}"
    );
}

#[test]
fn verify_reports_violations() {
    let mut p = Problem::new(ProblemKind::ModuloProblem);
    let t = p.add_operator_type("limited", 1);
    let r = p.add_resource_type("limited_rsrc", 2);
    let a = p.add_operation(t, &[r]);
    let b = p.add_operation(t, &[r]);
    p.add_operation(t, &[r]);
    let oversubscribed = Schedule {
        start_times: vec![1, 3, 5],
        start_in_cycle: Vec::new(),
        ii: Some(2),
    };
    let e = p.verify(&oversubscribed).unwrap_err();
    assert_eq!(e.message, "Resource type 'limited_rsrc' is oversubscribed");
    p.add_dependence(a, b, 0);
    let late = Schedule {
        start_times: vec![4, 3, 6],
        start_in_cycle: Vec::new(),
        ii: Some(3),
    };
    let e = p.verify(&late).unwrap_err();
    assert_eq!(
        e.message,
        "Precedence violated for dependence operation #0 -> operation #1"
    );
}
