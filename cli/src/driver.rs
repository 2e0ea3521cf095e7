//! What the subcommands that read and write MLIR share: input and output
//! flags, `--split-input-file`, `--verify-diagnostics`, `--mlir-timing`,
//! MLIR bytecode in (told by its magic) and out (`--emit-bytecode`), and
//! [`run`]: parse and verify each chunk, transform it, print it.

use clap::Args;
use silica_ir::diag::{render, Diagnostic, SourceFile};
use silica_ir::parser::{parse, ParseOptions, ParsedModule};
use silica_ir::printer::{print_module_to, PrintFlags};
use silica_ir::Context;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Input, output and diagnostics flags (mlir-opt's spellings).
#[derive(Args, Debug, Clone)]
pub struct IoArgs {
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
    /// Print regions as `{...}`.
    #[arg(long = "mlir-print-skip-regions")]
    skip_regions: bool,
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
    /// Load the dialects an IRDL file defines before reading the input.
    #[arg(long = "irdl-file", value_name = "F")]
    irdl_file: Option<String>,
    /// A C input (`.c`) is read through clang-22 (`silica import-c`).
    #[command(flatten)]
    c: crate::c_input::CArgs,
    /// Write MLIR bytecode instead of text.
    #[arg(long = "emit-bytecode")]
    emit_bytecode: bool,
    /// The bytecode version to write (0 to 6; with `--emit-bytecode`).
    #[arg(
        long = "emit-bytecode-version",
        value_name = "N",
        require_equals = true,
        allow_hyphen_values = true
    )]
    bytecode_version: Option<i64>,
    /// Leave resource data out of the bytecode written.
    #[arg(long = "elide-resource-data-from-bytecode")]
    elide_resource_data: bool,
}

/// An `--irdl-file`: its name and text, loaded into each chunk's context.
struct IrdlFile {
    name: String,
    text: Vec<u8>,
}

impl IrdlFile {
    /// Parses and verifies the file in `ctx` and registers its dialects.
    fn load(&self, ctx: &mut Context) -> Result<(), Box<Diagnostic>> {
        let module = parse(ctx, &self.name, &self.text, ParseOptions::default())?;
        let opts = silica_ir::verify::VerifyOptions {
            print_op: true,
            debug_info: false,
        };
        silica_ir::verify::verify(ctx, &module.ir, module.top, opts)?;
        silica_ir::irdl::load_dialects(ctx, &module.ir, module.top)?;
        Ok(())
    }

    /// Reads `--irdl-file` and checks it loads; reports why not.
    fn open(args: &IoArgs) -> Result<Option<IrdlFile>, ()> {
        let Some(name) = &args.irdl_file else {
            return Ok(None);
        };
        let text = std::fs::read(name).map_err(|e| {
            eprintln!("error: could not open IRDL file '{name}': {e}");
        })?;
        let file = IrdlFile {
            name: name.clone(),
            text,
        };
        let mut ctx = new_context(false);
        if let Err(d) = file.load(&mut ctx) {
            let sources = [SourceFile {
                name,
                text: &file.text,
            }];
            eprint!("{}", render(&ctx, &sources, &d));
            return Err(());
        }
        Ok(Some(file))
    }
}

impl IoArgs {
    /// The output path (`-` for standard output).
    pub fn output(&self) -> &str {
        &self.output
    }

    /// These arguments writing to standard output instead.
    pub fn to_stdout(&self) -> IoArgs {
        IoArgs {
            output: "-".into(),
            ..self.clone()
        }
    }

    /// Whether unregistered dialects are accepted.
    pub fn allow_unregistered(&self) -> bool {
        self.allow_unregistered
    }

    /// The bytecode to write instead of text, if asked for; an error for
    /// a version without `--emit-bytecode` or out of range.
    pub fn bytecode_options(&self) -> Result<Option<silica_bytecode::WriteOptions>, String> {
        let version = match (self.emit_bytecode, self.bytecode_version) {
            (false, Some(_)) => return Err("bytecode version while not emitting bytecode".into()),
            (false, None) => return Ok(None),
            (true, None) => silica_bytecode::encoding::version::CURRENT,
            (true, Some(v)) => match u64::try_from(v) {
                Ok(v) if v <= silica_bytecode::encoding::version::CURRENT => v,
                _ => {
                    return Err(format!(
                        "unsupported version requested {v}, must be in range [0, {}]",
                        silica_bytecode::encoding::version::CURRENT
                    ))
                }
            },
        };
        Ok(Some(silica_bytecode::WriteOptions {
            version,
            elide_resource_data: self.elide_resource_data,
            ..Default::default()
        }))
    }

