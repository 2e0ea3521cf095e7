/* The driver API that silica's generated host stubs (F_host.ll) call to
   reach an accelerator wrapped by `silica hls --interface axi`. Backends
   implement it: sim.cpp (the Verilated design in the host process),
   uio.c (a Linux UIO device and a DMA buffer, for boards) and uart.c
   (the board shell of `--shell uart` over a serial port).
   A stub opens the device, allocates and syncs buffers, writes and
   reads registers, and closes it, once per call of the kernel. */
#ifndef SILICA_DEV_H
#define SILICA_DEV_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes of the host stubs. */
enum {
  SILICA_DEV_OK = 0,
  SILICA_DEV_NO_DEVICE = 1, /* silica_dev_open failed */
  SILICA_DEV_NO_MEMORY = 2, /* silica_dev_alloc or silica_dev_sync failed */
  SILICA_DEV_TIMEOUT = 3,   /* ap_done not set within the poll limit */
  SILICA_DEV_AXI_ERROR = 4, /* ap_error: an AXI error response */
  SILICA_DEV_BAD_SIZE = 5   /* a memref descriptor's sizes differ from the
                               kernel's type; bits 8 and up: the argument */
};

/* The kernel's description, a constant table of the host stub
   (`F_kernel`) given to silica_dev_open: kernel[0] is the number of
   entries, then SILICA_DEV_ENTRY_WORDS words per entry, the arguments in
   order, then the results:
     kind    SILICA_DEV_SCALAR, SILICA_DEV_MEMORY or SILICA_DEV_RESULT;
     width   bits of the scalar or result, of the memory's elements;
     words   the memory's elements; the register's 32-bit words otherwise;
     offset  byte offset of its register (a memory's base address);
     number  its position among the memories, scalars or results.
   The register map's backends (sim, uio) need none of it; the uart
   backend maps register accesses onto the board shell's frames by it. */
enum { SILICA_DEV_SCALAR = 0, SILICA_DEV_MEMORY = 1, SILICA_DEV_RESULT = 2 };
#define SILICA_DEV_ENTRY_WORDS 5

/* Opens the accelerator (one per process) for one call of the kernel
   `kernel` describes; 0 on success. */
int32_t silica_dev_open(const int32_t* kernel);
/* Reads / writes the 32-bit register at byte offset `offset`. */
uint32_t silica_dev_read32(uint32_t offset);
void silica_dev_write32(uint32_t offset, uint32_t value);
/* Device memory of `bytes` bytes until close: its device address, 0 on
   failure. */
uint64_t silica_dev_alloc(uint64_t bytes);
/* Copies `bytes` between host memory `host` and the device buffer at
   `addr` (to the device when `to_device` is nonzero); 0 on success. */
int32_t silica_dev_sync(uint64_t addr, void* host, uint64_t bytes, int32_t to_device);
/* Ends the call: frees the device memory (a backend may report the
   call's cycles and traffic on stderr). */
void silica_dev_close(void);
/* Reports the host stub's error `code` on stderr and exits with status 1
   (the stub with the kernel's own signature cannot return a code). */
void silica_dev_fail(int32_t code);

/* What the error `code` of a host stub means, written into `out`. */
static inline void silica_dev_describe(int32_t code, char* out, size_t size) {
  const char* why = code == SILICA_DEV_NO_DEVICE   ? "the device does not open"
                    : code == SILICA_DEV_NO_MEMORY ? "device memory cannot be allocated or copied"
                    : code == SILICA_DEV_TIMEOUT   ? "ap_done (register 0x00) is not set within the poll limit"
                    : code == SILICA_DEV_AXI_ERROR ? "ap_error (register 0x00): the AXI master got an error response"
                                                   : "unknown error";
  if ((code & 0xff) == SILICA_DEV_BAD_SIZE)
    snprintf(out, size, "the buffer of argument %d has other sizes than the kernel's memref type", code >> 8);
  else
    snprintf(out, size, "%s", why);
}

#ifdef __cplusplus
}
#endif

#endif /* SILICA_DEV_H */
