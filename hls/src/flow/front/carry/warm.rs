//! Carrying in a loop that `flatten` folds into its nest: code before the
//! loop would make the nest imperfect, so the registers are not loaded
//! before it. The loop starts `w` iterations earlier instead (warm-up
//! iterations), in which only the entering loads run: every other op of
//! the body is an `affine.if` (each gets `iv >= lower` added to its
//! condition) or an op without memory effects, so nothing else happens
//! there, and the registers hold the first real iteration's elements
//! when it starts (they start as zero; a warm-up load past the array is
//! guarded and gives zero, an element no real iteration reads). A fused
//! loop's bodies (`fuse.rs`) are such `if`s.
//!
//! Stores may sit under the `if`s and loads may come after stores, as a
//! shifted consumer reads what its producer stored in the same iteration.
//! Each entering offset is loaded once, directly in the body, before the
//! top-level op holding its first load, so a store in an earlier `if`
//! is seen. [`ordered`] keeps the registers exact: a store whose element
//! a register takes next must come before that entering load (the
//! register then takes the loaded value, which saw the store); a store
//! at a register's own offset must come after every load of it; other
//! stores never reach a register.

use super::{add_registers, load_like, subscripts, take_over, zero, Window};
use crate::model::directives::Directives;
use rustc_hash::FxHashMap;
use silica_affine::for_op::{body, bounds, induction_var, set_bounds, step, Bound};
use silica_affine::loops::iter_args;
use silica_ir::affine::{AffineExpr, IntegerSet};
use silica_ir::dialect::{inherent_attr, set_inherent_attr};
use silica_ir::{AttrKind, BlockId, Context, Ir, OpId, ValueId};

/// Whether the loop `lp` can take warm-up iterations: constant bounds,
/// no `iter_args`, and every op of its body an `affine.if` without
/// results or an op without regions or memory effects.
pub(super) fn eligible(ctx: &Context, ir: &Ir, lp: OpId) -> bool {
    let Some((lo, hi)) = bounds(ctx, ir, lp) else {
        return false;
    };
    let Some(block) = body(ir, lp) else {
        return false;
    };
    if lo.as_constant().is_none() || hi.as_constant().is_none() || !iter_args(ir, lp).is_empty() {
        return false;
    }
    let ok = ir.block_ops(block).all(|op| {
        let name = ctx.str(ir.op_name(op));
        let plain = ir.regions(op).next().is_none();
        match name {
            "affine.if" => ir.results(op).next().is_none(),
            "affine.yield" | "affine.apply" | "affine.min" | "affine.max" => plain,
            _ => plain && (name.starts_with("arith.") || name.starts_with("math.")),
        }
    });
    ok
}

/// The op of `block` that holds `op` (or is it).
fn top_of(ir: &Ir, block: BlockId, mut op: OpId) -> OpId {
    while ir.op_block(op) != Some(block) {
        match ir.parent_op(op) {
            Some(p) => op = p,
            None => break,
        }
    }
    op
}

/// Whether the stores of window `w` of the loop `lp` keep its registers
/// exact with warm-up iterations (see the module doc).
pub(super) fn ordered(ir: &Ir, lp: OpId, w: &Window) -> bool {
    let Some(block) = body(ir, lp) else {
        return false;
    };
    let mut order = FxHashMap::default();
    ir.walk(lp, &mut |o| {
        let n = order.len();
        order.insert(o, n);
    });
    let at = |o: OpId| order.get(&o).copied().unwrap_or(usize::MAX);
    let carried = w.carried();
    let entering = w.entering();
    for &(st, s) in &w.stores {
        let loads = w.loads_at(s);
        let first_top = loads.iter().map(|&l| at(top_of(ir, block, l))).min();
        let before_loads = first_top.is_some_and(|t| at(top_of(ir, block, st)) < t);
        let after_loads = loads.iter().all(|&l| at(l) < at(st));
        if carried.contains(&(s - w.advance)) {
            // Its element is a register's next: the entering load after
            // the store gives it.
            if !(entering.contains(&s) && before_loads) {
                return false;
            }
        } else if carried.contains(&s) && !after_loads {
            return false;
        }
    }
    true
}

