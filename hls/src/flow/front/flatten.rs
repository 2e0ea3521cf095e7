//! `flatten = true`: a loop nest (each loop's body one loop with
//! straight-line code around it, the innermost one straight-line code)
//! folds into one pipelined loop. The outermost loop keeps the nest: its
//! body becomes the innermost body and the loops inside are listed in
//! [`Loop::flat`], so their counters form one chain that the pipeline
//! steps once per iteration (the innermost counter first, an outer one
//! when the ones inside it wrap around). The loops inside must have
//! constant lower bounds, and upper bounds that are constants or over
//! the counters of the nest around them (a triangular nest: `j <= i`),
//! with at least one iteration at every value of those counters (the
//! chain steps into an inner loop as its counter resets; where a bound
//! varies, the outermost loop's bounds must be constants, so that
//! flattening can check that). An inner loop's bound is compared
//! against the counters as they are when it wraps.
//!
//! An imperfect nest is made perfect as MLIR's and Vitis's flattening do:
//! the code before an inner loop is sunk into the body and runs in every
//! iteration (it reads no memory the nest writes, so it computes the same
//! values), its stores only where every loop inside it is at its first
//! iteration; the code after it runs in every iteration, its stores only
//! where they are all at their last iteration. Only the innermost loop
//! may carry values: its carried values become the flattened loop's,
//! taking their initial value where its counter is at its first
//! iteration, and the code after it reads what the body yields. The sunk
//! blocks are listed in [`Loop::sunk`]; their accesses are ordered
//! against the body's by dependences at distance 1.
//!
//! [`Loop::flat`]: crate::model::kernel::Loop::flat
//! [`Loop::sunk`]: crate::model::kernel::Loop::sunk

use crate::model::directives::{Directives, Log, Pipeline};
use crate::model::kernel::{
    BlockId, Item, Kernel, LoopId, Node, NodeId, Op, Predicate, Val, INDEX,
};
use rustc_hash::FxHashSet;

/// A nest: the loops inside the outermost one (outermost first), and for
/// each loop of the nest but the innermost the blocks of its body before
/// and after the loop inside it.
struct Nest {
    chain: Vec<LoopId>,
    around: Vec<(Vec<BlockId>, Vec<BlockId>)>,
}

fn blocks(items: &[Item]) -> Option<Vec<BlockId>> {
    items
        .iter()
        .map(|it| match it {
            Item::Block(b) => Some(*b),
            _ => None,
        })
        .collect()
}

/// Whether loop `l` can be the outermost loop of a flattened nest.
pub fn flattens(k: &Kernel, l: LoopId) -> bool {
    nest(k, l).is_ok()
}

