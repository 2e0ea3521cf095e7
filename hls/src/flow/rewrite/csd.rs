//! Multiplication by a constant as shifts and adds: the constant's
//! canonical signed digits (`crate::flow::analysis::constant_product::digits`), the
//! positive and negative shifted terms each summed as a balanced tree.
//! An e-graph rule adds that form beside the product, where multipliers
//! are scarce, so that its terms can merge with the adds around it; the
//! cost model chooses.

use crate::flow::analysis::constant_product::digits;
use egg::{rewrite as rw, Applier, EGraph, Id, PatternAst, Rewrite, Subst, Symbol, Var};
use silica_eqsat::lang::{ConstFold, IntExpr};

/// Constants with more nonzero digits than this stay multiplications.
pub const MAX_DIGITS: usize = 6;

/// Adds the balanced sum of `terms` (at least one).
fn sum(egraph: &mut EGraph<IntExpr, ConstFold>, terms: &[Id]) -> Id {
    match terms {
        [t] => *t,
        _ => {
            let (a, b) = terms.split_at(terms.len() / 2);
            let (a, b) = (sum(egraph, a), sum(egraph, b));
            egraph.add(IntExpr::Add([a, b]))
        }
    }
}

/// `a * c` -> its shift-and-add form.
struct ShiftAdd {
    a: Var,
    c: Var,
}

impl Applier<IntExpr, ConstFold> for ShiftAdd {
    fn apply_one(
        &self,
        egraph: &mut EGraph<IntExpr, ConstFold>,
        eclass: Id,
        subst: &Subst,
        _: Option<&PatternAst<IntExpr>>,
        _: Symbol,
    ) -> Vec<Id> {
        let w = egraph.analysis.width;
        let Some(c) = egraph[subst[self.c]].data else {
            return Vec::new();
        };
        let d = digits(c, w);
        if d.len() < 2 || d.len() > MAX_DIGITS {
            return Vec::new();
        }
        let a = subst[self.a];
        let mut pos = Vec::new();
        let mut neg = Vec::new();
        for (negative, p) in d {
            let t = if p == 0 {
                a
            } else {
                let k = egraph.add(IntExpr::Num(i128::from(p)));
                egraph.add(IntExpr::Shl([a, k]))
            };
            if negative {
                neg.push(t);
            } else {
                pos.push(t);
            }
        }
        let id = match (pos.is_empty(), neg.is_empty()) {
            (false, true) => sum(egraph, &pos),
            (true, _) => {
                let zero = egraph.add(IntExpr::Num(0));
                let n = sum(egraph, &neg);
                egraph.add(IntExpr::Sub([zero, n]))
            }
            (false, false) => {
                let p = sum(egraph, &pos);
                let n = sum(egraph, &neg);
                egraph.add(IntExpr::Sub([p, n]))
            }
        };
        if egraph.union(eclass, id) {
            vec![eclass]
        } else {
            Vec::new()
        }
    }
}

/// The rule.
pub fn rule() -> Rewrite<IntExpr, ConstFold> {
    let a: Var = "?a".parse().expect("variable");
    let c: Var = "?c".parse().expect("variable");
    rw!("mul-const-shift-add"; "(* ?a ?c)" => { ShiftAdd { a, c } })
}
