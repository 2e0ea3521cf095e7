//! One rewrite: the integer expressions of one width in one block (its
//! add, sub, mul, and, or, xor and constant-shift nodes, the members)
//! become an e-graph whose leaves are the other values they read (the
//! block's other nodes, arguments, counters, carried values; constants
//! are numbers). The members read outside the group are the roots. The
//! e-graph saturates under the `eqsat` rules (and shift-and-add forms of
//! constant products where multipliers are scarce), the library cost
//! model extracts each root's cheapest form, and the group is rewritten
//! only when that is cheaper than what was written.

use super::cost::{Cost, LibraryCost};
use crate::flow::schedule::Schedules;
use crate::model::kernel::{truncate, Item, Kernel, NodeId, Op, Val};
use crate::model::target::library::Library;
use egg::{CostFunction, EGraph, Extractor, Id, RecExpr, Runner, Symbol};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_eqsat::lang::{wrap, ConstFold, IntExpr};
use silica_eqsat::rules::rules;
use std::time::Duration;

/// Groups with more members than this are left as written.
const MAX_MEMBERS: usize = 256;

/// The settings of a rewrite.
#[derive(Clone, Copy, Debug)]
pub struct Settings<'a> {
    pub lib: &'a Library,
    pub clock_ns: f64,
    /// Whether multipliers are scarce (constant products may become
    /// shifts and adds).
    pub scarce: bool,
    /// Whether extraction ranks the products of two variables before the
    /// longest path (where shared multipliers bound a pipeline's II).
    pub count_shared: bool,
    /// The schedule as written: when each leaf of a block is valid.
    pub schedules: &'a Schedules,
}

/// A group of member nodes of one block and width, in block order.
pub struct Group {
    pub width: u32,
    pub members: Vec<NodeId>,
}

/// The e-node operator of a member op.
fn enode(op: Op, a: Id, b: Id) -> Option<IntExpr> {
    Some(match op {
        Op::Add => IntExpr::Add([a, b]),
        Op::Sub => IntExpr::Sub([a, b]),
        Op::Mul => IntExpr::Mul([a, b]),
        Op::And => IntExpr::And([a, b]),
        Op::Or => IntExpr::Or([a, b]),
        Op::Xor => IntExpr::Xor([a, b]),
        Op::Shl => IntExpr::Shl([a, b]),
        _ => return None,
    })
}

/// The node op of an e-node operator.
pub fn op_of(node: &IntExpr) -> Option<Op> {
    Some(match node {
        IntExpr::Add(_) => Op::Add,
        IntExpr::Sub(_) => Op::Sub,
        IntExpr::Mul(_) => Op::Mul,
        IntExpr::And(_) => Op::And,
        IntExpr::Or(_) => Op::Or,
        IntExpr::Xor(_) => Op::Xor,
        IntExpr::Shl(_) => Op::Shl,
        IntExpr::Num(_) | IntExpr::Var(_) => return None,
    })
}

/// Whether node `n` can be a member, at its width.
fn member(k: &Kernel, n: NodeId) -> bool {
    let node = &k.nodes[n];
    let w = node.width;
    if !(1..=64).contains(&w) || node.args.len() != 2 {
        return false;
    }
    if enode(node.op, Id::from(0usize), Id::from(0usize)).is_none() {
        return false;
    }
    if node.args.iter().any(|&a| k.width(a) != w) {
        return false;
    }
    // Shifts by constants below the width only (a wider shift is poison
    // in the input).
    node.op != Op::Shl
        || k.const_value(node.args[1])
            .is_some_and(|s| truncate(s, w) < u128::from(w))
}

/// The groups of block `b`, one per width with at least two members.
pub fn groups(k: &Kernel, b: usize) -> Vec<Group> {
    let mut by_width: Vec<Group> = Vec::new();
    for &n in &k.blocks[b] {
        if !member(k, n) {
            continue;
        }
        let w = k.nodes[n].width;
        match by_width.iter_mut().find(|g| g.width == w) {
            Some(g) => g.members.push(n),
            None => by_width.push(Group {
                width: w,
                members: vec![n],
            }),
        }
    }
    by_width.retain(|g| (2..=MAX_MEMBERS).contains(&g.members.len()));
    by_width
}

/// A rewrite found for a group: the new expression of each root over
/// the leaves (`v<i>` is `leaves[i]`), and the old one.
pub struct Plan {
    pub roots: Vec<NodeId>,
    pub before: Vec<RecExpr<IntExpr>>,
    pub after: Vec<RecExpr<IntExpr>>,
    pub leaves: Vec<Val>,
    pub cost_before: Cost,
    pub cost_after: Cost,
}

/// The values read outside the group: every node argument not of a
/// member, and every other use in the kernel.
pub fn used_outside(k: &Kernel, members: &FxHashSet<NodeId>) -> FxHashSet<NodeId> {
    let mut out = FxHashSet::default();
    let mut note = |v: &Val| {
        if let Val::Node(n) = *v {
            out.insert(n);
        }
    };
    for (i, n) in k.nodes.iter().enumerate() {
        if !members.contains(&i) {
            n.args.iter().for_each(&mut note);
        }
    }
    k.other_vals().iter().for_each(note);
    out
}

