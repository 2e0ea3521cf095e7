//! `silica hls --bitstream`: a design's SystemVerilog through the open
//! FPGA tools to a bitstream, with the figures they measure.
//!
//! iCE40: yosys `synth_ice40 -json`, `nextpnr-ice40` (`--asc`,
//! `--report`), `icepack` to `F.bin`, and `icetime` as a second timing
//! opinion. ECP5: YoWASP's yosys `synth_ecp5 -json`, `nextpnr-ecp5`
//! (`--textcfg`, `--report`), `ecppack` to `F.bit`. The tools run in a
//! scratch directory with relative paths (`tools`), their reports are
//! read with serde_json (`reports`).
//!
//! With a board shell (`crate::wrappers::shell`) the shell is the top, its pins
//! placed by the board's constraints file and its clock the board's
//! oscillator. With no board shell the top's ports are the package's pins; a design
//! with more port bits than the package has user IO is implemented behind
//! a scan wrapper (`scan`) that needs seven pins. A netlist that needs
//! more LUTs, flip-flops, block RAMs or DSPs than the device has is
//! refused with the numbers, and so is one that nextpnr-ice40 cannot
//! pack into the device's logic cells, one that nextpnr's placer cannot
//! place at its utilisation limit (with its packed cells against the
//! device's), and, before any synthesis, one whose estimate needs many
//! times the device's LUTs (`reports::estimate_overflow`). nextpnr's clock
//! is `1000 / clock_ns` MHz; a missed clock is reported (by how much, on
//! which path) and gives no bitstream, unless it was the target's
//! default: then the bitstream is written for the period reached.

pub mod characterize;
pub mod closure;
pub mod reports;
pub mod scan;
mod stack_launcher;
pub mod toolchain;
pub mod tools;
mod wasm_stack;

use crate::flow::design::Design;
use crate::flow::report::synthesis::{Scan, ShellUse, Synthesis, Use};
use crate::model::target::device;
use silica_ir::Context;
use std::path::{Path, PathBuf};
use toolchain::Toolchain;
use tools::find;

/// What the tools made: the figures, the bitstream's bytes (none when
/// the design does not fit or the clock is missed) and the logs and reports worth keeping.
pub struct Implementation {
    pub synthesis: Synthesis,
    /// `F.bin` or `F.bit` and its contents.
    pub bitstream: Option<(String, Vec<u8>)>,
    /// Logs and reports (`F.yosys.log`, `F.stat.json`, `F.nextpnr.log`, `F.nextpnr.json`,
    /// ...), by file name.
    pub logs: Vec<(String, Vec<u8>)>,
}

