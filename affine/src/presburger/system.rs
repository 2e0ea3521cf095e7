//! The constraint system itself: integer variables in three kinds
//! (dimensions, then symbols, then local variables, in that column order,
//! followed by the constant column), equalities `row · x + c == 0` and
//! inequalities `row · x + c >= 0`, and the operations that edit its
//! columns and rows.

use super::int::Int;

/// What a variable stands for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VarKind {
    /// A dimension (a loop induction variable, an access subscript, ...).
    Dim,
    /// A symbol: a value fixed for the whole system (a parameter).
    Symbol,
    /// A local (existentially quantified) variable, e.g. the quotient of a
    /// `floordiv`/`mod`/`ceildiv`.
    Local,
}

/// Lower or upper.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum BoundKind {
    Lower,
    Upper,
}

/// A system of affine equalities and inequalities over integer variables.
///
/// Rows have `num_vars() + 1` entries; the last one is the constant.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct IntegerSystem {
    pub(super) num_dims: usize,
    pub(super) num_symbols: usize,
    pub(super) num_locals: usize,
    pub(super) equalities: Vec<Vec<Int>>,
    pub(super) inequalities: Vec<Vec<Int>>,
}

/// A row of `i64` coefficients as exact integers.
pub fn row_of(coefficients: &[i64]) -> Vec<Int> {
    coefficients.iter().map(|&c| Int::from(c)).collect()
}

impl IntegerSystem {
    /// The unconstrained system with that many variables of each kind.
    pub fn new(num_dims: usize, num_symbols: usize, num_locals: usize) -> Self {
        IntegerSystem {
            num_dims,
            num_symbols,
            num_locals,
            equalities: Vec::new(),
            inequalities: Vec::new(),
        }
    }

    pub fn num_dims(&self) -> usize {
        self.num_dims
    }

    pub fn num_symbols(&self) -> usize {
        self.num_symbols
    }

    pub fn num_locals(&self) -> usize {
        self.num_locals
    }

    /// Dimensions, symbols and locals together.
    pub fn num_vars(&self) -> usize {
        self.num_dims + self.num_symbols + self.num_locals
    }

    /// The number of entries of a row (variables and the constant).
    pub fn num_cols(&self) -> usize {
        self.num_vars() + 1
    }

    /// The kind of the variable in column `pos`.
    pub fn var_kind(&self, pos: usize) -> VarKind {
        if pos < self.num_dims {
            VarKind::Dim
        } else if pos < self.num_dims + self.num_symbols {
            VarKind::Symbol
        } else {
            VarKind::Local
        }
    }

    /// The column of the first variable of `kind`.
    pub fn kind_start(&self, kind: VarKind) -> usize {
        match kind {
            VarKind::Dim => 0,
            VarKind::Symbol => self.num_dims,
            VarKind::Local => self.num_dims + self.num_symbols,
        }
    }

    /// The number of variables of `kind`.
    pub fn num_of(&self, kind: VarKind) -> usize {
        match kind {
            VarKind::Dim => self.num_dims,
            VarKind::Symbol => self.num_symbols,
            VarKind::Local => self.num_locals,
        }
    }

    /// The equalities (`row · x + c == 0`).
    pub fn equalities(&self) -> &[Vec<Int>] {
        &self.equalities
    }

    /// The inequalities (`row · x + c >= 0`).
    pub fn inequalities(&self) -> &[Vec<Int>] {
        &self.inequalities
    }

    pub fn num_constraints(&self) -> usize {
        self.equalities.len() + self.inequalities.len()
    }

    /// Adds `row · x + c == 0` (`row` has `num_cols()` entries; a shorter
    /// row is treated as its coefficients followed by zeros, the constant
    /// being its last entry).
    pub fn add_equality(&mut self, row: &[i64]) {
        let row = self.fit(row_of(row));
        self.equalities.push(row);
    }

    /// Adds `row · x + c >= 0` (see [`IntegerSystem::add_equality`]).
    pub fn add_inequality(&mut self, row: &[i64]) {
        let row = self.fit(row_of(row));
        self.inequalities.push(row);
    }

    /// [`IntegerSystem::add_equality`] with exact coefficients.
    pub fn add_equality_int(&mut self, row: Vec<Int>) {
        let row = self.fit(row);
        self.equalities.push(row);
    }

    /// [`IntegerSystem::add_inequality`] with exact coefficients.
    pub fn add_inequality_int(&mut self, row: Vec<Int>) {
        let row = self.fit(row);
        self.inequalities.push(row);
    }

    /// Widens a row to `num_cols()` entries keeping its constant last.
    fn fit(&self, mut row: Vec<Int>) -> Vec<Int> {
        let n = self.num_cols();
        if row.len() < n {
            let c = row.pop().unwrap_or_default();
            row.resize(n - 1, Int::ZERO);
            row.push(c);
        }
        row.truncate(n);
        row
    }

    /// Adds `x_pos >= value` or `x_pos <= value`.
    pub fn add_bound(&mut self, pos: usize, kind: BoundKind, value: i64) {
        let mut row = vec![Int::ZERO; self.num_cols()];
        let v = Int::from(value);
        match kind {
            BoundKind::Lower => {
                row[pos] = Int::ONE;
                row[self.num_vars()] = -v;
            }
            BoundKind::Upper => {
                row[pos] = Int::from(-1);
                row[self.num_vars()] = v;
            }
        }
        self.inequalities.push(row);
    }

