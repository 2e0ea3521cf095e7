//! `dataflow = true`: the loop nests of the function's body as tasks that
//! run at once (`Kernel::dataflow`). A group is a run of consecutive
//! nests of the body, each holding only loops and blocks (no call, DMA
//! operation or `scf.while`), none reading a value another of the run
//! computes (its memories are how it hears from them). An array that two
//! tasks of a group use gets a second port, so that each task has one of
//! its own (`schedule/binding.rs`). When each task starts is decided
//! after scheduling, from the tasks' timelines (`schedule/dataflow.rs`).

use crate::model::directives::{Directives, Log};
use crate::model::interface::Interface;
use crate::model::kernel::{BlockId, Group, Item, Kernel, LoopId, MemId, Val};
use rustc_hash::FxHashSet;

/// What one nest of the body holds.
#[derive(Default)]
struct Nest {
    loops: FxHashSet<LoopId>,
    blocks: FxHashSet<BlockId>,
    /// Whether it holds only loops (with static exits) and blocks.
    plain: bool,
}

impl Nest {
    fn of(k: &Kernel, l: LoopId) -> Nest {
        let mut n = Nest {
            plain: true,
            ..Nest::default()
        };
        n.add_loop(k, l);
        n
    }

    fn add_loop(&mut self, k: &Kernel, l: LoopId) {
        self.loops.insert(l);
        self.loops.extend(k.loops[l].flat.iter().copied());
        self.plain &= k.loops[l].test.is_none();
        for it in &k.loops[l].body {
            match *it {
                Item::Block(b) => {
                    self.blocks.insert(b);
                }
                Item::Loop(m) => self.add_loop(k, m),
                Item::Call(_) | Item::Dma(_) => self.plain = false,
            }
        }
    }

    fn defines(&self, k: &Kernel, v: Val) -> bool {
        match v {
            Val::Iv(l) | Val::Carried(l, _) => self.loops.contains(&l),
            Val::Node(n) => self.blocks.contains(&k.nodes[n].block),
            _ => false,
        }
    }

    /// Every value the nest reads.
    fn reads(&self, k: &Kernel) -> Vec<Val> {
        let mut out: Vec<Val> = self
            .blocks
            .iter()
            .flat_map(|&b| k.blocks[b].iter().flat_map(|&n| k.nodes[n].args.clone()))
            .collect();
        for &l in &self.loops {
            let lp = &k.loops[l];
            out.extend(lp.lower.operands.iter().chain(&lp.upper.operands));
            out.extend(lp.inits.iter().chain(&lp.yields));
        }
        out
    }

    fn memories(&self, k: &Kernel) -> FxHashSet<MemId> {
        self.blocks
            .iter()
            .flat_map(|&b| k.blocks[b].iter().filter_map(|&n| k.nodes[n].op.memory()))
            .collect()
    }
}

/// Groups the nests of `k`'s body where `d` asks for dataflow, giving
/// the arrays two tasks share a second port (in `iface` too).
pub fn dataflow(k: &mut Kernel, iface: &mut Interface, d: &Directives, log: &mut Log) {
    let Some(setting) = d.dataflow.as_ref().filter(|s| s.value) else {
        return;
    };
    let name = k.name.clone();
    if !k.dmas.is_empty() {
        let why = "its DMA engines share the memory ports outside the schedule";
        return log.refused(setting, &name, "dataflow".into(), why.into());
    }
    let nests: Vec<Option<Nest>> = k
        .body
        .iter()
        .map(|it| match *it {
            Item::Loop(l) => Some(Nest::of(k, l)).filter(|n| n.plain),
            _ => None,
        })
        .collect();
    let mut groups: Vec<Group> = Vec::new();
    let mut run: Option<Group> = None;
    for (i, nest) in nests.iter().enumerate() {
        let joins = match (&run, nest) {
            (Some(g), Some(n)) => {
                let reads = n.reads(k);
                g.items().all(|j| {
                    let earlier = nests[j].as_ref().expect("a task is a nest");
                    !reads.iter().any(|&v| earlier.defines(k, v))
                })
            }
            _ => false,
        };
        if joins {
            run.as_mut().expect("a run").tasks += 1;
            continue;
        }
        groups.extend(run.take().filter(|g| g.tasks > 1));
        run = nest.as_ref().map(|_| Group {
            first: i,
            tasks: 1,
            exclusive: None,
        });
    }
    groups.extend(run.filter(|g| g.tasks > 1));
    if groups.is_empty() {
        let why = "the body has no two sibling loop nests that could run at once";
        return log.refused(setting, &name, "dataflow".into(), why.into());
    }
    let mut widened = Vec::new();
    let mut described = Vec::new();
    for g in &groups {
        let used: Vec<FxHashSet<MemId>> = g
            .items()
            .map(|i| nests[i].as_ref().expect("a task is a nest").memories(k))
            .collect();
        for m in 0..k.memories.len() {
            let sharing = used.iter().filter(|u| u.contains(&m)).count();
            let mem = &mut k.memories[m];
            if sharing > 1 && mem.ports == 1 && mem.rom.is_none() {
                mem.ports = 2;
                if mem.arg.is_some() {
                    if let Some(im) = iface.memory_mut(&mem.name) {
                        im.ports = 2;
                    }
                }
                widened.push(mem.name.clone());
            }
        }
        let paths: Vec<String> = g
            .items()
            .filter_map(|i| match k.body[i] {
                Item::Loop(l) => Some(k.loops[l].path.clone()),
                _ => None,
            })
            .collect();
        described.push(paths.join(", "));
    }
    let mut why = format!("loop nests that may run at once: {}", described.join("; "));
    if !widened.is_empty() {
        why += &format!(" (a second port for {})", widened.join(", "));
    }
    log.honoured(setting, &name, "dataflow".into(), why);
    k.groups = groups;
}
