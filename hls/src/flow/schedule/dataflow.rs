//! When each task of a dataflow group starts, counted from the first
//! cycle of task 0, computed exactly from the tasks' timelines
//! (`timeline.rs`), with no simulation. Task `j` starts at the least
//! cycle at which (each task counts down to its own start, so a task may
//! start before one written before it: mvt's second product, which
//! shares nothing with the copy-out of the first's result that precedes
//! it, runs beside the first)
//!
//! - every access it makes to a word that an earlier task also accesses,
//!   one of the two writing, comes in a later cycle than the earlier
//!   task's (so it reads what the program order gives it, and its writes
//!   land after the earlier task's reads and writes). An access whose word
//!   the index arithmetic does not give stands for every word of its
//!   memory;
//! - no port of a memory and no shared unit is used by it and by an
//!   earlier task in the same cycle.
//!
//! Because the schedules are static, these starts are sufficient: every
//! run of the group computes what the nests computed one after another.
//! A group whose timelines cannot be walked is run nest after nest.
//!
//! An on-chip array that one task of a group only writes and a later one
//! only reads (and nothing else accesses) is a *channel*: it is kept in a
//! circular buffer of the fewest words with which every read still finds
//! its word (word `w` in slot `w mod depth`), found by replaying the two
//! timelines at their starts (built with the next power of two of words
//! where that serves too; a ring of another size that saves less than
//! half the array's words is not worth the division that finds its
//! slots, and the array is kept whole). A buffer one word smaller would
//! let the producer overwrite a word before the consumer reads it;
//! [`holds`] names that word and the cycles. Read once each, in the order written,
//! the channel is a FIFO; otherwise a ring of ping-pong slots.

use crate::flow::schedule::binding::Binding;
use crate::flow::schedule::timeline::{self, Timeline};
use crate::flow::schedule::Schedules;
use crate::model::directives::{Directives, Log};
use crate::model::kernel::{Item, Kernel, MemId};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::Diagnostic;

/// First and last cycles of reads and writes of one word (or of every
/// word whose address is unknown).
#[derive(Clone, Copy, Default)]
struct Span {
    first_read: Option<u64>,
    last_read: Option<u64>,
    first_write: Option<u64>,
    last_write: Option<u64>,
}

impl Span {
    fn add(&mut self, write: bool, c: u64) {
        let (first, last) = if write {
            (&mut self.first_write, &mut self.last_write)
        } else {
            (&mut self.first_read, &mut self.last_read)
        };
        *first = Some(first.map_or(c, |f| f.min(c)));
        *last = Some(last.map_or(c, |l| l.max(c)));
    }

    fn last_any(&self) -> Option<u64> {
        self.last_read.max(self.last_write)
    }
}

/// Per memory: the span of each known word, and of the unknown ones.
#[derive(Default)]
struct Words {
    known: FxHashMap<i64, Span>,
    unknown: Span,
    all: Span,
}

fn words(t: &Timeline) -> FxHashMap<MemId, Words> {
    let mut out: FxHashMap<MemId, Words> = FxHashMap::default();
    for a in &t.accesses {
        let w = out.entry(a.memory).or_default();
        match a.word {
            Some(x) => w.known.entry(x).or_default().add(a.write, a.cycle),
            None => w.unknown.add(a.write, a.cycle),
        }
        w.all.add(a.write, a.cycle);
    }
    out
}

/// The least start of a later task (spans `later`) after an earlier one
/// (spans `earlier`, started at `at`) by their common words.
fn after(earlier: &FxHashMap<MemId, Words>, at: u64, later: &FxHashMap<MemId, Words>) -> u64 {
    let mut start = 0u64;
    let mut need = |e: Option<u64>, l: Option<u64>| {
        if let (Some(e), Some(l)) = (e, l) {
            start = start.max((at + e + 1).saturating_sub(l));
        }
    };
    for (m, lw) in later {
        let Some(ew) = earlier.get(m) else { continue };
        let pairs = |e: &Span, l: &Span, need: &mut dyn FnMut(Option<u64>, Option<u64>)| {
            need(e.last_any(), l.first_write);
            need(e.last_write, l.first_read);
        };
        // Unknown words meet every word of the other side.
        pairs(&ew.unknown, &lw.all, &mut need);
        pairs(&ew.all, &lw.unknown, &mut need);
        for (x, l) in &lw.known {
            if let Some(e) = ew.known.get(x) {
                pairs(e, l, &mut need);
            }
        }
    }
    start
}

