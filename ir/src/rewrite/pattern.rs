//! Rewrite patterns: a function that matches an op and rewrites it through
//! a [`Rewriter`], with a benefit that orders the patterns of one op.

use super::Rewriter;
use crate::context::{Context, Symbol};
use crate::graph::OpId;
use rustc_hash::FxHashMap;

/// Tries to rewrite `op`; returns whether it did. A pattern that returns
/// `false` must not have changed anything.
pub type PatternFn = fn(&mut Rewriter<'_>, OpId) -> bool;

/// One rewrite pattern of an op (MLIR's `RewritePattern`).
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// A name for debugging and for `disable-patterns`.
    pub name: &'static str,
    /// Higher benefits are tried first.
    pub benefit: u16,
    pub apply: PatternFn,
}

impl Pattern {
    /// A pattern of benefit 1.
    pub const fn new(name: &'static str, apply: PatternFn) -> Pattern {
        Pattern {
            name,
            benefit: 1,
            apply,
        }
    }
}

/// The patterns to apply, by root op name, each list in decreasing
/// benefit (stable: equal benefits keep their registration order).
#[derive(Default)]
pub struct PatternSet {
    by_op: FxHashMap<Symbol, Vec<&'static Pattern>>,
}

impl PatternSet {
    /// The canonicalization patterns of every registered op, leaving out
    /// those named in `disabled` and, when `enabled` is not empty, those
    /// not named in it.
    pub fn canonicalization(ctx: &mut Context, disabled: &[String], enabled: &[String]) -> Self {
        let mut set = PatternSet::default();
        for name in ctx.registered_ops() {
            let def = ctx.op_def_by_name(name).expect("registered op");
            let keep = |p: &&Pattern| {
                !disabled.iter().any(|d| d == p.name)
                    && (enabled.is_empty() || enabled.iter().any(|e| e == p.name))
            };
            let patterns: Vec<&'static Pattern> = def.patterns.iter().filter(keep).collect();
            if !patterns.is_empty() {
                let sym = ctx.sym(name);
                set.add(sym, patterns);
            }
        }
        set
    }

    /// Adds patterns rooted at the op named `op`.
    pub fn add(&mut self, op: Symbol, patterns: impl IntoIterator<Item = &'static Pattern>) {
        let list = self.by_op.entry(op).or_default();
        list.extend(patterns);
        list.sort_by_key(|p| std::cmp::Reverse(p.benefit));
    }

    /// The patterns for ops named `op`, best first.
    pub fn for_op(&self, op: Symbol) -> &[&'static Pattern] {
        self.by_op.get(&op).map_or(&[], |v| v.as_slice())
    }

    /// Whether there are no patterns at all.
    pub fn is_empty(&self) -> bool {
        self.by_op.is_empty()
    }
}
