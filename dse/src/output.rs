//! The outputs in `-o DIR`: `points.csv` (every point: its choices, what
//! became of it, its figures), `pareto.json` (the front), a directives
//! file per Pareto point (`pareto/point-N.toml`, ready for `silica hls
//! --directives`; with `pareto/point-N.mlir`, the tiled kernel, where the
//! point tiles or copies), `pareto.svg` and `summary.txt`.

use crate::eval::{Level, Metrics, Outcome};
use crate::space::{show, Space};
use crate::{Params, Record, Report};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;

/// Writes every output.
pub fn write(
    p: &Params,
    space: &Space,
    report: &Report,
    kernels: &[(usize, String)],
) -> std::io::Result<()> {
    let dir = &p.out;
    std::fs::create_dir_all(dir.join("pareto"))?;
    // Files of an earlier front would mislead.
    for e in std::fs::read_dir(dir.join("pareto"))?.flatten() {
        let name = e.file_name();
        if name.to_string_lossy().starts_with("point-") {
            std::fs::remove_file(e.path())?;
        }
    }
    put(dir, "points.csv", &csv(p, space, report))?;
    for &i in &report.front {
        let r = &report.records[i];
        let kernel = kernels.iter().find(|(k, _)| *k == i);
        let input = match kernel {
            Some(_) => format!("pareto/point-{}.mlir", r.id),
            None => p.input.name.clone(),
        };
        let text = format!(
            "# Pareto point {} of silica dse: silica hls {input} --top {} --target {} --directives pareto/point-{}.toml\n{}",
            r.id, p.input.top, r.config.target, r.id, r.config.directives
        );
        put(dir, &format!("pareto/point-{}.toml", r.id), &text)?;
        if let Some((_, k)) = kernel {
            put(dir, &format!("pareto/point-{}.mlir", r.id), k)?;
        }
    }
    let json = pareto_json(p, space, report, kernels);
    put(
        dir,
        "pareto.json",
        &(serde_json::to_string_pretty(&json).map_err(std::io::Error::other)? + "\n"),
    )?;
    put(dir, "pareto.svg", &crate::plot::svg(p, report))?;
    put(dir, "summary.txt", &report.summary)?;
    Ok(())
}

fn put(dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    let path = dir.join(name);
    let temp = dir.join(format!(
        ".{}.dse-{}",
        name.replace('/', "_"),
        std::process::id()
    ));
    std::fs::write(&temp, text)?;
    std::fs::rename(&temp, &path)
}

/// A CSV field, quoted when it needs to be.
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

const FIGURES: [&str; 7] = [
    "latency_cycles",
    "latency_us",
    "lut",
    "ff",
    "dsp",
    "bram",
    "fmax_mhz",
];

fn figures(m: Option<&Metrics>) -> Vec<String> {
    match m {
        None => vec![String::new(); FIGURES.len()],
        Some(m) => vec![
            m.latency_cycles.to_string(),
            format!("{:.4}", m.latency_us),
            m.lut.to_string(),
            m.ff.to_string(),
            m.dsp.to_string(),
            m.bram.to_string(),
            m.fmax_mhz.map(|f| format!("{f:.2}")).unwrap_or_default(),
        ],
    }
}

/// The multipliers' efficiency of a design: the multiplications it
/// performs (`Metrics::mul_ops`: every point computes the program's, but
/// one that hoists an invariant product out of a loop performs it fewer
/// times) per multiplier instantiated, per cycle of latency; 1 when every
/// multiplier does useful work in every cycle, never more. None without
/// multiplications.
pub fn efficiency(m: &Metrics) -> Option<f64> {
    let capacity = m.multipliers * m.latency_cycles;
    (m.mul_ops > 0 && capacity > 0).then(|| m.mul_ops as f64 / capacity as f64)
}

/// The share of its device's roofline a design reaches: the fewest
/// cycles any design of the kernel could take there over its own.
pub fn roofline(m: &Metrics) -> Option<f64> {
    let bound = m.roofline_cycles?;
    (m.latency_cycles > 0).then(|| bound as f64 / m.latency_cycles as f64)
}

/// The note of a point whose latency is the static DMA model's.
const DMA_MODEL: &str = "cycles from the static model of the DMA engines";

