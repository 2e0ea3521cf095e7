//! Multiplication by a constant as shifts and adds: the constant's
//! canonical signed-digit form (non-adjacent form, the fewest nonzero
//! digits), digits at or above the width dropped (they vanish modulo
//! `2^w`), the positive and negative shifted terms each summed as a
//! balanced tree. An e-graph rule adds that form beside the product; the
//! cost model chooses.

use egg::{rewrite as rw, Applier, EGraph, Id, PatternAst, Rewrite, Subst, Symbol, Var};
use silica_scheduling::eqsat::lang::{ConstFold, IntExpr};

/// Constants with more nonzero digits than this stay multiplications.
pub const MAX_DIGITS: usize = 6;

/// The signed digits of `c` modulo `2^width`: `(negative, position)`.
pub fn digits(c: i128, width: u32) -> Vec<(bool, u32)> {
    let mask = if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    let mut u = (c as u128) & mask;
    let mut out = Vec::new();
    let mut pos = 0;
    while u != 0 && pos < width {
        if u & 1 == 1 {
            // 1 when u ends in 01, -1 when it ends in 11.
            let negative = u & 2 != 0;
            out.push((negative, pos));
            u = if negative { u.wrapping_add(1) } else { u - 1 };
        }
        u >>= 1;
        pos += 1;
    }
    out
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn value(d: &[(bool, u32)]) -> i128 {
        d.iter()
            .map(|&(n, p)| if n { -(1i128 << p) } else { 1i128 << p })
            .sum()
    }

    #[test]
    fn digits_are_non_adjacent_and_exact_modulo_the_width() {
        for w in [4u32, 8, 13, 32] {
            let m = 1i128 << w;
            for c in -300i128..300 {
                let d = digits(c, w);
                assert_eq!(value(&d).rem_euclid(m), c.rem_euclid(m), "{c} at {w}");
                for pair in d.windows(2) {
                    assert!(pair[1].1 > pair[0].1 + 1, "{c}: adjacent digits");
                }
            }
        }
        assert_eq!(digits(7, 32), vec![(true, 0), (false, 3)]);
        assert_eq!(digits(-1, 8), vec![(true, 0)]);
        assert_eq!(digits(10, 32), vec![(false, 1), (false, 3)]);
    }
}
