//! Every design the flow emits parses with the `sv-parser` crate (IEEE
//! 1800-2017), a third reader beside Verilator and yosys: the cores of
//! the kernels of the HLS lit tests (integers, calls, ROMs,
//! partitioned arrays, DMA, wide integers), and for some of them their
//! scan wrappers and board shells.

mod common;

use common::context;
use silica_hls::model::target::device::DEFAULT_TARGET;
use silica_hls::{flow::front, fpga::scan, synthesize, wrappers::shell, Options, Target};
use silica_ir::parser::{parse, ParseOptions};
use std::collections::HashMap;

/// Parses `sv` with sv-parser, or fails naming `what`.
fn parses(what: &str, sv: &str) {
    let defines = HashMap::new();
    let includes: [&str; 0] = [];
    if let Err(e) = sv_parser::parse_sv_str(sv, what, &defines, &includes, false, false) {
        panic!("{what}: sv-parser does not parse it: {e:?}\n{sv}");
    }
}

#[test]
fn every_emitted_design_parses() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/hls");
    let files = [
        "kernels.mlir",
        "calls.mlir",
        "wide.mlir",
        "dma.mlir",
        "partition.mlir",
        "constructs.mlir",
    ];
    let mut designs = 0;
    for file in files {
        let path = format!("{dir}/{file}");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut ctx = context();
        let m = parse(&mut ctx, file, text.as_bytes(), ParseOptions::default()).unwrap();
        let mut funcs = Vec::new();
        m.ir.walk(m.top, &mut |op| {
            if ctx.str(m.ir.op_name(op)) == "func.func" {
                funcs.push(front::function_name(&ctx, &m.ir, op));
            }
        });
        for top in funcs {
            let options = Options::new(&top, Target::named(DEFAULT_TARGET).unwrap());
            // Callees that the flow refuses as tops are covered by their callers.
            let Ok(design) = synthesize(&mut ctx, &m.ir, m.top, &options) else {
                continue;
            };
            parses(&format!("{file}: {top}.sv"), &design.verilog);
            designs += 1;
            if designs % 8 == 1 {
                let (sv, _) =
                    scan::wrap(&mut ctx, &design.hw_mlir, &design.estimated.interface).unwrap();
                parses(&format!("{file}: {top}.scan.sv"), &sv);
                let sv =
                    shell::wrap(&mut ctx, &design.hw_mlir, &design.estimated.interface, 8).unwrap();
                parses(&format!("{file}: {top}.shell.sv"), &sv);
            }
        }
    }
    assert!(designs >= 15, "only {designs} designs were synthesised");
}
