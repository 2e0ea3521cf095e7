//! The hardware side of a co-simulation: the RTL in Verilator, driven
//! by a C++ testbench generated from the [`Interface`] alone.
//!
//! The testbench (one cycle = inputs set and evaluated with `clock` low,
//! then the rising edge):
//! - registers power up random (`randReset(2)`, seeded), so the core
//!   must rely on `reset`; `reset` is held high for two cycles, then the
//!   core must raise `idle` within [`IDLE_WAIT`] cycles;
//! - the scalars are driven and `start` is high for the one cycle in
//!   which `idle` is; from the next cycle on the scalar inputs carry
//!   their complement, so a core that does not latch them fails;
//! - each memory argument is a model with its ports: a read (`ce` = 1,
//!   `we` = 0) in cycle n puts the word on `q` in cycle n + 1 (which then
//!   holds until the next read); a write (`ce` = 1, `we` = 1) takes effect
//!   at the edge, after the reads of that edge (read-first), ports in
//!   order; an address past the last word is an error;
//! - the latency is the number of rising edges from the one that samples
//!   `start` to the cycle in which `done` is high (1 when `done` rises in
//!   the cycle right after start); no `done` within the cycle limit is a
//!   timeout error; `done` must be low again in the next cycle and stay
//!   low for [`AFTER_DONE`] cycles, and no memory write may be issued in
//!   the `done` cycle or after it (every write has been performed when
//!   `done` rises); scalar results must hold their values in those
//!   cycles (they are valid until the next start);
//! - scalar results are sampled in the `done` cycle; then the testbench
//!   prints `latency N` and the outputs (see `outputs`).
//!
//! With [`Options::vcd`], the model is built with tracing and the run's
//! waveform (a VCD, one dump per half cycle) is kept, also when the run
//! fails.
//!
//! The model is built once ([`build`]) and run per seed ([`simulate`]):
//! `testbench STIMULI POWER_UP_SEED`. Inputs come from the STIMULI file
//! (one hex value per line: each scalar
//! argument, then each memory's words, arguments in order). Ports wider
//! than 64 bits are Verilator's `VlWide`. The model is made by
//! `verilator --cc --exe` and `make` in the work directory, with
//! Verilator's runtime library and a prelude of headers compiled once
//! (`build_cache`).

use super::build_cache;
use super::process::{run_tool, Limits};
use super::stimuli::Stimuli;
use super::{CosimError, Options};
use crate::model::interface::{names, Interface};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The Verilator executable.
pub const VERILATOR: &str = "verilator";

/// How every model is built (quiet: lint warnings are not this check's
/// business; the C++ at `-O1`, which Verilator's makefile raises to
/// `-Os` for the model's hot code and the testbench).
const BUILD_FLAGS: [&str; 9] = [
    "--cc",
    "--exe",
    "--prefix",
    "Vdut",
    "-Wno-fatal",
    "-Wno-lint",
    "-Wno-style",
    "-CFLAGS",
    "-O1",
];

/// Runs the static schedule says take at most this many cycles build the
/// model's and the testbench's C++ at `-O0` (`OPT_FAST`, `OPT_SLOW`; the
/// cached runtime library keeps `-Os`): g++ takes a third to a quarter of
/// the time on large models, and the model runs about 10 times slower, a
/// fraction of a second at this length.
pub const QUICK_BUILD_CYCLES: u64 = 100_000;

/// What `make` adds to build a quick model.
const QUICK_MAKE: [&str; 2] = ["OPT_FAST=-O0", "OPT_SLOW=-O0"];

/// What a traced build adds: Verilator's VCD tracing, and the
/// testbench's code that opens `trace.vcd` and dumps every half cycle.
const TRACE_FLAGS: [&str; 3] = ["--trace", "-CFLAGS", "-DSILICA_TRACE"];

/// Cycles after reset within which `idle` must rise.
pub const IDLE_WAIT: u64 = 16;

/// Cycles after `done` that the testbench watches for stray activity.
pub const AFTER_DONE: u64 = 4;

