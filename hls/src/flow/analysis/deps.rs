//! Memory dependences carried across the iterations of a pipelined loop.
//! Pairs of `affine.load`/`affine.store` accesses take theirs from the
//! affine layer's exact dependence analysis
//! (`silica_affine::dependence::loop_carried_dependences`: the smallest
//! distance, in iterations). Pairs involving `memref.load`/`store`, which
//! that analysis does not see, read addresses as linear forms
//! `c * iv + sum(a_k * x_k) + k0` over the loop's induction variable and
//! loop-invariant atoms: two accesses whose invariant parts agree touch the
//! same word in iterations `d` apart exactly when `c * d * step = k0' -
//! k0`, which gives the distance (or proves independence); anything else
//! is conservatively a dependence of distance 1 both ways.
//!
//! A flattened nest (one pipeline over the iterations of several loops)
//! takes the dependences carried by each loop of the nest, with their
//! distance vectors, from the affine analysis: a dependence carried by
//! loop `m` of the nest at least `d_m` iterations apart, and at least
//! `d_q` apart in each loop `q` inside it, is at least `sum(d_q * P_q)`
//! flattened iterations apart (`P_q` the iterations of the loops inside
//! `q`), and never less than 1. `memref` accesses in a flattened nest
//! count as dependent at distance 1.

use crate::model::kernel::{Kernel, LoopId, NodeId, Op, Val};
use rustc_hash::FxHashSet;
use silica_affine::dependence::{dependences, loop_carried_dependences, Precision};
use silica_ir::{Context, Ir, OpId};
use std::collections::BTreeMap;

/// A dependence `src -> dst`: `dst` in iteration `i + distance` must see
/// the effect of `src` in iteration `i`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MemDep {
    pub src: NodeId,
    pub dst: NodeId,
    pub distance: u32,
}

/// `coefficients` over atoms plus a constant. Arithmetic on forms is
/// checked: a form whose coefficients or constant leave `i128` (products
/// of extreme constants) is `None`, and its accesses count as dependent.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
struct Linear {
    terms: BTreeMap<AtomKey, i128>,
    constant: i128,
}

/// An atom of a linear form, ordered for comparison.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum AtomKey {
    Node(usize),
    Arg(usize),
    Iv(usize),
    Carried(usize, usize),
    Result(usize, usize),
}

impl Linear {
    fn atom(a: AtomKey) -> Linear {
        let mut terms = BTreeMap::new();
        terms.insert(a, 1);
        Linear { terms, constant: 0 }
    }

    fn scale(mut self, c: i128) -> Option<Linear> {
        for v in self.terms.values_mut() {
            *v = v.checked_mul(c)?;
        }
        self.terms.retain(|_, v| *v != 0);
        self.constant = self.constant.checked_mul(c)?;
        Some(self)
    }

    fn add(mut self, o: Linear) -> Option<Linear> {
        for (k, v) in o.terms {
            let t = self.terms.entry(k).or_insert(0);
            *t = t.checked_add(v)?;
        }
        self.terms.retain(|_, v| *v != 0);
        self.constant = self.constant.checked_add(o.constant)?;
        Some(self)
    }
}

/// The linear form of an address value; non-linear parts are atoms.
/// `None` when the form overflows `i128`.
fn linear(k: &Kernel, v: Val, depth: u32) -> Option<Linear> {
    let atom = |v: Val| match v {
        Val::Node(n) => AtomKey::Node(n),
        Val::Arg(i) => AtomKey::Arg(i),
        Val::Iv(l) => AtomKey::Iv(l),
        Val::Carried(l, i) => AtomKey::Carried(l, i),
        Val::Const(_) => AtomKey::Node(usize::MAX),
        Val::Result(c, i) => AtomKey::Result(c, i),
    };
    if let Some(c) = k.const_value(v) {
        return Some(Linear {
            terms: BTreeMap::new(),
            constant: c,
        });
    }
    let Val::Node(n) = v else {
        return Some(Linear::atom(atom(v)));
    };
    let node = &k.nodes[n];
    if depth > 32 {
        return Some(Linear::atom(atom(v)));
    }
    let arg = |i: usize| linear(k, node.args[i], depth + 1);
    match node.op {
        Op::Add => arg(0)?.add(arg(1)?),
        Op::Sub => arg(0)?.add(arg(1)?.scale(-1)?),
        Op::Mul => match (k.const_value(node.args[0]), k.const_value(node.args[1])) {
            (Some(c), _) => arg(1)?.scale(c),
            (_, Some(c)) => arg(0)?.scale(c),
            _ => Some(Linear::atom(atom(v))),
        },
        // A shift by a constant is a product (datapath rewriting makes
        // products by powers of two shifts).
        Op::Shl => match k.const_value(node.args[1]) {
            Some(c) if (0..62).contains(&c) => arg(0)?.scale(1 << c),
            _ => Some(Linear::atom(atom(v))),
        },
        _ => Some(Linear::atom(atom(v))),
    }
}

