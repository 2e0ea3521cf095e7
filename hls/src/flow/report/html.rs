//! `report.html`: one self-contained page (no file or network fetched)
//! that draws `F.json`'s figures: the latency and the roofline, the
//! resources against the device (estimated, and measured with
//! `--bitstream`), the loop tree with trip counts, II and depth, and each
//! pipelined loop's schedule as a Gantt chart (its operations against
//! the steps of an iteration, coloured by operator class). The JSON is
//! embedded as data; the page's script draws it once loaded and marks
//! the body `data-rendered="ok"` when done.

use super::Json;

/// The page of report `j`.
pub fn page(j: &Json) -> String {
    let data = serde_json::to_string(j).unwrap_or_else(|_| "{}".to_string());
    // Nothing in the data may close the script element it sits in.
    let data = data.replace("</", "<\\/");
    let title = escape(&format!("silica hls report: {}", j.top));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n<div id=\"summary\"></div>\n\
         <h2>Roofline</h2>\n<div id=\"roofline\"></div>\n\
         <h2>Resources</h2>\n<div id=\"resources\"></div>\n\
         <h2>Loops</h2>\n<div id=\"loops\"></div>\n\
         <h2>Pipeline schedules</h2>\n<div id=\"schedules\"></div>\n\
         <script type=\"application/json\" id=\"report\">{data}</script>\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n"
    )
}

/// `text` with the characters HTML gives a meaning escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
th { background: #eee; }
td.path { text-align: left; font-family: monospace; }
svg text { font-size: 11px; font-family: monospace; }
.legend span { display: inline-block; margin-right: 1em; }
.legend i { display: inline-block; width: 10px; height: 10px; margin-right: 3px; }
";

const SCRIPT: &str = r##"
(function () {
  const r = JSON.parse(document.getElementById("report").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                   "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"];
  const classes = [];
  function colour(c) {
    if (!classes.includes(c)) classes.push(c);
    return palette[classes.indexOf(c) % palette.length];
  }
  // Horizontal bars: [label, value, of, class] rows against a common scale.
  function bars(rows, scale) {
    const width = 520, row = 22, left = 150;
    const s = svg("svg", { width: width + left + 160, height: rows.length * row + 4 });
    rows.forEach(function (b, i) {
      const w = scale > 0 ? Math.max(1, Math.round(width * Math.min(b[1], scale) / scale)) : 1;
      s.appendChild(svg("text", { x: 0, y: i * row + 15 }, b[0]));
      s.appendChild(svg("rect", { class: "bar " + b[3], x: left, y: i * row + 3, width: w,
                                   height: row - 6, fill: b[1] > b[2] ? "#e15759" : "#4e79a7" }));
      s.appendChild(svg("text", { x: left + w + 6, y: i * row + 15 },
                        b[1].toLocaleString() + (b[2] ? " of " + b[2].toLocaleString() : "")));
    });
    return s;
  }
  const lat = r.latency.min === r.latency.max && r.latency.min !== null
    ? r.latency.min + " cycles" : "from " + r.latency.min + " to " + r.latency.max + " cycles";
  document.getElementById("summary").appendChild(el("p", {},
    "target " + r.target + " at " + r.clock_ns + " ns" + (r.clock_default ? " (its default clock)" : "") +
    "; latency " + lat));
  const roof = document.getElementById("roofline");
  if (r.roofline) {
    const f = r.roofline;
    roof.appendChild(el("p", {}, (100 * f.fraction).toFixed(1) + "% of the bound reached"));
    const top = Math.max(f.cycles, f.compute_cycles, f.memory_cycles);
    roof.appendChild(bars([["compute bound", f.compute_cycles, 0, "roofline"],
                           ["memory bound", f.memory_cycles, 0, "roofline"],
                           ["design", f.cycles, 0, "roofline"]], top));
  } else {
    roof.appendChild(el("p", {}, "no roofline (no device, or bounds the data decides)"));
  }
  const res = r.resources, dev = res.device, est = res.estimate;
  const logic = dev.logic;
  function uses(figures) {
    return [[logic, figures.lc !== undefined ? figures.lc : figures.lut, dev.luts],
            ["FF", figures.ff, dev.ffs], ["DSP", figures.dsp, dev.dsps],
            ["BRAM", figures.bram, dev.brams]];
  }
  const rows = uses(est).map(function (u) { return [u[0] + " (estimate)", u[1], u[2], "resource"]; });
  if (res.synthesis) {
    uses(res.synthesis).forEach(function (u) { rows.push([u[0] + " (measured)", u[1], u[2], "resource"]); });
  }
  const resources = document.getElementById("resources");
  resources.appendChild(el("p", {}, dev.name + ": each bar against the device's capacity"));
  rows.forEach(function (row) {
    resources.appendChild(bars([row], Math.max(row[2], row[1])));
  });
  const table = el("table");
  const head = el("tr");
  ["loop", "trip", "pipelined", "II", "ResMII", "RecMII", "depth"].forEach(function (h) {
    head.appendChild(el("th", {}, h));
  });
  table.appendChild(head);
  function cell(v) { return v === null || v === undefined ? "" : String(v); }
  r.loops.forEach(function (l) {
    const tr = el("tr");
    tr.appendChild(el("td", { class: "path" }, l.path));
    [l.trip_count, l.pipelined ? "yes" : "no", l.ii, l.res_mii, l.rec_mii, l.depth].forEach(function (v) {
      tr.appendChild(el("td", {}, cell(v)));
    });
    table.appendChild(tr);
  });
  document.getElementById("loops").appendChild(table);
  const schedules = document.getElementById("schedules");
  r.loops.filter(function (l) { return l.schedule && l.schedule.length; }).forEach(function (l) {
    schedules.appendChild(el("h3", {}, l.path + ": II " + l.ii + ", depth " + l.depth));
    const ops = l.schedule;
    const steps = Math.max(l.depth, ...ops.map(function (o) { return o.step + Math.max(o.latency, 1); }));
    const cw = Math.max(12, Math.min(40, Math.floor(600 / steps))), rh = 16, left = 90, top = 18;
    const g = svg("svg", { class: "gantt", width: left + steps * cw + 10, height: top + ops.length * rh + 4 });
    for (let t = 0; t <= steps; t++) {
      g.appendChild(svg("line", { x1: left + t * cw, x2: left + t * cw, y1: top - 4,
                                  y2: top + ops.length * rh, stroke: t % l.ii === 0 ? "#999" : "#ddd" }));
      if (t < steps) g.appendChild(svg("text", { x: left + t * cw + 2, y: 12 }, String(t)));
    }
    ops.forEach(function (o, i) {
      const y = top + i * rh;
      g.appendChild(svg("text", { x: 0, y: y + 12 }, o.name));
      const bar = svg("rect", { class: "bar op", "data-op": o.name, x: left + o.step * cw + 1, y: y + 2,
                                width: Math.max(o.latency, 1) * cw - 2, height: rh - 4, fill: colour(o.class) });
      bar.appendChild(svg("title", {}, o.name + ": step " + o.step + ", latency " + o.latency));
      g.appendChild(bar);
    });
    schedules.appendChild(g);
  });
  if (!schedules.children.length) schedules.appendChild(el("p", {}, "no pipelined loop"));
  const legend = el("p", { class: "legend" });
  classes.forEach(function (c) {
    const s = el("span");
    s.appendChild(el("i", { style: "background:" + colour(c) }));
    s.appendChild(document.createTextNode(c));
    legend.appendChild(s);
  });
  schedules.appendChild(legend);
  document.body.dataset.rendered = "ok";
})();
"##;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
