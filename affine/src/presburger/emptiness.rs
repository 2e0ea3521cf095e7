//! Exact integer emptiness. Cheap exact steps first: GCD normalization,
//! Gaussian elimination with unit-coefficient equalities, and
//! Fourier–Motzkin elimination of variables whose elimination is exact
//! over the integers (a unit coefficient in every combined pair). What
//! remains goes to branch-and-bound over the exact rational simplex:
//! a rational vertex with a fractional coordinate `v` splits the search
//! into `x <= floor(v)` and `x >= ceil(v)`. Rational feasibility alone
//! never decides non-emptiness: only an integer point does.

use super::int::Int;
use super::simplex::rational_point;
use super::system::IntegerSystem;
use num_bigint::BigInt;
use num_integer::Integer;

/// Branch-and-bound nodes explored before giving up (the answer is then
/// [`Sample::Unknown`]; bounded systems of the sizes loop nests produce
/// stay far below it).
const MAX_NODES: usize = 2_000;

/// Constraints Fourier–Motzkin may grow the system to before the rest
/// goes to branch-and-bound.
const MAX_FM_CONSTRAINTS: usize = 400;

/// The outcome of searching for an integer point.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Sample {
    /// An integer point, one value per variable.
    Point(Vec<Int>),
    /// No integer point exists.
    Empty,
    /// The search gave up (only for unbounded systems with huge search
    /// spaces); treat as possibly non-empty.
    Unknown,
}

impl IntegerSystem {
    /// Whether the system has no integer point. Exact, except that a
    /// search that gives up (see [`Sample::Unknown`]) answers `false`, so
    /// `true` is always a proof of emptiness.
    pub fn is_empty(&self) -> bool {
        let mut s = self.clone();
        if s.normalize().is_err() {
            return true;
        }
        loop {
            if s.has_false_row() {
                return true;
            }
            if s.num_vars() == 0 {
                return false;
            }
            if let Some((pos, eq)) = s.unit_equality() {
                s.gaussian_eliminate(pos, eq);
            } else if let Some(pos) = s.exact_fm_candidate() {
                s.fourier_motzkin_eliminate(pos);
            } else {
                break;
            }
            if s.normalize().is_err() || s.remove_box_redundant().is_err() {
                return true;
            }
        }
        s.branch_and_bound() == Sample::Empty
    }

    /// An integer point of the system, found by branch-and-bound on the
    /// whole system.
    pub fn integer_sample(&self) -> Sample {
        let mut s = self.clone();
        if s.normalize().is_err() || s.has_false_row() {
            return Sample::Empty;
        }
        s.branch_and_bound()
    }

    /// A variable and an equality where its coefficient is ±1.
    fn unit_equality(&self) -> Option<(usize, usize)> {
        self.equalities.iter().enumerate().find_map(|(i, row)| {
            row[..self.num_vars()]
                .iter()
                .position(|c| c.abs().is_one())
                .map(|pos| (pos, i))
        })
    }

    /// The cheapest variable no equality involves whose Fourier–Motzkin
    /// elimination is exact, if the result stays small.
    fn exact_fm_candidate(&self) -> Option<usize> {
        let n = self.num_vars();
        (0..n)
            .filter(|&v| self.equalities.iter().all(|r| r[v].is_zero()))
            .filter_map(|v| {
                let (lo, up, exact) = self.bound_counts(v);
                let grown = self.inequalities.len() + lo * up - lo - up;
                (exact && grown <= MAX_FM_CONSTRAINTS).then_some((lo * up, v))
            })
            .min()
            .map(|(_, v)| v)
    }

    pub(super) fn big_rows(rows: &[Vec<Int>]) -> Vec<Vec<BigInt>> {
        rows.iter()
            .map(|r| r.iter().map(Int::to_big).collect())
            .collect()
    }

    /// Depth-first branch-and-bound for an integer point.
    fn branch_and_bound(&self) -> Sample {
        let n = self.num_vars();
        let equalities = Self::big_rows(&self.equalities);
        let base = Self::big_rows(&self.inequalities);
        // Each node: the extra bounds of its branch.
        let mut stack: Vec<Vec<Vec<BigInt>>> = vec![Vec::new()];
        let mut nodes = 0;
        while let Some(extra) = stack.pop() {
            nodes += 1;
            if nodes > MAX_NODES {
                return Sample::Unknown;
            }
            let mut inequalities = base.clone();
            inequalities.extend(extra.iter().cloned());
            let Some(point) = rational_point(n, &equalities, &inequalities) else {
                continue;
            };
            let Some(j) = point.iter().position(|v| !v.is_integer()) else {
                return Sample::Point(
                    point
                        .iter()
                        .map(|v| Int::from_big(v.to_integer()))
                        .collect(),
                );
            };
            let v = &point[j];
            let floor: BigInt = v.numer().div_floor(v.denom());
            let ceil: BigInt = &floor + 1;
            // x_j <= floor and x_j >= ceil.
            let mut le = vec![BigInt::from(0); n + 1];
            le[j] = BigInt::from(-1);
            le[n] = floor;
            let mut ge = vec![BigInt::from(0); n + 1];
            ge[j] = BigInt::from(1);
            ge[n] = -ceil;
            // Explore the side nearer to the rational value first.
            let frac = v - v.floor();
            let (first, second) = if frac.numer() * 2 < *frac.denom() {
                (le, ge)
            } else {
                (ge, le)
            };
            let mut a = extra.clone();
            a.push(second);
            stack.push(a);
            let mut b = extra;
            b.push(first);
            stack.push(b);
        }
        Sample::Empty
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rationally_feasible_but_integer_empty() {
        // A small triangle around (1/2, 0) with no integer point; no
        // variable has a unit coefficient, so branch-and-bound decides.
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_inequality(&[5, -4, -3]);
        s.add_inequality(&[-5, -2, 4]);
        s.add_inequality(&[-3, 4, 3]);
        assert!(s.is_empty());
        assert_eq!(s.integer_sample(), Sample::Empty);
        s.inequalities.pop();
        assert!(!s.is_empty());
        let Sample::Point(p) = s.integer_sample() else {
            panic!("expected a point");
        };
        let p: Vec<i64> = p.iter().filter_map(Int::to_i64).collect();
        assert!(s.contains(&p));
    }
}