/// Why loop `l` cannot be the outermost loop of a flattened nest, or the
/// nest.
fn nest(k: &Kernel, l: LoopId) -> Result<Nest, String> {
    let mut chain = Vec::new();
    let mut around = Vec::new();
    let mut cur = l;
    loop {
        let lp = &k.loops[cur];
        let inner: Vec<usize> = (0..lp.body.len())
            .filter(|&i| matches!(lp.body[i], Item::Loop(_)))
            .collect();
        let not_perfect = || {
            format!(
                "it is not a perfect nest: the body of {} holds more than one loop, or a call or DMA beside its loop",
                lp.path
            )
        };
        match inner.as_slice() {
            [] => {
                blocks(&lp.body).ok_or_else(not_perfect)?;
                break;
            }
            [i] => {
                let pre = blocks(&lp.body[..*i]).ok_or_else(not_perfect)?;
                let post = blocks(&lp.body[i + 1..]).ok_or_else(not_perfect)?;
                if !lp.inits.is_empty() {
                    return Err(format!("{} carries values (iter_args)", lp.path));
                }
                let Item::Loop(m) = lp.body[*i] else {
                    unreachable!("an inner loop")
                };
                around.push((pre, post));
                chain.push(m);
                cur = m;
            }
            _ => return Err(not_perfect()),
        }
    }
    if chain.is_empty() {
        return Err("no loop is nested in it".into());
    }
    let nest_loops: Vec<LoopId> = std::iter::once(l).chain(chain.iter().copied()).collect();
    for (q, &m) in chain.iter().enumerate() {
        let lp = &k.loops[m];
        let outer = &nest_loops[..=q];
        let over_outer =
            lp.upper.operands.iter().all(|v| {
                matches!(v, Val::Iv(o) if outer.contains(o)) || k.const_value(*v).is_some()
            });
        match (lp.lower.constant(), lp.upper.constant()) {
            (Some(a), Some(b)) if b > a => {}
            (Some(_), Some(_)) => return Err(format!("{} runs no iteration", lp.path)),
            (Some(_), None) if over_outer => {}
            _ => {
                return Err(format!(
                    "the bounds of {} are neither constants nor an upper bound over the nest's counters above a constant lower one",
                    lp.path
                ))
            }
        }
    }
    let varying = |m: &LoopId| k.loops[*m].upper.constant().is_none();
    if chain.iter().any(varying) {
        let mut env = vec![None; k.loops.len()];
        if let Some(why) = entry_without_iterations(k, &mut env, &nest_loops) {
            return Err(why);
        }
    }
    for (q, (_, post)) in around.iter().enumerate() {
        let stores = (post.iter().flat_map(|&b| &k.blocks[b]))
            .any(|&n| matches!(k.nodes[n].op, Op::Store(_)));
        if stores && chain[q..].iter().any(varying) {
            return Err(format!(
                "the code after the loop inside {} stores, and the last iterations of the loops inside vary",
                k.loops[nest_loops[q]].path
            ));
        }
    }
    // Code before an inner loop runs again in every iteration: it must
    // read no memory the nest writes.
    let body_blocks = |m: LoopId| blocks(&k.loops[m].body).unwrap_or_default();
    let mut all: Vec<BlockId> = body_blocks(*chain.last().unwrap_or(&l));
    for (pre, post) in &around {
        all.extend(pre);
        all.extend(post);
    }
    let written: FxHashSet<usize> = all
        .iter()
        .flat_map(|&b| &k.blocks[b])
        .filter_map(|&n| match k.nodes[n].op {
            Op::Store(m) => Some(m),
            _ => None,
        })
        .collect();
    let levels = std::iter::once(l).chain(chain.iter().copied());
    for (q, ((pre, _), m)) in around.iter().zip(levels).enumerate() {
        let innermost = q + 1 == around.len();
        if let Some(mem) = rereads_written(k, pre, &written, innermost.then_some(cur)) {
            return Err(format!(
                "the code before the loop inside {} reads {}, which the nest writes, and uses it beyond the inner loops' first iteration, so it cannot be sunk into the inner loop",
                k.loops[m].path, k.memories[mem].name
            ));
        }
    }
    Ok(Nest { chain, around })
}

/// Why the counter chain of `nest` (its outermost loop first) cannot
/// step as one: where the bounds of its outermost loop are unknown, or
/// a loop inside runs no iteration at some values of those around it
/// (the chain would step into it), with `env` holding the values.
fn entry_without_iterations(
    k: &Kernel,
    env: &mut [Option<i64>],
    nest: &[LoopId],
) -> Option<String> {
    let (&m, inside) = nest.split_first()?;
    let lp = &k.loops[m];
    let operand = |v: Val| match v {
        Val::Iv(o) => env[o],
        v => k.const_value(v).and_then(|c| i64::try_from(c).ok()),
    };
    let (Some(lo), Some(hi)) = (
        lp.lower.value_with(operand, true),
        lp.upper.value_with(operand, false),
    ) else {
        return Some(format!(
            "the bounds of {} are not known where the nest starts",
            lp.path
        ));
    };
    if hi <= lo && env.iter().any(Option::is_some) {
        return Some(format!(
            "{} runs no iteration at some values of the counters around it",
            lp.path
        ));
    }
    let mut iv = lo;
    let mut why = None;
    while iv < hi && why.is_none() && !inside.is_empty() {
        env[m] = Some(iv);
        why = entry_without_iterations(k, env, inside);
        iv += lp.step.max(1);
    }
    env[m] = None;
    why
}

