//! Running the external tools of a co-simulation (`lli-22`, `verilator`,
//! the built testbench) with a time limit, their output in files of the
//! work directory so that no pipe can fill up. A tool is stopped once
//! both its wall-clock time and its CPU time (its own and its finished
//! children's, from `/proc`) pass the limit: on a loaded machine a tool
//! starved of the processor is not stopped for waiting (a Verilator build
//! of a large design, a place and route), one that computes is; one that
//! neither computes nor ends is stopped at [`WALL_FACTOR`] times the
//! limit.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a tool may run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The tool is killed once its wall-clock time and its CPU time are
    /// both past this (or its wall-clock time past [`WALL_FACTOR`] times
    /// it).
    pub timeout: Duration,
}

/// How many limits of wall-clock time a tool may take whatever its CPU
/// time.
pub const WALL_FACTOR: u32 = 6;

/// How often a tool past its wall-clock limit has its CPU time read.
const CPU_POLL: Duration = Duration::from_secs(1);

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
    let mut next_poll = limits.timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > next_poll => {
                let wall = start.elapsed();
                let computed = cpu_time(child.id()).is_none_or(|cpu| cpu > limits.timeout);
                if computed || wall > limits.timeout * WALL_FACTOR {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "{program} did not finish within {} s",
                        limits.timeout.as_secs()
                    ));
                }
                next_poll = wall + CPU_POLL;
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

/// The CPU time of process `pid` and of its children it has waited for
/// (user and system: `/proc/PID/stat`'s fields 14 to 17); `None` where
/// `/proc` cannot tell.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which may hold spaces), from
    // field 3 (the state) on.
    let fields: Vec<&str> = stat.rsplit_once(") ")?.1.split_whitespace().collect();
    let ticks: u64 = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<u64>().ok())
        .sum::<Option<u64>>()?;
    let per_second = rustix::param::clock_ticks_per_second();
    (per_second > 0).then(|| Duration::from_secs_f64(ticks as f64 / per_second as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(seconds: u64) -> Limits {
        Limits {
            timeout: Duration::from_secs(seconds),
        }
    }

    #[test]
    fn a_waiting_tool_runs_past_the_limit_until_the_wall_factor() {
        let dir = std::env::temp_dir();
        // Waiting without computing: not stopped at the limit...
        let out = run_tool("sh", &["-c", "sleep 2; echo done"], &dir, &limits(1));
        assert_eq!(out.unwrap(), "done\n");
        // ...but at WALL_FACTOR limits.
        let start = Instant::now();
        let e = run_tool("sleep", &["30"], &dir, &limits(1)).unwrap_err();
        assert!(e.contains("did not finish within 1 s"), "{e}");
        let took = start.elapsed();
        assert!(
            took >= Duration::from_secs(u64::from(WALL_FACTOR)),
            "{took:?}"
        );
        assert!(took < Duration::from_secs(20), "{took:?}");
    }

    #[test]
    fn a_computing_tool_is_stopped_once_its_cpu_time_passes_the_limit() {
        let dir = std::env::temp_dir();
        let e = run_tool("sh", &["-c", "while :; do :; done"], &dir, &limits(1)).unwrap_err();
        assert!(e.contains("did not finish within 1 s"), "{e}");
        // The CPU time of a running process (this one) reads from /proc.
        assert!(cpu_time(std::process::id()).is_some_and(|t| t > Duration::ZERO));
    }
}
