//! Coordinate descent for one objective, the search of `silica hls
//! --auto` on spaces too large to enumerate. The knobs of a derived
//! space fall into groups that act mostly apart: the loops of each loop
//! nest (sequential nests share the device's units one after another, so
//! one nest's directives hardly change what another's gain), the arrays,
//! and the rest. From a starting point that transforms no loop, every
//! combination of one group's choices is evaluated with the other knobs
//! held, the best kept, group after group, in rounds until a round
//! changes nothing, the budget is spent or the deadline passes (each
//! group taking at most its share of the time left in a round, its
//! largest points first and none at least as large as one that gave no
//! design (as many copies of a loop body, however split between its
//! loops), nor one that makes more than twice the copies of a loop
//! body any one of its knobs offers; past
//! which a small group of the function's own knobs, `dataflow`, not yet
//! tried still is, once). A point
//! counts only where its objective is known (a design, that fits where
//! the caller asks so). In the first round a loop nest (or a loop of a
//! nest split by loop) may take no more than its part of the device the
//! nests before it left (the rest split evenly between it and the nests
//! or sibling loops after it), so that the first nest's
//! fastest design does not leave the others no room; the later rounds
//! give what is left to whichever nest gains most from it. Once the
//! rounds settle, each nest in turn gives up part of the device (its
//! fastest point that takes a tenth of it less) and the others are
//! searched again around that point, nearest their current copies of a
//! body first: a trade no single group's move finds.
//! Deterministic: the same space and results give the same points in
//! the same order; no point is asked for twice.

use crate::search::{Evaluated, Genes};
use crate::space::{Knob, Space};
use std::collections::BTreeMap;
use toml::Value;

/// The descent's limits.
#[derive(Clone, Copy, Debug)]
pub struct Descent {
    /// Evaluations at most.
    pub budget: usize,
    /// No group starts after this instant (the first always runs).
    pub deadline: Option<std::time::Instant>,
    /// Points a group may have; a larger group is split by the loops
    /// inside its nest, then by knob.
    pub group_limit: u128,
}

/// Rounds over the groups, at most.
const ROUNDS: usize = 3;

/// Points evaluated at once within a group, between looks at the clock.
const SHARE_CHUNK: usize = 2;

/// Points of a group of the function's own knobs that is still tried
/// once past the deadline, at most.
const FINISHING_POINTS: u128 = 4;

/// What an evaluation told of a point: its objective (none: no design,
/// or none that fits) and the share of the device it takes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Known {
    value: Option<f64>,
    usage: Option<f64>,
}

/// The group a dimension's knob falls in: a loop's nest (the first two
/// segments of its path, `gemm/0`), the arrays, or the rest.
fn group_key(knob: &Knob) -> (u8, String) {
    match knob {
        Knob::Loop(name, _) => {
            let nest: Vec<&str> = name.splitn(3, '/').take(2).collect();
            (0, nest.join("/"))
        }
        Knob::Array(..) => (1, String::new()),
        _ => (2, String::new()),
    }
}

/// Points of the dimensions `dims` of `space` together.
fn size(space: &Space, dims: &[usize]) -> u128 {
    (dims.iter()).fold(1u128, |n, &d| {
        n.saturating_mul(space.dims[d].choices.len() as u128)
    })
}

/// The groups of `space`'s dimensions in the order the descent takes
/// them: the loop nests in the order of the space, then the arrays, then
/// the rest; a group of more than `limit` points split by the loops
/// inside the nest (a loop with the loops inside it where they make at
/// most [`JOINT`] points, so that an outer loop's `jam` and an inner
/// one's `unroll`, which trade one for the other, move together), then
/// by knob.
pub fn groups(space: &Space, limit: u128) -> Vec<Vec<usize>> {
    let mut keyed: Vec<((u8, String), Vec<usize>)> = Vec::new();
    for (d, dim) in space.dims.iter().enumerate() {
        let key = group_key(&dim.knob);
        match keyed.iter_mut().find(|(k, _)| *k == key) {
            Some((_, dims)) => dims.push(d),
            None => keyed.push((key, vec![d])),
        }
    }
    keyed.sort_by_key(|((kind, _), _)| *kind);
    let mut out = Vec::new();
    for (_, dims) in keyed {
        if size(space, &dims) <= limit {
            out.push(dims);
        } else {
            split(space, dims, 3, limit.min(JOINT), &mut out);
        }
    }
    out
}

/// The most points of a loop's knobs and its inner loops' that move
/// together once their nest is split.
const JOINT: u128 = 32;

