/* The `uart` backend of the driver API (silica_dev.h): the kernel in the
   board shell of `silica hls --shell uart`, reached over a serial port
   with the shell's protocol (docs/BOARD-SHELL.md). The shell has no
   register map: the backend keeps one in memory, laid out as the host
   stub's (the kernel's description, silica_dev_open's table), and turns
   the stub's accesses into frames:
   - silica_dev_alloc gives the memories in argument order; syncing one
     writes or reads its words (write-memory, read-memory; 256 words a
     frame; host elements of a power-of-two size, words on the line of
     ceil(width / 8) bytes);
   - scalar registers are kept until ap_start is written, which sends
     every scalar (write-scalar) and then start;
   - reading the control register asks for the status (ap_done when the
     run has finished, ap_idle when the core is idle); reading a result's
     first word asks for the result (read-result).
   Environment: SILICA_UART_PORT (the serial port, required),
   SILICA_UART_BAUD (default 115200), SILICA_UART_PATIENCE (seconds a
   reply may take beyond its time on the line, default 5),
   SILICA_UART_TIMEOUT (seconds a run may take, default 60).
   A request whose reply is lost, garbled, or refused with bad checksum
   or timeout is sent again (three tries) once the line has been quiet
   for the shell's frame timeout; start is sent once. A run past its
   time, or a request that fails, is reported with the register and the
   shell's cycle count, and the process exits with status 1: never a
   hang. The port stays open from the first call to the end. */
#include "silica_dev.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
/* termios2 (any rate), not <termios.h>, whose struct it would clash with. */
#include <asm/termbits.h>

enum { WRITE_MEMORY = 1, READ_MEMORY = 2, WRITE_SCALAR = 3, START = 4, STATUS = 5, READ_RESULT = 6 };
enum { OK = 0, BAD_CHECKSUM = 1, LINE_TIMEOUT = 6 };
enum { FLAG_IDLE = 1, FLAG_DONE = 2 };
enum { TRIES = 3, CHUNK_WORDS = 256, TIMEOUT_BYTE_TIMES = 256, HEADER_BYTES = 8 };
/* The control register and its bits (as the AXI wrapper has them). */
enum { CONTROL = 0x00, AP_START = 1u << 0, AP_DONE = 1u << 1, AP_IDLE = 1u << 2, AP_READY = 1u << 3 };

static int port = -1;
static double baud = 115200, patience = 5, run_limit = 60;
static const int32_t* kernel = NULL;
static unsigned calls = 0;
/* This call: memories allocated, the register words written or read,
   when the run started, the shell's last cycle count. */
static unsigned allocated = 0;
static uint32_t* shadow = NULL;
static unsigned shadow_words = 0;
static double started = 0;
static uint32_t cycles = 0;
static int running = 0;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void fail(const char* format, ...) {
  va_list args;
  va_start(args, format);
  fprintf(stderr, "silica uart: error: ");
  vfprintf(stderr, format, args);
  fprintf(stderr, "\n");
  va_end(args);
  exit(1);
}

static const int32_t* entry(unsigned i) { return kernel + 1 + SILICA_DEV_ENTRY_WORDS * i; }
static unsigned entries(void) { return kernel ? (unsigned)kernel[0] : 0; }
/* Bytes of a word of `width` bits on the line, and in host memory. */
static unsigned line_bytes(int32_t width) { return width <= 8 ? 1 : (unsigned)(width + 7) / 8; }
static unsigned host_bytes(int32_t width) {
  unsigned b = 1;
  while (8 * b < (unsigned)width) b *= 2;
  return b;
}

static double line_time(size_t bytes) { return (double)bytes * 10.0 / baud; }

