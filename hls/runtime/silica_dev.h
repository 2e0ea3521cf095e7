/* The driver API that silica's generated host stubs (F_host.ll) call to
   reach an accelerator wrapped by `silica hls --interface axi`. Backends
   implement it: sim.cpp (the Verilated design in the host process) and
   uio.c (a Linux UIO device and a DMA buffer, for boards).
   A stub opens the device, allocates and syncs buffers, writes and
   reads registers, and closes it, once per call of the kernel. */
#ifndef SILICA_DEV_H
#define SILICA_DEV_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes of the host stubs. */
enum {
  SILICA_DEV_OK = 0,
  SILICA_DEV_NO_DEVICE = 1, /* silica_dev_open failed */
  SILICA_DEV_NO_MEMORY = 2, /* silica_dev_alloc or silica_dev_sync failed */
  SILICA_DEV_TIMEOUT = 3,   /* ap_done not set within the poll limit */
  SILICA_DEV_AXI_ERROR = 4  /* ap_error: an AXI error response */
};

/* Opens the accelerator (one per process) for one call; 0 on success. */
int32_t silica_dev_open(void);
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

#ifdef __cplusplus
}
#endif

#endif /* SILICA_DEV_H */
