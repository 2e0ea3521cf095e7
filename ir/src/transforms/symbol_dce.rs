//! `symbol-dce` (erase private symbols nothing live references) and
//! `symbol-privatize` (make top-level symbols private), as MLIR defines
//! them.

use crate::attrs::AttrKind;
use crate::context::{Attr, Context, Symbol};
use crate::diag::Diagnostic;
use crate::dialect::{inherent_attr, set_inherent_attr, Traits};
use crate::graph::{Ir, OpId};
use crate::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use crate::rewrite::effects::is_symbol;
use crate::rewrite::{NoListener, Rewriter};
use crate::symbols::{for_each_symbol_ref, is_private, visibility_is};
use rustc_hash::FxHashSet;

fn is_symbol_table(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op))
        .is_some_and(|d| d.traits.has(Traits::SYMBOL_TABLE))
}

fn is_public(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    !is_private(ctx, ir, op) && !visibility_is(ctx, ir, op, b"nested")
}

fn symbol_of(ctx: &Context, ir: &Ir, op: OpId) -> Option<Vec<u8>> {
    let a = inherent_attr(ctx, ir, op, "sym_name")?;
    match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => Some(value.to_vec()),
        _ => None,
    }
}

/// The symbol references in `a`.
fn collect_refs(ctx: &Context, a: Attr, out: &mut Vec<(Symbol, Vec<Symbol>)>) {
    for_each_symbol_ref(ctx, a, &mut |root, nested| {
        out.push((root, nested.to_vec()))
    });
}

/// Whether `op` is unregistered with one region: it may be a symbol table
/// nobody can look into (MLIR's `isPotentiallyUnknownSymbolTable`).
fn potentially_unknown_table(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op)).is_none() && ir.regions(op).count() == 1
}

/// Symbol uses of `op` and of the ops nested in it (not entering nested
/// symbol tables); `Err` when an op on the way may be an unknown symbol
/// table.
fn symbol_uses(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    out: &mut Vec<(Symbol, Vec<Symbol>)>,
) -> Result<(), ()> {
    if potentially_unknown_table(ctx, ir, op) {
        return Err(());
    }
    collect_refs(ctx, ir.op_attrs(op), out);
    if let Some(p) = ir.op_props(op) {
        collect_refs(ctx, p, out);
    }
    for r in ir.regions(op) {
        for b in ir.region_blocks(r) {
            for o in ir.block_ops(b) {
                if !is_symbol_table(ctx, ir, o) {
                    symbol_uses(ctx, ir, o, out)?;
                } else {
                    collect_refs(ctx, ir.op_attrs(o), out);
                }
            }
        }
    }
    Ok(())
}

/// The symbols a reference from `user` resolves to: looked up in the
/// nearest enclosing symbol tables, outward.
fn resolve(ctx: &Context, ir: &Ir, user: OpId, root: Symbol, nested: &[Symbol]) -> Vec<OpId> {
    let mut scope = ir.parent_op(user);
    while let Some(table) = scope {
        if is_symbol_table(ctx, ir, table) {
            if let Some(found) = crate::symbols::lookup(ctx, ir, table, ctx.str(root)) {
                let mut chain = vec![found];
                let mut cur = found;
                for n in nested {
                    match crate::symbols::lookup(ctx, ir, cur, ctx.str(*n)) {
                        Some(next) => {
                            chain.push(next);
                            cur = next;
                        }
                        None => return Vec::new(),
                    }
                }
                return chain;
            }
        }
        scope = ir.parent_op(table);
    }
    Vec::new()
}

