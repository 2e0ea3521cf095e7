//! What every Verilator model's C++ build shares, made once and reused
//! by later builds ([`make`]):
//! - Verilator's runtime library (`verilated.o`, `verilated_threads.o`):
//!   the same for every model built with the same Verilator and flags,
//!   and compiling it is most of a small model's build time. Objects are
//!   copied in after a build and copied into a build directory before
//!   the build, newer than their sources, so `make` keeps them.
//! - A precompiled prelude ([`PRELUDE`]: `verilated.h` and the standard
//!   headers the testbenches use), which g++ otherwise parses again for
//!   each of a model's files: it is most of the time a small model's
//!   files take at `-O0`. It is compiled by the model's own makefile
//!   (its compiler and flags) once per set of `make` arguments, and every
//!   file of a model is compiled with `-include` of it. A compiler that
//!   finds the precompiled file unusable (other flags, another version)
//!   reads the header as text: the build is slower, never different.
//!
//! The cache is a directory of the system's temporary directory named
//! after a hash of Verilator's version and the flags; files go in
//! through a temporary file renamed over the final name, so parallel
//! builds never see half a file.

use super::process::{run_tool, Limits};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the prelude includes: Verilator's header and the standard
/// headers of the generated testbenches.
const PRELUDE: &str = "#include \"verilated.h\"\n#include <cstdint>\n#include <cstdio>\n\
#include <cstdlib>\n#include <fstream>\n#include <string>\n#include <vector>\n";

/// The makefile rule that precompiles the prelude with the model's
/// compiler and flags (included after the model's makefile).
const PRELUDE_RULE: &str = "silica-prelude:\n\
\t$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(OPT_FAST) -MF /dev/null -x c++-header -o $(PRELUDE_OUT) $(PRELUDE_IN)\n";