/* Reads `n` bytes before `deadline`; how many came. */
static size_t read_by(uint8_t* out, size_t n, double deadline) {
  size_t got = 0;
  while (got < n) {
    double left = deadline - now();
    if (left <= 0) break;
    struct pollfd p = {port, POLLIN, 0};
    int r = poll(&p, 1, (int)(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    ssize_t k = read(port, out + got, n - got);
    if (k <= 0) break;
    got += (size_t)k;
  }
  return got;
}

/* Discards what arrives until the line has been quiet long enough for
   the shell to have given up a frame. */
static void resynchronise(void) {
  uint8_t b;
  double quiet = 2 * line_time(TIMEOUT_BYTE_TIMES) + 0.05;
  while (read_by(&b, 1, now() + quiet) == 1) {
  }
}

static uint8_t checksum(const uint8_t* bytes, size_t n) {
  uint8_t s = 0;
  for (size_t i = 0; i < n; i++) s = (uint8_t)(s + bytes[i]);
  return (uint8_t)-s;
}

static const char* command_name(uint8_t c) {
  static const char* names[] = {"?", "write-memory", "read-memory", "write-scalar", "start", "status", "read-result"};
  return c <= READ_RESULT ? names[c] : "?";
}

static const char* status_name(uint8_t s) {
  static const char* names[] = {"ok", "bad checksum", "unknown command", "bad target", "bad range", "busy", "timeout"};
  return s <= LINE_TIMEOUT ? names[s] : "unknown status";
}

/* Sends a request and reads its reply's `reply_bytes` payload bytes
   into `reply`; repeats it when `repeatable`. Fails with `what` (the
   register access it serves) in the message. */
static void request(uint8_t command, uint8_t target, uint32_t address, uint16_t count, const uint8_t* payload,
                    size_t payload_bytes, uint8_t* reply, size_t reply_bytes, int repeatable, const char* what) {
  size_t n = HEADER_BYTES + payload_bytes + 1;
  uint8_t* frame = malloc(n);
  uint8_t* in = malloc(reply_bytes + 3);
  if (!frame || !in) fail("out of memory");
  frame[0] = command;
  frame[1] = target;
  for (int i = 0; i < 4; i++) frame[2 + i] = (uint8_t)(address >> (8 * i));
  frame[6] = (uint8_t)count;
  frame[7] = (uint8_t)(count >> 8);
  if (payload_bytes) memcpy(frame + HEADER_BYTES, payload, payload_bytes);
  frame[n - 1] = checksum(frame, n - 1);
  char last[128] = "";
  int tries = repeatable ? TRIES : 1;
  for (int t = 0; t < tries; t++) {
    size_t off = 0;
    while (off < n) {
      ssize_t k = write(port, frame + off, n - off);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) fail("%s: cannot write to the serial port: %s", what, strerror(errno));
      off += (size_t)k;
    }
    double deadline = now() + patience + line_time(n + reply_bytes + 3) + line_time(TIMEOUT_BYTE_TIMES);
    size_t got = read_by(in, 2, deadline);
    if (got == 2 && in[0] == OK) got += read_by(in + 2, reply_bytes + 1, deadline);
    else if (got == 2) got += read_by(in + 2, 1, deadline);
    size_t want = in[0] == OK ? reply_bytes + 3 : 3;
    if (got < 2 || got < want) {
      snprintf(last, sizeof last, "%zu reply bytes came in time", got);
    } else if (checksum(in, want) != 0 || in[1] != command) {
      snprintf(last, sizeof last, "a garbled reply");
    } else if (in[0] != OK && in[0] != BAD_CHECKSUM && in[0] != LINE_TIMEOUT) {
      fail("%s: the shell refused %s: %s (status 0x%02x; last cycle count %u)", what, command_name(command),
           status_name(in[0]), in[0], cycles);
    } else if (in[0] != OK) {
      snprintf(last, sizeof last, "%s", status_name(in[0]));
    } else {
      if (reply_bytes) memcpy(reply, in + 2, reply_bytes);
      free(frame);
      free(in);
      return;
    }
    resynchronise();
  }
  fail("%s: %s failed %d time(s), last: %s (last cycle count %u)", what, command_name(command), tries, last, cycles);
}

/* The status: the flags; the cycles go to `cycles`. */
static uint8_t status(const char* what) {
  uint8_t r[5];
  request(STATUS, 0, 0, 0, NULL, 0, r, sizeof r, 1, what);
  cycles = (uint32_t)r[1] | (uint32_t)r[2] << 8 | (uint32_t)r[3] << 16 | (uint32_t)r[4] << 24;
  return r[0];
}

/* Raw 8N1 at `rate` through Linux's termios2 (any rate, as the shell's
   divider gives them; a pseudo-terminal ignores it), queues flushed. */
static int configure(long rate) {
  struct termios2 t;
  if (ioctl(port, TCGETS2, &t) != 0) return 0;
  t.c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON | IXOFF);
  t.c_oflag &= ~(tcflag_t)OPOST;
  t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
  t.c_cflag &= ~(tcflag_t)(CSIZE | CSTOPB | PARENB | CRTSCTS | CBAUD);
  t.c_cflag |= CS8 | CREAD | CLOCAL | BOTHER;
  t.c_ispeed = t.c_ospeed = (speed_t)rate;
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  return ioctl(port, TCSETS2, &t) == 0 && ioctl(port, TCFLSH, TCIOFLUSH) == 0;
}

