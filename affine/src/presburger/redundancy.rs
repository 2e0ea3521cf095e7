//! Redundant inequality removal: cheaply, inequalities over several
//! variables that the variables' constant bounds imply; exactly, an
//! inequality `row · x + c >= 0` is dropped when the rational minimum of
//! `row · x + c` over the other constraints exceeds -1: its left side is
//! an integer at integer points, so the others already imply it on every
//! integer point. (The removal
//! keeps the recession cone of the rational relaxation, so a bounded
//! system stays bounded.)

use super::int::Int;
use super::normalize::Empty;
use super::simplex::{rational_minimum, Optimum};
use super::system::IntegerSystem;
use num_bigint::BigInt;
use num_rational::BigRational;

impl IntegerSystem {
    /// The constant bounds each variable's single-variable inequalities
    /// give it.
    fn variable_box(&self) -> (Vec<Option<Int>>, Vec<Option<Int>>) {
        let n = self.num_vars();
        let (mut lo, mut hi): (Vec<Option<Int>>, Vec<Option<Int>>) = (vec![None; n], vec![None; n]);
        for row in &self.inequalities {
            let mut vars = row[..n].iter().enumerate().filter(|(_, c)| !c.is_zero());
            let (Some((v, a)), None) = (vars.next(), vars.next()) else {
                continue;
            };
            if a.is_positive() {
                let b = (-&row[n]).ceil_div(a);
                if lo[v].as_ref().is_none_or(|old| b > *old) {
                    lo[v] = Some(b);
                }
            } else {
                let b = row[n].floor_div(&-a);
                if hi[v].as_ref().is_none_or(|old| b < *old) {
                    hi[v] = Some(b);
                }
            }
        }
        (lo, hi)
    }

    /// Removes the inequalities over several variables that the constant
    /// bounds of those variables already imply (interval reasoning: the
    /// smallest value of the left side over the box is non-negative);
    /// `Err(Empty)` when one cannot hold anywhere in the box.
    pub fn remove_box_redundant(&mut self) -> Result<(), Empty> {
        let n = self.num_vars();
        let (lo, hi) = self.variable_box();
        let mut contradiction = false;
        self.inequalities.retain(|row| {
            let mut nonzero = 0;
            let (mut min, mut max) = (Some(row[n].clone()), Some(row[n].clone()));
            for (v, a) in row[..n].iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                nonzero += 1;
                let (for_min, for_max) = if a.is_positive() {
                    (&lo[v], &hi[v])
                } else {
                    (&hi[v], &lo[v])
                };
                min = min.zip(for_min.as_ref()).map(|(m, b)| &m + &(a * b));
                max = max.zip(for_max.as_ref()).map(|(m, b)| &m + &(a * b));
            }
            if nonzero < 2 {
                return true;
            }
            if max.is_some_and(|m| m.is_negative()) {
                contradiction = true;
            }
            min.is_none_or(|m| m.is_negative())
        });
        if contradiction {
            return Err(Empty);
        }
        Ok(())
    }

    /// Removes duplicates, then every inequality the others imply.
    pub fn remove_redundant_constraints(&mut self) {
        if self.normalize().is_err() {
            self.mark_empty();
            return;
        }
        let n = self.num_vars();
        let minus_one = BigRational::from_integer(BigInt::from(-1));
        let equalities: Vec<Vec<BigInt>> = Self::big_rows(&self.equalities);
        let mut i = 0;
        while i < self.inequalities.len() {
            let objective: Vec<BigInt> = self.inequalities[i].iter().map(|v| v.to_big()).collect();
            let others: Vec<Vec<BigInt>> = self
                .inequalities
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, r)| r.iter().map(|v| v.to_big()).collect())
                .collect();
            match rational_minimum(n, &equalities, &others, &objective) {
                Optimum::Infeasible => {
                    self.mark_empty();
                    return;
                }
                Optimum::Finite(v, _) if v > minus_one => {
                    self.inequalities.remove(i);
                }
                _ => i += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presburger::system::row_of;

    #[test]
    fn box_implied_inequalities_go() {
        // 0 <= x <= 3, 0 <= y <= 3: x + y <= 10 is implied, x + y <= 4 is not.
        let mut s = IntegerSystem::new(2, 0, 0);
        for r in [
            [1, 0, 0],
            [-1, 0, 3],
            [0, 1, 0],
            [0, -1, 3],
            [-1, -1, 10],
            [-1, -1, 4],
        ] {
            s.add_inequality(&r);
        }
        assert_eq!(s.remove_box_redundant(), Ok(()));
        assert_eq!(s.inequalities().len(), 5);
        assert!(s.inequalities().contains(&row_of(&[-1, -1, 4])));
        s.add_inequality(&[1, 1, -7]); // x + y >= 7: impossible in the box
        assert_eq!(s.remove_box_redundant(), Err(Empty));
    }

    #[test]
    fn implied_inequalities_go() {
        // x >= 0, y >= x, y >= -1 (implied), y <= 5, 2x <= 11 (implied by y <= 5).
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_inequality(&[1, 0, 0]);
        s.add_inequality(&[-1, 1, 0]);
        s.add_inequality(&[0, 1, 1]);
        s.add_inequality(&[0, -1, 5]);
        s.add_inequality(&[-2, 0, 11]);
        s.remove_redundant_constraints();
        let mut rows = s.inequalities().to_vec();
        rows.sort();
        assert_eq!(
            rows,
            vec![row_of(&[-1, 1, 0]), row_of(&[0, -1, 5]), row_of(&[1, 0, 0])]
        );
    }
}
