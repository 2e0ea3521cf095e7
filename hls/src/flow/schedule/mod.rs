//! Scheduling: every straight-line block and every pipelined loop body
//! becomes a problem of the scheduling library. Operations take their
//! latency and delay from the target's operator library; each memory's
//! single port is a resource of limit 1; combinational paths longer than
//! the clock period are cut by the library's chain-breaking pairs (each
//! modelled as a latency-1 operation between its ends, so list and modulo
//! schedulers honour them). Blocks are list-scheduled; pipelined loops are
//! modulo-scheduled (`modulo.rs`).

pub mod binding;
pub mod dataflow;
pub mod dma_timing;
pub mod dump;
pub mod exclusive;
pub mod figures;
pub mod floats;
mod modulo;
pub mod overlap;
pub mod predicated;
mod states;
pub mod timeline;

pub use states::needs_head;
pub(crate) mod problem;

use crate::flow::analysis::deps::MemDep;
use crate::model::kernel::{Group, Item, Kernel};
use crate::model::target::library::Library;
use floats::FloatChoices;
use problem::ProblemBuilder;
use silica_scheduling::{schedule, Algorithm, Options};

pub use modulo::PipeSchedule;

/// The schedule of a whole kernel.
#[derive(Clone, Debug)]
pub struct Schedules {
    /// Start step of each node within its block or iteration.
    pub start: Vec<u32>,
    /// Latency of each node (cycles from start to result).
    pub latency: Vec<u32>,
    /// Controller states of each sequential block (0 for pipelined bodies).
    pub states: Vec<u32>,
    /// The modulo schedule of each pipelined loop.
    pub pipes: Vec<Option<PipeSchedule>>,
    /// Cycles before its last iteration has drained that each pipelined
    /// loop's state is left, so that what follows overlaps the drain
    /// (`schedule/overlap.rs`; 0: none, and for sequential loops).
    pub lead: Vec<u32>,
    /// The start of each task of each dataflow group of the kernel
    /// (`dataflow.rs`), from the first cycle of its task 0.
    pub starts: Vec<Vec<u64>>,
    /// The groups' channels (arrays kept in circular buffers).
    pub channels: Vec<dataflow::Channel>,
    /// Arrays whose `depth` directive loses a word, with why.
    pub too_shallow: Vec<(usize, String)>,
}

impl Schedules {
    /// The step at which a node's result is valid.
    pub fn ready(&self, n: usize) -> u32 {
        self.start[n] + self.latency[n]
    }
}

/// Schedules every block and pipelined loop of `k` at `clock_ns`.
/// Pipelined loops whose body cannot be modulo-scheduled fall back to
/// sequential execution (noted in the returned list).
/// A kernel with dataflow groups is also scheduled without them, and
/// runs its nests one after another where that is no slower.
pub fn schedule_kernel(
    k: &mut Kernel,
    lib: &Library,
    floats: &FloatChoices,
    clock_ns: f64,
    memory_deps: &[Vec<MemDep>],
) -> Result<(Schedules, Vec<String>), String> {
    k.dataflow.clear();
    if k.groups.is_empty() {
        return schedule_as_grouped(k, lib, floats, clock_ns, memory_deps);
    }
    // Each task takes its share of the ports of the memories it shares;
    // or, where the first task shares some with others, it takes them all
    // (a copy filling a buffer a word a cycle) and the others share them:
    // whichever runs sooner.
    let mut policies = vec![None];
    k.dataflow = k.groups.clone();
    if k.port_shares().first_task_shares(k) {
        policies.push(Some(0));
    }
    k.dataflow.clear();
    let mut best: Option<(Kernel, Schedules, Vec<String>, Option<u64>)> = None;
    for exclusive in policies {
        let mut grouped = k.clone();
        grouped.dataflow = k.groups.iter().map(|&g| Group { exclusive, ..g }).collect();
        let (s, notes) = schedule_as_grouped(&mut grouped, lib, floats, clock_ns, memory_deps)?;
        if grouped.dataflow.is_empty() {
            // The timelines cannot be walked, whatever the ports.
            *k = grouped;
            return Ok((s, notes));
        }
        let latency = figures::figures(&grouped, &s).latency;
        let sooner = |b: &(Kernel, Schedules, Vec<String>, Option<u64>)| match (latency, b.3) {
            (Some(a), Some(b)) => a < b,
            (a, b) => a.is_some() && b.is_none(),
        };
        if best.as_ref().is_none_or(sooner) {
            best = Some((grouped, s, notes, latency));
        }
    }
    let (grouped, s, mut notes, at_once) = best.expect("a policy was tried");
    let (ps, mut pnotes) = schedule_as_grouped(k, lib, floats, clock_ns, memory_deps)?;
    let after = figures::figures(k, &ps).latency;
    match (at_once, after) {
        (Some(a), Some(b)) if b <= a => {
            pnotes.push(format!(
                "dataflow: the loop nests run one after another ({b} cycles; at once, {a})"
            ));
            Ok((ps, pnotes))
        }
        _ => {
            if let (Some(a), Some(b)) = (at_once, after) {
                notes.push(format!(
                    "dataflow: the loop nests run at once ({a} cycles; one after another, {b})"
                ));
            }
            *k = grouped;
            Ok((s, notes))
        }
    }
}