/// A port or unit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Resource {
    Port(MemId, u32),
    Unit(&'static str, u32),
}

/// A set of cycles, a bit each.
#[derive(Default)]
struct Cycles(Vec<u64>);

impl Cycles {
    fn insert(&mut self, c: u64) {
        let w = (c / 64) as usize;
        if self.0.len() <= w {
            self.0.resize(w + 1, 0);
        }
        self.0[w] |= 1 << (c % 64);
    }

    /// The 64 cycles from `from` on, a bit each.
    fn window(&self, from: u64) -> u64 {
        let (w, b) = ((from / 64) as usize, from % 64);
        let low = self.0.get(w).copied().unwrap_or(0) >> b;
        let high = match b {
            0 => 0,
            _ => self.0.get(w + 1).copied().unwrap_or(0) << (64 - b),
        };
        low | high
    }

    /// The cycle after the last one.
    fn end(&self) -> u64 {
        (self.0.iter().enumerate().rev())
            .find(|(_, &w)| w != 0)
            .map_or(0, |(i, &w)| {
                64 * i as u64 + 64 - u64::from(w.leading_zeros())
            })
    }

    /// Whether these cycles, `d` later, meet `other`'s.
    fn meets(&self, other: &Cycles, d: u64) -> bool {
        self.0
            .iter()
            .enumerate()
            .any(|(i, &w)| w != 0 && other.window(d + 64 * i as u64) & w != 0)
    }

    /// These cycles, `d` later, added to `other`.
    fn add_to(&self, other: &mut Cycles, d: u64) {
        for (i, &w) in self.0.iter().enumerate() {
            let mut bits = w;
            while bits != 0 {
                let b = u64::from(bits.trailing_zeros());
                other.insert(64 * i as u64 + b + d);
                bits &= bits - 1;
            }
        }
    }
}

/// The cycles each port and unit is busy in timeline `t`.
fn busy(t: &Timeline) -> FxHashMap<Resource, Cycles> {
    let mut out: FxHashMap<Resource, Cycles> = FxHashMap::default();
    for a in &t.accesses {
        out.entry(Resource::Port(a.memory, a.port))
            .or_default()
            .insert(a.cycle);
    }
    for u in &t.units {
        let cycles = out.entry(Resource::Unit(u.class, u.unit)).or_default();
        for c in u.from..=u.to {
            cycles.insert(c);
        }
    }
    out
}

/// A channel between two tasks of a group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Channel {
    pub memory: MemId,
    pub group: usize,
    pub producer: usize,
    pub consumer: usize,
    /// The words its circular buffer holds, and the fewest that serve.
    pub depth: u64,
    pub least: u64,
    /// Whether it is read once a word, in the order written.
    pub fifo: bool,
}

/// A group placed: each task's start, its channels, and the arrays
/// whose asked depth loses a word (with why).
pub struct Placed {
    pub starts: Vec<u64>,
    pub channels: Vec<Channel>,
    pub too_shallow: Vec<(MemId, String)>,
}