/// The note of a point whose latency co-simulation measured.
const COSIMULATED: &str = "cycles measured by co-simulation (DMA: no static latency)";

fn status(o: &Outcome) -> (&'static str, String) {
    match o {
        Outcome::Ok { metrics } => {
            let mut notes = metrics.unhonoured.clone();
            if metrics.cosimulated {
                notes.insert(0, COSIMULATED.into());
            }
            if metrics.dma_model {
                notes.insert(0, DMA_MODEL.into());
            }
            ("ok", notes.join("; "))
        }
        Outcome::Invalid { reason, .. } if reason.starts_with("pruned: ") => {
            ("pruned", reason["pruned: ".len()..].to_string())
        }
        Outcome::Invalid { reason, .. } => ("invalid", reason.clone()),
        Outcome::Failed { error } => ("failed", error.clone()),
        Outcome::Dominated { bounds, by } => (
            "dominated",
            format!("not evaluated: lower bounds {bounds} dominated by point {by}"),
        ),
    }
}

/// `points.csv`: the `validated_` figures are those of `--validate`, at
/// `--validate-level` (the `level` column names it).
pub fn csv(p: &Params, space: &Space, report: &Report) -> String {
    let mut out = String::from("id");
    for d in &space.dims {
        write!(out, ",{}", field(&d.knob.column())).ok();
    }
    out.push_str(",status,level,cached,pareto");
    for f in FIGURES {
        write!(out, ",{f}").ok();
    }
    for f in FIGURES {
        write!(out, ",validated_{f}").ok();
    }
    out.push_str(",mul_ops,multipliers,mul_efficiency,roofline,note\n");
    for r in &report.records {
        write!(out, "{}", r.id).ok();
        for (d, &g) in space.dims.iter().zip(&r.genes) {
            write!(out, ",{}", field(&show(&d.choices[g]))).ok();
        }
        let (st, note) = status(&r.outcome);
        let level = match (&r.outcome, &r.validated) {
            (_, Some(Outcome::Ok { .. })) => p.validate_level.name(),
            (Outcome::Ok { .. }, _) => report.level.name(),
            (Outcome::Dominated { .. }, _) => "pruned",
            _ => "",
        };
        let pareto = report.front.contains(&(r.id));
        write!(out, ",{st},{level},{},{pareto}", r.cached).ok();
        for f in figures(r.metrics()) {
            write!(out, ",{f}").ok();
        }
        let v = match &r.validated {
            Some(Outcome::Ok { metrics }) => Some(metrics),
            _ => None,
        };
        for f in figures(v) {
            write!(out, ",{f}").ok();
        }
        match r.metrics() {
            Some(m) => write!(
                out,
                ",{},{},{},{}",
                m.mul_ops,
                m.multipliers,
                efficiency(m).map_or(String::new(), |e| format!("{e:.4}")),
                roofline(m).map_or(String::new(), |f| format!("{f:.4}"))
            ),
            None => write!(out, ",,,,"),
        }
        .ok();
        let note = match &r.validated {
            Some(o @ (Outcome::Invalid { .. } | Outcome::Failed { .. })) => {
                format!("{note} validation: {}", status(o).1)
            }
            _ => note,
        };
        writeln!(out, ",{}", field(note.lines().next().unwrap_or(""))).ok();
    }
    out
}

#[derive(Serialize)]
struct ParetoJson<'a> {
    top: &'a str,
    objectives: Vec<&'static str>,
    space_size: String,
    search: &'static str,
    points_seen: usize,
    evaluated: usize,
    /// The level of the `validated` figures (`--validate-level`).
    validation_level: &'static str,
    baseline: &'a Metrics,
    front: Vec<FrontPoint<'a>>,
}

#[derive(Serialize)]
struct FrontPoint<'a> {
    id: usize,
    choices: std::collections::BTreeMap<String, String>,
    target: &'a str,
    clock_ns: f64,
    directives: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    kernel: Option<String>,
    estimate: Option<&'a Metrics>,
    /// [`efficiency`] of the estimate.
    #[serde(skip_serializing_if = "Option::is_none")]
    mul_efficiency: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    validated: Option<&'a Outcome>,
    /// (estimate - measure) / measure per figure, for validated points.
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate_error: Option<Errors>,
}