static int open_port(void) {
  const char* path = getenv("SILICA_UART_PORT");
  if (!path) {
    fprintf(stderr, "silica uart: SILICA_UART_PORT names no serial port\n");
    return 0;
  }
  const char* v;
  long rate = (v = getenv("SILICA_UART_BAUD")) ? strtol(v, NULL, 10) : 115200;
  if ((v = getenv("SILICA_UART_PATIENCE"))) patience = strtod(v, NULL);
  if ((v = getenv("SILICA_UART_TIMEOUT"))) run_limit = strtod(v, NULL);
  if (rate <= 0) {
    fprintf(stderr, "silica uart: SILICA_UART_BAUD is not a rate\n");
    return 0;
  }
  baud = (double)rate;
  port = open(path, O_RDWR | O_NOCTTY);
  if (port < 0) {
    fprintf(stderr, "silica uart: cannot open the serial port %s: %s\n", path, strerror(errno));
    return 0;
  }
  if (!configure(rate)) {
    fprintf(stderr, "silica uart: cannot configure the serial port %s: %s\n", path, strerror(errno));
    close(port);
    port = -1;
    return 0;
  }
  return 1;
}

int32_t silica_dev_open(const int32_t* description) {
  calls++;
  if (port < 0 && !open_port()) return SILICA_DEV_NO_DEVICE;
  kernel = description;
  allocated = 0;
  running = 0;
  unsigned top = 0;
  for (unsigned i = 0; i < entries(); i++) {
    const int32_t* e = entry(i);
    unsigned end = (unsigned)e[3] / 4 + (e[0] == SILICA_DEV_MEMORY ? 2 : (unsigned)e[2]);
    if (end > top) top = end;
  }
  free(shadow);
  shadow_words = top;
  shadow = calloc(top + 1, sizeof *shadow);
  if (!shadow) return SILICA_DEV_NO_MEMORY;
  if (!(status("opening the device") & FLAG_IDLE)) {
    fprintf(stderr, "silica uart: the core is running (reset the board)\n");
    return SILICA_DEV_NO_DEVICE;
  }
  return 0;
}

/* The entry whose register starts at byte `offset`, or NULL. */
static const int32_t* at_offset(uint32_t offset, int32_t kind) {
  for (unsigned i = 0; i < entries(); i++)
    if (entry(i)[0] == kind && (uint32_t)entry(i)[3] == offset) return entry(i);
  return NULL;
}

uint32_t silica_dev_read32(uint32_t offset) {
  char what[96];
  if (offset == CONTROL) {
    snprintf(what, sizeof what, "register 0x%02x read in call %u", offset, calls);
    uint8_t flags = status(what);
    uint32_t value = (flags & FLAG_IDLE ? AP_IDLE : 0) | (running && (flags & FLAG_DONE) ? AP_DONE | AP_READY : 0);
    if (running && !(flags & FLAG_DONE) && now() - started > run_limit)
      fail("register 0x%02x read at cycle %u of call %u: the run takes more than %.1f s (SILICA_UART_TIMEOUT)", offset,
           cycles, calls, run_limit);
    return value;
  }
  const int32_t* r = at_offset(offset, SILICA_DEV_RESULT);
  if (r) {
    snprintf(what, sizeof what, "register 0x%02x (result %d) read in call %u", offset, r[4], calls);
    unsigned n = line_bytes(r[1]);
    uint8_t bytes[64] = {0};
    if (n > sizeof bytes) fail("%s: a result of %d bits is too wide", what, r[1]);
    request(READ_RESULT, (uint8_t)r[4], 0, 0, NULL, 0, bytes, n, 1, what);
    for (int32_t w = 0; w < r[2]; w++)
      if (offset / 4 + (unsigned)w < shadow_words)
        shadow[offset / 4 + (unsigned)w] = (uint32_t)bytes[4 * w] | (uint32_t)bytes[4 * w + 1] << 8 |
                                           (uint32_t)bytes[4 * w + 2] << 16 | (uint32_t)bytes[4 * w + 3] << 24;
  }
  return offset / 4 < shadow_words ? shadow[offset / 4] : 0;
}

