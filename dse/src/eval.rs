//! Evaluating one point: the kernel tiled per band (`silica_affine`'s
//! `tile_perfectly_nested`, the point loops keeping the band's labels so
//! that loop directives still name them, the tile loops labelled
//! `<label>_tile`), then DMA copies (`affine-data-copy-generate` with
//! `generate-dma`, `affine-pipeline-data-transfer`) through the pass
//! manager, then the hls flow with the point's directives: `estimate`
//! (schedule and operator library, in memory, no files; a design with DMA
//! has no static latency, its waits last as long as the transfers: its
//! cycles are the static model's of its DMA engines, and where the model
//! cannot time it, its circuit is built and co-simulated in silica's
//! simulator against the software on random inputs, which measures
//! them), `synth` (yosys:
//! real LUT/FF/BRAM/DSP, the latency at the target's clock) or `pnr`
//! (yosys and nextpnr: real LUT/FF/BRAM/DSP and Fmax).

use crate::kernel::{Input, Parsed};
use crate::point::{Config, Tile};
use serde::{Deserialize, Serialize};
use silica_ir::diag::{render, SourceFile};
use silica_ir::pass::{options::split_options, Instrumentation, OpPassManager};
use silica_ir::{Context, Ir, OpId};

/// How far a point is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Schedule and operator library (milliseconds).
    Estimate,
    /// yosys: measured resources (seconds).
    Synth,
    /// yosys, nextpnr: measured resources and Fmax.
    Pnr,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Estimate => "estimate",
            Level::Synth => "synth",
            Level::Pnr => "pnr",
        }
    }

    /// A point's time limit unless `--point-timeout` says otherwise: a
    /// minute to schedule, an hour to synthesise or place and route.
    pub fn default_timeout(self) -> std::time::Duration {
        std::time::Duration::from_secs(match self {
            Level::Estimate => 60,
            Level::Synth | Level::Pnr => 3600,
        })
    }

    pub fn parse(s: &str) -> Result<Level, String> {
        match s {
            "estimate" => Ok(Level::Estimate),
            "synth" => Ok(Level::Synth),
            "pnr" => Ok(Level::Pnr),
            _ => Err(format!("unknown level '{s}' (estimate, synth, pnr)")),
        }
    }
}

/// The figures of an evaluated point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metrics {
    pub latency_cycles: u64,
    /// Latency times the clock period: at `estimate` and `synth` the
    /// period the design can reach (the target's, or the operator
    /// library's predicted critical path where that is longer, see
    /// [`reachable_period_ns`]), nextpnr's achieved period at `pnr`.
    pub latency_us: f64,
    pub lut: u64,
    pub ff: u64,
    pub dsp: u64,
    pub bram: u64,
    /// nextpnr's Fmax (`pnr`).
    pub fmax_mhz: Option<f64>,
    /// The operator library's predicted Fmax (the longest register to
    /// register path of the estimate); `latency_us` uses its period where
    /// it is longer than the asked clock's.
    #[serde(default)]
    pub predicted_mhz: f64,
    /// Multiplications the design executes over a run (see [`multipliers`]).
    #[serde(default)]
    pub mul_ops: u64,
    /// Multipliers the design instantiates (see [`multipliers`]).
    #[serde(default)]
    pub multipliers: u64,
    /// Directives the flow did not honour, and why.
    pub unhonoured: Vec<String>,
    /// `latency_cycles` was measured by co-simulation (a design with DMA
    /// the static model cannot time, see
    /// [`Evaluator::cosimulated_latency`]), not taken from the schedule.
    #[serde(default)]
    pub cosimulated: bool,
    /// `latency_cycles` is the static model's of the DMA engines (a
    /// design with DMA, `silica_hls::flow::schedule::dma_timing`).
    #[serde(default)]
    pub dma_model: bool,
    /// The fewest cycles the device allows the kernel (the larger of its
    /// roofline's compute and memory bounds, `silica_hls` `roofline`);
    /// none without a device or where the work is not known.
    #[serde(default)]
    pub roofline_cycles: Option<u64>,
}

