//! Progress of the long stages of a command (`silica hls --bitstream`
//! and `--sim`: yosys, nextpnr, each closure try, the software run, the
//! Verilator build) on standard error, as each starts: on a terminal
//! with the seconds since the command began (`[  12.3 s] nextpnr: ...`),
//! as plain lines otherwise (`progress: nextpnr: ...`).

use std::io::IsTerminal;
use std::sync::OnceLock;
use std::time::Instant;

/// When the command began: the first call's time.
static BEGAN: OnceLock<Instant> = OnceLock::new();

/// Marks the command's beginning (later stages count from it).
pub fn begin() {
    BEGAN.get_or_init(Instant::now);
}

/// Says that `stage` starts.
pub fn stage(stage: &str) {
    let began = *BEGAN.get_or_init(Instant::now);
    if std::io::stderr().is_terminal() {
        eprintln!("[{:7.1} s] {stage}", began.elapsed().as_secs_f64());
    } else {
        eprintln!("progress: {stage}");
    }
}
