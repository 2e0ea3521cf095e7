//! Comparisons (`arith.cmpf`, all sixteen predicates) and
//! `arith.maximumf`/`arith.minimumf`.
//!
//! Ordered values compare as sign-magnitude integers, except that the
//! two zeros are equal for `cmpf`; `maximumf`/`minimumf` order −0 below
//! +0 and return a quiet NaN if either operand is NaN (MLIR's
//! semantics, LLVM's `llvm.maximum`/`llvm.minimum`).

use super::builder::{Builder, Cmp};
use super::format::Format;
use super::unpack::{quiet_nan, unpack};
use silica_ir::ValueId;

/// `arith.cmpf` predicates, in MLIR's order (its attribute values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloatPredicate {
    False,
    Oeq,
    Ogt,
    Oge,
    Olt,
    Ole,
    One,
    Ord,
    Ueq,
    Ugt,
    Uge,
    Ult,
    Ule,
    Une,
    Uno,
    True,
}

impl FloatPredicate {
    /// Every predicate, in MLIR's order.
    pub const ALL: [FloatPredicate; 16] = [
        FloatPredicate::False,
        FloatPredicate::Oeq,
        FloatPredicate::Ogt,
        FloatPredicate::Oge,
        FloatPredicate::Olt,
        FloatPredicate::Ole,
        FloatPredicate::One,
        FloatPredicate::Ord,
        FloatPredicate::Ueq,
        FloatPredicate::Ugt,
        FloatPredicate::Uge,
        FloatPredicate::Ult,
        FloatPredicate::Ule,
        FloatPredicate::Une,
        FloatPredicate::Uno,
        FloatPredicate::True,
    ];

    /// The keyword (`oeq`, ...).
    pub fn name(self) -> &'static str {
        [
            "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
            "ule", "une", "uno", "true",
        ][self as usize]
    }

    /// The predicate of a keyword.
    pub fn from_name(name: &str) -> Option<FloatPredicate> {
        FloatPredicate::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The predicate of MLIR's attribute value.
    pub fn from_code(code: i64) -> Option<FloatPredicate> {
        usize::try_from(code)
            .ok()
            .and_then(|i| FloatPredicate::ALL.get(i).copied())
    }
}

/// Signs, magnitudes and NaN flags of two operands.
struct Pair {
    sa: ValueId,
    sb: ValueId,
    mag_lt: ValueId,
    mag_gt: ValueId,
    unordered: ValueId,
}

fn pair(b: &mut Builder<'_>, fmt: Format, a: ValueId, y: ValueId) -> Pair {
    let x = unpack(b, fmt, a, fmt.exp_bits + 1);
    let yu = unpack(b, fmt, y, fmt.exp_bits + 1);
    let w = fmt.width() - 1;
    let ma = b.extract(a, 0, w);
    let mb = b.extract(y, 0, w);
    let mag_lt = b.icmp(Cmp::Ult, ma, mb);
    let mag_gt = b.icmp(Cmp::Ugt, ma, mb);
    let unordered = b.or(x.is_nan, yu.is_nan);
    Pair {
        sa: x.sign,
        sb: yu.sign,
        mag_lt,
        mag_gt,
        unordered,
    }
}

/// `a < b` in sign-magnitude order (−0 < +0), for non-NaN operands.
fn total_less(b: &mut Builder<'_>, p: &Pair) -> ValueId {
    let not_sa = b.not(p.sa);
    let not_sb = b.not(p.sb);
    let neg_pos = b.and(p.sa, not_sb);
    let both_pos = b.and(not_sa, not_sb);
    let pos_lt = b.and(both_pos, p.mag_lt);
    let both_neg = b.and(p.sa, p.sb);
    let neg_lt = b.and(both_neg, p.mag_gt);
    b.or_all(&[neg_pos, pos_lt, neg_lt])
}

/// The `i1` result of `arith.cmpf pred, a, b`.
pub fn build_cmp(
    b: &mut Builder<'_>,
    fmt: Format,
    pred: FloatPredicate,
    a: ValueId,
    y: ValueId,
) -> ValueId {
    use FloatPredicate as P;
    match pred {
        P::False => return b.zero(1),
        P::True => return b.ones(1),
        _ => {}
    }
    let p = pair(b, fmt, a, y);
    let w = fmt.width() - 1;
    let ma = b.extract(a, 0, w);
    let mb = b.extract(y, 0, w);
    let both_zero = {
        let m = b.or(ma, mb);
        b.is_zero(m)
    };
    let same = b.icmp(Cmp::Eq, a, y);
    let eq = b.or(same, both_zero);
    let lt_total = total_less(b, &p);
    let not_both_zero = b.not(both_zero);
    let lt = b.and(lt_total, not_both_zero);
    let swapped = Pair {
        sa: p.sb,
        sb: p.sa,
        mag_lt: p.mag_gt,
        mag_gt: p.mag_lt,
        unordered: p.unordered,
    };
    let gt_total = total_less(b, &swapped);
    let gt = b.and(gt_total, not_both_zero);
    let ne = b.not(eq);
    let relation = match pred {
        P::Oeq | P::Ueq => eq,
        P::Ogt | P::Ugt => gt,
        P::Oge | P::Uge => b.or(gt, eq),
        P::Olt | P::Ult => lt,
        P::Ole | P::Ule => b.or(lt, eq),
        P::One | P::Une => ne,
        P::Ord | P::Uno | P::False | P::True => b.zero(1),
    };
    let ordered = b.not(p.unordered);
    match pred {
        P::Ord => ordered,
        P::Uno => p.unordered,
        P::Oeq | P::Ogt | P::Oge | P::Olt | P::Ole | P::One => b.and(ordered, relation),
        _ => b.or(p.unordered, relation),
    }
}

/// `arith.maximumf` (`max`) or `arith.minimumf` of `a` and `b`.
pub fn build_min_max(
    b: &mut Builder<'_>,
    fmt: Format,
    max: bool,
    a: ValueId,
    y: ValueId,
) -> ValueId {
    let p = pair(b, fmt, a, y);
    let lt = total_less(b, &p);
    let chosen = if max {
        b.mux(lt, y, a)
    } else {
        b.mux(lt, a, y)
    };
    let qnan = quiet_nan(b, fmt);
    b.mux(p.unordered, qnan, chosen)
}
