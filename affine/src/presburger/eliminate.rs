//! Variable elimination: Gaussian elimination with an equality and
//! Fourier–Motzkin elimination with inequalities, and the projection
//! that combines them. Each step reports whether it was exact over the
//! integers: Gaussian elimination is when the pivot coefficient is ±1,
//! Fourier–Motzkin is when every pair of combined bounds has a unit
//! coefficient on the variable (the real shadow is then the integer
//! shadow). Inexact steps give the real shadow, an over-approximation
//! of the integer projection, after GCD tightening.

use super::int::Int;
use super::normalize::{normalize_inequality, Empty};
use super::system::IntegerSystem;

/// Bound pairs a Fourier–Motzkin step of a projection may combine;
/// beyond, the variable's constraints are dropped instead (a superset of
/// the projection, reported inexact), which keeps the projection's size
/// in check.
const MAX_FM_PAIRS: usize = 2048;

/// `a * x + b * y` entrywise.
fn combine(a: &Int, x: &[Int], b: &Int, y: &[Int]) -> Vec<Int> {
    x.iter()
        .zip(y)
        .map(|(u, v)| {
            let l = if u.is_zero() { Int::ZERO } else { a * u };
            if v.is_zero() {
                l
            } else {
                &l + &(b * v)
            }
        })
        .collect()
}

impl IntegerSystem {
    /// Replaces the constraints by the single contradiction `-1 >= 0`.
    pub(super) fn mark_empty(&mut self) {
        self.equalities.clear();
        let mut row = vec![Int::ZERO; self.num_cols()];
        row[self.num_vars()] = Int::from(-1);
        self.inequalities = vec![row];
    }

    /// Whether the system is the contradiction [`Self::mark_empty`] makes
    /// (or holds another constant row that fails).
    pub(super) fn has_false_row(&self) -> bool {
        let n = self.num_vars();
        let constant = |r: &Vec<Int>| r[..n].iter().all(Int::is_zero);
        self.inequalities
            .iter()
            .any(|r| constant(r) && r[n].is_negative())
            || self
                .equalities
                .iter()
                .any(|r| constant(r) && !r[n].is_zero())
    }

    /// Eliminates the variable `pos` with equality `eq` (whose
    /// coefficient of `pos` is not zero) and removes its column; returns
    /// whether that was exact over the integers.
    pub(super) fn gaussian_eliminate(&mut self, pos: usize, eq: usize) -> bool {
        // Order-preserving: later pivots take the first equality left.
        let pivot_row = self.equalities.remove(eq);
        let a = pivot_row[pos].clone();
        let (abs_a, sign_a) = (a.abs(), a.signum());
        for row in self.equalities.iter_mut() {
            if !row[pos].is_zero() {
                let b = -&row[pos];
                *row = combine(&a, row, &b, &pivot_row);
            }
        }
        for row in self.inequalities.iter_mut() {
            if !row[pos].is_zero() {
                let b = if sign_a > 0 {
                    -&row[pos]
                } else {
                    row[pos].clone()
                };
                *row = combine(&abs_a, row, &b, &pivot_row);
            }
        }
        self.remove_column(pos);
        abs_a.is_one()
    }

    /// Fourier–Motzkin elimination of `pos`, which no equality involves;
    /// returns whether the result is the exact integer projection.
    pub(super) fn fourier_motzkin_eliminate(&mut self, pos: usize) -> bool {
        let mut lower = Vec::new();
        let mut upper = Vec::new();
        let mut rest = Vec::new();
        for row in std::mem::take(&mut self.inequalities) {
            if row[pos].is_positive() {
                lower.push(row);
            } else if row[pos].is_negative() {
                upper.push(row);
            } else {
                rest.push(row);
            }
        }
        let mut exact = true;
        let mut contradiction = false;
        for l in &lower {
            for u in &upper {
                let (a, b) = (&l[pos], u[pos].abs());
                exact &= a.is_one() || b.is_one();
                // b * l + a * u: the coefficient of pos cancels.
                match normalize_inequality(combine(&b, l, a, u)) {
                    Ok(Some(r)) => rest.push(r),
                    Ok(None) => {}
                    Err(Empty) => contradiction = true,
                }
            }
        }
        self.inequalities = rest;
        self.remove_column(pos);
        if contradiction {
            self.mark_empty();
        }
        exact
    }

    /// Removes `pos` with every inequality that involves it (no equality
    /// may): the result contains the projection.
    fn drop_variable(&mut self, pos: usize) {
        self.inequalities.retain(|r| r[pos].is_zero());
        self.remove_column(pos);
    }

