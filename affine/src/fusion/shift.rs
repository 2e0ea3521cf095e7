//! Shifted fusion of two sibling `affine.for` loops (loop shifting, then
//! fusion): the second loop's iteration `j` runs in the fused loop's
//! iteration `j + s`, after the first loop's iteration of that number,
//! so that a consumer may read what the producer wrote up to `s`
//! iterations later (a stencil's `B[i - 1..=i + 1]` of a `B[i]` written
//! by the loop before it needs `s = 1`). Both loops have constant bounds,
//! the same step and no `iter_args`; the fused loop runs the union of
//! both (shifted) iteration ranges, each body under an `affine.if` on the
//! fused counter that holds in its range (and always bounds it below),
//! so the nest around them stays perfect.
//!
//! Legality comes from the dependence analysis ([`crate::dependence`]):
//! for every pair of accesses to one memref (at least one a write), the
//! first in the first loop, the second in the second, the loop-independent
//! dependence system (same iterations of every enclosing loop, the same
//! element) with the first access's iteration `i` later than `j + s` in
//! the fused order must be empty. `s` is the smallest such shift (at
//! most the first loop's trip count less one, which always holds); an
//! access the analysis cannot read (not an affine access, or in a
//! non-affine domain) or an op with unknown memory effects (a call, a
//! `memref` access) in either loop means no fusion. Each loop's own
//! iterations and everything around them keep their order, so only the
//! pairs across the two loops need the test. A large shift leaves little
//! overlap, and the fused body shares the memory ports of both: whether
//! fusing pays is the caller's question.

use crate::dependence::{accesses_of, dependence_system, num_common_loops, MemoryAccess};
use crate::for_op::{body, body_ops, bounds, induction_var, set_bounds, step, Bound};
use crate::loops::build::shift_map;
use crate::loops::{create, create_apply, create_op, iter_args, NewOp};
use crate::presburger::Int;
use silica_ir::affine::{AffineExpr, IntegerSet};
use silica_ir::{AttrKind, Context, Ir, OpId};

/// A fusion made: the shift of the second loop, in iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fused {
    pub shift: i64,
}

/// `(lower, trip count, step)` of a loop with constant bounds.
fn constant_range(ctx: &Context, ir: &Ir, lp: OpId) -> Result<(i64, i64, i64), String> {
    let (lo, hi) = bounds(ctx, ir, lp).ok_or("its bounds cannot be read")?;
    let (Some(lo), Some(hi)) = (lo.as_constant(), hi.as_constant()) else {
        return Err("its bounds are not constants".into());
    };
    let st = step(ctx, ir, lp);
    if st < 1 || hi <= lo {
        return Err("it runs no iteration".into());
    }
    Ok((lo, (hi - lo + st - 1) / st, st))
}

/// The memory accesses under `lp`, or why some cannot be analysed.
fn accesses(ctx: &Context, ir: &Ir, lp: OpId) -> Result<Vec<MemoryAccess>, String> {
    let mut ops = Vec::new();
    let mut unknown = None;
    ir.walk(lp, &mut |op| {
        let name = ctx.str(ir.op_name(op));
        match name {
            "affine.load" | "affine.store" => ops.push(op),
            "affine.for" | "affine.if" | "affine.yield" | "affine.apply" | "affine.min"
            | "affine.max" => {}
            _ if name.starts_with("arith.") || name.starts_with("math.") => {}
            _ => {
                unknown.get_or_insert_with(|| name.to_string());
            }
        }
    });
    if let Some(name) = unknown {
        return Err(format!("'{name}' in it is not analysed"));
    }
    let mut out = Vec::new();
    for op in ops {
        out.extend(
            accesses_of(ctx, ir, op).map_err(|_| "an access in it is not affine".to_string())?,
        );
    }
    Ok(out)
}