/// Every group of `k` placed (none for a group whose timelines cannot be
/// walked).
pub fn starts(k: &Kernel, s: &Schedules, binding: &Binding) -> Vec<Option<Placed>> {
    let tops = k.top_item_of_blocks();
    k.dataflow
        .iter()
        .enumerate()
        .map(|(gi, g)| {
            let timelines: Option<Vec<Timeline>> = g
                .items()
                .map(|i| match k.body[i] {
                    Item::Loop(l) => timeline::of_loop(k, s, binding, l),
                    _ => None,
                })
                .collect();
            let timelines = timelines?;
            let starts = place(&timelines);
            let mut channels = Vec::new();
            let mut too_shallow = Vec::new();
            let path = |t: usize| match k.body[g.first + t] {
                Item::Loop(l) => k.loops[l].path.clone(),
                _ => String::new(),
            };
            // Memories accessed outside the group are no channels.
            let outside: FxHashSet<MemId> = k
                .nodes
                .iter()
                .filter(|n| !tops[n.block].is_some_and(|t| g.items().contains(&t)))
                .filter_map(|n| n.op.memory())
                .collect();
            for (m, mem) in k.memories.iter().enumerate() {
                if mem.arg.is_some() || mem.rom.is_some() || outside.contains(&m) {
                    continue;
                }
                let users: Vec<usize> = (0..g.tasks)
                    .filter(|&t| timelines[t].accesses.iter().any(|a| a.memory == m))
                    .collect();
                let [p, c] = users[..] else { continue };
                let (Some(writes), Some(reads)) = (
                    events(&timelines[p], m, starts[p], true),
                    events(&timelines[c], m, starts[c], false),
                ) else {
                    continue;
                };
                let Some(least) = least_depth(&writes, &reads, mem.array_words()) else {
                    continue;
                };
                let depth = match mem.asked_depth {
                    Some(asked) => match holds(asked, &writes, &reads) {
                        Ok(()) => asked.min(mem.array_words()),
                        Err(o) => {
                            too_shallow.push((
                                m,
                                format!(
                                    "a channel of {asked} words from {} to {} loses word {}, which {} reads at cycle {}: word {} takes its slot at cycle {}; it needs {least} words",
                                    path(p),
                                    path(c),
                                    o.word,
                                    path(c),
                                    o.read_at,
                                    o.by,
                                    o.at
                                ),
                            ));
                            continue;
                        }
                    },
                    // A power of two where it serves too: the slot is
                    // then the word's low bits.
                    None => std::iter::successors(Some(least.next_power_of_two()), |d| d.checked_mul(2))
                        .take_while(|&d| d < mem.array_words())
                        .find(|&d| holds(d, &writes, &reads).is_ok())
                        .unwrap_or(least),
                };
                // A ring that is not a power of two finds its slot by a
                // division: where it saves less than half the array, the
                // array is kept whole instead.
                let worth = depth.is_power_of_two() || 2 * depth <= mem.array_words();
                if (depth < mem.array_words() && worth) || mem.asked_depth.is_some() {
                    channels.push(Channel {
                        memory: m,
                        group: gi,
                        producer: p,
                        consumer: c,
                        depth,
                        least,
                        fifo: in_order(&writes, &reads),
                    });
                }
            }
            Some(Placed {
                starts,
                channels,
                too_shallow,
            })
        })
        .collect()
}

/// What became of each `depth` directive of kernel `k` under schedule
/// `s`: honoured where its array is a channel, refused (a warning) where
/// it is not one, and an error at the directive where it loses a word.
pub fn log_depths(
    k: &Kernel,
    s: &Schedules,
    d: &Directives,
    log: &mut Log,
) -> Result<(), Box<Diagnostic>> {
    for (m, mem) in k.memories.iter().enumerate() {
        let Some(setting) = d.arrays.get(&mem.name).and_then(|a| a.depth.as_ref()) else {
            continue;
        };
        if mem.asked_depth.is_none() {
            continue;
        }
        if let Some((_, why)) = s.too_shallow.iter().find(|(x, _)| *x == m) {
            let message = format!("array '{}': {why}", mem.name);
            return Err(Box::new(Diagnostic::error(setting.loc, message)));
        }
        let directive = format!("depth = {}", setting.value);
        match s.channels.iter().find(|c| c.memory == m) {
            Some(c) => {
                let kind = if c.fifo { "a FIFO" } else { "a ring buffer" };
                let why = format!("{kind} of {} words", c.depth);
                log.honoured(setting, &mem.name, directive, why);
            }
            None => {
                let why = "not a dataflow channel: one task of a dataflow group must only write it and a later one only read it, at words known from the counters";
                log.refused(setting, &mem.name, directive, why.into());
            }
        }
    }
    Ok(())
}

/// The accesses of memory `m` in timeline `t` (started at `start`) as
/// (word, cycle), where every one is a write (`write`) or every one a
/// read, at a word known and surely made.
fn events(t: &Timeline, m: MemId, start: u64, write: bool) -> Option<Vec<(i64, u64)>> {
    t.accesses
        .iter()
        .filter(|a| a.memory == m)
        .map(|a| {
            let word = a.word.filter(|_| a.sure && a.write == write)?;
            Some((word, a.cycle + start))
        })
        .collect()
}