/// What the hardware run reported.
#[derive(Clone, Debug)]
pub struct HardwareRun {
    /// Cycles from start to done.
    pub latency: u64,
    /// The printed outputs (without the latency line and the notes).
    pub outputs: String,
    /// Lines the testbench printed after `# ` (e.g. the AXI traffic).
    pub notes: Vec<String>,
    /// Per memory (by name), the cycle after start of each element's
    /// last write; none where the hardware never wrote it.
    pub last_writes: Vec<(String, Vec<Option<u64>>)>,
}

/// The testbench's input file: the stimuli one value per line.
pub fn stimuli_file(iface: &Interface, stimuli: &Stimuli) -> String {
    let mut out = String::new();
    for (arg, _) in iface.scalars() {
        let _ = writeln!(out, "{:x}", stimuli.values[arg.index][0]);
    }
    for (arg, _) in iface.memories() {
        for w in &stimuli.values[arg.index] {
            let _ = writeln!(out, "{w:x}");
        }
    }
    out
}

/// A built Verilator model with its testbench.
#[derive(Clone, Debug)]
pub struct Model {
    binary: PathBuf,
    traced: bool,
}

impl Model {
    /// The built executable.
    pub fn binary(&self) -> &Path {
        &self.binary
    }
}

/// Builds the model of `sv` (the design's SystemVerilog file) with the
/// testbench of `iface` in `dir`.
pub fn build(
    iface: &Interface,
    sv: &Path,
    options: &Options,
    dir: &Path,
) -> Result<Model, CosimError> {
    let bench = Bench {
        top: &iface.top,
        testbench: testbench(iface, options.max_cycles),
        files: Vec::new(),
        traced: traced_signals(iface, options),
        ..Bench::default()
    };
    build_bench(&bench, sv, options, dir)
}

/// The signals a waveform traces unless [`Options::vcd_all`] asks for
/// every one: the core's ports and its controller's state registers
/// (`state`, and `task_state<t>` of each dataflow task), as Verilator
/// scope patterns (any instance's: the core may sit in a wrapper).
pub fn traced_signals(iface: &Interface, options: &Options) -> Vec<String> {
    if options.vcd.is_none() || options.vcd_all {
        return Vec::new();
    }
    let mut signals: Vec<String> = iface
        .ports()
        .iter()
        .map(|p| format!("*.{}", p.name))
        .collect();
    signals.extend(["*.state".to_string(), "*.task_state*".to_string()]);
    signals
}

/// A Verilator configuration file that traces `signals` (scope patterns)
/// alone.
fn trace_config(signals: &[String]) -> String {
    let mut out = String::from("`verilator_config\ntracing_off -scope \"*\"\n");
    for s in signals {
        let _ = writeln!(out, "tracing_on -scope \"{s}\"");
    }
    out
}

/// A testbench to build a model with.
#[derive(Default)]
pub struct Bench<'a> {
    /// The design's top module.
    pub top: &'a str,
    /// The testbench's C++ text.
    pub testbench: String,
    /// Other files the testbench includes (name, text).
    pub files: Vec<(String, String)>,
    /// Objects linked into the executable (absolute paths).
    pub objects: Vec<String>,
    /// The executable's name in `obj/` (`testbench` when empty).
    pub program: &'a str,
    /// Where only some signals are traced ([`traced_signals`]): their
    /// scope patterns; empty: every signal.
    pub traced: Vec<String>,
}

/// What `make` adds for a model whose run the static schedule says
/// takes `expected_cycles`.
fn make_args(expected_cycles: Option<u64>) -> Vec<&'static str> {
    if expected_cycles.is_some_and(|c| c <= QUICK_BUILD_CYCLES) {
        QUICK_MAKE.to_vec()
    } else {
        Vec::new()
    }
}