void silica_dev_write32(uint32_t offset, uint32_t value) {
  if (offset / 4 < shadow_words) shadow[offset / 4] = value;
  if (offset != CONTROL || !(value & AP_START)) return;
  char what[96];
  for (unsigned i = 0; i < entries(); i++) {
    const int32_t* s = entry(i);
    if (s[0] != SILICA_DEV_SCALAR) continue;
    snprintf(what, sizeof what, "register 0x%02x (scalar %d) in call %u", s[3], s[4], calls);
    unsigned n = line_bytes(s[1]);
    uint8_t bytes[64] = {0};
    if (n > sizeof bytes) fail("%s: a scalar of %d bits is too wide", what, s[1]);
    for (unsigned b = 0; b < n; b++) {
      uint32_t word = shadow[(unsigned)s[3] / 4 + b / 4];
      bytes[b] = (uint8_t)(word >> (8 * (b % 4)));
    }
    if (s[1] % 8) bytes[n - 1] &= (uint8_t)((1u << (s[1] % 8)) - 1);
    request(WRITE_SCALAR, (uint8_t)s[4], 0, 0, bytes, n, NULL, 0, 1, what);
  }
  snprintf(what, sizeof what, "register 0x%02x (ap_start) written in call %u", offset, calls);
  request(START, 0, 0, 0, NULL, 0, NULL, 0, 0, what);
  started = now();
  running = 1;
}

/* Memory `m`'s entry (the m-th memory argument), or NULL. */
static const int32_t* memory(unsigned m) {
  for (unsigned i = 0; i < entries(); i++)
    if (entry(i)[0] == SILICA_DEV_MEMORY && (unsigned)entry(i)[4] == m) return entry(i);
  return NULL;
}

/* Device addresses: memory m at (m + 1) << 32. */
uint64_t silica_dev_alloc(uint64_t bytes) {
  const int32_t* m = memory(allocated);
  if (!m || bytes != (uint64_t)m[2] * host_bytes(m[1])) return 0;
  return (uint64_t)++allocated << 32;
}

int32_t silica_dev_sync(uint64_t addr, void* host, uint64_t bytes, int32_t to_device) {
  uint64_t number = (addr >> 32) - 1;
  const int32_t* m = number < allocated ? memory((unsigned)number) : NULL;
  if (!m || (addr & 0xffffffffu) || bytes != (uint64_t)m[2] * host_bytes(m[1])) return 1;
  unsigned lb = line_bytes(m[1]), hb = host_bytes(m[1]);
  uint8_t* p = host;
  uint8_t* buffer = malloc((size_t)CHUNK_WORDS * lb);
  if (!buffer) return 1;
  char what[96];
  snprintf(what, sizeof what, "memory %d (register 0x%02x) %s in call %u", m[4], m[3],
           to_device ? "written" : "read", calls);
  for (uint32_t first = 0; first < (uint32_t)m[2]; first += CHUNK_WORDS) {
    uint32_t n = (uint32_t)m[2] - first < CHUNK_WORDS ? (uint32_t)m[2] - first : CHUNK_WORDS;
    if (to_device) {
      for (uint32_t w = 0; w < n; w++) memcpy(buffer + (size_t)w * lb, p + (size_t)(first + w) * hb, lb);
      request(WRITE_MEMORY, (uint8_t)m[4], first, (uint16_t)n, buffer, (size_t)n * lb, NULL, 0, 1, what);
    } else {
      request(READ_MEMORY, (uint8_t)m[4], first, (uint16_t)n, NULL, 0, buffer, (size_t)n * lb, 1, what);
      for (uint32_t w = 0; w < n; w++) {
        uint8_t* e = p + (size_t)(first + w) * hb;
        memcpy(e, buffer + (size_t)w * lb, lb);
        /* Sign bits above the width are the host's business: the line's
           bytes carry the element's bits, the rest is cleared. */
        if (hb > lb) memset(e + lb, 0, hb - lb);
        if (m[1] % 8) e[lb - 1] &= (uint8_t)((1u << (m[1] % 8)) - 1);
      }
    }
  }
  free(buffer);
  return 0;
}

void silica_dev_close(void) {
  if (running)
    fprintf(stderr, "silica uart: call %u: %u cycles (counted by the shell), %.1f ms from start\n", calls, cycles,
            1e3 * (now() - started));
  running = 0;
  allocated = 0;
}

void silica_dev_fail(int32_t code) {
  char why[160];
  silica_dev_describe(code, why, sizeof why);
  fail("call %u failed with code %d: %s (last cycle count %u)", calls, code, why, cycles);
}
