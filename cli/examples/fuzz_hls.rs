//! Long runs of the differential fuzzer of `silica hls`
//! (`cli/tests/hls_fuzz.rs` runs a few seeds in the suite):
//!
//! ```text
//! cargo build --release -p silica-cli
//! cargo run --release -p silica-cli --example fuzz_hls -- [--count N] [--from SEED] [-o DIR]
//!     [--silica PATH] [--show SEED]
//! ```
//!
//! `--show SEED` prints that seed's kernel and stops.
//! Generates N kernels (seeds from SEED on), co-simulates each with
//! `target/release/silica hls --sim`, and for each failure writes the
//! smallest kernel that still fails (statements and directives left out
//! one at a time) to `DIR/seed-S.mlir` as a lit test, ready to be kept in
//! `tests/hls/`. Exit 1 where any failed.

#[path = "../tests/fuzz/check.rs"]
mod check;
#[path = "../tests/fuzz/kernel.rs"]
mod kernel;

use kernel::Kernel;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut count = 100u64;
    let mut from = 1u64;
    let mut out = PathBuf::from("target/fuzz-hls");
    let mut silica = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/release/silica");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next();
        match (a.as_str(), value) {
            ("--count", Some(v)) => count = v.parse().unwrap_or(count),
            ("--from", Some(v)) => from = v.parse().unwrap_or(from),
            ("-o", Some(v)) => out = PathBuf::from(v),
            ("--silica", Some(v)) => silica = PathBuf::from(v),
            ("--show", Some(v)) if v.parse::<u64>().is_ok() => {
                print!("{}", Kernel::generate(v.parse().unwrap_or(0)).text());
                return ExitCode::SUCCESS;
            }
            _ => {
                eprintln!(
                    "usage: fuzz_hls [--count N] [--from SEED] [-o DIR] [--silica PATH] [--show SEED]"
                );
                return ExitCode::FAILURE;
            }
        }
    }
    let work = out.join("work");
    let mut failed = 0;
    for seed in from..from + count {
        let kernel = Kernel::generate(seed);
        let Err(first) = check::check(&silica, &kernel, &work) else {
            continue;
        };
        failed += 1;
        let small = check::minimise(&kernel, &mut |k| check::check(&silica, k, &work).is_err());
        let why = check::check(&silica, &small, &work).err().unwrap_or(first);
        let file = out.join(format!("seed-{seed}.mlir"));
        let text = format!(
            "// Found by the fuzzer (`fuzz_hls`, seed {seed}), minimised.\n\
             // RUN: silica hls %s --top k -o %t --sim | FileCheck %s\n\
             // CHECK: values match\n{}",
            small.text()
        );
        if let Err(e) = std::fs::write(&file, text) {
            eprintln!("error: {}: {e}", file.display());
            return ExitCode::FAILURE;
        }
        eprintln!(
            "seed {seed}: FAILED, minimised in {}\n{why}",
            file.display()
        );
    }
    let _ = std::fs::remove_dir_all(&work);
    println!("{count} kernels from seed {from}: {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
