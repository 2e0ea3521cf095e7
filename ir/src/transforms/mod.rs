//! The generic passes: canonicalize, cse, symbol-dce, symbol-privatize
//! (and, from `conversion`, reconcile-unrealized-casts), registered under
//! mlir-opt's names.

mod canonicalize;
mod cse;
mod licm;
mod symbol_dce;

pub use canonicalize::CANONICALIZE;
pub use cse::{eliminate_common_subexpressions, CSE};
pub use licm::{hoist_loop_invariants, LICM};
pub use symbol_dce::{SYMBOL_DCE, SYMBOL_PRIVATIZE};

use crate::pass::PassInfo;

/// The passes this crate defines.
pub static PASSES: &[&PassInfo] = &[
    &CANONICALIZE,
    &CSE,
    &SYMBOL_DCE,
    &SYMBOL_PRIVATIZE,
    &LICM,
    &crate::conversion::RECONCILE_UNREALIZED_CASTS,
];
