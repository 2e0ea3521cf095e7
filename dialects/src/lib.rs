//! Software-level dialects on `silica-ir`'s declarative op definitions.
//! Today: `arith`, `func`, `cf`, `math` and `index` (scf and memref
//! follow).

pub mod arith;
pub mod cf;
pub mod func;
pub mod index;
pub mod math;
