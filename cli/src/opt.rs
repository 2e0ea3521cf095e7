//! `silica opt`: parse, verify and print (like mlir-opt without passes).

use crate::driver::{run as drive, IoArgs};
use clap::Args;
use std::process::ExitCode;

/// Arguments of `silica opt`.
#[derive(Args, Debug)]
pub struct OptArgs {
    #[command(flatten)]
    io: IoArgs,
}

/// Runs `silica opt`.
pub fn run(args: &OptArgs) -> ExitCode {
    drive(&args.io, "", &mut |_, _| Ok(()))
}
