//! The tools' reports read back: yosys's `stat -json` cell counts,
//! nextpnr's `--report` JSON (utilisation, maximum frequency per clock,
//! critical paths) and `icetime`'s timing estimate, read into the
//! figures `flow::report::synthesis` reports (`Synthesis`).

use super::toolchain;
use crate::flow::estimate::Estimate;
use crate::flow::fit;
use crate::flow::report::synthesis::{CriticalPath, PathNet, Synthesis, Use};
use crate::model::target::device::Device;
use serde_json::Value;
use std::collections::BTreeMap;

/// Cell counts of the synthesised netlist, by cell type.
pub type Cells = BTreeMap<String, u64>;

/// Reads yosys's `stat -json` output: the design's cells by type.
pub fn yosys_cells(text: &str) -> Result<Cells, String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| format!("yosys's statistics do not read: {e}"))?;
    let by_type = v["design"]["num_cells_by_type"]
        .as_object()
        .ok_or("yosys's statistics have no cell counts")?;
    Ok(by_type
        .iter()
        .map(|(k, n)| (k.clone(), n.as_u64().unwrap_or(0)))
        .collect())
}

/// The synthesised netlist's LUT, flip-flop, block RAM, DSP and (ECP5)
/// LUT RAM use (yosys's cells: an ECP5 carry cell `CCU2C` holds two
/// LUTs).
pub fn netlist_use(device: &Device, cells: &Cells) -> Vec<Use> {
    let count = |pred: &dyn Fn(&str) -> bool| -> u64 {
        cells.iter().filter(|(k, _)| pred(k)).map(|(_, n)| *n).sum()
    };
    let cells_of = &toolchain::names(device.family).netlist;
    let (lut, ff, bram, dsp) = (
        count(&|k| k == cells_of.lut) + 2 * cells_of.double_lut.map_or(0, |d| count(&|k| k == d)),
        count(&|k| k.starts_with(cells_of.ff)),
        count(&|k| k.starts_with(cells_of.bram)),
        count(&|k| k == cells_of.dsp),
    );
    let mut uses = vec![
        Use {
            what: "LUT",
            used: lut,
            available: device.luts,
        },
        Use {
            what: "FF",
            used: ff,
            available: device.ffs,
        },
        Use {
            what: "BRAM",
            used: bram,
            available: device.brams,
        },
        Use {
            what: "DSP",
            used: dsp,
            available: device.dsps,
        },
    ];
    if let Some(cell) = cells_of.lut_ram {
        uses.push(Use {
            what: "LUT RAM",
            used: count(&|k| k == cell),
            available: device.lut_rams,
        });
    }
    uses
}

/// A "does not fit" message naming every resource over the device's
/// capacity with the numbers, or `None` when everything fits.
pub fn overflow(device: &Device, uses: &[Use]) -> Option<String> {
    let over: Vec<String> = uses
        .iter()
        .filter(|u| u.used > u.available)
        .map(Use::describe)
        .collect();
    (!over.is_empty()).then(|| {
        format!(
            "the design does not fit {}: it needs {}",
            device.name,
            over.join(", ")
        )
    })
}

/// The logic cells that nextpnr-ice40's placer found more of than the
/// device has (`ERROR: Failed to expand region (0, 0) |_> (25, 31) of
/// 5434 ICESTORM_LCs`): a netlist whose LUTs and flip-flops each fit can
/// still need more logic cells (one LUT and one flip-flop each) where
/// flip-flops cannot share their cell with a LUT. `None` for any other log.
pub fn packed_overflow(device: &Device, log: &str) -> Option<Use> {
    let used = log.lines().find_map(|l| {
        let rest = l
            .trim_end()
            .strip_prefix("ERROR: Failed to expand region ")?;
        let (_, n) = rest.strip_suffix(" ICESTORM_LCs")?.rsplit_once(" of ")?;
        n.parse::<u64>().ok()
    })?;
    (used > device.luts).then_some(Use {
        what: "LC",
        used,
        available: device.luts,
    })
}

/// The placer's message for a netlist it cannot place though each kind of
/// cell fits in number (nextpnr's heap placer, both families): the cells
/// of one kind, packed, leave it too little room to legalise.
const PLACER_LIMITS: [&str; 2] = [
    "ERROR: Unable to find legal placement for all cells",
    "ERROR: Unable to place cell",
];

