//! Load reuse in the loops the directives unrolled. The copies of an
//! unrolled body read overlapping elements (a stencil's `A[i + 1]` of one
//! copy is the next copy's `A[i]`) and every read takes a memory port, so
//! the port bound would set the II. The affine layer's scalar replacement
//! (`affine-scalrep`) runs on each unrolled loop: a load of an element an
//! earlier load or store of the same iteration already has takes that
//! value, and a store overwritten later in the iteration with no read in
//! between is dropped. Its dependence checks are exact: nothing is reused
//! across an op that may write the element. The top's memref arguments
//! are distinct memories (one interface each, as the co-simulation's
//! software side has them too), so only accesses of the same array (or
//! an op of unknown effects) block reuse.

use silica_affine::scalrep::scalar_replace_under;
use silica_ir::{Context, Ir, OpId};

/// The loads and stores under `root`.
fn accesses(ctx: &Context, ir: &Ir, root: OpId) -> (usize, usize) {
    let (mut loads, mut stores) = (0, 0);
    ir.walk(root, &mut |o| match ctx.str(ir.op_name(o)) {
        "affine.load" | "memref.load" => loads += 1,
        "affine.store" | "memref.store" => stores += 1,
        _ => {}
    });
    (loads, stores)
}

/// Whether `op` is inside `outer` (or is it).
fn within(ir: &Ir, mut op: OpId, outer: OpId) -> bool {
    loop {
        if op == outer {
            return true;
        }
        match ir.parent_op(op) {
            Some(p) => op = p,
            None => return false,
        }
    }
}

/// Scalar replacement on each of `scopes` (once on the outermost of
/// nested ones); a note saying how many loads and stores it removed from
/// `func`, if any.
pub fn reuse(ctx: &mut Context, ir: &mut Ir, func: OpId, scopes: &[OpId]) -> Option<String> {
    let live: Vec<OpId> = scopes
        .iter()
        .copied()
        .filter(|&s| !ir.is_erased(s))
        .collect();
    let (loads, stores) = accesses(ctx, ir, func);
    for (i, &s) in live.iter().enumerate() {
        let nested = live
            .iter()
            .enumerate()
            .any(|(j, &o)| (o != s && within(ir, s, o)) || (o == s && j < i));
        if !nested {
            scalar_replace_under(ctx, ir, s, true);
        }
    }
    let (l, st) = accesses(ctx, ir, func);
    (l < loads || st < stores).then(|| {
        format!(
            "load reuse in the unrolled loops (affine-scalrep): {} of {loads} loads and {} of {stores} stores removed",
            loads - l,
            stores - st
        )
    })
}
