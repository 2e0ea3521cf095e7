//! The differential fuzzer in the suite: random affine kernels
//! (`fuzz/kernel.rs`: nests of depth 1 to 3, elements of 1 to 64 bits,
//! mixed arithmetic, reductions, read-modify-writes at data-dependent
//! addresses, guards, random directives) through `silica hls --sim`,
//! each co-simulated bit for bit against its software run. A fixed set
//! of seeds runs here; `cargo run --release -p silica-cli --example
//! fuzz_hls -- --count 1000` runs thousands and minimises a failure into
//! a lit test. Random control flow between blocks (`fuzz/control.rs`,
//! often irreducible) and random 2-D stencils (`fuzz/stencil.rs`, which
//! the line buffers take) go through the same check.

#[path = "fuzz/check.rs"]
mod check;
#[path = "fuzz/control.rs"]
mod control;
#[path = "fuzz/kernel.rs"]
mod kernel;
#[path = "fuzz/stencil.rs"]
mod stencil;

use kernel::Kernel;
use std::path::Path;

/// The seeds the suite runs (about a minute on two cores).
const SEEDS: std::ops::Range<u64> = 1..9;

#[test]
fn random_kernels_cosimulate_bit_for_bit() {
    let silica = Path::new(env!("CARGO_BIN_EXE_silica"));
    let root = std::env::temp_dir().join(format!("silica-hls-fuzz-{}", std::process::id()));
    let mut failures = Vec::new();
    for seed in SEEDS {
        let kernel = Kernel::generate(seed);
        let dir = root.join(seed.to_string());
        if let Err(e) = check::check(silica, &kernel, &dir) {
            // The smallest kernel that still fails, for the report.
            let small = check::minimise(&kernel, &mut |k| check::check(silica, k, &dir).is_err());
            failures.push(format!("seed {seed}, minimised:\n{}\n{e}", small.text()));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The seeds of random control flow the suite runs.
const CONTROL_SEEDS: std::ops::Range<u64> = 1..7;

#[test]
fn random_control_flow_cosimulates_bit_for_bit() {
    let silica = Path::new(env!("CARGO_BIN_EXE_silica"));
    let root = std::env::temp_dir().join(format!("silica-cf-fuzz-{}", std::process::id()));
    let mut failures = Vec::new();
    for seed in CONTROL_SEEDS {
        let text = control::text(seed);
        if let Err(e) = check::check_text(silica, &text, &root.join(seed.to_string())) {
            failures.push(format!("seed {seed}:\n{text}\n{e}"));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The seeds of random stencils the suite runs.
const STENCIL_SEEDS: std::ops::Range<u64> = 1..9;

#[test]
fn random_stencils_cosimulate_bit_for_bit() {
    let silica = Path::new(env!("CARGO_BIN_EXE_silica"));
    let root = std::env::temp_dir().join(format!("silica-stencil-fuzz-{}", std::process::id()));
    let (mut failures, mut line_buffered) = (Vec::new(), 0);
    for seed in STENCIL_SEEDS {
        let Some(text) = stencil::text(seed) else {
            continue;
        };
        let dir = root.join(seed.to_string());
        match check::check_text(silica, &text, &dir) {
            Err(e) => failures.push(format!("seed {seed}:\n{text}\n{e}")),
            Ok(()) => {
                let report =
                    std::fs::read_to_string(dir.join("out/report.txt")).unwrap_or_default();
                line_buffered += usize::from(report.contains("line buffers for stencils"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The seeds exercise the line buffers, not only the nests they leave.
    assert!(
        line_buffered >= 2,
        "{line_buffered} stencil(s) line-buffered"
    );
}

#[test]
fn kernels_are_reproducible_from_their_seed() {
    assert_eq!(Kernel::generate(7).text(), Kernel::generate(7).text());
    assert_ne!(Kernel::generate(7).text(), Kernel::generate(8).text());
}

#[test]
fn minimising_leaves_out_what_the_failure_does_not_need() {
    let big = (1..)
        .map(Kernel::generate)
        .find(|k| k.statements.len() >= 2 && k.directives.len() >= 2 && k.chained.is_some())
        .expect("a kernel with statements, directives and a second nest");
    // A "failure" that needs any one directive: one statement, no second
    // nest and one directive are left.
    let small = check::minimise(&big, &mut |k| !k.directives.is_empty());
    assert_eq!(small.statements.len(), 1);
    assert_eq!(small.directives.len(), 1);
    assert!(small.chained.is_none());
}
