//! Cheap exact simplifications: rows divided by the GCD of their
//! variable coefficients (an equality whose constant the GCD does not
//! divide has no integer solution; an inequality's constant is floored,
//! which tightens it to the integer hull of that one constraint),
//! constant rows checked and dropped, duplicate rows merged (the tighter
//! inequality kept), and pairs of opposite inequalities turned into an
//! equality or found contradictory.

use super::int::Int;
use super::system::IntegerSystem;
use rustc_hash::{FxHashMap, FxHashSet};

/// The marker of a system proven to have no integer point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Empty;

fn coefficient_gcd(row: &[Int]) -> Int {
    let mut g = Int::ZERO;
    for c in &row[..row.len() - 1] {
        if !c.is_zero() {
            g = g.gcd(c);
            if g.is_one() {
                break;
            }
        }
    }
    g
}

/// Divides an equality by its coefficient GCD and makes its first
/// non-zero coefficient positive. `Ok(None)`: the row is `0 == 0`.
fn normalize_equality(mut row: Vec<Int>) -> Result<Option<Vec<Int>>, Empty> {
    let g = coefficient_gcd(&row);
    let last = row.len() - 1;
    if g.is_zero() {
        return if row[last].is_zero() {
            Ok(None)
        } else {
            Err(Empty)
        };
    }
    if !row[last].divisible_by(&g) {
        return Err(Empty);
    }
    let negate = row[..last]
        .iter()
        .find(|c| !c.is_zero())
        .is_some_and(Int::is_negative);
    let g = if negate { -g } else { g };
    if !g.is_one() {
        for c in row.iter_mut() {
            *c = c.exact_div(&g);
        }
    }
    Ok(Some(row))
}

/// Divides an inequality by its coefficient GCD, flooring the constant.
/// `Ok(None)`: the row holds for every point.
pub(super) fn normalize_inequality(mut row: Vec<Int>) -> Result<Option<Vec<Int>>, Empty> {
    let g = coefficient_gcd(&row);
    let last = row.len() - 1;
    if g.is_zero() {
        return if row[last].is_negative() {
            Err(Empty)
        } else {
            Ok(None)
        };
    }
    if !g.is_one() {
        for c in row[..last].iter_mut() {
            *c = c.exact_div(&g);
        }
        row[last] = row[last].floor_div(&g);
    }
    Ok(Some(row))
}

impl IntegerSystem {
    /// Applies the module's simplifications; `Err(Empty)` when they prove
    /// the system has no integer point (the system is then left partly
    /// simplified).
    pub fn normalize(&mut self) -> Result<(), Empty> {
        let mut equalities = Vec::with_capacity(self.equalities.len());
        for row in std::mem::take(&mut self.equalities) {
            if let Some(r) = normalize_equality(row)? {
                equalities.push(r);
            }
        }
        // The tightest constant of each inequality direction, in order of
        // first appearance (`None` once merged into an equality).
        let mut index: FxHashMap<Vec<Int>, usize> = FxHashMap::default();
        let mut tightest: Vec<Option<(Vec<Int>, Int)>> = Vec::new();
        for row in std::mem::take(&mut self.inequalities) {
            let Some(mut r) = normalize_inequality(row)? else {
                continue;
            };
            let c = r.pop().unwrap_or_default();
            match index.get(&r) {
                Some(&i) => {
                    if let Some((_, old)) = &mut tightest[i] {
                        if c < *old {
                            *old = c;
                        }
                    }
                }
                None => {
                    index.insert(r.clone(), tightest.len());
                    tightest.push(Some((r, c)));
                }
            }
        }
        let mut inequalities = Vec::with_capacity(tightest.len());
        for i in 0..tightest.len() {
            let Some((coeffs, c)) = tightest[i].take() else {
                continue; // Merged into an equality below.
            };
            let opposite: Vec<Int> = coeffs.iter().map(|v| -v).collect();
            if let Some(&j) = index.get(&opposite) {
                if let Some((_, oc)) = &tightest[j] {
                    let slack = &c + oc;
                    if slack.is_negative() {
                        return Err(Empty);
                    }
                    if slack.is_zero() {
                        tightest[j] = None;
                        let mut eq = coeffs;
                        eq.push(c);
                        if let Some(r) = normalize_equality(eq)? {
                            equalities.push(r);
                        }
                        continue;
                    }
                }
            }
            let mut row = coeffs;
            row.push(c);
            inequalities.push(row);
        }
        let mut seen = FxHashSet::default();
        equalities.retain(|r| seen.insert(r.clone()));
        self.equalities = equalities;
        self.inequalities = inequalities;
        Ok(())
    }

    /// Removes duplicate and GCD-tightened duplicate constraints (keeping
    /// the tightest) without deciding emptiness; returns whether the
    /// simplifications proved the system empty.
    pub fn remove_duplicate_constraints(&mut self) -> bool {
        self.normalize().is_err()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presburger::system::row_of;

    #[test]
    fn equality_gcd_test() {
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_equality(&[2, 4, 1]); // 2x + 4y + 1 == 0: no integer point
        assert_eq!(s.normalize(), Err(Empty));
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_equality(&[-2, 4, 6]);
        assert_eq!(s.normalize(), Ok(()));
        assert_eq!(s.equalities()[0], row_of(&[1, -2, -3]));
    }

    #[test]
    fn inequalities_tighten_and_merge() {
        let mut s = IntegerSystem::new(1, 0, 0);
        s.add_inequality(&[2, -3]); // 2x >= 3 -> x >= 2
        s.add_inequality(&[1, -1]); // x >= 1 (weaker)
        s.add_inequality(&[-3, 7]); // 3x <= 7 -> x <= 2
        assert_eq!(s.normalize(), Ok(()));
        assert_eq!(s.equalities(), &[row_of(&[1, -2])]);
        assert!(s.inequalities().is_empty());
        s.add_inequality(&[-1, 1]); // x <= 1 contradicts x == 2 only later
        s.add_inequality(&[1, -2]);
        assert_eq!(s.normalize(), Err(Empty));
    }
}
