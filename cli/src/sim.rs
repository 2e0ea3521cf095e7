//! `silica sim`: cycle-based simulation of an hw/comb/seq module.
//!
//! Stimuli come from a file (one line per cycle: the values of the
//! module's non-clock inputs in port order, decimal, `0x` hexadecimal or
//! `0b` binary; `#` starts a comment) or are drawn at random
//! (`--random N --seed S`). The trace has one line per cycle,
//! `cycle N: out=hex ...`, sampled before the clock edge. `--vcd` also
//! writes a value-change dump, and `--testbench` a SystemVerilog
//! testbench that applies the same stimuli to the emitted Verilog and
//! prints the same trace (so Icarus and silica can be compared).

use crate::driver::{run_with_rows, IoArgs};
use clap::Args;
use silica_hw_dialects::eval::Bits;
use silica_hw_dialects::hw::{module_ports, symbol_name};
use silica_hw_dialects::sim::ModuleSim;
use silica_hw_dialects::transforms::specialize::elaborate;
use silica_hw_dialects::types::{bit_width, is_clock, Direction};
use silica_ir::diag::Diagnostic;
use silica_ir::parser::ParsedModule;
use silica_ir::{Context, Ir, OpId};
use std::fmt::Write;
use std::process::ExitCode;

/// Arguments of `silica sim`.
#[derive(Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    io: IoArgs,
    /// The module to simulate (default: the last `hw.module`).
    #[arg(long)]
    top: Option<String>,
    /// Stimuli file: one line of input values per cycle.
    #[arg(long, conflicts_with = "random")]
    stimuli: Option<String>,
    /// Simulate this many cycles of random inputs.
    #[arg(long)]
    random: Option<usize>,
    /// Seed of the random stimuli.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write a value-change dump (VCD) here.
    #[arg(long)]
    vcd: Option<String>,
    /// Also write a SystemVerilog testbench applying the same stimuli.
    #[arg(long)]
    testbench: Option<String>,
}

/// A port as the simulator sees it.
struct SimPort {
    name: String,
    width: u32,
    clock: bool,
}

fn find_top(ctx: &Context, ir: &Ir, top: OpId, name: Option<&str>) -> Option<OpId> {
    let block = ir.regions(top).next().and_then(|r| ir.entry_block(r))?;
    let modules: Vec<OpId> = ir
        .block_ops(block)
        .filter(|&o| ctx.str(ir.op_name(o)) == "hw.module")
        .collect();
    match name {
        Some(n) => modules.into_iter().find(|&m| symbol_name(ctx, ir, m) == n),
        None => modules.last().copied(),
    }
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn bits(&mut self, width: u32) -> Bits {
        let words: Vec<u32> = (0..width.div_ceil(32))
            .map(|_| self.next() as u32)
            .collect();
        Bits::new(width, num_bigint::BigUint::from_slice(&words))
    }
}

fn parse_value(text: &str, width: u32) -> Option<Bits> {
    let (digits, radix) = if let Some(h) = text.strip_prefix("0x") {
        (h, 16)
    } else if let Some(b) = text.strip_prefix("0b") {
        (b, 2)
    } else {
        (text, 10)
    };
    let v = num_bigint::BigUint::parse_bytes(digits.replace('_', "").as_bytes(), radix)?;
    Some(Bits::new(width, v))
}

fn read_stimuli(path: &str, inputs: &[&SimPort]) -> Result<Vec<Vec<Bits>>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("could not open stimuli file '{path}': {e}"))?;
    let mut cycles = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != inputs.len() {
            return Err(format!(
                "{path}:{}:1: error: expected {} input values, found {}",
                n + 1,
                inputs.len(),
                fields.len()
            ));
        }
        let mut row = Vec::new();
        for (f, p) in fields.iter().zip(inputs) {
            let v = parse_value(f, p.width).ok_or_else(|| {
                format!(
                    "{path}:{}:1: error: invalid value '{f}' for input '{}'",
                    n + 1,
                    p.name
                )
            })?;
            row.push(v);
        }
        cycles.push(row);
    }
    Ok(cycles)
}

