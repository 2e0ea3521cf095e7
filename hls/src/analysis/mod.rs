//! Analyses of the kernel model: value ranges and the `index` width
//! (`ranges`), memory dependences carried across loop iterations
//! (`deps`), trip counts and static latency (`trips`).

pub mod deps;
pub mod ranges;
pub mod trips;