/// The warm-up iterations window `w` needs: how many iterations its
/// deepest register's element takes from entering to being read.
fn warm_up(w: &Window) -> i64 {
    let carried = w.carried();
    carried
        .iter()
        .map(|&r| {
            let mut q = 1;
            while carried.contains(&(r + q * w.advance)) {
                q += 1;
            }
            q
        })
        .max()
        .unwrap_or(0)
}

/// Loads each entering offset of `w` once, directly in the body `block`
/// before the op holding its first load (guarded: a warm-up iteration
/// may address past the array), and makes its loads read that value.
fn load_entering(
    ctx: &mut Context,
    ir: &mut Ir,
    block: BlockId,
    w: &Window,
) -> Option<FxHashMap<i64, ValueId>> {
    let mut values = FxHashMap::default();
    for e in w.entering() {
        let loads = w.loads_at(e);
        let like = *loads.first()?;
        let at = subscripts(ctx, ir, like)?;
        let load = load_like(ctx, ir, w.memref, &at, like, true)?;
        let before = top_of(ir, block, like);
        values.insert(e, take_over(ir, load, before, loads));
    }
    Some(values)
}

/// Adds `iv >= lower` to the condition of the `affine.if` `g`.
fn add_lower(ctx: &mut Context, ir: &mut Ir, g: OpId, iv: ValueId, lower: i64) -> Option<()> {
    let set = match ctx.attr_kind(inherent_attr(ctx, ir, g, "condition")?) {
        AttrKind::IntegerSet(s) => s.clone(),
        _ => return None,
    };
    let mut operands: Vec<ValueId> = ir.operands(g).collect();
    let nd = set.num_dims as usize;
    let (dim, num_dims) = match operands.get(..nd)?.iter().position(|&v| v == iv) {
        Some(p) => (p as u32, set.num_dims),
        None => {
            operands.insert(nd, iv);
            (set.num_dims, set.num_dims + 1)
        }
    };
    let mut constraints = set.constraints.to_vec();
    constraints.push(AffineExpr::Dim(dim).plus(AffineExpr::Constant(-lower)));
    let mut eq = set.eq.to_vec();
    eq.push(false);
    let condition = ctx.intern_attr(AttrKind::IntegerSet(IntegerSet {
        num_dims,
        num_symbols: set.num_symbols,
        eq: eq.into(),
        constraints: constraints.into(),
    }));
    set_inherent_attr(ctx, ir, g, "condition", condition);
    ir.set_operands(g, &operands);
    Some(())
}

/// Rewrites the loop `lp` of the function `func` for its `windows` with
/// warm-up iterations (see the module doc); how many.
pub(super) fn rewrite(
    ctx: &mut Context,
    ir: &mut Ir,
    func: OpId,
    lp: OpId,
    windows: &[Window],
    d: &mut Directives,
) -> Option<i64> {
    let block = body(ir, lp)?;
    let (lower, upper) = bounds(ctx, ir, lp)?;
    let (lo, st) = (lower.as_constant()?, step(ctx, ir, lp));
    let warm = windows.iter().map(warm_up).max()?;
    let guards: Vec<OpId> = ir
        .block_ops(block)
        .filter(|&o| ctx.str(ir.op_name(o)) == "affine.if")
        .collect();
    // The registers start as zero, at the top of the function.
    let entry = ir.regions(func).next().and_then(|r| ir.entry_block(r))?;
    let first_op = ir.first_op(entry)?;
    let loc = ir.op_loc(lp);
    let mut inits = Vec::new();
    for w in windows {
        for o in w.carried() {
            let like = *w.loads_at(o).first()?;
            let ty = ir.value_type(ir.result(like, 0));
            let z = zero(ctx, ir, ty, loc);
            ir.insert_op_before(first_op, z);
            inits.push(ir.result(z, 0));
        }
    }
    let entering: Vec<FxHashMap<i64, ValueId>> = windows
        .iter()
        .map(|w| load_entering(ctx, ir, block, w))
        .collect::<Option<_>>()?;
    let new = add_registers(ctx, ir, lp, windows, &entering, &inits, false, d)?;
    set_bounds(ctx, ir, new, &Bound::constant(lo - warm * st), &upper, st);
    let iv = induction_var(ir, new)?;
    for g in guards {
        add_lower(ctx, ir, g, iv, lo)?;
    }
    Some(warm)
}
