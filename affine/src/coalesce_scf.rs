//! `affine-loop-coalescing` for `scf.for` nests (MLIR's
//! `coalescePerfectlyNestedSCFForLoops` and `coalesceLoops`): in each
//! perfect nest of `scf.for` loops over `index`, bands whose bounds are
//! defined above the band and whose iteration arguments are chained
//! (each inner loop starts from the outer one's arguments and the outer
//! one yields the inner one's results) are, innermost bands first,
//! normalized (from 0 to `(ub - lb) ceildiv step` by 1, the original
//! induction variable rebuilt as `iv * step + lb`) and merged into the
//! outermost loop, which runs over the product of the trip counts; an
//! `affine.delinearize_index` of its induction variable gives each
//! loop's. Bounds and products are `affine.apply` ops composed with their
//! producers and folded to constants where they are constant.

use crate::canonicalize::compose_map;
use crate::loops::build::{create, create_apply, create_index_constant};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::types::DYNAMIC;
use silica_ir::{BlockId, Context, Ir, OpId, RegionId, TypeKind, ValueId};

const FOR: &str = "scf.for";

/// Whether `op` is an `scf.for`.
pub fn is_scf_for(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    ctx.str(ir.op_name(op)) == FOR
}

fn body(ir: &Ir, op: OpId) -> Option<BlockId> {
    ir.regions(op).next().and_then(|r| ir.entry_block(r))
}

fn region(ir: &Ir, op: OpId) -> Option<RegionId> {
    ir.regions(op).next()
}

fn iv(ir: &Ir, op: OpId) -> Option<ValueId> {
    body(ir, op).and_then(|b| ir.block_args(b).first().copied())
}

fn iter_args(ir: &Ir, op: OpId) -> Vec<ValueId> {
    body(ir, op).map_or_else(Vec::new, |b| {
        ir.block_args(b).get(1..).unwrap_or(&[]).to_vec()
    })
}

fn inits(ir: &Ir, op: OpId) -> Vec<ValueId> {
    ir.operands(op).skip(3).collect()
}

fn terminator(ir: &Ir, op: OpId) -> Option<OpId> {
    body(ir, op).and_then(|b| ir.last_op(b))
}

/// MLIR's `getPerfectlyNestedLoops` for `scf.for`: `root` and the loops
/// below it while a body is one `scf.for` and the terminator.
fn perfect_nest(ctx: &Context, ir: &Ir, root: OpId) -> Vec<OpId> {
    let mut nest = vec![root];
    let mut at = root;
    while let Some(b) = body(ir, at) {
        let ops: Vec<OpId> = ir.block_ops(b).collect();
        match ops[..] {
            [inner, _] if is_scf_for(ctx, ir, inner) => {
                nest.push(inner);
                at = inner;
            }
            _ => break,
        }
    }
    nest
}

/// Whether every value is defined outside `region`.
fn defined_above(ir: &Ir, values: &[ValueId], region: RegionId) -> bool {
    values.iter().all(|&v| {
        let mut r = ir.value_block(v).and_then(|b| ir.block_region(b));
        while let Some(cur) = r {
            if cur == region {
                return false;
            }
            r = ir
                .region_op(cur)
                .and_then(|o| ir.op_block(o))
                .and_then(|b| ir.block_region(b));
        }
        true
    })
}

/// A folded value: a constant or an SSA value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Folded {
    Constant(i64),
    Value(ValueId),
}

/// MLIR's `makeComposedFoldedAffineApply`: `map` (one result) composed
/// with the `affine.apply` producers of `operands` and canonicalized; a
/// constant, an operand itself, or a new `affine.apply` before `at`.
fn folded_apply(
    ctx: &mut Context,
    ir: &mut Ir,
    map: &AffineMap,
    operands: &[ValueId],
    at: Placement,
) -> Folded {
    let (map, operands) = compose_map(ctx, ir, map, operands);
    match map.results.first() {
        Some(AffineExpr::Constant(c)) => return Folded::Constant(*c),
        Some(AffineExpr::Dim(d)) => return Folded::Value(operands[*d as usize]),
        Some(AffineExpr::Symbol(s)) => {
            return Folded::Value(operands[map.num_dims as usize + *s as usize])
        }
        _ => {}
    }
    let loc = at.loc(ir);
    let op = create_apply(ctx, ir, map, &operands, loc);
    at.insert(ir, op);
    Folded::Value(ir.result(op, 0))
}