/// A word a circular buffer loses: `word`, read at cycle `read_at`, was
/// overwritten at cycle `at` by word `by`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overwrite {
    pub word: i64,
    pub read_at: u64,
    pub by: i64,
    pub at: u64,
}

/// Whether a circular buffer of `depth` words serves `writes` and
/// `reads` (word, cycle): every read finds its word in its slot (a write
/// lands at the end of its cycle; a read in that cycle sees the word
/// before it). A read of a word never written before it also fails
/// (`by` is then the word itself, `at` the read's cycle).
pub fn holds(depth: u64, writes: &[(i64, u64)], reads: &[(i64, u64)]) -> Result<(), Overwrite> {
    let mut events: Vec<(u64, bool, i64)> = writes.iter().map(|&(w, c)| (c, true, w)).collect();
    events.extend(reads.iter().map(|&(w, c)| (c, false, w)));
    events.sort_unstable();
    let d = depth.max(1) as i64;
    let mut slots: FxHashMap<i64, (i64, u64)> = FxHashMap::default();
    for (c, write, w) in events {
        let slot = w.rem_euclid(d);
        if write {
            slots.insert(slot, (w, c));
            continue;
        }
        match slots.get(&slot) {
            Some(&(held, _)) if held == w => {}
            Some(&(by, at)) => {
                return Err(Overwrite {
                    word: w,
                    read_at: c,
                    by,
                    at,
                })
            }
            None => {
                return Err(Overwrite {
                    word: w,
                    read_at: c,
                    by: w,
                    at: c,
                })
            }
        }
    }
    Ok(())
}

/// The fewest words (at most `words`) of a circular buffer that serves
/// `writes` and `reads`; none where even the whole array does not (a
/// word read before it is written).
pub fn least_depth(writes: &[(i64, u64)], reads: &[(i64, u64)], words: u64) -> Option<u64> {
    // No fewer slots than words live at once (from a word's first write
    // to its last read, which comes before a write in the same cycle).
    let mut span: FxHashMap<i64, (u64, u64)> = FxHashMap::default();
    for &(w, c) in writes {
        let e = span.entry(w).or_insert((c, c));
        e.0 = e.0.min(c);
    }
    for &(w, c) in reads {
        let e = span.get_mut(&w)?;
        e.1 = e.1.max(c);
    }
    let mut edges: Vec<(u64, i64)> = span
        .values()
        .flat_map(|&(a, b)| [(a, 1), (b, -1)])
        .collect();
    edges.sort_unstable_by_key(|&(c, d)| (c, d));
    let (mut live, mut most) = (0i64, 0i64);
    for (_, d) in edges {
        live += d;
        most = most.max(live);
    }
    (most.max(1) as u64..=words.max(1)).find(|&d| holds(d, writes, reads).is_ok())
}

/// Whether every word is read once, in the order the words are first
/// written.
fn in_order(writes: &[(i64, u64)], reads: &[(i64, u64)]) -> bool {
    let mut first: FxHashMap<i64, u64> = FxHashMap::default();
    for &(w, c) in writes {
        let f = first.entry(w).or_insert(c);
        *f = (*f).min(c);
    }
    let mut order: Vec<(u64, i64)> = first.into_iter().map(|(w, c)| (c, w)).collect();
    order.sort_unstable();
    let mut read: Vec<(u64, i64)> = reads.iter().map(|&(w, c)| (c, w)).collect();
    read.sort_unstable();
    order.iter().map(|x| x.1).eq(read.iter().map(|x| x.1))
}

/// Starts a task's placement tries one after another before it takes
/// the end of the earlier tasks' uses of its resources.
const PLACE_TRIES: u32 = 2048;

