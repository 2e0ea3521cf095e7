//! Analyses of the kernel model: a lower bound on the latency before
//! scheduling (`bound`), a static model of the cycles of kernels with DMA
//! (`dma_timing`), value ranges and the `index` width
//! (`ranges`), memory dependences carried across loop iterations
//! (`deps`), trip counts and static latency (`trips`), the
//! multiplications executed over a run (`muls`).

pub mod bound;
pub mod deps;
pub mod dma_timing;
pub mod muls;
pub mod ranges;
pub mod trips;
