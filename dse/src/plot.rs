//! `pareto.svg` with `plotters`' SVG backend (no font or system
//! libraries: text is left to the SVG viewer): latency against LUTs,
//! every design in grey, the Pareto points marked by what they use (a
//! circle: LUTs only; a triangle: DSPs; a square: block RAM), and for
//! validated points a line from the estimate to the measured point (a
//! cross), labelled by the validation's level.

use crate::eval::{Metrics, Outcome};
use crate::{Params, Report};
use plotters::prelude::*;

/// The plot's SVG text.
pub fn svg(p: &Params, report: &Report) -> String {
    let mut out = String::new();
    if let Err(e) = draw(p, report, &mut out) {
        return format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"20\">no plot: {e}</text></svg>\n");
    }
    out
}

fn draw(p: &Params, report: &Report, out: &mut String) -> Result<(), String> {
    let all: Vec<&Metrics> = report.records.iter().filter_map(|r| r.metrics()).collect();
    let validated: Vec<(&Metrics, &Metrics)> = report
        .records
        .iter()
        .filter_map(|r| match (r.metrics(), &r.validated) {
            (Some(e), Some(Outcome::Ok { metrics })) => Some((e, metrics)),
            _ => None,
        })
        .collect();
    let xs = all
        .iter()
        .map(|m| m.latency_cycles as f64)
        .chain(validated.iter().map(|(_, v)| v.latency_cycles as f64));
    let ys = all
        .iter()
        .map(|m| m.lut as f64)
        .chain(validated.iter().map(|(_, v)| v.lut as f64));
    let (x0, x1) = bounds(xs);
    let (y0, y1) = bounds(ys);
    let root = SVGBackend::with_string(out, (800, 560)).into_drawing_area();
    let e = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|x| e(&x))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!("silica dse: {} ({} points)", p.input.top, all.len()),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d((x0..x1).log_scale(), y0..y1)
        .map_err(|x| e(&x))?;
    chart
        .configure_mesh()
        .x_desc("latency (cycles)")
        .y_desc("LUT")
        .draw()
        .map_err(|x| e(&x))?;
    let grey = RGBColor(170, 170, 170);
    chart
        .draw_series(
            all.iter()
                .map(|m| Circle::new((m.latency_cycles as f64, m.lut as f64), 2, grey.filled())),
        )
        .map_err(|x| e(&x))?
        .label("design")
        .legend(move |(x, y)| Circle::new((x, y), 2, grey.filled()));
    let front: Vec<&Metrics> = report
        .front
        .iter()
        .filter_map(|&i| report.records[i].metrics())
        .collect();
    let at = |m: &Metrics| (m.latency_cycles as f64, m.lut as f64);
    let lut_only = front.iter().filter(|m| m.dsp == 0 && m.bram == 0);
    let dsp = front.iter().filter(|m| m.dsp > 0 && m.bram == 0);
    let bram = front.iter().filter(|m| m.bram > 0);
    chart
        .draw_series(lut_only.map(|m| Circle::new(at(m), 5, BLUE.filled())))
        .map_err(|x| e(&x))?
        .label("Pareto, LUTs only")
        .legend(|(x, y)| Circle::new((x, y), 5, BLUE.filled()));
    chart
        .draw_series(dsp.map(|m| TriangleMarker::new(at(m), 7, RED.filled())))
        .map_err(|x| e(&x))?
        .label("Pareto, with DSPs")
        .legend(|(x, y)| TriangleMarker::new((x, y), 7, RED.filled()));
    chart
        .draw_series(bram.map(|m| {
            Rectangle::new(
                [
                    (
                        m.latency_cycles as f64 * 0.97,
                        m.lut as f64 - 0.01 * (y1 - y0),
                    ),
                    (
                        m.latency_cycles as f64 * 1.03,
                        m.lut as f64 + 0.01 * (y1 - y0),
                    ),
                ],
                GREEN.filled(),
            )
        }))
        .map_err(|x| e(&x))?
        .label("Pareto, with block RAM")
        .legend(|(x, y)| Rectangle::new([(x - 5, y - 5), (x + 5, y + 5)], GREEN.filled()));
    if !validated.is_empty() {
        chart
            .draw_series(
                validated.iter().map(|(est, pnr)| {
                    PathElement::new(vec![at(est), at(pnr)], BLACK.stroke_width(1))
                }),
            )
            .map_err(|x| e(&x))?
            .label(match p.validate_level {
                crate::eval::Level::Pnr => "estimate to nextpnr (x)",
                _ => "estimate to yosys (x)",
            })
            .legend(|(x, y)| PathElement::new(vec![(x - 8, y), (x + 8, y)], BLACK));
        chart
            .draw_series(
                validated
                    .iter()
                    .map(|(_, pnr)| Cross::new(at(pnr), 5, BLACK.stroke_width(2))),
            )
            .map_err(|x| e(&x))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|x| e(&x))?;
    root.present().map_err(|x| e(&x))?;
    drop(chart);
    drop(root);
    Ok(())
}

/// A range around the values, never empty (log-safe: above 0).
fn bounds(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !lo.is_finite() {
        return (1.0, 10.0);
    }
    let lo = (lo * 0.9).max(0.5);
    let hi = (hi * 1.1).max(lo * 2.0);
    (lo, hi)
}