/// Splits the group `dims` into groups of at most `limit` points: by
/// the first `depth` segments of its loops' paths (an array's name),
/// each part deeper again where it is too large, one knob a group where
/// the knobs are of one loop.
fn split(space: &Space, dims: Vec<usize>, depth: usize, limit: u128, out: &mut Vec<Vec<usize>>) {
    if dims.len() == 1 || size(space, &dims) <= limit {
        out.push(dims);
        return;
    }
    let mut parts: Vec<(String, Vec<usize>)> = Vec::new();
    let mut deeper = false;
    for &d in &dims {
        let name = match &space.dims[d].knob {
            Knob::Loop(n, _) | Knob::Array(n, _) => n.clone(),
            other => other.column(),
        };
        let segments: Vec<&str> = name.split('/').collect();
        deeper |= segments.len() > depth;
        let key = segments[..depth.min(segments.len())].join("/");
        match parts.iter_mut().find(|(n, _)| *n == key) {
            Some((_, ds)) => ds.push(d),
            None => parts.push((key, vec![d])),
        }
    }
    if parts.len() == 1 && !deeper {
        out.extend(dims.into_iter().map(|d| vec![d]));
        return;
    }
    for (_, ds) in parts {
        split(space, ds, depth + 1, limit, out);
    }
}

/// The starting point: every loop knob, and `dataflow`, at its choice
/// that changes nothing (a factor of 1, `false`) where it has one, every
/// other knob at its first choice. (With the nests one after another,
/// their latencies add up and each nest's best stands apart.)
pub fn start(space: &Space) -> Genes {
    (space.dims.iter())
        .map(|dim| {
            let neutral = |v: &Value| matches!(v, Value::Integer(1) | Value::Boolean(false));
            match dim.knob {
                Knob::Loop(..) | Knob::Dataflow => {
                    dim.choices.iter().position(neutral).unwrap_or(0)
                }
                _ => 0,
            }
        })
        .collect()
}

/// The factor choice `c` of dimension `d` asks for (1 for a choice that
/// is no number).
fn factor(space: &Space, d: usize, c: usize) -> i64 {
    space.dims[d].choices[c].as_integer().unwrap_or(1).max(1)
}

/// The copies of loop bodies point `g` makes in dimensions `dims`: the
/// product of its factors.
pub(crate) fn copies(space: &Space, dims: &[usize], g: &Genes) -> i64 {
    (dims.iter()).fold(1i64, |n, &d| n.saturating_mul(factor(space, d, g[d])))
}

/// The copies of loop bodies a point of the group `dims` may make: twice
/// the largest factor any one of its knobs offers (the derived space
/// offers a loop no more copies than the device's units hold; beyond
/// twice that, the units are shared and the pipeline's II grows with
/// the copies: they cost area and gain nothing). None for a group that
/// is not a loop nest's, or has no factors.
fn copies_cap(space: &Space, dims: &[usize]) -> Option<i64> {
    nest_of(space, dims)?;
    (dims.iter())
        .flat_map(|&d| space.dims[d].choices.iter().filter_map(Value::as_integer))
        .max()
        .filter(|&f| f > 1)
        .map(|f| 2 * f)
}

/// Whether point `g` is at least as large as point `f` in the
/// dimensions `dims`: the same choice in each that is no factor (a
/// pipeline, a flattening, a buffer) and, for a group of loop knobs, at
/// least the copies of the loop body `f` makes, however they are split
/// between the loops (the copies take the device's units and banks
/// alike); for other knobs (port widths) at least `f`'s factor in each.
fn at_least(space: &Space, dims: &[usize], g: &Genes, f: &Genes) -> bool {
    match nest_of(space, dims) {
        Some(_) => same_kind(space, dims, g, f) && copies(space, dims, g) >= copies(space, dims, f),
        None => at_least_in_each(space, dims, g, f),
    }
}

/// Whether points `g` and `f` make the same choice in each of the
/// dimensions `dims` that is no factor.
fn same_kind(space: &Space, dims: &[usize], g: &Genes, f: &Genes) -> bool {
    (dims.iter()).all(|&d| space.dims[d].choices[g[d]].is_integer() || g[d] == f[d])
}

/// Whether point `g` is at least as large as point `f` in each of the
/// dimensions `dims`: the same choice where it is no factor, at least
/// `f`'s factor elsewhere.
pub(crate) fn at_least_in_each(space: &Space, dims: &[usize], g: &Genes, f: &Genes) -> bool {
    same_kind(space, dims, g, f)
        && (dims.iter()).all(|&d| factor(space, d, g[d]) >= factor(space, d, f[d]))
}

/// How far past its group's limit a point's predicted share of the
/// device may be and the point still be tried: designs grow about in
/// proportion to their copies of a body, less where they share more or
/// their banks go to LUT RAM (jacobi-2d: a jam of 4 and an unroll of 4,
/// a little over half the copies of a jam of 4 and an unroll of 7 that
/// took 2.6 times the device's LUTs, takes 0.95 of the allowance).
const OVERSHOOT: f64 = 2.0;