/// What became of a point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "lowercase")]
pub enum Outcome {
    Ok {
        metrics: Metrics,
    },
    /// Not a design: pruned before evaluation, rejected by the flow, or
    /// larger than the device. Deterministic: cached.
    Invalid {
        reason: String,
        /// The estimate's figures of a design larger than the device (a
        /// search scales them to skip points larger still).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        estimate: Option<Metrics>,
    },
    /// The evaluation itself failed (a worker died, a tool crashed): not
    /// cached, retried.
    Failed {
        error: String,
    },
    /// Not evaluated: its lower bounds (`crate::bound`) are dominated by
    /// a point evaluated before it, so it cannot be on the front. Not
    /// cached (it depends on the run).
    Dominated {
        /// The bounds, as `latency >= 1200, bram >= 2`.
        bounds: String,
        /// The record that dominates them.
        by: usize,
    },
}

/// Evaluates points of one kernel in this process.
pub struct Evaluator {
    pub ctx: Context,
    pub input: Input,
    pub parsed: Parsed,
    /// The modules of `input.ip`.
    pub ip: silica_hls::model::ip::Library,
    /// The kernels lifted for bounds, kept for the points that lift to
    /// the same one ([`silica_hls::flow::lifts`]).
    pub lifts: silica_hls::Lifts,
}

impl Evaluator {
    /// The kernel tiled and copied as `cfg` asks: its IR, or why not.
    pub fn transform(&mut self, cfg: &Config) -> Result<Ir, String> {
        let mut ir = self.parsed.module.ir.clone();
        let func = self.parsed.func;
        for t in &cfg.tiles {
            tile_band(&mut self.ctx, &mut ir, func, &self.input.top, t)?;
        }
        if let Some(kib) = cfg.dma_kib {
            let mut pm = OpPassManager::new("builtin.module");
            let copy = split_options(&format!(
                "generate-dma fast-mem-space=1 fast-mem-capacity={kib}"
            ))?;
            pm.add_pass(&silica_affine::data_copy::AFFINE_DATA_COPY_GENERATE, copy)?;
            pm.add_pass(
                &silica_affine::pipeline_data_transfer::AFFINE_PIPELINE_DATA_TRANSFER,
                Vec::new(),
            )?;
            let instr = Instrumentation {
                verify_each: true,
                ..Instrumentation::default()
            };
            let top = self.parsed.module.top;
            pm.run(&mut self.ctx, &mut ir, top, &instr)
                .map_err(|d| self.render(&d, &cfg.directives))?;
        }
        Ok(ir)
    }

    /// Runs the flow on `cfg` at `level`.
    pub fn evaluate(&mut self, cfg: &Config, level: Level) -> Outcome {
        match self.try_evaluate(cfg, level) {
            Ok(o) => o,
            Err(reason) => Outcome::Invalid {
                reason,
                estimate: None,
            },
        }
    }

    /// The hls flow's options for `cfg`.
    fn options(&self, cfg: &Config) -> Result<silica_hls::Options, String> {
        let directives =
            silica_hls::model::directives::file::parse("directives.toml", &cfg.directives)
                .map_err(|(pos, m)| format!("directives.toml:{}:{}: {m}", pos.line, pos.col))?;
        Ok(silica_hls::Options {
            clock_ns: Some(cfg.clock_ns),
            directives: Some(directives),
            ip: self.ip.clone(),
            max_port_bits: self.input.max_port_bits,
            ..silica_hls::Options::new(&self.input.top, silica_hls::Target::named(&cfg.target)?)
        })
    }

    /// The lower bounds of `cfg`'s estimate, without scheduling it
    /// ([`silica_hls::lower_bound`]); an error where the flow rejects the
    /// point (its evaluation then says why).
    pub fn lower_bound(&mut self, cfg: &Config) -> Result<silica_hls::LowerBound, String> {
        let ir = self.transform(cfg)?;
        let opts = self.options(cfg)?;
        let module = self.parsed.module.top;
        // The IR is the input tiled and copied as `cfg` asks.
        let input = format!("{:?} {:?}", cfg.tiles, cfg.dma_kib);
        silica_hls::lower_bound(&mut self.ctx, &ir, module, &opts, &mut self.lifts, &input)
            .map_err(|d| self.render(&d, &cfg.directives))
    }

