//! Redundant inequality removal. An inequality `row · x + c >= 0` is
//! dropped when the rational minimum of `row · x + c` over the other
//! constraints exceeds -1: its left side is an integer at integer points,
//! so the others already imply it on every integer point. (The removal
//! keeps the recession cone of the rational relaxation, so a bounded
//! system stays bounded.)

use super::simplex::{rational_minimum, Optimum};
use super::system::IntegerSystem;
use num_bigint::BigInt;
use num_rational::BigRational;

impl IntegerSystem {
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
