//! Fuzzes parsing, verification and printing with every dialect silica
//! registers (custom op syntax, declarative formats, dialect attributes):
//! any input gives a module or a diagnostic, never a panic; a module that
//! verifies prints to text that parses and verifies again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::Context;

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    silica_cli::register_dialects(&mut ctx);
    ctx
}

fuzz_target!(|data: &[u8]| {
    let mut ctx = context();
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
            debug_info: false,
            skip_regions: false,
        };
        let text = print_module(&ctx, &module.ir, module.top, &module.resources, flags);
        let mut again = context();
        match parse(&mut again, "printed.mlir", text.as_bytes(), ParseOptions::default()) {
            Ok(m) => {
                if let Err(d) = silica_ir::verify::verify(&mut again, &m.ir, m.top, opts) {
                    panic!("printed module does not verify: {}\n{text}", d.message);
                }
            }
            Err(d) => panic!("printed module does not parse: {}\n{text}", d.message),
        }
    }
});
