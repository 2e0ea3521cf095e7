//! Software-level dialects on `silica-ir`'s declarative op definitions.
//! Today: `arith`. (func, cf, scf and memref follow.)

pub mod arith;
