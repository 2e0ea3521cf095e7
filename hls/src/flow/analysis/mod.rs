//! Analyses of the lifted kernel, before scheduling: value ranges and
//! the `index` width (`ranges`), memory dependences carried across loop
//! iterations (`deps`), a lower bound on the latency and area
//! (`bound`), the multiplications executed over a run (`muls`), the
//! forms of products by constants (`constant_product`, factored into
//! stages of fewer adds by `adder_chain`), the DMA
//! engines the transfers need (`dma_engines`) and the work a kernel must
//! do (`work`: operations and footprint, for the roofline, each operation
//! once per value it computes: `support`), and what it
//! offers to parallelise (`profile`, for `--auto`'s space).

pub mod adder_chain;
pub mod bound;
pub mod constant_product;
pub mod deps;
pub mod dma_engines;
pub mod muls;
pub mod profile;
pub mod ranges;
pub mod support;
pub mod trips;
pub mod work;
