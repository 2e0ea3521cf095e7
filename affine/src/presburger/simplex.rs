//! An exact rational simplex (Bland's rule): finds a rational point of
//! `{x | E x + e == 0, A x + a >= 0}` over free variables or proves there
//! is none, and minimises an affine objective over it. It runs on checked
//! `i128` fractions and starts again on `BigRational` entries when one
//! overflows (`rational`), so the answers are exact either way.
//!
//! Free variables are split as `x = p - n` with `p, n >= 0`; each
//! inequality gets a surplus variable, each row an artificial variable,
//! and the sum of the artificials is minimised (phase I); phase II then
//! minimises the objective. Bland's rule cannot cycle, so the method
//! always terminates.

use super::rational::{Field, Overflow, Small};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::cmp::Ordering;

/// The tableau: `rows` constraint rows over `cols` columns plus the
/// right-hand side, the objective row, and the basic column of each row.
struct Tableau<T> {
    rows: Vec<Vec<T>>,
    objective: Vec<T>,
    basis: Vec<usize>,
}

/// `row -= f * pivot_row`, skipping the pivot row's zeros.
fn eliminate<T: Field>(row: &mut [T], f: &T, pivot_row: &[T]) -> Result<(), Overflow> {
    for (v, pv) in row.iter_mut().zip(pivot_row) {
        if !pv.is_zero() {
            *v = v.sub(&f.mul(pv)?)?;
        }
    }
    Ok(())
}

impl<T: Field> Tableau<T> {
    fn rhs(&self) -> usize {
        self.objective.len() - 1
    }

    fn pivot(&mut self, r: usize, c: usize) -> Result<(), Overflow> {
        let p = self.rows[r][c].clone();
        for v in self.rows[r].iter_mut() {
            if !v.is_zero() {
                *v = v.div(&p)?;
            }
        }
        let pivot_row = self.rows[r].clone();
        for (i, row) in self.rows.iter_mut().enumerate() {
            if i == r || row[c].is_zero() {
                continue;
            }
            let f = row[c].clone();
            eliminate(row, &f, &pivot_row)?;
        }
        if !self.objective[c].is_zero() {
            let f = self.objective[c].clone();
            eliminate(&mut self.objective, &f, &pivot_row)?;
        }
        self.basis[r] = c;
        Ok(())
    }

