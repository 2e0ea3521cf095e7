//! Bounds of one variable: constant bounds (the real-shadow bound MLIR's
//! `getConstantBound` computes, and the exact integer minimum/maximum),
//! and bound expressions in terms of chosen other variables (as MLIR's
//! `getLowerAndUpperBound`, for copy generation and slicing).

use super::emptiness::Sample;
use super::int::Int;
use super::system::{BoundKind, IntegerSystem};

/// `ceil(expr / divisor)` (a lower bound) or `floor(expr / divisor)` (an
/// upper bound), `expr = coefficients · x + constant` over the columns of
/// the system the bound was computed from (zero for the projected ones).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BoundExpr {
    pub coefficients: Vec<i64>,
    pub constant: i64,
    /// Positive.
    pub divisor: i64,
}

/// The bounds of one variable.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct VarBounds {
    /// The variable is at least each of these (their maximum).
    pub lower: Vec<BoundExpr>,
    /// The variable is at most each of these (their minimum).
    pub upper: Vec<BoundExpr>,
    /// Whether the projection that produced them was exact over the
    /// integers (otherwise they may be looser than the tightest bounds).
    pub exact: bool,
}

impl BoundExpr {
    /// The value at a point (one value per column of the system).
    pub fn eval(&self, point: &[i64], kind: BoundKind) -> Option<i64> {
        let mut s = i128::from(self.constant);
        for (&c, &p) in self.coefficients.iter().zip(point) {
            s = s.checked_add(i128::from(c).checked_mul(i128::from(p))?)?;
        }
        let d = i128::from(self.divisor);
        let q = match kind {
            BoundKind::Lower => -((-s).div_euclid(d)),
            BoundKind::Upper => s.div_euclid(d),
        };
        i64::try_from(q).ok()
    }
}

/// The bound a row `a * x + rest >= 0` (`a != 0`) puts on `x`, with
/// `rest` mapped to the original columns.
fn bound_from_row(
    row: &[Int],
    pos: usize,
    columns: &[usize],
    width: usize,
) -> Option<(BoundKind, BoundExpr)> {
    let a = &row[pos];
    let kind = if a.is_positive() {
        BoundKind::Lower
    } else {
        BoundKind::Upper
    };
    // Lower: x >= ceil(-rest / a); upper: x <= floor(rest / |a|).
    let flip = kind == BoundKind::Lower;
    let mut coefficients = vec![0; width];
    for (j, c) in row[..row.len() - 1].iter().enumerate() {
        if j == pos || c.is_zero() {
            continue;
        }
        let c = if flip { -c } else { c.clone() };
        coefficients[columns[j]] = c.to_i64()?;
    }
    let constant = row[row.len() - 1].clone();
    let constant = if flip { -&constant } else { constant };
    Some((
        kind,
        BoundExpr {
            coefficients,
            constant: constant.to_i64()?,
            divisor: a.abs().to_i64()?,
        },
    ))
}

impl IntegerSystem {
    /// The constant bound of variable `pos` read from the real shadow of
    /// the system on it (every other variable projected out, as MLIR's
    /// `getConstantBound`): sound, and tight whenever the projection is
    /// exact. `None`: unbounded in that direction, or the system is empty.
    pub fn constant_bound(&self, pos: usize, kind: BoundKind) -> Option<i64> {
        let (lower, upper) = self.constant_bounds(pos);
        match kind {
            BoundKind::Lower => lower,
            BoundKind::Upper => upper,
        }
    }

    /// Both [`Self::constant_bound`]s of variable `pos`, from one
    /// projection.
    pub fn constant_bounds(&self, pos: usize) -> (Option<i64>, Option<i64>) {
        let mut s = self.clone();
        s.project_out(pos + 1, s.num_vars() - pos - 1);
        s.project_out(0, pos);
        if s.has_false_row() {
            return (None, None);
        }
        for row in &s.equalities {
            if !row[0].is_zero() {
                let v = -&row[1];
                let value = v
                    .divisible_by(&row[0])
                    .then(|| v.exact_div(&row[0]).to_i64())
                    .flatten();
                return (value, value);
            }
        }
        let (mut lower, mut upper): (Option<Int>, Option<Int>) = (None, None);
        for row in &s.inequalities {
            let a = &row[0];
            if a.is_positive() {
                let b = (-&row[1]).ceil_div(a);
                if lower.as_ref().is_none_or(|old| b > *old) {
                    lower = Some(b);
                }
            } else if a.is_negative() {
                let b = row[1].floor_div(&-a);
                if upper.as_ref().is_none_or(|old| b < *old) {
                    upper = Some(b);
                }
            }
        }
        (
            lower.and_then(|b| b.to_i64()),
            upper.and_then(|b| b.to_i64()),
        )
    }