/// nextpnr's packed cells against the device's, from its `Device
/// utilisation:` lines (`Info: \t        TRELLIS_COMB:   11590/  24288    47%`),
/// by the names the figures use: the logic cells (`TRELLIS_COMB` as LUT,
/// `ICESTORM_LC` as LC), flip-flops (ECP5's `TRELLIS_FF`), block RAMs and
/// DSPs.
pub fn packed_use(device: &Device, log: &str) -> Vec<Use> {
    let names = toolchain::names(device.family).packed;
    let mut uses = Vec::new();
    for line in log.lines() {
        let Some(rest) = line.strip_prefix("Info:") else {
            continue;
        };
        let Some((bel, counts)) = rest.trim().split_once(':') else {
            continue;
        };
        let Some(&(_, what)) = names.iter().find(|(n, _)| *n == bel) else {
            continue;
        };
        let mut numbers = counts.split(['/', ' ']).filter(|w| !w.is_empty());
        let (Some(used), Some(available)) = (numbers.next(), numbers.next()) else {
            continue;
        };
        if let (Ok(used), Ok(available)) = (used.parse(), available.parse()) {
            // The last report wins (nextpnr prints it once, after packing).
            uses.retain(|u: &Use| u.what != what);
            uses.push(Use {
                what,
                used,
                available,
            });
        }
    }
    uses
}

/// Why nextpnr's placer gave up on a netlist whose cells each fit in
/// number (`PLACER_LIMITS`: "design is probably at utilisation limit"):
/// a "does not fit" message with the placer's error and the busiest of
/// its packed cells against the device's (`packed_use`; those at 90% or
/// more, else the busiest one), or of `netlist` (yosys's) where the log
/// has no utilisation. `None` when the log has no such error.
pub fn placer_limit(device: &Device, log: &str, netlist: &[Use]) -> Option<String> {
    let error = log
        .lines()
        .map(str::trim_end)
        .find(|l| PLACER_LIMITS.iter().any(|p| l.starts_with(p)))?;
    let packed = packed_use(device, log);
    let (uses, whose) = if packed.is_empty() {
        (netlist, "in yosys's netlist")
    } else {
        (packed.as_slice(), "packed")
    };
    let share = |u: &Use| u.used as f64 / u.available.max(1) as f64;
    let most = uses.iter().map(share).fold(0.0, f64::max);
    let busiest: Vec<String> = uses
        .iter()
        .filter(|u| share(u) >= 0.9 || share(u) == most)
        .map(Use::describe)
        .collect();
    Some(format!(
        "the design does not fit {}: nextpnr cannot place it, at {} {whose} ({})",
        device.name,
        busiest.join(", "),
        error.trim_start_matches("ERROR: ")
    ))
}

/// A "does not fit" message for an estimate that `--bitstream` refuses
/// unsynthesised (`fit::refused`: more BRAMs or DSPs than the device
/// holds, counted exactly, or many times its logic), naming each such
/// resource; `None` otherwise.
pub fn estimate_overflow(device: &Device, estimate: &Estimate) -> Option<String> {
    let refused: Vec<fit::Limit> = fit::limits(device, estimate)
        .into_iter()
        .filter(fit::refused)
        .collect();
    let why: Vec<String> = refused
        .iter()
        .map(|l| {
            let need = Use {
                what: l.what,
                used: l.need,
                available: l.capacity,
            }
            .describe();
            match l.what {
                "BRAM" | "LUT RAM" => format!(
                    "its on-chip memories need {need} (the estimate counts {}s exactly)",
                    l.what
                ),
                "DSP" => format!("its estimate needs {need} (the estimate counts DSPs exactly)"),
                _ => format!(
                    "its estimate needs {need}, more than {} times the device",
                    fit::REFUSED_FROM_ESTIMATE
                ),
            }
        })
        .collect();
    (!why.is_empty()).then(|| {
        format!(
            "the design does not fit {}: {}, so it is not synthesised",
            device.name,
            why.join("; ")
        )
    })
}

