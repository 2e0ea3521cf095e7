//! Fitting a design to its device by sharing functional units: where the
//! estimate of a design for a real device (`crate::model::target::device`) needs more
//! DSP blocks or LUTs than the device has ([`exceeds`]), the flow
//! chooses `[limits]` for the unit classes the user left unlimited
//! (`directives::LIMITED_CLASSES`) and schedules again.
//!
//! The search is greedy over the estimate ([`choose`]): from one unit
//! per operation, each step tries one unit fewer of each class that
//! still has more than one (where one fewer changes nothing, one fewer
//! than the units it builds, or half as many), and keeps the try with
//! the shortest latency among those that bring the design closer to its budget (the DSPs at
//! the device's count, LUTs and flip-flops at [`MARGIN`] of it, for the
//! estimate's error, or the smaller share of a [`Budget`] where the
//! placed design needed more than its estimate), until it fits or no
//! try helps. [`Fit`] is what the reports say about it (`F.json`'s
//! `resources.fit`).

use crate::flow::estimate::Estimate;
use crate::flow::schedule::Schedules;
use crate::model::kernel::{Kernel, Op};
use crate::model::target::device::Device;
use serde::Serialize;
use std::collections::BTreeMap;

/// The share of the device's LUTs and flip-flops a fitted design's
/// estimate may use: the LUT estimate is off by up to a tenth on the
/// designs whose units are shared (floats, dividers) as placed on
/// iCE40 (`docs/QOR.md`).
pub const MARGIN: f64 = 0.9;

/// What a fitted design's estimate may use of its device: the DSPs it
/// has, and `share` of its LUTs and flip-flops ([`MARGIN`], or less
/// where the placed design needed more than its estimate: `silica hls
/// --bitstream`'s area closure, `crate::fpga::closure`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget<'d> {
    pub device: &'d Device,
    pub share: f64,
    /// The designs the search may evaluate: past them it takes no
    /// further step and keeps what it has (none: as many as it takes).
    /// `silica dse` sets it, so that one point's fitting does not take
    /// the time of its search's others; a count, not a time, so that a
    /// point is the same design however busy the machine.
    pub tries: Option<usize>,
}

impl<'d> Budget<'d> {
    /// [`MARGIN`] of `device`.
    pub fn of(device: &'d Device) -> Budget<'d> {
        Budget {
            device,
            share: MARGIN,
            tries: None,
        }
    }
}

/// What fitting did (`F.json`'s `resources.fit`).
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Fit {
    /// The device fitted to.
    pub device: String,
    /// The limits chosen, per class (the `[limits]` entries the flow
    /// added; the user's own are kept as given).
    pub limits: BTreeMap<String, u32>,
    /// The units built under them and the operations sharing them (a
    /// class may build fewer units than its limit; multiplications by
    /// constants share none: the `mul` limit has them built as shifts
    /// and adds where datapath rewriting can).
    pub units: Vec<Units>,
    /// The estimate without them: what did not fit.
    pub unfitted: Estimate,
    /// The static latency without them (null where data decides it).
    pub unfitted_latency: Option<u64>,
    /// Whether the fitted estimate is within the budget; false when the
    /// fewest units found still exceed it (the fewest-units design is
    /// kept: it is the nearest to fitting), or when no limit lowers the
    /// estimate (`limits` empty: the design is built as given).
    pub fits: bool,
    /// What the design kept still needs past the budget
    /// (`12 DSP of 8: 150%`, see [`beyond`]); empty when it fits.
    pub over: Vec<String>,
    /// The share of the device's LUTs and flip-flops fitted to
    /// ([`Budget::share`]).
    pub share: f64,
}

/// The units of one class and the operations that share them.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Units {
    pub class: String,
    pub units: u32,
    pub operations: usize,
}

impl Fit {
    /// The note on standard error and the line of `report.txt`:
    /// `the design does not fit ice40-up5k by the estimate (12 DSP of 8);
    /// units shared: 3 mul for 6 operations (latency 961 -> 1021 cycles)`;
    /// where sharing does not bring it within the device, it says so and
    /// by how much it is still over.
    pub fn describe(&self, device: &Device, latency: Option<u64>) -> String {
        let over_device = over(device, &self.unfitted);
        let head = if over_device.is_empty() {
            // Fitted after placement: the estimate was within the device.
            format!(
                "the design placed on {} needed more than its estimate: fitted to {:.0}% of its \
                 LUTs and flip-flops by the estimate",
                self.device,
                self.share * 100.0
            )
        } else {
            format!(
                "the design does not fit {} by the estimate ({})",
                self.device,
                over_device.join(", ")
            )
        };
        if self.limits.is_empty() {
            return format!(
                "{head}; sharing units cannot bring it within the device: no unit limit lowers \
                 its estimate, it is built as given, over by {}",
                self.over.join(", ")
            );
        }
        let limits: Vec<String> = self
            .units
            .iter()
            .map(|u| match u.operations {
                // Only products by constants: the limit has them built
                // as shifts and adds.
                0 => format!("{} products by constants as shifts and adds", u.class),
                n => format!("{} {} for {n} operations", u.units, u.class),
            })
            .collect();
        let cycles = |l: Option<u64>| l.map_or("?".to_string(), |l| l.to_string());
        let tail = if self.fits {
            String::new()
        } else {
            format!(
                "; sharing units cannot bring it within the device: with the fewest units \
                 it is still over by {}",
                self.over.join(", ")
            )
        };
        format!(
            "{head}; units shared: {} (latency {} -> {} cycles){tail}",
            limits.join(", "),
            cycles(self.unfitted_latency),
            cycles(latency),
        )
    }
}