/// Relative errors of an estimate against the measured figures.
#[derive(Serialize, Clone, Copy, Debug)]
pub struct Errors {
    pub latency_us: f64,
    pub lut: f64,
    pub ff: f64,
    pub dsp: f64,
    pub bram: f64,
    /// The operator library's predicted Fmax against nextpnr's (`pnr`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fmax_mhz: Option<f64>,
}

/// The estimate's error against the measure (`synth` or `pnr`; relative
/// to the measure; 0 where both are 0).
pub fn errors(est: &Metrics, measured: &Metrics) -> Errors {
    let rel = |e: f64, m: f64| {
        if m == 0.0 {
            if e == 0.0 {
                0.0
            } else {
                1.0
            }
        } else {
            (e - m) / m
        }
    };
    Errors {
        latency_us: rel(est.latency_us, measured.latency_us),
        lut: rel(est.lut as f64, measured.lut as f64),
        ff: rel(est.ff as f64, measured.ff as f64),
        dsp: rel(est.dsp as f64, measured.dsp as f64),
        bram: rel(est.bram as f64, measured.bram as f64),
        fmax_mhz: measured.fmax_mhz.map(|f| rel(est.predicted_mhz, f)),
    }
}

fn validated_errors(r: &Record) -> Option<Errors> {
    match (r.metrics(), &r.validated) {
        (Some(e), Some(Outcome::Ok { metrics })) => Some(errors(e, metrics)),
        _ => None,
    }
}

fn pareto_json<'a>(
    p: &'a Params,
    space: &Space,
    report: &'a Report,
    kernels: &[(usize, String)],
) -> ParetoJson<'a> {
    ParetoJson {
        top: &p.input.top,
        objectives: p.objectives.iter().map(|o| o.name()).collect(),
        space_size: report.space_size.to_string(),
        search: report.strategy,
        points_seen: report.records.len(),
        evaluated: report.evaluated,
        validation_level: p.validate_level.name(),
        baseline: &report.baseline,
        front: report
            .front
            .iter()
            .map(|&i| {
                let r = &report.records[i];
                FrontPoint {
                    id: r.id,
                    choices: space
                        .dims
                        .iter()
                        .zip(&r.genes)
                        .map(|(d, &g)| (d.knob.column(), show(&d.choices[g])))
                        .collect(),
                    target: &r.config.target,
                    clock_ns: r.config.clock_ns,
                    directives: format!("pareto/point-{}.toml", r.id),
                    kernel: kernels
                        .iter()
                        .any(|(k, _)| *k == i)
                        .then(|| format!("pareto/point-{}.mlir", r.id)),
                    estimate: r.metrics(),
                    mul_efficiency: r.metrics().and_then(efficiency),
                    validated: r.validated.as_ref(),
                    estimate_error: validated_errors(r),
                }
            })
            .collect(),
    }
}

/// The name of the unit of logic the figures of `p`'s target count:
/// `LC` on iCE40 (logic cells), else `LUT`; at the synth level, which
/// has no placed logic cells, iCE40's netlist `LUT4`s.
fn logic_label(p: &Params, level: Level) -> &'static str {
    let family = silica_hls::model::target::device::lookup(&p.target).map(|d| d.family);
    match family.map(|f| f.logic_name()) {
        Ok("LC") if level == Level::Synth => "LUT4",
        Ok(name) => name,
        Err(_) => "LUT",
    }
}

