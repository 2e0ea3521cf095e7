//! The flow, one module per stage in the order a kernel passes through
//! them: `front` (the kernel lifted from MLIR, directives applied),
//! `analysis` (value ranges, dependences, trip counts), `schedule`
//! (list and modulo scheduling), `rewrite` (e-graph datapath
//! rewriting), `construct` (the circuit as hw/comb/seq IR), `estimate`
//! (resources and clock from the operator library), `fit` (sharing
//! units to fit the device) and `report` (`F.json`, `report.txt`).

pub mod analysis;
pub mod construct;
pub mod estimate;
pub mod fit;
pub mod front;
pub mod lifts;
pub mod report;
pub mod rewrite;
pub mod schedule;
