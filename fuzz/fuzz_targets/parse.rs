//! Fuzzes the MLIR text parser, verifier and printer: any input must give
//! a module or a diagnostic, never a panic, hang or stack overflow; and a
//! module that parses must print to text that parses again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::Context;

fuzz_target!(|data: &[u8]| {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    let Ok(module) = parse(&mut ctx, "fuzz.mlir", data, ParseOptions::default()) else {
        return;
    };
    let opts = silica_ir::verify::VerifyOptions {
        print_op: true,
        debug_info: false,
    };
    if silica_ir::verify::verify(&mut ctx, &module.ir, module.top, opts).is_err() {
        return;
    }
    for generic in [false, true] {
        let flags = PrintFlags {
            generic,
            debug_info: true,
            skip_regions: false,
        };
        let text = print_module(&ctx, &module.ir, module.top, &module.resources, flags);
        let mut again = Context::new();
        again.allow_unregistered = true;
        if let Err(d) = parse(&mut again, "printed.mlir", text.as_bytes(), ParseOptions::default()) {
            panic!("printed module does not parse: {}\n{text}", d.message);
        }
    }
});
