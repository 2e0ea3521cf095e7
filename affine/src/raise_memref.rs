//! `affine-raise-from-memref`: `memref.load`/`memref.store` whose indices
//! are affine — integer constants, sums and products (`arith.addi`,
//! `arith.muli`, one factor free of dimensions) of such, valid affine symbols and dimensions — become
//! `affine.load`/`affine.store` with the map those indices spell (symbols
//! and dimensions numbered in order of first use). Other accesses stay.

use crate::for_op::loop_of_iv;
use crate::scope::{affine_scope, is_valid_dim_in, is_valid_symbol_in};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::dialect::Traits;
use silica_ir::pass::{Pass, PassInfo};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, OpSpec, TypeKind, ValueDef, ValueId};

fn is_index(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    matches!(ctx.type_kind(ir.value_type(v)), TypeKind::Index)
}

fn has_trait(ctx: &Context, ir: &Ir, op: OpId, t: Traits) -> bool {
    ctx.op_def(ir.op_name(op)).is_some_and(|d| d.traits.has(t))
}

/// MLIR's `isValidSymbol(Value)`: at the top level of an affine scope, or
/// a valid symbol of the scope of its defining op.
fn is_valid_symbol(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    if !is_index(ctx, ir, v) {
        return false;
    }
    let top_level = ir
        .value_block(v)
        .and_then(|b| ir.block_region(b))
        .and_then(|r| ir.region_op(r))
        .is_some_and(|o| has_trait(ctx, ir, o, Traits::AFFINE_SCOPE));
    if top_level {
        return true;
    }
    ir.defining_op(v)
        .is_some_and(|d| is_valid_symbol_in(ctx, ir, v, affine_scope(ctx, ir, d)))
}

/// MLIR's `isValidDim(Value)`.
pub(crate) fn is_valid_dim(ctx: &Context, ir: &Ir, v: ValueId) -> bool {
    if !is_index(ctx, ir, v) {
        return false;
    }
    if let Some(d) = ir.defining_op(v) {
        return is_valid_dim_in(ctx, ir, v, affine_scope(ctx, ir, d));
    }
    if loop_of_iv(ctx, ir, v).is_some() {
        return true;
    }
    let ValueDef::Argument { block, .. } = ir.value_def(v) else {
        return false;
    };
    ir.block_region(block)
        .and_then(|r| ir.region_op(r))
        .is_some_and(|o| {
            ctx.str(ir.op_name(o)) == "affine.parallel"
                || has_trait(ctx, ir, o, Traits::AFFINE_SCOPE)
        })
}

fn constant_int(ctx: &Context, ir: &Ir, v: ValueId) -> Option<i64> {
    let d = ir.defining_op(v)?;
    if ctx.str(ir.op_name(d)) != "arith.constant" {
        return None;
    }
    match ctx.attr_kind(silica_ir::dialect::inherent_attr(ctx, ir, d, "value")?) {
        AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// Dims and symbols met so far.
#[derive(Default)]
struct Operands {
    dims: Vec<ValueId>,
    symbols: Vec<ValueId>,
}

impl Operands {
    fn expr(&mut self, ctx: &Context, ir: &Ir, v: ValueId) -> Option<AffineExpr> {
        if let Some(c) = constant_int(ctx, ir, v) {
            return Some(AffineExpr::Constant(c));
        }
        if let Some(d) = ir.defining_op(v) {
            let name = ctx.str(ir.op_name(d));
            if matches!(name, "arith.addi" | "arith.muli") && ir.num_operands(d) == 2 {
                let lhs = self.expr(ctx, ir, ir.operand(d, 0));
                let rhs = lhs
                    .as_ref()
                    .and_then(|_| self.expr(ctx, ir, ir.operand(d, 1)));
                if let (Some(l), Some(r)) = (lhs, rhs) {
                    if name == "arith.addi" {
                        return Some(l.plus(r));
                    }
                    // A product of two dimensions is not affine.
                    if l.is_symbolic_or_constant() || r.is_symbolic_or_constant() {
                        return Some(l.times(r));
                    }
                }
            }
        }
        if let Some(i) = self.symbols.iter().position(|&s| s == v) {
            return Some(AffineExpr::Symbol(i as u32));
        }
        if is_valid_symbol(ctx, ir, v) {
            self.symbols.push(v);
            return Some(AffineExpr::Symbol(self.symbols.len() as u32 - 1));
        }
        if let Some(i) = self.dims.iter().position(|&s| s == v) {
            return Some(AffineExpr::Dim(i as u32));
        }
        if is_valid_dim(ctx, ir, v) {
            self.dims.push(v);
            return Some(AffineExpr::Dim(self.dims.len() as u32 - 1));
        }
        None
    }
}

/// The map and operands the indices spell, when all are affine.
fn affine_indices(
    ctx: &Context,
    ir: &Ir,
    indices: &[ValueId],
) -> Option<(AffineMap, Vec<ValueId>)> {
    let mut ops = Operands::default();
    let mut results = Vec::with_capacity(indices.len());
    for &i in indices {
        results.push(ops.expr(ctx, ir, i)?);
    }
    let map = AffineMap {
        num_dims: ops.dims.len() as u32,
        num_symbols: ops.symbols.len() as u32,
        results: results.into(),
    };
    let mut operands = ops.dims;
    operands.extend(ops.symbols);
    Some((map, operands))
}

/// Replaces `op` (a `memref.load` or `memref.store`) by its affine form.
fn raise(ctx: &mut Context, ir: &mut Ir, op: OpId, store: bool) {
    let all: Vec<ValueId> = ir.operands(op).collect();
    let first = if store { 2 } else { 1 };
    if all.len() < first {
        return;
    }
    let Some((map, map_operands)) = affine_indices(ctx, ir, &all[first..]) else {
        return;
    };
    let mut operands = all[..first].to_vec();
    operands.extend(map_operands);
    let map = ctx.intern_attr(AttrKind::AffineMap(map));
    let key = ctx.sym("map");
    let props = Some(ctx.dict_attr(vec![(key, map)]));
    let name = ctx.sym(if store { "affine.store" } else { "affine.load" });
    let result_types: Vec<_> = ir.results(op).map(|r| ir.value_type(r)).collect();
    let attrs = ctx.empty_dict();
    let new = ir.create_op(OpSpec {
        name,
        loc: ir.op_loc(op),
        operands: &operands,
        result_types: &result_types,
        successors: &[],
        regions: &[],
        attrs,
        props,
    });
    ir.insert_op_before(op, new);
    if !store {
        let (old, newv) = (ir.result(op, 0), ir.result(new, 0));
        ir.replace_all_uses(old, newv);
    }
    ir.erase_op(op);
}

struct RaiseMemref;

impl Pass for RaiseMemref {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut ops = Vec::new();
        ir.walk(op, &mut |o| match ctx.str(ir.op_name(o)) {
            "memref.load" => ops.push((o, false)),
            "memref.store" => ops.push((o, true)),
            _ => {}
        });
        for (o, store) in ops {
            raise(ctx, ir, o, store);
        }
        Ok(())
    }
}

/// The `affine-raise-from-memref` pass.
pub static AFFINE_RAISE_FROM_MEMREF: PassInfo = PassInfo {
    argument: "affine-raise-from-memref",
    name: "RaiseMemrefDialect",
    description: "Turn some memref operators to affine operators where supported",
    anchor: Some("func.func"),
    options: &[],
    create: |_| Ok(Box::new(RaiseMemref)),
};
