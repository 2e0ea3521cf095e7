//! Folding: an op's `fold` hook sees the constant values of its operands
//! and answers with constants or existing values that replace its
//! results, or changes the op in place; commutative ops move constant
//! operands to the end. [`ConstantFolder`] keeps one constant per value
//! and type in each isolated region, as MLIR's `OperationFolder`.

use crate::context::{Attr, Context, Symbol, Type};
use crate::dialect::Traits;
use crate::graph::{BlockId, Ir, OpId, RegionId, ValueId};
use rustc_hash::FxHashMap;

/// What fold hooks see: the context (to build attributes) and the IR.
pub struct FoldCtx<'a> {
    pub ctx: &'a mut Context,
    pub ir: &'a mut Ir,
}

/// One folded result: a constant or an existing value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpFoldResult {
    Attr(Attr),
    Value(ValueId),
}

/// The outcome of folding an op.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoldResult {
    /// Nothing to fold.
    Fail,
    /// The op was changed in place.
    InPlace,
    /// The op's results are these (one per result).
    Results(Vec<OpFoldResult>),
}

impl FoldResult {
    /// A single result folded to a constant.
    pub fn attr(a: Attr) -> Self {
        FoldResult::Results(vec![OpFoldResult::Attr(a)])
    }

    /// A single result folded to an existing value.
    pub fn value(v: ValueId) -> Self {
        FoldResult::Results(vec![OpFoldResult::Value(v)])
    }
}

/// The constant value of `v`, when a constant-like op defines it.
pub fn constant_value(ctx: &mut Context, ir: &mut Ir, v: ValueId) -> Option<Attr> {
    let op = ir.defining_op(v)?;
    constant_of_op(ctx, ir, op)
}

/// The integer `v` holds, when a constant-like op defines it as an
/// integer attribute.
pub fn constant_int(ctx: &mut Context, ir: &mut Ir, v: ValueId) -> Option<num_bigint::BigInt> {
    let a = constant_value(ctx, ir, v)?;
    match ctx.attr_kind(a) {
        crate::AttrKind::Integer { value, .. } => Some(value.clone()),
        _ => None,
    }
}

/// The integer a constant-like op's `value` attribute gives `v`, for
/// callers that cannot fold (verifiers).
pub fn constant_i64(ctx: &Context, ir: &Ir, v: ValueId) -> Option<i64> {
    let def = ir.defining_op(v)?;
    let constant = ctx
        .op_def(ir.op_name(def))
        .is_some_and(|d| d.traits.has(Traits::CONSTANT_LIKE));
    if !constant {
        return None;
    }
    match ctx.attr_kind(crate::dialect::inherent_attr(ctx, ir, def, "value")?) {
        crate::AttrKind::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// The value of the constant-like `op`.
pub fn constant_of_op(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Option<Attr> {
    let def = ctx.op_def(ir.op_name(op))?;
    if !def.traits.has(Traits::CONSTANT_LIKE) {
        return None;
    }
    let fold = def.fold?;
    match fold(&mut FoldCtx { ctx, ir }, op, &[]) {
        FoldResult::Results(r) => match r.as_slice() {
            [OpFoldResult::Attr(a)] => Some(*a),
            _ => None,
        },
        _ => None,
    }
}

/// Folds `op` with its fold hook; a commutative op whose hook does not
/// fold gets its constant operands moved to the end (an in-place fold).
pub fn fold_op(ctx: &mut Context, ir: &mut Ir, op: OpId) -> FoldResult {
    let operands: Vec<ValueId> = ir.operands(op).collect();
    let constants: Vec<Option<Attr>> = operands
        .iter()
        .map(|&v| constant_value(ctx, ir, v))
        .collect();
    fold_op_with(ctx, ir, op, &constants)
}

/// [`fold_op`] given the constant values of the operands (`None` where
/// not constant).
pub fn fold_op_with(
    ctx: &mut Context,
    ir: &mut Ir,
    op: OpId,
    constants: &[Option<Attr>],
) -> FoldResult {
    let Some(def) = ctx.op_def(ir.op_name(op)) else {
        return FoldResult::Fail;
    };
    let operands: Vec<ValueId> = ir.operands(op).collect();
    if let Some(fold) = def.fold {
        let r = fold(&mut FoldCtx { ctx, ir }, op, constants);
        if r != FoldResult::Fail {
            return r;
        }
    }
    if def.traits.has(Traits::COMMUTATIVE) && operands.len() >= 2 {
        let first_const = constants.iter().position(Option::is_some);
        if let Some(first) = first_const {
            let (non_const, consts): (Vec<usize>, Vec<usize>) =
                (first..operands.len()).partition(|&i| constants[i].is_none());
            if !non_const.is_empty() {
                for (slot, &i) in (first..).zip(non_const.iter().chain(&consts)) {
                    ir.set_operand(op, slot, operands[i]);
                }
                return FoldResult::InPlace;
            }
        }
    }
    FoldResult::Fail
}

/// The region constants of an op in `block` are hoisted into: the
/// nearest enclosing region whose op is isolated from above (or
/// unregistered), or a top-level region.
pub fn insertion_region(ctx: &Context, ir: &Ir, block: BlockId) -> RegionId {
    let mut region = ir.block_region(block).expect("block in a region");
    loop {
        let Some(parent) = ir.region_op(region) else {
            return region;
        };
        let isolated = ctx
            .op_def(ir.op_name(parent))
            .is_none_or(|d| d.traits.has(Traits::ISOLATED_FROM_ABOVE));
        let Some(parent_block) = ir.op_block(parent) else {
            return region;
        };
        if isolated {
            return region;
        }
        region = ir.block_region(parent_block).expect("block in a region");
    }
}

/// How constants are keyed: the op's name, its value and its type.
type ConstantKey = (Symbol, Attr, Type);

/// The constants the folder owns, unique per key in each region.
#[derive(Default)]
pub struct ConstantFolder {
    scopes: FxHashMap<RegionId, FxHashMap<ConstantKey, OpId>>,
    owned: FxHashMap<OpId, (RegionId, ConstantKey)>,
}

impl ConstantFolder {
    /// Whether `op` is a constant the folder keeps.
    pub fn owns(&self, op: OpId) -> bool {
        self.owned.contains_key(&op)
    }

    /// The constant kept for `key` in `region`.
    pub fn lookup(&self, region: RegionId, key: ConstantKey) -> Option<OpId> {
        self.scopes.get(&region).and_then(|m| m.get(&key)).copied()
    }

    /// Keeps `op` as the constant for `key` in `region`.
    pub fn insert(&mut self, region: RegionId, key: ConstantKey, op: OpId) {
        self.scopes.entry(region).or_default().insert(key, op);
        self.owned.insert(op, (region, key));
    }

    /// Forgets `op` (it is being erased).
    pub fn remove(&mut self, op: OpId) {
        if let Some((region, key)) = self.owned.remove(&op) {
            if let Some(m) = self.scopes.get_mut(&region) {
                m.remove(&key);
            }
        }
    }
}
