// The `sim` backend of the driver API (silica_dev.h): the accelerator
// wrapped by `silica hls --interface axi` as a Verilated model (built with
// `verilator --cc --prefix Vdut --top-module F_axi`) in the host process,
// device memory as regions of the model's AXI4 slave (axi_model.h, the
// AXI co-simulation testbench's). The model is reset once, at the first
// open; every call's cycles and AXI traffic are reported on stderr at
// close. A register access the design does not answer, or a run longer
// than SILICA_SIM_MAX_CYCLES (default 10,000,000) cycles, is reported
// with the register and the cycle, and the process exits with status 1:
// never a hang. SILICA_SIM_SLVERR=1 makes the memory answer every read
// with SLVERR (to see the stub's error path).
#include "silica_dev.h"
#include "Vdut.h"
#include "verilated.h"
#include <cstdlib>
#include <cstring>
#include <string>

[[noreturn]] static void fail(const std::string& message) {
  std::fprintf(stderr, "silica sim: error: %s\n", message.c_str());
  std::exit(1);
}

#include "axi_model.h"

static VerilatedContext* context = nullptr;
static uint64_t next_address = 0;
static uint64_t opened_at = 0, reads_at = 0, writes_at = 0, bytes_at = 0;
static unsigned calls = 0;
static uint64_t max_cycles = 10000000;
static const uint64_t FIRST_ADDRESS = 0x100000000ULL;

extern "C" int32_t silica_dev_open(void) {
  if (!d) {
    context = new VerilatedContext;
    context->randReset(2);
    d = new Vdut{context};
    rng.seed(1);
    if (const char* m = std::getenv("SILICA_SIM_MAX_CYCLES")) max_cycles = std::strtoull(m, nullptr, 10);
    mm.fail_reads = std::getenv("SILICA_SIM_SLVERR") != nullptr;
    resetting = true;
    tick();
    tick();
    resetting = false;
  }
  regions.clear();
  next_address = FIRST_ADDRESS;
  opened_at = cycle;
  reads_at = mm.reads;
  writes_at = mm.writes;
  bytes_at = mm.bytes;
  calls++;
  return 0;
}

extern "C" uint32_t silica_dev_read32(uint32_t offset) {
  if (cycle - opened_at > max_cycles)
    fail("register " + hex(offset) + " read at cycle " + std::to_string(cycle - opened_at) +
         " of call " + std::to_string(calls) + ": the run takes more than " + std::to_string(max_cycles) +
         " cycles (SILICA_SIM_MAX_CYCLES)");
  return lite_read(offset);
}

extern "C" void silica_dev_write32(uint32_t offset, uint32_t value) { lite_write(offset, value); }

extern "C" uint64_t silica_dev_alloc(uint64_t bytes) {
  uint64_t base = next_address;
  regions.push_back(Region{base, std::vector<uint8_t>(bytes, 0)});
  // Page-aligned, with a page between buffers.
  next_address += ((bytes + 4095) / 4096 + 1) * 4096;
  return base;
}

extern "C" int32_t silica_dev_sync(uint64_t addr, void* host_memory, uint64_t bytes, int32_t to_device) {
  uint8_t* p = host(addr, unsigned(bytes));
  if (bytes && !p) return 1;
  if (to_device)
    std::memcpy(p, host_memory, bytes);
  else
    std::memcpy(host_memory, p, bytes);
  return 0;
}

extern "C" void silica_dev_close(void) {
  std::fprintf(stderr, "silica sim: call %u: %llu cycles, %llu AXI read bursts, %llu AXI write bursts, %llu bytes\n", calls,
               (unsigned long long)(cycle - opened_at), (unsigned long long)(mm.reads - reads_at),
               (unsigned long long)(mm.writes - writes_at), (unsigned long long)(mm.bytes - bytes_at));
  regions.clear();
}

extern "C" void silica_dev_fail(int32_t code) {
  const char* why = code == SILICA_DEV_NO_DEVICE   ? "the device does not open"
                    : code == SILICA_DEV_NO_MEMORY ? "device memory cannot be allocated or copied"
                    : code == SILICA_DEV_TIMEOUT   ? "ap_done (register 0x00) is not set within the poll limit"
                    : code == SILICA_DEV_AXI_ERROR ? "ap_error (register 0x00): the AXI master got an error response"
                                                   : "unknown error";
  fail("call " + std::to_string(calls) + " failed with code " + std::to_string(code) + ": " + why + " (cycle " +
       std::to_string(cycle - opened_at) + ")");
}
