//! A pipelined float operator module through silica's Verilog emitter:
//! lint-clean in `verilator --lint-only -Wall` and synthesised by
//! `yosys synth_ice40`.

mod float_support;

use float_support::*;
use silica_hls::float::{FloatOp, Format, Operator};
use std::process::Command;

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pipelined_f32_multiplier_lints_and_synthesises() {
    let op = Operator::new(FloatOp::Mul, Format::F32);
    let name = op.module_name(2);
    let d = design(op, 2);
    let sv = silica_emit_verilog::emit_verilog(&d.ctx, &d.ir, d.top, Default::default()).unwrap();
    assert!(sv.contains(&format!("module {name}(")), "{sv}");
    assert!(sv.contains("always_ff @(posedge clock)"), "{sv}");
    let dir = std::env::temp_dir().join(format!("silica-float-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.sv"));
    std::fs::write(&file, &sv).unwrap();
    run(Command::new("verilator")
        .args(["--lint-only", "-Wall", "--top-module", &name])
        .arg(&file));
    let script = format!(
        "read_verilog -sv {}; synth_ice40 -top {name}",
        file.display()
    );
    run(Command::new("yosys").args(["-q", "-p", &script]));
    std::fs::remove_dir_all(&dir).unwrap();
}
