//! Common factors taken out of long sums. A root whose value is a sum
//! of products, several of which share a factor (`a*x + a*y + a*z + w`),
//! gains the form with the factor taken out once (`a*(x + y + z) + w`,
//! the inner sum a balanced tree) as a seed of its e-class. The rules'
//! `factor` finds this two neighbouring terms at a time; bringing each of
//! twenty terms beside the next takes more reassociation than the
//! saturation's limits allow. Where multipliers are shared, each product
//! taken out is one turn of a unit fewer.

use egg::{Id, Language, RecExpr, Symbol};
use rustc_hash::FxHashMap;
use silica_eqsat::lang::IntExpr;

/// `e` (its root last) with the variable that is a factor of the most
/// terms of its sum taken out of them, the inner sum factored in turn;
/// `None` where no variable is a factor of two terms.
pub fn factored(e: &RecExpr<IntExpr>) -> Option<RecExpr<IntExpr>> {
    let root = Id::from(e.as_ref().len().checked_sub(1)?);
    let terms = flatten(e, root, |n| match n {
        IntExpr::Add([a, b]) => Some([*a, *b]),
        _ => None,
    });
    let factors: Vec<Vec<Id>> = terms
        .iter()
        .map(|&t| {
            flatten(e, t, |n| match n {
                IntExpr::Mul([a, b]) => Some([*a, *b]),
                _ => None,
            })
        })
        .collect();
    let common = most_common(e, &factors)?;
    let mut out = RecExpr::default();
    let mut memo = FxHashMap::default();
    let mut inner = Vec::new();
    let mut rest = Vec::new();
    for (&term, fs) in terms.iter().zip(&factors) {
        match fs.iter().position(|&f| var(e, f) == Some(common)) {
            Some(at) => {
                let others: Vec<Id> = fs
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != at)
                    .map(|(_, &f)| copy(e, f, &mut out, &mut memo))
                    .collect();
                inner.push(match others.split_first() {
                    None => out.add(IntExpr::Num(1)),
                    Some((&first, more)) => more
                        .iter()
                        .fold(first, |p, &f| out.add(IntExpr::Mul([p, f]))),
                });
            }
            None => rest.push(copy(e, term, &mut out, &mut memo)),
        }
    }
    let sum = balanced(&mut out, &inner);
    let sum = refactored(&mut out, sum);
    let factor = out.add(IntExpr::Var(common));
    let product = out.add(IntExpr::Mul([factor, sum]));
    let mut top = vec![product];
    top.extend(rest);
    balanced(&mut out, &top);
    Some(out)
}

/// The variable that is a factor of the most terms (at least two; the
/// first such in term order where several tie).
fn most_common(e: &RecExpr<IntExpr>, factors: &[Vec<Id>]) -> Option<Symbol> {
    let mut counts: Vec<(Symbol, usize)> = Vec::new();
    for fs in factors {
        let mut seen: Vec<Symbol> = Vec::new();
        for s in fs.iter().filter_map(|&f| var(e, f)) {
            if seen.contains(&s) {
                continue;
            }
            seen.push(s);
            match counts.iter_mut().find(|c| c.0 == s) {
                Some(c) => c.1 += 1,
                None => counts.push((s, 1)),
            }
        }
    }
    let best = counts.iter().map(|c| c.1).max()?;
    (best >= 2)
        .then(|| counts.iter().find(|c| c.1 == best).map(|c| c.0))
        .flatten()
}

/// The inner sum at `sum` of `out` factored in turn, where it has a
/// common factor; its node in `out`.
fn refactored(out: &mut RecExpr<IntExpr>, sum: Id) -> Id {
    let inner = out[sum].build_recexpr(|c| out[c].clone());
    match factored(&inner) {
        Some(f) => copy(&f, f.root(), out, &mut FxHashMap::default()),
        None => sum,
    }
}

/// The operands of the tree of nodes `split` opens at `id`, in order.
fn flatten(
    e: &RecExpr<IntExpr>,
    id: Id,
    split: impl Fn(&IntExpr) -> Option<[Id; 2]> + Copy,
) -> Vec<Id> {
    match split(&e[id]) {
        Some([a, b]) => {
            let mut v = flatten(e, a, split);
            v.extend(flatten(e, b, split));
            v
        }
        None => vec![id],
    }
}

/// The variable at `id`, if it is one.
fn var(e: &RecExpr<IntExpr>, id: Id) -> Option<Symbol> {
    match e[id] {
        IntExpr::Var(s) => Some(s),
        _ => None,
    }
}

/// The subtree of `e` at `id` copied into `out`; its node there.
fn copy(
    e: &RecExpr<IntExpr>,
    id: Id,
    out: &mut RecExpr<IntExpr>,
    memo: &mut FxHashMap<Id, Id>,
) -> Id {
    if let Some(&done) = memo.get(&id) {
        return done;
    }
    let node = e[id].clone().map_children(|c| copy(e, c, out, memo));
    let new = out.add(node);
    memo.insert(id, new);
    new
}

/// The sum of `terms` (at least one) as a balanced tree in `out`.
fn balanced(out: &mut RecExpr<IntExpr>, terms: &[Id]) -> Id {
    match terms {
        [one] => *one,
        _ => {
            let (l, r) = terms.split_at(terms.len() / 2);
            let (l, r) = (balanced(out, l), balanced(out, r));
            out.add(IntExpr::Add([l, r]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(text: &str) -> Option<String> {
        let e: RecExpr<IntExpr> = text.parse().unwrap();
        factored(&e).map(|f| f.to_string())
    }

    #[test]
    fn the_most_common_factor_comes_out_of_a_long_sum() {
        assert_eq!(
            factor("(+ (+ (+ v0 (* (* a v1) v2)) (* (* a v3) v4)) (* v5 (* a v6)))").as_deref(),
            Some("(+ (* a (+ (* v1 v2) (+ (* v3 v4) (* v5 v6)))) v0)")
        );
    }

    #[test]
    fn the_inner_sum_is_factored_in_turn() {
        assert_eq!(
            factor("(+ (+ (* a (* b v1)) (* a (* b v2))) (* a v3))").as_deref(),
            Some("(* a (+ (* b (+ v1 v2)) v3))")
        );
    }

    #[test]
    fn a_factor_of_one_term_is_left() {
        assert_eq!(factor("(+ (* a v1) (* b v2))"), None);
        assert_eq!(factor("(* a v1)"), None);
        // A bare variable among the terms is a factor of itself.
        assert_eq!(factor("(+ a (* a v1))").as_deref(), Some("(* a (+ 1 v1))"));
    }
}