/// Builds the model of `sv` with `bench` in `dir`.
pub fn build_bench(
    bench: &Bench<'_>,
    sv: &Path,
    options: &Options,
    dir: &Path,
) -> Result<Model, CosimError> {
    let limits = Limits {
        timeout: options.timeout,
    };
    let files = std::iter::once(("testbench.cpp".to_string(), bench.testbench.clone()))
        .chain(bench.files.iter().cloned());
    for (name, text) in files {
        std::fs::write(dir.join(&name), text)
            .map_err(|e| CosimError::Tool(format!("cannot write {name}: {e}")))?;
    }
    let sv = sv.to_string_lossy().into_owned();
    let traced = options.vcd.is_some();
    let mut flags = BUILD_FLAGS.to_vec();
    if traced {
        flags.extend(TRACE_FLAGS);
    }
    let config = "trace.vlt";
    if traced && !bench.traced.is_empty() {
        std::fs::write(dir.join(config), trace_config(&bench.traced))
            .map_err(|e| CosimError::Tool(format!("cannot write {config}: {e}")))?;
    }
    let program = if bench.program.is_empty() {
        "testbench"
    } else {
        bench.program
    };
    let mut args = flags.clone();
    args.extend([
        "--top-module",
        bench.top,
        "--Mdir",
        "obj",
        "-o",
        program,
        "testbench.cpp",
    ]);
    if traced && !bench.traced.is_empty() {
        args.push(config);
    }
    args.push(sv.as_str());
    args.extend(bench.objects.iter().map(String::as_str));
    run_tool(VERILATOR, &args, dir, &limits)
        .map_err(|e| CosimError::Tool(format!("Verilator on the design: {e}")))?;
    let make = make_args(options.expected_cycles);
    build_cache::make(VERILATOR, &flags, dir, "Vdut.mk", &make, &limits)
        .map_err(|e| CosimError::Tool(format!("building the Verilator model: {e}")))?;
    let obj = dir.join("obj");
    Ok(Model {
        binary: obj.join(program),
        traced,
    })
}

/// Runs `model` on `stimuli` (registers powering up from `seed`) in
/// `dir` and returns its report; with [`Options::vcd`], the run's
/// waveform is copied there whatever the outcome.
pub fn simulate(
    model: &Model,
    iface: &Interface,
    stimuli: &Stimuli,
    seed: u64,
    options: &Options,
    dir: &Path,
) -> Result<HardwareRun, CosimError> {
    let limits = Limits {
        timeout: options.timeout,
    };
    let inputs = format!("stimuli-{seed}.txt");
    std::fs::write(dir.join(&inputs), stimuli_file(iface, stimuli))
        .map_err(|e| CosimError::Tool(format!("cannot write {inputs}: {e}")))?;
    let power_up = ((seed % 0x7fff_fffe) + 1).to_string();
    let binary = model.binary.to_string_lossy();
    let outcome = run_tool(&binary, &[inputs.as_str(), power_up.as_str()], dir, &limits);
    if let (true, Some(vcd)) = (model.traced, &options.vcd) {
        // Kept whatever the outcome: a trace is most useful on a failure.
        std::fs::copy(dir.join("trace.vcd"), vcd).map_err(|e| {
            CosimError::Tool(format!("cannot write the trace {}: {e}", vcd.display()))
        })?;
    }
    let text = outcome.map_err(|e| CosimError::Hardware(hardware_message(&e)))?;
    let (first, rest) = text.split_once('\n').unwrap_or((text.as_str(), ""));
    let latency = first
        .strip_prefix("latency ")
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(|| CosimError::Hardware(format!("the testbench printed '{first}'")))?;
    let (notes, values): (Vec<&str>, Vec<&str>) = rest.lines().partition(|l| l.starts_with("# "));
    let (writes, values): (Vec<&str>, Vec<&str>) =
        values.into_iter().partition(|l| l.starts_with("@ "));
    let last_writes = writes
        .iter()
        .filter_map(|l| {
            let mut words = l[2..].split_whitespace();
            let name = words.next()?.to_string();
            Some((name, words.map(|c| c.parse().ok()).collect()))
        })
        .collect();
    Ok(HardwareRun {
        latency,
        outputs: values.join("\n"),
        notes: notes.iter().map(|n| n[2..].to_string()).collect(),
        last_writes,
    })
}

/// The testbench's own error lines (`error: ...`) from a failed run.
fn hardware_message(failure: &str) -> String {
    let errors: Vec<&str> = failure
        .lines()
        .filter_map(|l| l.strip_prefix("error: "))
        .collect();
    if errors.is_empty() {
        failure.to_string()
    } else {
        errors.join("\n")
    }
}

/// The 64-bit chunks a value of `width` bits takes.
fn chunks(width: u32) -> u32 {
    width.div_ceil(64)
}

