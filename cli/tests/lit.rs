//! The lit-style test harness: every `.mlir` file under `tests/`, and
//! every `.c` file with `// RUN:` lines, is one test. Its `// RUN:` lines run through `bash` with `%s` replaced by the
//! file, `%S` by its directory, `%t` by a scratch path of the test's own (under the target
//! directory, named after the file's directory and name), `silica` by the built binary and `FileCheck` by
//! `FileCheck-22`; `not CMD` succeeds when CMD fails without crashing.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use std::process::Command;

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e == "mlir") || is_c_test(&p) {
            out.push(p);
        }
    }
}

/// A C file with `// RUN:` lines (other C files under `tests/` are
/// helpers the tests compile).
fn is_c_test(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "c")
        && std::fs::read_to_string(p)
            .is_ok_and(|t| t.lines().any(|l| l.trim_start().starts_with("// RUN:")))
}

fn run_file(path: &Path, silica: &Path) -> Result<(), Failed> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("read: {e}"))?;
    let mut runs = Vec::new();
    let mut pending = String::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("// RUN:") else {
            continue;
        };
        let rest = rest.trim();
        if let Some(cont) = rest.strip_suffix('\\') {
            pending.push_str(cont);
            pending.push(' ');
        } else {
            pending.push_str(rest);
            runs.push(std::mem::take(&mut pending));
        }
    }
    if runs.is_empty() {
        return Err("no RUN lines".into());
    }
    let file = path.to_string_lossy();
    let dir = path
        .parent()
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Named after the directory too: files of the same name in different
    // directories (`errors.mlir`) run in parallel and must not share it.
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("lit")
        .join(path.parent().and_then(Path::file_name).unwrap_or_default())
        .join(path.file_stem().unwrap_or_default());
    if let Some(dir) = scratch.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("scratch directory: {e}"))?;
    }
    let scratch = scratch.to_string_lossy();
    for run in runs {
        let cmd = run
            .replace("%s", &file)
            .replace("%S", &dir)
            .replace("%t", &scratch)
            .replace("FileCheck", "FileCheck-22")
            .replace("FileCheck-22-22", "FileCheck-22");
        let cmd = cmd.replace("silica ", &format!("{} ", silica.display()));
        let out = Command::new("bash")
            .arg("-c")
            // `not CMD`: succeeds when CMD fails without crashing, as LLVM's.
            .arg(format!(
                "set -o pipefail; not() {{ \"$@\"; local s=$?; [ $s -ne 0 ] && [ $s -lt 128 ]; }}; {cmd}"
            ))
            .output()
            .map_err(|e| format!("spawn: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "RUN: {run}\nexit: {}\nstdout:\n{}\nstderr:\n{}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests");
    let silica = PathBuf::from(env!("CARGO_BIN_EXE_silica"));
    let mut files = Vec::new();
    collect(&root, &mut files);
    let trials = files
        .into_iter()
        .map(|f| {
            let name = f
                .strip_prefix(&root)
                .unwrap_or(&f)
                .to_string_lossy()
                .into_owned();
            let silica = silica.clone();
            Trial::test(name, move || run_file(&f, &silica))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