/// Whether point `g` of the group `dims` is ruled out by the point
/// `failed` of the group that did not count (with the share of the
/// device it took, where known), `base` being the group's current point
/// (the same) and `limit` the share a point may take:
/// - where `failed` took no more than `limit` (it is no design, or has
///   more DSPs than the device, which the copies of a body take however
///   they are split between the loops), `g` is when it is at least as
///   large ([`at_least`]);
/// - where `failed` took more, its logic may come of how its copies are
///   split (a jam whose copies' accesses change banks with an outer
///   counter builds a multiplexer a bank), so `g` is when it is at least
///   as large in every knob, or at most as large in every knob and
///   predicted to take more than `limit` by far ([`OVERSHOOT`]) on the
///   line through `base` and `failed` by their copies of a body: a large
///   point that gives no design then rules out those nearly as large,
///   whose evaluations are as slow.
fn ruled_out(
    space: &Space,
    dims: &[usize],
    g: &Genes,
    (failed, took): (&Genes, Option<f64>),
    (base, base_took): (&Genes, Option<f64>),
    limit: f64,
) -> bool {
    let Some(u1) = took.filter(|&u| u > limit) else {
        return at_least(space, dims, g, failed);
    };
    if at_least_in_each(space, dims, g, failed) {
        return true;
    }
    let Some(u0) = base_took else {
        return false;
    };
    let (c0, c1, c) = (
        copies(space, dims, base),
        copies(space, dims, failed),
        copies(space, dims, g),
    );
    if !at_least_in_each(space, dims, failed, g) || c1 <= c0 || c <= c0 {
        return false;
    }
    let predicted = u0 + (u1 - u0) * (c - c0) as f64 / (c1 - c0) as f64;
    predicted > limit * OVERSHOOT
}

/// Every point that differs from `at` only in the dimensions `dims`.
fn neighbours(space: &Space, at: &Genes, dims: &[usize]) -> Vec<Genes> {
    let mut out = vec![at.clone()];
    for &d in dims {
        let n = space.dims[d].choices.len();
        out = (out.into_iter())
            .flat_map(|g| {
                (0..n).map(move |c| {
                    let mut g = g.clone();
                    g[d] = c;
                    g
                })
            })
            .collect();
    }
    out
}

/// Objectives this close, relative to each other, are a tie that the
/// smaller point wins.
const TIE: f64 = 0.005;

/// Whether `a` is a better point than `b`: a design where `b` is none, a
/// smaller objective, or one within [`TIE`] of `b`'s that takes less of
/// the device (a point as fast as another but smaller leaves the other
/// nests more room).
fn better(a: Known, b: Known) -> bool {
    let (Some(x), Some(y)) = (a.value, b.value) else {
        return a.value.is_some();
    };
    let smaller = matches!((a.usage, b.usage), (Some(u), Some(v)) if u < v);
    x < y - TIE * y.abs() || (x < y + TIE * y.abs() && (smaller || x < y && a.usage == b.usage))
}

/// The nest a group of loop knobs belongs to (none for a group of
/// other knobs).
fn nest_of(space: &Space, dims: &[usize]) -> Option<String> {
    let keys: Vec<(u8, String)> = dims
        .iter()
        .map(|&d| group_key(&space.dims[d].knob))
        .collect();
    match keys.first() {
        Some((0, nest)) if keys.iter().all(|k| k == &keys[0]) => Some(nest.clone()),
        _ => None,
    }
}

/// The outermost loop a group of one nest's loop knobs moves (none for
/// a group of other knobs).
fn part_of(space: &Space, dims: &[usize]) -> Option<String> {
    nest_of(space, dims)?;
    (dims.iter())
        .filter_map(|&d| match &space.dims[d].knob {
            Knob::Loop(name, _) => Some(name.clone()),
            _ => None,
        })
        .min_by_key(|name| name.split('/').count())
}

/// Whether the loops `a` and `b` are one inside the other (or one loop):
/// their designs share the device's part, where siblings split it.
fn nested(a: &str, b: &str) -> bool {
    let within = |inner: &str, outer: &str| {
        inner == outer || inner.starts_with(outer) && inner[outer.len()..].starts_with('/')
    };
    within(a, b) || within(b, a)
}

/// The share of the device a group's point may take in the first round:
/// for a group of loop knobs, what `current` takes and an even part of
/// what it leaves between this group's loop and the loops of the groups
/// after it that are neither inside nor around it nor each other (the
/// nests after it, or the sibling loops of a nest split by loop, which
/// run one after another but each with its own circuit); none for
/// other groups, or where the usage is not known.
fn first_round_allowance(
    space: &Space,
    groups: &[Vec<usize>],
    gi: usize,
    current: Option<f64>,
) -> Option<f64> {
    let part = part_of(space, &groups[gi])?;
    let used = current?;
    let mut parts: Vec<String> = vec![part];
    for dims in &groups[gi + 1..] {
        if let Some(p) = part_of(space, dims) {
            if !parts.iter().any(|q| nested(q, &p)) {
                parts.push(p);
            }
        }
    }
    Some(used + (1.0 - used).max(0.0) / parts.len() as f64)
}

