/* A CUDA driver of silica's own for tests without a GPU: the entry
   points silica_gpu.c loads, over host memory, running a kernel's CPU
   build (F.cpu.ll, linked into this library) block by block and thread
   by thread: cuModuleGetFunction finds `<kernel>_silica_cpu`, which
   calls the kernel with the launch's parameters; the kernel reads its
   ids through silica_fake_cuda_register. Kernels that wait at a barrier
   cannot run this way (threads run one after another): such a launch
   fails. The device library's functions (__nv_sqrtf, ...) are libm's.

   SILICA_FAKE_CUDA_FAIL=<entry point> makes that entry point fail, to
   test the driver layer's errors; SILICA_FAKE_CUDA_NO_DEVICE=1 makes
   cuDeviceGet find none. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
enum { SUCCESS = 0, ERROR_INVALID_VALUE = 1, ERROR_NO_DEVICE = 100, ERROR_NOT_FOUND = 500,
       ERROR_LAUNCH_FAILED = 719 };

static int fails(const char* entry) {
  const char* f = getenv("SILICA_FAKE_CUDA_FAIL");
  return f && strcmp(f, entry) == 0;
}

#define FAIL_IF_ASKED(entry) \
  if (fails(entry)) return ERROR_INVALID_VALUE

/* The registers of the thread that runs: tid, ntid, ctaid, nctaid (x,
   y, z each), the lane id and the warp size (nvvm::REGISTERS' order). */
static int32_t registers[14];
static int barrier_reached;

int32_t silica_fake_cuda_register(int32_t n) { return n >= 0 && n < 14 ? registers[n] : 0; }
void silica_fake_cuda_barrier(void) { barrier_reached = 1; }

CUresult cuInit(unsigned flags) {
  (void)flags;
  FAIL_IF_ASKED("cuInit");
  return SUCCESS;
}
CUresult cuDeviceGet(int* device, int ordinal) {
  FAIL_IF_ASKED("cuDeviceGet");
  if (getenv("SILICA_FAKE_CUDA_NO_DEVICE") || ordinal != 0) return ERROR_NO_DEVICE;
  *device = 0;
  return SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(void** context, int device) {
  (void)device;
  FAIL_IF_ASKED("cuDevicePrimaryCtxRetain");
  *context = (void*)1;
  return SUCCESS;
}
CUresult cuCtxSetCurrent(void* context) {
  (void)context;
  FAIL_IF_ASKED("cuCtxSetCurrent");
  return SUCCESS;
}
CUresult cuModuleLoadData(void** module, const void* image) {
  FAIL_IF_ASKED("cuModuleLoadData");
  if (!image || strstr((const char*)image, ".entry") == NULL) return ERROR_INVALID_VALUE;
  *module = (void*)1;
  return SUCCESS;
}

typedef void (*Entry)(void**);

CUresult cuModuleGetFunction(void** function, void* module, const char* name) {
  (void)module;
  FAIL_IF_ASKED("cuModuleGetFunction");
  char symbol[256];
  snprintf(symbol, sizeof symbol, "%s_silica_cpu", name);
  void* f = dlsym(RTLD_DEFAULT, symbol);
  if (!f) return ERROR_NOT_FOUND;
  *function = f;
  return SUCCESS;
}
CUresult cuMemAlloc_v2(unsigned long long* ptr, size_t bytes) {
  FAIL_IF_ASKED("cuMemAlloc_v2");
  void* p = malloc(bytes ? bytes : 1);
  if (!p) return 2;
  *ptr = (unsigned long long)(uintptr_t)p;
  return SUCCESS;
}
CUresult cuMemFree_v2(unsigned long long ptr) {
  FAIL_IF_ASKED("cuMemFree_v2");
  free((void*)(uintptr_t)ptr);
  return SUCCESS;
}
CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void* src, size_t bytes) {
  FAIL_IF_ASKED("cuMemcpyHtoD_v2");
  memcpy((void*)(uintptr_t)dst, src, bytes);
  return SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void* dst, unsigned long long src, size_t bytes) {
  FAIL_IF_ASKED("cuMemcpyDtoH_v2");
  memcpy(dst, (const void*)(uintptr_t)src, bytes);
  return SUCCESS;
}
CUresult cuLaunchKernel(void* function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, void* stream, void** params,
                        void** extra) {
  (void)shared, (void)stream, (void)extra;
  FAIL_IF_ASKED("cuLaunchKernel");
  if (!gx || !gy || !gz || !bx || !by || !bz) return ERROR_INVALID_VALUE;
  Entry entry = (Entry)function;
  unsigned grid[3] = {gx, gy, gz}, block[3] = {bx, by, bz};
  for (int d = 0; d < 3; d++) {
    registers[3 + d] = (int32_t)block[d];
    registers[9 + d] = (int32_t)grid[d];
  }
  registers[13] = 32;
  barrier_reached = 0;
  for (unsigned cz = 0; cz < gz; cz++)
    for (unsigned cy = 0; cy < gy; cy++)
      for (unsigned cx = 0; cx < gx; cx++)
        for (unsigned tz = 0; tz < bz; tz++)
          for (unsigned ty = 0; ty < by; ty++)
            for (unsigned tx = 0; tx < bx; tx++) {
              registers[0] = (int32_t)tx, registers[1] = (int32_t)ty, registers[2] = (int32_t)tz;
              registers[6] = (int32_t)cx, registers[7] = (int32_t)cy, registers[8] = (int32_t)cz;
              registers[12] = (int32_t)((tx + bx * (ty + by * tz)) % 32);
              entry(params);
              if (barrier_reached) return ERROR_LAUNCH_FAILED;
            }
  return SUCCESS;
}
CUresult cuCtxSynchronize(void) {
  FAIL_IF_ASKED("cuCtxSynchronize");
  return SUCCESS;
}
CUresult cuGetErrorString(CUresult error, const char** text) {
  switch (error) {
    case ERROR_INVALID_VALUE: *text = "invalid argument (fake driver)"; break;
    case ERROR_NO_DEVICE: *text = "no CUDA-capable device is detected (fake driver)"; break;
    case ERROR_NOT_FOUND: *text = "named symbol not found (fake driver)"; break;
    case ERROR_LAUNCH_FAILED: *text = "a kernel waited at a barrier, which the fake driver cannot run"; break;
    default: *text = "unknown error (fake driver)";
  }
  return SUCCESS;
}

