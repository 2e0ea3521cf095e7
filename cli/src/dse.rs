//! `silica dse FILE --top F [--space space.toml] -o DIR`: design-space
//! exploration over `silica hls`'s directives (the `silica-dse` crate;
//! without `--space`, over the space derived from the kernel),
//! and `silica dse-worker`, the worker process of `--jobs N`.

use crate::driver::{new_context, read_input};
use clap::Args;
use silica_dse::eval::Level;
use silica_dse::pareto::Objective;
use silica_dse::{Backend, Params, Strategy};
use std::process::ExitCode;

/// Arguments of `silica dse`.
#[derive(Args, Debug)]
pub struct DseArgs {
    /// Input file: MLIR, or C (`.c`, through clang-22 as `silica hls` reads it).
    input: String,
    /// The function to explore.
    #[arg(long)]
    top: String,
    /// The space file (TOML: [[loop]], [[array]], [[tile]], dma,
    /// [limits], clock_ns, targets; see examples/dse/). Without it, the
    /// space `silica hls --auto` searches is derived from the kernel
    /// (port widths, on-chip buffers, unroll factors, flattening) and
    /// written to `DIR/space.toml`.
    #[arg(long)]
    space: Option<String>,
    /// Output directory (created if missing).
    #[arg(short = 'o')]
    output: String,
    /// Evaluation level of the search: estimate (schedule and operator
    /// library), synth (yosys: measured LUT/FF/BRAM/DSP) or pnr (yosys
    /// and nextpnr: also Fmax).
    #[arg(long, default_value = "estimate")]
    level: String,
    /// Objectives to minimise, comma-separated: latency (cycles),
    /// latency_us, lut, ff, dsp, bram.
    #[arg(long, default_value = "latency,lut,dsp,bram", value_delimiter = ',')]
    objectives: Vec<String>,
    /// auto (exhaustive up to --exhaustive-limit points, else NSGA-II),
    /// exhaustive, nsga2, or descent (exhaustive up to --exhaustive-limit
    /// points, else a coordinate descent for the first objective over the
    /// space's groups of knobs: each loop nest's, the arrays', the rest;
    /// `silica hls --auto`'s search).
    #[arg(long, default_value = "auto")]
    search: String,
    /// The largest space `--search auto` enumerates.
    #[arg(long, default_value_t = 2000)]
    exhaustive_limit: u64,
    /// NSGA-II's evaluations at most (default: a quarter of the space).
    #[arg(long)]
    budget: Option<usize>,
    /// NSGA-II's population.
    #[arg(long, default_value_t = 24)]
    population: usize,
    /// NSGA-II's seed (the same seed gives the same run).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker processes evaluating points.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Where points are evaluated: local (this process, or --jobs worker
    /// processes) or dask[=tcp://HOST:8786] (an existing Dask distributed
    /// cluster; without an address, Dask's configured scheduler-address,
    /// else tcp://127.0.0.1:8786).
    #[arg(long, default_value = "local")]
    engine: String,
    /// The time limit of one point in seconds (default: 60 at estimate,
    /// 3600 at pnr; 0: none, and with --jobs 1 points are evaluated in
    /// this process). A point over it is recorded as failed.
    #[arg(long = "point-timeout")]
    point_timeout: Option<f64>,
    /// Re-evaluate the N best points of the front at --validate-level
    /// and report the estimate's error.
    #[arg(long, default_value_t = 0)]
    validate: usize,
    /// The level of --validate: pnr (yosys and nextpnr: also Fmax) or
    /// synth (yosys alone: measured LUT/FF/BRAM/DSP, seconds a point).
    #[arg(long, default_value = "pnr")]
    validate_level: String,
    /// Target device when the space lists none.
    #[arg(long, default_value = silica_hls::model::target::device::DEFAULT_TARGET)]
    target: String,
    /// Clock period in ns when the space lists none (the target's
    /// default: 20).
    #[arg(long = "clock-ns")]
    clock_ns: Option<f64>,
    /// The cache file (default DIR/cache.jsonl).
    #[arg(long)]
    cache: Option<String>,
    /// Evaluate every point, also those whose lower bounds are dominated
    /// by a point already evaluated (by default they are skipped when
    /// the objectives allow it: no lut or ff among them).
    #[arg(long = "no-bounds")]
    no_bounds: bool,
    /// Hand-written SystemVerilog modules that functions declared with
    /// `hls.ip = "module"` bind to, as `silica hls --ip` (repeatable;
    /// shipped to the workers with the kernel).
    #[arg(long = "ip", value_name = "FILE.sv")]
    ip: Vec<String>,
    /// The widest external memory port in bits, as `silica hls
    /// --max-port-bits` (the derived space's widths follow it).
    #[arg(
        long = "max-port-bits",
        value_name = "BITS",
        default_value_t = silica_hls::model::options::MAX_PORT_BITS,
        value_parser = clap::value_parser!(u32).range(1..=4096)
    )]
    max_port_bits: u32,
    /// Points that exceed the target share functional units until they
    /// fit, as `silica hls` does (by default they are invalid).
    #[arg(long)]
    fit: bool,
    #[command(flatten)]
    c: crate::c_input::CArgs,
}

pub(crate) fn context() -> silica_ir::Context {
    new_context(false)
}

/// Runs `silica dse`.
pub fn run(args: &DseArgs) -> ExitCode {
    match params(args).and_then(|p| silica_dse::run(&p)) {
        Ok(report) => {
            print!("{}", report.summary);
            println!("outputs in {}", args.output);
            ExitCode::SUCCESS
        }
        Err(e) => {
            // Empty where the error is printed already (C input's).
            if !e.is_empty() {
                eprintln!("{}", e.trim_end());
            }
            ExitCode::FAILURE
        }
    }
}

