//! The e-graph language of fixed-width integer arithmetic, and the
//! constant-folding analysis that wraps results at the width being
//! rewritten (two's complement, like the `arith` ops).

use egg::{define_language, Analysis, DidMerge, EGraph, Id, Symbol};

define_language! {
    /// Integer expressions; `Var` leaves stand for values defined outside
    /// the rewritten ops.
    pub enum IntExpr {
        "+" = Add([Id; 2]),
        "-" = Sub([Id; 2]),
        "*" = Mul([Id; 2]),
        "&" = And([Id; 2]),
        "|" = Or([Id; 2]),
        "^" = Xor([Id; 2]),
        "<<" = Shl([Id; 2]),
        Num(i128),
        Var(Symbol),
    }
}

/// `v` wrapped to the signed range of `width` bits (at most 64).
pub fn wrap(v: i128, width: u32) -> i128 {
    if width == 0 {
        return 0;
    }
    let shift = 128 - width;
    (v << shift) >> shift
}

/// Constant folding at a fixed width: each e-class knows its constant
/// value, if any, and gains the `Num` node for it.
#[derive(Clone, Copy, Debug)]
pub struct ConstFold {
    pub width: u32,
}

impl ConstFold {
    fn eval(&self, egraph: &EGraph<IntExpr, ConstFold>, node: &IntExpr) -> Option<i128> {
        let c = |id: &Id| egraph[*id].data;
        let w = self.width;
        let v = match node {
            IntExpr::Num(n) => *n,
            IntExpr::Var(_) => return None,
            IntExpr::Add([a, b]) => c(a)? + c(b)?,
            IntExpr::Sub([a, b]) => c(a)? - c(b)?,
            IntExpr::Mul([a, b]) => c(a)?.wrapping_mul(c(b)?),
            IntExpr::And([a, b]) => c(a)? & c(b)?,
            IntExpr::Or([a, b]) => c(a)? | c(b)?,
            IntExpr::Xor([a, b]) => c(a)? ^ c(b)?,
            IntExpr::Shl([a, b]) => {
                let s = c(b)?;
                let unsigned = s & ((1i128 << w) - 1);
                if unsigned >= i128::from(w) {
                    return None;
                }
                c(a)? << unsigned
            }
        };
        Some(wrap(v, w))
    }
}

impl Analysis<IntExpr> for ConstFold {
    type Data = Option<i128>;

    fn make(egraph: &mut EGraph<IntExpr, Self>, enode: &IntExpr) -> Self::Data {
        let a = egraph.analysis;
        a.eval(egraph, enode)
    }

    fn merge(&mut self, a: &mut Self::Data, b: Self::Data) -> DidMerge {
        egg::merge_option(a, b, |x, y| {
            debug_assert_eq!(*x, y, "equal e-classes folded to different constants");
            DidMerge(false, false)
        })
    }

    fn modify(egraph: &mut EGraph<IntExpr, Self>, id: Id) {
        if let Some(c) = egraph[id].data {
            let k = egraph.add(IntExpr::Num(c));
            egraph.union(id, k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps() {
        assert_eq!(wrap(255, 8), -1);
        assert_eq!(wrap(128, 8), -128);
        assert_eq!(wrap(i128::from(u64::MAX), 64), -1);
        assert_eq!(wrap(5, 1), -1);
    }
}