/// What place and route measured, from nextpnr's report.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaceRoute {
    /// Utilisation by nextpnr's cell type.
    pub used: BTreeMap<String, u64>,
    /// The lowest maximum frequency over the design's clocks (MHz), if
    /// any path is clocked.
    pub fmax_mhz: Option<f64>,
    pub critical_path: Option<CriticalPath>,
}

/// Reads nextpnr's `--report` JSON.
pub fn nextpnr_report(text: &str) -> Result<PlaceRoute, String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| format!("nextpnr's report does not read: {e}"))?;
    let used = v["utilization"]
        .as_object()
        .map(|u| {
            u.iter()
                .map(|(k, x)| (k.clone(), x["used"].as_u64().unwrap_or(0)))
                .collect()
        })
        .unwrap_or_default();
    let fmax_mhz = v["fmax"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(|c| c["achieved"].as_f64())
        .reduce(f64::min);
    let clocked = |p: &&Value| {
        let edge = |k: &str| p[k].as_str().is_some_and(|s| s.starts_with("posedge"));
        edge("from") && edge("to")
    };
    let critical_path = v["critical_paths"]
        .as_array()
        .and_then(|paths| paths.iter().find(clocked))
        .and_then(|p| critical_path(&p["path"]));
    Ok(PlaceRoute {
        used,
        fmax_mhz,
        critical_path,
    })
}

/// A critical path from the elements of nextpnr's `path` array.
fn critical_path(path: &Value) -> Option<CriticalPath> {
    let steps = path.as_array()?;
    let cell = |s: &Value, end: &str| s[end]["cell"].as_str().unwrap_or("?").to_string();
    let mut nets: Vec<PathNet> = Vec::new();
    for s in steps {
        let Some(net) = s["net"].as_str() else {
            continue;
        };
        if nets.last().is_some_and(|n| n.net == net) {
            continue;
        }
        let source = s["sources"]
            .as_array()
            .and_then(|a| a.first())
            .and_then(Value::as_str)
            .map(str::to_string);
        nets.push(PathNet {
            net: net.to_string(),
            source,
        });
    }
    Some(CriticalPath {
        from: cell(steps.first()?, "from"),
        to: cell(steps.last()?, "to"),
        delay_ns: steps.iter().filter_map(|s| s["delay"].as_f64()).sum(),
        nets,
    })
}

/// The LUT RAM cells of a netlist's `uses` (0 where the family has none).
fn lut_ram_of(uses: &[Use]) -> u64 {
    uses.iter()
        .find(|u| u.what == "LUT RAM")
        .map_or(0, |u| u.used)
}

/// `icetime`'s estimate in MHz, from its `Timing estimate: 24.60 ns
/// (40.65 MHz)` line.
pub fn icetime_mhz(log: &str) -> Option<f64> {
    let line = log.lines().find(|l| l.contains("Timing estimate:"))?;
    let mhz = line.split('(').nth(1)?.split_whitespace().next()?;
    mhz.parse().ok()
}

impl Synthesis {
    /// The figures from the netlist's cells and place and route.
    pub fn new(device: &Device, cells: &Cells, pnr: PlaceRoute, clock_ns: f64) -> Synthesis {
        let uses = netlist_use(device, cells);
        let placed = |k: &str| pnr.used.get(k).copied().unwrap_or(0);
        let cells = &toolchain::names(device.family).placed;
        let io = placed(cells.io);
        let (bram, dsp) = (placed(cells.bram), placed(cells.dsp));
        // iCE40 places logic cells, each a LUT4 and a flip-flop: the
        // netlist's LUT4s are reported beside them. ECP5 places LUTs.
        let (lut, lc) = if device.family.logic_name() == "LC" {
            (uses[0].used, Some(placed(cells.logic)))
        } else {
            (placed(cells.logic), None)
        };
        let slack_ns = pnr.fmax_mhz.map(|f| clock_ns - 1000.0 / f);
        Synthesis {
            device: device.name.into(),
            package: device.package.into(),
            lut,
            lc,
            ff: uses[1].used,
            dsp,
            bram,
            lut_ram: lut_ram_of(&uses),
            io,
            port_bits: 0,
            scan: None,
            shell: None,
            fmax_mhz: pnr.fmax_mhz,
            icetime_fmax_mhz: None,
            clock_ns,
            clock_met: slack_ns.is_none_or(|s| s >= 0.0),
            slack_ns,
            critical_path: pnr.critical_path,
            bitstream: None,
            reached_ns: None,
            netlist: uses,
            overflow: None,
            from_estimate: false,
            closure: Vec::new(),
        }
    }

