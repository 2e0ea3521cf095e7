//! `silica opt`: parse, verify and print, with `--split-input-file`,
//! `--verify-diagnostics` and `--mlir-timing`.

use clap::Args;
use silica_ir::diag::{render, Diagnostic, SourceFile};
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::Context;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `silica opt`.
#[derive(Args, Debug)]
pub struct OptArgs {
    /// Input file (`-` for standard input).
    #[arg(default_value = "-")]
    input: String,
    /// Output file (default: standard output). Not written on failure.
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// Print operations in the generic form.
    #[arg(long = "mlir-print-op-generic")]
    generic: bool,
    /// Print locations (`loc(...)`).
    #[arg(long = "mlir-print-debuginfo")]
    debug_info: bool,
    /// Accept operations of dialects silica does not know.
    #[arg(long = "allow-unregistered-dialect")]
    allow_unregistered: bool,
    /// Process each chunk separated by `// -----` (or the given marker) on its own.
    #[arg(long = "split-input-file", num_args = 0..=1, default_missing_value = "// -----", require_equals = true)]
    split: Option<String>,
    /// Check diagnostics against `expected-*` comments in the input.
    #[arg(long = "verify-diagnostics")]
    verify_diagnostics: bool,
    /// Print a timing report to standard error.
    #[arg(long = "mlir-timing")]
    timing: bool,
}

#[derive(Default)]
struct Timing {
    parse: Duration,
    verify: Duration,
    print: Duration,
}

/// A chunk of the input: its bytes and the line it starts on.
struct Chunk<'a> {
    text: &'a [u8],
    first_line: u32,
}

fn split_chunks<'a>(src: &'a [u8], marker: Option<&str>) -> Vec<Chunk<'a>> {
    let Some(marker) = marker else {
        return vec![Chunk {
            text: src,
            first_line: 1,
        }];
    };
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
    let mut line_no = 1u32;
    let mut pos = 0usize;
    while pos <= src.len() {
        let end = src[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(src.len(), |e| pos + e);
        let line = &src[pos..end];
        let trimmed = String::from_utf8_lossy(line);
        if trimmed.trim_end() == marker || trimmed.trim() == marker {
            chunks.push(Chunk {
                text: &src[start..pos],
                first_line: start_line,
            });
            start = (end + 1).min(src.len());
            start_line = line_no + 1;
        }
        if end >= src.len() {
            break;
        }
        pos = end + 1;
        line_no += 1;
    }
    chunks.push(Chunk {
        text: &src[start..],
        first_line: start_line,
    });
    chunks
}

/// Parses and verifies one chunk; returns the printed text or diagnostics.
fn process(
    ctx: &mut Context,
    name: &str,
    chunk: &Chunk<'_>,
    flags: PrintFlags,
    verify_opts: silica_ir::verify::VerifyOptions,
    t: &mut Timing,
) -> Result<String, Box<Diagnostic>> {
    let start = Instant::now();
    let module = parse(
        ctx,
        name,
        chunk.text,
        ParseOptions {
            first_line: chunk.first_line,
        },
    )?;
    t.parse += start.elapsed();
    let start = Instant::now();
    silica_ir::verify::verify(ctx, &module.ir, module.top, verify_opts)?;
    t.verify += start.elapsed();
    let start = Instant::now();
    let text = print_module(ctx, &module.ir, module.top, &module.resources, flags);
    t.print += start.elapsed();
    Ok(text)
}

fn read_input(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v)?;
        Ok(v)
    } else {
        std::fs::read(path)
    }
}

fn report_timing(t: &Timing, total: Duration) {
    let secs = |d: Duration| d.as_secs_f64();
    let total_s = secs(total).max(1e-9);
    let rest = total.saturating_sub(t.parse + t.verify + t.print);
    let mut s = String::new();
    s.push_str("===-------------------------------------------------------------------------===\n");
    s.push_str("                         ... Execution time report ...\n");
    s.push_str("===-------------------------------------------------------------------------===\n");
    s.push_str(&format!(
        "  Total Execution Time: {:.4} seconds\n\n",
        total_s
    ));
    s.push_str("  ----Wall Time----  ----Name----\n");
    for (name, d) in [
        ("Parser", t.parse),
        ("Verifier", t.verify),
        ("Output", t.print),
        ("Rest", rest),
    ] {
        s.push_str(&format!(
            "    {:.4} ({:5.1}%)  {}\n",
            secs(d),
            100.0 * secs(d) / total_s,
            name
        ));
    }
    s.push_str(&format!("    {:.4} (100.0%)  Total\n", total_s));
    eprint!("{s}");
}

/// Runs `silica opt`.
pub fn run(args: &OptArgs) -> ExitCode {
    let total = Instant::now();
    let src = match read_input(&args.input) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: could not open input file '{}': {e}", args.input);
            return ExitCode::FAILURE;
        }
    };
    let name = if args.input == "-" {
        "<stdin>"
    } else {
        args.input.as_str()
    };
    let flags = PrintFlags {
        generic: args.generic,
        debug_info: args.debug_info,
    };
    let chunks = split_chunks(&src, args.split.as_deref());
    let mut outputs = Vec::new();
    let mut failed = false;
    let mut timing = Timing::default();
    let mut errors = String::new();
    for chunk in &chunks {
        let mut ctx = Context::new();
        ctx.allow_unregistered = args.allow_unregistered;
        let verify_opts = silica_ir::verify::VerifyOptions {
            print_op: !args.verify_diagnostics,
            debug_info: args.debug_info,
        };
        let result = process(&mut ctx, name, chunk, flags, verify_opts, &mut timing);
        let sources = [SourceFile { name, text: &src }];
        if args.verify_diagnostics {
            let produced: Vec<Diagnostic> = match &result {
                Ok(_) => Vec::new(),
                Err(d) => vec![(**d).clone()],
            };
            let outcome = silica_ir::verify_diagnostics::check(
                &ctx,
                name,
                chunk.text,
                &src,
                chunk.first_line,
                &produced,
            );
            if !outcome.ok() {
                failed = true;
                errors.push_str(&outcome.failures);
            }
            outputs.push(result.unwrap_or_default());
        } else {
            match result {
                Ok(text) => outputs.push(text),
                Err(d) => {
                    failed = true;
                    errors.push_str(&render(&ctx, &sources, &d));
                    outputs.push(String::new());
                }
            }
        }
    }
    if !errors.is_empty() {
        eprint!("{errors}");
    }
    if args.timing {
        report_timing(&timing, total.elapsed());
    }
    let text = outputs.join("// -----\n");
    if failed {
        // Like mlir-opt, show what the chunks that worked produced; never
        // leave a partial output file behind.
        if args.output == "-" && !args.verify_diagnostics {
            print!("{text}");
        }
        return ExitCode::FAILURE;
    }
    let written = if args.output == "-" {
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        lock.write_all(text.as_bytes()).and_then(|_| lock.flush())
    } else {
        std::fs::write(&args.output, text.as_bytes())
    };
    if let Err(e) = written {
        eprintln!("error: could not write output '{}': {e}", args.output);
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
