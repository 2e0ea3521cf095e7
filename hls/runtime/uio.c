/* The `uio` backend of the driver API (silica_dev.h), for boards where
   the wrapped accelerator's AXI4-Lite slave is a Linux UIO device
   (Zynq-class SoCs; a PCIe card's BAR) and its AXI4 master reaches a
   physically contiguous buffer (a reserved region, u-dma-buf):
   - SILICA_UIO_DEVICE: the registers, mapped (default /dev/uio0; map 0);
   - SILICA_UIO_SIZE: the bytes of the register map (default 4096);
   - SILICA_UIO_MEMORY: the buffer the accelerator reads and writes,
     mapped (e.g. /dev/udmabuf0); SILICA_UIO_MEMORY_SIZE its bytes;
     SILICA_UIO_MEMORY_PHYS its physical (bus) address, in hex.
   Buffers are allocated from it in 4 KiB steps per call. */
#include "silica_dev.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile uint32_t* regs = NULL;
static size_t regs_size = 0;
static uint8_t* memory = NULL;
static size_t memory_size = 0;
static uint64_t memory_phys = 0;
static uint64_t next_offset = 0;

static const char* env(const char* name, const char* fallback) {
  const char* v = getenv(name);
  return v ? v : fallback;
}

static void* map(const char* path, size_t size) {
  int fd = open(path, O_RDWR | O_SYNC);
  if (fd < 0) {
    fprintf(stderr, "silica uio: cannot open %s\n", path);
    return NULL;
  }
  void* p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) {
    fprintf(stderr, "silica uio: cannot map %zu bytes of %s\n", size, path);
    return NULL;
  }
  return p;
}

int32_t silica_dev_open(const int32_t* kernel) {
  (void)kernel; /* the register map is the device's own */
  regs_size = strtoull(env("SILICA_UIO_SIZE", "4096"), NULL, 0);
  memory_size = strtoull(env("SILICA_UIO_MEMORY_SIZE", "0"), NULL, 0);
  memory_phys = strtoull(env("SILICA_UIO_MEMORY_PHYS", "0"), NULL, 16);
  regs = map(env("SILICA_UIO_DEVICE", "/dev/uio0"), regs_size);
  if (!regs) return SILICA_DEV_NO_DEVICE;
  const char* mem = getenv("SILICA_UIO_MEMORY");
  if (mem && memory_size) {
    memory = map(mem, memory_size);
    if (!memory) return SILICA_DEV_NO_DEVICE;
  }
  next_offset = 0;
  return 0;
}

uint32_t silica_dev_read32(uint32_t offset) {
  if (!regs || offset + 4 > regs_size) return 0xffffffffu;
  return regs[offset / 4];
}

void silica_dev_write32(uint32_t offset, uint32_t value) {
  if (regs && offset + 4 <= regs_size) regs[offset / 4] = value;
}

uint64_t silica_dev_alloc(uint64_t bytes) {
  if (!memory || next_offset + bytes > memory_size) return 0;
  uint64_t address = memory_phys + next_offset;
  next_offset += (bytes + 4095) / 4096 * 4096;
  return address;
}

int32_t silica_dev_sync(uint64_t addr, void* host, uint64_t bytes, int32_t to_device) {
  if (!memory || addr < memory_phys || addr - memory_phys + bytes > memory_size) return 1;
  uint8_t* p = memory + (addr - memory_phys);
  if (to_device)
    memcpy(p, host, bytes);
  else
    memcpy(host, p, bytes);
  /* The accelerator sees memory, not the CPU's caches: u-dma-buf and
     reserved regions opened with O_SYNC are mapped uncached. */
  __sync_synchronize();
  return 0;
}

void silica_dev_close(void) {
  if (regs) munmap((void*)regs, regs_size);
  if (memory) munmap(memory, memory_size);
  regs = NULL;
  memory = NULL;
}

void silica_dev_fail(int32_t code) {
  char why[160];
  silica_dev_describe(code, why, sizeof why);
  fprintf(stderr, "silica uio: error: the accelerator failed with code %d: %s\n", code, why);
  exit(1);
}
