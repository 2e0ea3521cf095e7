//! `inline`: MLIR's inliner for `func`. Functions of the module form a
//! call graph (edges from `func.call`, entered at the non-private
//! functions); its strongly connected components are visited callees
//! first. Per component, until nothing inlines or `max-iterations`: the
//! default pipeline (canonicalize) runs on each function, then every call
//! to a function with a body outside the component is inlined (calls that
//! arrive with inlined code too). Single-block bodies go in place; larger
//! ones split the caller's block, `func.return` becoming `cf.br` to the
//! rest of it. Inlined ops get `callsite(op at call)` locations. Private
//! functions with bodies that nothing references are erased.

use crate::func::referenced_func;
use rustc_hash::{FxHashMap, FxHashSet};
use silica_ir::dialect::inherent_attr;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet};
use silica_ir::symbols::{for_each_symbol_ref, is_private};
use silica_ir::{
    Attr, AttrKind, BlockId, Context, Diagnostic, Ir, Location, OpId, OpSpec, Symbol, ValueId,
};

const FUNC: &str = "func.func";
const CALL: &str = "func.call";

fn is_named(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.str(ir.op_name(op)) == name
}

fn has_body(ir: &Ir, f: OpId) -> bool {
    ir.regions(f).next().is_some_and(|r| !ir.region_is_empty(r))
}

fn calls_in(ctx: &Context, ir: &Ir, op: OpId) -> Vec<OpId> {
    let mut calls = Vec::new();
    ir.walk(op, &mut |o| {
        if is_named(ctx, ir, o, CALL) {
            calls.push(o);
        }
    });
    calls
}

/// Strongly connected components of the call graph among `funcs`, in
/// the order a depth-first search from the non-private functions
/// completes them (callees first).
fn sccs(ctx: &Context, ir: &Ir, funcs: &[OpId]) -> Vec<Vec<OpId>> {
    let index: FxHashMap<OpId, usize> = funcs.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    let edges: Vec<Vec<usize>> = funcs
        .iter()
        .map(|&f| {
            calls_in(ctx, ir, f)
                .into_iter()
                .filter_map(|c| referenced_func(ctx, ir, c, "callee"))
                .filter_map(|callee| index.get(&callee).copied())
                .collect()
        })
        .collect();
    struct Tarjan<'e> {
        edges: &'e [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for i in 0..self.edges[v].len() {
                let w = self.edges[v][i];
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                comp.reverse();
                self.out.push(comp);
            }
        }
    }
    let n = funcs.len();
    let mut t = Tarjan {
        edges: &edges,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for (i, &f) in funcs.iter().enumerate() {
        if !is_private(ctx, ir, f) && t.index[i].is_none() {
            t.visit(i);
        }
    }
    t.out
        .into_iter()
        .map(|c| c.into_iter().map(|i| funcs[i]).collect())
        .collect()
}

/// Gives every op nested in `op` the location `callsite(loc at call)`.
fn set_callsite_locs(ctx: &mut Context, ir: &mut Ir, op: OpId, call_loc: Attr) {
    let mut ops = Vec::new();
    ir.walk(op, &mut |o| ops.push(o));
    for o in ops {
        let loc = callsite(ctx, ir.op_loc(o), call_loc);
        ir.set_op_loc(o, loc);
    }
}

/// `loc` inlined at `call`: a call-site chain keeps its innermost callee
/// and appends the call to its callers, as MLIR does.
fn callsite(ctx: &mut Context, loc: Attr, call: Attr) -> Attr {
    let caller = match ctx.attr_kind(loc) {
        AttrKind::Location(Location::CallSite { callee, caller }) => Some((*callee, *caller)),
        _ => None,
    };
    match caller {
        Some((callee, caller)) => {
            let caller = callsite(ctx, caller, call);
            ctx.loc(Location::CallSite { callee, caller })
        }
        None => ctx.loc(Location::CallSite {
            callee: loc,
            caller: call,
        }),
    }
}