    /// The exact integer minimum (`Lower`) or maximum (`Upper`) of
    /// variable `pos` over the integer points of the system. `None`: the
    /// system is empty, the variable unbounded in that direction, or the
    /// search gave up.
    pub fn exact_constant_bound(&self, pos: usize, kind: BoundKind) -> Option<i64> {
        let shadow = self.constant_bound(pos, kind)?;
        let Sample::Point(p) = self.integer_sample() else {
            return None;
        };
        let mut attained = i128::from(p[pos].to_i64()?);
        // The optimum lies between the shadow bound and the sample.
        let mut bound = i128::from(shadow);
        let side = match kind {
            BoundKind::Lower => BoundKind::Upper,
            BoundKind::Upper => BoundKind::Lower,
        };
        while bound != attained {
            let mid = bound + (attained - bound) / 2;
            let mut s = self.clone();
            s.add_bound(pos, side, i64::try_from(mid).ok()?);
            if s.is_empty() {
                bound = match kind {
                    BoundKind::Lower => mid + 1,
                    BoundKind::Upper => mid - 1,
                };
            } else {
                attained = mid;
            }
        }
        i64::try_from(attained).ok()
    }

    /// Bounds of variable `pos` in terms of the variables `keep` accepts
    /// (every other variable is projected out first). Bounds whose
    /// coefficients do not fit `i64` are left out.
    pub fn var_bounds(&self, pos: usize, keep: &dyn Fn(usize) -> bool) -> VarBounds {
        let width = self.num_vars();
        let mut s = self.clone();
        let (exact, columns) = s.project_out_all_but(&|c| c == pos || keep(c));
        let mut out = VarBounds {
            exact,
            ..VarBounds::default()
        };
        let Some(at) = columns.iter().position(|&c| c == pos) else {
            return out;
        };
        for row in &s.inequalities {
            if row[at].is_zero() {
                continue;
            }
            match bound_from_row(row, at, &columns, width) {
                Some((BoundKind::Lower, b)) => out.lower.push(b),
                Some((BoundKind::Upper, b)) => out.upper.push(b),
                None => {}
            }
        }
        for row in &s.equalities {
            if row[at].is_zero() {
                continue;
            }
            // a * x + rest == 0 is both a * x + rest >= 0 and its negation.
            let negated: Vec<Int> = row.iter().map(|v| -v).collect();
            for r in [row, &negated] {
                match bound_from_row(r, at, &columns, width) {
                    Some((BoundKind::Lower, b)) => out.lower.push(b),
                    Some((BoundKind::Upper, b)) => out.upper.push(b),
                    None => {}
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shadow_and_exact_bounds() {
        // 0 <= x <= 10, 3y <= x, y >= 1 : y in [1, 3], x in [3, 10].
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_inequality(&[1, 0, 0]);
        s.add_inequality(&[-1, 0, 10]);
        s.add_inequality(&[1, -3, 0]);
        s.add_inequality(&[0, 1, -1]);
        assert_eq!(s.constant_bound(1, BoundKind::Upper), Some(3));
        assert_eq!(s.constant_bound(0, BoundKind::Lower), Some(3));
        assert_eq!(s.exact_constant_bound(1, BoundKind::Lower), Some(1));
        assert_eq!(s.exact_constant_bound(0, BoundKind::Upper), Some(10));
    }

    #[test]
    fn exact_bound_is_tighter_than_the_shadow() {
        // x = 2q (even), 1 <= x <= 9: x in [2, 8] while the shadow of the
        // relaxation with q projected stays [1, 9] without tightening.
        let mut s = IntegerSystem::new(1, 0, 1);
        s.add_equality(&[1, -2, 0]);
        s.add_inequality(&[1, 0, -1]);
        s.add_inequality(&[-1, 0, 9]);
        assert_eq!(s.exact_constant_bound(0, BoundKind::Lower), Some(2));
        assert_eq!(s.exact_constant_bound(0, BoundKind::Upper), Some(8));
    }

    #[test]
    fn bounds_in_terms_of_other_variables() {
        // i <= j < i + 4, 0 <= i < 8: bounds of j in terms of i.
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_inequality(&[-1, 1, 0]);
        s.add_inequality(&[1, -1, 3]);
        s.add_inequality(&[1, 0, 0]);
        s.add_inequality(&[-1, 0, 7]);
        let b = s.var_bounds(1, &|c| c == 0);
        assert!(b.exact);
        assert_eq!(
            b.lower,
            vec![BoundExpr {
                coefficients: vec![1, 0],
                constant: 0,
                divisor: 1
            }]
        );
        assert_eq!(
            b.upper,
            vec![BoundExpr {
                coefficients: vec![1, 0],
                constant: 3,
                divisor: 1
            }]
        );
        assert_eq!(b.upper[0].eval(&[5, 0], BoundKind::Upper), Some(8));
    }
}
