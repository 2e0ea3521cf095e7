//! What a kernel offers to parallelise, as `--auto` derives its space
//! from it (`silica_dse::derive`): for each loop of the kernel as lifted
//! without directives, its trip count (or, where the enclosing induction
//! variables set it, the largest), whether loops are inside it, the
//! external memories its body touches and how many copies of its body
//! the device's units hold side by side (an operation that does not vary
//! with the loop's iterations is computed once for all copies, as the
//! front's load reuse merges it); for each external memory, its
//! element width, its elements and the accesses a run makes of it
//! (counted on the loop tree as `muls` counts multiplications; where a
//! bound depends on data, each access once per run of its block through
//! the loops of constant trip counts, an estimate).

use super::trips::flat_iterations;
use super::work::{unit_kind, Kind};
use crate::model::kernel::{Item, Kernel, LoopId, NodeId, Op, Val};
use crate::model::target::library::Library;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeMap;

/// What a kernel offers to parallelise.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// Every loop, outer before inner.
    pub loops: Vec<LoopProfile>,
    /// Every external memory, in argument order.
    pub memories: Vec<MemoryProfile>,
    /// What the loops become once jammed (`silica_hls::profile`).
    pub once_jammed: OnceJammed,
    /// The bits the device's block RAMs hold (none without a device).
    pub block_ram_bits: u64,
    /// The bits one of them holds.
    pub block_ram_size: u64,
}

/// The kernel once the loops that unroll-and-jam keeps are jammed fully
/// and the memories accessed twice an element or more are buffered.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OnceJammed {
    /// The loops that can then be the outermost loop of a flattened
    /// nest, and cannot before.
    pub flattened: Vec<String>,
    /// The innermost loops the buffers' copies then leave empty (their
    /// scaling in place folded into a copy): their directives do nothing.
    pub emptied: Vec<String>,
}

/// One loop.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopProfile {
    /// As the report and directives name it.
    pub path: String,
    /// The constant trip count, where it is one.
    pub trip: Option<u64>,
    /// The largest trip count over a run, and the mean (rounded down),
    /// where the walk finds them (the trip count where that is constant).
    pub max_trip: Option<u64>,
    pub mean_trip: Option<u64>,
    /// Loops directly inside it.
    pub inner: usize,
    /// Loops around it.
    pub depth: usize,
    /// Whether it can be the outermost loop of a flattened nest.
    pub flattens: bool,
    /// Whether unroll-and-jam keeps the dependences it carries (the
    /// front's test, `jam_breaks`; asked only of a loop with one loop
    /// inside, or with several that have none inside).
    pub jams: bool,
    /// How many copies of its body (the code directly in it) the
    /// device's units hold side by side: the fewest of any operation in
    /// it; none where the body does no work that units do.
    pub copies: Option<u64>,
    /// For a loop with one loop inside, how many copies of that loop's
    /// body the device's units hold side by side where this loop is
    /// jammed: its operations that do not vary with this loop's counter
    /// are computed once for all the copies (2mm's `alpha * A[i][k]`,
    /// the same for every column a jam over `j` puts side by side).
    pub jam_copies: Option<u64>,
    /// The external memories the code directly in it accesses.
    pub memories: Vec<String>,
    /// Those of them it accesses more than once (in its body's blocks,
    /// a port's turn each).
    pub repeated: Vec<String>,
    /// For a loop with no loop inside, the fewest iterations between one
    /// that stores an element and a later one that loads it (a
    /// recurrence through memory; `profile` fills it in): unrolled by
    /// more, the copies wait on one another and run no faster.
    pub recurrence: Option<u64>,
    /// For such a recurrence, the cycles an iteration waits on the one
    /// it depends on, over their distance: the loop's II, about, however
    /// widely the loop around it is jammed (a float sum: its adder's
    /// latency and the load's cycle; `profile` fills it in).
    pub recurrence_ii: Option<u64>,
}

