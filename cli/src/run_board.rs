//! `silica run-board DIR --port /dev/ttyUSB0`: runs the kernel of a
//! `silica hls --shell uart` output directory on the board through the
//! shell's serial protocol: loads the inputs (`--inputs`, by default
//! `DIR/F.inputs.txt`), starts the core, waits for it, and writes every
//! memory and result with the cycles the run took (`--outputs`, by
//! default standard output). `--expect FILE` compares them with a
//! reference (`DIR/F.expected.txt` from `--sim`) as the co-simulation
//! does. `--emulate` runs the shell in Verilator behind a
//! pseudo-terminal instead of a board, through the same serial code.

use clap::Args;
use silica_hls::model::interface::Interface;
use silica_hls::verification::cosim::compare;
use silica_hls::verification::cosim::outputs::Outputs;
use silica_hls::verification::emulator;
use silica_hls::wrappers::shell::{host, serial, values, ShellInfo};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `silica run-board`.
#[derive(Args, Debug)]
pub struct RunBoardArgs {
    /// The output directory of `silica hls --shell uart`.
    dir: String,
    /// The board's serial port.
    #[arg(long, required_unless_present = "emulate", conflicts_with = "emulate")]
    port: Option<String>,
    /// Run on the shell simulated in Verilator (behind a
    /// pseudo-terminal) instead of a board.
    #[arg(long)]
    emulate: bool,
    /// The inputs (`NAME = VALUE ...` per argument; default
    /// `DIR/F.inputs.txt`).
    #[arg(long)]
    inputs: Option<String>,
    /// Where to write the outputs (default: standard output).
    #[arg(long)]
    outputs: Option<String>,
    /// Compare the outputs with this file (as `--sim` compares: bit for
    /// bit, NaNs equal); a difference is an error.
    #[arg(long)]
    expect: Option<String>,
    /// Seconds the core may run.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
}

/// Runs `silica run-board`.
pub fn run(args: &RunBoardArgs) -> ExitCode {
    match run_board(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The shell description in `dir` (its one `*.shell.json`).
fn shell_info(dir: &Path) -> Result<ShellInfo, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".shell.json"))
        .collect();
    found.sort();
    match found.as_slice() {
        [one] => serde_json::from_str(&read(one)?)
            .map_err(|e| format!("{}: not a shell description: {e}", one.display())),
        [] => Err(format!(
            "{} has no board shell (make one with silica hls --shell uart)",
            dir.display()
        )),
        _ => Err(format!("{} has more than one board shell", dir.display())),
    }
}

fn run_board(args: &RunBoardArgs) -> Result<(), String> {
    let dir = Path::new(&args.dir);
    let info = shell_info(dir)?;
    let iface = Interface::from_json(&read(&dir.join(format!("{}.json", info.top)))?)?;
    let inputs_path = args.inputs.as_ref().map_or_else(
        || dir.join(format!("{}.inputs.txt", info.top)),
        PathBuf::from,
    );
    let inputs = values::parse_inputs(&read(&inputs_path)?, &iface)
        .map_err(|e| format!("{}: {e}", inputs_path.display()))?;
    let limit = Duration::from_secs_f64(args.timeout.max(0.0));
    let board = match &args.port {
        Some(port) => {
            let file = serial::open(Path::new(port), info.baud)?;
            let reader = file.try_clone().map_err(|e| e.to_string())?;
            let mut link = host::Link::new(reader, file, info.baud);
            host::run(&mut link, &iface, &inputs.args, limit).map_err(|e| e.to_string())?
        }
        None => emulated(dir, &info, &iface, &inputs.args, limit)?,
    };
    let text = values::outputs_text(&iface, &board.memories, &board.results, board.cycles);
    match &args.outputs {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| format!("cannot write {path}: {e}"))?;
        }
        None => print!("{text}"),
    }
    if let Some(expect) = &args.expect {
        let (memories, results) = values::parse_outputs(&read(Path::new(expect))?, &iface)
            .map_err(|e| format!("{expect}: {e}"))?;
        let expected = Outputs { memories, results };
        let got = Outputs {
            memories: board.memories,
            results: board.results,
        };
        let c = compare::compare(&iface, &expected, &got, 0);
        if let Some(m) = c.first {
            return Err(format!(
                "{} of {} values differ from {expect}; first {m}",
                c.differing, c.compared
            ));
        }
        eprintln!(
            "run-board: {} values match {expect}, {} cycles",
            c.compared, board.cycles
        );
    }
    Ok(())
}

/// The run on the shell's emulator: built from `DIR/F.shell.sv`, on the
/// master side of a pseudo-terminal whose slave side the client opens
/// as a serial port.
fn emulated(
    dir: &Path,
    info: &ShellInfo,
    iface: &Interface,
    inputs: &[Option<Vec<num_bigint::BigUint>>],
    limit: Duration,
) -> Result<host::BoardRun, String> {
    let sv = read(&dir.join(format!("{}.shell.sv", info.top)))?;
    let work = std::env::temp_dir().join(format!("silica-emulator-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let result = (|| {
        let binary = emulator::build(&sv, &info.module, info.divider, &work)?;
        let running = emulator::Running::start(&binary, info.baud)?;
        let file = serial::open(&running.port, info.baud)?;
        let reader = file.try_clone().map_err(|e| e.to_string())?;
        let mut link = host::Link::new(reader, file, info.baud);
        host::run(&mut link, iface, inputs, limit).map_err(|e| e.to_string())
    })();
    let _ = std::fs::remove_dir_all(&work);
    result
}
