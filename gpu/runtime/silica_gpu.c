/* The driver layer of silica_gpu.h over the CUDA driver API, loaded with
   dlopen: libcuda.so.1, or the library SILICA_CUDA_LIBRARY names. Set
   SILICA_GPU_TRACE to print each launch on stderr ("silica gpu: ..."). */
#include "silica_gpu.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef int CUdevice;
typedef void* CUcontext;
typedef void* CUmodule;
typedef void* CUfunction;
typedef unsigned long long CUdeviceptr;

static struct {
  CUresult (*init)(unsigned);
  CUresult (*device_get)(CUdevice*, int);
  CUresult (*primary_retain)(CUcontext*, CUdevice);
  CUresult (*ctx_set_current)(CUcontext);
  CUresult (*module_load_data)(CUmodule*, const void*);
  CUresult (*module_get_function)(CUfunction*, CUmodule, const char*);
  CUresult (*mem_alloc)(CUdeviceptr*, size_t);
  CUresult (*mem_free)(CUdeviceptr);
  CUresult (*htod)(CUdeviceptr, const void*, size_t);
  CUresult (*dtoh)(void*, CUdeviceptr, size_t);
  CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                     unsigned, void*, void**, void**);
  CUresult (*synchronize)(void);
  CUresult (*error_string)(CUresult, const char**);
} cu;

static CUmodule module;
static int trace;