/// The testbench for `iface`.
pub fn testbench(iface: &Interface, max_cycles: u64) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "// Co-simulation testbench for '{}', generated by silica from its interface.",
        iface.top
    );
    t.push_str(PRELUDE);
    // Memory models.
    for (arg, m) in iface.memories() {
        let n = &arg.name;
        let _ = writeln!(
            t,
            "static std::vector<Word> mem_{n}({}, Word({}, 0));",
            m.elements(),
            chunks(m.element_width)
        );
        for p in 0..m.ports {
            let _ = writeln!(t, "static Word q_{n}_{p}({}, 0);", chunks(m.word_width()));
        }
        // The cycle after start of each element's last write (-1: none).
        let _ = writeln!(
            t,
            "static std::vector<int64_t> wrote_{n}({}, -1);",
            m.elements()
        );
    }
    // Scalar values.
    for (arg, s) in iface.scalars() {
        let _ = writeln!(
            t,
            "static Word scalar_{}({}, 0);",
            arg.name,
            chunks(s.width)
        );
    }
    // Loading the stimuli.
    t.push_str("static void load(Stimuli& in) {\n");
    for (arg, s) in iface.scalars() {
        let _ = writeln!(
            t,
            "  scalar_{0} = in.next(\"{0}\", {1});",
            arg.name,
            chunks(s.width)
        );
    }
    for (arg, m) in iface.memories() {
        let _ = writeln!(
            t,
            "  for (auto& w : mem_{0}) w = in.next(\"{0}\", {1});",
            arg.name,
            chunks(m.element_width)
        );
    }
    t.push_str("}\n");
    // Driving the inputs of one cycle.
    t.push_str("static void drive(Vdut* d, bool reset, bool start, bool latched) {\n");
    let _ = writeln!(
        t,
        "  d->{} = reset;\n  d->{} = start;",
        names::RESET,
        names::START
    );
    for (arg, s) in iface.scalars() {
        let _ = writeln!(
            t,
            "  put(d->{0}, latched ? complement(scalar_{0}) : scalar_{0}, {1});",
            arg.name, s.width
        );
    }
    for (arg, m) in iface.memories() {
        for p in 0..m.ports {
            let _ = writeln!(
                t,
                "  put(d->{}, q_{}_{p}, {});",
                names::q(&arg.name, p),
                arg.name,
                m.word_width()
            );
        }
    }
    t.push_str("}\n");
    // The memories at a rising edge.
    t.push_str(
        "// Serves the memory ports at the coming edge: reads first, then writes\n\
         // in port order. Returns the name of a port that writes, if any.\n\
         static const char* memories(Vdut* d, uint64_t cycle) {\n  const char* writer = nullptr;\n  \
         const int64_t when = int64_t(cycle - started);\n",
    );
    for (arg, m) in iface.memories() {
        for p in 0..m.ports {
            let (n, ce, we, addr) = (
                &arg.name,
                names::ce(&arg.name, p),
                names::we(&arg.name, p),
                names::address(&arg.name, p),
            );
            let at = format!("address(\"{addr}\", d->{addr}, {}, cycle)", m.words);
            let word = match m.lanes {
                1 => format!("mem_{n}[{at}]"),
                l => format!("pack(mem_{n}, {at} * {l}, {l}, {})", m.element_width),
            };
            let _ = writeln!(t, "  if (d->{ce} && !d->{we}) q_{n}_{p} = {word};");
        }
    }
    for (arg, m) in iface.memories() {
        for p in 0..m.ports {
            let (n, ce, we, addr, data) = (
                &arg.name,
                names::ce(&arg.name, p),
                names::we(&arg.name, p),
                names::address(&arg.name, p),
                names::d(&arg.name, p),
            );
            let at = format!("address(\"{addr}\", d->{addr}, {}, cycle)", m.words);
            let data = format!("get(d->{data}, {})", chunks(m.word_width()));
            let write = match m.lanes {
                1 => format!("uint64_t a = {at}; mem_{n}[a] = {data}; wrote_{n}[a] = when;"),
                l => format!(
                    "uint64_t a = {at}; unpack(mem_{n}, \"{we}\", a * {l}, uint64_t(d->{we}), {data}, {l}, {}, cycle); \
                     for (unsigned j = 0; j < {l}; j++) if (uint64_t(d->{we}) >> j & 1) wrote_{n}[a * {l} + j] = when;",
                    m.element_width
                ),
            };
            let _ = writeln!(
                t,
                "  if (d->{ce} && d->{we}) {{ {write} writer = \"{we}\"; }}"
            );
        }
    }
    t.push_str("  return writer;\n}\n");
    // Printing the outputs.
    t.push_str("static void print_outputs(const std::vector<Word>& results) {\n");
    for (arg, _) in iface.memories() {
        let _ = writeln!(t, "  for (const auto& w : mem_{}) print_word(w);", arg.name);
    }
    t.push_str("  for (const auto& w : results) print_word(w);\n");
    for (arg, _) in iface.memories() {
        let _ = writeln!(t, "  print_writes(\"{0}\", wrote_{0});", arg.name);
    }
    t.push_str("}\n");
    t.push_str("static std::vector<Word> sample_results(Vdut* d) {\n  std::vector<Word> r;\n");
    for r in &iface.results {
        let _ = writeln!(t, "  r.push_back(get(d->{}, {}));", r.name, chunks(r.width));
    }
    t.push_str("  return r;\n}\n");
    let quoted: Vec<String> = iface
        .results
        .iter()
        .map(|r| format!("\"{}\"", r.name))
        .collect();
    let _ = writeln!(
        t,
        "static const std::vector<std::string> RESULT_NAMES = {{{}}};",
        quoted.join(", ")
    );
    let _ = writeln!(
        t,
        "static const uint64_t MAX_CYCLES = {max_cycles}ULL;\nstatic const uint64_t IDLE_WAIT = {IDLE_WAIT};\nstatic const uint64_t AFTER_DONE = {AFTER_DONE};"
    );
    t.push_str(MAIN);
    t
}

