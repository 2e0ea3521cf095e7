//! `silica dse`: design-space exploration over the directives of
//! `silica hls`. A space file (`space`) lists choices per loop, array,
//! band and for the whole kernel; each point (`point`) is a directives
//! file plus tiling and DMA, pruned with a reason when it cannot be a
//! design; points are evaluated (`eval`) in this process, on local
//! worker processes (`pool`) or on a Dask cluster (`dask`), their results kept in a cache (`cache`);
//! the search (`search`) enumerates small spaces and runs NSGA-II on
//! larger ones (or, for one objective, a coordinate descent over the
//! space's groups of knobs: `descent`), skipping points whose lower bounds (`bound`) are
//! dominated by a point already evaluated; `pareto` gives the front and its hypervolume; `output`
//! writes `points.csv`, `pareto.json`, a directives file per Pareto
//! point, `summary.txt` and (`plot`) `pareto.svg`; `progress` shows how
//! far the run is; `derive` makes a space from what the kernel offers
//! to parallelise (`silica hls --auto`, `silica dse` without `--space`).
//! [`run`] drives them.

pub mod bound;
pub mod cache;
pub mod dask;
pub mod derive;
pub mod descent;
pub mod eval;
pub mod kernel;
pub mod output;
pub mod pareto;
pub mod plot;
pub mod point;
pub mod pool;
pub mod progress;
pub mod search;
pub mod space;

use eval::{Evaluator, Level, Metrics, Outcome};
use kernel::Input;
use pareto::Objective;
use point::Config;
use search::{Evaluated, Genes};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The start of [`run`]'s error where the kernel without directives is
/// no design (it does not fit the target, or the flow rejects it).
pub const NO_BASELINE: &str = "the kernel without directives is no design";

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Exhaustive up to `exhaustive_limit` points, else NSGA-II.
    Auto,
    Exhaustive,
    Nsga2,
    /// Exhaustive up to `exhaustive_limit` points, else a coordinate
    /// descent for the first objective (`descent`).
    Descent,
}

/// What a point's estimate may take: the device less the estimate's
/// error, where the choice must fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capacity {
    pub lut: f64,
    pub ff: f64,
    pub dsp: u64,
    pub bram: u64,
}

impl Capacity {
    /// Whether the figures `m` are within it.
    pub fn holds(&self, m: &Metrics) -> bool {
        m.lut as f64 <= self.lut
            && m.ff as f64 <= self.ff
            && m.dsp <= self.dsp
            && m.bram <= self.bram
    }

    /// The largest share of its LUTs, flip-flops and block RAMs the
    /// figures `m` take (not its DSPs: the flow shares multipliers
    /// between loop nests that run one after another, so that every
    /// nest's design takes about all of them).
    pub fn usage(&self, m: &Metrics) -> f64 {
        let share = |used: f64, of: f64| if of > 0.0 { used / of } else { 0.0 };
        (share(m.lut as f64, self.lut))
            .max(share(m.ff as f64, self.ff))
            .max(share(m.bram as f64, self.bram as f64))
    }
}

