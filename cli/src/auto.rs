//! `silica hls --auto`: the directives chosen by the flow. The space is
//! derived from the kernel (`silica_dse::derive`: ports as wide as
//! `--max-port-bits` allows, on-chip buffers for reused memories, unroll
//! factors the device's units and the memories' words can feed,
//! flattening), its points evaluated by the design-space exploration's
//! engine at the estimate level, and the fastest design (latency x
//! clock period) that fits the target, within the estimate's margin, is
//! kept: `F.directives.toml` rebuilds it. Where no point is faster than
//! the default design, the default is kept, and the reason said.

use silica_dse::eval::{Level, Metrics};
use silica_dse::pareto::Objective;
use silica_dse::{Backend, Capacity, Params, Strategy};
use std::fmt::Write;
use std::path::Path;

/// What `--auto` chose.
pub struct Chosen {
    /// The directives file's text (comments first).
    pub directives: String,
    /// The report's lines, for standard output and `report.txt`.
    pub summary: String,
    /// The derived space's file.
    pub space: String,
    /// Every point evaluated (`points.csv` of the exploration).
    pub points: String,
}

/// The kernel and what `silica hls` was asked.
pub struct Ask<'a> {
    /// The input's name and text.
    pub name: &'a str,
    pub text: &'a str,
    pub top: &'a str,
    pub target: &'a str,
    pub clock_ns: Option<f64>,
    pub max_port_bits: u32,
    /// Whether designs that exceed the target share units until they
    /// fit (`silica hls` without `--no-fit`): each point is evaluated so.
    pub fit: bool,
    /// `--ip` files and texts.
    pub ip: Vec<(String, String)>,
    /// The command that rebuilds the design from the directives file.
    pub rebuild: String,
}

/// The largest derived space evaluated point by point; a larger one is
/// searched by coordinate descent (`silica_dse::descent`: each loop
/// nest's knobs together, the others held, nest after nest) with
/// [`BUDGET`] evaluations, for the latency of the designs that fit (a
/// kernel's `--auto` stays within a minute). This is also the largest
/// group of knobs the descent enumerates at once.
const EXHAUSTIVE_LIMIT: u128 = 128;
const BUDGET: usize = 192;

/// The fastest points on which dataflow is tried where they do not have
/// it.
const OVERLAP_TRIES: usize = 3;

/// The time limit of one point: a point whose flow takes longer (a
/// large unrolled body) is recorded as failed and not chosen.
const POINT_SECONDS: f64 = 20.0;

/// Seconds after which the descent starts no new group of knobs, so
/// that `--auto` stays within a minute where the points are slow to
/// build (the group under way finishes; the choice then depends on the
/// machine's speed, the directives file rebuilds it exactly).
const SEARCH_SECONDS: f64 = 30.0;

/// The share of the device's LUTs and flip-flops a chosen design's
/// estimate may use (`silica_hls::flow::fit::MARGIN`: the estimate's
/// measured error).
const MARGIN: f64 = silica_hls::flow::fit::MARGIN;