/// Marks the live symbols of `table`; `Err(op)` for an op whose uses
/// cannot be known.
fn compute_liveness(
    ctx: &Context,
    ir: &Ir,
    table: OpId,
    hidden: bool,
    live: &mut FxHashSet<OpId>,
) -> Result<(), OpId> {
    let mut worklist = Vec::new();
    for r in ir.regions(table) {
        for b in ir.region_blocks(r) {
            for op in ir.block_ops(b) {
                if symbol_of(ctx, ir, op).is_none() {
                    worklist.push(op);
                    continue;
                }
                let discardable = hidden || !is_public(ctx, ir, op);
                if !discardable && live.insert(op) {
                    worklist.push(op);
                }
            }
        }
    }
    while let Some(op) = worklist.pop() {
        if is_symbol_table(ctx, ir, op) {
            let sym_hidden = hidden || is_private(ctx, ir, op);
            compute_liveness(ctx, ir, op, sym_hidden, live)?;
        }
        let mut uses = Vec::new();
        if is_symbol_table(ctx, ir, op) {
            collect_refs(ctx, ir.op_attrs(op), &mut uses);
        } else if symbol_uses(ctx, ir, op, &mut uses).is_err() {
            return Err(op);
        }
        for (root, nested) in uses {
            for s in resolve(ctx, ir, op, root, &nested) {
                if live.insert(s) {
                    worklist.push(s);
                }
            }
        }
    }
    Ok(())
}

struct SymbolDce;

impl Pass for SymbolDce {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        if !is_symbol_table(ctx, ir, op) {
            return Err(Box::new(Diagnostic::error(
                ir.op_loc(op),
                format!(
                    "'{}' op  was scheduled to run under SymbolDCE, but does not define a symbol table",
                    ctx.str(ir.op_name(op))
                ),
            )));
        }
        let mut live = FxHashSet::default();
        if let Err(unknown) = compute_liveness(ctx, ir, op, false, &mut live) {
            return Err(Box::new(Diagnostic::error(
                ir.op_loc(unknown),
                "operation contains potentially unknown symbol table, meaning that we can't reliable compute symbol uses",
            )));
        }
        let mut tables = Vec::new();
        ir.walk(op, &mut |o| {
            if is_symbol_table(ctx, ir, o) {
                tables.push(o);
            }
        });
        let mut dead = Vec::new();
        for t in tables {
            for r in ir.regions(t) {
                for b in ir.region_blocks(r) {
                    for o in ir.block_ops(b) {
                        if symbol_of(ctx, ir, o).is_some() && !live.contains(&o) {
                            dead.push(o);
                        }
                    }
                }
            }
        }
        let mut listener = NoListener;
        let mut rw = Rewriter::new(ctx, ir, &mut listener);
        for o in dead {
            if !rw.ir.is_erased(o) {
                rw.erase_op(o);
            }
        }
        Ok(())
    }
}

struct SymbolPrivatize {
    exclude: Vec<String>,
}

impl Pass for SymbolPrivatize {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut symbols = Vec::new();
        for r in ir.regions(op) {
            for b in ir.region_blocks(r) {
                symbols.extend(ir.block_ops(b).filter(|&o| is_symbol(ctx, ir, o)));
            }
        }
        let private = ctx.string_attr(b"private");
        for o in symbols {
            let Some(name) = symbol_of(ctx, ir, o) else {
                continue;
            };
            if self.exclude.iter().any(|e| e.as_bytes() == name.as_slice()) {
                continue;
            }
            set_inherent_attr(ctx, ir, o, "sym_visibility", private);
        }
        Ok(())
    }
}

fn create_dce(_: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(SymbolDce))
}

fn create_privatize(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(SymbolPrivatize {
        exclude: o.list("exclude"),
    }))
}

/// The `symbol-dce` pass.
pub static SYMBOL_DCE: PassInfo = PassInfo {
    argument: "symbol-dce",
    name: "SymbolDCE",
    description: "Eliminate dead symbols",
    anchor: None,
    options: &[],
    create: create_dce,
};

/// The `symbol-privatize` pass.
pub static SYMBOL_PRIVATIZE: PassInfo = PassInfo {
    argument: "symbol-privatize",
    name: "SymbolPrivatize",
    description: "Mark symbols private",
    anchor: None,
    options: &[PassOptionInfo {
        name: "exclude",
        description: "Comma separated list of symbols that should not be marked private",
        kind: OptionKind::List,
        default: "",
    }],
    create: create_privatize,
};