/// Helpers every testbench shares.
pub(crate) const PRELUDE: &str = r#"#include "Vdut.h"
#include "verilated.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

// A value as 64-bit chunks, least significant first.
typedef std::vector<uint64_t> Word;

#ifdef SILICA_TRACE
#include "verilated_vcd_c.h"
// The trace, closed (so flushed) on every way out.
static VerilatedVcdC* trace = nullptr;
#endif

[[noreturn]] static void fail(const std::string& message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
#ifdef SILICA_TRACE
  if (trace) trace->close();
#endif
  std::exit(3);
}

struct Stimuli {
  std::ifstream in;
  explicit Stimuli(const char* path) : in(path) {
    if (!in) fail(std::string("cannot read ") + path);
  }
  Word next(const char* what, size_t chunks) {
    std::string line;
    if (!std::getline(in, line)) fail(std::string("the stimuli end before a value of ") + what);
    Word w(chunks, 0);
    size_t bit = 0;
    for (size_t i = line.size(); i-- > 0; bit += 4) {
      char c = line[i];
      uint64_t v = c >= 'a' ? uint64_t(c - 'a' + 10) : uint64_t(c - '0');
      if (bit / 64 < chunks) w[bit / 64] |= v << (bit % 64);
    }
    return w;
  }
};

static Word complement(const Word& w) {
  Word c(w);
  for (auto& x : c) x = ~x;
  return c;
}

// Ports of up to 64 bits are integers; wider ones are VlWide (32-bit
// words). Inputs are cut to the port's width.
template <typename T> static void put(T& port, const Word& w, unsigned width) {
  uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  port = T(w[0] & mask);
}
template <std::size_t N> static void put(VlWide<N>& port, const Word& w, unsigned width) {
  for (std::size_t i = 0; i < N; i++) {
    uint64_t bits = w[i / 2] >> (32 * (i % 2));
    unsigned left = width - 32 * unsigned(i);
    if (left < 32) bits &= (uint64_t(1) << left) - 1;
    port.at(i) = EData(bits);
  }
}
template <typename T> static Word get(const T& port, size_t chunks) {
  Word w(chunks, 0);
  w[0] = uint64_t(port);
  return w;
}
template <std::size_t N> static Word get(const VlWide<N>& port, size_t chunks) {
  Word w(chunks, 0);
  for (std::size_t i = 0; i < N; i++) w[i / 2] |= uint64_t(port.at(i)) << (32 * (i % 2));
  return w;
}

// The cycle of the start edge.
static uint64_t started = 0;