/// Chooses the directives for `ask`; an error is the message to print.
pub fn choose(ask: &Ask<'_>) -> Result<Chosen, String> {
    let start = std::time::Instant::now();
    let target = silica_hls::Target::named(ask.target)?;
    let device = target.device();
    let clock_ns = ask.clock_ns.unwrap_or_else(|| target.default_clock_ns());
    let input = silica_dse::kernel::Input {
        name: ask.name.to_string(),
        text: ask.text.to_string(),
        top: ask.top.to_string(),
        ip: ask.ip.clone(),
        max_port_bits: ask.max_port_bits,
        fit: ask.fit,
    };
    let profile = silica_dse::derive::profile(crate::dse::context, &input, ask.target, clock_ns)?;
    let derived = silica_dse::derive::space(&profile, ask.max_port_bits);
    if derived.reasons.is_empty() {
        let why = "the kernel offers nothing to parallelise (no loop of constant trips to unroll, no memory whose ports can widen or that is reused)";
        return Ok(kept(why, ask, derived.text));
    }
    let capacity = Capacity {
        lut: device.luts as f64 * MARGIN,
        ff: device.ffs as f64 * MARGIN,
        dsp: device.dsps,
        bram: device.brams,
    };
    let scratch = Scratch::new()?;
    let params = Params {
        input,
        space_name: "derived space".into(),
        space_text: derived.text.clone(),
        out: scratch.0.clone(),
        level: Level::Estimate,
        objectives: vec![Objective::Micros],
        strategy: Strategy::Descent,
        exhaustive_limit: EXHAUSTIVE_LIMIT,
        budget: Some(BUDGET),
        population: 16,
        seed: 1,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
        backend: Backend::Local,
        point_timeout: Some(POINT_SECONDS),
        search_seconds: Some(SEARCH_SECONDS),
        validate: 0,
        validate_level: Level::Pnr,
        target: ask.target.to_string(),
        clock_ns,
        cache: None,
        // Lower bounds would skip points behind an evaluated one that the
        // fit's margin may still reject.
        bounds: false,
        capacity: Some(capacity),
        exe: std::env::current_exe().map_err(|e| format!("cannot find silica: {e}"))?,
        new_context: crate::dse::context,
    };
    let report = match silica_dse::run(&params) {
        Ok(r) => r,
        // Nothing in the derived space takes fewer units than the default
        // design: it is kept, and the flow fits or reports it as usual.
        Err(e) if e.starts_with(silica_dse::NO_BASELINE) => {
            let reason = e[silica_dse::NO_BASELINE.len()..].trim_start_matches(": ");
            let why = format!(
                "the default design is no design here ({reason}), and no point of the derived space takes fewer units"
            );
            return Ok(kept(&why, ask, derived.text));
        }
        Err(e) => return Err(e),
    };
    let fits = |m: &Metrics| capacity.holds(m);
    let mut ranked: Vec<_> = (report.records.iter())
        .filter_map(|r| Some((r, r.metrics()?)))
        .filter(|(_, m)| fits(m))
        .collect();
    ranked.sort_by(|(_, a), (_, b)| faster(a, b));
    let best = ranked.first().copied();
    let base = &report.baseline;
    let mut summary = format!(
        "auto: {} of the {} point(s) of the derived space evaluated in {:.1} s (the default design: {} cycles, {:.3} us)\n",
        report.evaluated,
        report.space_size,
        start.elapsed().as_secs_f64(),
        base.latency_cycles,
        base.latency_us
    );
    for r in &derived.reasons {
        let _ = writeln!(summary, "  {r}");
    }
    let mut directives = String::new();
    // Where the fastest points do not have it (a single loop nest, whose
    // space does not ask; or points the search took without it),
    // dataflow is tried there: their buffers' copies and the loops that
    // may run at once overlapped (a point a little slower alone may
    // overlap more, or only its buffers fit the ports overlapping takes);
    // the fastest is kept where it beats the fastest point.
    let mut ev = silica_dse::evaluator(params.new_context, params.input.clone()).ok();
    let overlapped = overlap_fastest(&ranked, |r, m| {
        overlap_copies(ev.as_mut()?, &r.config, m, &fits)
    });
    let best = match &overlapped {
        Some((r, config, m, before)) => {
            let _ = writeln!(
                summary,
                "auto: with dataflow (the buffers' copies and the loops that may run at once, at once): {} cycles, without it {}",
                m.latency_cycles, before
            );
            Some((*r, m, Some(config)))
        }
        None => best.map(|(r, m)| (r, m, None)),
    };
    match best.filter(|(_, m, _)| m.latency_us < base.latency_us) {
        Some((r, m, overlapped)) => {
            let _ = writeln!(
                summary,
                "auto: chose point {}: {} cycles, {:.3} us ({:.1}x faster), {} LUT, {} FF, {} DSP, {} BRAM by the estimate",
                r.id,
                m.latency_cycles,
                m.latency_us,
                base.latency_us / m.latency_us.max(f64::MIN_POSITIVE),
                m.lut,
                m.ff,
                m.dsp,
                m.bram
            );
            let _ = writeln!(
                directives,
                "# Chosen by silica hls --auto: {} cycles, {:.3} us on {} by the estimate.\n# {}",
                m.latency_cycles, m.latency_us, ask.target, ask.rebuild
            );
            directives.push_str(&overlapped.unwrap_or(&r.config).directives);
        }
        None => {
            let why = if best.is_some() {
                "no point of the derived space is faster than the default design"
            } else {
                "no point of the derived space fits the device"
            };
            let k = kept(why, ask, String::new());
            summary.push_str(&k.summary);
            directives = k.directives;
        }
    }
    let points = read(&scratch.0.join("points.csv"));
    Ok(Chosen {
        directives,
        summary,
        space: derived.text,
        points,
    })
}

/// Which of two points' figures is faster (then smaller).
fn faster(a: &Metrics, b: &Metrics) -> std::cmp::Ordering {
    (a.latency_us, a.lut)
        .partial_cmp(&(b.latency_us, b.lut))
        .unwrap_or(std::cmp::Ordering::Equal)
}