    /// The printing flags these arguments ask for.
    pub fn print_flags(&self) -> PrintFlags {
        PrintFlags {
            generic: self.generic,
            debug_info: self.debug_info,
            skip_regions: self.skip_regions,
        }
    }
}

#[derive(Default)]
struct Timing {
    parse: Duration,
    verify: Duration,
    transform: Duration,
    print: Duration,
}

/// What a subcommand does to each parsed and verified chunk.
pub type Transform<'t> =
    dyn FnMut(&mut Context, &mut ParsedModule) -> Result<(), Box<Diagnostic>> + 't;

/// Writes a chunk in another format than MLIR (`silica translate`).
pub type Emit<'e> = dyn FnMut(&Context, &ParsedModule) -> Result<Vec<u8>, Box<Diagnostic>> + 'e;

/// A context with every dialect silica knows registered.
pub fn new_context(allow_unregistered: bool) -> Context {
    let mut ctx = Context::new();
    silica_cli::register_dialects(&mut ctx);
    ctx.allow_unregistered = allow_unregistered;
    ctx
}

/// A chunk of the input: its bytes and the line it starts on.
struct Chunk<'a> {
    text: &'a [u8],
    first_line: u32,
    /// Where the separator opening the chunk ends (`line:col`).
    after_separator: Option<(u32, u32)>,
}

fn split_chunks<'a>(src: &'a [u8], marker: Option<&str>) -> Vec<Chunk<'a>> {
    let Some(marker) = marker else {
        return vec![Chunk {
            text: src,
            first_line: 1,
            after_separator: None,
        }];
    };
    let mut chunks = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u32;
    let mut line_no = 1u32;
    let mut pos = 0usize;
    let mut separator_end = None;
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
                after_separator: separator_end,
            });
            start = (end + 1).min(src.len());
            start_line = line_no + 1;
            let indent = trimmed.len() - trimmed.trim_start().len();
            separator_end = Some((line_no, (indent + marker.len() + 1) as u32));
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
        after_separator: separator_end,
    });
    chunks
}

/// Reads a module from MLIR text or, told by its magic, bytecode.
pub(crate) fn parse_input(
    ctx: &mut Context,
    name: &str,
    bytes: &[u8],
    opts: ParseOptions,
) -> Result<ParsedModule, Box<Diagnostic>> {
    if silica_bytecode::is_bytecode(bytes) {
        silica_bytecode::read(ctx, name, bytes)
    } else {
        parse(ctx, name, bytes, opts)
    }
}

/// The source text diagnostics may quote: none for bytecode.
pub(crate) fn quotable(bytes: &[u8]) -> &[u8] {
    if silica_bytecode::is_bytecode(bytes) {
        &[]
    } else {
        bytes
    }
}

/// Parses and verifies one chunk.
fn parse_and_verify(
    ctx: &mut Context,
    name: &str,
    chunk: &Chunk<'_>,
    verify_opts: silica_ir::verify::VerifyOptions,
    t: &mut Timing,
) -> Result<ParsedModule, Box<Diagnostic>> {
    let start = Instant::now();
    let module = parse_input(
        ctx,
        name,
        chunk.text,
        ParseOptions {
            first_line: chunk.first_line,
            implicit_module_loc: chunk.after_separator,
        },
    )?;
    t.parse += start.elapsed();
    let start = Instant::now();
    silica_ir::verify::verify(ctx, &module.ir, module.top, verify_opts)?;
    t.verify += start.elapsed();
    Ok(module)
}

/// Where the printed chunks go: standard output as they come, a temporary
/// file renamed over the output file once everything succeeded, a device
/// such as `/dev/null` directly, or memory (with `--verify-diagnostics`,
/// where output is shown only on success).
enum Output {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    File {
        temp: std::path::PathBuf,
        file: std::io::BufWriter<std::fs::File>,
    },
    Device(std::io::BufWriter<std::fs::File>),
    Memory(Vec<u8>),
}

