//! The flow, one module per stage in the order a kernel passes through
//! them: `front` (the kernel lifted from MLIR, directives applied),
//! `analysis` (value ranges, dependences, trip counts, bounds),
//! `schedule` (float latencies, list and modulo scheduling, the static
//! figures), `rewrite` (e-graph datapath rewriting), `construct` (the
//! circuit as hw/comb/seq IR), `estimate` (resources and clock from the
//! operator library), `fit` (sharing units to fit the device) and
//! `report` (`F.json`, `report.txt`). `design` holds the design as each
//! stage leaves it, `run` drives the stages, `lower_bound` and `lifts`
//! bound a design before scheduling (`silica dse`'s pruning).

pub mod analysis;
pub mod construct;
pub mod design;
pub mod estimate;
pub mod fit;
pub mod front;
pub mod lifts;
pub mod lower_bound;
pub mod report;
pub mod rewrite;
pub mod run;
pub mod schedule;