/// A point of a loop nest's group that takes at least this share of the
/// device less than the settled point is worth giving the other nests
/// ([`Walk::exchange`]).
const FREED: f64 = 0.1;

/// The descent's state: the points evaluated and what they told.
struct Walk<'a> {
    space: &'a Space,
    params: Descent,
    known: BTreeMap<Genes, Known>,
    /// Evaluations spent.
    used: usize,
    evaluate: &'a mut dyn FnMut(&[Genes]) -> Vec<Evaluated>,
}

impl Walk<'_> {
    fn run(&mut self, batch: Vec<Genes>) {
        let results = (self.evaluate)(&batch);
        for (g, r) in batch.into_iter().zip(results) {
            self.used += usize::from(r.cost);
            let value = r.objectives.and_then(|o| o.first().copied());
            self.known.insert(
                g,
                Known {
                    value,
                    usage: r.usage,
                },
            );
        }
    }

    fn lookup(&self, g: &Genes) -> Known {
        self.known.get(g).copied().unwrap_or_default()
    }

    fn in_time(&self) -> bool {
        (self.params.deadline).is_none_or(|d| std::time::Instant::now() < d)
    }

    /// Evaluates the points of group `dims` around `current` (each
    /// counting where it is a design within `allowance`), the largest
    /// first or with `nearest` those nearest `current`'s copies of a body
    /// first, within `1 / parts` of the time left, and returns the best
    /// that counts (`current` on a tie).
    fn group(
        &mut self,
        current: &Genes,
        dims: &[usize],
        allowance: Option<f64>,
        nearest: bool,
        parts: usize,
    ) -> Genes {
        let space = self.space;
        // A point counts where it is a design within the allowance.
        let counts = |k: Known| {
            k.value.is_some() && allowance.is_none_or(|a| k.usage.is_some_and(|u| u <= a))
        };
        let cap = copies_cap(space, dims);
        let mut batch: Vec<Genes> = neighbours(space, current, dims)
            .into_iter()
            .filter(|g| !self.known.contains_key(g))
            .filter(|g| cap.is_none_or(|c| copies(space, dims, g) <= c))
            .collect();
        batch.truncate(self.params.budget.saturating_sub(self.used));
        // The group's share of the time left: the groups after it get
        // theirs, so that a large first nest does not leave the others
        // untried.
        let share = self.params.deadline.map(|d| {
            let now = std::time::Instant::now();
            now + d.saturating_duration_since(now) / parts.max(1) as u32
        });
        // The largest first (the fastest design is mostly the largest
        // that fits), or in an exchange the nearest in copies of a body
        // first, the larger on a tie: the other nests grow into the room
        // one gave up step by step, one a step larger that gives no
        // design ruling out all larger ones. A point at least as large as
        // one that did not count is not tried.
        batch.sort_by_key(|g| std::cmp::Reverse(copies(space, dims, g)));
        if nearest {
            let at = copies(space, dims, current).max(1);
            batch.sort_by_key(|g| {
                let c = copies(space, dims, g).max(1);
                // The ratio's distance from 1, in 1/1000ths.
                (c.max(at) * 1000) / c.min(at)
            });
        }
        // Points of the group known to be no design (in an earlier
        // round) rule out those at least as large from the start.
        let mut failed: Vec<Genes> = neighbours(space, current, dims)
            .into_iter()
            .filter(|g| self.known.get(g).is_some_and(|k| k.value.is_none()))
            .collect();
        let base = (current, self.lookup(current).usage);
        let limit = allowance.unwrap_or(1.0);
        let mut rest = batch.into_iter();
        loop {
            let chunk: Vec<Genes> = (rest.by_ref())
                .filter(|g| {
                    !(failed.iter()).any(|f| {
                        let f = (f, self.lookup(f).usage);
                        ruled_out(space, dims, g, f, base, limit)
                    })
                })
                .take(SHARE_CHUNK)
                .collect();
            if chunk.is_empty() {
                break;
            }
            self.run(chunk.clone());
            failed.extend(chunk.into_iter().filter(|g| !counts(self.lookup(g))));
            if share.is_some_and(|s| std::time::Instant::now() >= s) {
                break;
            }
        }
        // The best of the group's points that count, the current one on
        // a tie.
        let mut best = (current.clone(), self.lookup(current));
        for g in neighbours(space, current, dims) {
            let k = self.lookup(&g);
            if counts(k) && better(k, best.1) {
                best = (g, k);
            }
        }
        best.0
    }

    /// From the settled point `current`, each loop nest in turn gives up
    /// part of the device: its fastest point that counts and takes at
    /// least [`FREED`] of the device less, around which the other nests
    /// are searched again (nearest first). A nest a little slower may
    /// leave another room for twice its copies (mvt's two products, f32
    /// on ecp5-25k: the first at a jam of 10 leaves the second 4, 3,080
    /// cycles; at 8 it takes half the LUTs, and both at 8 take 2,439). The
    /// faster point found is kept, and the exchange goes on from it.
    fn exchange(&mut self, groups: &[Vec<usize>], mut current: Genes) {
        let space = self.space;
        let nests: Vec<usize> = (0..groups.len())
            .filter(|&gi| nest_of(space, &groups[gi]).is_some())
            .collect();
        for (i, &gi) in nests.iter().enumerate() {
            let here = self.lookup(&current);
            let (Some(_), Some(usage)) = (here.value, here.usage) else {
                return;
            };
            if !self.in_time() || self.used >= self.params.budget {
                return;
            }
            let freed = neighbours(space, &current, &groups[gi])
                .into_iter()
                .filter_map(|g| {
                    let k = self.lookup(&g);
                    let v = k.value?;
                    (k.usage? <= usage - FREED).then_some((g, v))
                })
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let Some((mut trial, _)) = freed else {
                continue;
            };
            let others: Vec<usize> = nests.iter().copied().filter(|&gj| gj != gi).collect();
            for (j, &gj) in others.iter().enumerate() {
                if !self.in_time() || self.used >= self.params.budget {
                    break;
                }
                let parts = (others.len() - j) + (nests.len() - i - 1) * others.len();
                trial = self.group(&trial, &groups[gj], None, true, parts);
            }
            if better(self.lookup(&trial), here) {
                current = trial;
            }
        }
    }
}

