//! The work a kernel must do over a run, whatever circuit does it: the
//! operations it executes of each kind, and the words of each external
//! memory it must read and write at least once (its footprint). The
//! roofline (`report::roofline`) divides the one by what the device can
//! hold and the other by the ports.
//!
//! Counted on the kernel as lifted (its `index` arithmetic, which
//! addresses and counts, not being work) on the loop tree with the
//! values of the enclosing induction variables, as `muls.rs` counts
//! multiplications: each node once per distinct value it computes, that
//! is per combination of the iterations of the loops it varies with
//! (`support.rs`; `alpha * A[i][k]` in a product's `j` loop counts `i x
//! k` times), so that directives which share such a value among a
//! body's copies (unroll-and-jam) do not change the count. A word is in the footprint when an access that
//! is not predicated (so made whenever its block runs) or a DMA transfer
//! touches it at an address the induction variables give: the footprint
//! is never more than what the kernel must move. Operations by constants
//! that construction builds as wiring, shifts or adds (products by
//! constants, divisions by constants) count as the class they are built
//! as, an addition; a shift by a constant is wiring. An operation whose
//! value only feeds accesses under predicates (an if-converted branch)
//! counts where one of them holds.

use super::support::Support;
use super::trips::{flat_iterations, flat_points, value, Iterations, DEPTH};
use crate::model::kernel::{Item, Kernel, LoopId, MemId, Op, Operator, Val, INDEX};
use crate::model::target::library::class_of;
use rustc_hash::FxHashSet;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};

/// Accesses evaluated before giving up.
const BUDGET: u64 = 20_000_000;

/// An operation kind of the count: its library class, its width and,
/// for a float operation, its operator (`fmul_f32`'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kind {
    pub class: &'static str,
    pub width: u32,
    pub operator: Option<Operator>,
}

/// The work of a kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Operations executed, by kind in the order first met (memory
    /// accesses and wiring left out).
    pub operations: Vec<(Kind, u64)>,
    /// Per external memory: the distinct words read and written.
    pub footprint: BTreeMap<MemId, (u64, u64)>,
}

/// The classes whose operations are work for functional units (not
/// memory accesses, and not `ext`, which is wiring).
fn is_compute(class: &str) -> bool {
    !matches!(class, "load" | "store" | "ext")
}

/// The kind of node `n`'s operation as `--auto`'s space counts the
/// copies of a body the units hold: [`kind`], but a shift by a constant
/// a shifter. Its wiring takes no unit, but the copies set the largest
/// factors offered, and with it left out the stencils that divide by
/// constants are offered factors whose points take the descent's time
/// (jacobi-2d: 30 points evaluated in 30 s, 19,787 cycles, against 41
/// and 10,026).
pub(super) fn unit_kind(k: &Kernel, n: usize) -> Option<Kind> {
    let node = &k.nodes[n];
    match node.op {
        Op::Shl | Op::ShrU | Op::ShrS if node.width != INDEX => Some(Kind {
            class: "shift",
            width: node.width,
            operator: None,
        }),
        _ => kind(k, n),
    }
}

/// The kind of node `n`'s operation, where it is work (not `index`
/// arithmetic, which addresses and counts).
pub(super) fn kind(k: &Kernel, n: usize) -> Option<Kind> {
    let node = &k.nodes[n];
    if node.width == INDEX {
        return None;
    }
    let by_constant = node.args.iter().any(|&a| k.const_value(a).is_some());
    let shifted_by_constant = matches!(node.op, Op::Shl | Op::ShrU | Op::ShrS)
        && node
            .args
            .get(1)
            .is_some_and(|&a| k.const_value(a).is_some());
    if shifted_by_constant {
        // Wiring: a bit select (a division by a constant's last step).
        return None;
    }
    let class = match node.op {
        // Products by constants are shifts and adds or wiring.
        Op::Mul if by_constant => "add",
        op => class_of(op),
    };
    let operator = match node.op {
        Op::Float(o) => Some(o),
        _ => None,
    };
    let width = match node.op {
        Op::Float(o) => o.format.width(),
        _ => node.width,
    };
    is_compute(class).then_some(Kind {
        class,
        width,
        operator,
    })
}