/// The cycles from value `from` (ready `ready` cycles into an
/// iteration) to the values `to` through the operations whose values
/// lead from the one to the others, each taking `latency`: how long an
/// iteration of a recurrence waits on the one before (a load's data to
/// the store's operands, `ready` its cycle; a carried value to what the
/// body yields for it). `None` where `to` does not depend on `from`.
pub fn recurrence_cycles(
    k: &Kernel,
    (from, ready): (Val, u64),
    to: &[Val],
    latency: &mut dyn FnMut(NodeId) -> u64,
) -> Option<u64> {
    struct Walk<'a> {
        k: &'a Kernel,
        from: Val,
        ready: u64,
        latency: &'a mut dyn FnMut(NodeId) -> u64,
        memo: FxHashMap<NodeId, Option<u64>>,
    }
    impl Walk<'_> {
        fn cycles(&mut self, v: Val) -> Option<u64> {
            if v == self.from {
                return Some(self.ready);
            }
            let Val::Node(n) = v else { return None };
            if let Some(&known) = self.memo.get(&n) {
                return known;
            }
            self.memo.insert(n, None);
            let mut longest = None;
            for &a in &self.k.nodes[n].args {
                longest = longest.max(self.cycles(a));
            }
            let cycles = longest.map(|c| c + (self.latency)(n));
            self.memo.insert(n, cycles);
            cycles
        }
    }
    let mut walk = Walk {
        k,
        from,
        ready,
        latency,
        memo: FxHashMap::default(),
    };
    to.iter().map(|&v| walk.cycles(v)).max().flatten()
}

/// One external memory.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryProfile {
    pub name: String,
    pub element_width: u32,
    pub elements: u64,
    /// Loads and stores a run makes.
    pub accesses: u64,
    pub written: bool,
}

/// Whether a loop can be the outermost loop of a flattened nest (the
/// front's test).
pub type Flattens = fn(&Kernel, LoopId) -> bool;

/// The profile of kernel `k` on the device of `lib`; `jams` says per
/// loop whether unroll-and-jam keeps its dependences.
pub fn of(k: &Kernel, lib: &Library, flattens: Flattens, jams: &[bool]) -> Profile {
    let mut p = Profile::default();
    if lib.device.family.is_device() {
        p.block_ram_bits = lib.device.brams * lib.device.bram_bits;
        p.block_ram_size = lib.device.bram_bits;
    }
    let mut accesses: BTreeMap<usize, u64> = BTreeMap::new();
    let walker = Walker {
        k,
        lib,
        flattens,
        jams,
        trips: trips_over_run(k),
    };
    walker.walk(&k.body, (1, 0), &mut p, &mut accesses);
    for (m, mem) in k.memories.iter().enumerate() {
        if mem.arg.is_none() {
            continue;
        }
        p.memories.push(MemoryProfile {
            name: mem.name.clone(),
            element_width: mem.element_width,
            elements: mem.elements(),
            accesses: super::muls::executed_where(k, |k, n| k.nodes[n].op.memory() == Some(m))
                .unwrap_or_else(|| accesses.get(&m).copied().unwrap_or(0)),
            written: k.nodes.iter().any(|n| n.op == Op::Store(m)),
        });
    }
    p
}

/// The trip count of loop `l` where its bounds are constants.
fn trip(k: &Kernel, l: LoopId) -> Option<u64> {
    let lp = &k.loops[l];
    if lp.test.is_some() {
        return None;
    }
    let span = (lp.upper.constant()? - lp.lower.constant()?).max(0);
    let step = lp.step.max(1);
    u64::try_from((span + step - 1) / step).ok()
}

/// Loops visited, at most, finding the largest trip counts.
const BUDGET: u64 = 1_000_000;

/// Per loop over a run: its largest trip count, its runs and its
/// iterations (none where a bound depends on data or the walk runs out
/// of budget).
type Trips = Option<(u64, u64, u64)>;