/// Whether `e` needs more LUTs or DSPs than `device` has: what fitting
/// starts from (as `silica dse` refuses a point larger than its device,
/// so that a point it keeps is built as it estimated it).
pub fn exceeds(device: &Device, e: &Estimate) -> bool {
    e.logic() > device.luts || e.dsp > device.dsps
}

/// The share of the cycles the average float operation's own unit is
/// busy, in a design scheduled with a unit per operation: one cycle in
/// each initiation interval of its pipelined loop, one in each pass
/// through its sequential block's states. Sharing float units costs a
/// design little where this is low (a float sum's adder latency sets its
/// loop's II, and each unit idles between its issues), and as much as
/// it divides the units where it is near 1. None without float
/// operations.
pub fn float_occupancy(k: &Kernel, s: &Schedules) -> Option<f64> {
    let busy: Vec<f64> = (k.nodes.iter())
        .filter(|n| matches!(n.op, Op::Float(_)))
        .map(|n| {
            let cycles = match k.pipelined_loop_of(n.block) {
                Some(l) => s.pipes[l].as_ref().map_or(1, |p| p.ii),
                None => s.states[n.block],
            };
            1.0 / f64::from(cycles.max(1))
        })
        .collect();
    (!busy.is_empty()).then(|| busy.iter().sum::<f64>() / busy.len() as f64)
}

/// The resources of `e` over `device`'s capacity (`12 DSP of 8`).
pub fn over(device: &Device, e: &Estimate) -> Vec<String> {
    limits(device, e)
        .into_iter()
        .filter(|l| l.need > l.capacity)
        .map(|l| format!("{} {} of {}", l.need, l.what, l.capacity))
        .collect()
}

/// One of a device's resources against what a design's estimate needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// `LUT` (`LC` on iCE40), `FF`, `DSP`, `BRAM` or `LUT RAM`.
    pub what: &'static str,
    pub need: u64,
    pub capacity: u64,
    /// Whether the estimate counts it exactly (DSPs, block RAMs, LUT RAM).
    pub exact: bool,
    /// How many times the capacity a need must pass for `--bitstream`
    /// to refuse the design before synthesis ([`refused`]); none: the
    /// tools always decide.
    pub refused_beyond: Option<u64>,
}

/// Every resource of `device` against the estimate `e`: logic,
/// flip-flops, DSPs, block RAMs and LUT RAM where the family has it
/// (IO is no limit: ports beyond the package's pins go behind a scan
/// wrapper). Empty for a target that is no device.
pub fn limits(device: &Device, e: &Estimate) -> Vec<Limit> {
    if !device.family.is_device() {
        return Vec::new();
    }
    let limit = |what, need, capacity, exact, refused_beyond| Limit {
        what,
        need,
        capacity,
        exact,
        refused_beyond,
    };
    let logic = Some(REFUSED_FROM_ESTIMATE);
    let mut limits = vec![
        limit(
            device.family.logic_name(),
            e.logic(),
            device.luts,
            false,
            logic,
        ),
        limit("FF", e.ff, device.ffs, false, None),
        limit("DSP", e.dsp, device.dsps, true, Some(1)),
        limit("BRAM", e.bram, device.brams, true, Some(1)),
    ];
    if device.lut_rams > 0 {
        limits.push(limit("LUT RAM", e.lut_ram, device.lut_rams, true, Some(1)));
    }
    limits
}

/// How many times the device's logic a design's estimate must need for
/// `--bitstream` to refuse it unsynthesised: the estimate is at most 2.2
/// times yosys's LUTs over the PolyBench kernels (`bench/fpga_fit.py`,
/// those beyond the device included), so a design refused needs at
/// least 1.8 times the device, where yosys alone could take hours.
pub const REFUSED_FROM_ESTIMATE: u64 = 4;

/// Whether `--bitstream` refuses a design over `limit` before running
/// the tools: one over an exact figure, or needing more than
/// [`REFUSED_FROM_ESTIMATE`] times the device's logic.
pub fn refused(limit: &Limit) -> bool {
    limit
        .refused_beyond
        .is_some_and(|times| limit.need > times * limit.capacity)
}

/// The warning for a design whose estimate is over `limit`, naming the
/// resource, the need and the capacity, and what `--bitstream` does.
pub fn limit_warning(device: &Device, limit: &Limit) -> Option<String> {
    if limit.need <= limit.capacity {
        return None;
    }
    let error = crate::flow::estimate::MEASURED_ERROR;
    let counted = if limit.exact {
        format!("the estimate counts {}s exactly", limit.what)
    } else if limit.what == "FF" {
        format!(
            "an estimate, {:.0}% off yosys's flip-flops by the median",
            100.0 * error.ff_median
        )
    } else {
        format!(
            "an estimate, within {:.0}% of placed designs that fit",
            100.0 * error.lut
        )
    };
    let bitstream = if refused(limit) {
        "--bitstream refuses it"
    } else {
        "--bitstream synthesises it to see"
    };
    let whose = if limit.what == "BRAM" {
        "on-chip memories need"
    } else {
        "estimate needs"
    };
    Some(format!(
        "the design's {whose} {} {}, and {} holds {} ({counted}): {bitstream}",
        limit.need, limit.what, device.name, limit.capacity
    ))
}

