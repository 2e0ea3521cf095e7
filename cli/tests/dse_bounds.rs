//! `silica dse`'s lower bounds never exceed what the `estimate` level
//! reports: on every point of small spaces (an 8x8 gemm with unrolling,
//! pipelining, ports, tiling and DMA) and on points drawn at random
//! (seeded) from PolyBench spaces (2mm's 1,536 points, the bench spaces
//! of gemm, atax and jacobi-2d), the bound vector of each valid point is
//! at most its evaluated vector in every objective. The bounds are not
//! trivial either: over each space they sum to at least 30% of the
//! estimated cycles (about 60% on average over these points), and where
//! the kernel multiplies values from its memory ports without DMA, every
//! point's DSP and LUT bounds are those of a multiplier (above 0).

use silica_dse::eval::{Level, Outcome};
use silica_dse::pareto::Objective;
use silica_dse::{bound, kernel, point, space};
use std::path::Path;

const ALL: [Objective; 6] = [
    Objective::Cycles,
    Objective::Micros,
    Objective::Lut,
    Objective::Ff,
    Objective::Dsp,
    Objective::Bram,
];

/// Checks the points `pick` chooses of `space_file` on `kernel_file`:
/// at least one compared, and the latency bounds sum to at least 30% of
/// the estimates; with `products`, every point without DMA has DSP and
/// LUT bounds above 0.
fn check(
    kernel_file: &str,
    top: &str,
    space_file: &str,
    products: bool,
    pick: &dyn Fn(u128) -> Vec<u128>,
) {
    let (mut ev, info, space) = setup(kernel_file, top, space_file);
    let (mut compared, mut bounded, mut estimated) = (0, 0, 0);
    for i in pick(space.size()) {
        let genes = space.point(i);
        if point::prune(&space, &genes, &info).is_some() {
            continue;
        }
        let cfg = point::config(&space, &genes, &defaults());
        let Outcome::Ok { metrics } = ev.evaluate(&cfg, Level::Estimate) else {
            continue;
        };
        let b = ev.lower_bound(&cfg).unwrap();
        let bounds = bound::vector(&ALL, &b, Level::Estimate);
        let got = silica_dse::pareto::vector(&ALL, &metrics);
        for ((o, lo), v) in ALL.iter().zip(&bounds).zip(&got) {
            assert!(
                lo <= &(v + 1e-9),
                "{space_file} point {i}: {} bound {lo} > {v}\n{}",
                o.name(),
                cfg.directives
            );
        }
        if products && cfg.dma_kib.is_none() {
            assert!(
                b.dsp > 0 && b.lut > 0,
                "{space_file} point {i}: no multiplier bounded ({b:?})"
            );
        }
        compared += 1;
        bounded += b.latency_cycles;
        estimated += metrics.latency_cycles;
    }
    assert!(compared > 0, "{space_file}: no point compared");
    assert!(
        bounded * 10 >= estimated * 3,
        "{space_file}: the latency bounds sum to {bounded} of {estimated} cycles"
    );
}

fn defaults() -> point::Defaults {
    point::Defaults {
        target: "ecp5-25k".into(),
        clock_ns: 10.0,
    }
}

/// The evaluator of `kernel_file`, what a space can name in it, and the
/// space `space_file`.
fn setup(
    kernel_file: &str,
    top: &str,
    space_file: &str,
) -> (
    silica_dse::eval::Evaluator,
    kernel::KernelInfo,
    space::Space,
) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join(kernel_file)).unwrap();
    let input = kernel::Input {
        name: kernel_file.into(),
        text,
        top: top.into(),
        ip: Vec::new(),
        max_port_bits: silica_hls::model::options::MAX_PORT_BITS,
        fit: false,
    };
    let mut ev = silica_dse::evaluator(context, input).unwrap();
    let classes = silica_hls::model::directives::LIMITED_CLASSES
        .iter()
        .map(|c| c.to_string())
        .collect();
    let info = kernel::info(&mut ev.ctx, &ev.parsed, top, classes);
    let space_text = std::fs::read_to_string(root.join(space_file)).unwrap();
    let space = space::parse(&space_text, &info).unwrap();
    (ev, info, space)
}

