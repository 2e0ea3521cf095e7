//! `silica characterize --target T [-o FILE] [--kinds K,..] [--widths W,..]
//! [--formats F,..] [--depths N | --clock-ns NS | --latency L]`:
//! measures the target's operator library (`silica_hls::fpga::characterize`)
//! and writes it as a library file (`hls/library/<target>.toml` by
//! default). A file already there for the same target keeps the points
//! (kind, width and latency) not measured this time; the file is rewritten after
//! every measured point, so an interrupted run loses at most one design.

use crate::driver::new_context;
use clap::Args;
use silica_hls::fpga::characterize::{self, measure::Tools};
use silica_hls::model::target::library::{Library, LibraryFile, Point};
use std::process::ExitCode;

/// Arguments of `silica characterize`.
#[derive(Args, Debug)]
pub struct CharacterizeArgs {
    /// The device to measure (`silica hls --target`'s names, not
    /// `generic`).
    #[arg(long)]
    target: String,
    /// The library file to write (default `hls/library/<target>.toml`).
    #[arg(short = 'o')]
    output: Option<String>,
    /// The operator kinds to measure, comma-separated (default all):
    /// reg add sub cmp shift mux logic mul mul_reg div rem div_const div_stage
    /// cmp_const cmp_pow2 level fanout add_add word_fanout ram fadd fmul fdiv fsqrt
    /// fma fcmp fsign fconv fexp flog fpow (level: a chain of W LUT levels;
    /// fanout: one LUT driving the enables of W flip-flops; add_add: an add
    /// reading an add; word_fanout: one W-bit register read by 1, 2, 4 and 8 adds).
    #[arg(long, value_delimiter = ',')]
    kinds: Vec<String>,
    /// The widths of the integer and RAM kinds, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = characterize::WIDTHS)]
    widths: Vec<u32>,
    /// The formats of the float kinds, comma-separated.
    #[arg(long, value_delimiter = ',', default_values = ["f32", "f64"])]
    formats: Vec<String>,
    /// Pipeline latencies measured per float operator and format.
    #[arg(long, default_value_t = characterize::FLOAT_DEPTHS)]
    depths: usize,
    /// Measure each float operator at the one latency whose stages fit
    /// this clock period (ns) by the operator generator's estimates alone
    /// (`silica hls --clock-ns` scales them by the library's measured
    /// points) instead of `--depths` spread latencies.
    #[arg(long = "clock-ns", conflicts_with = "depths")]
    clock_ns: Option<f64>,
    /// Measure each float operator at this pipeline latency (one of its
    /// useful ones: the latency `silica hls --clock-ns` picks on the
    /// target, which `--clock-ns` does not give where the target's
    /// measured points scale the estimates).
    #[arg(long, conflicts_with_all = ["depths", "clock_ns"])]
    latency: Option<u32>,
}

pub fn run(args: &CharacterizeArgs) -> ExitCode {
    match characterize(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn characterize(args: &CharacterizeArgs) -> Result<(), String> {
    let device = characterize::device(&args.target)?;
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| format!("hls/library/{}.toml", device.name));
    if args.widths.iter().any(|&w| w == 0 || w > 128) {
        return Err("widths must be between 1 and 128".into());
    }
    let depths = match (args.clock_ns, args.latency) {
        (Some(ns), _) if !(ns > 0.0 && ns.is_finite()) => {
            return Err(format!("clock period {ns} ns is not a positive number"))
        }
        (Some(ns), _) => characterize::Depths::Clock(ns),
        (None, Some(l)) => characterize::Depths::Latency(l),
        (None, None) => characterize::Depths::Spread(args.depths),
    };
    let mut ctx = new_context(false);
    let jobs = characterize::jobs(&mut ctx, &args.kinds, &args.widths, &args.formats, depths)?;
    let tools = Tools::find(device)?;
    // The points of an earlier file for this target that are not measured
    // again, and its register period unless `reg` is measured again.
    let earlier = std::fs::read_to_string(&output)
        .ok()
        .and_then(|t| LibraryFile::from_text(&t).ok())
        .filter(|f| f.target == device.name);
    let measured = |p: &Point| {
        jobs.iter()
            .any(|j| j.kind == p.kind && j.width == p.width && j.latency == p.latency)
    };
    let (mut points, baseline) = match &earlier {
        Some(f) => (
            f.op.iter().filter(|p| !measured(p)).cloned().collect(),
            characterize::Baseline::of(f),
        ),
        None => (Vec::new(), characterize::Baseline::default()),
    };
    let versions = tools.versions();
    let mut failure = None;
    let mut done = |p: &Point, register_ns: Option<f64>| {
        println!(
            "{:<22} w{:<3} l{:<2} period {:>8} ns  delay {:>7.3} ns  lut {:>5}  ff {:>5}  dsp {:>2}  bram {:>2}{}",
            p.kind,
            p.width,
            p.latency,
            p.period_ns.map_or("-".into(), |x| format!("{x:.3}")),
            p.delay_ns,
            p.lut,
            p.ff,
            p.dsp,
            p.bram,
            p.note.as_ref().map_or(String::new(), |n| format!("  ({n})"))
        );
        if p.kind != "reg" {
            points.push(p.clone());
        }
        let file = characterize::library_file(
            device,
            register_ns.unwrap_or(0.0),
            versions.clone(),
            earlier.as_ref(),
            with_wiring(&points),
        );
        if let Err(e) = write(&output, &file) {
            failure = Some(e);
        }
    };
    characterize::characterize(&mut ctx, &tools, device, &jobs, baseline, &mut done)?;
    if let Some(e) = failure {
        return Err(e);
    }
    // What was written must read back as a library.
    let text =
        std::fs::read_to_string(&output).map_err(|e| format!("cannot read {output}: {e}"))?;
    Library::parse(device, &text).map_err(|e| format!("{output}: {e}"))?;
    Ok(())
}

/// `points` sorted, with the `ext` rows (extension and truncation: wiring,
/// no cells) added at the measured widths when absent.
fn with_wiring(points: &[Point]) -> Vec<Point> {
    let mut all: Vec<Point> = points.to_vec();
    if !all.iter().any(|p| p.class == "ext") {
        let mut widths: Vec<u32> = all
            .iter()
            .filter(|p| p.class == "add")
            .map(|p| p.width)
            .collect();
        widths.sort_unstable();
        widths.dedup();
        for width in widths {
            all.push(Point {
                kind: "ext".into(),
                class: "ext".into(),
                width,
                latency: 0,
                period_ns: None,
                delay_ns: 0.0,
                lut: 0,
                ff: 0,
                dsp: 0,
                bram: 0,
                note: Some("wiring (bit selects and concatenations): nothing to measure".into()),
            });
        }
    }
    all.sort_by(|a, b| {
        (a.class.as_str(), a.kind.as_str(), a.width, a.latency).cmp(&(
            b.class.as_str(),
            b.kind.as_str(),
            b.width,
            b.latency,
        ))
    });
    all
}

/// Writes the library file through a temporary file renamed over it.
fn write(path: &str, file: &LibraryFile) -> Result<(), String> {
    let text = file.to_text()?;
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, text).map_err(|e| format!("cannot write {tmp}: {e}"))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {path}: {e}"))
}
