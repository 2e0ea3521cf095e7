// The AXI side of a Verilated `F_axi` (class Vdut), shared by silica's
// AXI co-simulation testbench and the `sim` driver backend: an AXI4
// slave over host memory (regions; seeded random stalls; protocol checks;
// DECERR outside the regions) and an AXI4-Lite master (lite_write,
// lite_read; 1000 cycles at most per access). The includer defines
// `fail(const std::string&)` (no return) first, and SILICA_TRACE with
// `trace` to dump a waveform.
#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

static std::string hex(uint64_t v) { char b[32]; std::snprintf(b, sizeof b, "0x%llx", (unsigned long long)v); return b; }

static Vdut* d = nullptr;
static uint64_t cycle = 0;
static bool resetting = false;
static std::mt19937_64 rng;

// The master's data bus as bytes, least significant first: Verilator
// holds up to 64 bits in an integer and more in VlWide words; the bus is
// 64 to 512 bits wide (a power of two), its strobes at most 64.
static constexpr unsigned BUS_BYTES = sizeof(std::remove_reference_t<decltype(std::declval<Vdut&>().m_axi_gmem_wdata)>);
static_assert(BUS_BYTES >= 8 && BUS_BYTES <= 64 && (BUS_BYTES & (BUS_BYTES - 1)) == 0, "the AXI master's data bus is 64 to 512 bits");
using Bus = std::array<uint8_t, BUS_BYTES>;
static Bus bus_get(uint64_t v) { Bus b{}; for (unsigned i = 0; i < 8; i++) b[i] = uint8_t(v >> (8 * i)); return b; }
template <std::size_t W> static Bus bus_get(const VlWide<W>& v) {
  Bus b{};
  for (unsigned i = 0; i < BUS_BYTES; i++) b[i] = uint8_t(v[i / 4] >> (8 * (i % 4)));
  return b;
}
static void bus_set(uint64_t& v, const Bus& b) { v = 0; for (unsigned i = 0; i < 8; i++) v |= uint64_t(b[i]) << (8 * i); }
template <std::size_t W> static void bus_set(VlWide<W>& v, const Bus& b) {
  for (unsigned w = 0; w < W; w++) v[w] = 0;
  for (unsigned i = 0; i < BUS_BYTES; i++) v[i / 4] |= uint32_t(b[i]) << (8 * (i % 4));
}
// log2 of the bus's bytes (the largest size a beat may have).
static constexpr unsigned BUS_SIZE = BUS_BYTES == 8 ? 3 : BUS_BYTES == 16 ? 4 : BUS_BYTES == 32 ? 5 : 6;

// Host memory: one region per memref, its bytes in whole 64-byte blocks
// (a packed memory's last word is read whole); only the first `used`
// are the memref's, the only ones a write may change.
struct Region { uint64_t base; std::vector<uint8_t> bytes; uint64_t used; };
static std::vector<Region> regions;
static uint8_t* host(uint64_t addr, unsigned n) {
  for (auto& r : regions)
    if (addr >= r.base && addr + n <= r.base + r.bytes.size()) return &r.bytes[addr - r.base];
  return nullptr;
}

// The AXI4 slave over host memory.
struct Model {
  bool arready = false, r_busy = false, rvalid = false, rlast = false; unsigned r_wait = 0;
  Bus rdata{}; uint64_t r_addr = 0; unsigned rresp = 0, r_size = 0, r_left = 0;
  bool awready = false, wready = false, aw_have = false;
  uint64_t aw_addr = 0; unsigned aw_size = 0, aw_left = 0;
  // Write beats taken, not yet written (the address may come after them).
  struct Beat { Bus data; uint64_t strb; bool last; };
  std::vector<Beat> w_beats;
  unsigned b_resp_next = 0;
  bool b_busy = false, bvalid = false; unsigned b_wait = 0, bresp = 0;
  // Payloads of valids not yet taken (they must not change).
  bool ar_waiting = false, aw_waiting = false, w_waiting = false;
  uint64_t ar_seen = 0, aw_seen = 0; Bus w_seen{};
  // Read bursts, write transactions, bytes moved, error responses.
  uint64_t reads = 0, writes = 0, bytes = 0, errors = 0;
  // Cycles in which a transfer is under way (an address, data or
  // response waits or a burst is in flight).
  uint64_t busy = 0;
  // Answer every read SLVERR (to test error handling).
  bool fail_reads = false;
} mm;

// An INCR burst of len + 1 beats: aligned, within one 4 KiB page.
static void check_burst(const char* ch, unsigned len, unsigned burst, uint64_t addr, unsigned size) {
  if (burst != 1) fail(std::string(ch) + "burst is not INCR at cycle " + std::to_string(cycle));
  if (size > BUS_SIZE || addr % (1u << size)) fail(std::string(ch) + "addr " + hex(addr) + " is not aligned to its size at cycle " + std::to_string(cycle));
  if (addr % 4096 + (uint64_t(len) + 1) * (1u << size) > 4096) fail(std::string(ch) + " burst at " + hex(addr) + " crosses a 4 KiB boundary at cycle " + std::to_string(cycle));
}