/// Where new ops go: before an op, or at the start of a block.
#[derive(Clone, Copy)]
enum Placement {
    Before(OpId, silica_ir::Attr),
    Start(BlockId, silica_ir::Attr),
}

impl Placement {
    fn loc(&self, _ir: &Ir) -> silica_ir::Attr {
        match *self {
            Placement::Before(_, l) | Placement::Start(_, l) => l,
        }
    }

    fn insert(&self, ir: &mut Ir, op: OpId) {
        match *self {
            Placement::Before(at, _) => ir.insert_op_before(at, op),
            Placement::Start(b, _) => match ir.first_op(b) {
                Some(first) => ir.insert_op_before(first, op),
                None => ir.append_op(b, op),
            },
        }
    }
}

/// The value of `f`, an index constant created at `at` when constant.
fn materialize(ctx: &mut Context, ir: &mut Ir, f: Folded, at: Placement) -> ValueId {
    match f {
        Folded::Value(v) => v,
        Folded::Constant(c) => {
            let op = create_index_constant(ctx, ir, c, at.loc(ir));
            at.insert(ir, op);
            ir.result(op, 0)
        }
    }
}

/// Replaces the uses of `from` by `to`, except in `keep`.
fn replace_uses_except(ir: &mut Ir, from: ValueId, to: ValueId, keep: Option<OpId>) {
    let uses: Vec<_> = ir
        .uses(from)
        .filter(|&u| Some(ir.use_owner(u)) != keep)
        .collect();
    for u in uses {
        ir.set_use(u, to);
    }
}

fn symbols_map(n: u32, e: AffineExpr) -> AffineMap {
    AffineMap {
        num_dims: 0,
        num_symbols: n,
        results: Box::new([e]),
    }
}

