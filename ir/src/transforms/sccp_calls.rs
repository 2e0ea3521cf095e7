//! The calls SCCP follows between functions (MLIR's interprocedural
//! `DeadCodeAnalysis`/`SparseConstantPropagation`): each `func.call` to a
//! `func.func` with a body under the root, and which functions have only
//! known callers (their arguments then come from their calls and their
//! bodies run only when called). A function has unknown callers when it
//! is public, has `nested` visibility in a symbol table whose uses are not
//! all visible (the root's parent may use it, or a public nested table),
//! or is named by anything but a call. A function the pass runs on is
//! always entered.

use crate::context::Context;
use crate::dialect::inherent_attr;
use crate::graph::{Ir, OpId};
use crate::symbols::{
    for_each_symbol_ref, is_symbol_table, lookup_from, resolve_ref, visibility_is,
};
use rustc_hash::{FxHashMap, FxHashSet};

const FUNC: &str = "func.func";

#[derive(Default)]
pub(super) struct CallGraph {
    callee: FxHashMap<OpId, OpId>,
    calls: FxHashMap<OpId, Vec<OpId>>,
    /// Functions with a body and only known callers.
    tracked: FxHashSet<OpId>,
}

/// Whether every use of the symbols of `table` is under `root` (MLIR's
/// `walkSymbolTables`): true from a root without a parent, and from any
/// table that is not a public symbol, inherited by the tables inside.
fn all_uses_visible(ctx: &Context, ir: &Ir, root: OpId, table: OpId) -> bool {
    let hides = |op: OpId| {
        !is_symbol_table(ctx, ir, op)
            || inherent_attr(ctx, ir, op, "sym_name").is_none()
            || visibility_is(ctx, ir, op, b"private")
    };
    let mut chain = vec![table];
    let mut cur = table;
    while cur != root {
        match ir.parent_op(cur) {
            Some(p) => {
                chain.push(p);
                cur = p;
            }
            None => return false,
        }
    }
    let mut visible = ir.op_block(root).is_none();
    for &op in chain.iter().rev() {
        visible |= hides(op);
    }
    visible
}

fn has_body(ir: &Ir, f: OpId) -> bool {
    ir.regions(f).next().is_some_and(|r| !ir.region_is_empty(r))
}

impl CallGraph {
    pub(super) fn build(ctx: &Context, ir: &Ir, root: OpId) -> CallGraph {
        let mut g = CallGraph::default();
        let mut ops = Vec::new();
        ir.walk(root, &mut |o| ops.push(o));
        let mut funcs = Vec::new();
        let mut escaped: FxHashSet<OpId> = FxHashSet::default();
        for &op in &ops {
            let name = ctx.str(ir.op_name(op));
            if name == FUNC && has_body(ir, op) && op != root {
                funcs.push(op);
                let table = ir.parent_op(op);
                let hidden = visibility_is(ctx, ir, op, b"private")
                    || visibility_is(ctx, ir, op, b"nested")
                        && table.is_some_and(|t| all_uses_visible(ctx, ir, root, t));
                if !hidden {
                    escaped.insert(op);
                }
            }
            let target = (name == "func.call")
                .then(|| inherent_attr(ctx, ir, op, "callee"))
                .flatten()
                .and_then(|sym| lookup_from(ctx, ir, op, sym))
                .filter(|&f| {
                    ctx.str(ir.op_name(f)) == FUNC && has_body(ir, f) && ir.is_ancestor(root, f)
                });
            if let Some(f) = target {
                g.callee.insert(op, f);
                g.calls.entry(f).or_default().push(op);
            }
            let mut refs = Vec::new();
            for a in [Some(ir.op_attrs(op)), ir.op_props(op)]
                .into_iter()
                .flatten()
            {
                for_each_symbol_ref(ctx, a, &mut |r, nested| refs.push((r, nested.to_vec())));
            }
            for (r, nested) in refs {
                if let Some(f) = resolve_ref(ctx, ir, op, r, &nested) {
                    if Some(f) != target {
                        escaped.insert(f);
                    }
                }
            }
        }
        g.tracked = funcs.into_iter().filter(|f| !escaped.contains(f)).collect();
        g
    }

    /// The function with a body under the root that `call` reaches.
    pub(super) fn callee(&self, call: OpId) -> Option<OpId> {
        self.callee.get(&call).copied()
    }

    /// The calls of `f`.
    pub(super) fn calls_of(&self, f: OpId) -> &[OpId] {
        self.calls.get(&f).map_or(&[], Vec::as_slice)
    }

    /// Whether `f`'s arguments come only from its calls.
    pub(super) fn is_tracked(&self, f: OpId) -> bool {
        self.tracked.contains(&f)
    }
}