fn context() -> silica_ir::Context {
    let mut ctx = silica_ir::Context::new();
    silica_cli::register_dialects(&mut ctx);
    ctx
}

fn every(n: u128) -> Vec<u128> {
    (0..n).collect()
}

/// `count` distinct indices below `n`, seeded.
fn sample(count: usize, seed: u64) -> impl Fn(u128) -> Vec<u128> {
    move |n| {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut out: Vec<u128> = Vec::new();
        while out.len() < count.min(n as usize) {
            let i = rng.u128(..n);
            if !out.contains(&i) {
                out.push(i);
            }
        }
        out
    }
}

#[test]
fn bounds_of_every_point_of_small_spaces() {
    for (kernel, top, s, products) in [
        ("gemm", "gemm", "small", true),
        ("gemm", "gemm", "ports", true),
        ("gemm", "gemm", "tile", true),
        ("latency", "f", "reentry", false),
        ("muls", "gesummv", "muls", true),
    ] {
        check(
            &format!("tests/dse/{kernel}.mlir"),
            top,
            &format!("tests/dse/spaces/{s}.toml"),
            products,
            &every,
        );
    }
}

#[test]
fn bounds_of_dma_points() {
    check(
        "tests/dse/dma.mlir",
        "gemm",
        "tests/dse/spaces/dma.toml",
        false,
        &every,
    );
}

#[test]
fn bounds_of_random_polybench_points() {
    check(
        "examples/polybench/mini/2mm.i32.mlir",
        "k2mm",
        "examples/dse/2mm.space.toml",
        true,
        &sample(40, 1),
    );
    for (k, top) in [
        ("gemm", "gemm"),
        ("atax", "atax"),
        ("jacobi-2d", "jacobi_2d"),
    ] {
        check(
            &format!("examples/polybench/mini/{k}.i32.mlir"),
            top,
            &format!("bench/dse_polybench/{k}.space.toml"),
            k != "jacobi-2d",
            &sample(24, 2),
        );
    }
}

/// Two divisions by a variable an iteration on one divider: the pipeline
/// of 32 iterations has II 2 at least, which the bound counts (31 x 2
/// cycles and its depth), and on two dividers it does not; both at most
/// the estimate.
#[test]
fn bounds_count_limited_units() {
    let (mut ev, info, space) = setup("tests/dse/divs.mlir", "f", "tests/dse/spaces/divs.toml");
    let mut seen = 0;
    for i in 0..space.size() {
        let genes = space.point(i);
        let cfg = point::config(&space, &genes, &defaults());
        if point::prune(&space, &genes, &info).is_some()
            || !cfg.directives.contains("pipeline = true")
        {
            continue;
        }
        let b = ev.lower_bound(&cfg).unwrap();
        let Outcome::Ok { metrics } = ev.evaluate(&cfg, Level::Estimate) else {
            panic!("{}", cfg.directives)
        };
        assert!(b.latency_cycles <= metrics.latency_cycles);
        if cfg.directives.contains("div = 1") {
            assert!(b.latency_cycles > 62, "{b:?}\n{}", cfg.directives);
        } else {
            assert!(b.latency_cycles < 62, "{b:?}\n{}", cfg.directives);
        }
        seen += 1;
    }
    assert_eq!(seen, 2);
}

/// A float dot product of 32 iterations: the pipelined loop's sum goes
/// through an fadd of `L` cycles at the point's clock period, so its II
/// is at least `L` (rewriting leaves floats alone), and the bound counts
/// 31 x L cycles at least where L > 1; every bound at most the estimate.
#[test]
fn bounds_count_float_recurrences() {
    let (mut ev, info, space) = setup("tests/dse/fdot.mlir", "fdot", "tests/dse/spaces/fdot.toml");
    let mut deep = 0;
    for i in 0..space.size() {
        let genes = space.point(i);
        assert!(point::prune(&space, &genes, &info).is_none());
        let cfg = point::config(&space, &genes, &defaults());
        let Outcome::Ok { metrics } = ev.evaluate(&cfg, Level::Estimate) else {
            panic!("{}", cfg.directives)
        };
        let b = ev.lower_bound(&cfg).unwrap();
        assert!(
            b.latency_cycles <= metrics.latency_cycles,
            "{b:?} {}\n{}",
            metrics.latency_cycles,
            cfg.directives
        );
        if cfg.directives.contains("pipeline = true") && b.latency_cycles > 31 * 2 {
            deep += 1;
        }
    }
    assert!(
        deep >= 2,
        "{deep} pipelined point(s) bounded by an fadd of 2 cycles or more"
    );
}