fn hex(b: &Bits) -> String {
    let digits = (b.width().max(1)).div_ceil(4) as usize;
    format!("{:0>digits$}", b.to_hex())
}

/// Runs `silica sim`.
pub fn run(args: &SimArgs) -> ExitCode {
    // The module to run, once parameters are elaborated.
    let chosen = std::cell::Cell::new(None);
    let mut elaborate = |ctx: &mut Context, m: &mut ParsedModule| {
        let Some(module) = find_top(ctx, &m.ir, m.top, args.top.as_deref()) else {
            return Err(Box::new(Diagnostic::error(
                ir_loc(&m.ir, m.top),
                "no hw.module to simulate",
            )));
        };
        let name = symbol_name(ctx, &m.ir, module);
        chosen.set(Some((elaborate(ctx, &mut m.ir, m.top, module)?, name)));
        Ok(())
    };
    run_with_rows(
        &args.io,
        "",
        &mut elaborate,
        None,
        Some(&mut |ctx, m| {
            let diag = |msg: String| Box::new(Diagnostic::error(ir_loc(&m.ir, m.top), msg));
            let (module, top_name) = chosen
                .take()
                .ok_or_else(|| diag("no hw.module to simulate".into()))?;
            let ir = &m.ir;
            let ports: Vec<(Direction, SimPort)> = module_ports(ctx, ir, module)
                .into_iter()
                .map(|p| {
                    let width = bit_width(ctx, p.ty).unwrap_or(0) as u32;
                    let clock = is_clock(ctx, p.ty);
                    (
                        p.dir,
                        SimPort {
                            name: p.name,
                            width,
                            clock,
                        },
                    )
                })
                .collect();
            // Inout ports cannot be read in hw/comb/seq: they are not
            // driven, and pass zero bits to the instances they reach.
            let inputs: Vec<&SimPort> = ports
                .iter()
                .filter(|p| p.0 == Direction::Input)
                .map(|p| &p.1)
                .collect();
            let data: Vec<&SimPort> = inputs.iter().copied().filter(|p| !p.clock).collect();
            let outputs: Vec<&SimPort> = ports
                .iter()
                .filter(|p| p.0 == Direction::Output)
                .map(|p| &p.1)
                .collect();
            let stimuli = match (&args.stimuli, args.random) {
                (Some(path), _) => read_stimuli(path, &data).map_err(diag)?,
                (None, Some(n)) => {
                    let mut rng = Rng(args.seed);
                    (0..n)
                        .map(|_| data.iter().map(|p| rng.bits(p.width)).collect())
                        .collect()
                }
                (None, None) => return Err(diag("give --stimuli FILE or --random N".into())),
            };
            let mut sim = ModuleSim::new(ctx, ir, module)?;
            let mut trace = String::new();
            let mut samples = Vec::new();
            for (cycle, row) in stimuli.iter().enumerate() {
                let mut values = row.iter();
                let applied: Vec<Bits> = ports
                    .iter()
                    .filter(|p| p.0 != Direction::Output)
                    .map(|(dir, p)| {
                        if *dir == Direction::InOut {
                            Bits::zero(0)
                        } else if p.clock {
                            Bits::zero(1)
                        } else {
                            values
                                .next()
                                .cloned()
                                .unwrap_or_else(|| Bits::zero(p.width))
                        }
                    })
                    .collect();
                let outs = sim.eval(ctx, ir, &applied)?;
                let _ = write!(trace, "cycle {cycle}:");
                for (p, v) in outputs.iter().zip(&outs) {
                    let _ = write!(trace, " {}={}", p.name, hex(v));
                }
                trace.push('\n');
                samples.push((row.clone(), outs));
                sim.step(ctx, ir);
            }
            if let Some(path) = &args.vcd {
                let vcd = vcd(&data, &outputs, &samples);
                std::fs::write(path, vcd)
                    .map_err(|e| diag(format!("could not write '{path}': {e}")))?;
            }
            if let Some(path) = &args.testbench {
                // The Verilog module keeps its name and parameter defaults.
                let tb = testbench(&top_name, &inputs, &outputs, &stimuli);
                std::fs::write(path, tb)
                    .map_err(|e| diag(format!("could not write '{path}': {e}")))?;
            }
            Ok(trace.into_bytes())
        }),
    )
}