/// The bitstream file names `--bitstream` may write for `top` (removed
/// when a run fails, so that none is left stale).
pub fn bitstream_names(top: &str) -> Vec<String> {
    let mut names: Vec<String> = device::DEVICES
        .iter()
        .filter_map(|d| toolchain::of(d).ok())
        .map(|t| format!("{top}.{}", t.bitstream_extension))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, String> {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("silica-fpga-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A board shell to implement around the core.
pub struct ShellTop<'a> {
    /// The shell's and the core's SystemVerilog.
    pub verilog: &'a str,
    /// The shell module.
    pub module: &'a str,
    /// Its board.
    pub board: &'a crate::wrappers::shell::board::Board,
}

/// Synthesises, places, routes and packs `design` for its target, inside
/// `shell` when given, nextpnr placing from `seed` where given (else its
/// default), telling `progress` each tool it starts.
pub fn implement(
    ctx: &mut Context,
    design: &Design,
    shell: Option<&ShellTop<'_>>,
    seed: Option<u64>,
    progress: fn(&str),
) -> Result<Implementation, String> {
    let dev = design.estimated.target.device();
    let tc = toolchain::of(dev)?;
    let top = design.estimated.interface.top.as_str();
    let names = Names::new(top);
    // Every tool first, so that a missing one is reported before any work.
    let flow = Flow::find(tc)?;
    // With a shell the design runs on the board's oscillator.
    let clock_ns = shell.map_or(design.estimated.clock.asked_ns, |s| {
        (1e6 / s.board.clock_mhz).round() / 1000.0
    });
    let estimate = design.estimated.summary();
    if let Some(message) = reports::estimate_overflow(dev, &estimate) {
        let synthesis = Synthesis::estimated(dev, &estimate, clock_ns, message);
        let pins = shell.map_or(design.estimated.interface.port_bits(), |_| 4);
        return Ok(does_not_fit(synthesis, pins, None, Vec::new()));
    }
    let scratch = Scratch::new()?;
    let dir = scratch.0.as_path();
    let mut logs = Vec::new();
    progress("yosys: synthesis");
    let Netlist {
        verilog,
        scan,
        pins,
        cells,
        log,
    } = netlist(ctx, design, shell, dev, (tc, &flow.yosys), dir, &names)?;
    keep(&mut logs, &names.yosys_log, &log);
    keep(&mut logs, &names.stat, &read_text(dir, &names.stat)?);
    if reports::overflow(dev, &reports::netlist_use(dev, &cells)).is_some() {
        let synthesis = Synthesis::unplaced(dev, &cells, clock_ns);
        return Ok(does_not_fit(synthesis, pins, scan, logs));
    }
    let mhz = format!("{:.3}", 1000.0 / clock_ns);
    let mut args = vec![
        dev.nextpnr_device,
        "--package",
        dev.package,
        "--json",
        &names.netlist,
        "--report",
        &names.report,
        "--freq",
        &mhz,
        "--timing-allow-fail",
    ];
    let placed = format!("{top}.{}", tc.placed_extension);
    let constraints = shell.map(|s| format!("{top}.{}", s.board.extension));
    if let (Some(s), Some(file)) = (shell, &constraints) {
        std::fs::write(dir.join(file), s.board.constraints)
            .map_err(|e| format!("cannot write {file}: {e}"))?;
        args.extend([tc.constraints_option, file.as_str()]);
    }
    args.extend([tc.placed_option, placed.as_str()]);
    let seed = seed.map(|s| s.to_string());
    if let Some(s) = &seed {
        args.extend(["--seed", s.as_str()]);
    }
    progress("nextpnr: placement and routing");
    let log = match flow.nextpnr.run(&args, dir) {
        Ok(log) => log,
        Err(e) => {
            let log = flow.nextpnr.log(dir);
            let netlist = reports::netlist_use(dev, &cells);
            let synthesis = if let Some(over) = reports::packed_overflow(dev, &log) {
                Synthesis::unpacked(dev, &cells, clock_ns, over)
            } else if let Some(message) = reports::placer_limit(dev, &log, &netlist) {
                Synthesis::unplaceable(dev, &cells, clock_ns, message)
            } else {
                return Err(e);
            };
            keep(&mut logs, &format!("{top}.nextpnr.log"), &log);
            return Ok(does_not_fit(synthesis, pins, scan, logs));
        }
    };
    keep(&mut logs, &format!("{top}.nextpnr.log"), &log);
    let report = read_text(dir, &names.report)?;
    keep(&mut logs, &names.report, &report);
    let pnr = reports::nextpnr_report(&report)?;
    let mut synthesis = Synthesis::new(dev, &cells, pnr, clock_ns);
    synthesis.port_bits = pins;
    if let (Some(s), Some(file)) = (shell, constraints) {
        synthesis.shell = Some(ShellUse {
            module: s.module.to_string(),
            board: s.board.name.to_string(),
            constraints: file,
            clock_mhz: s.board.clock_mhz,
        });
    }
    if let Some(scan) = scan {
        keep(&mut logs, &format!("{top}.scan.sv"), &verilog);
        synthesis.scan = Some(scan);
    }
    if let Some(icetime) = &flow.timing {
        let part = dev.nextpnr_device.trim_start_matches("--");
        // icetime fails when its estimate misses the clock: its log still
        // holds the estimate.
        let _ = icetime.run(&["-d", part, "-P", dev.package, "-c", &mhz, &placed], dir);
        let text = icetime.log(dir);
        synthesis.icetime_fmax_mhz = reports::icetime_mhz(&text);
        keep(&mut logs, &format!("{top}.icetime.log"), &text);
    }
    // A clock the user asked for (or a board's oscillator) must be met;
    // a design that misses the target's default is written for the
    // period it reaches.
    if !synthesis.clock_met {
        let reached = synthesis.fmax_mhz.filter(|&f| f > 0.0).map(reached_ns);
        match reached.filter(|_| shell.is_none() && design.estimated.clock.default) {
            Some(ns) => synthesis.reached_ns = Some(ns),
            None => {
                return Ok(Implementation {
                    synthesis,
                    bitstream: None,
                    logs,
                })
            }
        }
    }
    let bitstream = format!("{top}.{}", tc.bitstream_extension);
    progress("packing the bitstream");
    let log = flow.pack.run(&[&placed, &bitstream], dir)?;
    keep(&mut logs, &format!("{top}.pack.log"), &log);
    let bytes = std::fs::read(dir.join(&bitstream))
        .map_err(|e| format!("the packer wrote no {bitstream}: {e}"))?;
    synthesis.bitstream = Some(bitstream.clone());
    Ok(Implementation {
        synthesis,
        bitstream: Some((bitstream, bytes)),
        logs,
    })
}

/// The period (ns) of `fmax_mhz`, rounded up to 0.01 ns: the clock a
/// placed design that missed its default clock is written for.
pub fn reached_ns(fmax_mhz: f64) -> f64 {
    (100_000.0 / fmax_mhz).ceil() / 100.0
}

/// A design that does not fit: its synthesis figures (`synthesis`, with
/// the top's port bits and scan wrapper), its logs, no bitstream.
fn does_not_fit(
    mut synthesis: Synthesis,
    pins: u64,
    scan: Option<Scan>,
    logs: Vec<(String, Vec<u8>)>,
) -> Implementation {
    synthesis.port_bits = pins;
    synthesis.scan = scan;
    Implementation {
        synthesis,
        bitstream: None,
        logs,
    }
}

/// What yosys made of a design.
struct Netlist {
    /// The Verilog synthesised: the design's, or its scan wrapper's.
    verilog: String,
    scan: Option<Scan>,
    /// The top's port bits.
    pins: u64,
    cells: reports::Cells,
    /// yosys's log.
    log: String,
}

/// Synthesises `design` (inside `shell`, or behind a scan wrapper when
/// its ports outnumber the package's pins) with `yosys` in `dir`.
fn netlist(
    ctx: &mut Context,
    design: &Design,
    shell: Option<&ShellTop<'_>>,
    dev: &device::Device,
    (tc, yosys): (&Toolchain, &tools::Tool),
    dir: &Path,
    names: &Names,
) -> Result<Netlist, String> {
    let pins = match shell {
        Some(_) => 4,
        None => design.estimated.interface.port_bits(),
    };
    let (verilog, scan) = if let Some(s) = shell {
        (s.verilog.to_string(), None)
    } else if pins <= dev.io {
        (design.verilog.clone(), None)
    } else {
        let (mut verilog, scan) = scan::wrap(ctx, &design.hw_mlir, &design.estimated.interface)?;
        verilog.push_str(&design.ip_verilog);
        (verilog, Some(scan))
    };
    let synth_top = match (shell, &scan) {
        (Some(s), _) => s.module,
        (None, Some(s)) => s.module.as_str(),
        (None, None) => design.estimated.interface.top.as_str(),
    };
    std::fs::write(dir.join(&names.sv), &verilog)
        .map_err(|e| format!("cannot write {}: {e}", names.sv))?;
    let synth = tc.synth_command(dev);
    let script = format!(
        "read_verilog -sv {}; {synth} -top {synth_top} -json {}; tee -q -o {} stat -json",
        names.sv, names.netlist, names.stat
    );
    let log = yosys.run(&["-p", &script], dir)?;
    let cells = reports::yosys_cells(&read_text(dir, &names.stat)?)?;
    Ok(Netlist {
        verilog,
        scan,
        pins,
        cells,
        log,
    })
}

/// Synthesises `design` with yosys alone (no placement): the device's
/// LUT, flip-flop, block RAM and DSP use of the netlist (`silica dse
/// --level synth`).
pub fn synthesize_netlist(ctx: &mut Context, design: &Design) -> Result<Vec<Use>, String> {
    let dev = design.estimated.target.device();
    if !dev.family.is_device() {
        return Err(format!(
            "target '{}' gives estimates only: it cannot be synthesised",
            dev.name
        ));
    }
    let tc = toolchain::of(dev)?;
    let yosys = find(tc.yosys)?;
    let scratch = Scratch::new()?;
    let names = Names::new(&design.estimated.interface.top);
    let n = netlist(ctx, design, None, dev, (tc, &yosys), &scratch.0, &names)?;
    let uses = reports::netlist_use(dev, &n.cells);
    match reports::overflow(dev, &uses) {
        Some(message) => Err(message),
        None => Ok(uses),
    }
}

/// File names of one run.
struct Names {
    sv: String,
    netlist: String,
    stat: String,
    report: String,
    yosys_log: String,
}

impl Names {
    fn new(top: &str) -> Names {
        Names {
            sv: format!("{top}.sv"),
            netlist: format!("{top}.netlist.json"),
            stat: format!("{top}.stat.json"),
            report: format!("{top}.nextpnr.json"),
            yosys_log: format!("{top}.yosys.log"),
        }
    }
}

/// The tools of a family's flow.
struct Flow {
    yosys: tools::Tool,
    nextpnr: tools::Tool,
    pack: tools::Tool,
    /// A second timing opinion (iCE40's `icetime`).
    timing: Option<tools::Tool>,
}

impl Flow {
    fn find(tc: &Toolchain) -> Result<Flow, String> {
        Ok(Flow {
            yosys: find(tc.yosys)?,
            nextpnr: find(tc.nextpnr)?,
            pack: find(tc.pack)?,
            timing: tc.timing.map(find).transpose()?,
        })
    }
}

fn keep(logs: &mut Vec<(String, Vec<u8>)>, name: &str, text: &str) {
    if !text.is_empty() {
        logs.push((name.to_string(), text.as_bytes().to_vec()));
    }
}

fn read_text(dir: &Path, name: &str) -> Result<String, String> {
    std::fs::read_to_string(dir.join(name)).map_err(|e| format!("cannot read {name}: {e}"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_missed_default_clock_is_written_for_the_period_reached() {
        assert_eq!(super::reached_ns(28.8), 34.73);
        assert_eq!(super::reached_ns(50.0), 20.0);
    }
}