/// What `silica dse` was asked.
pub struct Params {
    pub input: Input,
    /// The space file's name and text.
    pub space_name: String,
    pub space_text: String,
    pub out: PathBuf,
    pub level: Level,
    pub objectives: Vec<Objective>,
    pub strategy: Strategy,
    pub exhaustive_limit: u128,
    /// NSGA-II's evaluations at most (default: a quarter of the space,
    /// at least two populations).
    pub budget: Option<usize>,
    pub population: usize,
    pub seed: u64,
    pub jobs: usize,
    /// Where the points are evaluated.
    pub backend: Backend,
    /// The time limit of one point in seconds (`--point-timeout`): `None`
    /// for the level's default ([`Level::default_timeout`]), 0 for none.
    /// Points run on worker processes whenever there is a limit (a
    /// worker over it is killed and the point failed).
    pub point_timeout: Option<f64>,
    /// Seconds after which NSGA-II starts no new generation and the
    /// descent no new group; a space evaluated point by point starts no
    /// point after half as long again, its smallest points first (the
    /// choice then depends on the machine's speed); `None`: the budget
    /// alone.
    pub search_seconds: Option<f64>,
    /// Re-evaluate this many of the best estimated points at
    /// `validate_level`.
    pub validate: usize,
    /// `synth` (yosys) or `pnr` (yosys and nextpnr).
    pub validate_level: Level,
    pub target: String,
    pub clock_ns: f64,
    /// The cache file (default `DIR/cache.jsonl`).
    pub cache: Option<PathBuf>,
    /// Skip points whose lower bounds are dominated (`bound`), where the
    /// objectives allow it.
    pub bounds: bool,
    /// Where the descent keeps only points whose estimate fits.
    pub capacity: Option<Capacity>,
    /// The silica binary, for worker processes.
    pub exe: PathBuf,
    pub new_context: fn() -> silica_ir::Context,
}

/// Where points are evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Backend {
    /// This process (`jobs` 1) or `jobs` local worker processes.
    Local,
    /// An existing Dask distributed cluster: its scheduler's address
    /// (none: Dask's configured `scheduler-address`, else port 8786 of
    /// this machine).
    Dask(Option<String>),
}

impl Params {
    /// The time limit of one point at `level`.
    pub fn limit(&self, level: Level) -> Option<Duration> {
        match self.point_timeout {
            Some(s) if s <= 0.0 => None,
            Some(s) => Some(Duration::from_secs_f64(s)),
            None => Some(level.default_timeout()),
        }
    }
}

/// One point of the run.
#[derive(Clone, Debug)]
pub struct Record {
    pub id: usize,
    pub genes: Genes,
    pub config: Config,
    pub outcome: Outcome,
    /// Taken from the cache, not evaluated in this run.
    pub cached: bool,
    /// The evaluation at `pnr` of a validated point.
    pub validated: Option<Outcome>,
}

impl Record {
    pub fn metrics(&self) -> Option<&Metrics> {
        match &self.outcome {
            Outcome::Ok { metrics } => Some(metrics),
            _ => None,
        }
    }

    /// Its figures, also those of a design larger than the device.
    pub fn figures(&self) -> Option<&Metrics> {
        match &self.outcome {
            Outcome::Invalid {
                estimate: Some(m), ..
            } => Some(m),
            _ => self.metrics(),
        }
    }
}

/// What a run found.
pub struct Report {
    pub space_size: u128,
    /// The level the search evaluated at.
    pub level: Level,
    pub strategy: &'static str,
    pub records: Vec<Record>,
    /// Indices into `records` of the Pareto front.
    pub front: Vec<usize>,
    pub baseline: Metrics,
    pub evaluated: usize,
    /// Points skipped by their lower bounds, when pruning was on.
    pub dominated: Option<usize>,
    pub seconds: f64,
    /// `summary.txt`'s text.
    pub summary: String,
}

/// An evaluator of the kernel `input` in this process.
pub fn evaluator(
    new_context: fn() -> silica_ir::Context,
    input: Input,
) -> Result<Evaluator, String> {
    let mut ctx = new_context();
    let parsed = kernel::load(&mut ctx, &input)?;
    let ip = silica_hls::model::ip::Library::read(input.ip.clone()).map_err(|e| e.to_string())?;
    Ok(Evaluator {
        ctx,
        input,
        parsed,
        ip,
        lifts: silica_hls::Lifts::default(),
    })
}