/// The work of `k`; `None` where a bound depends on data, an
/// `scf.while` runs, or the run is too long to walk.
pub fn of(k: &Kernel) -> Option<Work> {
    let support = Support::of(k);
    let guards = guards(k);
    let repeats = (0..k.nodes.len())
        .map(|n| repeats(k, &support, &guards, n))
        .collect();
    let mut w = Walk {
        k,
        support,
        guards,
        repeats,
        seen: FxHashSet::default(),
        env: vec![None; k.loops.len()],
        budget: BUDGET,
        operations: Vec::new(),
        read: BTreeMap::new(),
        written: BTreeMap::new(),
    };
    w.items(&k.body)?;
    let mut footprint = BTreeMap::new();
    for m in 0..k.memories.len() {
        if k.memories[m].arg.is_none() {
            continue;
        }
        let count = |s: &BTreeMap<MemId, BTreeSet<i64>>| s.get(&m).map_or(0, |a| a.len() as u64);
        let (r, wr) = (count(&w.read), count(&w.written));
        if r + wr > 0 {
            footprint.insert(m, (r, wr));
        }
    }
    Some(Work {
        operations: w.operations,
        footprint,
    })
}

/// Predicates a node's value is used under, at most this many.
const GUARDS: usize = 8;

/// Per node, the predicates of the memory accesses its value reaches
/// (through other operations, all its uses), where every use ends at an
/// access under a predicate (an `affine.if`'s converted branch: a copy's
/// scaling of the elements its test admits): the value is work only
/// where one holds. None where some use is not so guarded (an access
/// without a predicate, a predicate, a loop's carried value or bound,
/// a result), or there are more than [`GUARDS`].
fn guards(k: &Kernel) -> Vec<Option<Vec<Val>>> {
    let mut users = vec![Vec::new(); k.nodes.len()];
    for (u, node) in k.nodes.iter().enumerate() {
        for &a in &node.args {
            if let Val::Node(n) = a {
                users[n].push(u);
            }
        }
    }
    let mut elsewhere = vec![false; k.nodes.len()];
    for v in k.other_vals() {
        if let Val::Node(n) = v {
            elsewhere[n] = true;
        }
    }
    let mut memo: Vec<Option<Option<Vec<Val>>>> = vec![None; k.nodes.len()];
    (0..k.nodes.len())
        .map(|n| guard_of(k, n, &users, &elsewhere, &mut memo))
        .collect()
}

/// [`guards`]' entry of node `n` (`memo`: the nodes' entries found).
fn guard_of(
    k: &Kernel,
    n: usize,
    users: &[Vec<usize>],
    elsewhere: &[bool],
    memo: &mut Vec<Option<Option<Vec<Val>>>>,
) -> Option<Vec<Val>> {
    if let Some(g) = &memo[n] {
        return g.clone();
    }
    // Cut a cycle (none in a block's dataflow, but cheap to be sure).
    memo[n] = Some(None);
    let g = (|| {
        if elsewhere[n] || users[n].is_empty() {
            return None;
        }
        let mut predicates: Vec<Val> = Vec::new();
        for &u in &users[n] {
            let node = &k.nodes[u];
            let predicate = match node.op {
                Op::Store(_) if node.args.len() > 2 => Some(node.args[2]),
                Op::Load(_) if node.args.len() > 1 && node.args[0] == Val::Node(n) => {
                    Some(node.args[1])
                }
                _ => None,
            };
            let reached = match predicate {
                Some(p) if p != Val::Node(n) => vec![p],
                _ if node.op.memory().is_some() => return None,
                _ => guard_of(k, u, users, elsewhere, memo)?,
            };
            for p in reached {
                if !predicates.contains(&p) {
                    predicates.push(p);
                }
            }
        }
        (predicates.len() <= GUARDS).then_some(predicates)
    })();
    memo[n] = Some(g.clone());
    g
}

