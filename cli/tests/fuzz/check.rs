//! Running a generated kernel through `silica hls --sim` and minimising
//! one that fails: the checks of the differential fuzzer, shared by the
//! suite's test (`cli/tests/hls_fuzz.rs`) and the long runs
//! (`cli/examples/fuzz_hls.rs`).

use super::kernel::Kernel;
use std::path::Path;
use std::process::Command;

/// Writes `kernel` to `dir/k.mlir` and runs `silica hls --sim` on it
/// (co-simulation in Verilator against the kernel run in `lli-22`,
/// bit for bit); the error is silica's output where it fails.
pub fn check(silica: &Path, kernel: &Kernel, dir: &Path) -> Result<(), String> {
    check_text(silica, &kernel.text(), dir)
}

/// [`check`] of a function `@k` given as text.
pub fn check_text(silica: &Path, text: &str, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let file = dir.join("k.mlir");
    std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    let out = Command::new(silica)
        .arg("hls")
        .arg(&file)
        .args(["--top", "k", "--sim", "-o"])
        .arg(dir.join("out"))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", silica.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.success() && stdout.contains("values match") {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            stdout,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The smallest kernel found from `kernel` that still fails `fails`:
/// statements, the second nest, then directives, left out one at a time
/// while it does.
pub fn minimise(kernel: &Kernel, fails: &mut dyn FnMut(&Kernel) -> bool) -> Kernel {
    let mut best = kernel.clone();
    loop {
        let mut smaller = None;
        for i in 0..best.statements.len() {
            let mut k = best.clone();
            k.statements.remove(i);
            if !k.statements.is_empty() && fails(&k) {
                smaller = Some(k);
                break;
            }
        }
        if smaller.is_none() && best.chained.is_some() {
            let mut k = best.clone();
            k.chained = None;
            if fails(&k) {
                smaller = Some(k);
            }
        }
        if smaller.is_none() {
            for i in 0..best.directives.len() {
                let mut k = best.clone();
                k.directives.remove(i);
                if fails(&k) {
                    smaller = Some(k);
                    break;
                }
            }
        }
        match smaller {
            Some(k) => best = k,
            None => return best,
        }
    }
}