static void fail(const char* what, const char* detail) {
  fprintf(stderr, "silica gpu: error: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  exit(SILICA_GPU_EXIT);
}

static void check(CUresult r, const char* call) {
  if (r == 0) return;
  const char* text = NULL;
  if (cu.error_string) cu.error_string(r, &text);
  char detail[256];
  snprintf(detail, sizeof detail, "%s failed with CUDA error %d (%s)", call, r,
           text ? text : "no description");
  fail("the GPU", detail);
}

static void* symbol(void* library, const char* name) {
  void* f = dlsym(library, name);
  if (!f) fail("the CUDA driver has no function", name);
  return f;
}

static void open_driver(void) {
  const char* name = getenv("SILICA_CUDA_LIBRARY");
  if (!name || !*name) name = "libcuda.so.1";
  void* library = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
  if (!library) fail("no CUDA driver (install the NVIDIA driver, or set SILICA_CUDA_LIBRARY)", dlerror());
  *(void**)&cu.init = symbol(library, "cuInit");
  *(void**)&cu.device_get = symbol(library, "cuDeviceGet");
  *(void**)&cu.primary_retain = symbol(library, "cuDevicePrimaryCtxRetain");
  *(void**)&cu.ctx_set_current = symbol(library, "cuCtxSetCurrent");
  *(void**)&cu.module_load_data = symbol(library, "cuModuleLoadData");
  *(void**)&cu.module_get_function = symbol(library, "cuModuleGetFunction");
  *(void**)&cu.mem_alloc = symbol(library, "cuMemAlloc_v2");
  *(void**)&cu.mem_free = symbol(library, "cuMemFree_v2");
  *(void**)&cu.htod = symbol(library, "cuMemcpyHtoD_v2");
  *(void**)&cu.dtoh = symbol(library, "cuMemcpyDtoH_v2");
  *(void**)&cu.launch = symbol(library, "cuLaunchKernel");
  *(void**)&cu.synchronize = symbol(library, "cuCtxSynchronize");
  *(void**)&cu.error_string = symbol(library, "cuGetErrorString");
}

void silica_gpu_load(const char* ptx) {
  if (module) return;
  trace = getenv("SILICA_GPU_TRACE") != NULL;
  open_driver();
  CUdevice device;
  CUcontext context;
  check(cu.init(0), "cuInit");
  check(cu.device_get(&device, 0), "cuDeviceGet");
  check(cu.primary_retain(&context, device), "cuDevicePrimaryCtxRetain");
  check(cu.ctx_set_current(context), "cuCtxSetCurrent");
  check(cu.module_load_data(&module, ptx), "cuModuleLoadData");
}

/* A memref argument on the device: its buffer and the kernel's
   parameters of its descriptor. */
typedef struct {
  CUdeviceptr buffer;
  void* host;
  size_t bytes;
  int64_t fields[2 + 1 + 2 * 8];
} Memref;

void silica_gpu_launch(const char* kernel, int64_t gx, int64_t gy, int64_t gz, int64_t bx,
                       int64_t by, int64_t bz, int32_t count, void** args,
                       const int64_t* kinds) {
  if (!module) fail("a kernel launched before its module was loaded", kernel);
  /* A loop of no iteration: an empty grid, which CUDA refuses, runs
     nothing. */
  if (gx <= 0 || gy <= 0 || gz <= 0 || bx <= 0 || by <= 0 || bz <= 0) {
    if (trace)
      fprintf(stderr, "silica gpu: %s on %lldx%lldx%lld blocks of %lldx%lldx%lld threads: empty, not launched\n",
              kernel, (long long)gx, (long long)gy, (long long)gz, (long long)bx, (long long)by,
              (long long)bz);
    return;
  }
  CUfunction function;
  check(cu.module_get_function(&function, module, kernel), "cuModuleGetFunction");
  Memref* memrefs = calloc(count ? count : 1, sizeof(Memref));
  void** params = calloc(count * (3 + 2 * 8) + 1, sizeof(void*));
  if (!memrefs || !params) fail("out of host memory", NULL);
  int n = 0;
  for (int i = 0; i < count; i++) {
    if (kinds[i] == SILICA_GPU_SCALAR) {
      params[n++] = args[i];
      continue;
    }
    int64_t rank = kinds[i] >> 8, element = kinds[i] & 0xff;
    if (rank > 8) fail("a memref of rank above 8", kernel);
    const int64_t* d = (const int64_t*)args[i];
    /* {allocated, aligned, offset, sizes, strides}: the aligned data
       from element 0 to the last the sizes reach. */
    int64_t elements = d[2];
    int64_t extent = 1;
    for (int64_t r = 0; r < rank; r++) extent *= d[3 + r];
    elements += extent;
    Memref* m = &memrefs[i];
    m->host = (void*)(intptr_t)d[1];
    m->bytes = (size_t)(elements > 0 ? elements : 0) * (size_t)element;
    check(cu.mem_alloc(&m->buffer, m->bytes ? m->bytes : 1), "cuMemAlloc");
    if (m->bytes) check(cu.htod(m->buffer, m->host, m->bytes), "cuMemcpyHtoD");
    m->fields[0] = (int64_t)m->buffer;
    m->fields[1] = (int64_t)m->buffer;
    for (int64_t f = 2; f < 3 + 2 * rank; f++) m->fields[f] = d[f];
    for (int64_t f = 0; f < 3 + 2 * rank; f++) params[n++] = &m->fields[f];
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  check(cu.launch(function, (unsigned)gx, (unsigned)gy, (unsigned)gz, (unsigned)bx, (unsigned)by,
                  (unsigned)bz, 0, NULL, params, NULL),
        "cuLaunchKernel");
  check(cu.synchronize(), "cuCtxSynchronize");
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (trace)
    fprintf(stderr, "silica gpu: %s on %lldx%lldx%lld blocks of %lldx%lldx%lld threads: %.3f ms\n",
            kernel, (long long)gx, (long long)gy, (long long)gz, (long long)bx, (long long)by,
            (long long)bz, (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
  for (int i = 0; i < count; i++) {
    if (kinds[i] == SILICA_GPU_SCALAR) continue;
    Memref* m = &memrefs[i];
    if (m->bytes) check(cu.dtoh(m->host, m->buffer, m->bytes), "cuMemcpyDtoH");
    check(cu.mem_free(m->buffer), "cuMemFree");
  }
  free(params);
  free(memrefs);
}