/// Runs the exploration; the error is the message to print (exit 1).
pub fn run(p: &Params) -> Result<Report, String> {
    let start = Instant::now();
    let target = silica_hls::Target::named(&p.target)?;
    let mut ev = evaluator(p.new_context, p.input.clone())?;
    let defaults = point::Defaults {
        target: p.target.clone(),
        clock_ns: p.clock_ns,
    };
    // The baseline design (no directives): the kernel must synthesize,
    // and it tells which operator classes `[limits]` can name.
    let empty = point::config(
        &space::Space {
            dims: Vec::new(),
            dma_capacity_kib: 1,
            buffers: Vec::new(),
        },
        &[],
        &defaults,
    );
    let classes = {
        let opts = silica_hls::Options {
            clock_ns: Some(p.clock_ns),
            ip: ev.ip.clone(),
            max_port_bits: p.input.max_port_bits,
            ..silica_hls::Options::new(&p.input.top, target)
        };
        let ir = ev.parsed.module.ir.clone();
        let design =
            silica_hls::estimate(&mut ev.ctx, &ir, ev.parsed.module.top, &opts).map_err(|d| {
                silica_ir::diag::render(
                    &ev.ctx,
                    &[silica_ir::diag::SourceFile {
                        name: &p.input.name,
                        text: p.input.text.as_bytes(),
                    }],
                    &d,
                )
            })?;
        silica_hls::model::directives::LIMITED_CLASSES
            .iter()
            .filter(|c| {
                design
                    .scheduled
                    .kernel
                    .nodes
                    .iter()
                    .any(|n| silica_hls::model::target::library::class_of(n.op) == **c)
            })
            .map(|c| c.to_string())
            .collect()
    };
    let baseline = match ev.evaluate(&empty, Level::Estimate) {
        Outcome::Ok { metrics } => metrics,
        Outcome::Invalid { reason, .. } | Outcome::Failed { error: reason } => {
            return Err(format!("{NO_BASELINE}: {reason}"))
        }
        Outcome::Dominated { .. } => {
            return Err("the kernel without directives was not evaluated".into())
        }
    };
    let info = kernel::info(&mut ev.ctx, &ev.parsed, &p.input.top, classes);
    let space = space::parse(&p.space_text, &info).map_err(|e| {
        format!(
            "{}:{}:{}: error: {}",
            p.space_name, e.pos.line, e.pos.col, e.message
        )
    })?;
    // A missing FPGA tool is an error before any work.
    let fpga_tools = if p.validate > 0 {
        tools_version(&space, &p.target, p.validate_level)?
    } else {
        String::new()
    };
    let size = space.size();
    let exhaustive = match p.strategy {
        Strategy::Exhaustive => true,
        Strategy::Nsga2 => false,
        Strategy::Auto | Strategy::Descent => size <= p.exhaustive_limit,
    };
    let descent = !exhaustive && p.strategy == Strategy::Descent;
    let tools = match p.level {
        Level::Estimate => String::new(),
        Level::Synth => tools_version(&space, &p.target, Level::Synth)?,
        Level::Pnr if p.validate > 0 && p.validate_level == Level::Pnr => fpga_tools.clone(),
        Level::Pnr => tools_version(&space, &p.target, Level::Pnr)?,
    };
    let cache_path = p.cache.clone().unwrap_or_else(|| p.out.join("cache.jsonl"));
    let mut engine = Engine {
        p,
        space: &space,
        info: &info,
        defaults,
        ev,
        pool: None,
        dask: None,
        cache: cache::Cache::open(&cache_path),
        records: Vec::new(),
        evaluated: 0,
        prune: p.bounds && bound::useful(&p.objectives, p.level),
        bounds: BTreeMap::new(),
        tools,
        fpga_tools,
        progress: progress::Progress::new(if exhaustive {
            size.min(u64::MAX as u128) as u64
        } else {
            p.budget.unwrap_or(default_budget(size, p.population)) as u64
        }),
    };
    match &p.backend {
        Backend::Dask(address) => {
            let d = dask::Dask::connect(&p.exe, &p.input, address.as_deref())?;
            eprintln!(
                "dask: {} worker(s), {} thread(s)",
                d.cluster.workers, d.cluster.threads
            );
            engine.dask = Some(d);
        }
        Backend::Local if p.jobs > 1 || p.limit(p.level).is_some() => {
            engine.pool = Some(pool::Pool::new(p.exe.clone(), &p.input, p.jobs)?);
        }
        Backend::Local => {}
    }
    if exhaustive && engine.prune {
        // The points with the least bounds first, in small batches, so
        // that later ones meet many evaluated points; the records are
        // put back in the space's order afterwards.
        let all = search::exhaustive(&space);
        engine.bound_all(&all);
        let mut order: Vec<(Vec<f64>, usize)> = Vec::with_capacity(all.len());
        for (i, genes) in all.iter().enumerate() {
            let key = engine.bound_of(genes).unwrap_or_default();
            order.push((key, i));
        }
        order.sort_by(|(a, i), (b, j)| {
            a.iter()
                .zip(b)
                .map(|(x, y)| x.total_cmp(y))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(i.cmp(j))
        });
        let sorted: Vec<Genes> = order.iter().map(|&(_, i)| all[i].clone()).collect();
        for chunk in sorted.chunks(8 * p.jobs.max(1)) {
            engine.batch(chunk)?;
        }
        engine.in_space_order(&all);
    } else if exhaustive {
        let all = search::exhaustive(&space);
        match p.search_seconds {
            None => {
                for chunk in all.chunks(256) {
                    engine.batch(chunk)?;
                }
            }
            // With a time limit (`silica hls --auto`), the smallest points
            // first, a few at a time, none started once half as long again
            // has passed (a space of slow points, each up to its timeout,
            // would otherwise take minutes), and none at least as large in
            // every knob as one that gave no design that fits (it gives
            // none either, as slowly); the records in the space's order,
            // as without.
            Some(s) => {
                let deadline = Instant::now() + Duration::from_secs_f64(s * EXHAUSTIVE_GRACE);
                let every: Vec<usize> = (0..space.dims.len()).collect();
                let mut failed: Vec<Genes> = Vec::new();
                let mut rest = search::smallest_first(&space, all.clone()).into_iter();
                while Instant::now() < deadline {
                    let chunk: Vec<Genes> = (rest.by_ref())
                        .filter(|g| {
                            let larger =
                                |f: &Genes| descent::at_least_in_each(&space, &every, g, f);
                            !failed.iter().any(larger)
                        })
                        .take(4 * p.jobs.max(1))
                        .collect();
                    if chunk.is_empty() {
                        break;
                    }
                    engine.batch(&chunk)?;
                    let records = &engine.records[engine.records.len() - chunk.len()..];
                    for (g, r) in chunk.iter().zip(records) {
                        let fits =
                            (r.metrics()).is_some_and(|m| p.capacity.is_none_or(|c| c.holds(m)));
                        if !fits {
                            failed.push(g.clone());
                        }
                    }
                }
                engine.in_space_order(&all);
            }
        }
    } else if descent {
        let params = descent::Descent {
            budget: p.budget.unwrap_or(default_budget(size, p.population)),
            deadline: (p.search_seconds)
                .map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s)),
            group_limit: p.exhaustive_limit,
        };
        let mut failure = None;
        descent::descent(&space, params, &mut |batch| {
            let results = match engine.batch(batch) {
                Ok(r) => r,
                Err(e) => {
                    failure.get_or_insert(e);
                    return (batch.iter())
                        .map(|_| Evaluated {
                            objectives: None,
                            cost: true,
                            usage: None,
                        })
                        .collect();
                }
            };
            // A point that does not fit is no choice.
            let records = &engine.records[engine.records.len() - batch.len()..];
            (results.into_iter().zip(records))
                .map(|(mut e, r)| {
                    let fits = r
                        .metrics()
                        .is_some_and(|m| p.capacity.is_none_or(|c| c.holds(m)));
                    if !fits {
                        e.objectives = None;
                    }
                    e.usage = (r.figures()).zip(p.capacity).map(|(m, c)| c.usage(m));
                    e
                })
                .collect()
        });
        if let Some(e) = failure {
            return Err(e);
        }
    } else {
        let params = search::Nsga2 {
            population: p.population,
            budget: p.budget.unwrap_or(default_budget(size, p.population)),
            seed: p.seed,
            deadline: (p.search_seconds)
                .map(|s| std::time::Instant::now() + std::time::Duration::from_secs_f64(s)),
        };
        let mut failure = None;
        search::nsga2(&space, params, &mut |batch| match engine.batch(batch) {
            Ok(r) => r,
            Err(e) => {
                failure.get_or_insert(e);
                batch
                    .iter()
                    .map(|_| Evaluated {
                        objectives: None,
                        cost: true,
                        usage: None,
                    })
                    .collect()
            }
        });
        if let Some(e) = failure {
            return Err(e);
        }
    }
    engine.progress.finish();
    let vectors: Vec<(usize, Vec<f64>)> = engine
        .records
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.metrics().map(|m| (i, pareto::vector(&p.objectives, m))))
        .collect();
    let only: Vec<Vec<f64>> = vectors.iter().map(|(_, v)| v.clone()).collect();
    let mut front: Vec<usize> = pareto::front(&only)
        .into_iter()
        .map(|k| vectors[k].0)
        .collect();
    front.sort_by(|&a, &b| {
        let (x, y) = (&engine.records[a], &engine.records[b]);
        let key = |r: &Record| r.metrics().map_or(0.0, |m| p.objectives[0].of(m));
        key(x).total_cmp(&key(y)).then(a.cmp(&b))
    });
    if p.validate > 0 {
        engine.validate(&front)?;
    }
    let kernels: Vec<(usize, String)> = front
        .iter()
        .filter_map(|&i| {
            let cfg = &engine.records[i].config;
            if cfg.tiles.is_empty() && cfg.dma_kib.is_none() {
                return None;
            }
            let ir = engine.ev.transform(cfg).ok()?;
            let text =
                silica_ir::printer::module_text(&engine.ev.ctx, &ir, engine.ev.parsed.module.top);
            Some((i, text))
        })
        .collect();
    let dominated = engine.prune.then(|| {
        engine
            .records
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Dominated { .. }))
            .count()
    });
    let mut report = Report {
        dominated,
        space_size: size,
        level: p.level,
        strategy: if exhaustive {
            "exhaustive"
        } else if descent {
            "descent"
        } else {
            "nsga2"
        },
        evaluated: engine.evaluated,
        records: engine.records,
        front,
        baseline,
        seconds: start.elapsed().as_secs_f64(),
        summary: String::new(),
    };
    report.summary = output::summary(p, &space, &report);
    output::write(p, &space, &report, &kernels)
        .map_err(|e| format!("cannot write the outputs in '{}': {e}", p.out.display()))?;
    Ok(report)
}

