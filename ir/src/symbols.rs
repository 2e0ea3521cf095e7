//! Symbol tables: ops with a `sym_name` directly inside a symbol-table op's
//! region, looked up by (possibly nested) references like `@a::@b`.

use crate::context::{Context, Symbol};
use crate::graph::{Ir, OpId};
use crate::verify::symbol_name;

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
