//! Which SSA values may be affine dimensions or symbols where they are
//! used (MLIR's `isValidDim`/`isValidSymbol`): values defined at the top
//! of an affine scope (a function or module body), constants, dimension
//! sizes of such memrefs, `affine.apply` of valid operands, and loop
//! induction variables as dimensions.

use silica_ir::dialect::Traits;
use silica_ir::format::segment_sizes;
use silica_ir::types::DYNAMIC;
use silica_ir::{Context, Ir, OpId, RegionId, TypeKind, ValueId};

fn has_trait(ctx: &Context, ir: &Ir, op: OpId, t: Traits) -> bool {
    ctx.op_def(ir.op_name(op)).is_some_and(|d| d.traits.has(t))
}

fn is_named(ctx: &Context, ir: &Ir, op: OpId, name: &str) -> bool {
    ctx.str(ir.op_name(op)) == name
}

fn is_index(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    matches!(ctx.type_kind(ir.value_type(v)), TypeKind::Index)
}

/// The region of the affine scope `op` is in: the region, directly
/// inside the nearest op with `AFFINE_SCOPE`, that holds `op`.
pub fn affine_scope(ctx: &Context, ir: &Ir, op: OpId) -> Option<RegionId> {
    let mut cur = op;
    while let Some(parent) = ir.parent_op(cur) {
        if has_trait(ctx, ir, parent, Traits::AFFINE_SCOPE) {
            return ir.op_block(cur).and_then(|b| ir.block_region(b));
        }
        cur = parent;
    }
    None
}

/// The region `v` is defined in (as a block argument or an op result).
fn defining_region(ir: &Ir, v: ValueId) -> Option<RegionId> {
    ir.value_block(v).and_then(|b| ir.block_region(b))
}

/// Whether `v` is defined directly in an affine scope's region.
fn is_top_level(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    defining_region(ir, v)
        .and_then(|r| ir.region_op(r))
        .is_some_and(|op| has_trait(ctx, ir, op, Traits::AFFINE_SCOPE))
}

/// The region around the op owning `region`, unless that op is isolated
/// from above (values from further out are not visible in it).
fn enclosing_region(ctx: &Context, ir: &Ir, region: Option<RegionId>) -> Option<RegionId> {
    let op = ir.region_op(region?)?;
    if has_trait(ctx, ir, op, Traits::ISOLATED_FROM_ABOVE) {
        return None;
    }
    ir.op_block(op).and_then(|b| ir.block_region(b))
}

/// Whether `op` has no memory effects and cannot trap (MLIR's `isPure`:
/// divisions may trap, so they are not).
fn is_pure(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.op_def(ir.op_name(op)).is_some_and(|d| {
        matches!(
            silica_ir::dialect::op_effects(ctx, ir, op),
            silica_ir::dialect::Effects::None
        ) && !d.traits.has(Traits::DIVISION)
            && ir.num_regions(op) == 0
    })
}

/// Whether `v` may be used as an affine symbol in `region`.
pub fn is_valid_symbol_in(ctx: &Context, ir: &Ir, v: ValueId, region: Option<RegionId>) -> bool {
    if !is_index(ctx, ir, v) {
        return false;
    }
    if region.is_some() && defining_region(ir, v) == region {
        return true;
    }
    let Some(def) = ir.defining_op(v) else {
        return enclosing_region(ctx, ir, region)
            .is_some_and(|r| is_valid_symbol_in(ctx, ir, v, Some(r)));
    };
    if has_trait(ctx, ir, def, Traits::CONSTANT_LIKE) {
        return true;
    }
    // A pure op (`affine.apply` among them) of valid symbols.
    if is_pure(ctx, ir, def)
        && ir
            .operands(def)
            .all(|x| is_valid_symbol_in(ctx, ir, x, region))
    {
        return true;
    }
    if is_named(ctx, ir, def, "memref.dim") {
        return is_dim_op_valid_symbol(ctx, ir, def, region);
    }
    enclosing_region(ctx, ir, region).is_some_and(|r| is_valid_symbol_in(ctx, ir, v, Some(r)))
}