    /// The estimated design of `ir` under `opts`, and at levels past the
    /// estimate its texts (the estimate level stops before emission).
    fn build(
        &mut self,
        ir: &silica_ir::Ir,
        opts: &silica_hls::Options,
        level: Level,
    ) -> (
        Result<silica_hls::Estimated, Box<silica_ir::Diagnostic>>,
        Option<silica_hls::Design>,
    ) {
        let module = self.parsed.module.top;
        match level {
            Level::Estimate => (silica_hls::estimate(&mut self.ctx, ir, module, opts), None),
            _ => match silica_hls::synthesize(&mut self.ctx, ir, module, opts) {
                Ok(d) => (Ok(d.estimated.clone()), Some(d)),
                Err(e) => (Err(e), None),
            },
        }
    }

    fn try_evaluate(&mut self, cfg: &Config, level: Level) -> Result<Outcome, String> {
        let ir = self.transform(cfg)?;
        let mut opts = self.options(cfg)?;
        let module = self.parsed.module.top;
        let (mut estimated, mut design) = self.build(&ir, &opts, level);
        // Fitting (`Input::fit`) is tried where the DSPs or block RAMs
        // exceed the device, the LUTs within it, as `silica hls` fits such
        // a design, or where float units overflow the LUTs: sharing
        // integer units rarely brings a design back within the LUTs, and
        // costs a schedule and an estimate a try.
        if self.input.fit && estimated.as_ref().is_ok_and(fitting_may_help) {
            opts.fit = true;
            opts.fit_tries = Some(FIT_TRIES);
            (estimated, design) = self.build(&ir, &opts, level);
        }
        let estimated = estimated.map_err(|d| self.render(&d, &cfg.directives))?;
        let json = estimated.json(&silica_hls::Measurements::default());
        let (latency, cosimulated, dma_model) = match (json.latency.max, json.latency.dma_model) {
            (Some(latency), _) => (latency, false, false),
            (None, Some(latency)) => (latency, false, true),
            // A design with DMA the model cannot time is co-simulated: it
            // needs its circuit.
            (None, None) if cfg.dma_kib.is_some() => {
                let design = silica_hls::synthesize(&mut self.ctx, &ir, module, &opts)
                    .map_err(|d| self.render(&d, &cfg.directives))?;
                match self.cosimulated_latency(&design) {
                    Ok(latency) => (latency, true, false),
                    Err(error) => return Ok(Outcome::Failed { error }),
                }
            }
            (None, None) => return Err("no static latency: it depends on the data".into()),
        };
        let unhonoured = estimated
            .remarks
            .directives
            .outcomes
            .iter()
            .filter(|o| !o.honoured)
            .map(|o| format!("{} on {}: {}", o.directive, o.subject, o.why))
            .collect();
        let e = &json.resources.estimate;
        let (mul_ops, multipliers) = multipliers(&estimated);
        let mut m = Metrics {
            latency_cycles: latency,
            latency_us: latency as f64 * reachable_period_ns(estimated.clock.asked_ns, e.period_ns)
                / 1000.0,
            lut: e.logic(),
            ff: e.ff,
            dsp: e.dsp,
            bram: e.bram,
            fmax_mhz: None,
            predicted_mhz: e.fmax_mhz,
            mul_ops,
            multipliers,
            unhonoured,
            cosimulated,
            dma_model,
            roofline_cycles: json
                .roofline
                .as_ref()
                .map(|r| r.compute_cycles.max(r.memory_cycles)),
        };
        let device = estimated.target.device();
        if let (Level::Synth, Some(design)) = (level, &design) {
            let uses = match silica_hls::fpga::synthesize_netlist(&mut self.ctx, design) {
                Ok(uses) => uses,
                Err(e) if e.contains("does not fit") || e.contains("needs") => {
                    return Ok(Outcome::Invalid {
                        reason: e,
                        estimate: None,
                    })
                }
                Err(e) => return Ok(Outcome::Failed { error: e }),
            };
            for u in uses {
                match u.what {
                    "LUT" => m.lut = u.used,
                    "FF" => m.ff = u.used,
                    "DSP" => m.dsp = u.used,
                    "BRAM" => m.bram = u.used,
                    _ => {}
                }
            }
        } else if let (Level::Pnr, Some(design)) = (level, &design) {
            let imp = match silica_hls::fpga::implement(&mut self.ctx, design, None, None, |_| {}) {
                Ok(imp) => imp,
                Err(e) if e.contains("does not fit") || e.contains("needs") => {
                    return Ok(Outcome::Invalid {
                        reason: e,
                        estimate: None,
                    })
                }
                Err(e) => return Ok(Outcome::Failed { error: e }),
            };
            let s = imp.synthesis;
            if let Some(reason) = s.overflow {
                return Ok(Outcome::Invalid {
                    reason,
                    estimate: None,
                });
            }
            m.lut = s.logic();
            m.ff = s.ff;
            m.dsp = s.dsp;
            m.bram = s.bram;
            m.fmax_mhz = s.fmax_mhz;
            if let Some(f) = s.fmax_mhz {
                m.latency_us = latency as f64 / f;
            }
        } else if device.luts > 0 {
            let over: Vec<String> = [
                ("LUT", m.lut, device.luts),
                ("DSP", m.dsp, device.dsps),
                ("BRAM", m.bram, device.brams),
            ]
            .iter()
            .filter(|(_, used, has)| used > has)
            .map(|(what, used, has)| format!("{used} {what} of {has}"))
            .collect();
            if !over.is_empty() {
                return Ok(Outcome::Invalid {
                    reason: format!(
                        "larger than {}: the estimate needs {}",
                        device.name,
                        over.join(", ")
                    ),
                    estimate: Some(m),
                });
            }
        }
        Ok(Outcome::Ok { metrics: m })
    }