/// Whether some access of `second` would run before a dependent access
/// of `first` with `second` shifted by `shift` iterations.
fn reordered(
    ctx: &Context,
    ir: &Ir,
    (first, second): (&[MemoryAccess], &[MemoryAccess]),
    (lo1, lo2, st): (i64, i64, i64),
    shift: i64,
) -> Result<bool, String> {
    for a in first {
        for b in second {
            let depth = num_common_loops(a, b) + 1;
            let Some(mut p) = dependence_system(ctx, ir, a, b, depth, false)
                .map_err(|_| "two accesses cannot be related".to_string())?
            else {
                continue;
            };
            // i - lo1 >= (j - lo2) + (shift + 1) * st: the first loop's
            // iteration after the shifted second loop's.
            let (ci, cj) = (p.src_cols[depth - 1], p.dst_cols[depth - 1]);
            let width = p.system.num_cols();
            let mut row = vec![Int::ZERO; width];
            row[ci] = Int::ONE;
            row[cj] = Int::from(-1);
            row[width - 1] = Int::from(lo2 - lo1 - (shift + 1) * st);
            p.system.add_inequality_int(row);
            if !p.system.is_empty() {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// A detached `affine.if` on `iv` without results or else branch whose
/// condition is `constraints` (each `>= 0`, over `d0`), and its block.
fn guard(
    ctx: &mut Context,
    ir: &mut Ir,
    iv: silica_ir::ValueId,
    constraints: Vec<AffineExpr>,
    loc: silica_ir::Attr,
) -> (OpId, silica_ir::BlockId) {
    let set = IntegerSet {
        num_dims: 1,
        num_symbols: 0,
        eq: vec![false; constraints.len()].into(),
        constraints: constraints.into(),
    };
    let then_region = ir.create_region();
    let block = ir.create_block();
    ir.append_block(then_region, block);
    let else_region = ir.create_region();
    let condition = ctx.intern_attr(AttrKind::IntegerSet(set));
    let op = create_op(
        ctx,
        ir,
        NewOp {
            name: "affine.if",
            operands: &[iv],
            result_types: &[],
            regions: &[then_region, else_region],
            props: vec![("condition", condition)],
            loc,
        },
    );
    let y = create(ctx, ir, "affine.yield", &[], &[], vec![], loc);
    ir.append_op(block, y);
    (op, block)
}

/// The fused iterations `[from, to)` (fused counter values `lo + k * st`)
/// where a body runs, as constraints on `d0`: the lower one always (a
/// body is always guarded, so that a later rewrite may run iterations
/// before the first, as carrying with warm-up iterations does), the
/// upper one where the range ends before the fused loop's.
fn range_constraints(lo: i64, st: i64, (from, to): (i64, i64), n: i64) -> Vec<AffineExpr> {
    let d0 = || AffineExpr::Dim(0);
    let mut c = vec![d0().plus(AffineExpr::Constant(-(lo + from * st)))];
    if to < n {
        c.push(AffineExpr::Constant(lo + (to - 1) * st).minus(d0()));
    }
    c
}

/// Moves the body of `lp` (its terminator left) to the end of the body
/// of `into`, under a guard of `constraints`.
fn move_body(
    ctx: &mut Context,
    ir: &mut Ir,
    lp: OpId,
    into: OpId,
    constraints: Vec<AffineExpr>,
) -> Option<()> {
    let dest_body = body(ir, into)?;
    let term = ir.block_ops(dest_body).last()?;
    let iv = induction_var(ir, into)?;
    let (g, block) = guard(ctx, ir, iv, constraints, ir.op_loc(lp));
    ir.insert_op_before(term, g);
    let yield_op = ir.block_ops(block).last()?;
    for op in body_ops(ir, lp) {
        ir.move_op_before(op, yield_op);
    }
    Some(())
}

/// Fuses `second` into `first` (two `affine.for` loops of one block,
/// `first` before `second` with nothing between them) with the smallest
/// legal shift, or says why not. `first` becomes the fused loop and
/// `second` is erased.
pub fn fuse_shifted(
    ctx: &mut Context,
    ir: &mut Ir,
    first: OpId,
    second: OpId,
) -> Result<Fused, String> {
    if ir.op_block(first) != ir.op_block(second) || ir.next_op(first) != Some(second) {
        return Err("the loops are not adjacent siblings".into());
    }
    for lp in [first, second] {
        if !iter_args(ir, lp).is_empty() {
            return Err("a loop carries values (iter_args)".into());
        }
    }
    let (lo1, n1, st) = constant_range(ctx, ir, first)?;
    let (lo2, n2, st2) = constant_range(ctx, ir, second)?;
    if st != st2 {
        return Err(format!("their steps differ ({st} and {st2})"));
    }
    let a = accesses(ctx, ir, first)?;
    let b = accesses(ctx, ir, second)?;
    // `n1 - 1` is always legal (the second loop starts with the first's
    // last iteration, after it in the fused body).
    let mut shift = 0;
    while shift < n1 - 1 && reordered(ctx, ir, (&a, &b), (lo1, lo2, st), shift)? {
        shift += 1;
    }
    let n = n1.max(n2 + shift);
    // The second body's counter: j = k + (lo2 - lo1 - shift * st).
    let (Some(k), Some(j)) = (induction_var(ir, first), induction_var(ir, second)) else {
        return Err("a loop has no induction variable".into());
    };
    let offset = lo2 - lo1 - shift * st;
    if offset == 0 {
        ir.replace_all_uses(j, k);
    } else {
        let apply = create_apply(ctx, ir, shift_map(offset), &[k], ir.op_loc(second));
        let second_body = body(ir, second).ok_or("a loop has no body")?;
        match ir.first_op(second_body) {
            Some(top) => ir.insert_op_before(top, apply),
            None => ir.append_op(second_body, apply),
        }
        let shifted = ir.result(apply, 0);
        ir.replace_all_uses(j, shifted);
    }
    let fail = || "the fused body could not be built".to_string();
    // The first body's guard, then the second's, in one body.
    let first_body = body(ir, first).ok_or_else(fail)?;
    let term = ir.block_ops(first_body).last().ok_or_else(fail)?;
    let first_guard = range_constraints(lo1, st, (0, n1), n);
    let (g, block) = guard(ctx, ir, k, first_guard, ir.op_loc(first));
    let yield_op = ir.block_ops(block).last().ok_or_else(fail)?;
    for op in body_ops(ir, first) {
        ir.move_op_before(op, yield_op);
    }
    ir.insert_op_before(term, g);
    let second_guard = range_constraints(lo1, st, (shift, shift + n2), n);
    move_body(ctx, ir, second, first, second_guard).ok_or_else(fail)?;
    ir.erase_op(second);
    set_bounds(
        ctx,
        ir,
        first,
        &Bound::constant(lo1),
        &Bound::constant(lo1 + n * st),
        st,
    );
    Ok(Fused { shift })
}