/// `summary.txt`, also printed.
pub fn summary(p: &Params, space: &Space, report: &Report) -> String {
    let mut s = String::new();
    let logic = logic_label(p, p.level);
    let count = |f: &dyn Fn(&Record) -> bool| report.records.iter().filter(|r| f(r)).count();
    writeln!(
        s,
        "silica dse: {} in {}, {} point(s) in the space ({} dimension(s)), {} search",
        p.input.top,
        p.input.name,
        report.space_size,
        space.dims.len(),
        report.strategy
    )
    .ok();
    writeln!(
        s,
        "points: {} seen, {} evaluated at {} in {:.2} s, {} from the cache, {} pruned, {} invalid, {} failed",
        report.records.len(),
        report.evaluated,
        p.level.name(),
        report.seconds,
        count(&|r| r.cached),
        count(&|r| status(&r.outcome).0 == "pruned"),
        count(&|r| status(&r.outcome).0 == "invalid"),
        count(&|r| status(&r.outcome).0 == "failed"),
    )
    .ok();
    if let Some(n) = report.dominated {
        writeln!(
            s,
            "lower bounds: {n} point(s) not evaluated, their bounds dominated by a point evaluated before"
        )
        .ok();
    }
    let b = &report.baseline;
    writeln!(
        s,
        "baseline (no directives): {} cycles, {} {logic}, {} DSP, {} BRAM, {} multiplication(s) on {} multiplier(s){}{}",
        b.latency_cycles,
        b.lut,
        b.dsp,
        b.bram,
        b.mul_ops,
        b.multipliers,
        efficiency(b).map_or(String::new(), |e| format!(" (efficiency {e:.2})")),
        roofline(b).map_or(String::new(), |f| format!(", {:.1}% of the roofline", f * 100.0))
    )
    .ok();
    let names: Vec<&str> = p.objectives.iter().map(|o| o.name()).collect();
    writeln!(
        s,
        "Pareto front ({}): {} point(s)",
        names.join(", "),
        report.front.len()
    )
    .ok();
    writeln!(
        s,
        "  {:>6} {:>10} {:>10} {:>7} {:>5} {:>5} {:>8} {:>5} {:>5} {:>5}  directives",
        "point", "cycles", "us", logic, "DSP", "BRAM", "speed-up", "mults", "eff.", "roof"
    )
    .ok();
    for &i in &report.front {
        let r = &report.records[i];
        let Some(m) = r.metrics() else { continue };
        let choices: Vec<String> = space
            .dims
            .iter()
            .zip(&r.genes)
            .map(|(d, &g)| format!("{}={}", d.knob.column(), show(&d.choices[g])))
            .collect();
        writeln!(
            s,
            "  {:>6} {:>10} {:>10.3} {:>7} {:>5} {:>5} {:>7.2}x {:>5} {:>5} {:>5}  {}",
            r.id,
            m.latency_cycles,
            m.latency_us,
            m.lut,
            m.dsp,
            m.bram,
            b.latency_cycles as f64 / m.latency_cycles.max(1) as f64,
            m.multipliers,
            efficiency(m).map_or("-".into(), |e| format!("{e:.2}")),
            roofline(m).map_or("-".into(), |f| format!("{f:.2}")),
            choices.join(" ")
                + if m.cosimulated {
                    " (cycles co-simulated)"
                } else if m.dma_model {
                    " (cycles by the DMA model)"
                } else {
                    ""
                }
        )
        .ok();
        match (&r.validated, validated_errors(r)) {
            (Some(Outcome::Ok { metrics: v }), Some(e)) => {
                let validated = logic_label(p, p.validate_level);
                writeln!(
                    s,
                    "         {}: {:.3} us {}, {} {validated}, {} FF, {} DSP, {} BRAM; estimate error: latency {:+.1}%, {validated} {:+.1}%, FF {:+.1}%, DSP {:+.1}%, BRAM {:+.1}%{}",
                    p.validate_level.name(),
                    v.latency_us,
                    v.fmax_mhz.map_or_else(
                        || format!("at {:.1} MHz estimated", v.latency_cycles as f64 / v.latency_us),
                        |f| format!("at {f:.1} MHz"),
                    ),
                    v.lut,
                    v.ff,
                    v.dsp,
                    v.bram,
                    100.0 * e.latency_us,
                    100.0 * e.lut,
                    100.0 * e.ff,
                    100.0 * e.dsp,
                    100.0 * e.bram,
                    e.fmax_mhz.map_or_else(String::new, |f| format!(
                        ", Fmax {:+.1}% ({:.1} MHz predicted)",
                        100.0 * f,
                        m.predicted_mhz
                    ))
                )
                .ok();
            }
            (Some(o), _) => {
                writeln!(
                    s,
                    "         {}: {}",
                    p.validate_level.name(),
                    status(o).1.lines().next().unwrap_or("")
                )
                .ok();
            }
            _ => {}
        }
    }
    s
}