/// [`schedule_kernel`] with the kernel's dataflow groups as they are.
fn schedule_as_grouped(
    k: &mut Kernel,
    lib: &Library,
    floats: &FloatChoices,
    clock_ns: f64,
    memory_deps: &[Vec<MemDep>],
) -> Result<(Schedules, Vec<String>), String> {
    let mut s = Schedules {
        start: vec![0; k.nodes.len()],
        latency: vec![0; k.nodes.len()],
        states: vec![0; k.blocks.len()],
        pipes: vec![None; k.loops.len()],
        lead: vec![0; k.loops.len()],
        starts: Vec::new(),
        channels: Vec::new(),
        too_shallow: Vec::new(),
    };
    let mut notes = Vec::new();
    for (l, deps) in memory_deps.iter().enumerate().take(k.loops.len()) {
        if !k.loops[l].pipelined {
            continue;
        }
        match modulo::schedule_loop(k, l, (lib, floats), clock_ns, &mut s, deps) {
            Ok(p) => s.pipes[l] = Some(p),
            // A flattened nest has no sequential form to fall back to.
            Err(why) if !k.loops[l].flat.is_empty() => {
                return Err(format!("flattened loop {}: {why}", k.loops[l].path));
            }
            Err(why) => {
                notes.push(format!("loop {} is not pipelined: {why}", k.loops[l].path));
                k.loops[l].pipelined = false;
            }
        }
    }
    for b in 0..k.blocks.len() {
        if k.pipelined_loop_of(b).is_none() {
            schedule_block(k, b, (lib, floats), clock_ns, &mut s)?;
        }
    }
    notes.extend(ProblemBuilder::new(k, (lib, floats), clock_ns, false).too_slow(0..k.nodes.len()));
    s.lead = crate::flow::schedule::overlap::leads(k, &s);
    place_tasks(k, &mut s, &mut notes);
    Ok((s, notes))
}