    /// The figures of a netlist that does not fit `device` (`overflow`
    /// says by how much): nothing placed, no clock, the netlist's counts.
    pub fn unplaced(device: &Device, cells: &Cells, clock_ns: f64) -> Synthesis {
        let uses = netlist_use(device, cells);
        let used = |what: &str| uses.iter().find(|u| u.what == what).map_or(0, |u| u.used);
        Synthesis {
            device: device.name.into(),
            package: device.package.into(),
            lut: used("LUT"),
            lc: None,
            ff: used("FF"),
            dsp: used("DSP"),
            bram: used("BRAM"),
            lut_ram: used("LUT RAM"),
            io: 0,
            port_bits: 0,
            scan: None,
            shell: None,
            fmax_mhz: None,
            icetime_fmax_mhz: None,
            clock_ns,
            clock_met: false,
            slack_ns: None,
            critical_path: None,
            bitstream: None,
            reached_ns: None,
            overflow: overflow(device, &uses),
            netlist: uses,
            from_estimate: false,
            closure: Vec::new(),
        }
    }

    /// A netlist that fits by its cells but not once placed
    /// ([`packed_overflow`]): [`Synthesis::unplaced`]'s figures and the
    /// logic cells against the device's.
    pub fn unpacked(device: &Device, cells: &Cells, clock_ns: f64, over: Use) -> Synthesis {
        let mut s = Synthesis::unplaced(device, cells, clock_ns);
        s.netlist.push(over);
        s.overflow = overflow(device, &s.netlist);
        s
    }

    /// A netlist whose cells each fit in number but which nextpnr's placer
    /// cannot place ([`placer_limit`]'s `message`): [`Synthesis::unplaced`]'s
    /// figures.
    pub fn unplaceable(
        device: &Device,
        cells: &Cells,
        clock_ns: f64,
        message: String,
    ) -> Synthesis {
        let mut s = Synthesis::unplaced(device, cells, clock_ns);
        s.overflow = Some(message);
        s
    }

