//! The generic passes: canonicalize, cse, symbol-dce, symbol-privatize,
//! loop-invariant-code-motion, control-flow-sink, sccp, strip-debuginfo
//! (and, from `conversion`, reconcile-unrealized-casts), registered under
//! mlir-opt's names.

mod canonicalize;
mod cf_sink;
mod cse;
mod licm;
mod sccp;
mod sccp_calls;
mod strip_debuginfo;
mod symbol_dce;

pub use canonicalize::CANONICALIZE;
pub use cf_sink::{sink_into_conditional_regions, CONTROL_FLOW_SINK};
pub use cse::{eliminate_common_subexpressions, merge_equivalent_ops, CSE};
pub use licm::{hoist_loop_invariants, LICM};
pub use sccp::{executable_blocks, propagate_constants, SCCP};
pub use strip_debuginfo::{strip_debuginfo, STRIP_DEBUGINFO};
pub use symbol_dce::{SYMBOL_DCE, SYMBOL_PRIVATIZE};

use crate::pass::PassInfo;

/// The passes this crate defines.
pub static PASSES: &[&PassInfo] = &[
    &CANONICALIZE,
    &CSE,
    &SYMBOL_DCE,
    &SYMBOL_PRIVATIZE,
    &LICM,
    &CONTROL_FLOW_SINK,
    &SCCP,
    &STRIP_DEBUGINFO,
    &crate::conversion::RECONCILE_UNREALIZED_CASTS,
];
