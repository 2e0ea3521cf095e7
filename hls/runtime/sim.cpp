// The `sim` backend of the driver API (silica_dev.h): the accelerator
// wrapped by `silica hls --interface axi` as a Verilated model (built with
// `verilator --cc --prefix Vdut --top-module F_axi`) in the host process,
// device memory as regions of the model's AXI4 slave (axi_model.h, the
// AXI co-simulation testbench's). The model is reset once, at the first
// open; every call's cycles and AXI traffic are reported on stderr at
// close, with the cycles from the first register write to the read that
// sees ap_done, how many of those cycles an AXI transfer was under way,
// and the wall time the call took. A register access the design does not answer, or a run longer
// than SILICA_SIM_MAX_CYCLES (default 10,000,000) cycles, is reported
// with the register and the cycle, and the process exits with status 1:
// never a hang. SILICA_SIM_SLVERR=1 makes the memory answer every read
// with SLVERR (to see the stub's error path).
#include "silica_dev.h"
#include "Vdut.h"
#include "verilated.h"
#include <chrono>
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
// This call's first register write and the read that saw ap_done (0:
// not yet), and the AXI busy cycles at the first write.
static uint64_t first_write = 0, done_seen = 0, busy_at = 0, busy_done = 0;
static std::chrono::steady_clock::time_point opened_time;
static unsigned calls = 0;
static uint64_t max_cycles = 10000000;
static const uint64_t FIRST_ADDRESS = 0x100000000ULL;

extern "C" int32_t silica_dev_open(const int32_t*) {
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
  first_write = done_seen = 0;
  opened_time = std::chrono::steady_clock::now();
  calls++;
  return 0;
}

extern "C" uint32_t silica_dev_read32(uint32_t offset) {
  if (cycle - opened_at > max_cycles)
    fail("register " + hex(offset) + " read at cycle " + std::to_string(cycle - opened_at) +
         " of call " + std::to_string(calls) + ": the run takes more than " + std::to_string(max_cycles) +
         " cycles (SILICA_SIM_MAX_CYCLES)");
  uint32_t value = lite_read(offset);
  if (offset == 0 && (value & 2) && first_write && !done_seen) {
    done_seen = cycle;
    busy_done = mm.busy;
  }
  return value;
}

extern "C" void silica_dev_write32(uint32_t offset, uint32_t value) {
  if (!first_write) {
    first_write = cycle;
    busy_at = mm.busy;
  }
  lite_write(offset, value);
}

extern "C" uint64_t silica_dev_alloc(uint64_t bytes) {
  uint64_t base = next_address;
  regions.push_back(Region{base, std::vector<uint8_t>((bytes + 63) / 64 * 64, 0), bytes});
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
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - opened_time).count();
  std::fprintf(stderr, "silica sim: call %u: %llu cycles, %llu AXI read bursts, %llu AXI write bursts, %llu bytes", calls,
               (unsigned long long)(cycle - opened_at), (unsigned long long)(mm.reads - reads_at),
               (unsigned long long)(mm.writes - writes_at), (unsigned long long)(mm.bytes - bytes_at));
  if (done_seen) {
    uint64_t span = done_seen - first_write, busy = busy_done - busy_at;
    std::fprintf(stderr, "; first register write to done %llu cycles, AXI busy %llu (%.0f%%)", (unsigned long long)span,
                 (unsigned long long)busy, span ? 100.0 * double(busy) / double(span) : 0.0);
  }
  std::fprintf(stderr, "; %.3f ms\n", 1e3 * seconds);
  regions.clear();
}

extern "C" void silica_dev_fail(int32_t code) {
  char why[160];
  silica_dev_describe(code, why, sizeof why);
  // The sizes are checked before the device is opened for the call.
  if ((code & 0xff) == SILICA_DEV_BAD_SIZE)
    fail("call " + std::to_string(calls + 1) + " refused with code " + std::to_string(code) + ": " + why);
  fail("call " + std::to_string(calls) + " failed with code " + std::to_string(code) + ": " + why + " (cycle " +
       std::to_string(cycle - opened_at) + ")");
}