/// Coalesces the perfect `scf.for` nest `loops` (outermost first);
/// returns whether it did. Loops over other types than `index` are left
/// alone.
fn coalesce(ctx: &mut Context, ir: &mut Ir, loops: &[OpId]) -> bool {
    if loops.len() < 2 {
        return false;
    }
    let over_index = loops.iter().all(|&l| {
        ir.operands(l)
            .take(3)
            .all(|v| matches!(ctx.type_kind(ir.value_type(v)), TypeKind::Index))
    });
    let (outermost, innermost) = (loops[0], loops[loops.len() - 1]);
    let (Some(inner_body), Some(outer_iv), true) =
        (body(ir, innermost), iv(ir, outermost), over_index)
    else {
        return false;
    };
    let before = Placement::Before(outermost, ir.op_loc(outermost));
    // 1. Every loop from 0 to its trip count by 1.
    let (s0, s1, s2) = (
        AffineExpr::Symbol(0),
        AffineExpr::Symbol(1),
        AffineExpr::Symbol(2),
    );
    let trip = symbols_map(3, s1.minus(s0.clone()).ceil_div(s2.clone()));
    let denormalize = AffineMap {
        num_dims: 1,
        num_symbols: 2,
        results: Box::new([AffineExpr::Dim(0).times(AffineExpr::Symbol(1)).plus(s0)]),
    };
    let mut uppers = Vec::with_capacity(loops.len());
    for &l in loops {
        let (lb, ub, step) = (ir.operand(l, 0), ir.operand(l, 1), ir.operand(l, 2));
        let count = folded_apply(ctx, ir, &trip, &[lb, ub, step], before);
        let zero = materialize(ctx, ir, Folded::Constant(0), before);
        let count = materialize(ctx, ir, count, before);
        let one = materialize(ctx, ir, Folded::Constant(1), before);
        ir.set_operand(l, 0, zero);
        ir.set_operand(l, 1, count);
        ir.set_operand(l, 2, one);
        uppers.push(count);
        let Some(v) = iv(ir, l) else {
            return false;
        };
        let start = Placement::Start(inner_body, ir.op_loc(l));
        if let Folded::Value(d) = folded_apply(ctx, ir, &denormalize, &[v, lb, step], start) {
            if d != v {
                replace_uses_except(ir, v, d, ir.defining_op(d));
            }
        }
    }
    // 2. The outermost loop runs over the product of the trip counts.
    let product = (1..uppers.len() as u32).fold(AffineExpr::Symbol(0), |acc, i| {
        acc.times(AffineExpr::Symbol(i))
    });
    let product = symbols_map(uppers.len() as u32, product);
    let total = folded_apply(ctx, ir, &product, &uppers, before);
    let total = materialize(ctx, ir, total, before);
    ir.set_operand(outermost, 1, total);
    // 3. Each loop's induction variable from the outermost one.
    let mut statics = Vec::with_capacity(uppers.len());
    let mut operands = vec![outer_iv];
    for &u in &uppers {
        match silica_ir::rewrite::fold::constant_i64(ctx, ir, u) {
            Some(c) => statics.push(c),
            None => {
                statics.push(DYNAMIC);
                operands.push(u);
            }
        }
    }
    let basis = ctx.int_array_attr(64, &statics);
    let index = ctx.index_type();
    let types = vec![index; loops.len()];
    let delinearize = create(
        ctx,
        ir,
        "affine.delinearize_index",
        &operands,
        &types,
        vec![("static_basis", basis)],
        ir.op_loc(outermost),
    );
    Placement::Start(inner_body, ir.op_loc(outermost)).insert(ir, delinearize);
    let ivs: Vec<ValueId> = ir.results(delinearize).collect();
    replace_uses_except(ir, outer_iv, ivs[0], Some(delinearize));
    // 4. Each inner body inlined into its parent's.
    for i in (1..loops.len()).rev() {
        let (outer, inner) = (loops[i - 1], loops[i]);
        let (Some(term), Some(inner_iv)) = (terminator(ir, inner), iv(ir, inner)) else {
            return false;
        };
        let inner_args = iter_args(ir, inner);
        let inner_inits = inits(ir, inner);
        let yielded: Vec<ValueId> = ir
            .operands(term)
            .map(|v| match inner_args.iter().position(|&a| a == v) {
                Some(k) => inner_inits[k],
                None => v,
            })
            .collect();
        ir.erase_op(term);
        ir.replace_all_uses(inner_iv, ivs[i]);
        for (&a, &o) in inner_args.iter().zip(&iter_args(ir, outer)) {
            ir.replace_all_uses(a, o);
        }
        let Some(b) = body(ir, inner) else {
            return false;
        };
        let ops: Vec<OpId> = ir.block_ops(b).collect();
        for op in ops {
            ir.move_op_before(op, inner);
        }
        let results: Vec<ValueId> = ir.results(inner).collect();
        for (r, y) in results.into_iter().zip(yielded) {
            ir.replace_all_uses(r, y);
        }
        ir.erase_op(inner);
    }
    true
}

/// MLIR's band search over the perfect `scf.for` nest rooted at `root`.
pub fn coalesce_scf_nest(ctx: &mut Context, ir: &mut Ir, root: OpId) {
    let loops = perfect_nest(ctx, ir, root);
    let n = loops.len();
    let mut defined_above_at = vec![0; n];
    for i in 0..n {
        defined_above_at[i] = i;
        let bounds: Vec<ValueId> = ir.operands(loops[i]).take(3).collect();
        for (j, &outer) in loops.iter().enumerate().take(i) {
            if region(ir, outer).is_some_and(|r| defined_above(ir, &bounds, r)) {
                defined_above_at[i] = j;
                break;
            }
        }
    }
    let mut chain_start = vec![0; n];
    for i in 1..n {
        chain_start[i] = i;
        let (outer, inner) = (loops[i - 1], loops[i]);
        let outer_args = iter_args(ir, outer);
        if outer_args.len() != iter_args(ir, inner).len() || outer_args != inits(ir, inner) {
            continue;
        }
        let yields: Vec<ValueId> = terminator(ir, outer)
            .map(|t| ir.operands(t).collect())
            .unwrap_or_default();
        if yields != ir.results(inner).collect::<Vec<_>>() {
            continue;
        }
        chain_start[i] = chain_start[i - 1];
    }
    let mut end = n;
    while end > 0 {
        let mut start = 0;
        while start + 1 < end {
            let max = defined_above_at[start..end]
                .iter()
                .copied()
                .max()
                .unwrap_or(0);
            if max > start || chain_start[end - 1] > start {
                start += 1;
                continue;
            }
            coalesce(ctx, ir, &loops[start..end]);
            break;
        }
        if start + 1 != end {
            end = start + 1;
        }
        end -= 1;
    }
}