    /// Adds a local `q = floor(dividend · x / divisor)` (`divisor > 0`)
    /// through `divisor * q <= dividend · x <= divisor * q + divisor - 1`,
    /// and returns its column. `dividend` is a row of the system before
    /// the local is added.
    pub fn add_local_floor_div(&mut self, dividend: &[Int], divisor: i64) -> usize {
        let col = self.append_vars(VarKind::Local, 1);
        // Locals are the last variables: widening puts the new column
        // right before the constant.
        let mut lower = self.fit(dividend.to_vec());
        let d = Int::from(divisor);
        // dividend - divisor * q >= 0
        lower[col] = &lower[col] - &d;
        // divisor * q + divisor - 1 - dividend >= 0
        let mut upper: Vec<Int> = lower.iter().map(|v| -v).collect();
        let last = upper.len() - 1;
        upper[last] = &upper[last] + &(&d - &Int::ONE);
        self.inequalities.push(lower);
        self.inequalities.push(upper);
        col
    }

    /// Inserts `count` variables of `kind` at position `at` among the
    /// variables of that kind; returns the column of the first one.
    pub fn insert_vars(&mut self, kind: VarKind, at: usize, count: usize) -> usize {
        let col = self.kind_start(kind) + at.min(self.num_of(kind));
        for row in self
            .equalities
            .iter_mut()
            .chain(self.inequalities.iter_mut())
        {
            row.splice(col..col, std::iter::repeat_n(Int::ZERO, count));
        }
        match kind {
            VarKind::Dim => self.num_dims += count,
            VarKind::Symbol => self.num_symbols += count,
            VarKind::Local => self.num_locals += count,
        }
        col
    }

    /// Appends `count` variables of `kind`; returns the first one's column.
    pub fn append_vars(&mut self, kind: VarKind, count: usize) -> usize {
        self.insert_vars(kind, usize::MAX, count)
    }

    /// Removes the column `pos` from every row (the variable's
    /// coefficients are dropped: only meaningful when they are zero, or
    /// after [`IntegerSystem::project_out`] chose to).
    pub(super) fn remove_column(&mut self, pos: usize) {
        for row in self
            .equalities
            .iter_mut()
            .chain(self.inequalities.iter_mut())
        {
            row.remove(pos);
        }
        match self.var_kind(pos) {
            VarKind::Dim => self.num_dims -= 1,
            VarKind::Symbol => self.num_symbols -= 1,
            VarKind::Local => self.num_locals -= 1,
        }
    }

    /// Swaps the columns of two variables (their kinds stay with the
    /// positions).
    pub fn swap_vars(&mut self, a: usize, b: usize) {
        for row in self
            .equalities
            .iter_mut()
            .chain(self.inequalities.iter_mut())
        {
            row.swap(a, b);
        }
    }

    /// Turns `count` variables starting at column `pos` (all of one kind)
    /// into variables of `kind`, appended after that kind's variables
    /// (their constraints are kept).
    pub fn convert_vars(&mut self, pos: usize, count: usize, kind: VarKind) {
        for _ in 0..count {
            let at = self.insert_vars(kind, usize::MAX, 1);
            let from = if at <= pos { pos + 1 } else { pos };
            for row in self
                .equalities
                .iter_mut()
                .chain(self.inequalities.iter_mut())
            {
                let v = std::mem::take(&mut row[from]);
                row[at] = v;
            }
            self.remove_column(from);
        }
    }

    /// Adds every constraint of `other` (which has the same variables).
    pub fn append(&mut self, other: &IntegerSystem) {
        self.equalities.extend(other.equalities.iter().cloned());
        self.inequalities.extend(other.inequalities.iter().cloned());
    }

    /// Whether an integer point (one value per variable) satisfies every
    /// constraint.
    pub fn contains(&self, point: &[i64]) -> bool {
        let value = |row: &[Int]| {
            let mut s = row[row.len() - 1].clone();
            for (c, &p) in row.iter().zip(point) {
                if !c.is_zero() {
                    s = &s + &(c * &Int::from(p));
                }
            }
            s
        };
        self.equalities.iter().all(|r| value(r).is_zero())
            && self.inequalities.iter().all(|r| !value(r).is_negative())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_follow_kinds() {
        let mut s = IntegerSystem::new(1, 1, 0);
        s.add_inequality(&[1, -1, 0]); // d0 >= s0
        let l = s.append_vars(VarKind::Local, 1);
        assert_eq!(l, 2);
        let d = s.insert_vars(VarKind::Dim, 0, 1);
        assert_eq!(d, 0);
        assert_eq!(s.inequalities()[0], row_of(&[0, 1, -1, 0, 0]));
        assert_eq!(s.var_kind(2), VarKind::Symbol);
        assert_eq!(s.var_kind(3), VarKind::Local);
    }

    #[test]
    fn floor_div_local_pins_the_quotient() {
        // q = floor(d0 / 4) with d0 = 9.
        let mut s = IntegerSystem::new(1, 0, 0);
        s.add_equality(&[1, -9]);
        let q = s.add_local_floor_div(&row_of(&[1, 0]), 4);
        assert_eq!(q, 1);
        assert!(s.contains(&[9, 2]));
        assert!(!s.contains(&[9, 1]));
        assert!(!s.contains(&[9, 3]));
    }

    #[test]
    fn converting_dims_to_symbols_keeps_constraints() {
        let mut s = IntegerSystem::new(2, 0, 0);
        s.add_inequality(&[1, 2, 3]);
        s.convert_vars(0, 1, VarKind::Symbol);
        assert_eq!((s.num_dims(), s.num_symbols()), (1, 1));
        assert_eq!(s.inequalities()[0], row_of(&[2, 1, 3]));
    }
}
