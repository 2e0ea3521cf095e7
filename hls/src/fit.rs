//! Fitting a design to its device by sharing functional units: where the
//! estimate of a design for a real device (`crate::device`) needs more
//! DSP blocks or LUTs than the device has ([`exceeds`]), the flow
//! chooses `[limits]` for the unit classes the user left unlimited
//! (`directives::LIMITED_CLASSES`) and schedules again.
//!
//! The search is greedy over the estimate ([`choose`]): from one unit
//! per operation, each step tries one unit fewer of each class that
//! still has more than one, and keeps the try with the shortest latency
//! among those that bring the design closer to its budget (the DSPs at
//! the device's count, LUTs and flip-flops at [`MARGIN`] of it, for the
//! estimate's error), until it fits or no try helps. [`Fit`] is what
//! the reports say about it (`F.json`'s `resources.fit`).

use crate::device::{Device, Family};
use crate::report::Estimate;
use serde::Serialize;
use std::collections::BTreeMap;

/// The share of the device's LUTs and flip-flops a fitted design's
/// estimate may use: the LUT estimate is off by up to a tenth on the
/// designs whose units are shared (floats, dividers) as placed on
/// iCE40 (`docs/QOR.md`).
pub const MARGIN: f64 = 0.9;

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
    /// kept: it is the nearest to fitting).
    pub fits: bool,
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
    /// units shared: 3 mul for 6 operations (latency 961 -> 1021 cycles)`.
    pub fn describe(&self, device: &Device, latency: Option<u64>) -> String {
        let over = over(device, &self.unfitted).join(", ");
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
        format!(
            "the design does not fit {} by the estimate ({over}); units shared: {} (latency {} -> {} cycles){}",
            self.device,
            limits.join(", "),
            cycles(self.unfitted_latency),
            cycles(latency),
            if self.fits {
                ""
            } else {
                "; no further sharing brings it within the budget"
            }
        )
    }
}

/// The device a design for `target` is fitted to: a real device (not
/// the estimates-only `generic`).
pub fn device(target: &str) -> Option<&'static Device> {
    crate::device::lookup(target)
        .ok()
        .filter(|d| d.family != Family::Generic)
}

/// Whether `e` needs more LUTs or DSPs than `device` has: what fitting
/// starts from (as `silica dse` refuses a point larger than its device,
/// so that a point it keeps is built as it estimated it).
pub fn exceeds(device: &Device, e: &Estimate) -> bool {
    e.lut > device.luts || e.dsp > device.dsps
}

/// The resources of `e` over `device`'s capacity (`12 DSP of 8`).
pub fn over(device: &Device, e: &Estimate) -> Vec<String> {
    [
        ("LUT", e.lut, device.luts),
        ("FF", e.ff, device.ffs),
        ("DSP", e.dsp, device.dsps),
    ]
    .into_iter()
    .filter(|&(_, used, available)| used > available)
    .map(|(what, used, available)| format!("{used} {what} of {available}"))
    .collect()
}

/// How far `e` is over the budget: the DSPs over the device's count and
/// the LUTs and flip-flops over [`MARGIN`] of the device's, each as a
/// share of the device's; 0 when it fits.
pub fn excess(device: &Device, e: &Estimate) -> f64 {
    let past = |used: u64, budget: f64, available: u64| {
        (used as f64 - budget).max(0.0) / available.max(1) as f64
    };
    past(e.dsp, device.dsps as f64, device.dsps)
        + past(e.lut, device.luts as f64 * MARGIN, device.luts)
        + past(e.ff, device.ffs as f64 * MARGIN, device.ffs)
}

/// One evaluated choice of limits: its estimate and static latency, and
/// the units each limited class was built with.
#[derive(Clone, Debug, PartialEq)]
pub struct Tried {
    pub estimate: Estimate,
    pub latency: Option<u64>,
    pub units: BTreeMap<String, u32>,
}

/// Chooses the limits of the classes `free` (class, operations: the
/// units without a limit) for `device`, from `start` (the design
/// without limits, which does not fit): `eval` gives a choice's
/// figures. Gives the limits and their figures (`start`'s own, empty,
/// where no try brings it closer). A step never raises a limit, so the
/// search ends after at most as many steps as there are operations.
pub fn choose<E>(
    device: &Device,
    free: &[(String, u32)],
    start: Tried,
    mut eval: impl FnMut(&BTreeMap<String, u32>) -> Result<Tried, E>,
) -> Result<(BTreeMap<String, u32>, Tried), E> {
    let mut limits = BTreeMap::new();
    let mut best = start;
    let mut units: BTreeMap<String, u32> = free.iter().cloned().collect();
    while excess(device, &best.estimate) > 0.0 {
        let mut step: Option<(BTreeMap<String, u32>, Tried)> = None;
        for (class, &n) in &units {
            if n <= 1 {
                continue;
            }
            let mut trial = limits.clone();
            trial.insert(class.clone(), n - 1);
            let t = eval(&trial)?;
            if excess(device, &t.estimate) >= excess(device, &best.estimate) {
                continue;
            }
            let key = |t: &Tried| (t.latency.unwrap_or(u64::MAX), excess(device, &t.estimate));
            if step.as_ref().is_none_or(|(_, s)| key(&t) < key(s)) {
                step = Some((trial, t));
            }
        }
        let Some((trial, t)) = step else { break };
        // A class may build fewer units than its limit (as many as its
        // busiest schedule needs): the next try starts there.
        for (class, n) in &trial {
            let built = t.units.get(class).copied().unwrap_or(*n).min(*n);
            units.insert(class.clone(), built);
        }
        limits = trial;
        best = t;
    }
    Ok((limits, best))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn up5k() -> &'static Device {
        device("ice40-up5k").unwrap()
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
        assert!(device("generic").is_none());
        assert_eq!(device("ice40").unwrap().name, "ice40-up5k");
    }

    #[test]
    fn excess_counts_dsps_at_the_count_and_luts_at_the_margin() {
        let d = up5k();
        assert_eq!(excess(d, &est(4752, 8)), 0.0);
        assert!(excess(d, &est(4753, 8)) > 0.0);
        assert!((excess(d, &est(0, 9)) - 1.0 / 8.0).abs() < 1e-12);
        assert_eq!(over(d, &est(5000, 9)), vec!["9 DSP of 8".to_string()]);
        assert!(exceeds(d, &est(5281, 0)) && exceeds(d, &est(0, 9)));
        assert!(!exceeds(d, &est(5280, 8)));
    }

    #[test]
    fn dsps_over_the_budget_share_the_multipliers_fewest_first() {
        // 5 multipliers of 3 DSPs: 15 of 8, so 2 units.
        let start = model(&BTreeMap::new(), 5, 2);
        let (limits, t) = choose(
            up5k(),
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
    fn luts_over_the_margin_share_the_class_that_costs_least_latency() {
        // 5 adders of 1,000 LUTs: 5,500 LUTs of 4,752 allowed, so 4.
        let start = model(&BTreeMap::new(), 2, 5);
        let (limits, t) = choose(
            up5k(),
            &[("fadd".into(), 5), ("mul".into(), 2)],
            start,
            |l| Ok::<_, ()>(model(l, 2, 5)),
        )
        .unwrap();
        assert_eq!(limits, BTreeMap::from([("fadd".to_string(), 4)]));
        assert_eq!(t.estimate.lut, 4500);
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
            up5k(),
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
        assert!(excess(up5k(), &t.estimate) > 0.0);
    }
}
