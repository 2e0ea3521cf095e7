//! The C sources of the run time, written beside the host side: the
//! driver layer's header and implementation over the CUDA driver API,
//! and the fake CUDA driver that runs a kernel's CPU build.

/// `silica_gpu.h`.
pub const HEADER: &str = include_str!("../runtime/silica_gpu.h");
/// `silica_gpu.c`: the driver layer.
pub const DRIVER: &str = include_str!("../runtime/silica_gpu.c");
/// `fake_cuda.c`: the fake CUDA driver.
pub const FAKE_CUDA: &str = include_str!("../runtime/fake_cuda.c");
/// The exit status of a program whose GPU side failed (`SILICA_GPU_EXIT`).
pub const EXIT_STATUS: i32 = 70;