    /// Runs the simplex to optimality over the columns `0..entering`;
    /// returns `false` when the objective is unbounded below.
    fn minimise(&mut self, entering: usize) -> Result<bool, Overflow> {
        let rhs = self.rhs();
        loop {
            let Some(c) = (0..entering).find(|&c| self.objective[c].is_negative()) else {
                return Ok(true);
            };
            let mut best: Option<(usize, T)> = None;
            for (r, row) in self.rows.iter().enumerate() {
                if !row[c].is_positive() {
                    continue;
                }
                let ratio = row[rhs].div(&row[c])?;
                let better = match &best {
                    None => true,
                    Some((br, b)) => match ratio.compare(b)? {
                        Ordering::Less => true,
                        Ordering::Equal => self.basis[r] < self.basis[*br],
                        Ordering::Greater => false,
                    },
                };
                if better {
                    best = Some((r, ratio));
                }
            }
            match best {
                Some((r, _)) => self.pivot(r, c)?,
                None => return Ok(false),
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
/// coefficients then the constant) and the number of structural columns;
/// `None` when they have no rational point.
#[allow(clippy::type_complexity)]
fn phase_one<T: Field>(
    num_vars: usize,
    equalities: &[Vec<BigInt>],
    inequalities: &[Vec<BigInt>],
) -> Result<Option<(Tableau<T>, usize)>, Overflow> {
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
        let mut t = vec![T::zero(); cols + 1];
        for (j, a) in row[..num_vars].iter().enumerate() {
            let a = T::from_int(a)?;
            if !a.is_zero() {
                t[num_vars + j] = a.neg()?;
                t[j] = a;
            }
        }
        if let Some(i) = surplus {
            t[2 * num_vars + i] = T::one().neg()?;
        }
        t[cols] = T::from_int(&row[num_vars])?.neg()?;
        if t[cols].is_negative() {
            for v in t.iter_mut() {
                *v = v.neg()?;
            }
        }
        t[structural + k] = T::one();
        rows.push(t);
    }
    // Objective: the sum of artificials, expressed in the non-basic
    // columns (minus the sum of the rows).
    let mut objective = vec![T::zero(); cols + 1];
    for row in &rows {
        for (j, v) in row.iter().enumerate() {
            if (j < structural || j == cols) && !v.is_zero() {
                objective[j] = objective[j].sub(v)?;
            }
        }
    }
    let mut t = Tableau {
        rows,
        objective,
        basis: (structural..cols).collect(),
    };
    // The sum of non-negative artificials is bounded below.
    t.minimise(cols)?;
    let rhs = t.rhs();
    if !t.objective[rhs].is_zero() {
        return Ok(None);
    }
    // Artificials still basic (at zero) leave the basis where a
    // structural column can replace them.
    for r in 0..t.rows.len() {
        if t.basis[r] >= structural {
            if let Some(c) = (0..structural).find(|&c| !t.rows[r][c].is_zero()) {
                t.pivot(r, c)?;
            }
        }
    }
    Ok(Some((t, structural)))
}

/// The values of the original variables at the tableau's vertex.
fn vertex<T: Field>(t: &Tableau<T>, num_vars: usize) -> Vec<BigRational> {
    let rhs = t.rhs();
    let mut value = vec![BigRational::from_integer(BigInt::from(0)); rhs];
    for (r, &b) in t.basis.iter().enumerate() {
        value[b] = t.rows[r][rhs].to_big();
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
    fn run<T: Field>(
        num_vars: usize,
        equalities: &[Vec<BigInt>],
        inequalities: &[Vec<BigInt>],
    ) -> Result<Option<Vec<BigRational>>, Overflow> {
        Ok(phase_one::<T>(num_vars, equalities, inequalities)?.map(|(t, _)| vertex(&t, num_vars)))
    }
    run::<Small>(num_vars, equalities, inequalities)
        .or_else(|Overflow| run::<BigRational>(num_vars, equalities, inequalities))
        .expect("big rationals do not overflow")
}

/// The minimum of `objective · x + constant` (`num_vars` coefficients
/// then the constant) over the rational points of the constraints.
pub fn rational_minimum(
    num_vars: usize,
    equalities: &[Vec<BigInt>],
    inequalities: &[Vec<BigInt>],
    objective: &[BigInt],
) -> Optimum {
    minimum::<Small>(num_vars, equalities, inequalities, objective)
        .or_else(|Overflow| minimum::<BigRational>(num_vars, equalities, inequalities, objective))
        .expect("big rationals do not overflow")
}

/// [`rational_minimum`] on the number type `T`.
fn minimum<T: Field>(
    num_vars: usize,
    equalities: &[Vec<BigInt>],
    inequalities: &[Vec<BigInt>],
    objective: &[BigInt],
) -> Result<Optimum, Overflow> {
    let Some((mut t, structural)) = phase_one::<T>(num_vars, equalities, inequalities)? else {
        return Ok(Optimum::Infeasible);
    };
    let rhs = t.rhs();
    let mut cost = vec![T::zero(); rhs + 1];
    for (j, a) in objective[..num_vars].iter().enumerate() {
        let a = T::from_int(a)?;
        cost[num_vars + j] = a.neg()?;
        cost[j] = a;
    }
    // Reduced costs: subtract the basic columns' costs times their rows.
    let mut row_costs = cost.clone();
    for (r, &b) in t.basis.iter().enumerate() {
        if b < rhs && !cost[b].is_zero() {
            eliminate(&mut row_costs, &cost[b], &t.rows[r])?;
        }
    }
    t.objective = row_costs;
    if !t.minimise(structural)? {
        return Ok(Optimum::Unbounded);
    }
    let value = t.objective[rhs]
        .neg()?
        .add(&T::from_int(&objective[num_vars])?)?;
    Ok(Optimum::Finite(value.to_big(), vertex(&t, num_vars)))
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
        assert!(&p[0] - &p[1] >= BigRational::from_integer(1.into()));
    }

    #[test]
    fn minimises_over_a_polygon() {
        // min x + y over x >= 1, y >= 2, x + 2y <= 10.
        let ineq = rows(&[&[1, 0, -1], &[0, 1, -2], &[-1, -2, 10]]);
        let obj: Vec<BigInt> = [1, 1, 5].iter().map(|&c| BigInt::from(c)).collect();
        match rational_minimum(2, &[], &ineq, &obj) {
            Optimum::Finite(v, p) => {
                assert_eq!(v, BigRational::from_integer(8.into()));
                assert_eq!(p[0], BigRational::from_integer(1.into()));
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

    #[test]
    fn coefficients_beyond_i128_products_fall_back_to_big_rationals() {
        // min x over 2^120 x - 2^121 >= 0 and 3^70 y - x >= 0.
        let p120: BigInt = BigInt::from(1) << 120;
        let p121: BigInt = BigInt::from(1) << 121;
        let three = BigInt::from(3).pow(70);
        let ineq = vec![
            vec![p120, BigInt::from(0), -p121],
            vec![BigInt::from(-1), three, BigInt::from(0)],
        ];
        let obj: Vec<BigInt> = [1, 0, 0].iter().map(|&c| BigInt::from(c)).collect();
        match rational_minimum(2, &[], &ineq, &obj) {
            Optimum::Finite(v, _) => assert_eq!(v, BigRational::from_integer(2.into())),
            other => panic!("{other:?}"),
        }
    }
}
