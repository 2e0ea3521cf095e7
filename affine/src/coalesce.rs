//! `affine-loop-coalescing` for `affine.for` nests: MLIR's band search
//! (in each perfect nest, from its outermost loop, bands of loops whose bounds are
//! defined above the band, innermost bands first) and its affine
//! `coalesceLoops`: a band of normalized loops without iteration
//! arguments becomes one loop over the product of the trip counts, each
//! old induction variable rebuilt with `floordiv`/`mod` of the new one.
//! The second loop of a band may carry iteration arguments it yields
//! unchanged (they become their initial values, as in MLIR); bands whose
//! inner upper bounds are not affine symbols (mlir-opt-22 coalesces them
//! into invalid IR) are left alone. `scf.for` nests are in
//! [`crate::coalesce_scf`].

use crate::coalesce_scf::{coalesce_scf_nest, is_scf_for};
use crate::for_op::{
    body, body_ops, bounds, induction_var, is_for, perfect_nest, set_bounds, step, Bound,
};
use crate::loops::build::{create, create_apply, inits, iter_args, terminator};
use crate::scope::{affine_scope, is_valid_symbol_in};
use silica_ir::affine::{AffineExpr, AffineMap};
use silica_ir::pass::{Pass, PassInfo};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, RegionId, ValueId};

