//! ILP extraction (egg's `LpExtractor` formulation, solved with the
//! pure-Rust `microlp` through `good_lp`): a binary per e-node and per
//! e-class, a class is active iff one of its nodes is, an active node
//! needs its children's classes active, roots are active, and order
//! variables forbid cycles. The objective sums node costs once per
//! chosen node, so shared subexpressions are paid for once (a DAG cost,
//! where the greedy extractor counts trees). egg's own extractor needs
//! CBC, whose log goes to standard output, so it is not used.

use super::cost::CostModel;
use super::lang::{ConstFold, IntExpr};
use egg::{EGraph, Id, Language, RecExpr};
use good_lp::solvers::WithTimeLimit;
use good_lp::{
    constraint, microlp, variable, Expression, ProblemVariables, Solution, SolverModel, Variable,
};
use rustc_hash::FxHashMap;

/// E-graphs larger than this are not given to the ILP solver.
pub const MAX_NODES: usize = 4000;

/// The cheapest DAG covering `roots`; one expression per root (sharing
/// is restored when the expressions are written back).
pub fn extract(
    egraph: &EGraph<IntExpr, ConstFold>,
    roots: &[Id],
    model: CostModel,
    width: u32,
    seconds: f64,
) -> Result<Vec<RecExpr<IntExpr>>, String> {
    let n_nodes = egraph.total_number_of_nodes();
    if n_nodes > MAX_NODES {
        return Err(format!(
            "the e-graph has {n_nodes} nodes; ILP extraction takes at most {MAX_NODES}"
        ));
    }
    let classes: Vec<Id> = egraph.classes().map(|c| c.id).collect();
    let mut vars = ProblemVariables::new();
    let mut active: FxHashMap<Id, Variable> = FxHashMap::default();
    let mut order: FxHashMap<Id, Variable> = FxHashMap::default();
    let mut picks: FxHashMap<Id, Vec<Variable>> = FxHashMap::default();
    let big = classes.len() as f64 + 1.0;
    for &c in &classes {
        active.insert(c, vars.add(variable().binary()));
        order.insert(c, vars.add(variable().min(0.0).max(big)));
        let nodes = egraph[c]
            .nodes
            .iter()
            .map(|_| vars.add(variable().binary()))
            .collect();
        picks.insert(c, nodes);
    }
    let mut objective = Expression::from(0.0);
    for &c in &classes {
        for (node, &x) in egraph[c].nodes.iter().zip(&picks[&c]) {
            objective += (model.node_cost(node, width) + 1e-3) * x;
        }
    }
    let mut problem = vars
        .minimise(objective)
        .using(microlp)
        .with_time_limit(seconds);
    for &c in &classes {
        let sum: Expression = picks[&c].iter().copied().sum();
        problem.add_constraint(constraint!(sum == active[&c]));
        for (node, &x) in egraph[c].nodes.iter().zip(&picks[&c]) {
            for &child in node.children() {
                let d = egraph.find(child);
                problem.add_constraint(constraint!(x <= active[&d]));
                // A chosen node's class comes after its children's.
                problem.add_constraint(constraint!(order[&c] - order[&d] + big * (1.0 - x) >= 1.0));
            }
        }
    }
    for &r in roots {
        let r = egraph.find(r);
        problem.add_constraint(constraint!(active[&r] == 1.0));
    }
    let solution = problem
        .solve()
        .map_err(|e| format!("ILP extraction failed: {e}"))?;
    let chosen = |c: Id| -> Option<&IntExpr> {
        let c = egraph.find(c);
        egraph[c]
            .nodes
            .iter()
            .zip(&picks[&c])
            .find(|(_, &x)| solution.value(x) > 0.5)
            .map(|(n, _)| n)
    };
    roots
        .iter()
        .map(|&r| {
            let node = chosen(r).ok_or("ILP extraction chose nothing for a root")?;
            let mut missing = false;
            let expr = node.build_recexpr(|c| match chosen(c) {
                Some(n) => n.clone(),
                None => {
                    missing = true;
                    IntExpr::Num(0)
                }
            });
            if missing {
                return Err("ILP extraction left a child class unchosen".to_string());
            }
            Ok(expr)
        })
        .collect()
}