// Serves the master's channels at the coming edge.
static void serve() {
  auto& g = mm;
  // Valid must hold, payload unchanged, until ready.
  uint64_t ar = d->m_axi_gmem_araddr, aw = d->m_axi_gmem_awaddr; Bus wd = bus_get(d->m_axi_gmem_wdata);
  if (g.ar_waiting && (!d->m_axi_gmem_arvalid || ar != g.ar_seen)) fail("arvalid dropped or araddr changed before arready at cycle " + std::to_string(cycle));
  if (g.aw_waiting && (!d->m_axi_gmem_awvalid || aw != g.aw_seen)) fail("awvalid dropped or awaddr changed before awready at cycle " + std::to_string(cycle));
  if (g.w_waiting && (!d->m_axi_gmem_wvalid || wd != g.w_seen)) fail("wvalid dropped or wdata changed before wready at cycle " + std::to_string(cycle));
  if (d->m_axi_gmem_arvalid || g.r_busy || d->m_axi_gmem_awvalid || g.aw_have || d->m_axi_gmem_wvalid ||
      !g.w_beats.empty() || g.b_busy)
    g.busy++;
  g.ar_waiting = d->m_axi_gmem_arvalid && !g.arready; g.ar_seen = ar;
  g.aw_waiting = d->m_axi_gmem_awvalid && !g.awready; g.aw_seen = aw;
  g.w_waiting = d->m_axi_gmem_wvalid && !g.wready; g.w_seen = wd;
  if (d->m_axi_gmem_arvalid && g.arready) {
    check_burst("ar", d->m_axi_gmem_arlen, d->m_axi_gmem_arburst, ar, d->m_axi_gmem_arsize);
    g.r_busy = true; g.r_wait = rng() % 3;
    g.r_addr = ar; g.r_size = d->m_axi_gmem_arsize; g.r_left = d->m_axi_gmem_arlen + 1u;
    g.reads++;
  }
  if (g.rvalid && d->m_axi_gmem_rready) {
    g.bytes += 1u << g.r_size;
    g.errors += g.rresp ? 1 : 0;
    g.r_addr += 1u << g.r_size;
    if (--g.r_left == 0) g.r_busy = false; else g.r_wait = rng() % 2;
  }
  if (d->m_axi_gmem_awvalid && g.awready) {
    check_burst("aw", d->m_axi_gmem_awlen, d->m_axi_gmem_awburst, aw, d->m_axi_gmem_awsize);
    g.aw_have = true; g.aw_addr = aw; g.aw_size = d->m_axi_gmem_awsize; g.aw_left = d->m_axi_gmem_awlen + 1u;
    g.b_resp_next = 0;
    g.writes++;
  }
  if (d->m_axi_gmem_wvalid && g.wready) g.w_beats.push_back({wd, uint64_t(d->m_axi_gmem_wstrb), bool(d->m_axi_gmem_wlast)});
  if (g.bvalid && d->m_axi_gmem_bready) g.b_busy = false;
  while (g.aw_have && !g.w_beats.empty() && !g.b_busy) {
    Model::Beat beat = g.w_beats.front();
    g.w_beats.erase(g.w_beats.begin());
    unsigned n = 1u << g.aw_size, lane = unsigned(g.aw_addr % BUS_BYTES);
    uint64_t lanes = (n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1) << lane;
    if (beat.strb & ~lanes) fail("wstrb has lanes outside the transfer at cycle " + std::to_string(cycle));
    if (beat.last != (g.aw_left == 1)) fail("wlast is not on the burst's last beat at cycle " + std::to_string(cycle));
    uint8_t* p = host(g.aw_addr, n);
    if (p)
      for (unsigned b = 0; b < n; b++)
        if (beat.strb >> (lane + b) & 1) {
          for (auto& r : regions)
            if (g.aw_addr + b >= r.base + r.used && g.aw_addr + b < r.base + r.bytes.size())
              fail("a write strobes byte " + hex(g.aw_addr + b) + ", past its memref's last byte, at cycle " + std::to_string(cycle));
          p[b] = beat.data[lane + b];
        }
    if (!p) g.b_resp_next = 3;
    g.bytes += n;
    g.aw_addr += n;
    if (--g.aw_left == 0) {
      g.aw_have = false; g.b_busy = true; g.b_wait = rng() % 3;
      g.bresp = g.b_resp_next;
      g.errors += g.bresp ? 1 : 0;
    }
  }
  // The coming cycle's outputs.
  // A beat: valid from when its wait is over until it is taken.
  g.rvalid = false;
  if (g.r_busy) {
    if (g.r_wait) g.r_wait--;
    else {
      unsigned n = 1u << g.r_size;
      uint8_t* p = host(g.r_addr, n);
      g.rdata = Bus{};
      if (p) for (unsigned b = 0; b < n; b++) g.rdata[g.r_addr % BUS_BYTES + b] = p[b];
      unsigned resp = !p ? 3 : g.fail_reads ? 2 : 0;
      g.rresp = resp; g.rvalid = true; g.rlast = g.r_left == 1;
    }
  }
  if (g.b_busy) { if (g.b_wait) g.b_wait--; else g.bvalid = true; } else g.bvalid = false;
  g.arready = !g.r_busy && rng() % 4 != 0;
  g.awready = !g.aw_have && rng() % 4 != 0;
  g.wready = g.w_beats.size() < 4 && rng() % 4 != 0;
}

