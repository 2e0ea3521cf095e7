//! PolyBench/C 4.2 (`examples/polybench/`): every kernel file is what its
//! generator writes and parses and verifies in `silica opt`; every i32
//! kernel at MINI size goes through `silica hls --sim` (co-simulation in
//! Verilator against the kernel run in `lli-22`), and the kernels that
//! pass are exactly `EXPECTED_TO_PASS`: a regression fails the test, and
//! so does a new success until it is added to the list. A representative
//! subset of the f32 kernels (`F32_SUBSET`) co-simulates too; the whole
//! f32 set is a benchmark run recorded in `docs/QOR.md` (too slow for the
//! suite).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// The i32 MINI kernels that `silica hls --sim` co-simulates correctly.
const EXPECTED_TO_PASS: &[&str] = &[
    "2mm",
    "3mm",
    "atax",
    "bicg",
    "covariance",
    "doitgen",
    "durbin",
    "fdtd-2d",
    "floyd-warshall",
    "gemm",
    "gemver",
    "gesummv",
    "heat-3d",
    "jacobi-1d",
    "jacobi-2d",
    "lu",
    "ludcmp",
    "mvt",
    "nussinov",
    "seidel-2d",
    "symm",
    "syr2k",
    "syrk",
    "trisolv",
    "trmm",
];

/// f32 MINI kernels co-simulated in the suite: additions and products in
/// a pipelined reduction (gemm), square roots and divisions in a
/// triangular nest (cholesky).
const F32_SUBSET: &[&str] = &["gemm", "cholesky"];

fn polybench_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/polybench")
}

fn mlir_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    files
}

/// The function a kernel file defines (`func.func @NAME(`).
fn top_of(text: &str) -> String {
    let start = text.find("func.func @").expect("a func.func") + "func.func @".len();
    let rest = &text[start..];
    rest[..rest.find('(').expect("an argument list")].to_string()
}

#[test]
fn generator_output_is_current_and_every_kernel_verifies() {
    let gen = polybench_dir().join("gen.py");
    let out = Command::new("python3")
        .arg(&gen)
        .arg("--check")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "examples/polybench is not what gen.py writes: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let silica = env!("CARGO_BIN_EXE_silica");
    let mut count = 0;
    for size in ["mini", "small"] {
        for file in mlir_files(&polybench_dir().join(size)) {
            let out = Command::new(silica)
                .arg("opt")
                .arg(&file)
                .output()
                .expect("silica runs");
            assert!(
                out.status.success(),
                "{}: {}",
                file.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            count += 1;
        }
    }
    // 30 kernels in f32, 25 in i32 and deriche in f64, at two sizes.
    assert_eq!(count, 112);
}

/// `silica hls --sim` on `file` into `out_dir`: whether it co-simulated
/// correctly, and its error output.
fn cosimulates(file: &Path, out_dir: &Path) -> (bool, String) {
    let silica = env!("CARGO_BIN_EXE_silica");
    let text = std::fs::read_to_string(file).unwrap();
    let _ = std::fs::remove_dir_all(out_dir);
    let out = Command::new(silica)
        .arg("hls")
        .arg(file)
        .arg("--top")
        .arg(top_of(&text))
        .arg("-o")
        .arg(out_dir)
        .arg("--sim")
        .output()
        .expect("silica runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let passed = out.status.success()
        && stdout.contains("values match")
        && out_dir.join(format!("{}.sv", top_of(&text))).exists();
    let why = String::from_utf8_lossy(&out.stderr).trim().to_string();
    (passed, why)
}

#[test]
fn mini_f32_subset_cosimulates() {
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("polybench-f32");
    std::thread::scope(|s| {
        for name in F32_SUBSET {
            let work = &work;
            s.spawn(move || {
                let file = polybench_dir().join(format!("mini/{name}.f32.mlir"));
                let (passed, why) = cosimulates(&file, &work.join(name));
                assert!(passed, "{name} (f32): {why}");
            });
        }
    });
}

#[test]
fn mini_i32_kernels_cosimulate() {
    let files: Vec<PathBuf> = mlir_files(&polybench_dir().join("mini"))
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".i32.mlir"))
        .collect();
    assert_eq!(files.len(), 25);
    let work = Path::new(env!("CARGO_TARGET_TMPDIR")).join("polybench");
    let queue = Mutex::new(files);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let Some(file) = queue.lock().unwrap().pop() else {
                    break;
                };
                let name = file
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .trim_end_matches(".i32.mlir")
                    .to_string();
                let (passed, why) = cosimulates(&file, &work.join(&name));
                results.lock().unwrap().push((name, passed, why));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort();
    let passed: BTreeSet<&str> = results
        .iter()
        .filter(|r| r.1)
        .map(|r| r.0.as_str())
        .collect();
    let expected: BTreeSet<&str> = EXPECTED_TO_PASS.iter().copied().collect();
    let failures: Vec<String> = results
        .iter()
        .filter(|r| !r.1)
        .map(|r| format!("  {}: {}", r.0, r.2))
        .collect();
    eprintln!(
        "PolyBench MINI i32 kernels failing co-simulation:\n{}",
        failures.join("\n")
    );
    let regressed: Vec<&&str> = expected.difference(&passed).collect();
    let new: Vec<&&str> = passed.difference(&expected).collect();
    assert!(
        regressed.is_empty() && new.is_empty(),
        "no longer passing: {regressed:?}; newly passing (add to EXPECTED_TO_PASS): {new:?}\nfailures:\n{}",
        failures.join("\n")
    );
}
