//! `--verify-roundtrip`: the parsed input printed in the generic form and
//! in the custom form, each read back into a fresh context and printed
//! again, must give the same text (mlir-opt's check that printers and
//! parsers agree).

use crate::driver::new_context;
use silica_ir::diag::Diagnostic;
use silica_ir::parser::{parse, ParseOptions, ParsedModule};
use silica_ir::printer::{print_module_to, PrintFlags};
use silica_ir::Context;

fn print(ctx: &Context, m: &ParsedModule, generic: bool) -> Vec<u8> {
    let flags = PrintFlags {
        generic,
        debug_info: true,
        skip_regions: false,
    };
    let mut out = Vec::new();
    // Writing to memory cannot fail.
    let _ = print_module_to(ctx, &m.ir, m.top, &m.resources, flags, &mut out);
    out
}

/// Checks that `m` survives a round trip through both printed forms.
pub fn verify_roundtrip(
    ctx: &Context,
    m: &ParsedModule,
    allow_unregistered: bool,
) -> Result<(), Box<Diagnostic>> {
    let loc = m.ir.op_loc(m.top);
    for (generic, form) in [(true, "generic"), (false, "custom")] {
        let text = print(ctx, m, generic);
        let mut fresh = new_context(allow_unregistered);
        let reparsed =
            parse(&mut fresh, "roundtrip", &text, ParseOptions::default()).map_err(|d| {
                let msg = format!(
                    "roundTrip testing failed to parse the {form} form: {}",
                    d.message
                );
                Box::new(Diagnostic::error(loc, msg))
            })?;
        let again = print(&fresh, &reparsed, generic);
        if again != text {
            let kind = if generic { "textual" } else { "custom-form" };
            let msg = format!(
                "'builtin.module' op {kind} roundTrip testing roundtripped module differs from reference:\n<<<<<<Reference\n{}\n=====\n{}\n>>>>>roundtripped\n",
                String::from_utf8_lossy(&text),
                String::from_utf8_lossy(&again)
            );
            return Err(Box::new(Diagnostic::error(loc, msg)));
        }
    }
    Ok(())
}
