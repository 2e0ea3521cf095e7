//! silica's core IR: the uniquing [`Context`], the operation graph ([`Ir`]),
//! the builtin dialect's types and attributes, MLIR's textual format
//! (parser and printer), the verifier and diagnostics.

pub mod affine;
pub mod affine_flatten;
mod affine_semi;
pub mod attrs;
pub mod builtin;
pub mod context;
pub mod conversion;
pub mod diag;
pub mod dialect;
pub mod dynamic;
pub mod float;
pub mod format;
pub mod graph;
pub mod irdl;
pub mod lexer;
pub mod parser;
pub mod pass;
pub mod printer;
pub mod resources;
pub mod rewrite;
pub mod symbols;
pub mod transforms;
pub mod types;
pub mod verify;
pub mod verify_diagnostics;

pub use attrs::{AttrKind, Location};
pub use context::{Attr, Context, Symbol, Type};
pub use diag::{Diagnostic, Severity};
pub use graph::{BlockId, Ir, OpId, OpSpec, RegionId, UseId, ValueDef, ValueId};
/// The exact integers of integer attributes.
pub use num_bigint::{BigInt, Sign};
pub use types::{Signedness, TypeKind};
