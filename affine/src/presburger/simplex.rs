//! An exact rational simplex (Bland's rule, `BigRational` entries):
//! finds a rational point of `{x | E x + e == 0, A x + a >= 0}` over free
//! variables or proves there is none, and minimises an affine objective
//! over it.
//!
//! Free variables are split as `x = p - n` with `p, n >= 0`; each
//! inequality gets a surplus variable, each row an artificial variable,
//! and the sum of the artificials is minimised (phase I); phase II then
//! minimises the objective. Bland's rule cannot cycle, so the method
//! always terminates.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

/// The tableau: `rows` constraint rows over `cols` columns plus the
/// right-hand side, the objective row, and the basic column of each row.
struct Tableau {
    rows: Vec<Vec<BigRational>>,
    objective: Vec<BigRational>,
    basis: Vec<usize>,
}

impl Tableau {
    fn rhs(&self) -> usize {
        self.objective.len() - 1
    }

    fn pivot(&mut self, r: usize, c: usize) {
        let p = self.rows[r][c].clone();
        for v in self.rows[r].iter_mut() {
            *v = &*v / &p;
        }
        let pivot_row = self.rows[r].clone();
        for (i, row) in self.rows.iter_mut().enumerate() {
            if i == r || row[c].is_zero() {
                continue;
            }
            let f = row[c].clone();
            for (v, pv) in row.iter_mut().zip(&pivot_row) {
                if !pv.is_zero() {
                    *v = &*v - &(&f * pv);
                }
            }
        }
        if !self.objective[c].is_zero() {
            let f = self.objective[c].clone();
            for (v, pv) in self.objective.iter_mut().zip(&pivot_row) {
                if !pv.is_zero() {
                    *v = &*v - &(&f * pv);
                }
            }
        }
        self.basis[r] = c;
    }

    /// Runs the simplex to optimality over the columns `0..entering`;
    /// returns `false` when the objective is unbounded below.
    fn minimise(&mut self, entering: usize) -> bool {
        let rhs = self.rhs();
        loop {
            let Some(c) = (0..entering).find(|&c| self.objective[c].is_negative()) else {
                return true;
            };
            let mut best: Option<(usize, BigRational)> = None;
            for (r, row) in self.rows.iter().enumerate() {
                if !row[c].is_positive() {
                    continue;
                }
                let ratio = &row[rhs] / &row[c];
                let better = match &best {
                    None => true,
                    Some((br, b)) => ratio < *b || (ratio == *b && self.basis[r] < self.basis[*br]),
                };
                if better {
                    best = Some((r, ratio));
                }
            }
            match best {
                Some((r, _)) => self.pivot(r, c),
                None => return false,
            }
        }
    }
}

/// The outcome of minimising an affine objective.
#[derive(Clone, PartialEq, Debug)]
pub enum Optimum {
    Infeasible,
    Unbounded,
    /// The minimum value and a point attaining it.
    Finite(BigRational, Vec<BigRational>),
}

/// The phase-I tableau of the constraints (rows have `num_vars`
/// coefficients then the constant) and the number of structural columns.
fn phase_one(
    num_vars: usize,
    equalities: &[Vec<BigInt>],
    inequalities: &[Vec<BigInt>],
) -> Option<(Tableau, usize)> {
    let m = equalities.len() + inequalities.len();
    let num_surplus = inequalities.len();
    let structural = 2 * num_vars + num_surplus;
    let cols = structural + m;
    let mut rows = Vec::with_capacity(m);
    let constraints = equalities
        .iter()
        .map(|r| (r, None))
        .chain(inequalities.iter().enumerate().map(|(i, r)| (r, Some(i))));
    for (k, (row, surplus)) in constraints.enumerate() {
        let mut t = vec![BigRational::zero(); cols + 1];
        for (j, a) in row[..num_vars].iter().enumerate() {
            if !a.is_zero() {
                t[j] = BigRational::from_integer(a.clone());
                t[num_vars + j] = BigRational::from_integer(-a.clone());
            }
        }
        if let Some(i) = surplus {
            t[2 * num_vars + i] = -BigRational::one();
        }
        t[cols] = BigRational::from_integer(-row[num_vars].clone());
        if t[cols].is_negative() {
            for v in t.iter_mut() {
                *v = -&*v;
            }
        }
        t[structural + k] = BigRational::one();
        rows.push(t);
    }
    // Objective: the sum of artificials, expressed in the non-basic
    // columns (minus the sum of the rows).
    let mut objective = vec![BigRational::zero(); cols + 1];
    for row in &rows {
        for (j, v) in row.iter().enumerate() {
            if j < structural || j == cols {
                objective[j] = &objective[j] - v;
            }
        }
    }
    let mut t = Tableau {
        rows,
        objective,
        basis: (structural..cols).collect(),
    };
    // The sum of non-negative artificials is bounded below.
    t.minimise(cols);
    let rhs = t.rhs();
    if !t.objective[rhs].is_zero() {
        return None;
    }
    // Artificials still basic (at zero) leave the basis where a
    // structural column can replace them.
    for r in 0..t.rows.len() {
        if t.basis[r] >= structural {
            if let Some(c) = (0..structural).find(|&c| !t.rows[r][c].is_zero()) {
                t.pivot(r, c);
            }
        }
    }
    Some((t, structural))
}

