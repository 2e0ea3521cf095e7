//! Cheap exact simplifications: rows divided by the GCD of their
//! variable coefficients (an equality whose constant the GCD does not
//! divide has no integer solution; an inequality's constant is floored,
//! which tightens it to the integer hull of that one constraint),
//! constant rows checked and dropped, duplicate rows merged (the tighter
//! inequality kept), and pairs of opposite inequalities turned into an
//! equality or found contradictory.

use super::int::Int;
use super::system::IntegerSystem;
use rustc_hash::{FxHashMap, FxHashSet, FxHasher};
use std::hash::{Hash, Hasher};

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
/// non-zero coefficient positive, in place. `Ok(false)`: the row is
/// `0 == 0`.
fn normalize_equality_in_place(row: &mut [Int]) -> Result<bool, Empty> {
    let g = coefficient_gcd(row);
    let last = row.len() - 1;
    if g.is_zero() {
        return if row[last].is_zero() {
            Ok(false)
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
    Ok(true)
}

/// Divides an inequality by its coefficient GCD, flooring the constant,
/// in place. `Ok(false)`: the row holds for every point.
fn normalize_inequality_in_place(row: &mut [Int]) -> Result<bool, Empty> {
    let g = coefficient_gcd(row);
    let last = row.len() - 1;
    if g.is_zero() {
        return if row[last].is_negative() {
            Err(Empty)
        } else {
            Ok(false)
        };
    }
    if !g.is_one() {
        for c in row[..last].iter_mut() {
            *c = c.exact_div(&g);
        }
        row[last] = row[last].floor_div(&g);
    }
    Ok(true)
}

/// [`normalize_inequality_in_place`] on an owned row. `Ok(None)`: the
/// row holds for every point.
pub(super) fn normalize_inequality(mut row: Vec<Int>) -> Result<Option<Vec<Int>>, Empty> {
    Ok(normalize_inequality_in_place(&mut row)?.then_some(row))
}

/// Feeds `v` (negated with `negate`) to `h`; equal values feed equal
/// words whatever their representation.
fn hash_int(h: &mut FxHasher, v: &Int, negate: bool) {
    match v {
        Int::Small(x) => match if negate { x.checked_neg() } else { Some(*x) } {
            Some(y) => h.write_i64(y),
            None => (-v).hash(h),
        },
        Int::Big(_) if negate => {
            let n = -v;
            match n {
                Int::Small(y) => h.write_i64(y),
                big => big.hash(h),
            }
        }
        big => big.hash(h),
    }
}

/// The hash of a row's coefficients (its constant left out), negated
/// with `negate`.
fn coefficient_hash(row: &[Int], negate: bool) -> u64 {
    let mut h = FxHasher::default();
    for c in &row[..row.len() - 1] {
        hash_int(&mut h, c, negate);
    }
    h.finish()
}

/// Whether `a`'s coefficients are the negation of `b`'s.
fn opposite(a: &[Int], b: &[Int]) -> bool {
    let n = a.len() - 1;
    a[..n].iter().zip(&b[..n]).all(|(x, y)| match (x, y) {
        (Int::Small(x), Int::Small(y)) => x.checked_neg() == Some(*y),
        _ => -x == *y,
    })
}

/// Up to this many inequalities, [`IntegerSystem::normalize`] compares
/// rows directly instead of hashing them.
const SMALL: usize = 16;

/// Rows grouped by a key hash: the first row of each key's chain, and
/// each row's next row with the same hash.
struct Chains {
    head: FxHashMap<u64, usize>,
    next: Vec<usize>,
}

impl Chains {
    const END: usize = usize::MAX;

    fn new(capacity: usize) -> Chains {
        let mut head = FxHashMap::default();
        head.reserve(capacity);
        Chains {
            head,
            next: Vec::with_capacity(capacity),
        }
    }

    /// The rows with hash `h`, most recently added first.
    fn rows(&self, h: u64) -> impl Iterator<Item = usize> + '_ {
        let mut at = self.head.get(&h).copied().unwrap_or(Self::END);
        std::iter::from_fn(move || {
            (at != Self::END).then(|| {
                let r = at;
                at = self.next[r];
                r
            })
        })
    }

    /// Adds row `r` (the next index) with hash `h`.
    fn add(&mut self, r: usize, h: u64) {
        let before = self.head.insert(h, r).unwrap_or(Self::END);
        self.next.push(before);
    }
}

impl IntegerSystem {
    /// Applies the module's simplifications; `Err(Empty)` when they prove
    /// the system has no integer point (the system is then left partly
    /// simplified).
    pub fn normalize(&mut self) -> Result<(), Empty> {
        let mut equalities = std::mem::take(&mut self.equalities);
        let mut failed = false;
        equalities.retain_mut(|r| match normalize_equality_in_place(r) {
            Ok(keep) => keep,
            Err(Empty) => {
                failed = true;
                true
            }
        });
        if failed {
            self.equalities = equalities;
            return Err(Empty);
        }
        // Each distinct coefficient vector once, in order of first
        // appearance, with its tightest constant.
        // Coefficient vectors are distinct among `rows`, so a lookup has
        // at most one answer: a few rows are searched in order, more
        // through their hash chains.
        let small = self.inequalities.len() <= SMALL;
        let mut rows: Vec<Vec<Int>> = Vec::with_capacity(self.inequalities.len());
        let mut chains = Chains::new(if small { 0 } else { self.inequalities.len() });
        for mut row in std::mem::take(&mut self.inequalities) {
            if !normalize_inequality_in_place(&mut row)? {
                continue;
            }
            let last = row.len() - 1;
            let (same, h) = if small {
                (rows.iter().position(|r| r[..last] == row[..last]), 0)
            } else {
                let h = coefficient_hash(&row, false);
                (chains.rows(h).find(|&i| rows[i][..last] == row[..last]), h)
            };
            match same {
                Some(i) => {
                    if row[last] < rows[i][last] {
                        rows[i][last] = row[last].clone();
                    }
                }
                None => {
                    if !small {
                        chains.add(rows.len(), h);
                    }
                    rows.push(row);
                }
            }
        }
        // Opposite pairs (looked up from the first of the two): a
        // contradiction, or an equality.
        let mut merged = vec![false; rows.len()];
        let mut inequalities = Vec::with_capacity(rows.len());
        for i in 0..rows.len() {
            if merged[i] {
                continue;
            }
            let last = rows[i].len() - 1;
            let partner = if small {
                (i + 1..rows.len()).find(|&j| opposite(&rows[i], &rows[j]))
            } else {
                let h = coefficient_hash(&rows[i], true);
                chains
                    .rows(h)
                    .find(|&j| j > i && opposite(&rows[i], &rows[j]))
            };
            if let Some(j) = partner {
                let slack = &rows[i][last] + &rows[j][last];
                if slack.is_negative() {
                    return Err(Empty);
                }
                if slack.is_zero() {
                    merged[j] = true;
                    let mut eq = std::mem::take(&mut rows[i]);
                    if normalize_equality_in_place(&mut eq)? {
                        equalities.push(eq);
                    }
                    continue;
                }
            }
            inequalities.push(std::mem::take(&mut rows[i]));
        }
        dedup_rows(&mut equalities);
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

/// Removes later copies of equal rows, keeping the order of the rest.
fn dedup_rows(rows: &mut Vec<Vec<Int>>) {
    if rows.len() < 2 {
        return;
    }
    if rows.len() <= 16 {
        let mut i = 1;
        while i < rows.len() {
            if rows[..i].contains(&rows[i]) {
                rows.remove(i);
            } else {
                i += 1;
            }
        }
        return;
    }
    let mut seen = FxHashSet::default();
    rows.retain(|r| seen.insert(r.clone()));
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

    /// The same duplicates and opposite pairs are merged whether the rows
    /// are compared directly (few rows) or through hash chains (many).
    #[test]
    fn few_and_many_rows_merge_alike() {
        for filler in [0, SMALL] {
            let mut s = IntegerSystem::new(2, 0, 0);
            s.add_inequality(&[1, 0, 0]); // x >= 0
            s.add_inequality(&[-1, 0, 5]); // x <= 5
            s.add_inequality(&[1, 0, -1]); // x >= 1 (tighter, merged)
            s.add_inequality(&[0, 1, -2]); // y >= 2
            s.add_inequality(&[0, -2, 4]); // 2y <= 4: with y >= 2, y == 2
            for k in 0..filler as i64 {
                s.add_inequality(&[1, k + 1, 100]);
            }
            assert_eq!(s.normalize(), Ok(()));
            assert_eq!(s.equalities(), &[row_of(&[0, 1, -2])]);
            assert_eq!(
                s.inequalities()[..2],
                [row_of(&[1, 0, -1]), row_of(&[-1, 0, 5])]
            );
            assert_eq!(s.inequalities().len(), 2 + filler);
            s.add_inequality(&[-1, 0, 0]); // x <= 0 contradicts x >= 1
            assert_eq!(s.normalize(), Err(Empty));
        }
    }
}