/// The run's parameters; a bad flag or an unreadable file is an error.
fn params(args: &DseArgs) -> Result<Params, String> {
    let text = read_input(&args.input)
        .map_err(|e| format!("error: could not open input file '{}': {e}", args.input))?;
    // C input: explored as its MLIR (clang's AST lowered to affine
    // loops), each op located at its C source.
    let text = match silica_c::is_c_input(&args.input) {
        true => crate::c_input::mlir_text(&args.input, Some(&args.top), &args.c)
            .ok_or_else(String::new)?,
        false => text,
    };
    let text = String::from_utf8(text)
        .map_err(|_| format!("error: input file '{}' is not UTF-8", args.input))?;
    let level = Level::parse(&args.level).map_err(|e| format!("error: --level: {e}"))?;
    let validate_level = match Level::parse(&args.validate_level) {
        Ok(Level::Estimate) => Err("a validation measures: synth or pnr".to_string()),
        other => other,
    }
    .map_err(|e| format!("error: --validate-level: {e}"))?;
    let objectives = args
        .objectives
        .iter()
        .map(|o| Objective::parse(o.trim()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("error: --objectives: {e}"))?;
    if objectives.is_empty() {
        return Err("error: --objectives: none given".into());
    }
    let strategy = match args.search.as_str() {
        "auto" => Strategy::Auto,
        "exhaustive" => Strategy::Exhaustive,
        "nsga2" => Strategy::Nsga2,
        "descent" => Strategy::Descent,
        s => {
            return Err(format!(
                "error: --search: unknown strategy '{s}' (auto, exhaustive, nsga2, descent)"
            ))
        }
    };
    if args.jobs == 0 || args.population < 2 {
        return Err("error: --jobs must be at least 1 and --population at least 2".into());
    }
    if args
        .point_timeout
        .is_some_and(|t| !(t >= 0.0 && t.is_finite()))
    {
        return Err("error: --point-timeout must be a number of seconds (0: no limit)".into());
    }
    if let Some(c) = args.clock_ns.filter(|c| !(*c > 0.0 && c.is_finite())) {
        return Err(format!("error: --clock-ns {c} is not a positive number"));
    }
    let backend = match args.engine.split_once('=') {
        None if args.engine == "local" => Backend::Local,
        None if args.engine == "dask" => Backend::Dask(None),
        Some(("dask", address)) if !address.is_empty() => Backend::Dask(Some(address.into())),
        _ => {
            return Err(format!(
                "error: --engine: unknown engine '{}' (local, dask, dask=tcp://HOST:PORT)",
                args.engine
            ))
        }
    };
    if backend != Backend::Local && args.jobs > 1 {
        return Err("error: --jobs sets local worker processes; a Dask cluster has its own".into());
    }
    let mut ip = Vec::new();
    for path in &args.ip {
        let t = std::fs::read_to_string(path)
            .map_err(|e| format!("error: could not open IP file '{path}': {e}"))?;
        ip.push((path.clone(), t));
    }
    // Read here too, so that a bad file is one message before any work.
    silica_hls::model::ip::Library::read(ip.clone()).map_err(|e| e.to_string())?;
    let exe = std::env::current_exe()
        .map_err(|e| format!("error: cannot find the silica binary: {e}"))?;
    let input = silica_dse::kernel::Input {
        name: args.input.clone(),
        text,
        top: args.top.clone(),
        ip,
        max_port_bits: args.max_port_bits,
        fit: args.fit,
    };
    let clock_ns = match args.clock_ns {
        Some(c) => c,
        None => silica_hls::Target::named(&args.target)?.default_clock_ns(),
    };
    let (space_name, space_text) = match &args.space {
        Some(path) => (
            path.clone(),
            std::fs::read_to_string(path)
                .map_err(|e| format!("error: could not open space file '{path}': {e}"))?,
        ),
        None => derived_space(args, &input, clock_ns)?,
    };
    Ok(Params {
        input,
        space_name,
        space_text,
        out: args.output.clone().into(),
        level,
        objectives,
        strategy,
        exhaustive_limit: u128::from(args.exhaustive_limit),
        budget: args.budget,
        population: args.population,
        seed: args.seed,
        jobs: args.jobs,
        backend,
        point_timeout: args.point_timeout,
        search_seconds: None,
        validate: args.validate,
        validate_level,
        target: args.target.clone(),
        clock_ns,
        cache: args.cache.clone().map(Into::into),
        bounds: !args.no_bounds,
        capacity: None,
        exe,
        new_context: context,
    })
}

/// The space derived from the kernel `input`, written to
/// `DIR/space.toml`: its path and text; what each choice is for goes to
/// standard error.
fn derived_space(
    args: &DseArgs,
    input: &silica_dse::kernel::Input,
    clock_ns: f64,
) -> Result<(String, String), String> {
    let profile = silica_dse::derive::profile(context, input, &args.target, clock_ns)?;
    let derived = silica_dse::derive::space(&profile, args.max_port_bits);
    let dir = std::path::Path::new(&args.output);
    let path = dir.join("space.toml");
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&path, &derived.text))
        .map_err(|e| format!("error: cannot write '{}': {e}", path.display()))?;
    eprintln!("the space derived from the kernel, in {}:", path.display());
    for r in &derived.reasons {
        eprintln!("  {r}");
    }
    Ok((path.display().to_string(), derived.text))
}

/// Runs `silica dse-worker`: evaluates the points it reads on standard
/// input (JSON lines) and writes their outcomes.
pub fn worker() -> ExitCode {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match silica_dse::pool::serve(context, stdin, stdout) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: dse worker: {e}");
            ExitCode::FAILURE
        }
    }
}