    /// The cycles `design` (the point's kernel with DMA) takes, measured
    /// by co-simulating its circuit in silica's simulator (in Verilator
    /// when it instantiates hand-written modules, `--ip`, which silica's
    /// simulator cannot read) against the software run of the kernel as
    /// written (so the tiling and the copies are checked with it) on the
    /// inputs of seed [`COSIM_SEED`]; any value that differs is an error.
    pub fn cosimulated_latency(&mut self, design: &silica_hls::Design) -> Result<u64, String> {
        use silica_hls::verification::cosim;
        let (kernel, module) = (&self.parsed.module.ir, self.parsed.module.top);
        let iface = &design.estimated.interface;
        let options = cosim::Options::default();
        if !design.ip_verilog.is_empty() {
            let rtl = cosim::Rtl::Text(&design.verilog);
            let report = cosim::cosimulate(
                &mut self.ctx,
                kernel,
                module,
                iface,
                rtl,
                COSIM_SEED,
                &options,
            )
            .map_err(|e| format!("co-simulation: {e}"))?;
            return passed(report);
        }
        let hw = silica_ir::parser::parse(
            &mut self.ctx,
            "F.hw.mlir",
            design.hw_mlir.as_bytes(),
            silica_ir::parser::ParseOptions::default(),
        )
        .map_err(|d| format!("F.hw.mlir does not read back: {}", d.message))?;
        let core = silica_ir::symbols::lookup(&self.ctx, &hw.ir, hw.top, &self.input.top)
            .ok_or_else(|| format!("F.hw.mlir has no module '{}'", self.input.top))?;
        let report = cosim::cosimulate_in_silica(
            &mut self.ctx,
            kernel,
            module,
            iface,
            &hw.ir,
            core,
            COSIM_SEED,
            &options,
        )
        .map_err(|e| format!("co-simulation: {e}"))?;
        passed(report)
    }

    fn render(&self, d: &silica_ir::Diagnostic, directives: &str) -> String {
        let sources = [
            SourceFile {
                name: &self.input.name,
                text: self.input.text.as_bytes(),
            },
            SourceFile {
                name: "directives.toml",
                text: directives.as_bytes(),
            },
        ];
        render(&self.ctx, &sources, d).trim_end().to_string()
    }
}

