//! Affine expressions as constraint rows: dimensions and symbols map to
//! columns of a system, `floordiv`/`ceildiv`/`mod` by a positive constant
//! introduce local variables (`q = floor(e / c)` through
//! `c*q <= e <= c*q + c - 1`; `ceil(e / c) = floor((e + c - 1) / c)`;
//! `e mod c = e - c*floor(e / c)`), shared between expressions that
//! divide the same thing by the same constant.

use super::int::Int;
use super::system::IntegerSystem;
use silica_ir::affine::{AffineExpr, BinOp};

/// The local divisions a system has: dividend row (at the width the
/// system had then), divisor and the local's column.
#[derive(Clone, Default, Debug)]
pub struct LocalDivisions {
    divisions: Vec<(Vec<Int>, i64, usize)>,
}

impl LocalDivisions {
    /// Keeps the recorded columns right after `count` variable columns
    /// were inserted at column `at` of the system.
    pub fn columns_inserted(&mut self, at: usize, count: usize) {
        for (dividend, _, col) in &mut self.divisions {
            let within = at.min(dividend.len() - 1);
            dividend.splice(within..within, std::iter::repeat_n(Int::ZERO, count));
            if *col >= at {
                *col += count;
            }
        }
    }
}

/// `row` widened to `width` entries (zeros before the constant).
fn widened(row: &[Int], width: usize) -> Vec<Int> {
    let mut r = row[..row.len() - 1].to_vec();
    r.resize(width - 1, Int::ZERO);
    r.push(row[row.len() - 1].clone());
    r
}

/// Expressions flattened into one system.
pub struct Flattener<'a> {
    pub system: &'a mut IntegerSystem,
    /// Column of each dimension of the expressions.
    pub dims: &'a [usize],
    /// Column of each symbol of the expressions.
    pub symbols: &'a [usize],
    pub locals: &'a mut LocalDivisions,
}

impl Flattener<'_> {
    /// The row of `e` (`num_cols()` entries of the system after any
    /// locals it needed were added), or `None` for a semi-affine
    /// expression or an identifier without a column.
    pub fn flatten(&mut self, e: &AffineExpr) -> Option<Vec<Int>> {
        let width = self.system.num_cols();
        let mut row = vec![Int::ZERO; width];
        match e {
            AffineExpr::Dim(i) => row[*self.dims.get(*i as usize)?] = Int::ONE,
            AffineExpr::Symbol(i) => row[*self.symbols.get(*i as usize)?] = Int::ONE,
            AffineExpr::Constant(c) => row[width - 1] = Int::from(*c),
            AffineExpr::Binary(b) => {
                let (op, l, r) = &**b;
                let lv = self.flatten(l)?;
                let rv = self.flatten(r)?;
                let width = self.system.num_cols();
                let (lv, rv) = (widened(&lv, width), widened(&rv, width));
                let constant = |v: &[Int]| {
                    v[..v.len() - 1]
                        .iter()
                        .all(Int::is_zero)
                        .then(|| v[v.len() - 1].clone())
                };
                return match op {
                    BinOp::Add => Some(lv.iter().zip(&rv).map(|(a, b)| a + b).collect()),
                    BinOp::Mul => {
                        let (v, k) = match (constant(&lv), constant(&rv)) {
                            (_, Some(k)) => (lv, k),
                            (Some(k), None) => (rv, k),
                            _ => return None,
                        };
                        Some(v.iter().map(|a| a * &k).collect())
                    }
                    BinOp::FloorDiv | BinOp::CeilDiv | BinOp::Mod => {
                        let c = constant(&rv).filter(Int::is_positive)?;
                        let divisor = c.to_i64()?;
                        let mut dividend = lv.clone();
                        if *op == BinOp::CeilDiv {
                            let last = dividend.len() - 1;
                            dividend[last] = &dividend[last] + &(&c - &Int::ONE);
                        }
                        let q = self.local_for(&dividend, divisor);
                        let width = self.system.num_cols();
                        if *op == BinOp::Mod {
                            let mut out = widened(&lv, width);
                            out[q] = &out[q] - &c;
                            Some(out)
                        } else {
                            let mut out = vec![Int::ZERO; width];
                            out[q] = Int::ONE;
                            Some(out)
                        }
                    }
                };
            }
        }
        Some(row)
    }

    /// The column of the local `floor(dividend / divisor)`, added if new.
    fn local_for(&mut self, dividend: &[Int], divisor: i64) -> usize {
        let width = self.system.num_cols();
        for (d, c, col) in &self.locals.divisions {
            if *c == divisor && widened(d, width) == dividend {
                return *col;
            }
        }
        let col = self.system.add_local_floor_div(dividend, divisor);
        self.locals
            .divisions
            .push((dividend.to_vec(), divisor, col));
        col
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presburger::system::row_of;

    #[test]
    fn divisions_become_shared_locals() {
        let mut s = IntegerSystem::new(1, 0, 0);
        let mut locals = LocalDivisions::default();
        let d0 = AffineExpr::Dim(0);
        let e = d0.clone().modulo(AffineExpr::Constant(4));
        let f = d0.floor_div(AffineExpr::Constant(4));
        let mut fl = Flattener {
            system: &mut s,
            dims: &[0],
            symbols: &[],
            locals: &mut locals,
        };
        let re = fl.flatten(&e).expect("affine");
        let rf = fl.flatten(&f).expect("affine");
        assert_eq!(s.num_locals(), 1);
        assert_eq!(re, row_of(&[1, -4, 0]));
        assert_eq!(rf, row_of(&[0, 1, 0]));
        // d0 = 9: q = 2.
        assert!(s.contains(&[9, 2]) && !s.contains(&[9, 1]));
    }

    #[test]
    fn semi_affine_is_refused() {
        let mut s = IntegerSystem::new(1, 1, 0);
        let mut locals = LocalDivisions::default();
        let e = AffineExpr::Dim(0).times(AffineExpr::Symbol(0));
        let mut fl = Flattener {
            system: &mut s,
            dims: &[0],
            symbols: &[1],
            locals: &mut locals,
        };
        assert!(fl.flatten(&e).is_none());
    }
}