/// Whether accesses `a` and `b` of one memory, in one execution of the
/// block (or one iteration of the loop body) holding both, provably touch
/// two different words: their addresses' linear forms have the same
/// atoms (each has one value there) and constants whose difference is not
/// zero and less than the memory's words. An in-bounds pair of addresses
/// differing by such a constant stays distinct in any address width that
/// holds the memory, wrap-around included.
pub fn distinct_addresses(k: &Kernel, a: NodeId, b: NodeId) -> bool {
    let (na, nb) = (&k.nodes[a], &k.nodes[b]);
    let (Some(m), Some(mb)) = (na.op.memory(), nb.op.memory()) else {
        return false;
    };
    if m != mb {
        return false;
    }
    let Some(words) =
        (k.memories[m].shape.iter()).try_fold(1u128, |w, &d| w.checked_mul(u128::from(d)))
    else {
        return false;
    };
    let (Some(fa), Some(fb)) = (linear(k, na.args[0], 0), linear(k, nb.args[0], 0)) else {
        return false;
    };
    let Some(diff) = fa.constant.checked_sub(fb.constant) else {
        return false;
    };
    fa.terms == fb.terms && diff != 0 && diff.unsigned_abs() < words
}

/// The loop-carried memory dependences among the accesses `nodes` (in
/// program order) of the body of loop `l`, from the input IR's affine
/// dependence analysis where both accesses are affine.
pub fn loop_dependences(
    ctx: &Context,
    ir: &Ir,
    k: &Kernel,
    l: LoopId,
    nodes: &[NodeId],
) -> Vec<MemDep> {
    if !k.loops[l].flat.is_empty() {
        return flat_dependences(ctx, ir, k, l, nodes);
    }
    // The analysis sees affine accesses in affine loops only.
    let affine_loop = ctx.str(ir.op_name(k.loops[l].op)) == "affine.for";
    let affine = |n: NodeId| {
        affine_loop
            && k.nodes[n].op.memory().is_some()
            && matches!(
                ctx.str(ir.op_name(k.nodes[n].source)),
                "affine.load" | "affine.store"
            )
    };
    // An access to a partitioned array is one node per bank it may reach.
    let nodes_of = |op| -> Vec<NodeId> {
        nodes
            .iter()
            .copied()
            .filter(|&n| k.nodes[n].op.memory().is_some() && k.stands_for(n, op))
            .collect()
    };
    let step = k.loops[l].step.max(1);
    let mut out = Vec::new();
    for d in loop_carried_dependences(ctx, ir, k.loops[l].op) {
        // Distances are in values of the induction variable.
        let distance = d.min_distance.map_or(1, |m| {
            u32::try_from((m.max(1) + step - 1) / step).unwrap_or(u32::MAX)
        });
        for src in nodes_of(d.src) {
            for dst in nodes_of(d.dst) {
                if src != dst {
                    out.push(MemDep { src, dst, distance });
                }
            }
        }
    }
    out.extend(
        linear_dependences(k, l, nodes)
            .into_iter()
            .filter(|d| !(affine(d.src) && affine(d.dst))),
    );
    out
}

