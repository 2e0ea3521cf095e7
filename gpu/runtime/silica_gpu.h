/* The driver layer the host side of `silica gpu` (F_host.ll) calls: a
   kernel launch with its arguments, over the CUDA driver API, which it
   loads at run time (libcuda.so.1 from the NVIDIA driver, or the library
   SILICA_CUDA_LIBRARY names): nothing of the CUDA toolkit is needed to
   build. silica_gpu.c implements it; fake_cuda.c is a CUDA driver of its
   own that runs the kernels' CPU build, for tests without a GPU.

   Every launch copies the memrefs it takes to the device, runs, waits,
   and copies them back, so the host's code around the launches sees the
   kernel's writes. An error (no driver, no GPU, a failed call) prints
   "silica gpu: error: ..." on stderr and ends the program with the exit
   status SILICA_GPU_EXIT: never a crash. */
#ifndef SILICA_GPU_H
#define SILICA_GPU_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The exit status of a program whose GPU side failed. */
#define SILICA_GPU_EXIT 70

/* How argument i of a launch is passed (kinds[i]): 0, a scalar
   (args[i] points at its value); else a memref, (rank << 8) | element
   bytes, args[i] pointing at its host descriptor {allocated, aligned,
   offset, sizes[rank], strides[rank]} (an identity layout). */
#define SILICA_GPU_SCALAR 0

/* Loads the module of the kernels (PTX text) once per process. */
void silica_gpu_load(const char* ptx);

/* Launches `kernel` on a grid of blocks with `count` arguments. */
void silica_gpu_launch(const char* kernel, int64_t grid_x, int64_t grid_y, int64_t grid_z,
                       int64_t block_x, int64_t block_y, int64_t block_z, int32_t count,
                       void** args, const int64_t* kinds);

#ifdef __cplusplus
}
#endif

#endif
