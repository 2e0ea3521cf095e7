//! Writing a rewrite back into the kernel: the extracted expressions
//! become nodes (shared subterms once, constants interned), placed in
//! the block where their root was; every use of a root reads its new
//! value; members nothing reads any more are dropped, and the node
//! table is compacted. A rewrite that would read a value of the block
//! before it is computed is not applied.

use super::group::{op_of, Plan};
use crate::model::kernel::{Kernel, Node, NodeId, Val};
use egg::{Id, Language, RecExpr};
use rustc_hash::{FxHashMap, FxHashSet};
use silica_eqsat::lang::IntExpr;

/// Applies `plan` to the group `members` of block `b` at width `w`;
/// returns whether it did.
pub fn apply(k: &mut Kernel, b: usize, members: &[NodeId], w: u32, plan: &Plan) -> bool {
    let position: FxHashMap<NodeId, usize> = k.blocks[b]
        .iter()
        .enumerate()
        .map(|(i, &n)| (n, i))
        .collect();
    // Every leaf of the block must come before the first root that
    // reads it (roots are rewritten where they stand), and every shift
    // must be by a constant below the width.
    let mut first_use: FxHashMap<usize, usize> = FxHashMap::default();
    for (expr, &r) in plan.after.iter().zip(&plan.roots) {
        for node in expr.as_ref() {
            match node {
                IntExpr::Var(s) => {
                    let i: usize = s.as_str()[1..].parse().expect("leaf index");
                    let at = first_use.entry(i).or_insert(position[&r]);
                    *at = (*at).min(position[&r]);
                }
                IntExpr::Shl([_, amount]) => match &expr[*amount] {
                    IntExpr::Num(s) if (0..i128::from(w)).contains(s) => {}
                    _ => return false,
                },
                _ => {}
            }
        }
    }
    for (&i, &at) in &first_use {
        if let Val::Node(n) = plan.leaves[i] {
            if position.get(&n).is_some_and(|&p| p >= at) {
                return false;
            }
        }
    }
    // Build the new nodes, shared across roots.
    let mut memo: FxHashMap<(crate::model::kernel::Op, Val, Val), Val> = FxHashMap::default();
    let mut emitted: FxHashMap<NodeId, Vec<NodeId>> = FxHashMap::default();
    let mut new_root: FxHashMap<NodeId, Val> = FxHashMap::default();
    for (expr, &r) in plan.after.iter().zip(&plan.roots) {
        let (loc, source) = (k.nodes[r].loc, k.nodes[r].source);
        let mut vals: Vec<Val> = Vec::with_capacity(expr.as_ref().len());
        let mut here = Vec::new();
        for node in expr.as_ref() {
            let v = match node {
                IntExpr::Var(s) => plan.leaves[s.as_str()[1..].parse::<usize>().expect("leaf")],
                IntExpr::Num(c) => k.constant(*c, w),
                _ => {
                    let op = op_of(node).expect("operation");
                    let ch = node.children();
                    let (a, b2) = (vals[usize::from(ch[0])], vals[usize::from(ch[1])]);
                    *memo.entry((op, a, b2)).or_insert_with(|| {
                        k.nodes.push(Node {
                            op,
                            args: vec![a, b2],
                            width: w,
                            loc,
                            block: b,
                            source,
                        });
                        here.push(k.nodes.len() - 1);
                        Val::Node(k.nodes.len() - 1)
                    })
                }
            };
            vals.push(v);
        }
        new_root.insert(r, *vals.last().expect("non-empty expression"));
        emitted.insert(r, here);
    }
    // Place them where their roots were, drop the group's old nodes and
    // read the new roots everywhere.
    let set: FxHashSet<NodeId> = members.iter().copied().collect();
    let mut list = Vec::with_capacity(k.blocks[b].len());
    for &n in &k.blocks[b] {
        if let Some(new) = emitted.get(&n) {
            list.extend(new.iter().copied());
        } else if !set.contains(&n) {
            list.push(n);
        }
    }
    let dropped: FxHashSet<NodeId> = set;
    k.blocks[b] = list;
    let alive: FxHashSet<NodeId> = k.blocks[b].iter().copied().collect();
    k.each_val_mut(&mut |v| {
        if let Val::Node(n) = *v {
            if let Some(&nv) = new_root.get(&n) {
                *v = nv;
            }
        }
    });
    debug_assert!(dropped.iter().all(|d| !alive.contains(d)));
    true
}

/// Longest expression text in the report.
const TEXT_LIMIT: usize = 160;

/// `expr`'s text, infix, with leaf `i` named `leaf(i)`; cut short with
/// `...` past [`TEXT_LIMIT`] characters (shared subterms are written out
/// at every use).
pub fn infix(expr: &RecExpr<IntExpr>, leaf: &dyn Fn(usize) -> String) -> String {
    fn go(
        e: &RecExpr<IntExpr>,
        id: Id,
        leaf: &dyn Fn(usize) -> String,
        top: bool,
        out: &mut String,
    ) -> bool {
        if out.len() > TEXT_LIMIT {
            return false;
        }
        let sym = match &e[id] {
            IntExpr::Num(c) => {
                out.push_str(&c.to_string());
                return true;
            }
            IntExpr::Var(s) => {
                out.push_str(&leaf(s.as_str()[1..].parse().unwrap_or(0)));
                return true;
            }
            IntExpr::Add(_) => "+",
            IntExpr::Sub(_) => "-",
            IntExpr::Mul(_) => "*",
            IntExpr::And(_) => "&",
            IntExpr::Or(_) => "|",
            IntExpr::Xor(_) => "^",
            IntExpr::Shl(_) => "<<",
        };
        let ch = e[id].children();
        if !top {
            out.push('(');
        }
        if !go(e, ch[0], leaf, false, out) {
            return false;
        }
        out.push_str(&format!(" {sym} "));
        if !go(e, ch[1], leaf, false, out) {
            return false;
        }
        if !top {
            out.push(')');
        }
        true
    }
    let root = Id::from(expr.as_ref().len() - 1);
    let mut out = String::new();
    if !go(expr, root, leaf, true, &mut out) || out.len() > TEXT_LIMIT {
        out.truncate(TEXT_LIMIT);
        while !out.is_char_boundary(out.len()) {
            out.pop();
        }
        out.push_str(" ...");
    }
    out
}