/// Places the tasks of every dataflow group (`dataflow.rs`); a group
/// whose timelines cannot be walked runs nest after nest (a note).
fn place_tasks(k: &mut Kernel, s: &mut Schedules, notes: &mut Vec<String>) {
    let bound = binding::bind(k, s);
    let placed = dataflow::starts(k, s, &bound);
    let mut kept = Vec::new();
    for m in &mut k.memories {
        m.channel = None;
    }
    for (g, placed) in k.dataflow.clone().into_iter().zip(placed) {
        match placed {
            Some(p) => {
                s.too_shallow.extend(p.too_shallow);
                for mut c in p.channels {
                    k.memories[c.memory].channel = Some(c.depth);
                    c.group = kept.len();
                    s.channels.push(c);
                }
                kept.push(g);
                s.starts.push(p.starts);
            }
            None => notes.push(format!(
                "the loop nests at {} run one after another: their timing depends on data or is too long to walk",
                g.items()
                    .filter_map(|i| match k.body[i] {
                        Item::Loop(l) => Some(k.loops[l].path.clone()),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    k.dataflow = kept;
}

/// List-schedules block `b` and records its start times and states.
fn schedule_block(
    k: &Kernel,
    b: usize,
    operators: (&Library, &FloatChoices),
    clock_ns: f64,
    s: &mut Schedules,
) -> Result<(), String> {
    let nodes = &k.blocks[b];
    let mut pb = ProblemBuilder::new(k, operators, clock_ns, false);
    for &n in nodes {
        pb.add_node(n)?;
    }
    pb.add_value_and_memory_order(nodes);
    pb.time_ram_to_dsp_nets();
    pb.break_long_chains();
    let p = pb.problem();
    let sol = schedule(p, &Options::new(Algorithm::List)).map_err(|e| e.message)?;
    let mut states = 1;
    for (i, &n) in nodes.iter().enumerate() {
        let t = sol.schedule.start_times[i];
        let lat = pb.latency_of(i);
        s.start[n] = t;
        s.latency[n] = lat;
        // A value must be captured in the state where it is ready; a store
        // completes at the end of its state.
        let end = if k.nodes[n].width == 0 {
            t + 1
        } else {
            t + lat + 1
        };
        states = states.max(end);
    }
    s.states[b] = states;
    Ok(())
}

/// Logs what became of each `pipeline` directive that the earlier stages
/// did not settle: the II reached against the one asked for (with what
/// bounds it, when it is more), or why the loop is not pipelined.
pub fn log_pipeline_directives(
    k: &Kernel,
    s: &Schedules,
    d: &crate::model::directives::Directives,
    log: &mut crate::model::directives::Log,
) {
    use crate::model::directives::Pipeline;
    let mut asked: Vec<_> = d
        .loops
        .iter()
        .filter_map(|(op, dl)| dl.pipeline.clone().map(|p| (*op, p)))
        .collect();
    asked.sort_by_key(|(op, _)| d.loop_paths.get(op).cloned());
    for (op, set) in asked {
        let path = d.loop_paths.get(&op).cloned().unwrap_or_default();
        let directive = set.value.describe();
        if log
            .outcomes
            .iter()
            .any(|o| o.subject == path && o.directive == directive)
        {
            continue;
        }
        let Some(l) = k.loops.iter().position(|lp| lp.op == op) else {
            let why = "the loop was unrolled away, or left with nothing to do";
            log.refused(&set, &path, directive, why.into());
            continue;
        };
        let owner = k.counter_owner(l);
        if owner != l {
            log.honoured(
                &set,
                &path,
                directive,
                format!("flattened into {}, pipelined with it", k.loops[owner].path),
            );
            continue;
        }
        match (set.value, &s.pipes[l]) {
            (Pipeline::Off, None) => {
                log.honoured(&set, &path, directive, "sequential".into());
            }
            (Pipeline::Ii(n), Some(p)) if p.ii > n => {
                let mut why: Vec<&str> = p
                    .bounds
                    .iter()
                    .filter(|(b, _)| *b > n)
                    .map(|(_, w)| w.as_str())
                    .collect();
                if why.is_empty() {
                    why.push("the modulo scheduler found no schedule at that II");
                }
                log.refused(
                    &set,
                    &path,
                    directive,
                    format!(
                        "loop cannot be pipelined at II={n}: {}; pipelined at II {}",
                        why.join("; "),
                        p.ii
                    ),
                );
            }
            (_, Some(p)) => {
                log.honoured(
                    &set,
                    &path,
                    directive,
                    format!(
                        "pipelined at II {} (ResMII {}, RecMII {})",
                        p.ii, p.res_mii, p.rec_mii
                    ),
                );
            }
            (_, None) => {
                let why = if k.loops[l].body.iter().any(|it| matches!(it, Item::Loop(_))) {
                    "it has loops inside".to_string()
                } else {
                    "the modulo scheduler failed; the loop runs sequentially".to_string()
                };
                log.refused(&set, &path, directive, why);
            }
        }
    }
}
