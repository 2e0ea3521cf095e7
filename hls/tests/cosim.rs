//! Co-simulation of hand-made designs (hw/comb/seq fixtures emitted by
//! silica's Verilog emitter) against their kernels: matching designs
//! pass with their known latency, wrong ones are reported at the first
//! differing word, broken contracts as hardware errors.

mod common;

use common::context;
use silica_hls::model::interface;
use silica_hls::verification::cosim::{
    cosimulate, cosimulate_in_silica, cosimulate_seeds, CosimError, CosimReport, Options, Rtl,
};
use silica_ir::parser::{parse, ParseOptions};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Co-simulates the kernel `top` of `kernel` against the design `hw`.
fn cosim(
    kernel: &str,
    hw: &str,
    top: &str,
    seed: u64,
    options: &Options,
) -> Result<CosimReport, CosimError> {
    cosim_ports(kernel, hw, top, seed, options, &[])
}

/// [`cosim`] with the memories named in `dual_port` given two ports.
fn cosim_ports(
    kernel: &str,
    hw: &str,
    top: &str,
    seed: u64,
    options: &Options,
    dual_port: &[&str],
) -> Result<CosimReport, CosimError> {
    let mut ctx = context();
    let k = parse(
        &mut ctx,
        "kernel.mlir",
        kernel.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap();
    let func = silica_ir::symbols::lookup(&ctx, &k.ir, k.top, top).unwrap();
    let mut iface = interface::build(&ctx, &k.ir, func, "generic", 10.0).unwrap();
    for name in dual_port {
        iface.memory_mut(name).unwrap().ports = 2;
    }
    let design = parse(
        &mut ctx,
        "design.mlir",
        hw.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap();
    let sv = silica_emit_verilog::emit_verilog(&ctx, &design.ir, design.top, Default::default())
        .unwrap();
    cosimulate(
        &mut ctx,
        &k.ir,
        k.top,
        &iface,
        Rtl::Text(&sv),
        seed,
        options,
    )
}

#[test]
fn wide_scalar_core_matches_its_kernel() {
    let report = cosim(
        &fixture("add_wide.mlir"),
        &fixture("add_wide.hw.mlir"),
        "add_wide",
        1,
        &Options::default(),
    )
    .unwrap();
    assert!(report.passed(), "{report:?}");
    assert_eq!((report.latency, report.compared), (1, 1));
    assert_eq!(
        report.to_string(),
        "co-simulation (seed 1): 1 value matches, latency 1 cycle"
    );
}

#[test]
fn memory_core_matches_its_kernel() {
    let report = cosim(
        &fixture("vadd.mlir"),
        &fixture("vadd.hw.mlir"),
        "vadd",
        42,
        &Options {
            keep_dir: Some("/tmp/cs/keep".into()),
            ..Options::default()
        },
    )
    .unwrap();
    assert!(report.passed(), "{report:?}");
    // A, B and C: 8 words each.
    assert_eq!((report.latency, report.compared), (17, 24));
    assert_eq!(
        report.to_string(),
        "co-simulation (seed 42): 24 values match, latency 17 cycles"
    );
}

#[test]
fn wrong_word_is_reported_first() {
    // The same core, but the word at address 5 gets A + B + 1.
    let wrong = fixture("vadd.hw.mlir").replace(
        "%sum = comb.add %A_q0, %B_q0 : i33",
        "%five = hw.constant 5 : i3\n  %is_five = comb.icmp eq %i, %five : i3\n  \
         %bump = comb.concat %zero32, %is_five : i32, i1\n  %zero32 = hw.constant 0 : i32\n  \
         %sum = comb.add %A_q0, %B_q0, %bump : i33",
    );
    let report = cosim(
        &fixture("vadd.mlir"),
        &wrong,
        "vadd",
        42,
        &Options::default(),
    )
    .unwrap();
    assert!(!report.passed());
    assert_eq!(report.differing, 1);
    let m = report.first_mismatch.clone().unwrap();
    assert_eq!(m.location, "C[1][1] (word 5)");
    assert_eq!(
        m.hardware,
        (m.software.clone() + 1u8) % (num_bigint::BigUint::from(1u8) << 33)
    );
    assert!(
        m.to_string().starts_with("C[1][1] (word 5): software 0x"),
        "{m}"
    );
    // Who wrote it: the cycle after start the testbench saw, and the
    // kernel's one store to C.
    let written = m.written.clone().expect("the writer of a memory word");
    assert!(written.cycle.is_some_and(|c| c < report.latency), "{m}");
    assert_eq!(written.stores.len(), 1, "{m}");
    assert!(written.stores[0].ends_with(":10:7"), "{m}");
    assert!(
        m.to_string()
            .contains("; the hardware last wrote it in cycle "),
        "{m}"
    );
    assert!(report.to_string().starts_with(
        "co-simulation (seed 42): 1 of 24 values differ; first C[1][1] (word 5): software 0x"
    ));
}

#[test]
fn broken_contracts_are_hardware_errors() {
    // `done` never rises: a timeout.
    let stuck = fixture("add_wide.hw.mlir")
        .replace("hw.output %busy, %not_busy", "hw.output %false, %not_busy");
    let vcd = std::env::temp_dir().join(format!("silica-cosim-test-{}.vcd", std::process::id()));
    let traced = Options {
        max_cycles: 50,
        vcd: Some(vcd.clone()),
        ..Options::default()
    };
    let err = cosim(&fixture("add_wide.mlir"), &stuck, "add_wide", 1, &traced).unwrap_err();
    assert_eq!(
        err,
        CosimError::Hardware("timeout: done is not high within 50 cycles after start".into())
    );
    // The waveform of the failed run is kept: reset, start and the 50
    // cycles after, a dump every half cycle.
    let trace = std::fs::read_to_string(&vcd).unwrap();
    std::fs::remove_file(&vcd).unwrap();
    assert!(trace.contains(" done $end") && trace.contains("$enddefinitions"));
    assert!(trace.contains("\n#500\n"), "{trace}");
    let options = Options {
        max_cycles: 50,
        ..Options::default()
    };
    // `done` held high.
    let held = fixture("add_wide.hw.mlir").replace(
        "%busy = seq.compreg %go, %clock reset %reset, %false : i1",
        "%busy = seq.compreg %busy_next, %clock reset %reset, %false : i1\n  \
         %busy_next = comb.or %go, %busy : i1",
    );
    let err = cosim(&fixture("add_wide.mlir"), &held, "add_wide", 1, &options).unwrap_err();
    assert_eq!(
        err,
        CosimError::Hardware("done is high for more than one cycle".into())
    );
    // The result counts on after done.
    let drifting = fixture("add_wide.hw.mlir").replace(
        "%result_next = comb.mux %go, %sum, %result : i70",
        "%result_next = comb.mux %go, %sum, %plus_one : i70\n  \
         %plus_one = comb.add %result, %one : i70\n  %one = hw.constant 1 : i70",
    );
    let err = cosim(
        &fixture("add_wide.mlir"),
        &drifting,
        "add_wide",
        1,
        &options,
    )
    .unwrap_err();
    assert_eq!(
        err,
        CosimError::Hardware(
            "result0 changes after done (it must hold until the next start)".into()
        )
    );
}

#[test]
fn float_core_with_a_latched_index_and_two_ports_matches() {
    let options = Options {
        scalars: vec![("n".into(), 3u8.into())],
        ..Options::default()
    };
    let (kernel, hw) = (fixture("vneg.mlir"), fixture("vneg.hw.mlir"));
    for seed in [1, 2] {
        let report = cosim_ports(&kernel, &hw, "vneg", seed, &options, &["C"]).unwrap();
        assert!(report.passed(), "{report:?}");
        // A and C: 5 words each, and the result.
        assert_eq!((report.latency, report.compared), (8, 11));
    }
    // Without its latch the core sees n's complement after start and
    // runs past the end of A.
    let unlatched = hw.replace(
        "%n_next = comb.mux %go, %n, %n_r : i64",
        "%n_next = comb.or %n, %n : i64",
    );
    let err = cosim_ports(&kernel, &unlatched, "vneg", 1, &options, &["C"]).unwrap_err();
    let CosimError::Hardware(message) = err else {
        panic!("{err:?}")
    };
    assert!(
        message.contains("A_address0 = 5 is past the last word (5 words)"),
        "{message}"
    );
}

#[test]
fn ports_not_as_the_contract_says_are_reported_by_the_simulator() {
    let mut ctx = context();
    let kernel = fixture("add_wide.mlir");
    let k = parse(
        &mut ctx,
        "kernel.mlir",
        kernel.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap();
    let func = silica_ir::symbols::lookup(&ctx, &k.ir, k.top, "add_wide").unwrap();
    let iface = interface::build(&ctx, &k.ir, func, "generic", 10.0).unwrap();
    let header = "hw.module @add_wide(in %clock: !seq.clock, in %reset: i1, in %start: i1, out done: i1, out idle: i1,";
    for (ports, body, message) in [
        (
            "in %a: i70, out result0: i70",
            "hw.output %f, %f, %a : i1, i1, i70",
            "the module has no port 'b'",
        ),
        (
            "in %a: i70, in %b: i70, out result0: i71",
            "%r = hw.constant 0 : i71\n  hw.output %f, %f, %r : i1, i1, i71",
            "port 'result0' is an output of 71 bits; the interface wants an output of 70",
        ),
        (
            "in %b: i70, in %a: i70, out result0: i70",
            "hw.output %f, %f, %a : i1, i1, i70",
            "port 5 of the module is 'b'; the contract puts 'a' there",
        ),
        (
            "in %a: i70, in %b: i70, in %x: i1, out result0: i70",
            "hw.output %f, %f, %a : i1, i1, i70",
            "the module has a port 'x' that the interface does not describe",
        ),
    ] {
        let hw = format!("{header} {ports}) {{\n  %f = hw.constant false\n  {body}\n}}\n");
        let design = parse(
            &mut ctx,
            "design.mlir",
            hw.as_bytes(),
            ParseOptions::default(),
        )
        .unwrap();
        let core = silica_ir::symbols::lookup(&ctx, &design.ir, design.top, "add_wide").unwrap();
        let err = cosimulate_in_silica(
            &mut ctx,
            &k.ir,
            k.top,
            &iface,
            &design.ir,
            core,
            1,
            &Options::default(),
        )
        .unwrap_err();
        assert_eq!(err, CosimError::Hardware(message.into()));
    }
}

#[test]
fn one_model_serves_many_seeds() {
    let mut ctx = context();
    let kernel = fixture("vadd.mlir");
    let k = parse(
        &mut ctx,
        "kernel.mlir",
        kernel.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap();
    let func = silica_ir::symbols::lookup(&ctx, &k.ir, k.top, "vadd").unwrap();
    let iface = interface::build(&ctx, &k.ir, func, "generic", 10.0).unwrap();
    let hw = fixture("vadd.hw.mlir");
    let design = parse(
        &mut ctx,
        "design.mlir",
        hw.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap();
    let sv = silica_emit_verilog::emit_verilog(&ctx, &design.ir, design.top, Default::default())
        .unwrap();
    let seeds = [3, 4, 5, 6];
    let reports = cosimulate_seeds(
        &mut ctx,
        &k.ir,
        k.top,
        &iface,
        Rtl::Text(&sv),
        &seeds,
        &Options::default(),
    )
    .unwrap();
    let summary: Vec<(u64, bool, u64)> = reports
        .iter()
        .map(|r| (r.seed, r.passed(), r.latency))
        .collect();
    assert_eq!(summary, seeds.map(|s| (s, true, 17)));
    // Each seed is the run `cosimulate` makes with it alone.
    let single = cosimulate(
        &mut ctx,
        &k.ir,
        k.top,
        &iface,
        Rtl::Text(&sv),
        5,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(single, reports[2]);
}
