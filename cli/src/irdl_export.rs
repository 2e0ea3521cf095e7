//! `silica irdl-export DIALECT [--as NAME] [-o OUT]`: the IRDL definition
//! of a native dialect, checked before it is written: it parses, verifies
//! and loads as a dynamic dialect in a fresh context.

use crate::driver::new_context;
use clap::Args;
use silica_ir::diag::{render, Diagnostic, SourceFile};
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::printer::{print_module, PrintFlags};
use std::process::ExitCode;

/// Arguments of `silica irdl-export`.
#[derive(Args, Debug)]
pub struct IrdlExportArgs {
    /// The dialect to describe (`comb`, `arith`, ...).
    dialect: String,
    /// The name of the dialect in the IRDL file (default: its own; give
    /// another to load it beside the native one, as mlir-opt needs for
    /// dialects it has itself).
    #[arg(long = "as", value_name = "NAME")]
    name: Option<String>,
    /// Output file (default: standard output). Not written on failure.
    #[arg(short = 'o', default_value = "-")]
    output: String,
}

/// The text as silica prints it, once it parses, verifies and loads (in
/// a context without the native dialect `name`, which it may redefine).
fn checked(text: &str, name: &str) -> Result<String, String> {
    let mut ctx = silica_ir::Context::new();
    for d in silica_cli::dialects()
        .into_iter()
        .filter(|d| d.name != name)
    {
        ctx.register_dialect(d);
    }
    let fail = |ctx: &silica_ir::Context, d: Box<Diagnostic>| {
        let sources = [SourceFile {
            name: "<irdl-export>",
            text: text.as_bytes(),
        }];
        format!(
            "internal error: the exported IRDL does not load:\n{}",
            render(ctx, &sources, &d)
        )
    };
    let module = parse(
        &mut ctx,
        "<irdl-export>",
        text.as_bytes(),
        ParseOptions::default(),
    )
    .map_err(|d| fail(&ctx, d))?;
    let opts = silica_ir::verify::VerifyOptions::default();
    silica_ir::verify::verify(&mut ctx, &module.ir, module.top, opts).map_err(|d| fail(&ctx, d))?;
    silica_ir::irdl::load_dialects(&mut ctx, &module.ir, module.top).map_err(|d| fail(&ctx, d))?;
    let flags = PrintFlags::default();
    Ok(print_module(
        &ctx,
        &module.ir,
        module.top,
        &module.resources,
        flags,
    ))
}

/// Writes `text` to `path` (`-`: standard output) through a temporary
/// file, so that a failed write leaves no partial file.
fn write_output(path: &str, text: &str) -> std::io::Result<()> {
    if path == "-" {
        print!("{text}");
        return Ok(());
    }
    let tmp = format!("{path}.tmp-silica");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Runs `silica irdl-export`.
pub fn run(args: &IrdlExportArgs) -> ExitCode {
    let mut ctx = new_context(false);
    let name = args.name.as_deref().unwrap_or(&args.dialect);
    let text = match silica_ir::irdl::export(&mut ctx, &args.dialect, name) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Comment lines (ops left out) come first; the printer drops them.
    let comments: String = text
        .lines()
        .take_while(|l| l.starts_with("//"))
        .map(|l| format!("{l}\n"))
        .collect();
    let printed = match checked(&text, name) {
        Ok(p) => p,
        Err(e) => {
            eprint!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = write_output(&args.output, &format!("{comments}{printed}")) {
        eprintln!("error: could not write output '{}': {e}", args.output);
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