/// The dependences of the flattened nest rooted at loop `l`, distances in
/// flattened iterations.
fn flat_dependences(
    ctx: &Context,
    ir: &Ir,
    k: &Kernel,
    l: LoopId,
    nodes: &[NodeId],
) -> Vec<MemDep> {
    let chain: Vec<LoopId> = std::iter::once(l)
        .chain(k.loops[l].flat.iter().copied())
        .collect();
    let all_affine = chain
        .iter()
        .all(|&m| ctx.str(ir.op_name(k.loops[m].op)) == "affine.for");
    // Iterations of each loop inside the outermost (constant bounds; one
    // where they vary, see below), and the flattened iterations one
    // iteration of each loop spans.
    let trips: Vec<i64> = chain
        .iter()
        .map(|&m| {
            let lp = &k.loops[m];
            match (lp.lower.constant(), lp.upper.constant()) {
                (Some(a), Some(b)) => ceil_div((b - a).max(0), lp.step.max(1)),
                _ => 1,
            }
        })
        .collect();
    let mut span = vec![1i64; chain.len()];
    for q in (0..chain.len().saturating_sub(1)).rev() {
        span[q] = span[q + 1].saturating_mul(trips[q + 1]);
    }
    // An access to a partitioned array is one node per bank it may reach.
    let nodes_of = |op| -> Vec<NodeId> {
        nodes
            .iter()
            .copied()
            .filter(|&n| k.nodes[n].op.memory().is_some() && k.stands_for(n, op))
            .collect()
    };
    let mut out = Vec::new();
    let exact = if all_affine {
        dependences(ctx, ir, k.loops[l].op, Precision::Exact)
    } else {
        Vec::new()
    };
    let affine_node = |n: NodeId| {
        all_affine
            && matches!(
                ctx.str(ir.op_name(k.nodes[n].source)),
                "affine.load" | "affine.store"
            )
    };
    if all_affine {
        for d in &exact {
            let (srcs, dsts) = (nodes_of(d.src), nodes_of(d.dst));
            let Some(level) = d
                .carried_by
                .and_then(|c| chain.iter().position(|&m| k.loops[m].op == c))
            else {
                continue;
            };
            // Where the trips of a loop inside the carrying one vary,
            // the flattened iterations between the two accesses do too:
            // the next one, at least.
            let varying = chain[level + 1..].iter().any(|&m| {
                let lp = &k.loops[m];
                lp.lower.constant().is_none() || lp.upper.constant().is_none()
            });
            let mut distance = 0i64;
            for q in (level..chain.len()).filter(|_| !varying) {
                let step = k.loops[chain[q]].step.max(1);
                let comp = d
                    .components
                    .iter()
                    .find(|c| c.loop_op == k.loops[chain[q]].op);
                let lower = comp.and_then(|c| c.lower);
                let iters = match (q == level, lower) {
                    (true, Some(x)) => ceil_div(x.max(1), step),
                    (true, None) => 1,
                    (false, Some(x)) => x.div_euclid(step).max(-(trips[q] - 1)),
                    (false, None) => -(trips[q] - 1),
                };
                distance = distance.saturating_add(iters.saturating_mul(span[q]));
            }
            let distance = u32::try_from(distance.max(1)).unwrap_or(u32::MAX);
            for &src in &srcs {
                for &dst in dsts.iter().filter(|&&dst| dst != src) {
                    out.push(MemDep { src, dst, distance });
                }
            }
        }
    }
    out.extend(
        linear_dependences(k, l, nodes)
            .into_iter()
            .filter(|d| !(affine_node(d.src) && affine_node(d.dst))),
    );
    // Code sunk from around the inner loops: its accesses against every
    // other access to the same memory, where one writes, at distance 1
    // (the analysis above measures distances between accesses of one
    // depth). Between affine accesses, only where the analysis finds a
    // dependence from the one to the other at all (carried, or in
    // program order within an iteration of the loops around both): a
    // nest's result stored after its inner loops never meets the
    // element the next iteration loads before them.
    let sunk = |n: NodeId| k.loops[l].sunk.contains(&k.nodes[n].block);
    let pairs: FxHashSet<(OpId, OpId)> = exact.iter().map(|d| (d.src, d.dst)).collect();
    let ops_of = |n: NodeId| {
        std::iter::once(k.nodes[n].source).chain(k.combined.get(&n).into_iter().flatten().copied())
    };
    let related = |a: NodeId, b: NodeId| {
        !(affine_node(a) && affine_node(b))
            || ops_of(a).any(|x| ops_of(b).any(|y| pairs.contains(&(x, y))))
    };
    for &a in nodes {
        for &b in nodes {
            let (oa, ob) = (k.nodes[a].op, k.nodes[b].op);
            let store = matches!(oa, Op::Store(_)) || matches!(ob, Op::Store(_));
            if a != b
                && store
                && (sunk(a) || sunk(b))
                && oa.memory().is_some()
                && oa.memory() == ob.memory()
                && related(a, b)
            {
                out.push(MemDep {
                    src: a,
                    dst: b,
                    distance: 1,
                });
            }
        }
    }
    out
}