/// Whether every value is defined outside `region`.
fn defined_above(ir: &Ir, values: &[ValueId], region: RegionId) -> bool {
    values.iter().all(|&v| {
        let Some(block) = ir.value_block(v) else {
            return true;
        };
        let mut r = ir.block_region(block);
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

/// `(d0)[s0] -> (e)` applied to `(d, s)` before `at`.
fn apply_binary(
    ctx: &mut Context,
    ir: &mut Ir,
    e: AffineExpr,
    d: ValueId,
    s: ValueId,
    at: OpId,
) -> ValueId {
    let map = AffineMap {
        num_dims: 1,
        num_symbols: 1,
        results: Box::new([e]),
    };
    let op = create_apply(ctx, ir, map, &[d, s], ir.op_loc(at));
    ir.insert_op_before(at, op);
    ir.result(op, 0)
}

/// The value of an upper bound before `at`: an `affine.apply` of it, or
/// an `affine.min` when it has several results.
fn bound_value(ctx: &mut Context, ir: &mut Ir, ub: &Bound, at: OpId) -> ValueId {
    let loc = ir.op_loc(at);
    let op = if ub.map.results.len() == 1 {
        create_apply(ctx, ir, ub.map.clone(), &ub.operands, loc)
    } else {
        let index = ctx.index_type();
        let m = ctx.intern_attr(AttrKind::AffineMap(ub.map.clone()));
        create(
            ctx,
            ir,
            "affine.min",
            &ub.operands,
            &[index],
            vec![("map", m)],
            loc,
        )
    };
    ir.insert_op_before(at, op);
    ir.result(op, 0)
}

/// Coalesces the perfect nest `loops` (outermost first; MLIR's
/// `coalesceLoops`); returns whether it did.
pub fn coalesce_loops(ctx: &mut Context, ir: &mut Ir, loops: &[OpId]) -> bool {
    if loops.len() < 2 {
        return true;
    }
    let normalized = loops.iter().all(|&l| {
        step(ctx, ir, l) == 1
            && bounds(ctx, ir, l).is_some_and(|(lb, _)| lb.as_constant() == Some(0))
    });
    // Iteration arguments only on the second loop, yielded unchanged.
    let passes_through = |l: OpId| {
        let args = iter_args(ir, l);
        args.is_empty()
            || terminator(ir, l).is_some_and(|t| ir.operands(t).eq(args.iter().copied()))
    };
    let carried = loops
        .iter()
        .enumerate()
        .all(|(i, &l)| inits(ctx, ir, l).is_empty() || (i == 1 && passes_through(l)));
    if !normalized || !carried {
        return false;
    }
    let (outermost, innermost) = (loops[0], loops[loops.len() - 1]);
    let mut uppers = Vec::with_capacity(loops.len());
    for &l in loops {
        match bounds(ctx, ir, l) {
            Some((_, ub)) => uppers.push(ub),
            None => return false,
        }
    }
    // The inner upper bounds become symbols of the new bound and index
    // maps: a bound over an enclosing loop's induction variable would
    // make them invalid (mlir-opt-22 builds that invalid IR), so such a
    // band stays.
    let scope = affine_scope(ctx, ir, outermost);
    let symbolic = uppers[1..].iter().all(|ub| {
        ub.operands
            .iter()
            .all(|&v| is_valid_symbol_in(ctx, ir, v, scope))
    });
    if !symbolic {
        return false;
    }
    let Some(inner_body) = body(ir, innermost) else {
        return false;
    };
    let mut symbols = Vec::with_capacity(loops.len());
    let mut prev = bound_value(ctx, ir, &uppers[0], outermost);
    symbols.push(prev);
    for ub in &uppers[1..] {
        let v = bound_value(ctx, ir, ub, outermost);
        symbols.push(v);
        prev = apply_binary(
            ctx,
            ir,
            AffineExpr::Dim(0).times(AffineExpr::Symbol(0)),
            prev,
            v,
            outermost,
        );
    }
    let new_ub = Bound {
        map: AffineMap {
            num_dims: 0,
            num_symbols: 1,
            results: Box::new([AffineExpr::Symbol(0)]),
        },
        operands: vec![prev],
    };
    set_bounds(ctx, ir, outermost, &Bound::constant(0), &new_ub, 1);
    let second = loops[1];
    let Some(mut previous) = induction_var(ir, outermost) else {
        return false;
    };
    let inner_region = ir.regions(innermost).next();
    for idx in (1..=loops.len()).rev() {
        if idx != loops.len() {
            previous = apply_binary(
                ctx,
                ir,
                AffineExpr::Dim(0).floor_div(AffineExpr::Symbol(0)),
                previous,
                symbols[idx],
                second,
            );
        }
        let iv_value = if idx == 1 {
            previous
        } else {
            apply_binary(
                ctx,
                ir,
                AffineExpr::Dim(0).modulo(AffineExpr::Symbol(0)),
                previous,
                symbols[idx - 1],
                second,
            )
        };
        let Some(old_iv) = induction_var(ir, loops[idx - 1]) else {
            return false;
        };
        let uses: Vec<_> = ir
            .uses(old_iv)
            .filter(|&u| {
                let owner = ir.use_owner(u);
                inner_region.is_some_and(|r| ir.is_in_region(owner, r))
            })
            .collect();
        for u in uses {
            ir.set_use(u, iv_value);
        }
    }
    let mut ops: Vec<OpId> = ir.block_ops(inner_body).collect();
    if let Some(term) = ops.pop() {
        ir.erase_op(term);
    }
    for op in ops {
        ir.move_op_before(op, second);
    }
    let second_inits = inits(ctx, ir, second);
    for (a, &init) in iter_args(ir, second).into_iter().zip(&second_inits) {
        ir.replace_all_uses(a, init);
    }
    let results: Vec<ValueId> = ir.results(second).collect();
    for (r, &init) in results.into_iter().zip(&second_inits) {
        ir.replace_all_uses(r, init);
    }
    ir.erase_op(second);
    true
}

/// MLIR's band search over the perfect nest rooted at `root`.
fn coalesce_nest(ctx: &mut Context, ir: &mut Ir, root: OpId) {
    let loops = perfect_nest(ctx, ir, root);
    let n = loops.len();
    let mut defined_above_at = vec![0; n];
    for i in 0..n {
        defined_above_at[i] = i;
        let operands: Vec<ValueId> = ir.operands(loops[i]).collect();
        for (j, &outer) in loops.iter().enumerate().take(i) {
            let Some(region) = ir.regions(outer).next() else {
                continue;
            };
            if defined_above(ir, &operands, region) {
                defined_above_at[i] = j;
                break;
            }
        }
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
            if max > start {
                start += 1;
                continue;
            }
            coalesce_loops(ctx, ir, &loops[start..end]);
            break;
        }
        if start + 1 != end {
            end = start + 1;
        }
        end -= 1;
    }
}

struct LoopCoalescing;

impl Pass for LoopCoalescing {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut roots = Vec::new();
        ir.walk(op, &mut |o| {
            // Each perfect nest of `affine.for` once, from its outermost
            // loop; every `scf.for`, as MLIR visits them.
            let continues_nest = ir
                .parent_op(o)
                .is_some_and(|p| is_for(ctx, ir, p) && body_ops(ir, p) == [o]);
            if (is_for(ctx, ir, o) && !continues_nest) || is_scf_for(ctx, ir, o) {
                roots.push(o);
            }
        });
        for r in roots {
            if ir.is_erased(r) {
                continue;
            }
            if is_scf_for(ctx, ir, r) {
                coalesce_scf_nest(ctx, ir, r);
            } else {
                coalesce_nest(ctx, ir, r);
            }
        }
        Ok(())
    }
}

/// The `affine-loop-coalescing` pass.
pub static AFFINE_LOOP_COALESCING: PassInfo = PassInfo {
    argument: "affine-loop-coalescing",
    name: "LoopCoalescing",
    description: "Coalesce nested loops with independent bounds into a single loop",
    anchor: Some("func.func"),
    options: &[],
    create: |_| Ok(Box::new(LoopCoalescing)),
};
