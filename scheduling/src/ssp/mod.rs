//! CIRCT's `ssp` dialect (static scheduling problems) in CIRCT's syntax:
//! its ops and attributes ([`SSP`], to register in a context), reading an
//! `ssp.instance` into a [`crate::Problem`] and writing a schedule back
//! ([`import`], [`export`]), and [`process_instances`], which schedules
//! or verifies every instance of a module.

mod attrs;
mod import;
mod ops;
mod resolve;

pub use import::{export, import, Imported};

use crate::{schedule, Algorithm, Options, ProblemKind, Solution};
use silica_ir::dialect::{AttrHooks, DialectDef};
use silica_ir::{Context, Diagnostic, Ir, OpId};

/// The `ssp` dialect.
pub static SSP: DialectDef = DialectDef {
    name: "ssp",
    ops: &ops::OPS,
    attrs: Some(AttrHooks {
        parse: attrs::parse,
        print: attrs::print,
        type_of: None,
        alias: None,
    }),
    types: None,
    materialize_constant: None,
};

/// What [`process_instances`] does with each instance.
#[derive(Clone, Debug)]
pub enum Action {
    /// Schedule it (the algorithm chosen per problem kind when `None`)
    /// and write the schedule into it.
    Schedule {
        algorithm: Option<Algorithm>,
        options: Options,
    },
    /// Check the problem and verify the schedule it carries.
    Verify,
}

/// The outcome for one instance.
#[derive(Clone, Debug)]
pub struct InstanceReport {
    /// `@name` of the instance, if it has one.
    pub name: Option<String>,
    pub kind: ProblemKind,
    pub algorithm: Option<Algorithm>,
    /// The solution found (when scheduling).
    pub solution: Option<Solution>,
}

/// The algorithm used for `kind` when none is asked for: exact where
/// the problem is small, the heuristic otherwise.
pub fn default_algorithm(kind: ProblemKind, operations: usize) -> Algorithm {
    let small = operations <= 100;
    match kind {
        ProblemKind::Problem
        | ProblemKind::CyclicProblem
        | ProblemKind::ChainingProblem
        | ProblemKind::ChainingCyclicProblem => Algorithm::Sdc,
        ProblemKind::SharedOperatorsProblem if small => Algorithm::Ilp,
        ProblemKind::SharedOperatorsProblem => Algorithm::List,
        ProblemKind::ModuloProblem if small => Algorithm::Ilp,
        ProblemKind::ModuloProblem => Algorithm::Modulo,
    }
}

/// Schedules or verifies every `ssp.instance` nested in `top`, in order;
/// stops at the first failure, reported at the operation it concerns or
/// at the instance.
pub fn process_instances(
    ctx: &mut Context,
    ir: &mut Ir,
    top: OpId,
    action: &Action,
) -> Result<Vec<InstanceReport>, Box<Diagnostic>> {
    let mut instances = Vec::new();
    let name = ctx.sym(ops::INSTANCE);
    ir.walk(top, &mut |op| {
        if ir.op_name(op) == name {
            instances.push(op);
        }
    });
    let mut reports = Vec::new();
    for instance in instances {
        let imported = import(ctx, ir, instance)?;
        let p = &imported.problem;
        let mut report = InstanceReport {
            name: ops::sym_name(ctx, ir, instance),
            kind: p.kind,
            algorithm: None,
            solution: None,
        };
        match action {
            Action::Verify => {
                p.check().map_err(|e| imported.diagnostic(ir, &e, false))?;
                let s = imported
                    .given_schedule()
                    .map_err(|e| imported.diagnostic(ir, &e, true))?;
                p.verify(&s)
                    .map_err(|e| imported.diagnostic(ir, &e, false))?;
            }
            Action::Schedule { algorithm, options } => {
                let algorithm =
                    algorithm.unwrap_or_else(|| default_algorithm(p.kind, p.operations.len()));
                let opts = Options {
                    algorithm,
                    ..options.clone()
                };
                let solution =
                    schedule(p, &opts).map_err(|e| imported.diagnostic(ir, &e, false))?;
                export(ctx, ir, &imported, &solution.schedule);
                report.algorithm = Some(algorithm);
                report.solution = Some(solution);
            }
        }
        reports.push(report);
    }
    Ok(reports)
}