    /// The counts of lower and upper bounds of `pos` among inequalities.
    pub(super) fn bound_counts(&self, pos: usize) -> (usize, usize, bool) {
        let (mut lo, mut up) = (0, 0);
        let (mut lo_unit, mut up_unit) = (true, true);
        for row in &self.inequalities {
            if row[pos].is_positive() {
                lo += 1;
                lo_unit &= row[pos].is_one();
            } else if row[pos].is_negative() {
                up += 1;
                up_unit &= (-&row[pos]).is_one();
            }
        }
        (lo, up, lo_unit || up_unit)
    }

    /// The first equality involving `pos` (MLIR's pivot choice).
    pub(super) fn equality_for(&self, pos: usize) -> Option<usize> {
        self.equalities.iter().position(|row| !row[pos].is_zero())
    }

    /// The variable among `pos..pos + count` with the fewest pairs of
    /// lower and upper bounds (the first of them), the one MLIR's
    /// projection eliminates next.
    fn cheapest_to_eliminate(&self, pos: usize, count: usize) -> usize {
        (pos..pos + count)
            .min_by_key(|&v| {
                let (lo, up, _) = self.bound_counts(v);
                lo * up
            })
            .unwrap_or(pos)
    }

    /// Projects out the `count` variables at columns `pos..pos + count`:
    /// the result's integer points are (a superset of, exactly when the
    /// return value is true) the projections of the integer points of the
    /// system. Equalities are used first (Gaussian elimination), then
    /// Fourier–Motzkin, each step followed by GCD normalization and the
    /// removal of inequalities the variables' constant bounds imply; a
    /// variable with more than `MAX_FM_PAIRS` bound pairs is dropped with
    /// its constraints instead.
    pub fn project_out(&mut self, pos: usize, count: usize) -> bool {
        let mut exact = true;
        let mut left = count;
        while left > 0 {
            if self.has_false_row() {
                for _ in 0..left {
                    self.remove_column(pos);
                }
                self.mark_empty();
                return exact;
            }
            let with_eq = (pos..pos + left).find_map(|v| self.equality_for(v).map(|e| (v, e)));
            exact &= match with_eq {
                Some((v, e)) => self.gaussian_eliminate(v, e),
                None => {
                    let v = self.cheapest_to_eliminate(pos, left);
                    let (lo, up, _) = self.bound_counts(v);
                    if lo * up > MAX_FM_PAIRS {
                        self.drop_variable(v);
                        false
                    } else {
                        self.fourier_motzkin_eliminate(v)
                    }
                }
            };
            left -= 1;
            if self.normalize().is_err() || self.remove_box_redundant().is_err() {
                self.mark_empty();
            }
        }
        exact
    }

    /// Projects out every variable whose column `keep` rejects; returns
    /// whether the projection was exact and, for each remaining column, the
    /// column it had before.
    pub fn project_out_all_but(&mut self, keep: &dyn Fn(usize) -> bool) -> (bool, Vec<usize>) {
        let mut exact = true;
        let mut kept = Vec::new();
        let mut col = 0;
        for original in 0..self.num_vars() {
            if keep(original) {
                kept.push(original);
                col += 1;
            } else {
                exact &= self.project_out(col, 1);
            }
        }
        (exact, kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presburger::system::row_of;

    #[test]
    fn projection_of_a_triangle() {
        // 0 <= y <= x <= 10, project y: 0 <= x <= 10.
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_inequality(&[0, 1, 0]);
        s.add_inequality(&[1, -1, 0]);
        s.add_inequality(&[-1, 0, 10]);
        assert!(s.project_out(1, 1));
        let mut rows = s.inequalities().to_vec();
        rows.sort();
        assert_eq!(rows, vec![row_of(&[-1, 10]), row_of(&[1, 0])]);
    }

    #[test]
    fn gaussian_elimination_substitutes() {
        // x = 2y + 1, 0 <= x <= 6, project x: 0 <= 2y + 1 <= 6 -> 0 <= y <= 2.
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_equality(&[1, -2, -1]);
        s.add_inequality(&[1, 0, 0]);
        s.add_inequality(&[-1, 0, 6]);
        assert!(s.project_out(0, 1));
        let mut rows = s.inequalities().to_vec();
        rows.sort();
        assert_eq!(rows, vec![row_of(&[-1, 2]), row_of(&[1, 0])]);
    }

    #[test]
    fn inexact_elimination_is_reported() {
        // 2y <= x <= 2y (x even), project y.
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_inequality(&[3, -2, 0]);
        s.add_inequality(&[-3, 2, 1]);
        assert!(!s.project_out(1, 1));
    }
}
