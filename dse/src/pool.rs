//! Evaluation on local processes (`--jobs N`): N workers, each the silica
//! binary in worker mode (`silica dse-worker`), speaking JSON lines on
//! their standard input and output: first the kernel ([`Input`]), then
//! one [`Request`] per point, answered by one [`Reply`]. A worker that
//! dies fails its point (retried by the caller) and is started again; a
//! worker that takes longer than the time limit on a point is killed and
//! the point failed for good ([`Answer::retry`] false: it would time out
//! again). [`serve`] is the worker's side.

use crate::eval::{Level, Outcome};
use crate::kernel::Input;
use crate::point::Config;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

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

/// What became of one point on the pool.
pub struct Answer {
    pub id: usize,
    pub outcome: Outcome,
    /// Whether a failure is worth a second try (not after a time-out).
    pub retry: bool,
}

/// One worker process; a thread reads its output lines into `lines`
/// (disconnected when the worker's output ends).
struct Worker {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
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

    /// Evaluates `jobs` on the workers, each point within `limit` when
    /// one is given; calls `done` with each answer as it arrives (on
    /// this thread).
    pub fn run(
        &mut self,
        jobs: Vec<(usize, Config)>,
        level: Level,
        limit: Option<Duration>,
        done: &mut dyn FnMut(Answer),
    ) {
        let queue = Mutex::new(VecDeque::from(jobs));
        let (tx, rx) = mpsc::channel::<Answer>();
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
                    let (outcome, retry) = match ask(slot, exe, kernel, id, level, config, limit) {
                        Ok(o) => (o, true),
                        Err(Failure::Error(error)) => (Outcome::Failed { error }, true),
                        Err(Failure::TimedOut(error)) => (Outcome::Failed { error }, false),
                    };
                    if tx.send(Answer { id, outcome, retry }).is_err() {
                        return;
                    }
                });
            }
            drop(tx);
            for answer in rx {
                done(answer);
            }
        });
    }
}

/// Why a worker gave no outcome.
enum Failure {
    Error(String),
    TimedOut(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Failure {
        Failure::Error(e)
    }
}

/// Sends one request to the worker in `slot` (starting it if needed)
/// and waits for its reply, at most `limit`; a worker that fails or
/// runs out of time is dropped (killed) and its point failed.
fn ask(
    slot: &mut Option<Worker>,
    exe: &PathBuf,
    kernel: &str,
    id: usize,
    level: Level,
    config: Config,
    limit: Option<Duration>,
) -> Result<Outcome, Failure> {
    let result = (|| -> Result<Outcome, Failure> {
        if slot.is_none() {
            *slot = Some(start(exe, kernel)?);
        }
        let w = slot.as_mut().ok_or("no worker".to_string())?;
        let req =
            serde_json::to_string(&Request { id, level, config }).map_err(|e| e.to_string())?;
        writeln!(w.stdin, "{req}").map_err(|e| format!("worker input: {e}"))?;
        w.stdin.flush().map_err(|e| format!("worker input: {e}"))?;
        let line = match limit {
            Some(t) => w.lines.recv_timeout(t).map_err(|e| match e {
                mpsc::RecvTimeoutError::Timeout => Failure::TimedOut(format!(
                    "timed out: no result within the time limit of {} s a point (--point-timeout)",
                    t.as_secs_f64()
                )),
                mpsc::RecvTimeoutError::Disconnected => Failure::Error(exited(&mut w.child)),
            })?,
            None => w.lines.recv().map_err(|_| exited(&mut w.child))?,
        };
        let reply: Reply = serde_json::from_str(&line).map_err(|e| format!("worker reply: {e}"))?;
        if reply.id != id {
            return Err(format!("the worker answered point {} for {id}", reply.id).into());
        }
        Ok(reply.outcome)
    })();
    if result.is_err() {
        *slot = None;
    }
    result
}

/// The message for a worker whose output ended.
fn exited(child: &mut Child) -> String {
    let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
    format!("the worker exited ({status})")
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
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    writeln!(stdin, "{kernel}").map_err(|e| format!("worker input: {e}"))?;
    Ok(Worker {
        child,
        stdin,
        lines,
    })
}