/// Loop-carried dependences among `nodes` from linear forms of their
/// addresses.
pub fn linear_dependences(k: &Kernel, l: LoopId, nodes: &[NodeId]) -> Vec<MemDep> {
    let body_blocks: Vec<usize> = k.loops[l]
        .body
        .iter()
        .filter_map(|it| match it {
            crate::model::kernel::Item::Block(b) => Some(*b),
            crate::model::kernel::Item::Loop(_)
            | crate::model::kernel::Item::Dma(_)
            | crate::model::kernel::Item::Call(_) => None,
        })
        .collect();
    let step = i128::from(k.loops[l].step);
    let iv = AtomKey::Iv(l);
    let mut out = Vec::new();
    for (i, &a) in nodes.iter().enumerate() {
        for &b in &nodes[i + 1..] {
            let (na, nb) = (&k.nodes[a], &k.nodes[b]);
            let (Some(ma), Some(mb)) = (na.op.memory(), nb.op.memory()) else {
                continue;
            };
            let store = matches!(na.op, Op::Store(_)) || matches!(nb.op, Op::Store(_));
            if ma != mb || !store {
                continue;
            }
            let both_ways = [
                MemDep {
                    src: a,
                    dst: b,
                    distance: 1,
                },
                MemDep {
                    src: b,
                    dst: a,
                    distance: 1,
                },
            ];
            let (Some(mut fa), Some(mut fb)) = (linear(k, na.args[0], 0), linear(k, nb.args[0], 0))
            else {
                out.extend(both_ways);
                continue;
            };
            let ca = fa.terms.remove(&iv).unwrap_or(0);
            let cb = fb.terms.remove(&iv).unwrap_or(0);
            // Atoms must not vary across iterations (values computed in
            // the body, such as loaded indices, do).
            let invariant = |f: &Linear| {
                f.terms.keys().all(|key| match *key {
                    AtomKey::Node(n) => n == usize::MAX || !body_blocks.contains(&k.nodes[n].block),
                    AtomKey::Carried(cl, _) => cl != l,
                    // The counters of a flattened nest vary too.
                    AtomKey::Iv(m) => !k.loops[l].flat.contains(&m),
                    _ => true,
                })
            };
            let exact =
                fa.terms == fb.terms && ca == cb && step != 0 && invariant(&fa) && invariant(&fb);
            // a at iteration x, b at iteration x + d:
            // ca*x + ka == ca*(x + d*step) + kb  <=>  ca*step*d == ka - kb.
            let diff = fa.constant.checked_sub(fb.constant);
            let unit = ca.checked_mul(step);
            let (true, Some(diff), Some(unit)) = (exact, diff, unit) else {
                out.extend(both_ways);
                continue;
            };
            if ca == 0 {
                if diff == 0 {
                    out.extend(both_ways);
                }
                continue;
            }
            match diff.checked_rem(unit) {
                Some(0) => {}
                Some(_) => continue,
                None => {
                    out.extend(both_ways);
                    continue;
                }
            }
            let d = diff / unit;
            // A distance past u32 still orders the pair: saturating keeps
            // a (looser than real, so sound) dependence instead of none.
            let dist = u32::try_from(d.unsigned_abs()).unwrap_or(u32::MAX);
            if d > 0 {
                out.push(MemDep {
                    src: a,
                    dst: b,
                    distance: dist,
                });
            } else if d < 0 {
                out.push(MemDep {
                    src: b,
                    dst: a,
                    distance: dist,
                });
            }
        }
    }
    out
}

/// `ceil(a / b)` for a positive `b`.
fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

#[cfg(test)]
mod tests {
    use super::{distinct_addresses, linear_dependences, MemDep};
    use crate::test_support::kernel;

    fn deps(text: &str) -> Vec<MemDep> {
        let k = kernel(text, "f");
        let nodes = k.body_nodes(0);
        linear_dependences(&k, 0, &nodes)
    }

