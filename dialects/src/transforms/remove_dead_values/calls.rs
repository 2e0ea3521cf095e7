//! The calls between `func.func`s under an op: which function each
//! `func.call` reaches, the calls of each function, and which functions
//! are internal (private, with a body, and only ever called), so that
//! their signatures may change with their callers.

use crate::func::referenced_func;
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::dialect::Traits;
use silica_ir::symbols::{for_each_symbol_ref, is_private, resolve_ref};
use silica_ir::{Context, Ir, OpId, RegionId};

const FUNC: &str = "func.func";
const CALL: &str = "func.call";

#[derive(Default)]
pub(crate) struct CallGraph {
    /// The function (with a body) each call reaches.
    callee_of: FxHashMap<OpId, OpId>,
    /// The calls of each function, in IR order.
    calls_of: FxHashMap<OpId, Vec<OpId>>,
    /// Functions reached other than by calls (or public).
    escaped: FxHashSet<OpId>,
    /// Functions with a body, in IR order.
    funcs: Vec<OpId>,
}

fn has_body(ir: &Ir, f: OpId) -> bool {
    ir.regions(f).next().is_some_and(|r| !ir.region_is_empty(r))
}

impl CallGraph {
    /// The call graph of everything under `root`.
    pub(crate) fn build(ctx: &Context, ir: &Ir, root: OpId) -> CallGraph {
        let mut g = CallGraph::default();
        let mut ops = Vec::new();
        ir.walk(root, &mut |o| ops.push(o));
        for &op in &ops {
            let name = ctx.str(ir.op_name(op));
            if name == FUNC && has_body(ir, op) {
                g.funcs.push(op);
                if !is_private(ctx, ir, op) {
                    g.escaped.insert(op);
                }
            }
            let call_target = (name == CALL)
                .then(|| referenced_func(ctx, ir, op, "callee"))
                .flatten();
            if let Some(f) = call_target.filter(|&f| has_body(ir, f)) {
                g.callee_of.insert(op, f);
                g.calls_of.entry(f).or_default().push(op);
            }
            // Any other reference to a function lets it escape.
            let mut refs = Vec::new();
            for a in [Some(ir.op_attrs(op)), ir.op_props(op)]
                .into_iter()
                .flatten()
            {
                for_each_symbol_ref(ctx, a, &mut |root, nested| {
                    refs.push((root, nested.to_vec()))
                });
            }
            for (root, nested) in refs {
                let Some(target) = resolve_ref(ctx, ir, op, root, &nested) else {
                    continue;
                };
                if ctx.str(ir.op_name(target)) == FUNC && call_target != Some(target) {
                    g.escaped.insert(target);
                }
            }
        }
        g
    }

    /// The function (with a body) `call` reaches.
    pub(crate) fn callee(&self, call: OpId) -> Option<OpId> {
        self.callee_of.get(&call).copied()
    }

    /// The calls of `f`.
    pub(crate) fn calls_of(&self, f: OpId) -> &[OpId] {
        self.calls_of.get(&f).map_or(&[], |v| v.as_slice())
    }

    /// Whether `f` is a function with a body whose every use is a call
    /// and that is not public.
    pub(crate) fn is_internal(&self, f: OpId) -> bool {
        self.funcs.contains(&f) && !self.escaped.contains(&f)
    }

    /// The internal functions, in IR order.
    pub(crate) fn internal_funcs(&self) -> Vec<OpId> {
        self.funcs
            .iter()
            .copied()
            .filter(|f| !self.escaped.contains(f))
            .collect()
    }

    /// The `func.return`s of `f`.
    pub(crate) fn returns(&self, ir: &Ir, f: OpId) -> Vec<OpId> {
        ir.regions(f)
            .flat_map(|r| ir.region_blocks(r))
            .filter_map(|b| ir.last_op(b))
            .filter(|&t| ir.successors(t).is_empty())
            .collect()
    }

    /// The regions where execution may start: those of `root`, of
    /// functions that are not internal, and of other isolated ops.
    pub(crate) fn entries(&self, ctx: &Context, ir: &Ir, root: OpId) -> Vec<RegionId> {
        let mut out: Vec<RegionId> = ir.regions(root).collect();
        ir.walk(root, &mut |o| {
            if o == root {
                return;
            }
            let isolated = ctx
                .op_def(ir.op_name(o))
                .is_none_or(|d| d.traits.has(Traits::ISOLATED_FROM_ABOVE));
            let internal = self.is_internal(o);
            if isolated && !internal && ctx.str(ir.op_name(o)) != FUNC || self.escaped.contains(&o)
            {
                out.extend(ir.regions(o));
            }
        });
        out
    }

    /// The callable region a call enters, for the executability analysis.
    pub(crate) fn entered_region(&self, ir: &Ir, call: OpId) -> Option<RegionId> {
        self.callee(call).and_then(|f| ir.regions(f).next())
    }
}