/// The [`Trips`] of every loop.
fn trips_over_run(k: &Kernel) -> Vec<Trips> {
    fn walk(
        k: &Kernel,
        items: &[Item],
        env: &mut Vec<Option<i64>>,
        out: &mut Vec<Trips>,
        budget: &mut u64,
    ) -> Option<()> {
        for it in items {
            let Item::Loop(l) = *it else { continue };
            *budget = budget.checked_sub(1)?;
            let lp = &k.loops[l];
            let its = if lp.test.is_none() {
                flat_iterations(k, env, l)
            } else {
                None
            };
            let Some(its) = its else {
                out[l] = None;
                continue;
            };
            let (max, runs, iterations) = out[l].unwrap_or((0, 0, 0));
            out[l] = Some((max.max(its.count), runs + 1, iterations + its.count));
            if !lp.body.iter().any(|i| matches!(i, Item::Loop(_))) {
                continue;
            }
            for i in 0..its.count {
                env[l] = Some(its.lo + its.step * i as i64);
                walk(k, &lp.body, env, out, budget)?;
            }
            env[l] = None;
        }
        Some(())
    }
    let mut out = vec![None; k.loops.len()];
    let mut env = vec![None; k.loops.len()];
    let mut budget = BUDGET;
    if walk(k, &k.body, &mut env, &mut out, &mut budget).is_none() {
        return vec![None; k.loops.len()];
    }
    out
}

/// The nodes of loop `l`'s own blocks whose values vary from one
/// iteration to the next: those reading its induction variable or
/// carried values, loads of a memory the loop stores to, and whatever
/// reads them.
fn variant(k: &Kernel, l: LoopId) -> FxHashSet<usize> {
    let blocks: Vec<usize> = (k.loops[l].body.iter())
        .filter_map(|it| match *it {
            Item::Block(b) => Some(b),
            _ => None,
        })
        .collect();
    varying(k, l, &blocks, &[l])
}

/// The nodes of `blocks` (in program order) whose values vary with loop
/// `l`'s counter: those reading it or a value carried by one of `loops`,
/// loads of a memory stored to in `blocks`, and whatever reads them.
fn varying(k: &Kernel, l: LoopId, blocks: &[usize], loops: &[LoopId]) -> FxHashSet<NodeId> {
    let stored: FxHashSet<usize> = (blocks.iter())
        .flat_map(|&b| &k.blocks[b])
        .filter_map(|&n| match k.nodes[n].op {
            Op::Store(m) => Some(m),
            _ => None,
        })
        .collect();
    let mut out = FxHashSet::default();
    for &b in blocks {
        for &n in &k.blocks[b] {
            let node = &k.nodes[n];
            let reads_variant = node.args.iter().any(|a| match *a {
                Val::Iv(m) => m == l,
                Val::Carried(m, _) => loops.contains(&m),
                Val::Node(m) => out.contains(&m),
                _ => false,
            });
            let loads_stored = matches!(node.op, Op::Load(m) if stored.contains(&m));
            if reads_variant || loads_stored {
                out.insert(n);
            }
        }
    }
    out
}

/// The nodes of the blocks directly in `body`.
fn body_nodes<'k>(k: &'k Kernel, body: &'k [Item]) -> impl Iterator<Item = &'k NodeId> {
    (body.iter())
        .filter_map(|it| match *it {
            Item::Block(b) => Some(b),
            _ => None,
        })
        .flat_map(|b| &k.blocks[b])
}