static uint64_t address(const char* port, uint64_t a, uint64_t words, uint64_t cycle) {
  if (a >= words)
    fail("cycle " + std::to_string(cycle) + ": " + port + " = " + std::to_string(a) +
         " is past the last word (" + std::to_string(words) + " words)");
  return a;
}

// Bits [at, at + bits) of w.
static Word bits_of(const Word& w, unsigned at, unsigned bits) {
  Word r((bits + 63) / 64, 0);
  for (unsigned i = 0; i < bits; i++) {
    unsigned b = at + i;
    if (b / 64 < w.size() && (w[b / 64] >> (b % 64) & 1)) r[i / 64] |= uint64_t(1) << (i % 64);
  }
  return r;
}

// Sets bits [at, at + bits) of w to v.
static void set_bits(Word& w, unsigned at, unsigned bits, const Word& v) {
  for (unsigned i = 0; i < bits; i++) {
    uint64_t bit = i / 64 < v.size() ? v[i / 64] >> (i % 64) & 1 : 0;
    unsigned b = at + i;
    w[b / 64] = (w[b / 64] & ~(uint64_t(1) << (b % 64))) | (bit << (b % 64));
  }
}

// A word of a packed memory's ports: elements first .. first + lanes
// (those past the last element read as 0).
static Word pack(const std::vector<Word>& mem, uint64_t first, unsigned lanes, unsigned bits) {
  Word w((lanes * bits + 63) / 64, 0);
  for (unsigned j = 0; j < lanes && first + j < mem.size(); j++) set_bits(w, j * bits, bits, mem[first + j]);
  return w;
}

// A write of a packed memory's ports: the lanes `we` enables of `data`
// to elements first .. first + lanes.
static void unpack(std::vector<Word>& mem, const char* we_port, uint64_t first, uint64_t we,
                   const Word& data, unsigned lanes, unsigned bits, uint64_t cycle) {
  for (unsigned j = 0; j < lanes; j++) {
    if (!(we >> j & 1)) continue;
    if (first + j >= mem.size())
      fail("cycle " + std::to_string(cycle) + ": " + we_port + " writes lane " + std::to_string(j) +
           " of a word, element " + std::to_string(first + j) + ", past the last (" +
           std::to_string(mem.size()) + " elements)");
    mem[first + j] = bits_of(data, j * bits, bits);
  }
}

// `@ NAME c0 c1 ...`: the cycle after start of each element's last
// write (-1: never written).
static void print_writes(const char* name, const std::vector<int64_t>& wrote) {
  std::printf("@ %s", name);
  for (int64_t c : wrote) std::printf(" %lld", (long long)c);
  std::printf("\n");
}

static void print_word(const Word& w) {
  size_t top = w.size();
  while (top > 1 && w[top - 1] == 0) top--;
  std::printf("%llx", (unsigned long long)w[top - 1]);
  for (size_t i = top - 1; i-- > 0;) std::printf("%016llx", (unsigned long long)w[i]);
  std::printf("\n");
}
"#;