/// Inlines `callee` at `call`; returns the calls the inlined code holds.
pub fn inline_call(ctx: &mut Context, ir: &mut Ir, call: OpId, callee: OpId) -> Vec<OpId> {
    let copy = ir.clone_op(callee);
    let call_loc = ir.op_loc(call);
    set_callsite_locs(ctx, ir, copy, call_loc);
    let region = ir.regions(copy).next().expect("function body");
    let blocks: Vec<BlockId> = ir.region_blocks(region).collect();
    let entry = blocks[0];
    let operands: Vec<ValueId> = ir.operands(call).collect();
    for (&a, &v) in ir.block_args(entry).to_vec().iter().zip(&operands) {
        ir.replace_all_uses(a, v);
    }
    let mut moved = Vec::new();
    let results: Vec<ValueId> = ir.results(call).collect();
    if blocks.len() == 1 {
        let term = ir.last_op(entry).expect("terminated body");
        let returned: Vec<ValueId> = ir.operands(term).collect();
        let ops: Vec<OpId> = ir.block_ops(entry).filter(|&o| o != term).collect();
        for o in ops {
            ir.move_op_before(o, call);
            moved.push(o);
        }
        for (&r, &v) in results.iter().zip(&returned) {
            ir.replace_all_uses(r, v);
        }
    } else {
        let caller_block = ir.op_block(call).expect("call in a block");
        let post = ir.create_block();
        for &r in &results {
            let ty = ir.value_type(r);
            let a = ir.add_block_arg(post, ty, Some(call_loc));
            ir.replace_all_uses(r, a);
        }
        ir.insert_block_after(caller_block, post);
        let mut tail = Vec::new();
        let mut cur = ir.next_op(call);
        while let Some(o) = cur {
            cur = ir.next_op(o);
            tail.push(o);
        }
        for o in tail {
            ir.detach_op(o);
            ir.append_op(post, o);
        }
        let mut after = caller_block;
        for &b in &blocks[1..] {
            ir.detach_block(b);
            ir.insert_block_after(after, b);
            after = b;
        }
        let entry_ops: Vec<OpId> = ir.block_ops(entry).collect();
        for o in entry_ops {
            ir.detach_op(o);
            ir.append_op(caller_block, o);
        }
        let mut inlined_blocks = vec![caller_block];
        inlined_blocks.extend(&blocks[1..]);
        let br = ctx.sym("cf.br");
        let attrs = ctx.empty_dict();
        for b in inlined_blocks {
            let Some(term) = ir.last_op(b) else {
                continue;
            };
            if term == call || !is_named(ctx, ir, term, "func.return") {
                continue;
            }
            let values: Vec<ValueId> = ir.operands(term).collect();
            let loc = ir.op_loc(term);
            let new = ir.create_op(OpSpec {
                name: br,
                loc,
                operands: &values,
                result_types: &[],
                successors: &[post],
                regions: &[],
                attrs,
                props: None,
            });
            ir.insert_op_before(term, new);
            ir.erase_op(term);
        }
        for &b in &blocks[1..] {
            moved.extend(ir.block_ops(b));
        }
        moved.extend(ir.block_ops(caller_block));
    }
    ir.erase_op(call);
    ir.erase_op(copy);
    let mut new_calls = Vec::new();
    for o in moved {
        if !ir.is_erased(o) {
            new_calls.extend(calls_in(ctx, ir, o));
        }
    }
    new_calls
}

/// Whether `f` calls itself (MLIR never inlines such a function).
fn is_self_recursive(ctx: &Context, ir: &Ir, f: OpId) -> bool {
    calls_in(ctx, ir, f)
        .into_iter()
        .any(|c| referenced_func(ctx, ir, c, "callee") == Some(f))
}

/// Inlines the calls in `scc` to functions outside it; returns whether
/// any was inlined. A call that came with the inlined body of a function
/// is not inlined with that function again (MLIR's inline history), so
/// mutual recursion through other components ends.
fn inline_scc(ctx: &mut Context, ir: &mut Ir, scc: &[OpId]) -> bool {
    let members: FxHashSet<OpId> = scc.iter().copied().collect();
    let mut calls: Vec<(OpId, Vec<OpId>)> = scc
        .iter()
        .flat_map(|&f| calls_in(ctx, ir, f))
        .map(|c| (c, Vec::new()))
        .collect();
    let mut inlined = false;
    // Whether each callee calls itself, looked at once per callee.
    let mut self_recursive: FxHashMap<OpId, bool> = FxHashMap::default();
    let mut i = 0;
    while i < calls.len() {
        let (call, history) = calls[i].clone();
        i += 1;
        if ir.is_erased(call) {
            continue;
        }
        let Some(callee) = referenced_func(ctx, ir, call, "callee") else {
            continue;
        };
        if members.contains(&callee)
            || !has_body(ir, callee)
            || history.contains(&callee)
            || *self_recursive
                .entry(callee)
                .or_insert_with(|| is_self_recursive(ctx, ir, callee))
        {
            continue;
        }
        let more = inline_call(ctx, ir, call, callee);
        let mut deeper = history;
        deeper.push(callee);
        calls.extend(more.into_iter().map(|c| (c, deeper.clone())));
        inlined = true;
    }
    inlined
}

