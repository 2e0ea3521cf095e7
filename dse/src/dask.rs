//! Evaluation on an existing Dask distributed cluster (`--engine
//! dask[=ADDRESS]`). silica runs a small Python driver
//! (`dse/python/silica_dask_driver.py`, compiled into the binary and run
//! with `python -c`) that speaks JSON lines with it: the scheduler's
//! address, this binary's path and the kernel first, answered by `ready`
//! or an error; then one line of [`Request`]s per batch, answered by one
//! [`Reply`] per point as the cluster finishes it. The driver ships the
//! binary to every worker (a worker plugin) and runs `silica dse-worker`
//! there on chunks of points; Dask reruns the tasks of a worker that
//! dies. The Python is `SILICA_PYTHON`, else the project's `.venv`, else
//! `python3` on `PATH`.

use crate::eval::{Level, Outcome};
use crate::kernel::Input;
use crate::point::Config;
use crate::pool::{Reply, Request};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The driver's source.
const DRIVER: &str = include_str!("../python/silica_dask_driver.py");

/// The project's virtual environment (`scripts/install-tools.sh`).
const PROJECT_VENV: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../.venv");

/// How to install what the driver needs.
const INSTALL: &str = "install Python 3 with Dask's distributed (`pip install \
     distributed==2026.8.0`, or `bash scripts/install-tools.sh` for the project's .venv; \
     SILICA_PYTHON names another Python)";

/// The driver's first line.
#[derive(Serialize)]
struct Hello<'a> {
    scheduler: Option<&'a str>,
    exe: &'a Path,
    kernel: &'a Input,
}

/// The driver's answer to it.
#[derive(Deserialize)]
struct Ready {
    ready: Option<Cluster>,
    error: Option<String>,
}

/// The cluster the driver reached.
#[derive(Deserialize)]
pub struct Cluster {
    pub workers: usize,
    pub threads: usize,
}

/// A batch of points.
#[derive(Serialize)]
struct Batch {
    requests: Vec<Request>,
}

/// The running driver.
pub struct Dask {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    pub cluster: Cluster,
}

impl Drop for Dask {
    fn drop(&mut self) {
        // End of input: the driver closes its client and exits (or is
        // ended after a few seconds).
        drop(self.stdin.take());
        for _ in 0..50 {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Python that runs the driver.
fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("SILICA_PYTHON") {
        return p.into();
    }
    let venv = Path::new(PROJECT_VENV).join("bin").join("python");
    if venv.is_file() {
        return venv;
    }
    "python3".into()
}

impl Dask {
    /// Starts the driver and connects to the scheduler at `address`
    /// (none: Dask's configured `scheduler-address`, else
    /// `tcp://127.0.0.1:8786`); an unreachable scheduler, a missing
    /// Python or `distributed` is an error.
    pub fn connect(exe: &Path, input: &Input, address: Option<&str>) -> Result<Dask, String> {
        let py = python();
        let mut child = Command::new(&py)
            .arg("-c")
            .arg(DRIVER)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                format!(
                    "error: --engine dask: cannot run Python ('{}'): {e}; {INSTALL}",
                    py.display()
                )
            })?;
        let mut stdin = child.stdin.take().ok_or("no driver input")?;
        let mut stdout = BufReader::new(child.stdout.take().ok_or("no driver output")?);
        let hello = serde_json::to_string(&Hello {
            scheduler: address,
            exe,
            kernel: input,
        })
        .map_err(|e| e.to_string())?;
        let _ = writeln!(stdin, "{hello}").and_then(|()| stdin.flush());
        let mut line = String::new();
        let _ = stdout.read_line(&mut line);
        let ready: Option<Ready> = serde_json::from_str(&line).ok();
        match ready {
            Some(Ready {
                ready: Some(cluster),
                ..
            }) => Ok(Dask {
                child,
                stdin: Some(stdin),
                stdout,
                cluster,
            }),
            Some(Ready { error: Some(e), .. }) => {
                let _ = child.wait();
                Err(format!("error: --engine dask: {e}"))
            }
            _ => {
                drop(stdin);
                let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
                Err(format!(
                    "error: --engine dask: the Python driver ('{}') exited ({status}); {INSTALL}",
                    py.display()
                ))
            }
        }
    }

    /// Evaluates `jobs` on the cluster; calls `done` with each outcome as
    /// it arrives. If the driver dies, the points not answered fail.
    pub fn run(
        &mut self,
        jobs: Vec<(usize, Config)>,
        level: Level,
        done: &mut dyn FnMut(usize, Outcome),
    ) {
        let mut waiting: HashSet<usize> = jobs.iter().map(|(id, _)| *id).collect();
        let batch = Batch {
            requests: jobs
                .into_iter()
                .map(|(id, config)| Request { id, level, config })
                .collect(),
        };
        let error = match self.exchange(&batch, &mut waiting, done) {
            Ok(()) => return,
            Err(e) => e,
        };
        // Out of step with the driver: end it, later batches fail at once.
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        for id in waiting {
            done(
                id,
                Outcome::Failed {
                    error: error.clone(),
                },
            );
        }
    }

    fn exchange(
        &mut self,
        batch: &Batch,
        waiting: &mut HashSet<usize>,
        done: &mut dyn FnMut(usize, Outcome),
    ) -> Result<(), String> {
        let line = serde_json::to_string(batch).map_err(|e| e.to_string())?;
        let stdin = self.stdin.as_mut().ok_or("the Dask driver has exited")?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| format!("the Dask driver's input: {e}"))?;
        while !waiting.is_empty() {
            let mut line = String::new();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| format!("the Dask driver's output: {e}"))?;
            if n == 0 {
                self.stdin = None;
                let status = self.child.wait().map(|s| s.to_string()).unwrap_or_default();
                return Err(format!("the Dask driver exited ({status})"));
            }
            let reply: Reply =
                serde_json::from_str(&line).map_err(|e| format!("the Dask driver's reply: {e}"))?;
            if waiting.remove(&reply.id) {
                done(reply.id, reply.outcome);
            }
        }
        Ok(())
    }
}
