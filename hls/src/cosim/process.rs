//! Running the external tools of a co-simulation (`lli-22`, `verilator`,
//! the built testbench) with a time limit, their output in files of the
//! work directory so that no pipe can fill up.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a tool may run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Wall-clock time after which the tool is killed.
    pub timeout: Duration,
}

/// How much of a failing tool's error output a message quotes.
const QUOTED_BYTES: usize = 4000;

/// Runs `program args` in `dir`; its standard output when it exits with
/// status 0, else a message with its status and error output.
pub fn run_tool(
    program: &str,
    args: &[&str],
    dir: &Path,
    limits: &Limits,
) -> Result<String, String> {
    run_tool_with_env(program, args, &[], dir, limits)
}

/// [`run_tool`] with `env` added to the tool's environment.
pub fn run_tool_with_env(
    program: &str,
    args: &[&str],
    env: &[(&str, &Path)],
    dir: &Path,
    limits: &Limits,
) -> Result<String, String> {
    let stem = Path::new(program)
        .file_name()
        .map_or_else(|| "tool".into(), |n| n.to_string_lossy().into_owned());
    let out_path = dir.join(format!("{stem}.stdout"));
    let err_path = dir.join(format!("{stem}.stderr"));
    let file = |p: &Path| {
        std::fs::File::create(p).map_err(|e| format!("cannot create {}: {e}", p.display()))
    };
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(file(&out_path)?)
        .stderr(file(&err_path)?)
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > limits.timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{program} did not finish within {} s",
                    limits.timeout.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("cannot wait for {program}: {e}")),
        }
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    if status.success() {
        return Ok(stdout);
    }
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let mut quoted = if stderr.trim().is_empty() {
        stdout
    } else {
        stderr
    };
    if quoted.len() > QUOTED_BYTES {
        let mut cut = quoted.len() - QUOTED_BYTES;
        while !quoted.is_char_boundary(cut) {
            cut += 1;
        }
        quoted = format!("...{}", &quoted[cut..]);
    }
    Err(format!(
        "{program} failed ({status}):\n{}",
        quoted.trim_end()
    ))
}