/// How many copies of the code directly in `body` the device's units
/// hold side by side, where the operations of `varies` are made once a
/// copy and the others once for all: the fewest of any kind of unit;
/// none where the code does no work that units do.
fn copies_held(
    k: &Kernel,
    lib: &Library,
    body: &[Item],
    varies: &FxHashSet<NodeId>,
) -> Option<u64> {
    // Per kind: operations that vary, those that do not, and the units
    // the device holds.
    let mut per_kind: FxHashMap<Kind, (u64, u64, Option<u64>)> = FxHashMap::default();
    for &n in body_nodes(k, body) {
        let Some(kd) = unit_kind(k, n) else { continue };
        let e = (per_kind.entry(kd))
            .or_insert_with(|| (0, 0, lib.units_held(kd.class, kd.width, kd.operator)));
        if varies.contains(&n) {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }
    (per_kind.values())
        .filter(|&&(count, _, _)| count > 0)
        .filter_map(|&(count, once, units)| Some(units?.saturating_sub(once) / count))
        .min()
        .map(|c| c.max(1))
}

/// The nodes anywhere under loop `l` whose values vary with its counter:
/// those reading it, a value carried by it or by a loop inside it, a
/// load of a memory stored to under it, and whatever reads them; none
/// where a call or DMA operation is under it.
fn varies_with(k: &Kernel, l: LoopId) -> Option<FxHashSet<NodeId>> {
    /// The blocks and loops of `items` and the loops in them, in
    /// program order; none where a call or DMA operation is among them.
    fn collect(
        k: &Kernel,
        items: &[Item],
        blocks: &mut Vec<usize>,
        loops: &mut Vec<LoopId>,
    ) -> Option<()> {
        for it in items {
            match *it {
                Item::Block(b) => blocks.push(b),
                Item::Loop(m) => {
                    loops.push(m);
                    collect(k, &k.loops[m].body, blocks, loops)?;
                }
                Item::Call(_) | Item::Dma(_) => return None,
            }
        }
        Some(())
    }
    let (mut blocks, mut loops) = (Vec::new(), vec![l]);
    collect(k, &k.loops[l].body, &mut blocks, &mut loops)?;
    Some(varying(k, l, &blocks, &loops))
}

/// The kernel walked and what its loops are measured with.
struct Walker<'a> {
    k: &'a Kernel,
    lib: &'a Library,
    flattens: Flattens,
    jams: &'a [bool],
    trips: Vec<Trips>,
}

