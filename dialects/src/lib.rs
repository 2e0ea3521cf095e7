//! Software-level dialects on `silica-ir`'s declarative op definitions:
//! `arith`, `func`, `cf`, `math`, `index` and `scf` (memref follows).

pub mod arith;
pub mod cf;
pub mod func;
pub mod index;
pub mod math;
pub mod scf;