impl Output {
    fn open(args: &IoArgs) -> std::io::Result<Output> {
        if args.verify_diagnostics {
            return Ok(Output::Memory(Vec::new()));
        }
        if args.output == "-" {
            return Ok(Output::Stdout(std::io::BufWriter::new(std::io::stdout())));
        }
        let target = std::path::Path::new(&args.output);
        if target.metadata().is_ok_and(|m| !m.is_file()) {
            let file = std::fs::OpenOptions::new().write(true).open(target)?;
            return Ok(Output::Device(std::io::BufWriter::new(file)));
        }
        let file_name = target.file_name().unwrap_or_default().to_string_lossy();
        let temp = target.with_file_name(format!(".{file_name}.silica-{}", std::process::id()));
        let file = std::fs::File::create(&temp)?;
        Ok(Output::File {
            temp,
            file: std::io::BufWriter::new(file),
        })
    }

    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Output::Stdout(w) => w,
            Output::File { file, .. } => file,
            Output::Device(w) => w,
            Output::Memory(v) => v,
        }
    }

    /// Completes the output; on failure no output file is left behind.
    fn finish(self, args: &IoArgs, succeeded: bool) -> std::io::Result<()> {
        match self {
            Output::Stdout(mut w) => w.flush(),
            Output::Device(mut w) => w.flush(),
            Output::File { temp, file } => {
                let flushed = file.into_inner().map_err(|e| e.into_error());
                if !succeeded || flushed.is_err() {
                    let _ = std::fs::remove_file(&temp);
                    return flushed.map(|_| ());
                }
                std::fs::rename(&temp, &args.output).inspect_err(|_| {
                    let _ = std::fs::remove_file(&temp);
                })
            }
            Output::Memory(bytes) if succeeded => {
                if args.output == "-" {
                    let mut out = std::io::stdout().lock();
                    out.write_all(&bytes).and_then(|_| out.flush())
                } else {
                    std::fs::write(&args.output, &bytes)
                }
            }
            Output::Memory(_) => Ok(()),
        }
    }
}

/// The bytes of a file, or of standard input for `-`.
fn read_bytes(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut v = Vec::new();
        std::io::stdin().read_to_end(&mut v)?;
        Ok(v)
    } else {
        std::fs::read(path)
    }
}

/// The MLIR text of a file, or of standard input for `-`, for the
/// commands that read a module as text (`hls`, `dse`, `cosim`, `gpu`): a
/// bytecode file is read and given as its generic form with its
/// locations, so that what those commands report points where the
/// bytecode's ops came from. An unreadable bytecode file is an error
/// holding its diagnostic.
pub(crate) fn read_input(path: &str) -> std::io::Result<Vec<u8>> {
    let bytes = read_bytes(path)?;
    if !silica_bytecode::is_bytecode(&bytes) {
        return Ok(bytes);
    }
    let name = if path == "-" { "<stdin>" } else { path };
    let mut ctx = new_context(true);
    let module = silica_bytecode::read(&mut ctx, name, &bytes)
        .map_err(|d| std::io::Error::other(render(&ctx, &[], &d).trim_end().to_string()))?;
    let flags = PrintFlags {
        generic: true,
        debug_info: true,
        skip_regions: false,
    };
    let mut text = Vec::new();
    print_module_to(
        &ctx,
        &module.ir,
        module.top,
        &module.resources,
        flags,
        &mut text,
    )?;
    Ok(text)
}

/// Rows of the timing report for the transform: nesting depth, name,
/// time. Replaces the single transform row when given.
pub type TimingRows<'t> = dyn Fn() -> Vec<(usize, String, Duration)> + 't;

fn report_timing(
    t: &Timing,
    transform_name: &str,
    rows_fn: Option<&TimingRows<'_>>,
    total: Duration,
) {
    let secs = |d: Duration| d.as_secs_f64();
    let total_s = secs(total).max(1e-9);
    let rest = total.saturating_sub(t.parse + t.verify + t.transform + t.print);
    let mut s = String::new();
    s.push_str("===-------------------------------------------------------------------------===\n");
    s.push_str("                         ... Execution time report ...\n");
    s.push_str("===-------------------------------------------------------------------------===\n");
    s.push_str(&format!(
        "  Total Execution Time: {:.4} seconds\n\n",
        total_s
    ));
    s.push_str("  ----Wall Time----  ----Name----\n");
    let mut rows: Vec<(usize, String, Duration)> = vec![
        (0, "Parser".into(), t.parse),
        (0, "Verifier".into(), t.verify),
    ];
    match rows_fn {
        Some(f) => rows.extend(f()),
        None if !transform_name.is_empty() => rows.push((0, transform_name.into(), t.transform)),
        None => {}
    }
    rows.push((0, "Output".into(), t.print));
    rows.push((0, "Rest".into(), rest));
    for (depth, name, d) in rows {
        s.push_str(&format!(
            "    {:.4} ({:5.1}%)  {}{}\n",
            secs(d),
            100.0 * secs(d) / total_s,
            "  ".repeat(depth),
            name
        ));
    }
    s.push_str(&format!("    {:.4} (100.0%)  Total\n", total_s));
    eprint!("{s}");
}

/// Reads the input, and for each chunk: parses, verifies, applies
/// `transform` (named `transform_name` in timing reports; no row when
/// empty), prints.
pub fn run(args: &IoArgs, transform_name: &str, transform: &mut Transform<'_>) -> ExitCode {
    run_with_rows(args, transform_name, transform, None, None)
}

/// Reads, parses and verifies each chunk and writes what `emit` makes
/// of it instead of MLIR.
pub fn run_emit(args: &IoArgs, emit: &mut Emit<'_>) -> ExitCode {
    run_with_rows(args, "", &mut |_, _| Ok(()), None, Some(emit))
}