/// The resources of `e` past the budget ([`excess`]'s: the DSPs past
/// the device's count, LUTs and flip-flops past the budget's share of
/// it), each with its share of the device: `5915 LC of 5280: 112%` (iCE40 counts logic cells), or
/// `5000 LUT of 5280: 94%, past the 90% budget` within the device (not
/// `N LUT of M (P%)`, which `bench/fpga_fit.py` reads as the overflow
/// `--bitstream` reports).
pub fn beyond(budget: &Budget<'_>, e: &Estimate) -> Vec<String> {
    let (device, share) = (budget.device, budget.share);
    let margin = share * 100.0;
    [
        (device.family.logic_name(), e.logic(), device.luts, share),
        ("FF", e.ff, device.ffs, share),
        ("DSP", e.dsp, device.dsps, 1.0),
    ]
    .into_iter()
    .filter(|&(_, used, available, budget)| used as f64 > available as f64 * budget)
    .map(|(what, used, available, _)| {
        let share = used * 100 / available.max(1);
        let past = if used <= available {
            format!(", past the {margin:.0}% budget")
        } else {
            String::new()
        };
        format!("{used} {what} of {available}: {share}%{past}")
    })
    .collect()
}

/// How far `e` is over the budget: the DSPs over the device's count and
/// the LUTs and flip-flops over the budget's share of the device's, each
/// as a share of the device's; 0 when it fits.
pub fn excess(budget: &Budget<'_>, e: &Estimate) -> f64 {
    overs(budget, e).iter().sum()
}

/// [`excess`]'s terms: how far the DSPs, the logic and the flip-flops of
/// `e` are over the budget, in that order.
fn overs(budget: &Budget<'_>, e: &Estimate) -> [f64; 3] {
    let (device, share) = (budget.device, budget.share);
    let past = |used: u64, budget: f64, available: u64| {
        (used as f64 - budget).max(0.0) / available.max(1) as f64
    };
    [
        past(e.dsp, device.dsps as f64, device.dsps),
        past(e.logic(), device.luts as f64 * share, device.luts),
        past(e.ff, device.ffs as f64 * share, device.ffs),
    ]
}

/// One evaluated choice of limits: its estimate and static latency, and
/// the units each limited class was built with.
#[derive(Clone, Debug, PartialEq)]
pub struct Tried {
    pub estimate: Estimate,
    pub latency: Option<u64>,
    pub units: BTreeMap<String, u32>,
}

/// Limits, per class.
pub type Limits = BTreeMap<String, u32>;

/// Chooses the limits of the classes `free` (class, operations: the
/// units without a limit) for `device`, from `start` (the design
/// without limits, which does not fit): `eval` gives a choice's
/// figures. Gives the limits and their figures (`start`'s own, empty,
/// where no limit brings it closer).
///
/// The fewest units first ([`Search::fewest`]): one unit of each class,
/// or of those that help (none: `start` is kept). Where they are over in
/// a resource that the design without limits is over in too, and half
/// the units of each class are as well, they are the answer (the nearest
/// to fitting) and nothing else is tried (a few tries, not one a unit).
/// Else the search goes down from `start` ([`Search::descend`]), also
/// where the fewest units do not fit (a
/// design's registers can grow as its units shrink: a
/// 5x5 window of i32 products pipelined on one shared multiplier holds
/// its values for 25 cycles, and more flip-flops than the device has,
/// where nine multipliers fit in all): each step tries
/// one unit fewer of each class (where that brings it no closer, one
/// fewer than the units it builds, or half as many) and keeps the try with the shortest
/// latency among those that bring the design closer to its budget; a
/// step that costs no cycles goes on in the same class by bisection
/// to the fewest units that still cost none ([`Search::jump`]), or to
/// the most that fit where those already fit. Where limits build more
/// units than the design without them (products by constants on
/// multipliers), the descent starts from the units the limits at every
/// operation build. Where the steps stop short of fitting, the fewest
/// units are kept, or, where neither fits, the nearer to fitting. No
/// choice is evaluated twice.
pub fn choose<E>(
    budget: &Budget<'_>,
    free: &[(String, u32)],
    start: Tried,
    eval: impl FnMut(&Limits) -> Result<Tried, E>,
) -> Result<(Limits, Tried), E> {
    if excess(budget, &start.estimate) == 0.0 {
        return Ok((Limits::new(), start));
    }
    let mut search = Search {
        budget,
        eval,
        tried: BTreeMap::new(),
    };
    let (fewest, at_fewest) = search.fewest(free, &start)?;
    // Where the fewest units are over in a resource the design without
    // limits is over in too, and so are half the units of each class, no
    // limit brings it within the device. (The halves are tried for the
    // registers: a design a little over in flip-flops without limits can
    // hold fewer with its units shared by a few operations each, and more
    // again with one unit for all of them.)
    let over_both = |a: &Tried, b: &Tried| {
        let (a, b) = (overs(budget, &a.estimate), overs(budget, &b.estimate));
        [0, 1, 2].map(|r| a[r] > 0.0 && b[r] > 0.0)
    };
    let both = over_both(&at_fewest, &start);
    if fewest.is_empty() {
        return Ok((fewest, at_fewest));
    }
    if both.iter().any(|&o| o) {
        let half: Limits = (free.iter())
            .map(|(c, n)| (c.clone(), (n / 2).max(1)))
            .collect();
        let at_half = search.eval(&half)?;
        let still = over_both(&at_half, &start);
        if (0..3).any(|r| both[r] && still[r]) {
            return Ok((fewest, at_fewest));
        }
    }
    let (limits, found) = search.descend(free, start)?;
    let (fewest_over, found_over) = (
        excess(budget, &at_fewest.estimate),
        excess(budget, &found.estimate),
    );
    if found_over > 0.0 && (fewest_over == 0.0 || fewest_over <= found_over) {
        return Ok((fewest, at_fewest));
    }
    Ok((limits, found))
}

