//! Symbol references of `ssp.operation`s: auxiliary dependences name
//! operations of the same graph; linked operator and resource types are
//! looked up in the instance's libraries when flat (`@T`), and from the
//! enclosing symbol tables outwards when nested (`@Lib::@T`).

use super::attrs::ssp_attr;
use super::ops::{
    array_of, GRAPH, INSTANCE, LIBRARY, OPERATION, OPERATOR_TYPE, RESOURCE, RESOURCE_TYPE,
};
use silica_ir::symbols::{lookup, lookup_nested};
use silica_ir::{Attr, AttrKind, Context, Ir, OpId};

/// The operation of `op`'s graph that the flat reference `src` names.
pub(crate) fn operation_named(ctx: &Context, ir: &Ir, op: OpId, src: Attr) -> Option<OpId> {
    let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(src) else {
        return None;
    };
    if !nested.is_empty() {
        return None;
    }
    let graph = ir.parent_op(op)?;
    lookup(ctx, ir, graph, ctx.str(*root)).filter(|&o| ctx.str(ir.op_name(o)) == OPERATION)
}

/// The instance enclosing `op` (an operation, or its graph).
pub(crate) fn instance_of(ctx: &Context, ir: &Ir, op: OpId) -> Option<OpId> {
    let mut cur = ir.parent_op(op);
    while let Some(o) = cur {
        if ctx.str(ir.op_name(o)) == INSTANCE {
            return Some(o);
        }
        cur = ir.parent_op(o);
    }
    None
}

/// The op of kind `wanted` that `sym` names, seen from `op`: a flat name
/// is looked up in the instance's `container`s, a nested one in each
/// enclosing symbol table from the inside out.
fn resolve(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    sym: Attr,
    container: &str,
    wanted: &str,
) -> Option<OpId> {
    let AttrKind::SymbolRef { root, nested } = ctx.attr_kind(sym) else {
        return None;
    };
    let is_wanted = |o: OpId| ctx.str(ir.op_name(o)) == wanted;
    if nested.is_empty() {
        let instance = instance_of(ctx, ir, op)?;
        let body = ir
            .regions(instance)
            .next()
            .and_then(|r| ir.entry_block(r))?;
        return ir
            .block_ops(body)
            .filter(|&c| ctx.str(ir.op_name(c)) == container)
            .find_map(|c| lookup(ctx, ir, c, ctx.str(*root)))
            .filter(|&o| is_wanted(o));
    }
    let mut table = ir.parent_op(op);
    while let Some(t) = table {
        if let Some(found) = lookup_nested(ctx, ir, t, *root, nested) {
            return is_wanted(found).then_some(found);
        }
        table = ir.parent_op(t);
    }
    None
}

/// The `operator_type` op that `sym` names, seen from `op`.
pub(crate) fn operator_type(ctx: &Context, ir: &Ir, op: OpId, sym: Attr) -> Option<OpId> {
    resolve(ctx, ir, op, sym, LIBRARY, OPERATOR_TYPE)
}

/// The `resource_type` op that `sym` names, seen from `op`.
pub(crate) fn resource_type(ctx: &Context, ir: &Ir, op: OpId, sym: Attr) -> Option<OpId> {
    resolve(ctx, ir, op, sym, RESOURCE, RESOURCE_TYPE)
}

/// The linked operator type and resource types of an operation.
pub(crate) fn links(ctx: &Context, ir: &Ir, op: OpId) -> (Option<Attr>, Vec<Attr>) {
    let mut opr = None;
    let mut rsrcs = Vec::new();
    for a in array_of(ctx, ir, op, "sspProperties") {
        match ssp_attr(ctx, a) {
            Some(("opr", [r])) => opr = Some(*r),
            Some(("rsrcs", [list])) => {
                if let AttrKind::Array(e) = ctx.attr_kind(*list) {
                    rsrcs.extend(e.iter().copied());
                }
            }
            _ => {}
        }
    }
    (opr, rsrcs)
}

/// What is wrong with an operation's linked types, if anything.
pub(crate) fn check_links(ctx: &Context, ir: &Ir, op: OpId) -> Option<String> {
    if ir
        .parent_op(op)
        .is_none_or(|g| ctx.str(ir.op_name(g)) != GRAPH)
    {
        return None;
    }
    let text = |a: Attr| silica_ir::printer::attr_to_string(ctx, a);
    let (opr, rsrcs) = links(ctx, ir, op);
    if let Some(o) = opr {
        if operator_type(ctx, ir, op, o).is_none() {
            return Some(format!(
                "Linked operator type property references invalid operator type: {}",
                text(o)
            ));
        }
    }
    for r in rsrcs {
        if resource_type(ctx, ir, op, r).is_none() {
            return Some(format!(
                "Linked resource type property references invalid resource type: {}",
                text(r)
            ));
        }
    }
    None
}