/// [`run`], with the transform's own rows in the timing report.
pub fn run_with_rows(
    args: &IoArgs,
    transform_name: &str,
    transform: &mut Transform<'_>,
    rows: Option<&TimingRows<'_>>,
    mut emit: Option<&mut Emit<'_>>,
) -> ExitCode {
    let total = Instant::now();
    let src = match read_bytes(&args.input) {
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
    // C input: its MLIR, located in the C source (which `src` stays, for
    // diagnostics to quote).
    let c_mlir = if silica_c::is_c_input(&args.input) {
        match crate::c_input::mlir_text(&args.input, None, &args.c) {
            Some(m) => Some(m),
            None => return ExitCode::FAILURE,
        }
    } else {
        None
    };
    let Ok(irdl) = IrdlFile::open(args) else {
        return ExitCode::FAILURE;
    };
    let flags = args.print_flags();
    let bytecode = match args.bytecode_options() {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // A bytecode file is one module: it is not split.
    let split = args
        .split
        .as_deref()
        .filter(|_| !silica_bytecode::is_bytecode(&src));
    let chunks = split_chunks(c_mlir.as_deref().unwrap_or(&src), split);
    let mut output = match Output::open(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: could not open output '{}': {e}", args.output);
            return ExitCode::FAILURE;
        }
    };
    let mut failed = false;
    let mut write_error = None;
    let mut timing = Timing::default();
    let mut errors = String::new();
    for (i, chunk) in chunks.iter().enumerate() {
        if i > 0 {
            if let Err(e) = output.writer().write_all(b"// -----\n") {
                write_error.get_or_insert(e);
            }
        }
        let mut ctx = new_context(args.allow_unregistered);
        if let Some(irdl) = &irdl {
            // Loaded once already: it cannot fail now.
            let _ = irdl.load(&mut ctx);
        }
        let verify_opts = silica_ir::verify::VerifyOptions {
            print_op: !args.verify_diagnostics,
            debug_info: args.debug_info,
        };
        let mut result = parse_and_verify(&mut ctx, name, chunk, verify_opts, &mut timing)
            .and_then(|mut m| {
                let start = Instant::now();
                let r = transform(&mut ctx, &mut m);
                timing.transform += start.elapsed();
                r.map(|()| m)
            });
        if let (Ok(module), Some(emit)) = (&result, emit.as_mut()) {
            let start = Instant::now();
            match emit(&ctx, module) {
                Ok(bytes) => {
                    if let Err(e) = output.writer().write_all(&bytes) {
                        write_error.get_or_insert(e);
                    }
                }
                Err(d) => result = Err(d),
            }
            timing.print += start.elapsed();
        } else if let (Ok(module), Some(opts)) = (&result, &bytecode) {
            let start = Instant::now();
            let (ir, top, resources) = (&module.ir, module.top, &module.resources);
            match silica_bytecode::write(&mut ctx, ir, top, resources, opts) {
                Ok(bytes) => {
                    if let Err(e) = output.writer().write_all(&bytes) {
                        write_error.get_or_insert(e);
                    }
                }
                Err(d) => result = Err(d),
            }
            timing.print += start.elapsed();
        } else if let Ok(module) = &result {
            let start = Instant::now();
            let (ir, top, resources) = (&module.ir, module.top, &module.resources);
            if let Err(e) = print_module_to(&ctx, ir, top, resources, flags, output.writer()) {
                write_error.get_or_insert(e);
            }
            timing.print += start.elapsed();
        }
        // Diagnostics passes emitted without failing come first.
        let emitted = ctx.take_emitted();
        if args.verify_diagnostics {
            let mut produced = emitted;
            if let Err(d) = &result {
                produced.push((**d).clone());
            }
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
        } else {
            let sources = [SourceFile {
                name,
                text: quotable(&src),
            }];
            for d in &emitted {
                errors.push_str(&render(&ctx, &sources, d));
            }
            if let Err(d) = &result {
                failed = true;
                errors.push_str(&render(&ctx, &sources, d));
            }
        }
        if i + 1 == chunks.len() {
            // The process ends soon: freeing a large module piece by
            // piece would only cost time.
            std::mem::forget(result);
            std::mem::forget(ctx);
        }
    }
    if !errors.is_empty() {
        eprint!("{errors}");
    }
    if args.timing {
        report_timing(&timing, transform_name, rows, total.elapsed());
    }
    let finished = output.finish(args, !failed && write_error.is_none());
    if let Some(e) = write_error.or(finished.err()) {
        eprintln!("error: could not write output '{}': {e}", args.output);
        return ExitCode::FAILURE;
    }
    if failed {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
