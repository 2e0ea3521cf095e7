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
//! additions of `path[i][k] + path[k][j]`) are then merged too: the
//! CSE walk of `silica_ir::transforms::merge_equivalent_ops` makes an
//! operation computing what a dominating one computes use that one's
//! result (and repeated `memref.load`s of a block with no write between
//! them one load). It erases no operation that was unused before: the
//! front end's diagnostics at such an operation (an unsupported memory
//! space of an unused `memref.alloc`) still fire.

use silica_affine::scalrep::scalar_replace_under;
use silica_ir::transforms::merge_equivalent_ops;
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

/// Scalar replacement, then the merging of equivalent operations, on
/// the top function `func`; notes saying what each removed, if anything.
pub fn reuse(ctx: &mut Context, ir: &mut Ir, func: OpId) -> Vec<String> {
    let mut notes = Vec::new();
    let (loads, stores) = accesses(ctx, ir, func);
    scalar_replace_under(ctx, ir, func, true);
    let (l, st) = accesses(ctx, ir, func);
    if l < loads || st < stores {
        notes.push(format!(
            "redundant loads and stores (affine-scalrep): {} of {loads} loads and {} of {stores} stores removed",
            loads - l,
            stores - st
        ));
    }
    let merged = merge_equivalent_ops(ctx, ir, func);
    if merged > 0 {
        notes.push(format!(
            "equivalent operations merged (cse, unused operations kept): {merged}"
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use crate::test_support::context;
    use silica_ir::parser::{parse, ParseOptions};

    #[test]
    fn merges_equal_operations_and_keeps_unused_ones() {
        let mut ctx = context();
        let text = "func.func @f(%a: memref<4xi32>, %x: i32, %y: i32) {\n\
            %unused = memref.alloc() : memref<4xi32, 2>\n\
            %dead = arith.muli %x, %y : i32\n\
            %s = arith.addi %x, %y : i32\n\
            %t = arith.addi %y, %x : i32\n\
            %u = arith.addi %s, %t : i32\n\
            affine.store %u, %a[0] : memref<4xi32>\n\
            return\n}\n";
        let mut m = parse(&mut ctx, "t.mlir", text.as_bytes(), ParseOptions::default())
            .unwrap_or_else(|d| panic!("{}", d.message));
        let func = crate::flow::front::find_top(&ctx, &m.ir, m.top, "f").unwrap();
        let notes = super::reuse(&mut ctx, &mut m.ir, func);
        assert_eq!(
            notes,
            ["equivalent operations merged (cse, unused operations kept): 1"]
        );
        let mut names = Vec::new();
        m.ir.walk(func, &mut |o| {
            names.push(ctx.str(m.ir.op_name(o)).to_string())
        });
        let count = |n: &str| names.iter().filter(|x| *x == n).count();
        assert_eq!(count("memref.alloc"), 1, "{names:?}");
        assert_eq!(count("arith.muli"), 1, "{names:?}");
        assert_eq!(count("arith.addi"), 2, "{names:?}");
    }
}
