//! The `silica` binary: one command-line tool with subcommands, flags
//! spelled as mlir-opt spells them.

mod driver;
mod opt;
mod schedule;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "silica",
    version,
    about = "An MLIR-style compiler framework for hardware synthesis"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse, verify and print MLIR (like mlir-opt).
    Opt(opt::OptArgs),
    /// Schedule the problems of a file in CIRCT's ssp syntax and print
    /// them with their schedules (`t<N>`, `z<F>`, `II<N>`).
    Schedule(schedule::ScheduleArgs),
}

/// mlir-opt accepts long options with one dash (`-split-input-file`);
/// clap wants two. Rewrite them before parsing.
fn normalize_args(args: impl Iterator<Item = String>) -> Vec<String> {
    args.enumerate()
        .map(|(i, a)| {
            let single_dash_long = i > 0
                && a.starts_with('-')
                && !a.starts_with("--")
                && a.len() > 2
                && a.as_bytes()[1].is_ascii_alphabetic();
            if single_dash_long {
                format!("-{a}")
            } else {
                a
            }
        })
        .collect()
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(normalize_args(std::env::args()));
    match cli.command {
        Command::Opt(args) => opt::run(&args),
        Command::Schedule(args) => schedule::run(&args),
    }
}