/// The state of one [`choose`]: the choices evaluated so far.
struct Search<'d, F> {
    budget: &'d Budget<'d>,
    eval: F,
    tried: BTreeMap<Limits, Tried>,
}

impl<E, F: FnMut(&Limits) -> Result<Tried, E>> Search<'_, F> {
    /// The figures of `limits`, evaluated once.
    fn eval(&mut self, limits: &Limits) -> Result<Tried, E> {
        if let Some(t) = self.tried.get(limits) {
            return Ok(t.clone());
        }
        let t = (self.eval)(limits)?;
        self.tried.insert(limits.clone(), t.clone());
        Ok(t)
    }

    fn excess(&self, t: &Tried) -> f64 {
        excess(self.budget, &t.estimate)
    }

    /// Whether the budget's tries are spent.
    fn spent(&self) -> bool {
        (self.budget.tries).is_some_and(|n| self.tried.len() >= n)
    }

    /// The fewest units: one of each class of `free` where that fits;
    /// else the nearest to fitting of one unit of each class that helps
    /// on its own (a shared unit's multiplexers can cost more LUTs than
    /// the unit: a `mul` limit trades the DSPs of products by constants
    /// for LUTs), those classes together, and each alone; empty,
    /// with `start`, where none brings it closer.
    fn fewest(&mut self, free: &[(String, u32)], start: &Tried) -> Result<(Limits, Tried), E> {
        let all: Limits = free.iter().map(|(c, _)| (c.clone(), 1)).collect();
        if all.is_empty() {
            return Ok((all, start.clone()));
        }
        let t = self.eval(&all)?;
        if self.excess(&t) == 0.0 {
            return Ok((all, t));
        }
        let mut nearest = (Limits::new(), start.clone());
        let mut helping = Limits::new();
        for class in all.keys() {
            let one = Limits::from([(class.clone(), 1)]);
            let t = self.eval(&one)?;
            if self.excess(&t) < self.excess(start) {
                helping.insert(class.clone(), 1);
            }
            if self.excess(&t) < self.excess(&nearest.1) {
                nearest = (one, t);
            }
        }
        if helping.len() > 1 {
            let t = self.eval(&helping)?;
            if self.excess(&t) < self.excess(&nearest.1) {
                nearest = (helping, t);
            }
        }
        Ok(nearest)
    }

    /// The greedy descent from `start` (see [`choose`]) until the
    /// design fits or no step brings it closer.
    fn descend(&mut self, free: &[(String, u32)], start: Tried) -> Result<(Limits, Tried), E> {
        let mut limits = Limits::new();
        let mut best = start;
        let mut units: BTreeMap<String, u32> = free.iter().cloned().collect();
        // Under a limit a class may build more units than without one
        // (products by constants on multipliers where the scarce units
        // left them in LUTs): where the limits at every operation's own
        // unit build more than the design without them, the descent
        // starts there, from the units they build.
        let every: Limits = free.iter().cloned().collect();
        let at_every = self.eval(&every)?;
        if self.excess(&at_every) > self.excess(&best) {
            for (class, n) in &every {
                let built = at_every.units.get(class).copied().unwrap_or(*n).min(*n);
                units.insert(class.clone(), built);
            }
            limits = every;
            best = at_every;
        }
        while self.excess(&best) > 0.0 && !self.spent() {
            let mut step: Option<(String, Limits, Tried)> = None;
            for (class, &n) in &units {
                if n <= 1 {
                    continue;
                }
                let mut trial = limits.clone();
                trial.insert(class.clone(), n - 1);
                let mut t = self.eval(&trial)?;
                // One unit fewer may change nothing: where the limit
                // builds fewer units (dataflow tasks that take units of
                // their own where it holds them all), one fewer than
                // those; else (operations that build no unit of their
                // own, products by constants) half as many.
                let built = t.units.get(class).copied().unwrap_or(n - 1);
                if self.excess(&t) >= self.excess(&best) && built > 1 && built < n - 1 {
                    trial.insert(class.clone(), built - 1);
                    t = self.eval(&trial)?;
                }
                if self.excess(&t) >= self.excess(&best) && n / 2 < n - 1 {
                    trial.insert(class.clone(), n / 2);
                    t = self.eval(&trial)?;
                }
                if self.excess(&t) >= self.excess(&best) {
                    continue;
                }
                let key = |t: &Tried| {
                    (
                        t.latency.unwrap_or(u64::MAX),
                        excess(self.budget, &t.estimate),
                    )
                };
                if step.as_ref().is_none_or(|(_, _, s)| key(&t) < key(s)) {
                    step = Some((class.clone(), trial, t));
                }
            }
            let Some((class, mut trial, mut t)) = step else {
                break;
            };
            if t.latency == best.latency && self.excess(&t) > 0.0 {
                (trial, t) = self.jump(&limits, &class, (trial, t), &best)?;
            }
            // A class may build fewer units than its limit (as many as
            // its busiest schedule needs): the next try starts there.
            for (class, n) in &trial {
                let built = t.units.get(class).copied().unwrap_or(*n).min(*n);
                units.insert(class.clone(), built);
            }
            limits = trial;
            best = t;
        }
        Ok((limits, best))
    }

    /// A step one unit fewer of `class` (`step`, from `limits`) that
    /// costs no cycles over `best` and does not fit yet: the fewest
    /// units of `class` that still cost none (by bisection, taking the
    /// latency as falling with more units), or where those fit, the
    /// most that fit (the design nearest to `best` that fits).
    fn jump(
        &mut self,
        limits: &Limits,
        class: &str,
        step: (Limits, Tried),
        best: &Tried,
    ) -> Result<(Limits, Tried), E> {
        let with = |n: u32| {
            let mut l = limits.clone();
            l.insert(class.to_string(), n);
            l
        };
        let hi = step.0[class];
        // The fewest units that cost no cycles: `free_at`, in [lo, hi].
        let (mut lo, mut free_at, mut at) = (1, hi, step.1.clone());
        while lo < free_at && !self.spent() {
            let mid = lo + (free_at - lo) / 2;
            let t = self.eval(&with(mid))?;
            if t.latency == best.latency && self.excess(&t) <= self.excess(&step.1) {
                (free_at, at) = (mid, t);
            } else {
                lo = mid + 1;
            }
        }
        if self.excess(&at) > 0.0 {
            return Ok((with(free_at), at));
        }
        // The most units that fit: in [free_at, hi), `hi` does not.
        let (mut fits_at, mut top) = (free_at, hi - 1);
        while fits_at < top && !self.spent() {
            let mid = top - (top - fits_at) / 2;
            let t = self.eval(&with(mid))?;
            if self.excess(&t) == 0.0 {
                fits_at = mid;
            } else {
                top = mid - 1;
            }
        }
        let at = self.eval(&with(fits_at))?;
        Ok((with(fits_at), at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up5k() -> &'static Device {
        crate::model::target::device::lookup("ice40-up5k").unwrap()
    }

    fn est(lut: u64, dsp: u64) -> Estimate {
        Estimate {
            lut,
            dsp,
            ..Estimate::default()
        }
    }

    /// A model of a kernel: `mul` units take 3 DSPs and cost 100 cycles
    /// each one fewer; `fadd` units 1,000 LUTs and 10 cycles each.
    fn model(limits: &BTreeMap<String, u32>, muls: u32, fadds: u32) -> Tried {
        let m = limits.get("mul").copied().unwrap_or(muls).min(muls);
        let f = limits.get("fadd").copied().unwrap_or(fadds).min(fadds);
        Tried {
            estimate: est(500 + 1000 * u64::from(f), 3 * u64::from(m)),
            latency: Some(1000 + 100 * u64::from(muls - m) + 10 * u64::from(fadds - f)),
            units: limits.clone(),
        }
    }

    #[test]
    fn only_real_devices_are_fitted() {
        // A share of the device no design meets: fitted on a device,
        // not on the estimates-only target.
        assert!(products_fitted("ice40-up5k", Some(1e-6)).fit.is_some());
        assert!(products_fitted("generic", Some(1e-6)).fit.is_none());
    }

    #[test]
    fn excess_counts_dsps_at_the_count_and_luts_at_the_margin() {
        let d = up5k();
        assert_eq!(excess(&Budget::of(d), &est(4752, 8)), 0.0);
        assert!(excess(&Budget::of(d), &est(4753, 8)) > 0.0);
        assert!((excess(&Budget::of(d), &est(0, 9)) - 1.0 / 8.0).abs() < 1e-12);
        assert_eq!(over(d, &est(5000, 9)), vec!["9 DSP of 8".to_string()]);
        assert!(exceeds(d, &est(5281, 0)) && exceeds(d, &est(0, 9)));
        assert!(!exceeds(d, &est(5280, 8)));
    }

    #[test]
    fn dsps_over_the_budget_share_the_multipliers_fewest_first() {
        // 5 multipliers of 3 DSPs: 15 of 8, so 2 units.
        let start = model(&BTreeMap::new(), 5, 2);
        let (limits, t) = choose(
            &Budget::of(up5k()),
            &[("fadd".into(), 2), ("mul".into(), 5)],
            start,
            |l| Ok::<_, ()>(model(l, 5, 2)),
        )
        .unwrap();
        assert_eq!(limits, BTreeMap::from([("mul".to_string(), 2)]));
        assert_eq!(t.estimate.dsp, 6);
        assert_eq!(t.latency, Some(1300));
    }

    #[test]
    fn a_limit_that_builds_more_units_than_none_still_descends() {
        // Without a limit 5 multipliers; any limit builds 7 (products by
        // constants on multipliers): the descent starts at 7.
        let start = model(&BTreeMap::new(), 5, 0);
        let limited = |l: &Limits| {
            let m = l.get("mul").copied().unwrap_or(7).min(7);
            Tried {
                estimate: est(500, 3 * u64::from(m)),
                latency: Some(1000 + 100 * u64::from(7 - m)),
                units: BTreeMap::from([("mul".to_string(), m)]),
            }
        };
        let (limits, t) = choose(&Budget::of(up5k()), &[("mul".into(), 12)], start, |l| {
            Ok::<_, ()>(limited(l))
        })
        .unwrap();
        assert_eq!(limits, BTreeMap::from([("mul".to_string(), 2)]));
        assert_eq!(t.estimate.dsp, 6);
    }

    #[test]
    fn luts_over_the_margin_share_the_class_that_costs_least_latency() {
        // 5 adders of 1,000 LUTs: 5,500 LUTs of 4,752 allowed, so 4.
        let start = model(&BTreeMap::new(), 2, 5);
        let (limits, t) = choose(
            &Budget::of(up5k()),
            &[("fadd".into(), 5), ("mul".into(), 2)],
            start,
            |l| Ok::<_, ()>(model(l, 2, 5)),
        )
        .unwrap();
        assert_eq!(limits, BTreeMap::from([("fadd".to_string(), 4)]));
        assert_eq!(t.estimate.lut, 4500);
    }

    #[test]
    fn a_search_out_of_tries_keeps_the_fewest_units_that_fit() {
        // As above, 4 adders fit; with no tries left the descent takes no
        // step, and the one adder tried first is kept.
        let start = model(&BTreeMap::new(), 2, 5);
        let budget = Budget {
            tries: Some(0),
            ..Budget::of(up5k())
        };
        let (limits, t) = choose(
            &budget,
            &[("fadd".into(), 5), ("mul".into(), 2)],
            start,
            |l| Ok::<_, ()>(model(l, 2, 5)),
        )
        .unwrap();
        assert_eq!(
            limits,
            BTreeMap::from([("fadd".to_string(), 1), ("mul".to_string(), 1)])
        );
        assert_eq!(excess(&budget, &t.estimate), 0.0);
    }

    #[test]
    fn a_design_that_cannot_fit_ends_at_one_unit_of_each() {
        // 5,000 LUTs per multiplier: one of each is still over.
        let lut_heavy = |l: &BTreeMap<String, u32>| {
            let mut t = model(l, 4, 2);
            let m = l.get("mul").copied().unwrap_or(4);
            t.estimate.lut += 5000 * u64::from(m);
            t.estimate.dsp = 0;
            Ok::<_, ()>(t)
        };
        let start = lut_heavy(&BTreeMap::new()).unwrap();
        let (limits, t) = choose(
            &Budget::of(up5k()),
            &[("fadd".into(), 2), ("mul".into(), 4)],
            start,
            lut_heavy,
        )
        .unwrap();
        assert_eq!(
            limits,
            BTreeMap::from([("fadd".to_string(), 1), ("mul".to_string(), 1)])
        );
        assert_eq!(t.estimate.lut, 6500);
        assert!(excess(&Budget::of(up5k()), &t.estimate) > 0.0);
    }

    /// `muls` multipliers of one DSP each that share for free down to
    /// `free` units, 100 cycles a unit fewer below; counts the
    /// evaluations in `count`.
    fn sharing_free(limits: &Limits, muls: u32, free: u32, count: &mut usize) -> Tried {
        *count += 1;
        let m = limits.get("mul").copied().unwrap_or(muls).min(muls);
        Tried {
            estimate: est(500, u64::from(m)),
            latency: Some(1000 + 100 * u64::from(free.saturating_sub(m))),
            units: limits.clone(),
        }
    }

    #[test]
    fn steps_that_cost_no_cycles_are_bisected() {
        // 64 one-DSP multipliers, free down to 4 units: the most that
        // fit, 8, as one unit fewer a step finds it, in a few tries.
        let mut count = 0;
        let start = sharing_free(&Limits::new(), 64, 4, &mut count);
        let (limits, t) = choose(&Budget::of(up5k()), &[("mul".into(), 64)], start, |l| {
            Ok::<_, ()>(sharing_free(l, 64, 4, &mut count))
        })
        .unwrap();
        assert_eq!(limits, Limits::from([("mul".to_string(), 8)]));
        assert_eq!((t.estimate.dsp, t.latency), (8, Some(1000)));
        assert!(count <= 16, "{count} evaluations");
    }

    #[test]
    fn units_that_tasks_take_apart_are_halved_until_they_change() {
        // 97 operations; three dataflow tasks need 6, 8 and 9 units and
        // take them apart where the limit holds all 23 (69 DSPs of
        // ecp5-25k's 28), else share 9 (27, and slower by a cycle a
        // unit fewer). One unit fewer changes nothing; one fewer than
        // the 23 built fits.
        let ecp5 = crate::model::target::device::lookup("ecp5-25k").unwrap();
        let apart = |l: &Limits| {
            let n = l.get("mul").copied().unwrap_or(97);
            let units = if n >= 23 { 23 } else { n.min(9) };
            Tried {
                estimate: est(500, 3 * u64::from(units)),
                latency: Some(2000 + u64::from(97 - units)),
                units: Limits::from([("mul".to_string(), units)]),
            }
        };
        let start = apart(&Limits::new());
        let (_, t) = choose(&Budget::of(ecp5), &[("mul".into(), 97)], start, |l| {
            Ok::<_, ()>(apart(l))
        })
        .unwrap();
        assert_eq!((t.estimate.dsp, t.units["mul"]), (27, 9));
    }

    #[test]
    fn a_free_jump_stops_where_shared_units_start_to_cost() {
        // Free down to 12 units, which still need 12 DSPs: the descent
        // jumps to 12 and goes on a unit at a time to 8.
        let mut count = 0;
        let start = sharing_free(&Limits::new(), 64, 12, &mut count);
        let (limits, t) = choose(&Budget::of(up5k()), &[("mul".into(), 64)], start, |l| {
            Ok::<_, ()>(sharing_free(l, 64, 12, &mut count))
        })
        .unwrap();
        assert_eq!(limits, Limits::from([("mul".to_string(), 8)]));
        assert_eq!(t.latency, Some(1400));
        assert!(count <= 20, "{count} evaluations");
    }

    #[test]
    fn a_design_no_sharing_fits_takes_a_few_tries() {
        // One unit of each class is still over: only the classes alone
        // are tried besides, not a unit at a time.
        let mut count = 0;
        let heavy = |l: &Limits, count: &mut usize| {
            *count += 1;
            let mut t = model(l, 40, 30);
            t.estimate.lut += 20_000;
            t
        };
        let start = heavy(&Limits::new(), &mut count);
        let (limits, t) = choose(
            &Budget::of(up5k()),
            &[("fadd".into(), 30), ("mul".into(), 40)],
            start,
            |l| Ok::<_, ()>(heavy(l, &mut count)),
        )
        .unwrap();
        assert_eq!(limits.values().copied().collect::<Vec<_>>(), vec![1, 1]);
        assert_eq!(t.estimate.lut, 21_500);
        // The start, all at one, each alone, both (known), half of each.
        assert_eq!(count, 5);
    }

    #[test]
    fn registers_that_grow_as_units_shrink_leave_the_units_in_between() {
        // 25 products of 3 DSPs each: the one-multiplier design holds its
        // values 25 cycles, in more flip-flops than the device has; the
        // design without limits has few. The search goes on past the
        // fewest units to the most that fit the DSPs.
        let window = |l: &Limits| {
            let m = l.get("mul").copied().unwrap_or(25).min(25);
            let mut t = model(l, 25, 0);
            t.estimate.ff = 1000 + 6000 / u64::from(m);
            Ok::<_, ()>(t)
        };
        let start = window(&Limits::new()).unwrap();
        let (limits, t) =
            choose(&Budget::of(up5k()), &[("mul".into(), 25)], start, window).unwrap();
        let dsps = up5k().dsps;
        assert_eq!(limits.get("mul"), Some(&((dsps / 3) as u32)));
        assert_eq!(t.estimate.dsp, 3 * (dsps / 3));
    }

    #[test]
    fn registers_a_little_over_without_limits_fit_at_units_shared_by_a_few() {
        // 30 adders of 1,000 LUTs: without limits their pipelines'
        // registers are a little over the budget too; one adder for all
        // holds the values long, in more again; shared by a few each,
        // they fit. The search goes down to the 4 the LUTs hold.
        let regs = |l: &Limits| {
            let f = l.get("fadd").copied().unwrap_or(30).min(30);
            let mut t = model(l, 0, 30);
            t.estimate.lut = 1000 * u64::from(f);
            t.estimate.ff = 160 * u64::from(f) + 5000 / u64::from(f);
            Ok::<_, ()>(t)
        };
        let start = regs(&Limits::new()).unwrap();
        let budget = Budget::of(up5k());
        assert!(excess(&budget, &start.estimate) > 0.0);
        let fewest = regs(&Limits::from([("fadd".to_string(), 1)])).unwrap();
        assert!(excess(&budget, &fewest.estimate) > 0.0);
        let (limits, t) = choose(&budget, &[("fadd".into(), 30)], start, regs).unwrap();
        assert_eq!(limits, Limits::from([("fadd".to_string(), 4)]));
        assert_eq!(excess(&budget, &t.estimate), 0.0);
    }

    #[test]
    fn no_limit_that_helps_leaves_the_design_as_given() {
        // Every limit costs LUTs (multiplexers) and saves nothing.
        let worse = |l: &Limits| {
            Ok::<_, ()>(Tried {
                estimate: est(6000 + 100 * l.len() as u64, 0),
                latency: Some(10),
                units: l.clone(),
            })
        };
        let start = worse(&Limits::new()).unwrap();
        let (limits, t) = choose(
            &Budget::of(up5k()),
            &[("fadd".into(), 3), ("mul".into(), 2)],
            start.clone(),
            worse,
        )
        .unwrap();
        assert!(limits.is_empty());
        assert_eq!(t, start);
    }

    #[test]
    fn a_class_whose_sharing_costs_more_than_it_saves_is_left_out() {
        // Sharing the adders saves 1,000 LUTs, the multipliers' costs
        // 3,000 more: the fewest units are those of `fadd` alone.
        let mixed = |l: &Limits| {
            let mut t = model(l, 2, 2);
            t.estimate.lut += 9000 + if l.contains_key("mul") { 3000 } else { 0 };
            Ok::<_, ()>(t)
        };
        let start = mixed(&Limits::new()).unwrap();
        let (limits, t) = choose(
            &Budget::of(up5k()),
            &[("fadd".into(), 2), ("mul".into(), 2)],
            start,
            mixed,
        )
        .unwrap();
        assert_eq!(limits, Limits::from([("fadd".to_string(), 1)]));
        assert_eq!(t.estimate.lut, 10_500);
    }

    fn fit(limits: Limits, fits: bool, over: Vec<String>) -> Fit {
        Fit {
            device: "ice40-up5k".into(),
            units: limits
                .iter()
                .map(|(c, &n)| Units {
                    class: c.clone(),
                    units: n,
                    operations: 4,
                })
                .collect(),
            limits,
            unfitted: est(9000, 12),
            unfitted_latency: Some(100),
            fits,
            over,
            share: MARGIN,
        }
    }

    #[test]
    fn the_note_says_when_sharing_cannot_fit_and_by_how_much() {
        let d = up5k();
        let kept = est(6000, 3);
        let f = fit(
            Limits::from([("fadd".into(), 1)]),
            false,
            beyond(&Budget::of(d), &kept),
        );
        assert_eq!(
            f.describe(d, Some(120)),
            "the design does not fit ice40-up5k by the estimate (9000 LC of 5280, 12 DSP of 8); \
             units shared: 1 fadd for 4 operations (latency 100 -> 120 cycles); sharing units \
             cannot bring it within the device: with the fewest units it is still over by \
             6000 LC of 5280: 113%"
        );
        let f = fit(Limits::new(), false, beyond(&Budget::of(d), &est(9000, 12)));
        assert_eq!(
            f.describe(d, Some(100)),
            "the design does not fit ice40-up5k by the estimate (9000 LC of 5280, 12 DSP of 8); \
             sharing units cannot bring it within the device: no unit limit lowers its estimate, \
             it is built as given, over by 9000 LC of 5280: 170%, 12 DSP of 8: 150%"
        );
        let f = fit(Limits::from([("mul".into(), 2)]), true, Vec::new());
        assert!(f
            .describe(d, Some(100))
            .ends_with("(latency 100 -> 100 cycles)"));
    }

    #[test]
    fn past_the_budget_within_the_device_says_so() {
        assert_eq!(
            beyond(&Budget::of(up5k()), &est(5000, 8)),
            vec!["5000 LC of 5280: 94%, past the 90% budget".to_string()]
        );
        assert!(beyond(&Budget::of(up5k()), &est(4752, 8)).is_empty());
    }

    /// The flow on two independent f32 products a cycle (two units,
    /// all of the UP5K's DSPs) for `target`, fitted with `fit_share`.
    fn products_fitted(target: &str, fit_share: Option<f64>) -> crate::Estimated {
        let text = r#"
func.func @f(%a: memref<16xf32>, %b: memref<16xf32>, %c: memref<16xf32>, %d: memref<16xf32>) {
  affine.for %i = 0 to 16 {
    %x = affine.load %a[%i] : memref<16xf32>
    %y = arith.mulf %x, %x : f32
    affine.store %y, %b[%i] : memref<16xf32>
    %u = affine.load %c[%i] : memref<16xf32>
    %v = arith.mulf %u, %u : f32
    affine.store %v, %d[%i] : memref<16xf32>
  }
  return
}"#;
        let opts = crate::Options {
            clock_ns: Some(30.0),
            fit: true,
            fit_share,
            ..crate::Options::new("f", crate::Target::named(target).unwrap())
        };
        estimated(text, &opts)
    }

    /// The flow's estimate of the function `f` of `text` under `opts`.
    fn estimated(text: &str, opts: &crate::Options) -> crate::Estimated {
        let mut ctx = crate::test_support::context();
        let m = silica_ir::parser::parse(
            &mut ctx,
            "f.mlir",
            text.as_bytes(),
            silica_ir::parser::ParseOptions::default(),
        )
        .unwrap();
        crate::estimate(&mut ctx, &m.ir, m.top, opts).unwrap()
    }

    #[test]
    fn float_units_idle_where_a_sum_sets_the_ii() {
        // Independent products issue every cycle: each unit always busy.
        let products = products_fitted("generic", None);
        assert_eq!(products.float_occupancy(), Some(1.0));
        // A float sum waits for its adder each iteration.
        let text = r#"
func.func @f(%a: memref<16xf32>) -> f32 {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 16 iter_args(%s = %z) -> (f32) {
    %x = affine.load %a[%i] : memref<16xf32>
    %t = arith.addf %s, %x : f32
    affine.yield %t : f32
  }
  return %r : f32
}"#;
        let opts = crate::Options::new("f", crate::Target::named("ecp5-25k").unwrap());
        let sum = estimated(text, &opts);
        let busy = sum.float_occupancy().unwrap();
        assert!(busy <= 0.5, "{busy}");
        // Integers only: no float units.
        let text =
            "func.func @f(%a: i32) -> i32 {\n  %b = arith.muli %a, %a : i32\n  return %b : i32\n}";
        let ints = estimated(text, &opts);
        assert_eq!(ints.float_occupancy(), None);
    }

    #[test]
    fn the_flow_fits_to_a_share_given_after_placement() {
        // Within the device: not fitted unless a share asks for it.
        let given = products_fitted("ice40-up5k", None);
        assert!(given.fit.is_none());
        let lut = given.summary().logic();
        let share = lut as f64 * 0.8 / 5280.0;
        let fitted = products_fitted("ice40-up5k", Some(share));
        let f = fitted.fit.as_ref().expect("fitted to the share");
        assert_eq!(f.share, share);
        assert!(f.limits.contains_key("fmul"), "{:?}", f.limits);
        assert!(fitted.summary().logic() < lut);
    }

    #[test]
    fn a_smaller_share_after_placement_is_the_budget_and_the_note() {
        let budget = Budget {
            device: up5k(),
            share: 0.75,
            tries: None,
        };
        // 75% of 5,280 LUTs is 3,960.
        assert_eq!(excess(&budget, &est(3960, 8)), 0.0);
        assert!(excess(&budget, &est(3961, 8)) > 0.0);
        assert_eq!(
            beyond(&budget, &est(4000, 8)),
            vec!["4000 LC of 5280: 75%, past the 75% budget".to_string()]
        );
        let mut f = fit(Limits::from([("fadd".into(), 2)]), true, Vec::new());
        (f.unfitted, f.share) = (est(4800, 8), 0.75);
        assert_eq!(
            f.describe(up5k(), Some(120)),
            "the design placed on ice40-up5k needed more than its estimate: fitted to 75% of \
             its LUTs and flip-flops by the estimate; units shared: 2 fadd for 4 operations \
             (latency 100 -> 120 cycles)"
        );
    }
}