    #[test]
    fn shifted_accesses_give_the_exact_distance() {
        // a[i + 2] is written two iterations before a[i] reads it.
        let d = deps(
            "func.func @f(%a: memref<40xi8>) {
               %c2 = arith.constant 2 : index
               affine.for %i = 0 to 32 {
                 %v = memref.load %a[%i] : memref<40xi8>
                 %j = arith.addi %i, %c2 : index
                 memref.store %v, %a[%j] : memref<40xi8>
               }
               return
             }",
        );
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].distance, 2);
        assert!(d[0].src > d[0].dst, "the store is the source");
    }

    #[test]
    fn the_same_word_in_every_iteration_is_independent_across_them_only_when_it_moves() {
        let same = deps(
            "func.func @f(%a: memref<40xi8>) {
               affine.for %i = 0 to 32 {
                 %v = memref.load %a[%i] : memref<40xi8>
                 memref.store %v, %a[%i] : memref<40xi8>
               }
               return
             }",
        );
        assert!(same.is_empty());
        let fixed = deps(
            "func.func @f(%a: memref<40xi8>) {
               %c3 = arith.constant 3 : index
               affine.for %i = 0 to 32 {
                 %v = memref.load %a[%c3] : memref<40xi8>
                 memref.store %v, %a[%c3] : memref<40xi8>
               }
               return
             }",
        );
        assert_eq!(fixed.len(), 2);
        assert!(fixed.iter().all(|d| d.distance == 1));
    }

    #[test]
    fn loaded_indices_are_conservative() {
        let d = deps(
            "func.func @f(%a: memref<40xi8>, %b: memref<40xi8>) {
               affine.for %i = 0 to 32 {
                 %w = memref.load %b[%i] : memref<40xi8>
                 %j = arith.index_castui %w : i8 to index
                 %v = memref.load %a[%j] : memref<40xi8>
                 memref.store %v, %a[%j] : memref<40xi8>
               }
               return
             }",
        );
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn addresses_whose_linear_forms_overflow_are_dependent() {
        // i * C * C * C with C = 3^39 has a coefficient past i128 (3^117):
        // unchecked, debug builds panicked and release ones wrapped. The
        // form is unknown, so the accesses depend both ways at distance 1
        // and are not provably distinct.
        let k = kernel(
            "func.func @f(%a: memref<40xi8>) {
               %c = arith.constant 4052555153018976267 : index
               %c1 = arith.constant 1 : index
               affine.for %i = 0 to 32 {
                 %x = arith.muli %i, %c : index
                 %y = arith.muli %x, %c : index
                 %z = arith.muli %y, %c : index
                 %v = memref.load %a[%z] : memref<40xi8>
                 %z1 = arith.addi %z, %c1 : index
                 memref.store %v, %a[%z1] : memref<40xi8>
               }
               return
             }",
            "f",
        );
        let nodes = k.body_nodes(0);
        let d = linear_dependences(&k, 0, &nodes);
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d.iter().all(|d| d.distance == 1));
        assert_eq!((d[0].src, d[0].dst), (d[1].dst, d[1].src));
        assert!(!distinct_addresses(&k, d[0].src, d[0].dst));
    }

    #[test]
    fn a_distance_past_u32_still_orders_the_pair() {
        // a[i + 2^33] is written 2^33 iterations before a[i] reads it: the
        // distance does not fit a u32, and the pair was left unordered.
        let d = deps(
            "func.func @f(%a: memref<40xi8>) {
               %c = arith.constant 8589934592 : index
               affine.for %i = 0 to 32 {
                 %v = memref.load %a[%i] : memref<40xi8>
                 %j = arith.addi %i, %c : index
                 memref.store %v, %a[%j] : memref<40xi8>
               }
               return
             }",
        );
        assert_eq!(d.len(), 1, "{d:?}");
        assert_eq!(d[0].distance, u32::MAX);
        assert!(d[0].src > d[0].dst, "the store is the source");
    }

    #[test]
    fn addresses_differing_by_a_constant_within_the_memory_are_distinct() {
        // a[i], a[i + 1], a[i] again, a[i + 40], b[i + 1], a[j].
        let k = kernel(
            "func.func @f(%a: memref<40xi8>, %b: memref<40xi8>, %j: index) {
               %c1 = arith.constant 1 : index
               %c40 = arith.constant 40 : index
               affine.for %i = 0 to 32 {
                 %v = memref.load %a[%i] : memref<40xi8>
                 %i1 = arith.addi %i, %c1 : index
                 memref.store %v, %a[%i1] : memref<40xi8>
                 memref.store %v, %a[%i] : memref<40xi8>
                 %i40 = arith.addi %i, %c40 : index
                 memref.store %v, %a[%i40] : memref<40xi8>
                 memref.store %v, %b[%i1] : memref<40xi8>
                 memref.store %v, %a[%j] : memref<40xi8>
               }
               return
             }",
            "f",
        );
        let access: Vec<usize> = k
            .body_nodes(0)
            .into_iter()
            .filter(|&n| k.nodes[n].op.memory().is_some())
            .collect();
        let [load, plus1, same, plus40, other, unknown] = access[..] else {
            panic!("six accesses, not {access:?}");
        };
        assert!(distinct_addresses(&k, load, plus1));
        assert!(distinct_addresses(&k, plus1, same));
        assert!(!distinct_addresses(&k, load, same), "the same word");
        // 40 apart in a memory of 40 words: one of them is out of bounds.
        assert!(!distinct_addresses(&k, load, plus40));
        assert!(!distinct_addresses(&k, load, other), "another memory");
        assert!(!distinct_addresses(&k, load, unknown), "an unrelated index");
    }
}
