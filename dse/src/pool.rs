//! Evaluation on local processes (`--jobs N`): N workers, each the silica
//! binary in worker mode (`silica dse-worker`), speaking JSON lines on
//! their standard input and output: first the kernel ([`Input`]), then
//! one [`Request`] per point, answered by one [`Reply`]. A worker that
//! dies fails its point (retried by the caller) and is started again.
//! [`serve`] is the worker's side.

use crate::eval::{Level, Outcome};
use crate::kernel::Input;
use crate::point::Config;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{mpsc, Mutex};

/// A point to evaluate.
#[derive(Serialize, Deserialize)]
pub struct Request {
    pub id: usize,
    pub level: Level,
    pub config: Config,
}

/// Its outcome.
#[derive(Serialize, Deserialize)]
pub struct Reply {
    pub id: usize,
    pub outcome: Outcome,
}

/// The worker's side: reads the kernel, then evaluates each request
/// until its input ends.
pub fn serve(
    new_context: fn() -> silica_ir::Context,
    input: impl BufRead,
    mut output: impl Write,
) -> Result<(), String> {
    let mut lines = input.lines();
    let first = lines
        .next()
        .ok_or("no kernel on the worker's input")?
        .map_err(|e| e.to_string())?;
    let kernel: Input = serde_json::from_str(&first).map_err(|e| e.to_string())?;
    let mut ev = crate::evaluator(new_context, kernel)?;
    for line in lines {
        let line = line.map_err(|e| e.to_string())?;
        let req: Request = serde_json::from_str(&line).map_err(|e| e.to_string())?;
        let outcome = ev.evaluate(&req.config, req.level);
        let reply = serde_json::to_string(&Reply {
            id: req.id,
            outcome,
        })
        .map_err(|e| e.to_string())?;
        writeln!(output, "{reply}").map_err(|e| e.to_string())?;
        output.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// One worker process.
struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Local worker processes.
pub struct Pool {
    exe: PathBuf,
    kernel: String,
    workers: Vec<Option<Worker>>,
}

impl Pool {
    /// A pool of `n` workers running `exe dse-worker` (started lazily).
    pub fn new(exe: PathBuf, input: &Input, n: usize) -> Result<Pool, String> {
        Ok(Pool {
            exe,
            kernel: serde_json::to_string(input).map_err(|e| e.to_string())?,
            workers: (0..n.max(1)).map(|_| None).collect(),
        })
    }

    /// Evaluates `jobs` on the workers; calls `done` with each outcome
    /// as it arrives (on this thread).
    pub fn run(
        &mut self,
        jobs: Vec<(usize, Config)>,
        level: Level,
        done: &mut dyn FnMut(usize, Outcome),
    ) {
        let queue = Mutex::new(VecDeque::from(jobs));
        let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
        let exe = &self.exe;
        let kernel = &self.kernel;
        std::thread::scope(|s| {
            for slot in self.workers.iter_mut() {
                let tx = tx.clone();
                let queue = &queue;
                s.spawn(move || loop {
                    let Some((id, config)) = queue.lock().ok().and_then(|mut q| q.pop_front())
                    else {
                        return;
                    };
                    let outcome = ask(slot, exe, kernel, id, level, config);
                    if tx.send((id, outcome)).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            for (id, outcome) in rx {
                done(id, outcome);
            }
        });
    }
}

/// Sends one request to the worker in `slot` (starting it if needed);
/// a worker that fails is dropped and its point failed.
fn ask(
    slot: &mut Option<Worker>,
    exe: &PathBuf,
    kernel: &str,
    id: usize,
    level: Level,
    config: Config,
) -> Outcome {
    let result = (|| -> Result<Outcome, String> {
        if slot.is_none() {
            *slot = Some(start(exe, kernel)?);
        }
        let w = slot.as_mut().ok_or("no worker")?;
        let req =
            serde_json::to_string(&Request { id, level, config }).map_err(|e| e.to_string())?;
        writeln!(w.stdin, "{req}").map_err(|e| format!("worker input: {e}"))?;
        w.stdin.flush().map_err(|e| format!("worker input: {e}"))?;
        let mut line = String::new();
        let n = w
            .stdout
            .read_line(&mut line)
            .map_err(|e| format!("worker output: {e}"))?;
        if n == 0 {
            let status = w.child.wait().map(|s| s.to_string()).unwrap_or_default();
            return Err(format!("the worker exited ({status})"));
        }
        let reply: Reply = serde_json::from_str(&line).map_err(|e| format!("worker reply: {e}"))?;
        if reply.id != id {
            return Err(format!("the worker answered point {} for {id}", reply.id));
        }
        Ok(reply.outcome)
    })();
    result.unwrap_or_else(|error| {
        *slot = None;
        Outcome::Failed { error }
    })
}

fn start(exe: &PathBuf, kernel: &str) -> Result<Worker, String> {
    let mut child = Command::new(exe)
        .arg("dse-worker")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start a worker ({}): {e}", exe.display()))?;
    let mut stdin = child.stdin.take().ok_or("worker without input")?;
    let stdout = BufReader::new(child.stdout.take().ok_or("worker without output")?);
    writeln!(stdin, "{kernel}").map_err(|e| format!("worker input: {e}"))?;
    Ok(Worker {
        child,
        stdin,
        stdout,
    })
}
