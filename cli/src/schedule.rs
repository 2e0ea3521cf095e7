//! `silica schedule`: solve (or verify) the scheduling problems of a file
//! in CIRCT's `ssp` syntax and print them with their schedules.

use crate::driver::{run as drive, IoArgs};
use clap::{Args, ValueEnum};
use silica_scheduling::ssp::{process_instances, Action, InstanceReport};
use silica_scheduling::{Algorithm, Options};
use std::process::ExitCode;

/// The schedulers, by their command-line names.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Scheduler {
    /// As soon as possible.
    Asap,
    /// Resource-constrained list scheduling.
    List,
    /// System of difference constraints (an LP).
    Sdc,
    /// Exact integer linear program.
    Ilp,
    /// Iterative modulo scheduling.
    Modulo,
}

/// Arguments of `silica schedule`.
#[derive(Args, Debug)]
pub struct ScheduleArgs {
    #[command(flatten)]
    io: IoArgs,
    /// The scheduler (by default chosen per problem kind: sdc, or ilp for
    /// shared-operator and modulo problems of up to 100 operations).
    #[arg(long)]
    scheduler: Option<Scheduler>,
    /// Target cycle time for chaining problems.
    #[arg(long = "cycle-time")]
    cycle_time: Option<f64>,
    /// Seconds the ILP may search before keeping its best schedule.
    #[arg(long = "ilp-time-limit", default_value_t = 10.0)]
    ilp_time_limit: f64,
    /// Do not schedule: check each problem and verify the schedule it
    /// carries (like CIRCT's `-ssp-roundtrip=verify`).
    #[arg(long)]
    verify: bool,
    /// Print each instance's bounds, II, latency and optimality to
    /// standard error.
    #[arg(long)]
    report: bool,
}

fn algorithm(s: Scheduler) -> Algorithm {
    match s {
        Scheduler::Asap => Algorithm::Asap,
        Scheduler::List => Algorithm::List,
        Scheduler::Sdc => Algorithm::Sdc,
        Scheduler::Ilp => Algorithm::Ilp,
        Scheduler::Modulo => Algorithm::Modulo,
    }
}

fn print_report(r: &InstanceReport) {
    let name = r.name.as_deref().unwrap_or("<unnamed>");
    let (Some(s), Some(a)) = (&r.solution, r.algorithm) else {
        eprintln!("{name}: {} verified", r.kind);
        return;
    };
    let ii = s
        .schedule
        .ii
        .map_or(String::new(), |ii| format!(" II={ii}"));
    eprintln!(
        "{name}: {} by {}:{ii} latency={} ResMII={} RecMII={} optimal={}",
        r.kind,
        a.name(),
        s.latency,
        s.res_mii,
        s.rec_mii,
        s.optimal
    );
}

/// Runs `silica schedule`.
pub fn run(args: &ScheduleArgs) -> ExitCode {
    let action = if args.verify {
        Action::Verify
    } else {
        let mut options = Options::new(Algorithm::Sdc);
        options.cycle_time = args.cycle_time;
        options.ilp_time_limit_s = args.ilp_time_limit;
        Action::Schedule {
            algorithm: args.scheduler.map(algorithm),
            options,
        }
    };
    drive(&args.io, "Scheduling", &mut |ctx, m| {
        let reports = process_instances(ctx, &mut m.ir, m.top, &action)?;
        if args.report {
            reports.iter().for_each(print_report);
        }
        Ok(())
    })
}
