//! `interchange = true`: a loop swapped with the one loop its body holds
//! (the two perfectly nested, the inner one's bounds not over the outer
//! one's counter, neither carrying values), where the swap keeps every
//! dependence the two carry (`silica_affine::permute`). The nests of a
//! dataflow chain can then make and read an array in the same order:
//! 3mm's F and G nests, each interchanged, make and read F column by
//! column, so G runs beside F instead of after it.

use crate::model::directives::{Directives, Log};
use silica_affine::for_op::{body_ops, induction_var, is_for, is_perfectly_nested};
use silica_affine::loops::inits;
use silica_affine::permute::{is_valid_permutation, permute_loops};
use silica_ir::{Context, Ir, OpId};

/// Applies the `interchange` directives of `func`'s loops, in the
/// order the function holds them (an outer loop before the loops in it).
pub fn interchange(ctx: &mut Context, ir: &mut Ir, func: OpId, d: &Directives, log: &mut Log) {
    let mut order = Vec::new();
    ir.walk(func, &mut |o| order.push(o));
    for op in order {
        let Some(s) = d.loops.get(&op).and_then(|l| l.interchange.clone()) else {
            continue;
        };
        if !s.value || ir.is_erased(op) {
            continue;
        }
        let path = d.loop_paths.get(&op).cloned().unwrap_or_default();
        let directive = "interchange".to_string();
        match swap(ctx, ir, op) {
            Ok(inner) => {
                let inner = d.loop_paths.get(&inner).cloned().unwrap_or_default();
                log.honoured(&s, &path, directive, format!("swapped with {inner}"));
            }
            Err(why) => log.refused(&s, &path, directive, why.into()),
        }
    }
}

/// Swaps loop `op` with the one loop its body holds, that loop; or why
/// it cannot.
fn swap(ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<OpId, &'static str> {
    if !is_for(ctx, ir, op) {
        return Err("it is not an affine.for");
    }
    let inner: Vec<OpId> = (body_ops(ir, op).into_iter())
        .filter(|&o| is_for(ctx, ir, o))
        .collect();
    let &[inner] = &inner[..] else {
        return Err("its body is not one loop");
    };
    if !is_perfectly_nested(ir, &[op, inner]) {
        return Err("its body holds more than the loop inside it");
    }
    if !inits(ctx, ir, op).is_empty() || !inits(ctx, ir, inner).is_empty() {
        return Err("it or the loop inside it carries values (iter_args)");
    }
    let counter = induction_var(ir, op);
    if ir.operands(inner).any(|v| Some(v) == counter) {
        return Err("the bounds of the loop inside it vary with its counter");
    }
    if !is_valid_permutation(ctx, ir, &[op, inner], &[1, 0]) {
        return Err("it would break a dependence the two loops carry");
    }
    permute_loops(ir, &[op, inner], &[1, 0])
        .map(|_| inner)
        .ok_or("the affine layer could not swap them")
}