/// Of the code `pre` before an inner loop, a memory of `written` it
/// loads whose value matters where the loops inside are not at their
/// first iteration: sunk, the load runs in every iteration and may then
/// read what the nest wrote since. A loaded value (and what the code
/// computes from it) may feed only `pre` itself, its stores (made at
/// the first iteration) and, where `pre` is directly around the
/// innermost loop `innermost`, that loop's initial carried values
/// (taken at its first iteration): all read at the first iteration,
/// when the load reads what it read before flattening.
fn rereads_written(
    k: &Kernel,
    pre: &[BlockId],
    written: &FxHashSet<usize>,
    innermost: Option<LoopId>,
) -> Option<usize> {
    let inside: FxHashSet<NodeId> = pre.iter().flat_map(|&b| &k.blocks[b]).copied().collect();
    // The loaded values and what is computed from them, in block order.
    let mut tainted: FxHashSet<NodeId> = FxHashSet::default();
    let mut first = None;
    for &n in pre.iter().flat_map(|&b| &k.blocks[b]) {
        let node = &k.nodes[n];
        let loads_written = matches!(node.op, Op::Load(m) if written.contains(&m));
        let from_tainted =
            (node.args.iter()).any(|a| matches!(a, Val::Node(x) if tainted.contains(x)));
        if loads_written || from_tainted {
            tainted.insert(n);
            if loads_written && first.is_none() {
                first = node.op.memory();
            }
        }
    }
    let first = first?;
    let taken = |v: &&Val| matches!(v, Val::Node(x) if tainted.contains(x));
    let outside = (k.nodes.iter().enumerate())
        .any(|(n, node)| !inside.contains(&n) && node.args.iter().any(|a| taken(&a)));
    // Every other place a value is read, against the innermost loop's
    // initial carried values among them.
    let elsewhere = k.other_vals().iter().filter(taken).count();
    let inits = innermost.map_or(0, |m| k.loops[m].inits.iter().filter(taken).count());
    if outside || elsewhere > inits {
        return Some(first);
    }
    None
}

/// Builds the nodes of the flattened body's conditions into one block.
struct Conditions<'k> {
    k: &'k mut Kernel,
    block: BlockId,
    /// The innermost loop, whose location the new nodes take.
    innermost: LoopId,
}

impl Conditions<'_> {
    fn push(&mut self, block: BlockId, op: Op, args: Vec<Val>, width: u32) -> Val {
        let lp = &self.k.loops[self.innermost];
        let (loc, source) = (lp.loc, lp.op);
        self.k.nodes.push(Node {
            op,
            args,
            width,
            loc,
            block,
            source,
        });
        let id = self.k.nodes.len() - 1;
        self.k.blocks[block].push(id);
        Val::Node(id)
    }

    fn constant(&mut self, bits: u128, width: u32) -> Val {
        match self.k.consts.iter().position(|&c| c == (bits, width)) {
            Some(i) => Val::Const(i),
            None => {
                self.k.consts.push((bits, width));
                Val::Const(self.k.consts.len() - 1)
            }
        }
    }

    /// Whether every loop of `loops` is at its first (or last) iteration.
    fn at(&mut self, loops: &[LoopId], last: bool) -> Val {
        let mut cond: Option<Val> = None;
        for &m in loops {
            let lp = &self.k.loops[m];
            let (lo, hi) = (
                lp.lower.constant().unwrap_or(0),
                lp.upper.constant().unwrap_or(0),
            );
            let step = lp.step.max(1);
            let value = if last {
                lo + (hi - lo - 1) / step * step
            } else {
                lo
            };
            let c = self.constant(value as u128, INDEX);
            let block = self.block;
            let eq = self.push(block, Op::Cmp(Predicate::Eq), vec![Val::Iv(m), c], 1);
            cond = Some(match cond {
                None => eq,
                Some(p) => self.push(block, Op::And, vec![p, eq], 1),
            });
        }
        cond.expect("a loop inside")
    }
}