/// The cycles of a co-simulation where every value matched.
fn passed(report: silica_hls::verification::cosim::CosimReport) -> Result<u64, String> {
    if report.passed() {
        Ok(report.latency)
    } else {
        Err(format!("co-simulation: {report}"))
    }
}

/// The seed of the inputs of a point's co-simulation.
pub const COSIM_SEED: u64 = 1;

/// Whether the design of `e` exceeds its device by its DSPs or block
/// RAMs, its LUTs within the device, or by its LUTs up to
/// [`float_sharing_reach`] times the device's where it computes in
/// floats: where `silica hls` fits it by sharing multipliers and float
/// units or making fewer banks of its on-chip copies.
fn fitting_may_help(e: &silica_hls::Estimated) -> bool {
    let device = e.target.device();
    let s = e.summary();
    let floats = e.float_occupancy().map(float_sharing_reach);
    device.luts > 0
        && ((s.dsp > device.dsps || s.bram > device.brams) && s.logic() <= device.luts
            || floats.is_some_and(|reach| s.logic() as f64 <= reach * device.luts as f64))
}

/// How many times its device's LUTs a design computing in floats may
/// need for fitting to be tried, given how busy its float units are
/// (`Estimated::float_occupancy`): float units take hundreds of LUTs
/// each, and sharing them brings such designs back where they idle (2mm
/// in f32 jammed by 18 and 12 on ecp5-25k: 67,153 LUT by the estimate,
/// each adder busy one cycle in four, 20,752 fitted, four of each unit
/// for 30 and 34 operations), as sharing integer units rarely does.
/// Twice the device where the units are busy, up to three times as they
/// idle: sharing busy units slows a design as much as it saves (fdtd-2d
/// in f32 at II 1: its points fitted from 2.5 times the device took
/// twice the cycles of smaller points, and the time of the descent's
/// others: 40,707 cycles where twice gives 24,346). Further out, every
/// point of a nest fitted fills the device, and `--auto`'s descent,
/// which gives each nest its share of it, can no longer tell them apart
/// (3mm in f32 at four times: 41,500 cycles where three give 17,211).
fn float_sharing_reach(occupancy: f64) -> f64 {
    (1.0 / occupancy.max(f64::MIN_POSITIVE)).clamp(2.0, 3.0)
}

/// The designs fitting one point may evaluate: past them it keeps what
/// it has. A count, so that a point gives the same design however busy
/// the machine (a limit of 4 s gave gemm f32 on ecp5-25k 3,402 cycles or
/// 3,644 by whether its twentieth try ended in time); 2mm's fits in f32
/// take up to 30, fdtd-2d's 26.
const FIT_TRIES: usize = 32;

/// The clock period in ns a design asked to run at `clock_ns` can reach
/// by the estimate: the asked period, or the operator library's predicted
/// critical path (`predicted_ns`, the longest register to register path,
/// the period of `predicted_mhz`) where the design misses it.
pub fn reachable_period_ns(clock_ns: f64, predicted_ns: f64) -> f64 {
    clock_ns.max(predicted_ns)
}

/// The multiplications `design` performs over a run and the multipliers
/// it instantiates. A multiplication is a node of library class `mul`
/// (but not one by a constant: shifts and adds) or `fmul`
/// ([`silica_hls::flow::analysis::muls`]). Counted on the kernel before
/// flattening and datapath rewriting (`Estimated::multiplications`): those
/// can repeat a product in every iteration of a pipeline (sunk code, a
/// product distributed over a sum to shorten the schedule) without the
/// program needing it, and such repeats are not useful work. Where the
/// scheduled kernel performs fewer (rewriting factored a product out),
/// its own count (each node once per iteration of the loop whose body or
/// sunk code holds its block). The multipliers are those the circuit
/// keeps (`CircuitEstimate::multipliers`): a class under `[limits]` has
/// its units, and products of the same registers or memory read ports
/// are one multiplier however many operations the schedule has (the
/// synthesis tools merge them, and so does the estimate).
pub fn multipliers(design: &silica_hls::Estimated) -> (u64, u64) {
    use silica_hls::flow::analysis::muls::is_multiplication;
    use silica_hls::model::kernel::Item;
    let k = &design.scheduled.kernel;
    let iterations = &design.scheduled.figures.iterations;
    let scheduled = (0..k.nodes.len())
        .filter(|&n| is_multiplication(k, n))
        .map(|n| {
            let b = k.nodes[n].block;
            k.loops
                .iter()
                .position(|l| l.body.contains(&Item::Block(b)) || l.sunk.contains(&b))
                .and_then(|l| iterations.get(l).copied())
                .unwrap_or(1)
        })
        .sum::<u64>();
    let ops = design
        .multiplications
        .map_or(scheduled, |needed| needed.min(scheduled));
    (ops, design.estimate.multipliers)
}