/// Whether `v` may be used as an affine dimension in `region`.
pub fn is_valid_dim_in(ctx: &Context, ir: &Ir, v: ValueId, region: Option<RegionId>) -> bool {
    if !is_index(ctx, ir, v) {
        return false;
    }
    if is_valid_symbol_in(ctx, ir, v, region) {
        return true;
    }
    let Some(def) = ir.defining_op(v) else {
        let owner = defining_region(ir, v).and_then(|r| ir.region_op(r));
        return owner.is_some_and(|o| {
            is_named(ctx, ir, o, "affine.for") || is_named(ctx, ir, o, "affine.parallel")
        });
    };
    let name = ctx.str(ir.op_name(def));
    match name {
        "affine.apply" | "affine.delinearize_index" | "affine.linearize_index" => ir
            .operands(def)
            .all(|x| is_valid_dim_in(ctx, ir, x, region)),
        "memref.dim" => is_top_level(ctx, ir, ir.operand(def, 0)),
        _ => false,
    }
}

/// A `memref.dim` is a valid symbol when its memref is defined at the top
/// of a scope, or is allocated or viewed with the size a valid symbol.
fn is_dim_op_valid_symbol(ctx: &Context, ir: &Ir, dim: OpId, region: Option<RegionId>) -> bool {
    let mut source = ir.operand(dim, 0);
    if is_top_level(ctx, ir, source) {
        return true;
    }
    let Some(index) = silica_ir::rewrite::fold::constant_i64(ctx, ir, ir.operand(dim, 1)) else {
        return false;
    };
    let mut def = ir.defining_op(source);
    while let Some(cast) = def.filter(|&d| is_named(ctx, ir, d, "memref.cast")) {
        source = ir.operand(cast, 0);
        if matches!(
            ctx.type_kind(ir.value_type(source)),
            TypeKind::UnrankedMemRef { .. }
        ) {
            return false;
        }
        def = ir.defining_op(source);
    }
    let Some(def) = def else {
        return false;
    };
    // Where each op keeps its dynamic sizes among its operands.
    let sizes_from = match ctx.str(ir.op_name(def)) {
        "memref.alloc" | "memref.alloca" => 0,
        "memref.view" => 2,
        "memref.subview" => {
            let segments = segment_sizes(ctx, ir, def).unwrap_or_default();
            segments.iter().take(2).sum()
        }
        _ => return false,
    };
    let TypeKind::MemRef { shape, .. } = ctx.type_kind(ir.value_type(ir.result(def, 0))) else {
        return false;
    };
    let Some(&size) = usize::try_from(index).ok().and_then(|i| shape.get(i)) else {
        return false;
    };
    if size != DYNAMIC {
        return true;
    }
    let position = shape[..index as usize]
        .iter()
        .filter(|&&d| d == DYNAMIC)
        .count();
    ir.operands(def)
        .nth(sizes_from + position)
        .is_some_and(|s| is_valid_symbol_in(ctx, ir, s, region))
}

/// Why `operands` (the first `dims` of them dimensions) are not valid
/// dimension and symbol identifiers of `op`, as MLIR's
/// `verifyDimAndSymbolIdentifiers` says it.
pub fn dim_and_symbol_error(
    ctx: &Context,
    ir: &Ir,
    op: OpId,
    operands: &[ValueId],
    dims: usize,
) -> Option<&'static str> {
    let scope = affine_scope(ctx, ir, op);
    for (i, &v) in operands.iter().enumerate() {
        if i < dims {
            if !is_valid_dim_in(ctx, ir, v, scope) {
                return Some("operand cannot be used as a dimension id");
            }
        } else if !is_valid_symbol_in(ctx, ir, v, scope) {
            return Some("operand cannot be used as a symbol");
        }
    }
    None
}