    /// A design refused from its estimate ([`estimate_overflow`]'s
    /// `message`), not synthesised: the estimate's LUTs, flip-flops,
    /// block RAMs and DSPs against the device's.
    pub fn estimated(
        device: &Device,
        estimate: &Estimate,
        clock_ns: f64,
        message: String,
    ) -> Synthesis {
        let mut s = Synthesis::unplaced(device, &Cells::new(), clock_ns);
        (s.lut, s.lc) = (estimate.lut, estimate.lc);
        (s.ff, s.bram, s.dsp) = (estimate.ff, estimate.bram, estimate.dsp);
        s.lut_ram = estimate.lut_ram;
        for u in &mut s.netlist {
            if u.what == "LUT" {
                u.what = device.family.logic_name();
            }
            u.used = match u.what {
                "LUT" | "LC" => estimate.logic(),
                "FF" => estimate.ff,
                "BRAM" => estimate.bram,
                "DSP" => estimate.dsp,
                "LUT RAM" => estimate.lut_ram,
                _ => u.used,
            };
        }
        s.overflow = Some(message);
        s.from_estimate = true;
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::target::device::lookup;

    #[test]
    fn reads_yosys_statistics_and_checks_the_fit() {
        let stat = r#"{"design": {"num_cells_by_type": {"SB_LUT4": 6000, "SB_DFFE": 13,
            "SB_DFF": 2, "SB_RAM40_4K": 31, "SB_CARRY": 4}}}"#;
        let cells = yosys_cells(stat).unwrap();
        let dev = lookup("ice40-up5k").unwrap();
        let uses = netlist_use(dev, &cells);
        assert_eq!(uses[0].used, 6000);
        assert_eq!(uses[1].used, 15);
        assert_eq!(uses[2].used, 31);
        let msg = overflow(dev, &uses).unwrap();
        assert_eq!(
            msg,
            "the design does not fit ice40-up5k: it needs 6000 LUT of 5280 (114%), 31 BRAM of 30 (103%)"
        );
        let unplaced = Synthesis::unplaced(dev, &cells, 30.0);
        assert_eq!(
            (unplaced.lut, unplaced.ff, unplaced.bram, unplaced.dsp),
            (6000, 15, 31, 0)
        );
        assert_eq!(unplaced.overflow.as_deref(), Some(msg.as_str()));
        assert_eq!(
            (unplaced.bitstream.as_deref(), unplaced.clock_met),
            (None, false)
        );
        assert_eq!(
            unplaced.describe(),
            format!(
                "resources (yosys, ice40-up5k sg48): 6000 LUT of 5280 (114%), 15 FF of 5280 (0%), \
                 31 BRAM of 30 (103%), 0 DSP of 8 (0%), not placed\n{msg}\n\
                 bitstream: none (the design does not fit)\n"
            )
        );
        let ecp5 = yosys_cells(r#"{"design": {"num_cells_by_type": {"LUT4": 3, "CCU2C": 2}}}"#);
        let uses = netlist_use(lookup("ecp5-25k").unwrap(), &ecp5.unwrap());
        assert_eq!(uses[0].used, 7);
        assert!(overflow(lookup("ecp5-25k").unwrap(), &uses).is_none());
        assert!(yosys_cells("{}").is_err());
    }

    #[test]
    fn a_netlist_nextpnr_cannot_pack_does_not_fit() {
        // durbin (i32, `[limits] mul = 2`) on the UP5K: its LUTs and
        // flip-flops fit, its logic cells do not.
        let dev = lookup("ice40-up5k").unwrap();
        let log = "Info: Running global placer\n\
                   ERROR: Failed to expand region (0, 0) |_> (25, 31) of 5434 ICESTORM_LCs\n";
        let over = packed_overflow(dev, log).unwrap();
        assert_eq!(over.describe(), "5434 LC of 5280 (103%)");
        assert!(packed_overflow(dev, "ERROR: Failed to route net 'x'\n").is_none());
        let within = "ERROR: Failed to expand region (0, 0) |_> (3, 3) of 40 ICESTORM_LCs";
        assert!(packed_overflow(dev, within).is_none());
        let stat = r#"{"design": {"num_cells_by_type": {"SB_LUT4": 3000, "SB_DFF": 3400}}}"#;
        let s = Synthesis::unpacked(dev, &yosys_cells(stat).unwrap(), 30.0, over);
        assert_eq!(
            s.overflow.as_deref(),
            Some("the design does not fit ice40-up5k: it needs 5434 LC of 5280 (103%)")
        );
        assert_eq!((s.lut, s.ff, s.bitstream), (3000, 3400, None));
    }

    #[test]
    fn a_netlist_nextpnr_cannot_place_does_not_fit() {
        // heat-3d (f32) on the ECP5 at 35 ns: yosys's 23,555 LUTs fit,
        // nextpnr packs them into more logic cells than the device has
        // and its placer gives up (nextpnr-ecp5's log, abridged).
        let dev = lookup("ecp5-25k").unwrap();
        let log = "Info: Device utilisation:\n\
                   Info: \t          TRELLIS_IO:     157/    197    79%\n\
                   Info: \t              DP16KD:       0/     56     0%\n\
                   Info: \t          MULT18X18D:      10/     28    35%\n\
                   Info: \t          TRELLIS_FF:    3939/  24288    16%\n\
                   Info: \t        TRELLIS_COMB:   24965/  24288   102%\n\
                   Info: \t        TRELLIS_RAMW:       0/   3036     0%\n\
                   \n\
                   Info: Placed 0 cells based on constraints.\n\
                   ERROR: Unable to find legal placement for all cells, design is probably at utilisation limit.\n";
        let packed = packed_use(dev, log);
        let described: Vec<String> = packed.iter().map(Use::describe).collect();
        assert_eq!(
            described,
            [
                "0 BRAM of 56 (0%)",
                "10 DSP of 28 (36%)",
                "3939 FF of 24288 (16%)",
                "24965 LUT of 24288 (103%)",
                "0 LUT RAM of 3036 (0%)"
            ]
        );
        let stat = r#"{"design": {"num_cells_by_type": {"CCU2C": 2403, "L6MUX21": 1454,
            "LUT4": 18749, "MULT18X18D": 10, "PFUMX": 3914, "TRELLIS_FF": 3939}}}"#;
        let cells = yosys_cells(stat).unwrap();
        let netlist = netlist_use(dev, &cells);
        assert!(overflow(dev, &netlist).is_none());
        let message = placer_limit(dev, log, &netlist).unwrap();
        assert_eq!(
            message,
            "the design does not fit ecp5-25k: nextpnr cannot place it, at 24965 LUT of 24288 (103%) \
             packed (Unable to find legal placement for all cells, design is probably at utilisation limit.)"
        );
        let s = Synthesis::unplaceable(dev, &cells, 35.0, message.clone());
        assert_eq!((s.lut, s.ff, s.dsp), (23555, 3939, 10));
        assert_eq!(
            (s.overflow.as_deref(), s.bitstream.as_deref()),
            (Some(message.as_str()), None)
        );
        assert!(s
            .describe()
            .contains("bitstream: none (the design does not fit)"));
        // With no utilisation in the log, yosys's busiest count; the
        // other placer error (no cells of a kind left) is a limit too.
        let bare = "ERROR: Unable to place cell 'x', no BELs remaining to implement cell type 'TRELLIS_COMB'\n";
        assert_eq!(
            placer_limit(dev, bare, &netlist).unwrap(),
            "the design does not fit ecp5-25k: nextpnr cannot place it, at 23555 LUT of 24288 (97%) \
             in yosys's netlist (Unable to place cell 'x', no BELs remaining to implement cell type 'TRELLIS_COMB')"
        );
        // iCE40: the logic cells.
        let up5k = lookup("ice40-up5k").unwrap();
        let ice = "Info: \t         ICESTORM_LC:    5200/   5280    98%\n\
                   Info: \t        ICESTORM_RAM:       0/     30     0%\n\
                   Info: \t        ICESTORM_DSP:       8/      8   100%\n\
                   ERROR: Unable to find legal placement for all cells, design is probably at utilisation limit.\n";
        assert_eq!(
            placer_limit(up5k, ice, &[]).unwrap(),
            "the design does not fit ice40-up5k: nextpnr cannot place it, at 5200 LC of 5280 (98%), \
             8 DSP of 8 (100%) packed (Unable to find legal placement for all cells, design is probably \
             at utilisation limit.)"
        );
        // Any other failure is the tool's.
        assert!(placer_limit(dev, "ERROR: Failed to route net 'x'\n", &netlist).is_none());
        assert!(placer_limit(
            dev,
            "Info: \t        TRELLIS_COMB:   24010/  24288    98%\n",
            &netlist
        )
        .is_none());
    }

    #[test]
    fn a_design_estimated_many_times_the_device_is_not_synthesised() {
        let up5k = lookup("ice40-up5k").unwrap();
        let logic = |lc: u64, dsp: u64, bram: u64| Estimate {
            lut: lc / 2,
            lc: Some(lc),
            dsp,
            bram,
            ..Estimate::default()
        };
        // adi (f32): 75,065 logic cells estimated, 14 times the device.
        let message = estimate_overflow(up5k, &logic(75_065, 0, 0)).unwrap();
        assert_eq!(
            message,
            "the design does not fit ice40-up5k: its estimate needs 75065 LC of 5280 (1422%), \
             more than 4 times the device, so it is not synthesised"
        );
        // Near the limit, and up to 4 times it, yosys decides.
        assert!(estimate_overflow(up5k, &logic(6_000, 0, 0)).is_none());
        assert!(estimate_overflow(up5k, &logic(4 * 5280, 0, 0)).is_none());
        assert!(estimate_overflow(up5k, &logic(4 * 5280 + 1, 0, 0)).is_some());
        // Block RAMs and DSPs are counted exactly: one over is refused.
        let brams = estimate_overflow(up5k, &logic(100, 0, 31)).unwrap();
        assert!(brams.contains("31 BRAM of 30"), "{brams}");
        assert!(estimate_overflow(up5k, &logic(100, 8, 30)).is_none());
        let dsps = estimate_overflow(up5k, &logic(100, 9, 0)).unwrap();
        assert!(
            dsps.contains("its estimate needs 9 DSP of 8 (112%)"),
            "{dsps}"
        );
        let estimate = Estimate {
            ff: 9_000,
            dsp: 72,
            period_ns: 40.0,
            fmax_mhz: 25.0,
            ..logic(75_065, 72, 0)
        };
        let message = estimate_overflow(up5k, &estimate).unwrap();
        let s = Synthesis::estimated(up5k, &estimate, 30.0, message.clone());
        assert!(s.from_estimate);
        assert_eq!((s.logic(), s.ff, s.dsp, s.bram), (75_065, 9_000, 72, 0));
        assert_eq!(
            s.describe(),
            format!(
                "resources (the estimate, ice40-up5k sg48): 75065 LC of 5280 (1422%), 9000 FF of 5280 (170%), \
                 0 BRAM of 30 (0%), 72 DSP of 8 (900%), not synthesised\n{message}\n\
                 bitstream: none (the design does not fit)\n"
            )
        );
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["from_estimate"], true);
        let placed = Synthesis::unplaced(up5k, &Cells::new(), 30.0);
        assert!(serde_json::to_value(&placed)
            .unwrap()
            .get("from_estimate")
            .is_none());
    }

    #[test]
    fn reads_nextpnr_reports() {
        let report = r#"{
          "fmax": {"clk": {"achieved": 96.5, "constraint": 50}},
          "utilization": {"ICESTORM_LC": {"available": 5280, "used": 64},
                          "SB_IO": {"available": 96, "used": 32}},
          "critical_paths": [
            {"from": "<async>", "to": "posedge clk", "path": []},
            {"from": "posedge clk", "to": "posedge clk", "path": [
              {"delay": 0.5, "type": "clk-to-q", "from": {"cell": "r1"}, "to": {"cell": "r1"}},
              {"delay": 2.0, "type": "routing", "net": "n1", "sources": ["k.sv:4.1-4.5"],
               "from": {"cell": "r1"}, "to": {"cell": "l1"}},
              {"delay": 1.5, "type": "logic", "from": {"cell": "l1"}, "to": {"cell": "l1"}},
              {"delay": 1.0, "type": "routing", "net": "n2", "sources": [],
               "from": {"cell": "l1"}, "to": {"cell": "r2"}}]}]}"#;
        let pnr = nextpnr_report(report).unwrap();
        assert_eq!(pnr.fmax_mhz, Some(96.5));
        assert_eq!(pnr.used["SB_IO"], 32);
        let p = pnr.critical_path.clone().unwrap();
        assert_eq!(
            (p.from.as_str(), p.to.as_str(), p.delay_ns),
            ("r1", "r2", 5.0)
        );
        assert_eq!(p.nets[0].source.as_deref(), Some("k.sv:4.1-4.5"));
        assert_eq!(p.nets[1].source, None);
        assert_eq!(
            p.signals(),
            vec![
                ("n1".to_string(), Some("k.sv:4.1-4.5".to_string())),
                ("n2".to_string(), None)
            ]
        );
        let dev = lookup("ice40-up5k").unwrap();
        let s = Synthesis::new(dev, &Cells::new(), pnr.clone(), 10.0);
        // iCE40 places logic cells: the netlist's LUT4s beside them.
        assert_eq!((s.lc, s.lut, s.io), (Some(64), 0, 32));
        assert!(!s.clock_met);
        assert!((s.slack_ns.unwrap() - (10.0 - 1000.0 / 96.5)).abs() < 1e-9);
        assert!(
            s.describe().contains("MISSED by 0.36 ns"),
            "{}",
            s.describe()
        );
        let met = Synthesis::new(dev, &Cells::new(), pnr, 20.0);
        assert!(met.clock_met);
        assert!(nextpnr_report("not json").is_err());
    }

    #[test]
    fn reads_icetime_estimates() {
        let log = "// Timing estimate: 24.60 ns (40.65 MHz)\n// Checking 20.00 ns";
        assert_eq!(icetime_mhz(log), Some(40.65));
        assert_eq!(icetime_mhz("nothing"), None);
    }
}
