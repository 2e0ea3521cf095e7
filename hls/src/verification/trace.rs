//! `--trace`: a co-simulated run as a trace that ui.perfetto.dev (and
//! chrome://tracing) opens: Chrome's JSON trace events, read off the
//! run's waveform (`F.vcd`'s ports and controller state registers). A
//! track per controller thread, whose slices are what its states run (a
//! loop's path, the function's body, a dataflow wait or join), a track
//! per loop (a slice while it or a loop inside it runs), and a track per
//! memory port, whose slices are its reads and writes (runs of
//! consecutive cycles of one kind merged, the first address and the
//! count in their arguments); from the start cycle to the done cycle, in
//! microseconds at the design's clock.

use crate::flow::construct::control::ControllerStates;
use crate::model::interface::{names, Interface};
use serde_json::{json, Value};
use std::collections::HashMap;

/// The trace of the run whose waveform is `vcd` (sampled before each
/// rising edge, the testbench's times `10 * cycle`), for the design of
/// `iface` with controller `states`, clocked at `clock_ns`.
pub fn chrome_trace(
    vcd: &str,
    iface: &Interface,
    states: &ControllerStates,
    clock_ns: f64,
) -> Result<String, String> {
    let mut wanted: Vec<String> = vec![names::START.into(), names::DONE.into()];
    wanted.extend(states.registers.iter().map(|(r, _)| r.clone()));
    let ports: Vec<(String, u32)> = iface
        .memories()
        .filter(|(_, m)| !m.streamed)
        .flat_map(|(a, m)| (0..m.ports).map(move |p| (a.name.clone(), p)))
        .collect();
    for (m, p) in &ports {
        wanted.extend([names::ce(m, *p), names::we(m, *p), names::address(m, *p)]);
    }
    let samples = sample(vcd, &wanted)?;
    let value = |cycle: &HashMap<String, u64>, name: &str| cycle.get(name).copied().unwrap_or(0);
    let first = samples
        .iter()
        .position(|c| value(c, names::START) != 0)
        .ok_or("the waveform has no start")?;
    let last = (first..samples.len())
        .find(|&c| c > first && value(&samples[c], names::DONE) != 0)
        .unwrap_or(samples.len() - 1);
    let run = &samples[first..=last];
    // Microseconds, to the picosecond.
    let us = |cycle: usize| (cycle as f64 * clock_ns).round() / 1000.0;
    let mut events = vec![json!({
        "name": "process_name", "ph": "M", "pid": 1,
        "args": {"name": format!("{} (co-simulation)", iface.top)}
    })];
    let mut track = 0;
    // A slice a run of cycles of one kind: (name, an argument's key and
    // its value in the run's first cycle).
    type Kind = Option<(String, &'static str, u64)>;
    let mut slices = |events: &mut Vec<Value>, name: &str, kinds: Vec<Kind>| {
        track += 1;
        events.push(json!({"name": "thread_name", "ph": "M", "pid": 1, "tid": track, "args": {"name": name}}));
        let mut start = 0;
        while start < kinds.len() {
            let mut end = start + 1;
            while end < kinds.len()
                && kinds[end].as_ref().map(|k| &k.0) == kinds[start].as_ref().map(|k| &k.0)
            {
                end += 1;
            }
            if let Some((kind, key, first)) = &kinds[start] {
                events.push(json!({
                    "name": kind, "ph": "X", "pid": 1, "tid": track,
                    "ts": us(start), "dur": us(end - start),
                    "args": {"cycle": start, "cycles": end - start, *key: first}
                }));
            }
            start = end;
        }
    };
    // What each thread runs in each cycle of the run.
    let running: Vec<Vec<(String, u64)>> = states
        .registers
        .iter()
        .map(|(register, idle)| {
            run.iter()
                .map(|c| {
                    let state = value(c, register) ^ u64::from(*idle);
                    let label = states.labels.get(state as usize).cloned();
                    (label.unwrap_or_default(), state)
                })
                .collect()
        })
        .collect();
    for ((register, _), thread) in states.registers.iter().zip(&running) {
        let kinds = thread
            .iter()
            .map(|(label, state)| (label != "idle").then(|| (label.clone(), "state", *state)))
            .collect();
        let name = if register == "state" {
            "controller".to_string()
        } else {
            format!("controller ({register})")
        };
        slices(&mut events, &name, kinds);
    }
    // Every loop a state runs, and the loops around it.
    let mut loops = std::collections::BTreeSet::new();
    for label in states.labels.iter().filter(|l| l.contains('/')) {
        let mut path = label.as_str();
        while path.contains('/') {
            loops.insert(path.to_string());
            path = path.rsplit_once('/').map_or("", |(outer, _)| outer);
        }
    }
    for path in &loops {
        let inside = format!("{path}/");
        let kinds = (0..run.len())
            .map(|c| {
                let threads = running.iter().map(|t| &t[c].0);
                let runs = threads
                    .filter(|l| *l == path || l.starts_with(&inside))
                    .count();
                (runs > 0).then(|| (path.clone(), "threads", runs as u64))
            })
            .collect();
        slices(&mut events, &format!("loop {path}"), kinds);
    }
    for (m, p) in &ports {
        let (ce, we, address) = (names::ce(m, *p), names::we(m, *p), names::address(m, *p));
        let kinds = run
            .iter()
            .map(|c| {
                let kind = if value(c, &we) != 0 { "write" } else { "read" };
                (value(c, &ce) != 0).then(|| (kind.to_string(), "address", value(c, &address)))
            })
            .collect();
        slices(&mut events, &format!("{m} port {p}"), kinds);
    }
    let lines: Vec<String> = events.iter().map(Value::to_string).collect();
    Ok(format!(
        "{{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n{}\n]}}\n",
        lines.join(",\n")
    ))
}

/// The values of the signals named `wanted` (their last name component)
/// at each time that is a multiple of 10, in order: one map a cycle.
fn sample(vcd: &str, wanted: &[String]) -> Result<Vec<HashMap<String, u64>>, String> {
    // An identifier code may stand for several signals (Verilator gives
    // equal signals one).
    let mut ids: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut words = vcd.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            "$var" => {
                let (_kind, _width, id, name) =
                    (words.next(), words.next(), words.next(), words.next());
                if let (Some(id), Some(name)) = (id, name) {
                    let known = ids.values().flatten().any(|&n| n == name);
                    if wanted.iter().any(|n| n == name) && !known {
                        ids.entry(id).or_default().push(name);
                    }
                }
            }
            "$enddefinitions" => break,
            _ => {}
        }
    }
    let body = vcd
        .split_once("$enddefinitions")
        .map(|(_, b)| b)
        .ok_or("the waveform has no definitions")?;
    let mut now: HashMap<String, u64> = HashMap::new();
    let mut out = Vec::new();
    let mut time: Option<u64> = None;
    let record =
        |time: Option<u64>, now: &HashMap<String, u64>, out: &mut Vec<HashMap<String, u64>>| {
            if time.is_some_and(|t| t % 10 == 0) {
                out.push(now.clone());
            }
        };
    let mut tokens = body.split_whitespace();
    while let Some(t) = tokens.next() {
        if let Some(stamp) = t.strip_prefix('#') {
            record(time, &now, &mut out);
            time = stamp.parse().ok();
        } else if let Some(bits) = t.strip_prefix('b') {
            let id = tokens.next().unwrap_or_default();
            for name in ids.get(id).into_iter().flatten() {
                now.insert(name.to_string(), u64::from_str_radix(bits, 2).unwrap_or(0));
            }
        } else if let Some(bit) = t.chars().next().filter(|c| "01xzXZ".contains(*c)) {
            for name in ids.get(&t[1..]).into_iter().flatten() {
                now.insert(name.to_string(), u64::from(bit == '1'));
            }
        }
    }
    record(time, &now, &mut out);
    Ok(out)
}