/// Saturates and extracts group `g` of block `b`; `None` when nothing
/// cheaper was found.
pub fn plan(k: &Kernel, b: usize, g: &Group, s: &Settings<'_>) -> Option<Plan> {
    let w = g.width;
    let set: FxHashSet<NodeId> = g.members.iter().copied().collect();
    let outside = used_outside(k, &set);
    let roots: Vec<NodeId> = g
        .members
        .iter()
        .copied()
        .filter(|n| outside.contains(n))
        .collect();
    if roots.is_empty() {
        return None;
    }
    let enclosing = k
        .loops
        .iter()
        .position(|l| l.body.contains(&Item::Block(b)));
    let mut egraph: EGraph<IntExpr, ConstFold> = EGraph::new(ConstFold { width: w });
    let mut leaves: Vec<Val> = Vec::new();
    let mut leaf_costs: FxHashMap<Symbol, Cost> = FxHashMap::default();
    let mut class: FxHashMap<Val, Id> = FxHashMap::default();
    let mut before_of: FxHashMap<NodeId, RecExpr<IntExpr>> = FxHashMap::default();
    let mut leaf = |v: Val, egraph: &mut EGraph<IntExpr, ConstFold>, leaves: &mut Vec<Val>| {
        if let Some(c) = k.const_value(v) {
            return egraph.add(IntExpr::Num(wrap(c, w)));
        }
        *class.entry(v).or_insert_with(|| {
            let sym = Symbol::from(format!("v{}", leaves.len()));
            leaves.push(v);
            let is_carried = matches!(v, Val::Carried(l, _) if Some(l) == enclosing);
            let arrival = match v {
                Val::Node(n) if k.nodes[n].block == b => {
                    f64::from(s.schedules.ready(n)) * s.clock_ns
                }
                _ => 0.0,
            };
            leaf_costs.insert(sym, Cost::leaf(is_carried, arrival));
            egraph.add(IntExpr::Var(sym))
        })
    };
    let mut member_class: FxHashMap<NodeId, Id> = FxHashMap::default();
    for &n in &g.members {
        let node = &k.nodes[n];
        let mut ids = [Id::from(0usize); 2];
        for (i, &a) in node.args.iter().enumerate() {
            ids[i] = match a {
                Val::Node(m) if set.contains(&m) => member_class[&m],
                _ => leaf(a, &mut egraph, &mut leaves),
            };
        }
        let e = enode(node.op, ids[0], ids[1])?;
        member_class.insert(n, egraph.add(e));
    }
    // The expressions as written, over the same leaves.
    let leaf_index: FxHashMap<Val, usize> =
        leaves.iter().enumerate().map(|(i, &v)| (v, i)).collect();
    for &r in &roots {
        let mut e = RecExpr::default();
        written(
            k,
            r,
            &set,
            &leaf_index,
            w,
            &mut e,
            &mut FxHashMap::default(),
        );
        before_of.insert(r, e);
    }
    let root_ids: Vec<Id> = roots.iter().map(|r| member_class[r]).collect();
    if s.count_shared && w > 1 {
        // Where products are counted, each root's sum is seeded with its
        // common factors taken out.
        for (r, &id) in roots.iter().zip(&root_ids) {
            if let Some(f) = super::factor::factored(&before_of[r]) {
                let seeded = egraph.add_expr(&f);
                egraph.union(id, seeded);
            }
        }
        egraph.rebuild();
    }
    let mut rules = rules();
    if s.scarce {
        rules.push(super::csd::rule());
    }
    // The node and iteration limits bound the work (the time limit is a
    // safety net only: results must not depend on the machine's load).
    let runner: Runner<IntExpr, ConstFold, ()> = super::clock::saturate(
        Runner::new(ConstFold { width: w })
            .with_egraph(egraph)
            .with_iter_limit(10)
            .with_node_limit(6_000),
        &rules,
        Duration::from_secs(5),
    );
    let priced = || {
        LibraryCost::new(
            s.lib,
            s.clock_ns,
            w,
            (s.scarce, s.count_shared),
            &leaf_costs,
        )
    };
    let mut cost = priced();
    let before: Vec<RecExpr<IntExpr>> = roots.iter().map(|r| before_of[r].clone()).collect();
    let cost_before = Cost::join(before.iter().map(|e| cost.cost_rec(e)));
    let ex = Extractor::new(&runner.egraph, priced());
    let after: Vec<RecExpr<IntExpr>> = root_ids.iter().map(|&id| ex.find_best(id).1).collect();
    let cost_after = Cost::join(after.iter().map(|e| cost.cost_rec(e)));
    if !cost_after.better_than(&cost_before) {
        return None;
    }
    Some(Plan {
        roots,
        before,
        after,
        leaves,
        cost_before,
        cost_after,
    })
}

/// Appends the expression member `n` computes as written to `e`.
fn written(
    k: &Kernel,
    n: NodeId,
    set: &FxHashSet<NodeId>,
    leaf_index: &FxHashMap<Val, usize>,
    w: u32,
    e: &mut RecExpr<IntExpr>,
    memo: &mut FxHashMap<NodeId, Id>,
) -> Id {
    if let Some(&id) = memo.get(&n) {
        return id;
    }
    let node = &k.nodes[n];
    let mut ids = [Id::from(0usize); 2];
    for (i, &a) in node.args.iter().enumerate() {
        ids[i] = match a {
            Val::Node(m) if set.contains(&m) => written(k, m, set, leaf_index, w, e, memo),
            _ => match k.const_value(a) {
                Some(c) => e.add(IntExpr::Num(wrap(c, w))),
                None => e.add(IntExpr::Var(Symbol::from(format!("v{}", leaf_index[&a])))),
            },
        };
    }
    let id = e.add(enode(node.op, ids[0], ids[1]).expect("member op"));
    memo.insert(n, id);
    id
}
