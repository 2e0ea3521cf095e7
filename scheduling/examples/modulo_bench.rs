//! Benchmark: iterative modulo scheduling on random modulo problems of
//! 50, 200 and 1000 operations. Prints, per size, the mean and worst
//! solve time and the share of instances reaching II = max(ResMII, RecMII).
//!
//! `cargo run --release -p silica-scheduling --example modulo_bench [instances]`

use silica_scheduling::{random_problem, schedule, Algorithm, Options, ProblemKind, RandomShape};
use std::time::Instant;

fn main() {
    let instances: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    println!("size  instances  mean_ms  max_ms  II=MII  mean_ResMII  mean_RecMII");
    for size in [50, 200, 1000] {
        let shape = RandomShape {
            kind: ProblemKind::ModuloProblem,
            operations: size,
            fan_in: 2,
            back_edges_per_100: 10,
            // Units grow with the loop body, so that resources and
            // recurrences both bound the II.
            resource_scale: (size / 50) as u32,
        };
        let (mut total, mut worst, mut at_mii) = (0.0f64, 0.0f64, 0u64);
        let (mut res, mut rec) = (0u64, 0u64);
        for seed in 0..instances {
            let p = random_problem(shape, seed);
            let start = Instant::now();
            let s = schedule(&p, &Options::new(Algorithm::Modulo)).expect("schedules");
            let secs = start.elapsed().as_secs_f64();
            total += secs;
            worst = worst.max(secs);
            res += u64::from(s.res_mii);
            rec += u64::from(s.rec_mii);
            if s.schedule.ii == Some(s.res_mii.max(s.rec_mii)) {
                at_mii += 1;
            }
        }
        println!(
            "{size:>4}  {instances:>9}  {:>7.2}  {:>6.2}  {:>5.1}%  {:>11.1}  {:>11.1}",
            total / instances as f64 * 1e3,
            worst * 1e3,
            at_mii as f64 * 100.0 / instances as f64,
            res as f64 / instances as f64,
            rec as f64 / instances as f64,
        );
    }
}