/// Builds the model Verilator generated in `dir/obj` (`makefile`, with
/// `make_args` added to `make`'s), with the cached runtime objects and
/// prelude of a model verilated with `flags`.
pub fn make(
    verilator: &str,
    flags: &[&str],
    dir: &Path,
    makefile: &str,
    make_args: &[&str],
    limits: &Limits,
) -> Result<(), String> {
    let obj = dir.join("obj");
    let cache = directory(verilator, flags);
    let mut args: Vec<String> = ["-s", "-C", "obj", "-f", makefile, "-j", "2"]
        .iter()
        .chain(make_args)
        .map(|a| a.to_string())
        .collect();
    if let Some(cache) = &cache {
        // The model's makefile is new: objects copied in after it count
        // as up to date.
        restore(cache, &obj);
        if let Some(header) = prelude(cache, dir, makefile, make_args, limits) {
            args.push(format!(
                "USER_CPPFLAGS=-Winvalid-pch -include {}",
                header.display()
            ));
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_tool("make", &args, dir, limits)?;
    if let Some(cache) = &cache {
        store(cache, &obj);
    }
    Ok(())
}

/// The prelude's header in `cache` for builds with `make_args`,
/// precompiled there first if it is not yet (by the makefile in
/// `dir/obj`); none where its path cannot go on a command line or the
/// header cannot be written. A failed precompilation leaves the header
/// alone: it still compiles, as text.
fn prelude(
    cache: &Path,
    dir: &Path,
    makefile: &str,
    make_args: &[&str],
    limits: &Limits,
) -> Option<PathBuf> {
    let mut h = DefaultHasher::new();
    make_args.hash(&mut h);
    let header = cache.join(format!("prelude-{:016x}.h", h.finish()));
    let text = header.to_str()?;
    if text.contains(char::is_whitespace) {
        return None;
    }
    let compiled = PathBuf::from(format!("{text}.gch"));
    if compiled.is_file() {
        return Some(header);
    }
    if !header.is_file() && !publish(&header, |temp| std::fs::write(temp, PRELUDE).is_ok()) {
        return None;
    }
    let rule = "silica-prelude.mk";
    std::fs::write(dir.join("obj").join(rule), PRELUDE_RULE).ok()?;
    let input = format!("PRELUDE_IN={text}");
    publish(&compiled, |temp| {
        let output = format!("PRELUDE_OUT={}", temp.display());
        let mut args = vec!["-s", "-C", "obj", "-f", makefile, "-f", rule];
        args.extend(make_args);
        args.extend([input.as_str(), output.as_str(), "silica-prelude"]);
        run_tool("make", &args, dir, limits).is_ok()
    });
    Some(header)
}

/// Puts a file at `to` (in the cache) through a temporary file of its
/// directory that `fill` makes, renamed over `to` where `fill` succeeds
/// (so that parallel builds never see half a file); whether it did.
fn publish(to: &Path, fill: impl FnOnce(&Path) -> bool) -> bool {
    let (Some(dir), Some(name)) = (to.parent(), to.file_name()) else {
        return false;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return false;
    }
    let temp = dir.join(format!(
        ".{}.{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let done = fill(&temp) && std::fs::rename(&temp, to).is_ok();
    if !done {
        let _ = std::fs::remove_file(&temp);
    }
    done
}

/// The runtime objects every model links.
const OBJECTS: [&str; 2] = ["verilated.o", "verilated_threads.o"];

/// The cache directory for `verilator` built with `flags`, if Verilator
/// tells its version.
fn directory(verilator: &str, flags: &[&str]) -> Option<PathBuf> {
    let out = Command::new(verilator).arg("--version").output().ok()?;
    if !out.status.success() {
        return None;
    }
    let mut h = DefaultHasher::new();
    out.stdout.hash(&mut h);
    flags.hash(&mut h);
    Some(std::env::temp_dir().join(format!("silica-verilator-runtime-{:016x}", h.finish())))
}

/// Copies the cached objects into the build directory `obj`.
fn restore(cache: &Path, obj: &Path) {
    if std::fs::create_dir_all(obj).is_err() {
        return;
    }
    for name in OBJECTS {
        let from = cache.join(name);
        if from.is_file() {
            let _ = std::fs::copy(&from, obj.join(name));
        }
    }
}

/// Copies the objects a build made in `obj` into the cache.
fn store(cache: &Path, obj: &Path) {
    for name in OBJECTS {
        let (to, from) = (cache.join(name), obj.join(name));
        if !to.is_file() && from.is_file() {
            publish(&to, |temp| std::fs::copy(&from, temp).is_ok());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_go_to_the_cache_once_and_come_back() {
        let root = std::env::temp_dir().join(format!("silica-cache-test-{}", std::process::id()));
        let (cache, first, second) = (root.join("cache"), root.join("a"), root.join("b"));
        std::fs::create_dir_all(&first).unwrap();
        std::fs::write(first.join("verilated.o"), "one").unwrap();
        store(&cache, &first);
        assert_eq!(
            std::fs::read_to_string(cache.join("verilated.o")).unwrap(),
            "one"
        );
        assert!(!cache.join("verilated_threads.o").exists());
        // A later build's objects do not replace the cached ones.
        std::fs::write(first.join("verilated.o"), "two").unwrap();
        store(&cache, &first);
        restore(&cache, &second);
        assert_eq!(
            std::fs::read_to_string(second.join("verilated.o")).unwrap(),
            "one"
        );
        assert!(!second.join("verilated_threads.o").exists());
        std::fs::remove_dir_all(&root).unwrap();
    }

    /// Verilates a toggling register and its `main` in `dir` with
    /// `flags` and builds it with [`make`], g++ listing the headers it
    /// reads (`-H`: `! FILE` for a precompiled one); gives that list.
    fn build_toggle(flags: &[&str], dir: &Path) -> String {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join("t.sv"),
            "module t(input clk, output reg q);\n  always @(posedge clk) q <= ~q;\nendmodule\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("main.cpp"),
            "#include \"Vt.h\"\nint main() { Vt t; t.clk = 1; t.eval(); return t.q > 1; }\n",
        )
        .unwrap();
        let limits = Limits {
            timeout: std::time::Duration::from_secs(300),
        };
        let mut args = flags.to_vec();
        args.extend(["--Mdir", "obj", "-o", "toggle", "main.cpp", "t.sv"]);
        run_tool("verilator", &args, dir, &limits).unwrap();
        make(
            "verilator",
            flags,
            dir,
            "Vt.mk",
            &["OPT_FAST=-O0", "CXX=g++ -H"],
            &limits,
        )
        .unwrap();
        assert!(dir.join("obj/toggle").is_file());
        std::fs::read_to_string(dir.join("make.stderr")).unwrap()
    }

    #[test]
    fn a_later_build_takes_the_precompiled_prelude() {
        let root = std::env::temp_dir().join(format!("silica-prelude-test-{}", std::process::id()));
        // A flag of this test's own: a cache directory no other build shares.
        let define = format!("-DSILICA_PRELUDE_TEST={}", std::process::id());
        let flags = [
            "--cc",
            "--exe",
            "--prefix",
            "Vt",
            "-CFLAGS",
            define.as_str(),
        ];
        build_toggle(&flags, &root.join("first"));
        let cache = directory("verilator", &flags).unwrap();
        let compiled: Vec<_> = std::fs::read_dir(&cache)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".h.gch"))
            .collect();
        assert_eq!(compiled.len(), 1, "one precompiled prelude in {cache:?}");
        let used = format!("! {}", compiled[0].path().display());
        // The second build compiles its own two files only (the runtime
        // is cached), each with the precompiled prelude.
        let headers = build_toggle(&flags, &root.join("second"));
        assert_eq!(headers.matches(&used).count(), 2, "{headers}");
        std::fs::remove_dir_all(&root).unwrap();
        std::fs::remove_dir_all(&cache).unwrap();
    }
}