fn ir_loc(ir: &Ir, op: OpId) -> silica_ir::Attr {
    ir.op_loc(op)
}

/// A VCD of the inputs and outputs, one time step of 10 per cycle.
fn vcd(inputs: &[&SimPort], outputs: &[&SimPort], samples: &[(Vec<Bits>, Vec<Bits>)]) -> String {
    let mut s = String::from("$timescale 1ns $end\n$scope module top $end\n");
    let all: Vec<&SimPort> = inputs.iter().chain(outputs).copied().collect();
    let id = |i: usize| format!("s{i}");
    for (i, p) in all.iter().enumerate() {
        let _ = writeln!(s, "$var wire {} {} {} $end", p.width.max(1), id(i), p.name);
    }
    s.push_str("$upscope $end\n$enddefinitions $end\n");
    for (cycle, (ins, outs)) in samples.iter().enumerate() {
        let _ = writeln!(s, "#{}", cycle * 10);
        for (i, v) in ins.iter().chain(outs).enumerate() {
            let _ = writeln!(
                s,
                "b{} {}",
                if v.width() == 0 {
                    "0".into()
                } else {
                    v.to_binary()
                },
                id(i)
            );
        }
    }
    let _ = writeln!(s, "#{}", samples.len() * 10);
    s
}

/// A testbench driving module `name` with `stimuli` and printing the
/// trace format of `silica sim`.
fn testbench(
    name: &str,
    inputs: &[&SimPort],
    outputs: &[&SimPort],
    stimuli: &[Vec<Bits>],
) -> String {
    let decl = |w: u32| {
        if w > 1 {
            format!("[{}:0] ", w - 1)
        } else {
            String::new()
        }
    };
    let mut s = String::from("module tb;\n");
    for p in inputs.iter().filter(|p| p.width > 0) {
        let _ = writeln!(s, "  reg {}{};", decl(p.width), p.name);
    }
    for p in outputs.iter().filter(|p| p.width > 0) {
        let _ = writeln!(s, "  wire {}{};", decl(p.width), p.name);
    }
    let conns: Vec<String> = inputs
        .iter()
        .chain(outputs)
        .filter(|p| p.width > 0)
        .map(|p| format!(".{0}({0})", p.name))
        .collect();
    let _ = writeln!(s, "  {name} dut({});", conns.join(", "));
    s.push_str("  initial begin\n");
    for p in inputs.iter().filter(|p| p.clock) {
        let _ = writeln!(s, "    {} = 1'b0;", p.name);
    }
    let fmt: String = outputs.iter().map(|p| format!(" {}=%h", p.name)).collect();
    let args: String = outputs
        .iter()
        .map(|p| {
            if p.width == 0 {
                ", 1'b0".to_string()
            } else {
                format!(", {}", p.name)
            }
        })
        .collect();
    for (cycle, row) in stimuli.iter().enumerate() {
        let data = inputs.iter().filter(|p| !p.clock);
        for (p, v) in data.zip(row) {
            if p.width > 0 {
                let _ = writeln!(s, "    {} = {}'h{};", p.name, p.width, v.to_hex());
            }
        }
        let _ = writeln!(s, "    #1 $display(\"cycle {cycle}:{fmt}\"{args});");
        for p in inputs.iter().filter(|p| p.clock) {
            let _ = writeln!(s, "    {0} = 1'b1; #1 {0} = 1'b0;", p.name);
        }
    }
    s.push_str("    $finish;\n  end\nendmodule\n");
    s
}
