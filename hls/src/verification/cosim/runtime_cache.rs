//! Verilator's runtime library (`verilated.o`, `verilated_threads.o`),
//! compiled once and reused by later builds: it is the same for every
//! model built with the same Verilator and flags, and compiling it is
//! most of a small model's build time. The cache is a directory of the
//! system's temporary directory named after a hash of Verilator's
//! version and the flags; objects are copied in after a build (through
//! a temporary file renamed over the final name, so parallel builds
//! never see half a file) and copied into a build directory before
//! the build, newer than their sources, so `make` keeps them.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The runtime objects every model links.
const OBJECTS: [&str; 2] = ["verilated.o", "verilated_threads.o"];

/// The cache directory for `verilator` built with `flags`, if Verilator
/// tells its version.
pub fn directory(verilator: &str, flags: &[&str]) -> Option<PathBuf> {
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
pub fn restore(cache: &Path, obj: &Path) {
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
pub fn store(cache: &Path, obj: &Path) {
    if std::fs::create_dir_all(cache).is_err() {
        return;
    }
    for name in OBJECTS {
        let to = cache.join(name);
        let from = obj.join(name);
        if to.is_file() || !from.is_file() {
            continue;
        }
        let temp = cache.join(format!(".{name}.{}", std::process::id()));
        if std::fs::copy(&from, &temp).is_ok() && std::fs::rename(&temp, &to).is_err() {
            let _ = std::fs::remove_file(&temp);
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
}