/// Of the points `ranked` (fastest first), the first [`OVERLAP_TRIES`]
/// run at once (`at_once`: the directives and figures where that is
/// faster than the point alone and fits): the fastest of them, with its
/// latency alone, where it beats the fastest point alone.
fn overlap_fastest<P: Copy, D>(
    ranked: &[(P, &Metrics)],
    mut at_once: impl FnMut(P, &Metrics) -> Option<(D, Metrics)>,
) -> Option<(P, D, Metrics, u64)> {
    let &(_, fastest) = ranked.first()?;
    (ranked.iter().take(OVERLAP_TRIES))
        .filter_map(|&(p, m)| at_once(p, m).map(|(d, o)| (p, d, o, m.latency_cycles)))
        .min_by(|a, b| faster(&a.2, &b.2))
        .filter(|o| faster(&o.2, fastest).is_lt())
}

/// Point `config` (whose figures are `m`) with `dataflow = true`,
/// evaluated by `ev`: its buffers' copies and the loops that may run at
/// once scheduled at once where the flow finds that faster. The point
/// and its figures, where it fits and is faster; None where the point
/// has dataflow already.
fn overlap_copies(
    ev: &mut silica_dse::eval::Evaluator,
    config: &silica_dse::point::Config,
    m: &Metrics,
    fits: &dyn Fn(&Metrics) -> bool,
) -> Option<(silica_dse::point::Config, Metrics)> {
    let directives = with_dataflow(&config.directives)?;
    let at_once = silica_dse::point::Config {
        directives,
        ..config.clone()
    };
    match ev.evaluate(&at_once, Level::Estimate) {
        silica_dse::eval::Outcome::Ok { metrics }
            if fits(&metrics) && metrics.latency_us < m.latency_us =>
        {
            Some((at_once, metrics))
        }
        _ => None,
    }
}

/// A point's `directives` with `dataflow = true` (set where the space
/// chose `false`, added where it has no such knob); None where it has
/// dataflow already.
fn with_dataflow(directives: &str) -> Option<String> {
    if directives.contains("dataflow = true") {
        None
    } else if directives.contains("dataflow = false") {
        Some(directives.replacen("dataflow = false", "dataflow = true", 1))
    } else {
        Some(format!("dataflow = true\n{directives}"))
    }
}

/// The default design kept, for `why`, with the derived `space`: its
/// directives file (comments alone) and summary line.
fn kept(why: &str, ask: &Ask<'_>, space: String) -> Chosen {
    Chosen {
        directives: format!(
            "# silica hls --auto kept the default design: {why}.\n# {}\n",
            ask.rebuild
        ),
        summary: format!("auto: {why}; the default design is kept\n"),
        space,
        points: String::new(),
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The exploration's own directory, removed after it.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, String> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let name = format!("silica-auto-{}-{nanos}", std::process::id());
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(Scratch(path))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::{overlap_fastest, with_dataflow, Metrics};

    fn figures(cycles: u64) -> Metrics {
        Metrics {
            latency_cycles: cycles,
            latency_us: cycles as f64 / 50.0,
            lut: 1000,
            ff: 1000,
            dsp: 9,
            bram: 4,
            fmax_mhz: None,
            predicted_mhz: 50.0,
            mul_ops: 0,
            multipliers: 9,
            unhonoured: Vec::new(),
            cosimulated: false,
            dma_model: false,
            roofline_cycles: None,
        }
    }

    #[test]
    fn a_point_slower_alone_is_chosen_where_it_overlaps_into_the_fastest() {
        // Points of 1603, 1843 and 2577 cycles alone; at once the first
        // does not fit, the second takes 1503 and the third 2000.
        let points = [(0, figures(1603)), (1, figures(1843)), (2, figures(2577))];
        let ranked: Vec<(usize, &Metrics)> = points.iter().map(|(p, m)| (*p, m)).collect();
        let at_once = |p: usize, _: &Metrics| match p {
            1 => Some(("second", figures(1503))),
            2 => Some(("third", figures(2000))),
            _ => None,
        };
        let (p, d, m, alone) = overlap_fastest(&ranked, at_once).unwrap();
        assert_eq!((p, d, m.latency_cycles, alone), (1, "second", 1503, 1843));
        // Overlapped slower than the fastest point alone: none.
        let slow = |p: usize, _: &Metrics| (p == 2).then(|| ("third", figures(2000)));
        assert!(overlap_fastest(&ranked, slow).is_none());
    }

    #[test]
    fn dataflow_is_tried_where_the_chosen_point_has_it_off_or_not_at_all() {
        let off = "dataflow = false\n[loop.\"k/0\"]\nunroll = 2\n";
        assert_eq!(
            with_dataflow(off).as_deref(),
            Some("dataflow = true\n[loop.\"k/0\"]\nunroll = 2\n")
        );
        assert_eq!(
            with_dataflow("[loop.\"k/0\"]\nunroll = 2\n").as_deref(),
            Some("dataflow = true\n[loop.\"k/0\"]\nunroll = 2\n")
        );
        assert_eq!(with_dataflow("dataflow = true\n"), None);
    }
}