/// NSGA-II's default budget: a quarter of the space, at least two
/// populations.
fn default_budget(size: u128, population: usize) -> usize {
    let quarter = (size / 4).min(usize::MAX as u128) as usize;
    quarter.max(2 * population)
}

/// The versions of the FPGA tools the targets of `space` use at `level`
/// (yosys at `synth`, and nextpnr at `pnr`; part of the cache key); a
/// missing tool is an error before any work.
fn tools_version(space: &space::Space, default: &str, level: Level) -> Result<String, String> {
    let mut targets = vec![default.to_string()];
    for d in &space.dims {
        if d.knob == space::Knob::Target {
            targets = d
                .choices
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect();
        }
    }
    let mut out = String::new();
    for t in targets {
        let dev = silica_hls::model::target::device::lookup(&t)?;
        if !dev.family.is_device() {
            return Err(format!(
                "target '{t}' gives estimates only: it cannot be validated, synthesised or placed and routed"
            ));
        }
        let tc = silica_hls::fpga::toolchain::names(dev.family);
        let names: &[&'static str] = if level == Level::Synth {
            &[tc.yosys]
        } else {
            &[tc.yosys, tc.nextpnr]
        };
        for n in names {
            let tool = silica_hls::fpga::tools::find(n)?;
            let v = tool
                .run(&["--version"], &std::env::temp_dir())
                .unwrap_or_default();
            out.push_str(v.lines().next().unwrap_or(n));
            out.push('\n');
        }
    }
    Ok(out)
}

