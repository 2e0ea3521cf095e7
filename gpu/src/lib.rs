//! GPU code from the kernels `silica hls` takes: the `gpu` dialect
//! ([`dialect`]) and the `nvvm` dialect ([`nvvm`]), with mlir-opt-22's
//! syntax, for the ops the way from parallel loops to NVVM produces and
//! consumes.

pub mod dialect;
pub mod nvvm;
pub mod passes;

pub use dialect::GPU;
pub use nvvm::NVVM;