/* The device library, as libm (weak: a kernel's CPU build defines those
   the device module maps to intrinsics). */
#define WEAK __attribute__((weak))
#define UNARY(name, fn) \
  WEAK float __nv_##name##f(float x) { return fn##f(x); } \
  WEAK double __nv_##name(double x) { return fn(x); }
#define BINARY(name, fn) \
  WEAK float __nv_##name##f(float x, float y) { return fn##f(x, y); } \
  WEAK double __nv_##name(double x, double y) { return fn(x, y); }
UNARY(sqrt, sqrt) UNARY(exp, exp) UNARY(log, log) UNARY(fabs, fabs) UNARY(tanh, tanh)
UNARY(sin, sin) UNARY(cos, cos) UNARY(floor, floor) UNARY(exp2, exp2) UNARY(log2, log2)
UNARY(ceil, ceil) UNARY(log1p, log1p) UNARY(expm1, expm1) UNARY(erf, erf) UNARY(tan, tan)
UNARY(atan, atan) UNARY(round, round) UNARY(cbrt, cbrt) UNARY(log10, log10) UNARY(asin, asin)
UNARY(acos, acos) UNARY(sinh, sinh) UNARY(cosh, cosh) UNARY(atanh, atanh) UNARY(asinh, asinh)
UNARY(acosh, acosh)
BINARY(pow, pow) BINARY(atan2, atan2) BINARY(copysign, copysign)
WEAK float __nv_rsqrtf(float x) { return 1.0f / sqrtf(x); }
WEAK double __nv_rsqrt(double x) { return 1.0 / sqrt(x); }
WEAK float __nv_fmaf(float x, float y, float z) { return fmaf(x, y, z); }
WEAK double __nv_fma(double x, double y, double z) { return fma(x, y, z); }
