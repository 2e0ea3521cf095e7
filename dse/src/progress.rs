//! How far a run is: an `indicatif` bar with the ETA when standard error
//! is a terminal, else a plain line at every tenth of the run.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// The progress of a run of `total` points.
pub struct Progress {
    bar: Option<ProgressBar>,
    total: u64,
    done: u64,
    cached: u64,
    next_line: u64,
}

impl Progress {
    pub fn new(total: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total);
            if let Ok(style) = ProgressStyle::with_template(
                "{bar:40} {pos}/{len} points, {per_sec}, ETA {eta} {msg}",
            ) {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            total: total.max(1),
            done: 0,
            cached: 0,
            next_line: 0,
        }
    }

    /// One more point done (`cached`: from the cache or pruned);
    /// `evaluated` points were evaluated so far.
    pub fn step(&mut self, evaluated: usize, cached: bool) {
        self.done += 1;
        self.cached += u64::from(cached);
        match &self.bar {
            Some(bar) => {
                bar.set_position(self.done.min(self.total));
                bar.set_message(format!("({evaluated} evaluated, {} cached)", self.cached));
            }
            None if self.done >= self.next_line => {
                eprintln!(
                    "dse: {}/{} points ({evaluated} evaluated, {} cached)",
                    self.done.min(self.total),
                    self.total,
                    self.cached
                );
                self.next_line = self.done + self.total.div_ceil(10);
            }
            None => {}
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
