//! What a kernel offers to parallelise, as `--auto` derives its space
//! from it (`silica_dse::derive`): for each loop of the kernel as lifted
//! without directives, its trip count, whether loops are inside it, the
//! external memories its body touches and how many copies of its body
//! the device's units hold side by side; for each external memory, its
//! element width, its elements and the accesses a run makes of it
//! (counted on the loop tree as `muls` counts multiplications; where a
//! bound depends on data, each access once per run of its block through
//! the loops of constant trip counts, an estimate).

use super::work::{kind, Kind};
use crate::model::kernel::{Item, Kernel, LoopId, Op};
use crate::model::target::library::Library;
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

/// What a kernel offers to parallelise.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// Every loop, outer before inner.
    pub loops: Vec<LoopProfile>,
    /// Every external memory, in argument order.
    pub memories: Vec<MemoryProfile>,
}

/// One loop.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopProfile {
    /// As the report and directives name it.
    pub path: String,
    /// The constant trip count, where it is one.
    pub trip: Option<u64>,
    /// Loops directly inside it.
    pub inner: usize,
    /// Loops around it.
    pub depth: usize,
    /// Whether it can be the outermost loop of a flattened nest.
    pub flattens: bool,
    /// How many copies of its body (the code directly in it) the
    /// device's units hold side by side: the fewest of any operation in
    /// it; none where the body does no work that units do.
    pub copies: Option<u64>,
    /// The external memories the code directly in it accesses.
    pub memories: Vec<String>,
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

/// The profile of kernel `k` on the device of `lib`.
pub fn of(k: &Kernel, lib: &Library, flattens: Flattens) -> Profile {
    let mut p = Profile::default();
    let mut accesses: BTreeMap<usize, u64> = BTreeMap::new();
    let walker = Walker { k, lib, flattens };
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

/// The kernel walked and what its loops are measured with.
struct Walker<'a> {
    k: &'a Kernel,
    lib: &'a Library,
    flattens: Flattens,
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
                    let mut per_kind: FxHashMap<Kind, (u64, Option<u64>)> = FxHashMap::default();
                    let mut memories = Vec::new();
                    for item in body {
                        let Item::Block(b) = *item else { continue };
                        for &n in &k.blocks[b] {
                            if let Some(m) = k.nodes[n].op.memory() {
                                let name = &k.memories[m].name;
                                if k.memories[m].arg.is_some() && !memories.contains(name) {
                                    memories.push(name.clone());
                                }
                            }
                            let Some(kd) = kind(k, n) else { continue };
                            let e = per_kind.entry(kd).or_insert_with(|| {
                                (0, lib.units_held(kd.class, kd.width, kd.operator))
                            });
                            e.0 += 1;
                        }
                    }
                    let copies = per_kind
                        .values()
                        .filter_map(|&(count, units)| Some(units? / count.max(1)))
                        .min()
                        .map(|c| c.max(1));
                    p.loops.push(LoopProfile {
                        path: k.loops[l].path.clone(),
                        trip,
                        inner: body.iter().filter(|i| matches!(i, Item::Loop(_))).count(),
                        depth,
                        flattens: (self.flattens)(k, l),
                        copies,
                        memories,
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
        let p = of(&k, target.library(), crate::flow::front::flattens);
        let inner = p.loops.iter().find(|l| l.path == "f/0/0/0").unwrap();
        assert_eq!((inner.trip, inner.inner, inner.depth), (Some(8), 0, 2));
        assert!(p.loops[0].flattens && !inner.flattens);
        // One i16 product an iteration, 28 multipliers.
        assert_eq!(inner.copies, Some(28));
        assert_eq!(inner.memories, ["a", "b", "c"]);
        let c = p.memories.iter().find(|m| m.name == "c").unwrap();
        assert_eq!((c.elements, c.accesses, c.written), (64, 1024, true));
        let a = p.memories.iter().find(|m| m.name == "a").unwrap();
        assert_eq!((a.accesses, a.written), (512, false));
    }
}
