//! Timing closure: where the placed design misses its clock, `silica hls
//! --bitstream` schedules it again for a shorter period (a clock
//! uncertainty, as Vitis HLS keeps one below the clock) and places it
//! again, so that the bitstream meets the clock the user asked for at
//! the cost of a few pipeline stages, instead of a slower clock.
//!
//! [`close`] is the loop: place, and while the clock is missed and
//! tries are left, schedule again with the margin [`next_uncertainty`]
//! chooses from how far the last placed period ran past the period it
//! was scheduled to. [`Try`] is one placement as the reports list it;
//! [`better`] picks the design kept where none meets the clock.

use super::Implementation;
use serde::Serialize;

/// One placement of the design (`F.json`'s `resources.synthesis.closure`).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Try {
    /// The margin the try was scheduled with.
    pub clock_uncertainty_ns: f64,
    /// nextpnr's maximum frequency (null: the design did not fit, or no
    /// clocked path).
    pub fmax_mhz: Option<f64>,
    pub clock_met: bool,
    /// Why it did not fit the device, where it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overflow: Option<String>,
    /// The design's static latency in cycles (null where data decides it).
    pub latency: Option<u64>,
}

/// The share of the period a try aims below the estimate-to-placed ratio
/// of the try before it: the ratio varies from one schedule to the next.
const AIM: f64 = 0.97;

/// The least share of the clock a design is scheduled to: below it the
/// retries stop (a design that far off is not a scheduling matter).
const LEAST_SCHEDULED: f64 = 0.5;

/// The clock uncertainty of the next try, after a design of clock
/// `clock_ns` scheduled with `uncertainty_ns` placed at `fmax_mhz` and
/// missed the period `target_ns` it was placed for (the design's clock,
/// or a board shell's): the placed period over the scheduled one, taken
/// as the ratio the next schedule will run over by, gives the period to
/// schedule to, rounded down to a tenth of a nanosecond. None where the
/// try had no clocked path, or the next period would be under half the
/// clock.
pub fn next_uncertainty(
    clock_ns: f64,
    uncertainty_ns: f64,
    target_ns: f64,
    fmax_mhz: Option<f64>,
) -> Option<f64> {
    let placed_ns = 1000.0 / fmax_mhz.filter(|&f| f > 0.0)?;
    let scheduled_ns = clock_ns - uncertainty_ns;
    let next_ns = scheduled_ns * target_ns / placed_ns.max(target_ns) * AIM;
    let next_ns = (next_ns * 10.0).floor() / 10.0;
    let next = ((clock_ns - next_ns) * 10.0).round() / 10.0;
    (next_ns >= clock_ns * LEAST_SCHEDULED && next > uncertainty_ns).then_some(next)
}

/// A design and its placement, as [`close`] keeps them.
pub struct Closed<D> {
    pub design: D,
    pub implementation: Implementation,
}

/// The steps of timing closure over designs `D`.
pub trait Steps<D> {
    type Error;
    /// Places `design`: its implementation, and the try as reported.
    fn place(&mut self, design: &D) -> Result<(Implementation, Try), Self::Error>;
    /// The design scheduled again with `uncertainty_ns` of clock
    /// uncertainty.
    fn reschedule(&mut self, uncertainty_ns: f64) -> Result<D, Self::Error>;
    /// What makes two designs the same to the tools (their circuit: the
    /// same text is placed the same way).
    fn key(&self, design: &D) -> u64;
    /// Told of each retry: the try that missed its clock and the margin
    /// of the next.
    fn retrying(&mut self, missed: &Try, uncertainty_ns: f64);
}

/// Places `first`; while the placement misses its clock (the design's,
/// `clock_ns`, or a board shell's) and fewer than `retries` retries
/// were made, schedules the design again with the next clock
/// uncertainty ([`next_uncertainty`]) and places that, unless it is a
/// design placed already. Gives the [`better`] of the placements, its
/// figures listing every try where there was more than one.
pub fn close<D, S: Steps<D>>(
    steps: &mut S,
    first: D,
    clock_ns: f64,
    retries: u32,
) -> Result<Closed<D>, S::Error> {
    let mut placed = vec![steps.key(&first)];
    let (implementation, first_try) = steps.place(&first)?;
    let mut tries = vec![first_try.clone()];
    let mut kept = (
        Closed {
            design: first,
            implementation,
        },
        first_try,
    );
    let mut last = kept.1.clone();
    while !last.clock_met && last.overflow.is_none() && tries.len() <= retries as usize {
        let target_ns = kept.0.implementation.synthesis.clock_ns;
        let Some(uncertainty) = next_uncertainty(
            clock_ns,
            last.clock_uncertainty_ns,
            target_ns,
            last.fmax_mhz,
        ) else {
            break;
        };
        steps.retrying(&last, uncertainty);
        let design = steps.reschedule(uncertainty)?;
        let key = steps.key(&design);
        if placed.contains(&key) {
            break;
        }
        placed.push(key);
        let (implementation, t) = steps.place(&design)?;
        tries.push(t.clone());
        if better(&t, &kept.1) {
            kept = (
                Closed {
                    design,
                    implementation,
                },
                t.clone(),
            );
        }
        last = t;
    }
    let (mut closed, _) = kept;
    if tries.len() > 1 {
        closed.implementation.synthesis.closure = tries;
    }
    Ok(closed)
}