impl Walker<'_> {
    /// Profiles the loops of `items`, each run `runs` times, at `depth`;
    /// counts the accesses their blocks make into `accesses`.
    fn walk(
        &self,
        items: &[Item],
        (runs, depth): (u64, usize),
        p: &mut Profile,
        accesses: &mut BTreeMap<usize, u64>,
    ) {
        let (k, lib) = (self.k, self.lib);
        for it in items {
            match *it {
                Item::Block(b) => {
                    for &n in &k.blocks[b] {
                        if let Some(m) = k.nodes[n].op.memory() {
                            *accesses.entry(m).or_default() += runs;
                        }
                    }
                }
                Item::Loop(l) => {
                    let trip = trip(k, l);
                    let body = &k.loops[l].body;
                    let mut memories = Vec::new();
                    let mut repeated = Vec::new();
                    for &n in body_nodes(k, body) {
                        if let Some(m) = k.nodes[n].op.memory() {
                            let mem = &k.memories[m];
                            let name = &mem.name;
                            if mem.arg.is_some() && !memories.contains(name) {
                                memories.push(name.clone());
                            } else if mem.arg.is_some() && !repeated.contains(name) {
                                repeated.push(name.clone());
                            }
                        }
                    }
                    let copies = copies_held(k, lib, body, &variant(k, l));
                    let inside: Vec<LoopId> = (body.iter())
                        .filter_map(|i| match *i {
                            Item::Loop(m) => Some(m),
                            _ => None,
                        })
                        .collect();
                    let jam_copies = match inside[..] {
                        [m] => varies_with(k, l)
                            .and_then(|v| copies_held(k, lib, &k.loops[m].body, &v)),
                        _ => None,
                    };
                    p.loops.push(LoopProfile {
                        path: k.loops[l].path.clone(),
                        trip,
                        max_trip: self.trips[l].map(|(max, _, _)| max),
                        mean_trip: self.trips[l].map(|(_, runs, its)| its / runs.max(1)),
                        inner: inside.len(),
                        depth,
                        flattens: (self.flattens)(k, l),
                        jams: self.jams.get(l).copied().unwrap_or(false),
                        copies,
                        jam_copies,
                        memories,
                        repeated,
                        recurrence: None,
                        recurrence_ii: None,
                    });
                    let inner_runs = runs.saturating_mul(trip.unwrap_or(1));
                    self.walk(body, (inner_runs, depth + 1), p, accesses);
                }
                Item::Call(_) | Item::Dma(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::target::Target;
    use crate::test_support::kernel;

    #[test]
    fn a_float_sum_waits_on_its_adder_through_a_register_or_memory() {
        let k = kernel(
            "func.func @f(%a: memref<8xf32>, %s: memref<1xf32>) -> f32 {
               %zero = arith.constant 0.0 : f32
               %r = affine.for %i = 0 to 8 iter_args(%acc = %zero) -> (f32) {
                 %x = affine.load %a[%i] : memref<8xf32>
                 %t = arith.addf %acc, %x : f32
                 %m = arith.mulf %x, %x : f32
                 %old = affine.load %s[0] : memref<1xf32>
                 %new = arith.addf %old, %m : f32
                 affine.store %new, %s[0] : memref<1xf32>
                 affine.yield %t : f32
               }
               return %r : f32
             }",
            "f",
        );
        // Adders of 3 cycles, multipliers of 2.
        let mut latency = |n: NodeId| match k.nodes[n].op {
            Op::Float(o) if o.op == crate::float::FloatOp::Add => 3,
            Op::Float(_) => 2,
            _ => 0,
        };
        let l = k.loops.iter().position(|l| !l.yields.is_empty()).unwrap();
        let sum = k.loops[l].yields[0];
        assert_eq!(
            recurrence_cycles(&k, (Val::Carried(l, 0), 0), &[sum], &mut latency),
            Some(3)
        );
        let find = |want: &dyn Fn(Op) -> bool| (0..k.nodes.len()).rfind(|&n| want(k.nodes[n].op));
        let load = find(&|op| matches!(op, Op::Load(m) if k.memories[m].shape == [1])).unwrap();
        let store = find(&|op| matches!(op, Op::Store(_))).unwrap();
        // The load's cycle and the adder's; the product is off the path.
        assert_eq!(
            recurrence_cycles(&k, (Val::Node(load), 1), &k.nodes[store].args, &mut latency),
            Some(4)
        );
        // The carried sum does not depend on the stored one.
        assert_eq!(
            recurrence_cycles(&k, (Val::Node(load), 1), &[sum], &mut latency),
            None
        );
    }

    #[test]
    fn a_product_nest_reuses_its_inputs_and_its_body_fits_the_multipliers() {
        let k = kernel(
            "func.func @f(%a: memref<8x8xi16> {hls.name = \"a\"}, %b: memref<8x8xi16> {hls.name = \"b\"}, %c: memref<8x8xi16> {hls.name = \"c\"}) {
               affine.for %i = 0 to 8 {
                 affine.for %k = 0 to 8 {
                   affine.for %j = 0 to 8 {
                     %x = affine.load %a[%i, %k] : memref<8x8xi16>
                     %y = affine.load %b[%k, %j] : memref<8x8xi16>
                     %z = affine.load %c[%i, %j] : memref<8x8xi16>
                     %p = arith.muli %x, %y : i16
                     %s = arith.addi %z, %p : i16
                     affine.store %s, %c[%i, %j] : memref<8x8xi16>
                   }
                 }
               }
               return
             }",
            "f",
        );
        let target = Target::named("ecp5-25k").unwrap();
        let p = of(&k, target.library(), crate::flow::front::flattens, &[]);
        let inner = p.loops.iter().find(|l| l.path == "f/0/0/0").unwrap();
        assert_eq!((inner.trip, inner.inner, inner.depth), (Some(8), 0, 2));
        assert!(p.loops[0].flattens && !inner.flattens);
        // One i16 product an iteration, 28 multipliers.
        assert_eq!(inner.copies, Some(28));
        assert_eq!(inner.memories, ["a", "b", "c"]);
        // c is read and written: twice an iteration.
        assert_eq!(inner.repeated, ["c"]);
        let c = p.memories.iter().find(|m| m.name == "c").unwrap();
        assert_eq!((c.elements, c.accesses, c.written), (64, 1024, true));
        let a = p.memories.iter().find(|m| m.name == "a").unwrap();
        assert_eq!((a.accesses, a.written), (512, false));
    }

    #[test]
    fn an_invariant_operation_is_counted_once_and_a_triangular_loop_by_its_longest_run() {
        let k = kernel(
            "func.func @f(%s: i32, %a: memref<8x8xi32> {hls.name = \"a\"}, %c: memref<8x8xi32> {hls.name = \"c\"}) {
               affine.for %i = 0 to 8 {
                 affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
                   %x = affine.load %a[%i, %i] : memref<8x8xi32>
                   %y = arith.muli %s, %x : i32
                   %z = affine.load %a[%i, %j] : memref<8x8xi32>
                   %p = arith.muli %y, %z : i32
                   affine.store %p, %c[%i, %j] : memref<8x8xi32>
                 }
               }
               return
             }",
            "f",
        );
        let target = Target::named("ecp5-25k").unwrap();
        let p = of(&k, target.library(), crate::flow::front::flattens, &[]);
        let inner = p.loops.iter().find(|l| l.path == "f/0/0").unwrap();
        assert_eq!(
            (inner.trip, inner.max_trip, inner.mean_trip),
            (None, Some(8), Some(4))
        );
        // s * a[i][i] once for every copy, one product a copy.
        let units = target.library().units_held("mul", 32, None).unwrap();
        assert_eq!(inner.copies, Some(units - 1));
    }

    #[test]
    fn a_jam_computes_what_does_not_vary_with_its_counter_once_for_its_copies() {
        // 2mm's first product: alpha * A[i][k] is the same for every
        // column j a jam puts side by side, not for every k.
        let k = kernel(
            "func.func @f(%s: i32, %a: memref<8x8xi32> {hls.name = \"a\"}, %b: memref<8x8xi32> {hls.name = \"b\"}, %c: memref<8x8xi32> {hls.name = \"c\"}) {
               affine.for %i = 0 to 8 {
                 affine.for %j = 0 to 8 {
                   affine.for %k = 0 to 8 {
                     %x = affine.load %a[%i, %k] : memref<8x8xi32>
                     %y = arith.muli %s, %x : i32
                     %z = affine.load %b[%k, %j] : memref<8x8xi32>
                     %p = arith.muli %y, %z : i32
                     %o = affine.load %c[%i, %j] : memref<8x8xi32>
                     %t = arith.addi %o, %p : i32
                     affine.store %t, %c[%i, %j] : memref<8x8xi32>
                   }
                 }
               }
               return
             }",
            "f",
        );
        let target = Target::named("ecp5-25k").unwrap();
        let p = of(&k, target.library(), crate::flow::front::flattens, &[]);
        let units = target.library().units_held("mul", 32, None).unwrap();
        let find = |path: &str| p.loops.iter().find(|l| l.path == path).unwrap();
        // Unrolled, both products a copy; jammed over j, one, and
        // alpha * A[i][k] once for all the copies.
        assert_eq!(find("f/0/0/0").copies, Some(units / 2));
        assert_eq!(find("f/0/0").jam_copies, Some(units - 1));
    }
}