/// The simulation loop every testbench shares.
const MAIN: &str = r#"
int main(int argc, char** argv) {
  VerilatedContext* context = new VerilatedContext;
  context->commandArgs(argc, argv);
  context->randReset(2);
  if (argc != 3) fail("usage: testbench STIMULI POWER_UP_SEED");
  context->randSeed(std::atoi(argv[2]));
  Vdut* d = new Vdut{context};
  Stimuli in(argv[1]);
  load(in);
  uint64_t cycle = 0;
#ifdef SILICA_TRACE
  context->traceEverOn(true);
  trace = new VerilatedVcdC;
  d->trace(trace, 99);
  trace->open("trace.vcd");
#endif
  auto dump = [&](uint64_t time) {
#ifdef SILICA_TRACE
    trace->dump(time);
#else
    (void)time;
#endif
  };
  // A cycle's inputs may be driven twice (idle, then start): the
  // waveform samples them once, as the rising edge sees them.
  auto settle = [&](bool reset, bool start, bool latched) {
    drive(d, reset, start, latched);
    d->clock = 0;
    d->eval();
  };
  auto edge = [&](bool serve) -> const char* {
    const char* writer = serve ? memories(d, cycle) : nullptr;
    dump(10 * cycle);
    d->clock = 1;
    d->eval();
    dump(10 * cycle + 5);
    cycle++;
    return writer;
  };
  for (int i = 0; i < 2; i++) {
    settle(true, false, false);
    edge(false);
  }
  for (uint64_t i = 0;; i++) {
    settle(false, false, false);
    if (d->idle) break;
    if (i == IDLE_WAIT) fail("idle is not high within " + std::to_string(IDLE_WAIT) + " cycles after reset");
    edge(true);
  }
  settle(false, true, false);
  started = cycle;
  edge(true);
  uint64_t latency = 0;
  for (;;) {
    latency++;
    settle(false, false, true);
    if (d->done) break;
    if (latency >= MAX_CYCLES)
      fail("timeout: done is not high within " + std::to_string(MAX_CYCLES) + " cycles after start");
    edge(true);
  }
  std::vector<Word> results = sample_results(d);
  if (const char* w = edge(true))
    fail(std::string(w) + " is high in the done cycle (" + std::to_string(latency) +
         "): every memory write must be performed when done rises");
  for (uint64_t i = 0; i < AFTER_DONE; i++) {
    settle(false, false, true);
    std::vector<Word> now = sample_results(d);
    for (size_t r = 0; r < results.size(); r++)
      if (now[r] != results[r])
        fail(RESULT_NAMES[r] + " changes after done (it must hold until the next start)");
    if (d->done)
      fail(i == 0 ? "done is high for more than one cycle"
                  : "done rises again without a start");
    if (const char* w = edge(true)) fail(std::string(w) + " is high after done");
  }
  d->final();
#ifdef SILICA_TRACE
  trace->close();
#endif
  std::printf("latency %llu\n", (unsigned long long)latency);
  print_outputs(results);
  delete d;
  delete context;
  return 0;
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_runs_known_to_be_short_build_without_optimisation() {
        let quick = |c| make_args(c).contains(&"OPT_FAST=-O0");
        assert!(quick(Some(QUICK_BUILD_CYCLES)));
        assert!(quick(Some(9729)));
        assert!(!quick(Some(QUICK_BUILD_CYCLES + 1)));
        assert!(!quick(None), "data-dependent latency");
    }
    use crate::model::interface::{Access, ArgKind};
    use crate::test_support::{self, memory, scalar};
    use num_bigint::BigUint;

    fn interface() -> Interface {
        let mut i = test_support::interface(
            &[
                ("n", scalar("i70", 70)),
                ("A", memory("memref<3xi8>", &[3], 8, Access::ReadWrite)),
            ],
            &[("i1", 1)],
        );
        if let ArgKind::Memory(m) = &mut i.args[1].kind {
            m.ports = 2;
        }
        i
    }

    #[test]
    fn stimuli_are_scalars_then_memory_words() {
        let stimuli = Stimuli {
            values: vec![
                vec![BigUint::from(0x1_0000_0000_0000_0000u128)],
                vec![1u8, 2, 255].into_iter().map(BigUint::from).collect(),
            ],
        };
        assert_eq!(
            stimuli_file(&interface(), &stimuli),
            "10000000000000000\n1\n2\nff\n"
        );
    }

    #[test]
    fn testbench_serves_every_port_and_result() {
        let tb = testbench(&interface(), 1000);
        for needle in [
            "static std::vector<Word> mem_A(3, Word(1, 0));",
            "static Word scalar_n(2, 0);",
            "put(d->n, latched ? complement(scalar_n) : scalar_n, 70);",
            "put(d->A_q1, q_A_1, 8);",
            "if (d->A_ce1 && !d->A_we1) q_A_1 = mem_A[address(\"A_address1\", d->A_address1, 3, cycle)];",
            "uint64_t a = address(\"A_address0\", d->A_address0, 3, cycle); mem_A[a] = get(d->A_d0, 1); \
             wrote_A[a] = when; writer = \"A_we0\";",
            "print_writes(\"A\", wrote_A);",
            "r.push_back(get(d->result0, 1));",
            "static const uint64_t MAX_CYCLES = 1000ULL;",
        ] {
            assert!(tb.contains(needle), "missing {needle}\n{tb}");
        }
        // Reads of an edge are served before its writes.
        let read = tb.find("q_A_0 = mem_A").unwrap();
        let write = tb.find("uint64_t a = address(\"A_address0\"").unwrap();
        assert!(read < write);
    }
}