/// The starts of tasks with timelines `ts`.
fn place(ts: &[Timeline]) -> Vec<u64> {
    let spans: Vec<_> = ts.iter().map(words).collect();
    let mut taken: FxHashMap<Resource, Cycles> = FxHashMap::default();
    let mut starts: Vec<u64> = Vec::new();
    for (j, t) in ts.iter().enumerate() {
        let mut d = 0;
        for i in 0..j {
            d = d.max(after(&spans[i], starts[i], &spans[j]));
        }
        let mine = busy(t);
        // The least start from `d` at which no resource is used twice;
        // from the end of every earlier use of the task's resources on,
        // none is. Where that is far and the uses meet often, the search
        // stops at that end.
        let meets = |d: u64| {
            mine.iter()
                .any(|(r, c)| taken.get(r).is_some_and(|t| c.meets(t, d)))
        };
        let free = (mine.keys())
            .filter_map(|r| taken.get(r))
            .map(Cycles::end)
            .max()
            .unwrap_or(0);
        let mut tries = 0;
        while d < free && meets(d) {
            tries += 1;
            d = if tries < PLACE_TRIES { d + 1 } else { free };
        }
        for (r, c) in &mine {
            c.add_to(taken.entry(*r).or_default(), d);
        }
        starts.push(d);
    }
    starts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::schedule::timeline::Access;

    fn access(memory: MemId, port: u32, word: i64, write: bool, cycle: u64) -> Access {
        Access {
            memory,
            port,
            word: Some(word),
            write,
            cycle,
            sure: true,
        }
    }

    #[test]
    fn a_channel_one_word_smaller_loses_a_word_before_it_is_read() {
        // Words 0..8 written at cycles 2w, read at 2w + 5: three words are
        // in flight at once, so three slots serve and two do not.
        let writes: Vec<(i64, u64)> = (0..8).map(|w| (w, 2 * w as u64)).collect();
        let reads: Vec<(i64, u64)> = (0..8).map(|w| (w, 2 * w as u64 + 5)).collect();
        assert_eq!(least_depth(&writes, &reads, 8), Some(3));
        assert!(in_order(&writes, &reads));
        // With two slots, word 2 (written at 4) takes word 0's slot before
        // word 0 is read at 5.
        assert_eq!(
            holds(2, &writes, &reads),
            Err(Overwrite {
                word: 0,
                read_at: 5,
                by: 2,
                at: 4
            })
        );
        // A word read before it is written is served by no buffer.
        assert_eq!(least_depth(&writes, &[(3, 1)], 8), None);
    }

    #[test]
    fn a_reader_starts_once_each_word_it_reads_is_written() {
        // Task 0 writes word w at cycle 10 * w; task 1 reads word w at
        // cycle w, on the memory's other port.
        let producer = Timeline {
            cycles: 40,
            accesses: (0..4)
                .map(|w| access(0, 0, w, true, 10 * w as u64))
                .collect(),
            units: Vec::new(),
        };
        let consumer = Timeline {
            cycles: 4,
            accesses: (0..4).map(|w| access(0, 1, w, false, w as u64)).collect(),
            units: Vec::new(),
        };
        // The last word is read at 3 + d and written at 30: d = 28.
        assert_eq!(place(&[producer.clone(), consumer.clone()]), vec![0, 28]);
        // On one port, the reads must also miss the writes' cycles.
        let mut one_port = consumer;
        one_port.accesses.iter_mut().for_each(|a| a.port = 0);
        assert_eq!(place(&[producer, one_port]), vec![0, 31]);
    }

    #[test]
    fn a_task_that_meets_an_earlier_one_often_waits_only_for_its_own_resources() {
        // Task 0 reads memory 0 every cycle up to 3000; task 1 reads
        // memory 1 up to 20000; task 2 reads memory 0 once, on the port
        // task 0 keeps busy: past the tries, it starts when task 0's uses
        // end, not task 1's.
        let reads = |memory: MemId, cycles: u64| Timeline {
            cycles,
            accesses: (0..cycles)
                .map(|c| access(memory, 0, 0, false, c))
                .collect(),
            units: Vec::new(),
        };
        let starts = place(&[reads(0, 3000), reads(1, 20000), reads(0, 1)]);
        assert_eq!(starts, vec![0, 0, 3000]);
    }

    #[test]
    fn a_writer_waits_for_the_reads_before_it() {
        // Task 0 reads word 0 at cycle 5; task 1 writes it at its cycle 0.
        let reader = Timeline {
            cycles: 6,
            accesses: vec![access(0, 0, 0, false, 5)],
            units: Vec::new(),
        };
        let writer = Timeline {
            cycles: 1,
            accesses: vec![access(0, 1, 0, true, 0)],
            units: Vec::new(),
        };
        assert_eq!(place(&[reader, writer]), vec![0, 6]);
    }
}