/// Sinks the code around the inner loops of `nest` (rooted at `l`) into
/// its innermost body; gives the new body and the sunk blocks.
fn sink(k: &mut Kernel, l: LoopId, nest: &Nest) -> (Vec<Item>, Vec<BlockId>) {
    let innermost = *nest.chain.last().expect("a loop inside");
    let inner_body = std::mem::take(&mut k.loops[innermost].body);
    let sunk: Vec<BlockId> = nest
        .around
        .iter()
        .flat_map(|(pre, post)| pre.iter().chain(post))
        .copied()
        .collect();
    let carried = !k.loops[innermost].inits.is_empty();
    let sunk_stores = sunk.iter().any(|&b| {
        k.blocks[b]
            .iter()
            .any(|&n| matches!(k.nodes[n].op, Op::Store(_)))
    });
    if !carried && !sunk_stores {
        let mut body: Vec<Item> = Vec::new();
        for (pre, _) in &nest.around {
            body.extend(pre.iter().map(|&b| Item::Block(b)));
        }
        body.extend(inner_body);
        for (_, post) in nest.around.iter().rev() {
            body.extend(post.iter().map(|&b| Item::Block(b)));
        }
        return (body, sunk);
    }
    let cond_block = k.blocks.len();
    k.blocks.push(Vec::new());
    let mut c = Conditions {
        k,
        block: cond_block,
        innermost,
    };
    // Stores of the sunk code: where every loop inside is at its first
    // (before) or last (after) iteration.
    for (q, (pre, post)) in nest.around.iter().enumerate() {
        let inside = &nest.chain[q..];
        for (group, last) in [(pre, false), (post, true)] {
            let stores: Vec<(BlockId, NodeId)> = group
                .iter()
                .flat_map(|&b| c.k.blocks[b].iter().map(move |&n| (b, n)))
                .filter(|&(_, n)| matches!(c.k.nodes[n].op, Op::Store(_)))
                .collect();
            if stores.is_empty() {
                continue;
            }
            let cond = c.at(inside, last);
            for (b, n) in stores {
                let pred = match c.k.nodes[n].args.get(2).copied() {
                    None => cond,
                    Some(p) => {
                        let v = c.push(b, Op::And, vec![p, cond], 1);
                        // Before the store in its block.
                        let list = &mut c.k.blocks[b];
                        let at = list.iter().position(|&x| x == n).unwrap_or(0);
                        let new = list.pop().expect("the node just pushed");
                        list.insert(at, new);
                        v
                    }
                };
                let args = &mut c.k.nodes[n].args;
                args.truncate(2);
                args.push(pred);
            }
        }
    }
    // The innermost loop's carried values: the flattened loop's, reset
    // where its counter starts.
    let mut mux_block = None;
    if carried {
        let b = c.k.blocks.len();
        c.k.blocks.push(Vec::new());
        mux_block = Some(b);
        let first = c.at(&[innermost], false);
        let inits = std::mem::take(&mut c.k.loops[innermost].inits);
        let widths = std::mem::take(&mut c.k.loops[innermost].carried_widths);
        let yields = std::mem::take(&mut c.k.loops[innermost].yields);
        let mut inner_map = Vec::new();
        for (i, (&init, &w)) in inits.iter().zip(&widths).enumerate() {
            let j = c.k.loops[l].inits.len();
            let zero = c.constant(0, w);
            let mux = c.push(b, Op::Mux, vec![first, init, Val::Carried(l, j)], w);
            let lp = &mut c.k.loops[l];
            lp.inits.push(zero);
            lp.carried_widths.push(w);
            inner_map.push((Val::Carried(innermost, i), mux));
        }
        let map = |v: Val| inner_map.iter().find(|x| x.0 == v).map_or(v, |x| x.1);
        let yields: Vec<Val> = yields.into_iter().map(map).collect();
        let inner_blocks = blocks(&inner_body).unwrap_or_default();
        for &b in &inner_blocks {
            for n in c.k.blocks[b].clone() {
                for a in &mut c.k.nodes[n].args {
                    *a = map(*a);
                }
            }
        }
        // After the loop, its results are what the last iteration yields.
        let after = |v: Val| match v {
            Val::Carried(m, i) if m == innermost => yields[i],
            v => v,
        };
        for (_, post) in &nest.around {
            for &b in post {
                for n in c.k.blocks[b].clone() {
                    for a in &mut c.k.nodes[n].args {
                        *a = after(*a);
                    }
                }
            }
        }
        c.k.loops[l].yields.extend(yields);
    }
    let mut body = vec![Item::Block(cond_block)];
    for (pre, _) in &nest.around {
        body.extend(pre.iter().map(|&b| Item::Block(b)));
    }
    body.extend(mux_block.map(Item::Block));
    body.extend(inner_body);
    for (_, post) in nest.around.iter().rev() {
        body.extend(post.iter().map(|&b| Item::Block(b)));
    }
    let mut sunk = sunk;
    sunk.push(cond_block);
    sunk.extend(mux_block);
    (body, sunk)
}