/// The loops around node `n` it does not vary with, with their first
/// induction values, where the node computes each of its values first
/// at their first iterations: every loop around it has constant bounds
/// (the loops it varies with run the same iterations at each iteration
/// of the others) and runs, and the node is under no guard (it is work
/// wherever its block runs). None otherwise, and for a node that varies
/// with every loop around it.
fn repeats(
    k: &Kernel,
    support: &Support,
    guards: &[Option<Vec<Val>>],
    n: usize,
) -> Option<Vec<(LoopId, i64)>> {
    let unguarded = guards[n].is_none() && !k.windows.iter().any(|g| g.nodes.contains(&n));
    if !unguarded || support.full(k, n) {
        return None;
    }
    let mut first = Vec::new();
    for &l in support.around(k, n) {
        let lp = &k.loops[l];
        let (lo, hi) = (lp.lower.constant()?, lp.upper.constant()?);
        if hi <= lo || lp.step <= 0 || lp.test.is_some() {
            return None;
        }
        if !support.loops(n).contains(&l) {
            first.push((l, lo));
        }
    }
    Some(first)
}

struct Walk<'a> {
    k: &'a Kernel,
    support: Support,
    guards: Vec<Option<Vec<Val>>>,
    /// Per node, [`repeats`]: the loops at whose first iterations it
    /// computes its values, where it does (found without `seen`).
    repeats: Vec<Option<Vec<(LoopId, i64)>>>,
    /// The values computed of nodes that do not vary with every loop
    /// around them: the node and a hash of its support's iterations.
    seen: FxHashSet<(usize, u64)>,
    env: Vec<Option<i64>>,
    budget: u64,
    operations: Vec<(Kind, u64)>,
    read: BTreeMap<MemId, BTreeSet<i64>>,
    written: BTreeMap<MemId, BTreeSet<i64>>,
}