/// The values of the original variables at the tableau's vertex.
fn vertex(t: &Tableau, num_vars: usize) -> Vec<BigRational> {
    let rhs = t.rhs();
    let mut value = vec![BigRational::zero(); rhs];
    for (r, &b) in t.basis.iter().enumerate() {
        value[b] = t.rows[r][rhs].clone();
    }
    (0..num_vars)
        .map(|j| &value[j] - &value[num_vars + j])
        .collect()
}

/// A rational point satisfying the constraints (rows have `num_vars`
/// coefficients then the constant), or `None` when there is none.
pub fn rational_point(
    num_vars: usize,
    equalities: &[Vec<BigInt>],
    inequalities: &[Vec<BigInt>],
) -> Option<Vec<BigRational>> {
    let (t, _) = phase_one(num_vars, equalities, inequalities)?;
    Some(vertex(&t, num_vars))
}

/// The minimum of `objective · x + constant` (`num_vars` coefficients
/// then the constant) over the rational points of the constraints.
pub fn rational_minimum(
    num_vars: usize,
    equalities: &[Vec<BigInt>],
    inequalities: &[Vec<BigInt>],
    objective: &[BigInt],
) -> Optimum {
    let Some((mut t, structural)) = phase_one(num_vars, equalities, inequalities) else {
        return Optimum::Infeasible;
    };
    let rhs = t.rhs();
    let mut cost = vec![BigRational::zero(); rhs + 1];
    for (j, a) in objective[..num_vars].iter().enumerate() {
        cost[j] = BigRational::from_integer(a.clone());
        cost[num_vars + j] = BigRational::from_integer(-a.clone());
    }
    // Reduced costs: subtract the basic columns' costs times their rows.
    let mut row_costs = cost.clone();
    for (r, &b) in t.basis.iter().enumerate() {
        if b < rhs && !cost[b].is_zero() {
            let f = cost[b].clone();
            for (v, x) in row_costs.iter_mut().zip(&t.rows[r]) {
                *v = &*v - &(&f * x);
            }
        }
    }
    t.objective = row_costs;
    if !t.minimise(structural) {
        return Optimum::Unbounded;
    }
    let value = -&t.objective[rhs] + BigRational::from_integer(objective[num_vars].clone());
    Optimum::Finite(value, vertex(&t, num_vars))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(v: &[&[i64]]) -> Vec<Vec<BigInt>> {
        v.iter()
            .map(|r| r.iter().map(|&c| BigInt::from(c)).collect())
            .collect()
    }

    #[test]
    fn finds_a_point_of_a_feasible_system() {
        // x + y == 3, x - y >= 1, y >= -5
        let eq = rows(&[&[1, 1, -3]]);
        let ineq = rows(&[&[1, -1, -1], &[0, 1, 5]]);
        let p = rational_point(2, &eq, &ineq).expect("feasible");
        assert_eq!(&p[0] + &p[1], BigRational::from_integer(3.into()));
        assert!(&p[0] - &p[1] >= BigRational::one());
    }

    #[test]
    fn minimises_over_a_polygon() {
        // min x + y over x >= 1, y >= 2, x + 2y <= 10.
        let ineq = rows(&[&[1, 0, -1], &[0, 1, -2], &[-1, -2, 10]]);
        let obj: Vec<BigInt> = [1, 1, 5].iter().map(|&c| BigInt::from(c)).collect();
        match rational_minimum(2, &[], &ineq, &obj) {
            Optimum::Finite(v, p) => {
                assert_eq!(v, BigRational::from_integer(8.into()));
                assert_eq!(p[0], BigRational::one());
            }
            other => panic!("{other:?}"),
        }
        // Unbounded below without x + 2y <= 10 when minimising -x.
        let obj: Vec<BigInt> = [-1, 0, 0].iter().map(|&c| BigInt::from(c)).collect();
        assert_eq!(
            rational_minimum(2, &[], &ineq[..2], &obj),
            Optimum::Unbounded
        );
        let eq = rows(&[&[1, 1, -3]]);
        let obj: Vec<BigInt> = [1, 0, 0].iter().map(|&c| BigInt::from(c)).collect();
        assert_eq!(
            rational_minimum(2, &eq, &ineq[1..2], &obj),
            Optimum::Unbounded
        );
    }

    #[test]
    fn proves_infeasibility() {
        // 2x >= 1 and 2x <= 0.
        let ineq = rows(&[&[2, -1], &[-2, 0]]);
        assert!(rational_point(1, &[], &ineq).is_none());
        // Rationally feasible (x = 1/2) is still found.
        let ineq = rows(&[&[2, -1], &[-2, 1]]);
        let p = rational_point(1, &[], &ineq).expect("x = 1/2");
        assert_eq!(p[0], BigRational::new(1.into(), 2.into()));
    }
}
