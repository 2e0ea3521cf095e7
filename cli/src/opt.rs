//! `silica opt`: parse, verify, run a pass pipeline, print (mlir-opt's
//! flags: `-p`/`--pass-pipeline`, one flag per pass, IR printing around
//! passes, `--verify-each`).

use crate::driver::{run_with_rows, IoArgs};
use clap::{Arg, ArgAction, ArgMatches, Args, Command};
use silica_ir::pass::options::split_options;
use silica_ir::pass::{parse_pipeline, Instrumentation, OpPassManager, PassRegistry};
use std::cell::RefCell;
use std::process::ExitCode;

/// Arguments of `silica opt` (pass flags are added by [`add_pass_flags`]).
#[derive(Args, Debug)]
pub struct OptArgs {
    #[command(flatten)]
    io: IoArgs,
    /// A pass pipeline in MLIR's textual syntax, e.g.
    /// `builtin.module(func.func(canonicalize,cse))`.
    #[arg(short = 'p', long = "pass-pipeline")]
    pipeline: Option<String>,
    /// Print the IR before the named passes (comma-separated).
    #[arg(
        long = "mlir-print-ir-before",
        value_delimiter = ',',
        require_equals = true
    )]
    print_before: Vec<String>,
    /// Print the IR after the named passes (comma-separated).
    #[arg(
        long = "mlir-print-ir-after",
        value_delimiter = ',',
        require_equals = true
    )]
    print_after: Vec<String>,
    /// Print the IR before every pass.
    #[arg(long = "mlir-print-ir-before-all")]
    print_before_all: bool,
    /// Print the IR after every pass.
    #[arg(long = "mlir-print-ir-after-all")]
    print_after_all: bool,
    /// With the after-printing flags: print only when the pass changed the IR.
    #[arg(long = "mlir-print-ir-after-change")]
    print_after_change: bool,
    /// Print the IR after a pass that failed.
    #[arg(long = "mlir-print-ir-after-failure")]
    print_after_failure: bool,
    /// Print the whole module, not only the op a pass ran on.
    #[arg(long = "mlir-print-ir-module-scope")]
    print_module_scope: bool,
    /// Verify the IR after each pass (default true).
    #[arg(long = "verify-each", num_args = 0..=1, require_equals = true,
          default_value_t = true, default_missing_value = "true", action = ArgAction::Set)]
    verify_each: bool,
    /// Print the pass pipeline to stderr before running it.
    #[arg(long = "dump-pass-pipeline")]
    dump_pass_pipeline: bool,
    /// Check that the input prints and reads back to the same IR, in the
    /// generic and the custom form, before the passes run.
    #[arg(long = "verify-roundtrip")]
    verify_roundtrip: bool,
    /// Run nested pipelines on one thread (by default, pipelines on
    /// functions and other isolated ops run across threads).
    #[arg(long = "mlir-disable-threading")]
    disable_threading: bool,
}

/// Adds one flag per registered pass (`--canonicalize`,
/// `--canonicalize="max-iterations=3 top-down=false"`) to `cmd`.
pub fn add_pass_flags(cmd: Command, registry: &PassRegistry) -> Command {
    registry.all().iter().fold(cmd, |cmd, info| {
        let mut help = info.description.to_string();
        if !info.options.is_empty() {
            let opts: Vec<String> = info
                .options
                .iter()
                .map(|o| format!("{}: {}", o.name, o.description))
                .collect();
            help.push_str(&format!(" [options: {}]", opts.join("; ")));
        }
        cmd.arg(
            Arg::new(info.argument)
                .long(info.argument)
                .num_args(0..=1)
                .require_equals(true)
                .default_missing_value("")
                .action(ArgAction::Append)
                .value_name("OPTIONS")
                .help_heading("Passes")
                .help(help),
        )
    })
}

/// The pass flags given, in command-line order, with their option text.
pub fn pass_flags_in_order(m: &ArgMatches, registry: &PassRegistry) -> Vec<(&'static str, String)> {
    let mut found: Vec<(usize, &'static str, String)> = Vec::new();
    for info in registry.all() {
        let (Some(indices), Some(values)) = (
            m.indices_of(info.argument),
            m.get_many::<String>(info.argument),
        ) else {
            continue;
        };
        for (i, v) in indices.zip(values) {
            found.push((i, info.argument, v.clone()));
        }
    }
    found.sort_by_key(|f| f.0);
    found.into_iter().map(|(_, a, v)| (a, v)).collect()
}

fn build_pipeline(
    args: &OptArgs,
    flags: &[(&'static str, String)],
    registry: &PassRegistry,
) -> Result<OpPassManager, String> {
    if let Some(text) = &args.pipeline {
        if !flags.is_empty() {
            return Err("'--pass-pipeline' cannot be combined with individual pass flags".into());
        }
        return parse_pipeline(text, registry).map_err(|e| {
            let names: Vec<&str> = registry.all().iter().map(|p| p.argument).collect();
            format!(
                "{}\nnote: registered passes: {}",
                e.render(text),
                names.join(", ")
            )
        });
    }
    let mut pm = OpPassManager::new("builtin.module");
    for (name, text) in flags {
        let info = registry.get(name).expect("flag of a registered pass");
        let options = split_options(text)?;
        pm.add_pass(info, options)?;
    }
    Ok(pm)
}

/// Runs `silica opt` with the pass flags found on its command line.
pub fn run(args: &OptArgs, flags: &[(&'static str, String)]) -> ExitCode {
    let registry = silica_cli::pass_registry();
    let pm = match build_pipeline(args, flags, &registry) {
        Ok(pm) => pm,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.dump_pass_pipeline {
        eprint!("{}", pm.dump_pipeline());
    }
    let instr = Instrumentation {
        print_before: args.print_before.clone(),
        print_after: args.print_after.clone(),
        print_before_all: args.print_before_all,
        print_after_all: args.print_after_all,
        print_after_change: args.print_after_change,
        print_after_failure: args.print_after_failure,
        print_module_scope: args.print_module_scope,
        print_flags: args.io.print_flags(),
        verify_each: args.verify_each,
        timing: true,
        threading: !args.disable_threading,
    };
    let pm = RefCell::new(pm);
    let rows = || pm.borrow().timing_rows();
    run_with_rows(
        &args.io,
        "",
        &mut |ctx, m| {
            if args.verify_roundtrip {
                crate::roundtrip::verify_roundtrip(ctx, m, args.io.allow_unregistered())?;
            }
            let mut pm = pm.borrow_mut();
            if pm.is_empty() {
                return Ok(());
            }
            pm.run(ctx, &mut m.ir, m.top, &instr)
        },
        Some(&rows),
        None,
    )
}