/// Runs the descent on `space` for the first objective; `evaluate` takes
/// a batch of new points.
pub fn descent(
    space: &Space,
    params: Descent,
    evaluate: &mut dyn FnMut(&[Genes]) -> Vec<Evaluated>,
) {
    let mut walk = Walk {
        space,
        params,
        known: BTreeMap::new(),
        used: 0,
        evaluate,
    };
    let mut current = start(space);
    walk.run(vec![current.clone()]);
    let groups = groups(space, params.group_limit);
    // Whether each group has been tried at some point.
    let mut tried = vec![false; groups.len()];
    for round in 0..ROUNDS {
        let mut changed = false;
        for (gi, dims) in groups.iter().enumerate() {
            if walk.used >= params.budget {
                return;
            }
            // Past the deadline, only the small groups of the function's
            // own knobs (`dataflow`) not yet tried are: they decide how
            // the nests chosen so far run, at a point or two each.
            let finishing = (dims.iter())
                .all(|&d| !matches!(space.dims[d].knob, Knob::Loop(..) | Knob::Array(..)))
                && size(space, dims) <= FINISHING_POINTS;
            if !walk.in_time() && (tried[gi] || !finishing) {
                continue;
            }
            tried[gi] = true;
            let allowance = match round {
                0 => {
                    let at = walk.lookup(&current);
                    let used = at.usage.filter(|_| at.value.is_some());
                    first_round_allowance(space, &groups, gi, used)
                }
                _ => None,
            };
            let best = walk.group(&current, dims, allowance, false, groups.len() - gi);
            if best != current {
                current = best;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    walk.exchange(&groups, current);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Dimension;

    fn dim(knob: Knob, choices: Vec<Value>) -> Dimension {
        Dimension { knob, choices }
    }

    fn ints(v: &[i64]) -> Vec<Value> {
        v.iter().copied().map(Value::Integer).collect()
    }

    /// Two nests of two knobs each, and an array knob.
    fn space() -> Space {
        let lp = |n: &str, k: &'static str| Knob::Loop(n.into(), k);
        Space {
            dims: vec![
                dim(Knob::Array("A".into(), "width"), ints(&[2, 1])),
                dim(
                    lp("f/0", "flatten"),
                    vec![Value::Boolean(true), Value::Boolean(false)],
                ),
                dim(lp("f/0/0", "unroll"), ints(&[8, 4, 2, 1])),
                dim(lp("f/1/0", "unroll"), ints(&[4, 2, 1])),
            ],
            dma_capacity_kib: 1,
            buffers: Vec::new(),
        }
    }

    #[test]
    fn a_large_nest_moves_a_loop_with_its_inner_loops_up_to_joint_points() {
        let lp = |n: &str, k: &'static str, c: &[i64]| dim(Knob::Loop(n.into(), k), ints(c));
        let flatten = |n: &str| {
            dim(
                Knob::Loop(n.into(), "flatten"),
                vec![Value::Boolean(true), Value::Boolean(false)],
            )
        };
        let space = Space {
            dims: vec![
                lp("f/0/0", "jam", &[4, 3, 2, 1]),
                lp("f/0/0/0", "unroll", &[4, 3, 2, 1]),
                lp("f/0/1", "jam", &[4, 3, 2, 1]),
                flatten("f/0/1"),
                lp("f/0/1/0", "unroll", &[6, 5, 4, 3, 2, 1]),
            ],
            dma_capacity_kib: 1,
            buffers: Vec::new(),
        };
        // 16 points move together; 48 (more than JOINT) go loop by loop.
        assert_eq!(groups(&space, 128), [vec![0, 1], vec![2, 3], vec![4]]);
    }

    #[test]
    fn groups_follow_the_nests_then_the_arrays() {
        assert_eq!(groups(&space(), 64), [vec![1, 2], vec![3], vec![0]]);
        // Too large a nest splits by loop.
        assert_eq!(groups(&space(), 4), [vec![1], vec![2], vec![3], vec![0]]);
        // A loop moves with the loops inside it where they fit a group.
        let mut deep = space();
        deep.dims
            .insert(3, dim(Knob::Loop("f/1".into(), "jam"), ints(&[2, 1])));
        deep.dims.insert(
            4,
            dim(Knob::Loop("f/1/0/0".into(), "unroll"), ints(&[2, 1])),
        );
        // f/0's knobs make 8 points, f/1's 12.
        assert_eq!(groups(&deep, 12), [vec![1, 2], vec![3, 4, 5], vec![0]]);
        assert_eq!(groups(&deep, 8), [vec![1, 2], vec![3], vec![4, 5], vec![0]]);
        assert_eq!(
            groups(&deep, 4),
            [vec![1], vec![2], vec![3], vec![4], vec![5], vec![0]]
        );
        assert_eq!(start(&space()), [0, 1, 3, 2]);
    }

    #[test]
    fn finds_each_nests_best_and_asks_no_point_twice() {
        // Latency: each nest's time, the first's best flattened and at 8.
        let cost = |g: &Genes| {
            let first = [10.0, 20.0, 40.0, 80.0][g[2]] * if g[1] == 0 { 1.0 } else { 1.5 };
            let second = [30.0, 50.0, 90.0][g[3]];
            first + second + g[0] as f64
        };
        let mut seen: Vec<Genes> = Vec::new();
        let params = Descent {
            budget: 100,
            deadline: None,
            group_limit: 64,
        };
        descent(&space(), params, &mut |batch| {
            seen.extend(batch.iter().cloned());
            (batch.iter())
                .map(|g| Evaluated {
                    objectives: Some(vec![cost(g)]),
                    cost: true,
                    usage: None,
                })
                .collect()
        });
        assert!(seen.contains(&vec![0, 0, 0, 0]), "{seen:?}");
        let best = seen.iter().map(cost).fold(f64::MAX, f64::min);
        assert_eq!(best, 40.0);
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seen.len());
        assert_eq!(seen[0], start(&space()));
        // The second round re-tries the first nest beside the second's
        // choice, then nothing changes.
        assert_eq!(seen.len(), 1 + 7 + 2 + 1 + 7, "{seen:?}");
    }

    #[test]
    fn points_that_are_no_design_are_never_kept() {
        let mut batches: Vec<Vec<Genes>> = Vec::new();
        let params = Descent {
            budget: 100,
            deadline: None,
            group_limit: 64,
        };
        // Unrolling the first nest by 8 gives no design.
        descent(&space(), params, &mut |batch| {
            batches.push(batch.to_vec());
            (batch.iter())
                .map(|g| Evaluated {
                    objectives: (g[2] != 0).then(|| vec![g[2] as f64 + g[3] as f64]),
                    cost: true,
                    usage: None,
                })
                .collect()
        });
        // The second nest's points hold the first at its best design, 4.
        assert!(batches[2].iter().all(|g| g[2] == 1), "{batches:?}");
    }

    /// The points the descent over [`space`] asks for, in order, and the
    /// fastest of them that fits, where a point takes `usage` of the
    /// device (no design beyond all of it) and its objective is `cost`.
    fn on_the_device(
        usage: &dyn Fn(&Genes) -> f64,
        cost: &dyn Fn(&Genes) -> f64,
    ) -> (Vec<Genes>, Genes) {
        let mut seen: Vec<Genes> = Vec::new();
        let params = Descent {
            budget: 100,
            deadline: None,
            group_limit: 64,
        };
        descent(&space(), params, &mut |batch| {
            seen.extend(batch.iter().cloned());
            (batch.iter())
                .map(|g| Evaluated {
                    objectives: (usage(g) <= 1.0).then(|| vec![cost(g)]),
                    cost: true,
                    usage: Some(usage(g)),
                })
                .collect()
        });
        let best = (seen.iter())
            .filter(|g| usage(g) <= 1.0)
            .min_by(|a, b| cost(a).total_cmp(&cost(b)))
            .cloned()
            .unwrap();
        (seen, best)
    }

    #[test]
    fn the_first_nest_leaves_the_second_its_part_of_the_device() {
        // Each unroll factor of a nest takes a tenth of the device a copy;
        // the start takes a tenth. Alone, the first nest's best is 8
        // copies (0.9 of the device), which would leave the second none.
        let usage = |g: &Genes| 0.1 + 0.1 * ([8, 4, 2, 1][g[2]] + [4, 2, 1][g[3]] - 2) as f64;
        let cost = |g: &Genes| 100.0 / [8.0, 4.0, 2.0, 1.0][g[2]] + 100.0 / [4.0, 2.0, 1.0][g[3]];
        let (seen, best) = on_the_device(&usage, &cost);
        // The first round keeps the first nest within 0.1 + 0.9 / 2: at 4
        // copies (0.4 of the device); the second then takes 4 (0.7); the
        // second round finds no room for 8 copies of the first.
        assert_eq!((best[2], best[3]), (1, 0), "{seen:?}");
    }

    #[test]
    fn a_nest_that_gives_up_part_of_the_device_leaves_another_room() {
        // A copy of the first nest's body takes a twentieth of the
        // device, of the second's a fifth. The rounds settle at 8 copies
        // and 2 (62.5): the second has no room for 4, and the first at 4
        // alone is slower. At 4 it frees a fifth of the device, where the
        // second takes 4: 50.
        let unroll = |g: &Genes| ([8, 4, 2, 1][g[2]], [4, 2, 1][g[3]]);
        let usage = |g: &Genes| {
            let (a, b) = unroll(g);
            0.1 + 0.05 * (a - 1) as f64 + 0.2 * (b - 1) as f64
        };
        let cost = |g: &Genes| {
            let (a, b) = unroll(g);
            100.0 / a as f64 + 100.0 / b as f64
        };
        let (seen, best) = on_the_device(&usage, &cost);
        assert_eq!(unroll(&best), (4, 4), "{seen:?}");
        let mut unique = seen.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), seen.len());
    }

    #[test]
    fn sibling_loops_of_a_split_nest_each_keep_their_part_of_the_device() {
        let lp = |n: &str, c: &[i64]| dim(Knob::Loop(n.into(), "unroll"), ints(c));
        let space = Space {
            dims: vec![
                lp("f/0/0", &[4, 2, 1]),
                lp("f/0/0/0", &[4, 2, 1]),
                lp("f/0/1", &[4, 2, 1]),
                lp("f/0/1/0", &[4, 2, 1]),
            ],
            dma_capacity_kib: 1,
            buffers: Vec::new(),
        };
        // One nest of 81 points, split by its two sibling loops.
        let groups = groups(&space, 16);
        assert_eq!(groups, [vec![0, 1], vec![2, 3]]);
        // The first sibling takes half of what is left, the second the rest.
        assert_eq!(
            first_round_allowance(&space, &groups, 0, Some(0.5)),
            Some(0.75)
        );
        assert_eq!(
            first_round_allowance(&space, &groups, 1, Some(0.75)),
            Some(1.0)
        );
        // A loop and the loops inside it share one part.
        let split = super::groups(&space, 4);
        assert_eq!(split.len(), 4);
        assert_eq!(
            first_round_allowance(&space, &split, 0, Some(0.5)),
            Some(0.75)
        );
        assert_eq!(
            first_round_allowance(&space, &split, 2, Some(0.75)),
            Some(1.0)
        );
    }

    #[test]
    fn a_point_too_large_in_logic_rules_out_points_larger_in_each_knob_or_predicted_far_over() {
        let lp = |n: &str, k: &'static str, c: &[i64]| dim(Knob::Loop(n.into(), k), ints(c));
        let space = Space {
            dims: vec![
                lp("f/0/0", "jam", &[4, 2, 1]),
                lp("f/0/0/0", "unroll", &[8, 4, 2, 1]),
            ],
            dma_capacity_kib: 1,
            buffers: Vec::new(),
        };
        let dims = [0, 1];
        let base = (&vec![2, 3], Some(0.4));
        // jam 4 x unroll 1 (4 copies) took 7 times the device's logic.
        let failed = (&vec![0, 3], Some(7.0));
        let ruled = |g: Vec<usize>, failed| ruled_out(&space, &dims, &g, failed, base, 1.0);
        // Larger in each knob: ruled out.
        assert!(ruled(vec![0, 2], failed));
        // Unroll 8, jam 1: as many copies and more, split otherwise, so
        // still tried.
        assert!(!ruled(vec![2, 0], failed));
        assert!(!ruled(vec![2, 1], failed));
        // jam 2: at most as large, predicted 0.4 + 6.6 / 3 = 2.6 of the
        // device, over 2.
        assert!(ruled(vec![1, 3], failed));
        // Where jam 4 took 4 times the device, jam 2 is predicted at 1.6:
        // tried (a design's logic grows less than its copies where some
        // of its banks go to LUT RAM, jacobi-2d's jam of 4 of 16 copies).
        let jam4 = vec![0, 3];
        assert!(!ruled(vec![1, 3], (&jam4, Some(4.0))));
        // Where the failed point took no more than its share (no design,
        // or too many DSPs), its copies rule out as many however split.
        let no_design = (&vec![0, 3], Some(0.9));
        assert!(ruled(vec![2, 1], no_design));
        assert!(!ruled(vec![2, 2], no_design));
    }

    #[test]
    fn a_point_of_as_many_body_copies_as_one_too_large_is_as_large() {
        let lp = |n: &str, k: &'static str, c: &[i64]| dim(Knob::Loop(n.into(), k), ints(c));
        let space = Space {
            dims: vec![
                lp("f/0/0", "jam", &[4, 2, 1]),
                dim(
                    Knob::Loop("f/0/0".into(), "pipeline"),
                    vec![Value::Boolean(true), Value::Boolean(false)],
                ),
                lp("f/0/0/0", "unroll", &[4, 2, 1]),
                dim(Knob::Array("A".into(), "width"), ints(&[4, 2, 1])),
                dim(Knob::Array("B".into(), "width"), ints(&[4, 2, 1])),
            ],
            dma_capacity_kib: 1,
            buffers: Vec::new(),
        };
        let loops = [0, 1, 2];
        // jam 2 x unroll 4 makes the 8 copies of jam 4 x unroll 2.
        assert!(at_least(
            &space,
            &loops,
            &vec![1, 1, 0, 0, 0],
            &vec![0, 1, 1, 0, 0]
        ));
        assert!(!at_least(
            &space,
            &loops,
            &vec![1, 1, 1, 0, 0],
            &vec![0, 1, 1, 0, 0]
        ));
        // Not where a choice that is no factor differs.
        assert!(!at_least(
            &space,
            &loops,
            &vec![1, 0, 0, 0, 0],
            &vec![0, 1, 1, 0, 0]
        ));
        // Port widths compare one by one.
        let arrays = [3, 4];
        assert!(!at_least(
            &space,
            &arrays,
            &vec![0, 0, 0, 2, 0],
            &vec![0, 0, 0, 0, 2]
        ));
        assert!(at_least(
            &space,
            &arrays,
            &vec![0, 0, 0, 0, 1],
            &vec![0, 0, 0, 1, 2]
        ));
    }

    #[test]
    fn a_tie_goes_to_the_smaller_point() {
        let k = |value: f64, usage: f64| Known {
            value: Some(value),
            usage: Some(usage),
        };
        // Within half a percent, the smaller point wins either way.
        assert!(better(k(100.2, 0.3), k(100.0, 0.6)));
        assert!(!better(k(99.8, 0.6), k(100.0, 0.3)));
        // Past it, the faster one.
        assert!(better(k(99.0, 0.9), k(100.0, 0.3)));
        assert!(!better(k(101.0, 0.1), k(100.0, 0.3)));
        // Without usage, the faster one; a design over none.
        let plain = |value: f64| Known {
            value: Some(value),
            usage: None,
        };
        assert!(better(plain(99.9), plain(100.0)));
        assert!(!better(plain(100.0), plain(100.0)));
        assert!(better(plain(100.0), Known::default()));
    }

    #[test]
    fn past_the_deadline_only_dataflow_is_still_tried_once() {
        let mut with_dataflow = space();
        (with_dataflow.dims).push(dim(
            Knob::Dataflow,
            vec![Value::Boolean(false), Value::Boolean(true)],
        ));
        let mut batches: Vec<Vec<Genes>> = Vec::new();
        let params = Descent {
            budget: 100,
            deadline: Some(std::time::Instant::now()),
            group_limit: 64,
        };
        descent(&with_dataflow, params, &mut |batch| {
            batches.push(batch.to_vec());
            (batch.iter())
                .map(|g| Evaluated {
                    objectives: Some(vec![10.0 - g[4] as f64]),
                    cost: true,
                    usage: None,
                })
                .collect()
        });
        // The start, then the one point that turns dataflow on.
        let mut on = start(&with_dataflow);
        on[4] = 1;
        assert_eq!(batches, [vec![start(&with_dataflow)], vec![on]]);
    }
}
