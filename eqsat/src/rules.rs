//! The rewrite rules: commutativity, associativity, identities and
//! annihilators, distribution and factoring, and strength reduction
//! between multiplication by a power of two and a left shift.

use super::lang::{ConstFold, IntExpr};
use egg::{rewrite as rw, Applier, EGraph, Id, PatternAst, Rewrite, Subst, Symbol, Var};

type Rule = Rewrite<IntExpr, ConstFold>;

/// `a * 2^k` -> `a << k` and back.
struct PowerOfTwo {
    a: Var,
    c: Var,
    to_shift: bool,
}

impl Applier<IntExpr, ConstFold> for PowerOfTwo {
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
        let node = if self.to_shift {
            let unsigned = c & ((1i128 << w) - 1);
            if unsigned <= 1 || unsigned.count_ones() != 1 {
                return Vec::new();
            }
            let k = egraph.add(IntExpr::Num(i128::from(unsigned.trailing_zeros())));
            IntExpr::Shl([subst[self.a], k])
        } else {
            if c <= 0 || c >= i128::from(w) {
                return Vec::new();
            }
            let m = egraph.add(IntExpr::Num(super::lang::wrap(1i128 << c, w)));
            IntExpr::Mul([subst[self.a], m])
        };
        let id = egraph.add(node);
        if egraph.union(eclass, id) {
            vec![eclass]
        } else {
            Vec::new()
        }
    }
}

/// Every rule.
pub fn rules() -> Vec<Rule> {
    let a: Var = "?a".parse().expect("variable");
    let c: Var = "?c".parse().expect("variable");
    vec![
        rw!("add-comm"; "(+ ?a ?b)" => "(+ ?b ?a)"),
        rw!("mul-comm"; "(* ?a ?b)" => "(* ?b ?a)"),
        rw!("and-comm"; "(& ?a ?b)" => "(& ?b ?a)"),
        rw!("or-comm"; "(| ?a ?b)" => "(| ?b ?a)"),
        rw!("xor-comm"; "(^ ?a ?b)" => "(^ ?b ?a)"),
        rw!("add-assoc"; "(+ (+ ?a ?b) ?c)" => "(+ ?a (+ ?b ?c))"),
        rw!("add-assoc-rev"; "(+ ?a (+ ?b ?c))" => "(+ (+ ?a ?b) ?c)"),
        rw!("mul-assoc"; "(* (* ?a ?b) ?c)" => "(* ?a (* ?b ?c))"),
        rw!("mul-assoc-rev"; "(* ?a (* ?b ?c))" => "(* (* ?a ?b) ?c)"),
        rw!("and-assoc"; "(& (& ?a ?b) ?c)" => "(& ?a (& ?b ?c))"),
        rw!("or-assoc"; "(| (| ?a ?b) ?c)" => "(| ?a (| ?b ?c))"),
        rw!("xor-assoc"; "(^ (^ ?a ?b) ?c)" => "(^ ?a (^ ?b ?c))"),
        rw!("add-zero"; "(+ ?a 0)" => "?a"),
        rw!("sub-zero"; "(- ?a 0)" => "?a"),
        rw!("sub-self"; "(- ?a ?a)" => "0"),
        rw!("sub-to-add"; "(- ?a ?b)" => "(+ ?a (* ?b -1))"),
        rw!("add-to-sub"; "(+ ?a (* ?b -1))" => "(- ?a ?b)"),
        rw!("mul-zero"; "(* ?a 0)" => "0"),
        rw!("mul-one"; "(* ?a 1)" => "?a"),
        rw!("and-self"; "(& ?a ?a)" => "?a"),
        rw!("and-zero"; "(& ?a 0)" => "0"),
        rw!("and-ones"; "(& ?a -1)" => "?a"),
        rw!("or-self"; "(| ?a ?a)" => "?a"),
        rw!("or-zero"; "(| ?a 0)" => "?a"),
        rw!("or-ones"; "(| ?a -1)" => "-1"),
        rw!("xor-self"; "(^ ?a ?a)" => "0"),
        rw!("xor-zero"; "(^ ?a 0)" => "?a"),
        rw!("shl-zero"; "(<< ?a 0)" => "?a"),
        rw!("distribute"; "(* ?a (+ ?b ?c))" => "(+ (* ?a ?b) (* ?a ?c))"),
        rw!("factor"; "(+ (* ?a ?b) (* ?a ?c))" => "(* ?a (+ ?b ?c))"),
        rw!("double"; "(+ ?a ?a)" => "(* ?a 2)"),
        rw!("mul-pow2-to-shl"; "(* ?a ?c)" => { PowerOfTwo { a, c, to_shift: true } }),
        rw!("shl-to-mul"; "(<< ?a ?c)" => { PowerOfTwo { a, c, to_shift: false } }),
    ]
}