/// Integer recurrences (tests/dse/recur.mlir, 32 iterations): a value
/// carried through a division by a variable, a word read through two
/// chained loads, a word stored through a division for the next
/// iteration's load. Pipelined, each II is at least the divider's stages
/// (at least 8 at 5 and 10 ns, 4 at 20 ns: a 32-bit divider takes about
/// 138 ns) or the two loads' cycles (on two ports, which bound the II by
/// 1 only), which the bound counts; every bound is at most the estimate,
/// pipelined or not.
#[test]
fn bounds_count_integer_recurrences() {
    for (top, space, least) in [
        ("divrec", "recur", [8, 4]),
        ("chase", "recur-ports", [2, 2]),
        ("memrec", "recur", [8, 4]),
    ] {
        let space_file = format!("tests/dse/spaces/{space}.toml");
        let (mut ev, info, space) = setup("tests/dse/recur.mlir", top, &space_file);
        let mut pipelined = 0;
        for i in 0..space.size() {
            let genes = space.point(i);
            assert!(point::prune(&space, &genes, &info).is_none());
            let cfg = point::config(&space, &genes, &defaults());
            let Outcome::Ok { metrics } = ev.evaluate(&cfg, Level::Estimate) else {
                panic!("{top}: {}", cfg.directives)
            };
            let b = ev.lower_bound(&cfg).unwrap();
            assert!(
                b.latency_cycles <= metrics.latency_cycles,
                "{top}: {b:?} {}\n{}",
                metrics.latency_cycles,
                cfg.directives
            );
            if cfg.directives.contains("pipeline = true") {
                let ii = least[usize::from(cfg.clock_ns > 10.0)];
                assert!(
                    b.latency_cycles > 31 * ii,
                    "{top}: {b:?} at most 31 x {ii}\n{}",
                    cfg.directives
                );
                pipelined += 1;
            }
        }
        assert!(pipelined >= 2, "{top}");
    }
}

/// An evaluator keeps the kernels it lifts for bounds and bounds the
/// points that lift alike (other `[limits]`, another clock period) on
/// the kept kernel: each bound is the one a fresh evaluator gives the
/// point alone, on spaces with clock periods and limits (gemm), unit
/// limits that change the II bound (divs), tiling and DMA.
#[test]
fn kept_kernels_bound_as_fresh_ones() {
    for (kernel, top, space_file, pick) in [
        (
            "examples/gemm.mlir",
            "gemm",
            "examples/dse/gemm.space.toml",
            sample(48, 3),
        ),
        (
            "tests/dse/divs.mlir",
            "f",
            "tests/dse/spaces/divs.toml",
            sample(64, 4),
        ),
        (
            "tests/dse/gemm.mlir",
            "gemm",
            "tests/dse/spaces/tile.toml",
            sample(64, 5),
        ),
        (
            "tests/dse/fdot.mlir",
            "fdot",
            "tests/dse/spaces/fdot.toml",
            sample(64, 7),
        ),
        (
            "tests/dse/dma.mlir",
            "gemm",
            "tests/dse/spaces/dma.toml",
            sample(64, 6),
        ),
    ] {
        let (mut kept, info, space) = setup(kernel, top, space_file);
        let mut compared = 0;
        for i in pick(space.size()) {
            let genes = space.point(i);
            if point::prune(&space, &genes, &info).is_some() {
                continue;
            }
            let cfg = point::config(&space, &genes, &defaults());
            let (mut fresh, _, _) = setup(kernel, top, space_file);
            assert_eq!(
                kept.lower_bound(&cfg),
                fresh.lower_bound(&cfg),
                "{space_file} point {i}\n{}",
                cfg.directives
            );
            compared += 1;
        }
        assert!(compared > 1, "{space_file}: {compared} point(s) compared");
    }
}