impl Walk<'_> {
    fn items(&mut self, items: &[Item]) -> Option<()> {
        for it in items {
            match *it {
                Item::Block(b) => self.block(b, 1)?,
                Item::Loop(l) => self.run_loop(l)?,
                Item::Dma(d) => self.dma(d)?,
                Item::Call(_) => {}
            }
        }
        Some(())
    }

    /// Block `b` run `times` times at the current induction values (its
    /// accesses' addresses are the same each time: only those of the
    /// first run are recorded).
    fn block(&mut self, b: usize, times: u64) -> Option<()> {
        let k = self.k;
        for &n in &k.blocks[b] {
            self.budget = self.budget.checked_sub(1)?;
            if !self.guard_holds(n) {
                continue;
            }
            let work = kind(k, n).filter(|_| self.used(n) && self.new_value(n));
            if let Some(kind) = work {
                match self.operations.iter_mut().find(|(x, _)| *x == kind) {
                    Some(o) => o.1 += times,
                    None => self.operations.push((kind, times)),
                }
            }
            let node = &k.nodes[n];
            let (m, predicated, set) = match node.op {
                Op::Load(m) => (m, node.args.len() > 1, &mut self.read),
                Op::Store(m) => (m, node.args.len() > 2, &mut self.written),
                _ => continue,
            };
            if predicated || k.memories[m].arg.is_none() {
                continue;
            }
            if let Some(a) = value(k, &self.env, node.args[0], DEPTH) {
                set.entry(m).or_default().insert(a);
            }
        }
        Some(())
    }

    /// Whether node `n` computes a value it has not computed yet at the
    /// current induction values (always, where it varies with every loop
    /// around it).
    fn new_value(&mut self, n: usize) -> bool {
        if self.support.full(self.k, n) {
            return true;
        }
        if let Some(first) = &self.repeats[n] {
            return (first.iter()).all(|&(l, lo)| self.env[l] == Some(lo));
        }
        let mut h = rustc_hash::FxHasher::default();
        for &l in self.support.loops(n) {
            self.env[l].hash(&mut h);
        }
        self.seen.insert((n, h.finish()))
    }

    /// Whether node `n` does work at the current induction values: not
    /// where a line buffer's guard over it does not hold.
    fn guard_holds(&self, n: usize) -> bool {
        (self.k.windows.iter())
            .filter(|g| g.nodes.contains(&n))
            .all(|g| (g.from.iter()).all(|&(l, v)| self.env[l].is_none_or(|x| x >= v)))
    }

    /// Whether node `n`'s value is used at the current induction
    /// values: some predicate of the accesses it reaches holds, or is
    /// not known.
    fn used(&self, n: usize) -> bool {
        let Some(predicates) = &self.guards[n] else {
            return true;
        };
        (predicates.iter()).any(|&p| value(self.k, &self.env, p, DEPTH) != Some(0))
    }

    fn run_loop(&mut self, l: LoopId) -> Option<()> {
        let k = self.k;
        let lp = &k.loops[l];
        if lp.test.is_some() {
            return None;
        }
        let Iterations { lo, step, count } = flat_iterations(k, &self.env, l)?;
        // A flattened loop: its inner loops' induction variables move
        // with it; walk the nest as the flattened iterations do.
        if !lp.flat.is_empty() {
            return self.flattened(l);
        }
        let mut iv = lo;
        for _ in 0..count {
            self.env[l] = Some(iv);
            for &b in &lp.sunk {
                self.block(b, 1)?;
            }
            let body = lp.body.clone();
            self.items(&body)?;
            iv += step;
        }
        self.env[l] = None;
        Some(())
    }

    /// A flattened nest (loop `l` and the loops of `flat`) run as its
    /// counter chain steps the induction variables.
    fn flattened(&mut self, l: LoopId) -> Option<()> {
        let k = self.k;
        let lp = &k.loops[l];
        let limit = usize::try_from(self.budget).unwrap_or(usize::MAX);
        let (nest, points) = flat_points(k, &self.env, l, limit)?;
        for ivs in points.chunks(nest.len()) {
            for (&m, &v) in nest.iter().zip(ivs) {
                self.env[m] = Some(v);
            }
            for &b in &lp.sunk {
                self.block(b, 1)?;
            }
            let body = lp.body.clone();
            self.items(&body)?;
        }
        for &m in &nest {
            self.env[m] = None;
        }
        Some(())
    }

    /// DMA operation `d`: a transfer's words of an external memory.
    fn dma(&mut self, d: usize) -> Option<()> {
        let k = self.k;
        let Some(t) = &k.dmas[d].transfer else {
            return Some(());
        };
        let eval = |v: Val| value(k, &self.env, v, DEPTH);
        let count = match t.count {
            Val::Const(c) => u64::try_from(k.consts[c].0).ok()?,
            v => u64::try_from(eval(v)?).ok()?,
        };
        let stride = match t.stride {
            Some((s, per)) => Some((eval(s)?, eval(per)?.max(1))),
            None => None,
        };
        for (m, base, slow, set) in [
            (t.src, eval(t.src_address)?, t.src_is_slow, &mut self.read),
            (
                t.dst,
                eval(t.dst_address)?,
                !t.src_is_slow,
                &mut self.written,
            ),
        ] {
            if k.memories[m].arg.is_none() {
                continue;
            }
            self.budget = self.budget.checked_sub(count)?;
            let words = set.entry(m).or_default();
            for i in 0..count as i64 {
                let a = match stride {
                    Some((s, per)) if slow => base + (i / per) * s + i % per,
                    _ => base + i,
                };
                words.insert(a);
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::kernel;

    #[test]
    fn gemm_does_its_products_and_moves_each_element_once() {
        let k = kernel(
            "func.func @g(%a: memref<4x8xi16>, %b: memref<8x6xi16>, %c: memref<4x6xi16>) {
               affine.for %i = 0 to 4 {
                 affine.for %j = 0 to 6 {
                   affine.for %k = 0 to 8 {
                     %x = affine.load %a[%i, %k] : memref<4x8xi16>
                     %y = affine.load %b[%k, %j] : memref<8x6xi16>
                     %p = arith.muli %x, %y : i16
                     %z = affine.load %c[%i, %j] : memref<4x6xi16>
                     %s = arith.addi %z, %p : i16
                     affine.store %s, %c[%i, %j] : memref<4x6xi16>
                   }
                 }
               }
               return
             }",
            "g",
        );
        let w = of(&k).unwrap();
        let mul = Kind {
            class: "mul",
            width: 16,
            operator: None,
        };
        let count = |kind: &Kind| w.operations.iter().find(|(x, _)| x == kind).map(|o| o.1);
        assert_eq!(count(&mul), Some(4 * 6 * 8));
        let add = w
            .operations
            .iter()
            .filter(|(k, _)| k.class == "add" && k.width == 16)
            .map(|(_, n)| *n)
            .sum::<u64>();
        assert_eq!(add, 4 * 6 * 8);
        let by_name = |name: &str| {
            let m = k.memories.iter().position(|m| m.name == name).unwrap();
            w.footprint[&m]
        };
        assert_eq!(by_name("arg0"), (32, 0));
        assert_eq!(by_name("arg1"), (48, 0));
        assert_eq!(by_name("arg2"), (24, 24));
    }

    #[test]
    fn a_shift_by_a_constant_is_wiring() {
        let k = kernel(
            "func.func @g(%a: memref<8xi32>, %n: i32) {
               %c5 = arith.constant 5 : i32
               affine.for %i = 0 to 8 {
                 %x = affine.load %a[%i] : memref<8xi32>
                 %s = arith.shrsi %x, %c5 : i32
                 %t = arith.shli %s, %n : i32
                 affine.store %t, %a[%i] : memref<8xi32>
               }
               return
             }",
            "g",
        );
        let w = of(&k).unwrap();
        let shifts: u64 = (w.operations.iter())
            .filter(|(x, _)| x.class == "shift")
            .map(|o| o.1)
            .sum();
        // The shift by %n is a barrel shifter; the one by 5 is wires.
        assert_eq!(shifts, 8);
    }

    #[test]
    fn an_invariant_product_counts_once_per_value() {
        // alpha * A[i][k] does not vary with j: 4 x 8 values, not 4 x 6 x 8.
        let k = kernel(
            "func.func @g(%alpha: i32, %a: memref<4x8xi32>, %b: memref<8x6xi32>, %c: memref<4x6xi32>) {
               affine.for %i = 0 to 4 {
                 affine.for %j = 0 to 6 {
                   affine.for %k = 0 to 8 {
                     %x = affine.load %a[%i, %k] : memref<4x8xi32>
                     %ax = arith.muli %alpha, %x : i32
                     %y = affine.load %b[%k, %j] : memref<8x6xi32>
                     %p = arith.muli %ax, %y : i32
                     %z = affine.load %c[%i, %j] : memref<4x6xi32>
                     %s = arith.addi %z, %p : i32
                     affine.store %s, %c[%i, %j] : memref<4x6xi32>
                   }
                 }
               }
               return
             }",
            "g",
        );
        let w = of(&k).unwrap();
        let muls: u64 = (w.operations.iter())
            .filter(|(x, _)| x.class == "mul")
            .map(|o| o.1)
            .sum();
        assert_eq!(muls, 4 * 8 + 4 * 6 * 8);
    }

    #[test]
    fn a_product_under_a_test_counts_where_the_test_holds() {
        // The lower triangle (j <= i) is scaled: 4 * 5 / 2 = 10 products
        // of the 16 iterations.
        let k = kernel(
            "func.func @t(%beta: i32, %c: memref<4x4xi32>) {
               affine.for %i = 0 to 4 {
                 affine.for %j = 0 to 4 {
                   %x = affine.load %c[%i, %j] : memref<4x4xi32>
                   affine.if affine_set<(d0, d1) : (d0 - d1 >= 0)>(%i, %j) {
                     %p = arith.muli %x, %beta : i32
                     affine.store %p, %c[%i, %j] : memref<4x4xi32>
                   }
                 }
               }
               return
             }",
            "t",
        );
        let w = of(&k).unwrap();
        let muls: u64 = (w.operations.iter())
            .filter(|(x, _)| x.class == "mul")
            .map(|o| o.1)
            .sum();
        assert_eq!(muls, 10);
    }

    #[test]
    fn a_data_dependent_bound_has_no_count() {
        let k = kernel(
            "func.func @d(%n: index, %a: memref<8xi32>) {
               %c0 = arith.constant 0 : i32
               affine.for %i = 0 to %n {
                 affine.store %c0, %a[0] : memref<8xi32>
               }
               return
             }",
            "d",
        );
        assert_eq!(of(&k), None);
    }
}
