//! GPU code from the kernels `silica hls` takes: the `gpu` dialect
//! ([`dialect`]) and the `nvvm` dialect ([`nvvm`]), with mlir-opt-22's
//! syntax, for the ops the way from parallel loops to NVVM produces and
//! consumes; the passes of that way ([`passes`]); the device module, its
//! LLVM IR and PTX ([`device`]); and `silica gpu`'s flow ([`flow`]).

pub mod cpu;
pub mod device;
pub mod dialect;
pub mod flow;
pub mod host;
pub mod nvvm;
pub mod passes;
pub mod runtime;
pub mod threads;

pub use dialect::GPU;
pub use nvvm::NVVM;