/// How much longer than the descent's time limit a space small enough
/// to be evaluated point by point may take before it starts no more
/// points.
const EXHAUSTIVE_GRACE: f64 = 1.5;

/// Evaluates batches of points: pruning, the cache, this process or the
/// pool, one retry of failures, the records.
struct Engine<'a> {
    p: &'a Params,
    space: &'a space::Space,
    info: &'a kernel::KernelInfo,
    defaults: point::Defaults,
    ev: Evaluator,
    pool: Option<pool::Pool>,
    dask: Option<dask::Dask>,
    cache: cache::Cache,
    records: Vec<Record>,
    evaluated: usize,
    /// Skip points whose bound vectors are dominated.
    prune: bool,
    /// The bound vector of each point asked (none: the flow rejects it).
    bounds: BTreeMap<Genes, Option<Vec<f64>>>,
    /// The cache key's tool versions at `level`, and at `pnr` (or the
    /// validation's level).
    tools: String,
    fpga_tools: String,
    progress: progress::Progress,
}

impl Engine<'_> {
    /// Puts the records in the order of `all` (the space's points) and
    /// numbers them so, with the points that dominate others renamed.
    fn in_space_order(&mut self, all: &[Genes]) {
        let position: BTreeMap<&Genes, usize> =
            all.iter().enumerate().map(|(i, g)| (g, i)).collect();
        self.records.sort_by_key(|r| position[&r.genes]);
        let mut renamed = vec![0; self.records.len()];
        for (i, r) in self.records.iter_mut().enumerate() {
            renamed[r.id] = i;
            r.id = i;
        }
        for r in &mut self.records {
            if let Outcome::Dominated { by, .. } = &mut r.outcome {
                *by = renamed[*by];
            }
        }
    }

    fn batch(&mut self, batch: &[Genes]) -> Result<Vec<Evaluated>, String> {
        let level = self.p.level;
        let mut todo: Vec<(usize, Config)> = Vec::new();
        let mut ids = Vec::new();
        for genes in batch {
            let config = point::config(self.space, genes, &self.defaults);
            let id = self.records.len();
            ids.push(id);
            let pruned = point::prune(self.space, genes, self.info);
            let (outcome, cached) = if let Some(reason) = pruned {
                let reason = format!("pruned: {reason}");
                (
                    Some(Outcome::Invalid {
                        reason,
                        estimate: None,
                    }),
                    false,
                )
            } else {
                let key = cache::key(&self.p.input, &config, level, &self.tools);
                match self.cache.get(&key) {
                    Some(o) => (Some(o.clone()), true),
                    None => match self.dominated(genes) {
                        Some(o) => (Some(o), false),
                        None => {
                            todo.push((id, config.clone()));
                            (None, false)
                        }
                    },
                }
            };
            if let Some(o) = &outcome {
                self.progress.step(
                    self.evaluated,
                    cached || matches!(o, Outcome::Dominated { .. }),
                );
            }
            self.records.push(Record {
                id,
                genes: genes.clone(),
                config,
                outcome: outcome.unwrap_or(Outcome::Failed {
                    error: "not evaluated".into(),
                }),
                cached,
                validated: None,
            });
        }
        let mut cost = vec![false; self.records.len()];
        for attempt in 0..2 {
            if todo.is_empty() {
                break;
            }
            let mut retry = Vec::new();
            let mut failure = None;
            let limit = self.p.limit(level);
            let Engine {
                p,
                ev,
                pool,
                dask,
                cache,
                records,
                evaluated,
                tools,
                progress,
                ..
            } = self;
            // Each result goes into the cache as it arrives: a run that
            // dies loses only the points in flight.
            let mut done = |answer: pool::Answer| {
                let pool::Answer {
                    id,
                    outcome,
                    retry: again,
                } = answer;
                cost[id] = true;
                if attempt == 0 && again && matches!(outcome, Outcome::Failed { .. }) {
                    retry.push((id, records[id].config.clone()));
                    return;
                }
                let key = cache::key(&p.input, &records[id].config, level, tools);
                if let Err(e) = cache.put(key, &outcome) {
                    failure.get_or_insert(format!("cannot write the cache: {e}"));
                }
                *evaluated += 1;
                progress.step(*evaluated, false);
                records[id].outcome = outcome;
            };
            evaluate(
                ev,
                pool,
                dask,
                std::mem::take(&mut todo),
                level,
                limit,
                &mut done,
            );
            if let Some(e) = failure {
                return Err(e);
            }
            todo = retry;
        }
        Ok(ids
            .into_iter()
            .map(|id| Evaluated {
                objectives: self.records[id]
                    .metrics()
                    .map(|m| pareto::vector(&self.p.objectives, m)),
                cost: cost[id],
                usage: None,
            })
            .collect())
    }

    /// Computes the bounds of the valid points of `all` not in the cache,
    /// on `--jobs` threads (each with an evaluator of its own), before
    /// they are sorted by them.
    fn bound_all(&mut self, all: &[Genes]) {
        let level = self.p.level;
        let todo: Vec<(&Genes, Config)> = all
            .iter()
            .filter(|g| point::prune(self.space, g, self.info).is_none())
            .map(|g| (g, point::config(self.space, g, &self.defaults)))
            .filter(|(_, c)| {
                let key = cache::key(&self.p.input, c, level, &self.tools);
                self.cache.get(&key).is_none()
            })
            .collect();
        let threads = self.p.jobs.clamp(1, todo.len().max(1));
        let p = self.p;
        let bound = |ev: &mut Evaluator, cfg: &Config| {
            ev.lower_bound(cfg)
                .ok()
                .map(|b| bound::vector(&p.objectives, &b, level))
        };
        if threads == 1 {
            for (g, c) in &todo {
                let b = bound(&mut self.ev, c);
                self.bounds.insert((*g).clone(), b);
            }
            return;
        }
        let shares = bound::shares(self.space, todo.iter().map(|(g, _)| g.as_slice()), threads);
        let found: Vec<Vec<(usize, Option<Vec<f64>>)>> = std::thread::scope(|s| {
            let todo = &todo;
            let handles: Vec<_> = shares
                .into_iter()
                .map(|share| {
                    let mine = share.clone();
                    let h = s.spawn(move || {
                        let ev = evaluator(p.new_context, p.input.clone());
                        let mut ev = ev.ok();
                        mine.iter()
                            .map(|&i| (i, ev.as_mut().and_then(|ev| bound(ev, &todo[i].1))))
                            .collect::<Vec<_>>()
                    });
                    (h, share)
                })
                .collect();
            // A thread that panicked bounds nothing (its points are
            // evaluated).
            handles
                .into_iter()
                .map(|(h, share)| {
                    h.join()
                        .unwrap_or_else(|_| share.iter().map(|&i| (i, None)).collect())
                })
                .collect()
        });
        for (i, b) in found.into_iter().flatten() {
            self.bounds.insert(todo[i].0.clone(), b);
        }
    }

    /// The bound vector of `genes` (computed once), when pruning is on;
    /// none for a point the rules prune or the flow rejects.
    fn bound_of(&mut self, genes: &Genes) -> Option<Vec<f64>> {
        if !self.prune || point::prune(self.space, genes, self.info).is_some() {
            return None;
        }
        if let Some(b) = self.bounds.get(genes) {
            return b.clone();
        }
        let config = point::config(self.space, genes, &self.defaults);
        let b = self
            .ev
            .lower_bound(&config)
            .ok()
            .map(|b| bound::vector(&self.p.objectives, &b, self.p.level));
        self.bounds.insert(genes.clone(), b.clone());
        b
    }

    /// Why `genes` need not be evaluated: its bound vector is dominated
    /// by a point evaluated before.
    fn dominated(&mut self, genes: &Genes) -> Option<Outcome> {
        let b = self.bound_of(genes)?;
        let objectives = &self.p.objectives;
        let evaluated: Vec<(usize, Vec<f64>)> = self
            .records
            .iter()
            .filter_map(|r| r.metrics().map(|m| (r.id, pareto::vector(objectives, m))))
            .collect();
        let by = bound::dominated_by(&b, evaluated.iter().map(|(i, v)| (*i, v.as_slice())))?;
        let shown: Vec<String> = objectives
            .iter()
            .zip(&b)
            .map(|(o, x)| format!("{} >= {x}", o.name()))
            .collect();
        Some(Outcome::Dominated {
            bounds: shown.join(", "),
            by,
        })
    }

    /// Evaluates the first `--validate` points of `front` at
    /// `--validate-level`.
    fn validate(&mut self, front: &[usize]) -> Result<(), String> {
        let chosen: Vec<usize> = front.iter().copied().take(self.p.validate).collect();
        let tools = self.fpga_tools.clone();
        let level = self.p.validate_level;
        let mut todo = Vec::new();
        for &i in &chosen {
            let key = cache::key(&self.p.input, &self.records[i].config, level, &tools);
            match self.cache.get(&key) {
                Some(o) => self.records[i].validated = Some(o.clone()),
                None => todo.push((i, self.records[i].config.clone())),
            }
        }
        let tools_used = match level {
            Level::Synth => "yosys",
            _ => "yosys and nextpnr",
        };
        eprintln!("validating {} point(s) with {tools_used}", todo.len());
        let limit = self.p.limit(level);
        let Engine {
            p,
            ev,
            pool,
            dask,
            cache,
            records,
            ..
        } = self;
        let mut failure = None;
        let mut done = |a: pool::Answer| {
            let key = cache::key(&p.input, &records[a.id].config, level, &tools);
            if let Err(e) = cache.put(key, &a.outcome) {
                failure.get_or_insert(format!("cannot write the cache: {e}"));
            }
            records[a.id].validated = Some(a.outcome);
        };
        evaluate(ev, pool, dask, todo, level, limit, &mut done);
        if let Some(e) = failure {
            return Err(e);
        }
        Ok(())
    }
}

/// Evaluates `jobs` on Dask, on the pool, or in this process when there
/// is neither (no time limit there; Dask has its own), calling `done`
/// with each answer as it arrives.
fn evaluate(
    ev: &mut Evaluator,
    pool: &mut Option<pool::Pool>,
    dask: &mut Option<dask::Dask>,
    jobs: Vec<(usize, Config)>,
    level: Level,
    limit: Option<Duration>,
    done: &mut dyn FnMut(pool::Answer),
) {
    let answer = |id, outcome| pool::Answer {
        id,
        outcome,
        retry: true,
    };
    match (dask, pool) {
        (Some(dask), _) => dask.run(jobs, level, &mut |id, o| done(answer(id, o))),
        (None, Some(pool)) => pool.run(jobs, level, limit, done),
        (None, None) => {
            for (id, cfg) in jobs {
                let outcome = ev.evaluate(&cfg, level);
                done(answer(id, outcome));
            }
        }
    }
}
