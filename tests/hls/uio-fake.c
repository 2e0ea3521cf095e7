/* A fake UIO device for the `uio` driver backend (tests/hls/uio.mlir):
   plain files stand for the register map and the DMA buffer, and a child
   process plays the accelerator axpy: it waits for ap_start, reads its
   arguments from the registers (offsets from axpy.h), computes on the
   buffer, writes result0 and sets ap_done. The host side is the
   generated stub (axpy_ciface) over hls/runtime/uio.c. Usage: uio-fake DIR. */
#include "axpy.h"
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int32_t axpy_ciface(int8_t* x, int32_t* y, int16_t* out, int64_t n, int64_t k, int32_t* result);

enum { REGS = 4096, MEMORY = 65536 };
static const uint64_t PHYS = 0x40000000;

static void* map_file(const char* path, size_t size) {
  int fd = open(path, O_RDWR | O_CREAT, 0600);
  if (fd < 0 || ftruncate(fd, (off_t)size) != 0) exit(10);
  void* p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) exit(11);
  return p;
}

static uint64_t reg64(volatile uint32_t* r, unsigned offset) {
  return r[offset / 4] | (uint64_t)r[offset / 4 + 1] << 32;
}

/* The accelerator: one run, then exit. */
static void device(const char* regs_path, const char* memory_path) {
  volatile uint32_t* r = map_file(regs_path, REGS);
  uint8_t* m = map_file(memory_path, MEMORY);
  time_t t0 = time(NULL);
  while (!(r[AXPY_CONTROL / 4] & AXPY_CONTROL_AP_START))
    if (time(NULL) - t0 > 10) exit(12);
  int8_t* x = (int8_t*)(m + (reg64(r, AXPY_ARG_X) - PHYS));
  int32_t* y = (int32_t*)(m + (reg64(r, AXPY_ARG_Y) - PHYS));
  int16_t* out = (int16_t*)(m + (reg64(r, AXPY_ARG_OUT) - PHYS));
  uint64_t n = reg64(r, AXPY_ARG_N);
  int32_t k = (int32_t)r[AXPY_ARG_K / 4];
  int32_t acc = 0;
  for (uint64_t i = 0; i < n; i++) {
    int32_t s = (int32_t)x[i] * k + y[i];
    out[i] = (int16_t)s;
    acc += s;
  }
  r[AXPY_RESULT0 / 4] = (uint32_t)acc;
  __sync_synchronize();
  r[AXPY_CONTROL / 4] = AXPY_CONTROL_AP_DONE | AXPY_CONTROL_AP_IDLE | AXPY_CONTROL_AP_READY;
  exit(0);
}

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  setvbuf(stdout, NULL, _IOLBF, 0);
  char regs[4096], memory[4096], size[32], phys[32], msize[32];
  snprintf(regs, sizeof regs, "%s/regs", argv[1]);
  snprintf(memory, sizeof memory, "%s/memory", argv[1]);
  snprintf(size, sizeof size, "%d", REGS);
  snprintf(msize, sizeof msize, "%d", MEMORY);
  snprintf(phys, sizeof phys, "%llx", (unsigned long long)PHYS);
  /* Fresh, zeroed files. */
  unlink(regs);
  unlink(memory);
  map_file(regs, REGS);
  map_file(memory, MEMORY);
  setenv("SILICA_UIO_SIZE", size, 1);
  setenv("SILICA_UIO_MEMORY", memory, 1);
  setenv("SILICA_UIO_MEMORY_SIZE", msize, 1);
  setenv("SILICA_UIO_MEMORY_PHYS", phys, 1);
  int8_t x[8];
  int32_t y[8];
  int16_t out[8];
  for (int i = 0; i < 8; i++) {
    x[i] = (int8_t)(3 * i + 1);
    y[i] = 4 * i;
    out[i] = -1;
  }
  int32_t result = 0;
  /* A device that runs. */
  setenv("SILICA_UIO_DEVICE", regs, 1);
  pid_t child = fork();
  if (child == 0) device(regs, memory);
  int32_t code = axpy_ciface(x, y, out, 6, 5, &result);
  int status = 0;
  waitpid(child, &status, 0);
  printf("code %d, device exit %d, result %d, out", code, WEXITSTATUS(status), result);
  for (int i = 0; i < 8; i++) printf(" %d", out[i]);
  printf("\n");
  volatile uint32_t* r = map_file(regs, REGS);
  printf("x at 0x%llx, y at 0x%llx, out at 0x%llx, n %llu, k %u\n", (unsigned long long)reg64(r, AXPY_ARG_X),
         (unsigned long long)reg64(r, AXPY_ARG_Y), (unsigned long long)reg64(r, AXPY_ARG_OUT),
         (unsigned long long)reg64(r, AXPY_ARG_N), r[AXPY_ARG_K / 4]);
  /* A device that never finishes: the stub's poll limit. */
  r[AXPY_CONTROL / 4] = 0;
  printf("never done: code %d\n", axpy_ciface(x, y, out, 6, 5, &result));
  /* No device. */
  setenv("SILICA_UIO_DEVICE", "/nonexistent/uio", 1);
  printf("no device: code %d\n", axpy_ciface(x, y, out, 6, 5, &result));
  return 0;
}
