//! Integer constraint systems (Presburger sets without disjunction) for
//! the polyhedral analyses of the affine layer: dependence analysis,
//! loop transformation legality, data copy generation, the HLS flow.
//!
//! # Model
//!
//! An [`IntegerSystem`] is a conjunction of affine equalities
//! `row · x + c == 0` and inequalities `row · x + c >= 0` over integer
//! variables in three kinds, in this column order: dimensions
//! ([`VarKind::Dim`]), symbols ([`VarKind::Symbol`]) and local variables
//! ([`VarKind::Local`], existentially quantified, e.g. the quotient of a
//! `floordiv`). A row has one coefficient per variable and the constant
//! last. Coefficients are [`Int`]s: `i64` while they fit, `BigInt` beyond,
//! so no arithmetic overflows silently.
//!
//! # Building
//!
//! * by hand: [`IntegerSystem::new`], [`IntegerSystem::add_equality`],
//!   [`IntegerSystem::add_inequality`], [`IntegerSystem::add_bound`],
//!   [`IntegerSystem::add_local_floor_div`], [`IntegerSystem::insert_vars`],
//!   [`IntegerSystem::append_vars`], [`IntegerSystem::convert_vars`];
//! * from affine expressions: [`Flattener`] turns an `AffineExpr` into a
//!   row, adding locals for `floordiv`/`ceildiv`/`mod`;
//! * from the IR: [`ValueSystem`] keeps the SSA value of each dimension
//!   and symbol and adds the domain of `affine.for` loops (constant,
//!   symbolic, affine, `max`/`min` bounds; a non-unit step with a constant
//!   lower bound as `iv = lb + step * q`), of `affine.if` conditions, and
//!   constraints from affine maps over SSA operands (`affine.apply`
//!   producers composed, constants folded).
//!
//! # Queries
//!
//! * [`IntegerSystem::is_empty`]: exact integer emptiness (GCD
//!   normalization, Gaussian elimination with unit coefficients, exact
//!   Fourier–Motzkin steps, then branch-and-bound on an exact rational
//!   simplex); `true` is always a proof. [`IntegerSystem::integer_sample`]
//!   returns an integer point.
//! * [`IntegerSystem::project_out`]: Fourier–Motzkin projection (reports
//!   whether it was exact over the integers; otherwise the result is the
//!   GCD-tightened real shadow, a superset).
//! * [`IntegerSystem::constant_bound`] (the shadow bound MLIR computes)
//!   and [`IntegerSystem::exact_constant_bound`] (the integer optimum).
//! * [`IntegerSystem::var_bounds`]: lower/upper bound expressions of a
//!   variable in terms of chosen others ([`BoundExpr`]: `ceil`/`floor` of
//!   an affine form over a divisor), as MLIR's `getLowerAndUpperBound`.
//! * [`IntegerSystem::normalize`] / [`IntegerSystem::remove_duplicate_constraints`]
//!   (GCD tightening, duplicates, opposite pairs to equalities) and
//!   [`IntegerSystem::remove_redundant_constraints`] (inequalities the
//!   others imply on every integer point, by the rational simplex).
//! * [`rational_point`] / [`rational_minimum`]: the exact rational simplex
//!   underneath.

mod bounds;
mod eliminate;
mod emptiness;
mod flatten;
mod int;
mod normalize;
mod rational;
mod redundancy;
mod simplex;
mod system;
mod values;

#[cfg(test)]
mod proptests;
#[cfg(test)]
pub(crate) mod test_ir;

pub use bounds::{BoundExpr, VarBounds};
pub use emptiness::Sample;
pub use flatten::{Flattener, LocalDivisions};
pub use int::Int;
pub use normalize::Empty;
pub use simplex::{rational_minimum, rational_point, Optimum};
pub use system::{row_of, BoundKind, IntegerSystem, VarKind};
pub use values::{compose_operands, loop_of_iv, map_attr, DomainError, ValueSystem};