// The AXI4-Lite master's signals.
struct Lite { uint32_t awaddr = 0, wdata = 0, araddr = 0; bool awvalid = false, wvalid = false, bready = false, arvalid = false, rready = false; } lite;

static void drive() {
  d->reset = resetting;
  d->s_axi_control_awaddr = lite.awaddr; d->s_axi_control_awvalid = lite.awvalid;
  d->s_axi_control_wdata = lite.wdata; d->s_axi_control_wstrb = 0xf; d->s_axi_control_wvalid = lite.wvalid;
  d->s_axi_control_bready = lite.bready;
  d->s_axi_control_araddr = lite.araddr; d->s_axi_control_arvalid = lite.arvalid; d->s_axi_control_rready = lite.rready;
  d->m_axi_gmem_arready = mm.arready; d->m_axi_gmem_rvalid = mm.rvalid; bus_set(d->m_axi_gmem_rdata, mm.rdata);
  d->m_axi_gmem_rresp = mm.rresp; d->m_axi_gmem_rlast = mm.rlast;
  d->m_axi_gmem_awready = mm.awready; d->m_axi_gmem_wready = mm.wready;
  d->m_axi_gmem_bvalid = mm.bvalid; d->m_axi_gmem_bresp = mm.bresp;
}

#ifdef SILICA_TRACE
static void dump(uint64_t time) { trace->dump(time); }
#else
static void dump(uint64_t) {}
#endif

static bool irq_seen = false;
static uint64_t irq_cycle = 0;
static void settle() { drive(); d->clock = 0; d->eval(); dump(10 * cycle); }
static void edge() {
  if (!resetting) serve();
  d->clock = 1; d->eval(); dump(10 * cycle + 5); cycle++;
  if (!irq_seen && d->irq) { irq_seen = true; irq_cycle = cycle; }
}
static void tick() { settle(); edge(); }


// A register access that the slave does not complete in 1000 cycles.
static void check_cycles(uint64_t since, const char* what, uint32_t addr) {
  if (cycle - since > 1000) fail(std::string(what) + " of register " + hex(addr) + " takes more than 1000 cycles (cycle " + std::to_string(cycle) + ")");
}

// Returns the cycle count after the edge that takes the write.
static uint64_t lite_write(uint32_t addr, uint32_t data) {
  uint64_t since = cycle;
  lite.awaddr = addr; lite.wdata = data; lite.awvalid = lite.wvalid = true;
  for (;;) {
    settle();
    bool taken = d->s_axi_control_awready && d->s_axi_control_wready;
    edge();
    if (taken) break;
    check_cycles(since, "an AXI-Lite write", addr);
  }
  uint64_t at = cycle;
  lite.awvalid = lite.wvalid = false; lite.bready = true;
  for (;;) {
    settle();
    bool got = d->s_axi_control_bvalid;
    if (got && d->s_axi_control_bresp != 0) fail("bresp is not OKAY for a write of 0x" + std::to_string(addr));
    edge();
    if (got) break;
    check_cycles(since, "an AXI-Lite write response", addr);
  }
  lite.bready = false;
  return at;
}

static uint32_t lite_read(uint32_t addr) {
  uint64_t since = cycle;
  lite.araddr = addr; lite.arvalid = true;
  for (;;) {
    settle();
    bool taken = d->s_axi_control_arready;
    edge();
    if (taken) break;
    check_cycles(since, "an AXI-Lite read", addr);
  }
  lite.arvalid = false; lite.rready = true;
  uint32_t data = 0;
  for (;;) {
    settle();
    bool got = d->s_axi_control_rvalid;
    data = d->s_axi_control_rdata;
    if (got && d->s_axi_control_rresp != 0) fail("rresp is not OKAY for a read of 0x" + std::to_string(addr));
    edge();
    if (got) break;
    check_cycles(since, "an AXI-Lite read response", addr);
  }
  lite.rready = false;
  return data;
}


