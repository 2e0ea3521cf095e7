//! Redundant loads and stores of the top function. The affine layer's
//! scalar replacement (`affine-scalrep`) runs on the whole body, every
//! loop included: a load of an element an earlier load or store of the
//! same iteration already has takes that value, and a store overwritten
//! later in the iteration with no read in between is dropped. In a loop
//! body that repeats a load (floyd-warshall's `path[i][k]` read by the
//! comparison and again by the sum) the copies become one load and the
//! operators on the same operands one operator; in the copies of a body
//! the directives unrolled, the elements the copies both read (a
//! stencil's `A[i + 1]` of one copy is the next copy's `A[i]`) are
//! loaded once, so the port bound does not set the II. It runs after
//! unrolling and before fusion, hoisting, promotion and carrying, which
//! then see one load per element and iteration. Its dependence checks
//! are exact: nothing is reused across an op that may write the element.
//! The top's memref arguments are distinct memories (one interface
//! each, as the co-simulation's software side has them too), so only
//! accesses of the same array (or an op of unknown effects) block reuse.
//! Operations the merged loads now feed twice (floyd-warshall's two
//! additions of `path[i][k] + path[k][j]`) stay two nodes on the same
//! operands: one circuit once yosys merges them, and counted once by
//! the estimate (`estimate/mod.rs`).

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

/// Scalar replacement on the top function `func`; a note saying how
/// many loads and stores it removed, if any.
pub fn reuse(ctx: &mut Context, ir: &mut Ir, func: OpId) -> Option<String> {
    let (loads, stores) = accesses(ctx, ir, func);
    scalar_replace_under(ctx, ir, func, true);
    let (l, st) = accesses(ctx, ir, func);
    (l < loads || st < stores).then(|| {
        format!(
            "redundant loads and stores (affine-scalrep): {} of {loads} loads and {} of {stores} stores removed",
            loads - l,
            stores - st
        )
    })
}