/// Tiles the band of `func` whose outermost loop `t.band` names.
fn tile_band(
    ctx: &mut Context,
    ir: &mut Ir,
    func: OpId,
    top: &str,
    t: &Tile,
) -> Result<(), String> {
    use silica_hls::flow::front::names;
    let (loops, _) = names::collect(ctx, ir, func, top);
    let roots: Vec<OpId> = names::find_loops(&loops, &t.band)
        .iter()
        .map(|l| l.op)
        .collect();
    let band = silica_affine::tile::tileable_bands(ctx, ir, func)
        .into_iter()
        .find(|b| b.first().is_some_and(|r| roots.contains(r)))
        .ok_or_else(|| format!("no tileable band starts at '{}'", t.band))?;
    if band.len() != t.sizes.len() {
        return Err(format!(
            "band '{}' has {} loops, not {}",
            t.band,
            band.len(),
            t.sizes.len()
        ));
    }
    if !silica_affine::tile_validity::is_tiling_valid(ctx, ir, &band) {
        return Err(format!(
            "tiling band '{}' could reverse a dependence",
            t.band
        ));
    }
    let labels: Vec<Option<String>> = band
        .iter()
        .map(|&op| {
            loops
                .iter()
                .find(|l| l.op == op)
                .and_then(|l| l.label.clone())
        })
        .collect();
    let nest = silica_affine::tile::tile_perfectly_nested(ctx, ir, &band, &t.sizes)
        .map_err(|e| format!("band '{}' cannot be tiled: {e:?}", t.band))?;
    let n = band.len();
    for (i, label) in labels.iter().enumerate() {
        let Some(label) = label else { continue };
        set_label(ctx, ir, nest[i], &format!("{label}_tile"));
        set_label(ctx, ir, nest[n + i], label);
    }
    Ok(())
}

/// Sets the `hls.label` of loop `op`.
fn set_label(ctx: &mut Context, ir: &mut Ir, op: OpId, label: &str) {
    let key = ctx.sym("hls.label");
    let value = ctx.string_attr(label.as_bytes());
    let mut entries: Vec<_> = ctx
        .dict_entries(ir.op_attrs(op))
        .iter()
        .copied()
        .filter(|(k, _)| *k != key)
        .collect();
    entries.push((key, value));
    let dict = ctx.dict_attr(entries);
    ir.set_op_attrs(op, dict);
}

#[cfg(test)]
mod tests {
    use super::{float_sharing_reach, reachable_period_ns};

    #[test]
    fn float_designs_are_fitted_from_further_out_the_more_their_units_idle() {
        // Units busy every cycle: up to twice the device.
        assert_eq!(float_sharing_reach(1.0), 2.0);
        // Busy one cycle in 2.5: up to 2.5 times; in 4: three, no more.
        assert_eq!(float_sharing_reach(0.4), 2.5);
        assert_eq!(float_sharing_reach(0.25), 3.0);
        assert_eq!(float_sharing_reach(0.0), 3.0);
    }

    #[test]
    fn the_period_is_the_asked_one_unless_the_design_misses_it() {
        // A design whose longest path fits the asked 10 ns runs at 10 ns.
        assert_eq!(reachable_period_ns(10.0, 7.5), 10.0);
        // One predicted at 27.5 ns (36.4 MHz) runs at 27.5 ns, not 10.
        assert_eq!(reachable_period_ns(10.0, 27.5), 27.5);
        // No register to register path at all: the asked period.
        assert_eq!(reachable_period_ns(10.0, 0.0), 10.0);
    }
}