/// Applies the `flatten` directives to the lifted kernel `k`.
pub fn flatten(k: &mut Kernel, d: &Directives, log: &mut Log) {
    for l in k.loops_in_order() {
        let op = k.loops[l].op;
        let Some(dl) = d.loops.get(&op) else { continue };
        let Some(s) = dl.flatten.clone() else {
            continue;
        };
        if !s.value {
            continue;
        }
        let path = k.loops[l].path.clone();
        let directive = "flatten".to_string();
        if k.counter_owner(l) != l {
            log.refused(
                &s,
                &path,
                directive,
                "it is already flattened into an enclosing loop".into(),
            );
            continue;
        }
        if dl
            .pipeline
            .as_ref()
            .is_some_and(|p| p.value == Pipeline::Off)
        {
            log.refused(
                &s,
                &path,
                directive,
                "the loop is not to be pipelined (pipeline = false)".into(),
            );
            continue;
        }
        let nest = match nest(k, l) {
            Ok(n) => n,
            Err(why) => {
                log.refused(&s, &path, directive, why);
                continue;
            }
        };
        let imperfect = nest
            .around
            .iter()
            .any(|(pre, post)| !pre.is_empty() || !post.is_empty())
            || nest.chain.iter().any(|&m| !k.loops[m].inits.is_empty());
        let innermost = *nest.chain.last().unwrap_or(&l);
        let target = k.loops[l].target_ii.or(k.loops[innermost].target_ii);
        let (body, sunk) = sink(k, l, &nest);
        for &m in &nest.chain {
            k.loops[m].body.clear();
            k.loops[m].pipelined = false;
        }
        let names: Vec<String> = nest
            .chain
            .iter()
            .map(|&m| k.loops[m].path.clone())
            .collect();
        let lp = &mut k.loops[l];
        lp.body = body;
        lp.flat = nest.chain;
        lp.sunk = sunk;
        lp.pipelined = true;
        lp.target_ii = target;
        let how = if imperfect {
            ", the code around the inner loops sunk into it under first/last-iteration conditions"
        } else {
            ""
        };
        log.honoured(
            &s,
            &path,
            directive,
            format!(
                "{} folded into it: one counter chain, one pipeline{how}",
                names.join(", ")
            ),
        );
    }
}
