//! Fuzzes the bytecode reader with every dialect silica registers: any
//! input gives a module or a diagnostic, never a panic, read at once or
//! lazily; a module that
//! reads and verifies writes back to bytecode that reads to the same IR.
//! Inputs are the bytes after the magic, so that the fuzzer starts past it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::Context;

fn context() -> Context {
    let mut ctx = Context::new();
    ctx.allow_unregistered = true;
    silica_cli::register_dialects(&mut ctx);
    ctx
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = silica_bytecode::encoding::MAGIC.to_vec();
    bytes.extend_from_slice(data);
    // Read lazily, the last pending regions first: never a panic, and
    // the same outcome as reading at once.
    let mut lazy_ctx = context();
    let lazy =
        silica_bytecode::read_lazy(&mut lazy_ctx, "fuzz.mlirbc", &bytes).and_then(|mut m| {
            while let Some(op) = m.pending().last() {
                m.materialize(op)?;
            }
            m.finish()
        });
    let mut ctx = context();
    let read = silica_bytecode::read(&mut ctx, "fuzz.mlirbc", &bytes);
    assert_eq!(lazy.is_ok(), read.is_ok(), "lazy and eager reads disagree");
    let Ok(module) = read else {
        return;
    };
    let opts = silica_ir::verify::VerifyOptions {
        print_op: true,
        debug_info: false,
    };
    if silica_ir::verify::verify(&mut ctx, &module.ir, module.top, opts).is_err() {
        return;
    }
    let flags = PrintFlags {
        generic: true,
        debug_info: true,
        skip_regions: false,
    };
    let text = print_module(&ctx, &module.ir, module.top, &module.resources, flags);
    let written = silica_bytecode::write(
        &mut ctx,
        &module.ir,
        module.top,
        &module.resources,
        &Default::default(),
    )
    .unwrap_or_else(|d| panic!("a verified module does not write: {}\n{text}", d.message));
    let mut again = context();
    let back = silica_bytecode::read(&mut again, "written.mlirbc", &written)
        .unwrap_or_else(|d| panic!("written bytecode does not read: {}\n{text}", d.message));
    let printed = print_module(&again, &back.ir, back.top, &back.resources, flags);
    assert_eq!(printed, text, "written bytecode reads to other IR");
});
