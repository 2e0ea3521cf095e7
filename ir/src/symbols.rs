//! Symbol tables: ops with a `sym_name` directly inside a symbol-table op's
//! region, looked up by (possibly nested) references like `@a::@b`; the
//! symbol references inside attributes; symbol visibility.

use crate::attrs::AttrKind;
use crate::context::{Attr, Context, Symbol};
use crate::dialect::inherent_attr;
use crate::graph::{Ir, OpId};
use crate::verify::symbol_name;

/// Calls `f` with the root and nested names of every symbol reference in
/// `a` (inside arrays, dictionaries and dialect attribute parameters).
pub fn for_each_symbol_ref(ctx: &Context, a: Attr, f: &mut dyn FnMut(Symbol, &[Symbol])) {
    match ctx.attr_kind(a) {
        AttrKind::SymbolRef { root, nested } => f(*root, nested),
        AttrKind::Array(items) => items.iter().for_each(|&i| for_each_symbol_ref(ctx, i, f)),
        AttrKind::Dictionary(entries) => entries
            .iter()
            .for_each(|&(_, v)| for_each_symbol_ref(ctx, v, f)),
        AttrKind::Dialect { params, .. } => {
            params.iter().for_each(|&p| for_each_symbol_ref(ctx, p, f))
        }
        _ => {}
    }
}

/// Whether `op`'s `sym_visibility` is `word` (`private`, `nested`).
pub fn visibility_is(ctx: &Context, ir: &Ir, op: OpId, word: &[u8]) -> bool {
    inherent_attr(ctx, ir, op, "sym_visibility").is_some_and(
        |a| matches!(ctx.attr_kind(a), AttrKind::String { value, .. } if &**value == word),
    )
}

/// Whether `op` is a private symbol.
pub fn is_private(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    visibility_is(ctx, ir, op, b"private")
}

/// Finds the op named `name` directly inside the symbol table `table`.
pub fn lookup(ctx: &Context, ir: &Ir, table: OpId, name: &str) -> Option<OpId> {
    let key = ctx.lookup_sym("sym_name")?;
    let region = ir.regions(table).next()?;
    ir.region_blocks(region)
        .flat_map(|b| ir.block_ops(b))
        .find(|&op| symbol_name(ctx, ir, op, key).as_deref() == Some(name.as_bytes()))
}

/// Resolves a nested reference `@root::@n1::@n2` starting at `table`.
pub fn lookup_nested(
    ctx: &Context,
    ir: &Ir,
    table: OpId,
    root: Symbol,
    nested: &[Symbol],
) -> Option<OpId> {
    let mut cur = lookup(ctx, ir, table, ctx.str(root))?;
    for n in nested {
        cur = lookup(ctx, ir, cur, ctx.str(*n))?;
    }
    Some(cur)
}

/// The op that the symbol reference `sym` names, looked up in the
/// nearest symbol table around `op` (MLIR's `lookupNearestSymbolFrom`).
pub fn lookup_from(ctx: &Context, ir: &Ir, op: OpId, sym: Attr) -> Option<OpId> {
    let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(sym) else {
        return None;
    };
    let mut table = ir.parent_op(op);
    while let Some(t) = table {
        let is_table = ctx
            .op_def(ir.op_name(t))
            .is_some_and(|d| d.traits.has(crate::dialect::Traits::SYMBOL_TABLE));
        if is_table {
            return lookup_nested(ctx, ir, t, *root, nested);
        }
        table = ir.parent_op(t);
    }
    None
}

/// What is wrong with `op`'s `sym_visibility`, as MLIR's symbol
/// verifier says it (after `'name' op `).
pub fn visibility_error(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    let a = inherent_attr(ctx, ir, op, "sym_visibility")?;
    let shown = crate::printer::attr_to_string(ctx, a);
    match ctx.attr_kind(a) {
        AttrKind::String { value, .. } => (!matches!(&**value, b"public" | b"private" | b"nested"))
            .then(|| {
                format!(
                    "visibility expected to be one of [\"public\", \"private\", \"nested\"], but got {shown}"
                )
            }),
        _ => Some(format!(
            "requires visibility attribute 'sym_visibility' to be a string attribute, but got {shown}"
        )),
    }
}

/// Whether `op` is a symbol table (MLIR's `SymbolTable` trait).
pub fn is_symbol_table(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op))
        .is_some_and(|d| d.traits.has(crate::dialect::Traits::SYMBOL_TABLE))
}

/// What the reference `@root::@nested...` from `user` names: looked up in
/// the symbol tables around `user`, innermost first, then through the
/// nested names.
pub fn resolve_ref(
    ctx: &Context,
    ir: &Ir,
    user: OpId,
    root: Symbol,
    nested: &[Symbol],
) -> Option<OpId> {
    let mut scope = ir.parent_op(user);
    while let Some(table) = scope {
        if is_symbol_table(ctx, ir, table) {
            if let Some(mut found) = lookup(ctx, ir, table, ctx.str(root)) {
                for n in nested {
                    found = lookup(ctx, ir, found, ctx.str(*n))?;
                }
                return Some(found);
            }
        }
        scope = ir.parent_op(table);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::{parse, ParseOptions};

    #[test]
    fn finds_nested_symbols() {
        let mut ctx = Context::new();
        ctx.allow_unregistered = true;
        let src = b"module @a { module @b { \"t.f\"() {sym_name = \"f\"} : () -> () } }";
        let m = parse(&mut ctx, "t", src, ParseOptions::default()).unwrap();
        let b = ctx.sym("b");
        let f = ctx.sym("f");
        let top = m.top;
        let found = lookup_nested(&ctx, &m.ir, top, b, &[f]).unwrap();
        assert_eq!(ctx.str(m.ir.op_name(found)), "t.f");
        assert!(lookup(&ctx, &m.ir, top, "zz").is_none());
    }
}