/// Symbols referenced anywhere under `op` (roots of symbol references).
fn referenced_symbols(ctx: &Context, ir: &Ir, op: OpId) -> FxHashSet<Symbol> {
    let mut out = FxHashSet::default();
    let mut add = |root: Symbol, _: &[Symbol]| {
        out.insert(root);
    };
    ir.walk(op, &mut |o| {
        for_each_symbol_ref(ctx, ir.op_attrs(o), &mut add);
        if let Some(p) = ir.op_props(o) {
            for_each_symbol_ref(ctx, p, &mut add);
        }
    });
    out
}

/// Erases private functions with bodies that nothing references.
fn erase_dead_functions(ctx: &mut Context, ir: &mut Ir, module: OpId) {
    loop {
        let used = referenced_symbols(ctx, ir, module);
        let dead: Vec<OpId> = module_funcs(ctx, ir, module)
            .into_iter()
            .filter(|&f| is_private(ctx, ir, f) && has_body(ir, f))
            .filter(|&f| {
                let name =
                    inherent_attr(ctx, ir, f, "sym_name").and_then(|a| match ctx.attr_kind(a) {
                        AttrKind::String { value, .. } => {
                            ctx.lookup_sym(std::str::from_utf8(value).ok()?)
                        }
                        _ => None,
                    });
                name.is_none_or(|n| !used.contains(&n))
            })
            .collect();
        if dead.is_empty() {
            return;
        }
        for f in dead {
            ir.erase_op(f);
        }
    }
}

fn module_funcs(ctx: &Context, ir: &Ir, module: OpId) -> Vec<OpId> {
    ir.regions(module)
        .flat_map(|r| ir.region_blocks(r))
        .flat_map(|b| ir.block_ops(b))
        .filter(|&o| is_named(ctx, ir, o, FUNC))
        .collect()
}

struct Inliner {
    canonicalize: bool,
    max_iterations: usize,
}

impl Pass for Inliner {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        // The canonicalizer's patterns, gathered once for every round.
        let canon = self
            .canonicalize
            .then(|| PatternSet::canonicalization(ctx, &[], &[]));
        let funcs = module_funcs(ctx, ir, op);
        for scc in sccs(ctx, ir, &funcs) {
            let mut iteration = 0;
            loop {
                if let Some(patterns) = &canon {
                    for &f in &scc {
                        if has_body(ir, f) {
                            apply_patterns_greedily(ctx, ir, f, patterns, GreedyConfig::default());
                        }
                    }
                }
                iteration += 1;
                if !inline_scc(ctx, ir, &scc) || iteration >= self.max_iterations {
                    break;
                }
            }
        }
        erase_dead_functions(ctx, ir, op);
        Ok(())
    }
}

fn create(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let canonicalize = match o.string("default-pipeline").trim() {
        "" => false,
        "canonicalize" => true,
        other => {
            return Err(format!(
                "unsupported default-pipeline '{other}' for pass 'inline': expected canonicalize or nothing"
            ))
        }
    };
    if let Some(first) = o.list("op-pipelines").first() {
        return Err(format!(
            "unsupported op-pipelines '{first}' for pass 'inline': callables are optimized with the default pipeline"
        ));
    }
    Ok(Box::new(Inliner {
        canonicalize,
        max_iterations: o.int("max-iterations").max(1) as usize,
    }))
}

/// The `inline` pass.
pub static INLINE: PassInfo = PassInfo {
    argument: "inline",
    name: "Inliner",
    description: "Inline function calls",
    anchor: None,
    options: &[
        PassOptionInfo {
            name: "default-pipeline",
            description:
                "The optimizer pipeline used for callables (canonicalize, or empty for none)",
            kind: OptionKind::String,
            default: "canonicalize",
        },
        PassOptionInfo {
            name: "max-iterations",
            description: "Maximum number of iterations when inlining within an SCC",
            kind: OptionKind::UInt,
            default: "4",
        },
        PassOptionInfo {
            name: "inlining-threshold",
            description:
                "Accepted for compatibility; every call to a function with a body is inlined",
            kind: OptionKind::UInt,
            default: "4294967295",
        },
        PassOptionInfo {
            name: "op-pipelines",
            description:
                "Callable operation specific optimizer pipelines (only the default is supported)",
            kind: OptionKind::List,
            default: "",
        },
    ],
    create,
};
