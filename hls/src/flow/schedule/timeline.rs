//! The timeline of one loop nest run alone: the cycle, counted from the
//! first cycle of its first state, of every memory access (with the word
//! it addresses where index arithmetic over the induction variables gives
//! it) and of every use of a shared unit, walked through the schedule as
//! the controller runs it (the cycles `figures.rs` counts: a head state
//! per iteration and one to leave, a pipelined loop's iteration `i` at
//! `i * II`, a block's nodes at their steps). Dataflow (`dataflow.rs`)
//! places concurrent nests by their timelines.

use crate::flow::analysis::trips::{bound, flat_iterations, flat_points, value, DEPTH};
use crate::flow::schedule::binding::Binding;
use crate::flow::schedule::{needs_head, Schedules};
use crate::model::kernel::{Item, Kernel, LoopId, MemId, NodeId, Op};

/// Events recorded before giving up.
const BUDGET: usize = 4_000_000;

/// A memory access at a cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub memory: MemId,
    pub port: u32,
    /// The word addressed, where the index arithmetic gives it.
    pub word: Option<i64>,
    pub write: bool,
    pub cycle: u64,
    /// Whether it surely happens (its predicate, if any, is known true).
    pub sure: bool,
}

/// A use of unit `unit` of a limited class from cycle `from` to `to`
/// (its start to its result).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitUse {
    pub class: &'static str,
    pub unit: u32,
    pub from: u64,
    pub to: u64,
}

/// What a nest does, cycle by cycle.
#[derive(Clone, Debug, Default)]
pub struct Timeline {
    /// The cycles its states take (the controller moves on after them).
    pub cycles: u64,
    pub accesses: Vec<Access>,
    pub units: Vec<UnitUse>,
}

struct Walk<'a> {
    k: &'a Kernel,
    s: &'a Schedules,
    binding: &'a Binding,
    env: Vec<Option<i64>>,
    out: Timeline,
}

/// The timeline of loop `l` (an item of the function's body) under
/// schedule `s` and `binding`; none where a bound depends on data, the
/// nest holds anything but loops and blocks, or it is too long to walk.
pub fn of_loop(k: &Kernel, s: &Schedules, binding: &Binding, l: LoopId) -> Option<Timeline> {
    let mut w = Walk {
        k,
        s,
        binding,
        env: vec![None; k.loops.len()],
        out: Timeline::default(),
    };
    let cycles = w.run_loop(l, 0)?;
    w.out.cycles = cycles;
    Some(w.out)
}

impl Walk<'_> {
    fn items(&mut self, items: &[Item], at: u64) -> Option<u64> {
        let mut t = at;
        for it in items {
            t += match *it {
                Item::Block(b) => {
                    for &n in &self.k.blocks[b] {
                        self.node(n, t + u64::from(self.s.start[n]))?;
                    }
                    u64::from(self.s.states[b])
                }
                Item::Loop(l) => self.run_loop(l, t)?,
                Item::Dma(_) | Item::Call(_) => return None,
            };
        }
        Some(t - at)
    }

    fn run_loop(&mut self, l: LoopId, at: u64) -> Option<u64> {
        let k = self.k;
        let lp = &k.loops[l];
        if lp.test.is_some() {
            return None;
        }
        let it = flat_iterations(k, &self.env, l)?;
        if let Some(p) = &self.s.pipes[l] {
            if it.count == 0 {
                return Some(1);
            }
            let ii = u64::from(p.ii);
            // Only accesses and operations on shared units leave a trace.
            let nodes: Vec<NodeId> = (k.body_nodes(l).into_iter())
                .filter(|&n| k.nodes[n].op.memory().is_some() || self.binding.unit.contains_key(&n))
                .collect();
            // The induction variables of each iteration (a flattened
            // nest's inner ones too, as its counter chain steps them).
            let (nest, points) = flat_points(k, &self.env, l, BUDGET)?;
            for (i, ivs) in points.chunks(nest.len()).enumerate() {
                for (&m, &v) in nest.iter().zip(ivs) {
                    self.env[m] = Some(v);
                }
                for &n in &nodes {
                    self.node(n, at + i as u64 * ii + u64::from(self.s.start[n]))?;
                }
            }
            for &m in &nest {
                self.env[m] = None;
            }
            let lead = u64::from(self.s.lead[l]);
            return Some((it.count - 1) * ii + u64::from(p.depth) - lead);
        }
        let head = needs_head(k, self.s, l);
        let lo = bound(k, &self.env, &lp.lower, true)?;
        let mut t = at;
        let mut iv = lo;
        for _ in 0..it.count {
            t += u64::from(head);
            self.env[l] = Some(iv);
            let body = lp.body.clone();
            t += self.items(&body, t)?;
            iv += it.step;
        }
        self.env[l] = None;
        Some(t + u64::from(head) - at)
    }

    /// Node `n` at cycle `c`: its access or its unit's use, unless its
    /// predicate is known false.
    fn node(&mut self, n: NodeId, c: u64) -> Option<()> {
        let k = self.k;
        let node = &k.nodes[n];
        let (memory, write) = match node.op {
            Op::Load(m) => (Some(m), false),
            Op::Store(m) => (Some(m), true),
            _ => (None, false),
        };
        let known = (k.access_predicate(n)).map(|p| value(k, &self.env, p, DEPTH));
        if known == Some(Some(0)) {
            return Some(());
        }
        if self.out.accesses.len() + self.out.units.len() >= BUDGET {
            return None;
        }
        if let Some(memory) = memory {
            self.out.accesses.push(Access {
                memory,
                port: self.binding.port.get(&n).copied().unwrap_or(0),
                word: value(k, &self.env, node.args[0], DEPTH),
                write,
                cycle: c,
                sure: known.is_none_or(|v| v.is_some()),
            });
        } else if let (Some((class, _)), Some(&unit)) = (k.limited(n), self.binding.unit.get(&n)) {
            self.out.units.push(UnitUse {
                class,
                unit,
                from: c,
                to: c + u64::from(self.s.latency[n]),
            });
        }
        Some(())
    }
}
