//! Software-level dialects on `silica-ir`'s declarative op definitions.
//! Today: `arith` and `func` (cf, scf and memref follow).

pub mod arith;
pub mod func;