/// Whether try `a` is a better design to keep than `b`: one that meets
/// the clock over one that misses it, one that fits over one that does
/// not, then the higher Fmax, then the fewer cycles.
pub fn better(a: &Try, b: &Try) -> bool {
    let rank = |t: &Try| (t.clock_met, t.overflow.is_none());
    if rank(a) != rank(b) {
        return rank(a) > rank(b);
    }
    let fmax = |t: &Try| t.fmax_mhz.unwrap_or(0.0);
    if fmax(a) != fmax(b) {
        return fmax(a) > fmax(b);
    }
    a.latency.unwrap_or(u64::MAX) < b.latency.unwrap_or(u64::MAX)
}

/// `report.txt`'s line: each try's margin and what it placed at.
pub fn describe(clock_ns: f64, tries: &[Try]) -> String {
    let each: Vec<String> = tries
        .iter()
        .map(|t| {
            let at = match (&t.overflow, t.fmax_mhz) {
                (Some(_), _) => "does not fit".to_string(),
                (None, Some(f)) if t.clock_met => format!("{f:.2} MHz, met"),
                (None, Some(f)) => format!("{f:.2} MHz, missed"),
                (None, None) => "no clocked path".to_string(),
            };
            let cycles = t.latency.map_or(String::new(), |l| format!(", {l} cycles"));
            format!("{} ns of uncertainty: {at}{cycles}", t.clock_uncertainty_ns)
        })
        .collect();
    format!(
        "timing closure at {clock_ns} ns, scheduled {} times: {}",
        tries.len(),
        each.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(uncertainty: f64, fmax: Option<f64>, met: bool, latency: u64) -> Try {
        Try {
            clock_uncertainty_ns: uncertainty,
            fmax_mhz: fmax,
            clock_met: met,
            overflow: None,
            latency: Some(latency),
        }
    }

    #[test]
    fn the_next_margin_scales_the_schedule_by_how_far_placement_ran_over() {
        // 20 ns scheduled, placed at 21.65 ns: the next schedule aims at
        // 20 * 20 / 21.65 * 0.97 = 17.92 ns, 18 rounded down to 17.9.
        assert_eq!(next_uncertainty(20.0, 0.0, 20.0, Some(46.2)), Some(2.1));
        // Scheduled at 18 ns, placed at 20.8 ns: 18 * 20 / 20.8 * 0.97.
        assert_eq!(next_uncertainty(20.0, 2.0, 20.0, Some(48.08)), Some(3.3));
        // Just past the clock still gains a margin.
        assert_eq!(next_uncertainty(30.0, 0.0, 30.0, Some(33.2)), Some(1.1));
    }

    #[test]
    fn no_margin_without_a_clocked_path_or_past_half_the_clock() {
        assert_eq!(next_uncertainty(20.0, 0.0, 20.0, None), None);
        assert_eq!(next_uncertainty(20.0, 0.0, 20.0, Some(0.0)), None);
        // A board's 40 ns clock placed at 44 ns: a 20 ns design is
        // scheduled to 20 * 40 / 44 * 0.97 = 17.6 ns.
        assert_eq!(next_uncertainty(20.0, 0.0, 40.0, Some(22.7)), Some(2.4));
        // Placed at 50 ns for a 20 ns clock: 8 ns is under half of it.
        assert_eq!(next_uncertainty(20.0, 0.0, 20.0, Some(20.0)), None);
    }

    #[test]
    fn a_met_clock_beats_a_missed_one_and_a_fit_a_design_that_does_not_fit() {
        let met = placed(2.1, Some(50.5), true, 120);
        let missed = placed(0.0, Some(46.2), false, 100);
        assert!(better(&met, &missed));
        assert!(!better(&missed, &met));
        let mut over = placed(3.3, None, false, 130);
        over.overflow = Some("the design does not fit".into());
        assert!(better(&missed, &over));
        let faster = placed(1.0, Some(48.0), false, 110);
        assert!(better(&faster, &missed));
        let fewer = placed(1.0, Some(46.2), false, 90);
        assert!(better(&fewer, &missed));
    }

    /// A placement at `fmax` of a design scheduled with `uncertainty`
    /// (a clock of 20 ns, met from 50 MHz).
    fn placement(uncertainty: f64, fmax: f64) -> (Implementation, Try) {
        let dev = crate::device::lookup("ecp5-25k").unwrap();
        let mut synthesis =
            super::super::reports::Synthesis::unplaced(dev, &Default::default(), 20.0);
        synthesis.overflow = None;
        synthesis.fmax_mhz = Some(fmax);
        synthesis.clock_met = fmax >= 50.0;
        let t = Try {
            clock_uncertainty_ns: uncertainty,
            fmax_mhz: Some(fmax),
            clock_met: synthesis.clock_met,
            overflow: None,
            latency: Some(100 + (uncertainty * 10.0) as u64),
        };
        let implementation = Implementation {
            synthesis,
            bitstream: None,
            logs: Vec::new(),
        };
        (implementation, t)
    }

    /// Designs that are their uncertainty, placed at the Fmax `fmax`
    /// gives each; `same` schedules every retry as the first design.
    struct Fake<F: Fn(f64) -> f64> {
        fmax: F,
        same: bool,
        placed: Vec<f64>,
    }

    impl<F: Fn(f64) -> f64> Steps<f64> for Fake<F> {
        type Error = ();
        fn place(&mut self, &u: &f64) -> Result<(Implementation, Try), ()> {
            self.placed.push(u);
            Ok(placement(u, (self.fmax)(u)))
        }
        fn reschedule(&mut self, u: f64) -> Result<f64, ()> {
            Ok(if self.same { 0.0 } else { u })
        }
        fn key(&self, &u: &f64) -> u64 {
            u.to_bits()
        }
        fn retrying(&mut self, _: &Try, _: f64) {}
    }

    /// [`close`] over [`Fake`] designs: those placed, the one kept and
    /// the tries its figures list.
    fn run(retries: u32, same: bool, fmax: impl Fn(f64) -> f64) -> (Vec<f64>, f64, usize) {
        let mut fake = Fake {
            fmax,
            same,
            placed: Vec::new(),
        };
        let closed = close(&mut fake, 0.0, 20.0, retries).unwrap();
        let tries = closed.implementation.synthesis.closure.len();
        (fake.placed, closed.design, tries)
    }

    #[test]
    fn closure_stops_at_the_first_placement_that_meets_the_clock() {
        // 46.2 MHz, then 2.1 ns of margin gives 50.5 MHz.
        let (placed, kept, tries) = run(2, false, |u| if u > 0.0 { 50.5 } else { 46.2 });
        assert_eq!(placed, vec![0.0, 2.1]);
        assert_eq!((kept, tries), (2.1, 2));
        // Met at once: placed once, no closure listed.
        let (placed, kept, tries) = run(2, false, |_| 55.0);
        assert_eq!((placed, kept, tries), (vec![0.0], 0.0, 0));
    }

    #[test]
    fn closure_keeps_the_fastest_placement_where_none_meets_the_clock() {
        // The second try is the fastest; the third falls back.
        let fmax = |u: f64| {
            if u == 0.0 {
                46.2
            } else if u == 2.1 {
                49.0
            } else {
                47.0
            }
        };
        let (placed, kept, tries) = run(2, false, fmax);
        assert_eq!(placed.len(), 3);
        assert_eq!((kept, tries), (2.1, 3));
        // No retries asked for: one placement.
        let (placed, _, tries) = run(0, false, fmax);
        assert_eq!((placed.len(), tries), (1, 0));
    }

    #[test]
    fn closure_places_no_design_twice() {
        // Every margin schedules the same design: placed once.
        let (placed, kept, tries) = run(2, true, |_| 46.2);
        assert_eq!((placed, kept, tries), (vec![0.0], 0.0, 0));
    }

    #[test]
    fn the_report_line_lists_every_try() {
        let tries = [
            placed(0.0, Some(46.2), false, 100),
            placed(2.1, Some(50.5), true, 120),
        ];
        assert_eq!(
            describe(20.0, &tries),
            "timing closure at 20 ns, scheduled 2 times: 0 ns of uncertainty: 46.20 MHz, \
             missed, 100 cycles; 2.1 ns of uncertainty: 50.50 MHz, met, 120 cycles"
        );
    }
}
