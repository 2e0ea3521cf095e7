//! Saturation without `quanta`'s calibration: egg times its runs with
//! `quanta`, whose first clock in a process spins (about 10 ms, up to
//! 200 ms) calibrating the CPU's time-stamp counter: a quarter of
//! `silica hls` on a small kernel. Runs here use a mock `quanta` clock
//! that an iteration hook advances from the standard monotonic clock, so
//! the time limit still holds (checked one iteration late).

use egg::{Analysis, Language, Rewrite, Runner};
use std::time::{Duration, Instant};

/// Runs `runner` with `rules`, stopping after `limit` of wall time.
pub fn saturate<L, N>(
    runner: Runner<L, N>,
    rules: &[Rewrite<L, N>],
    limit: Duration,
) -> Runner<L, N>
where
    L: Language,
    N: Analysis<L>,
{
    let (clock, mock) = quanta::Clock::mock();
    let start = Instant::now();
    let mut seen = Duration::ZERO;
    let runner = runner.with_time_limit(limit).with_hook(move |_| {
        let now = start.elapsed();
        mock.increment(now.saturating_sub(seen));
        seen = now;
        Ok(())
    });
    quanta::with_clock(&clock, || runner.run(rules))
}
