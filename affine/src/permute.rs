//! Loop interchange of a perfect nest of `affine.for` loops (MLIR's
//! `permuteLoops`), its legality check (MLIR's
//! `isValidLoopInterchangePermutation`) and `test-loop-permutation`,
//! which permutes every perfect nest as deep as its `permutation-map`.
//!
//! The legality check reads the dependences between the nest's affine
//! accesses (pairs on one memref, one of them a write): a permutation is
//! valid when, for every dependence carried by a loop of the nest, the
//! first component that is not zero in the new loop order has a
//! positive lower bound. The components are those of
//! [`crate::tile_validity::dependence_distance`] (exact for uniform
//! dependences, otherwise ranging over their loops, which can only make
//! the answer more cautious than MLIR's polyhedral one). The
//! components are those of the nest's own loops: MLIR counts depths
//! and components from the outermost enclosing loop instead, so for a
//! nest below other loops it checks loops that are not permuted (and
//! can accept a permutation that reverses a dependence); there the two
//! may differ.

use crate::for_op;
use crate::tile_validity::{carried_lower_bounds, dependence_distance, dependence_pairs};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId};

/// Whether `perm` is a permutation of `0..perm.len()`.
pub fn is_permutation(perm: &[usize]) -> bool {
    let mut seen = vec![false; perm.len()];
    perm.iter()
        .all(|&p| p < seen.len() && !std::mem::replace(&mut seen[p], true))
}

/// Permutes the perfect nest `loops` (outermost first): loop `i` moves
/// to depth `perm[i]`. The loop ops themselves move (no copies); the
/// body of the innermost loop moves to the new innermost loop. Returns
/// the position in `loops` of the new outermost loop. `loops` must be
/// perfectly nested and `perm` a permutation of the same length
/// (otherwise nothing changes and `None` is returned).
pub fn permute_loops(ir: &mut Ir, loops: &[OpId], perm: &[usize]) -> Option<usize> {
    if loops.len() != perm.len() || !is_permutation(perm) || !for_op::is_perfectly_nested(ir, loops)
    {
        return None;
    }
    if loops.len() < 2 {
        return Some(0);
    }
    let n = loops.len();
    // order[d]: the loop at depth d after the permutation.
    let mut order = vec![0; n];
    for (i, &p) in perm.iter().enumerate() {
        order[p] = i;
    }
    let innermost = loops[n - 1];
    let new_innermost = loops[order[n - 1]];
    // Detach every loop from its parent, outermost kept in place by an
    // anchor: the new outermost takes the old one's position.
    let root = loops[0];
    let new_root = loops[order[0]];
    if new_root != root {
        ir.move_op_before(new_root, root);
    }
    // Body of the old innermost loop (without its terminator).
    let body = for_op::body_ops(ir, innermost);
    for depth in 1..n {
        let parent = loops[order[depth - 1]];
        let child = loops[order[depth]];
        let end = for_op::body(ir, parent).and_then(|b| ir.last_op(b))?;
        ir.move_op_before(child, end);
    }
    if new_innermost != innermost {
        let end = for_op::body(ir, new_innermost).and_then(|b| ir.last_op(b))?;
        for op in body {
            ir.move_op_before(op, end);
        }
    }
    Some(order[0])
}

/// Whether interchanging `loops` by `perm` keeps every dependence of the
/// nest (see the module documentation).
pub fn is_valid_permutation(
    ctx: &mut Context,
    ir: &mut Ir,
    loops: &[OpId],
    perm: &[usize],
) -> bool {
    let n = loops.len();
    if n <= 1 {
        return true;
    }
    if loops.iter().any(|&l| ir.num_results(l) > 0) {
        return false;
    }
    let mut order = vec![0; n];
    for (i, &p) in perm.iter().enumerate() {
        order[p] = i;
    }
    for (a, b) in dependence_pairs(ctx, ir, loops[0]) {
        let Some(distance) = dependence_distance(ctx, ir, &a, &b, loops) else {
            continue;
        };
        // A dependence carried at each depth d: the loops above equal,
        // loop d forward.
        for d in 0..n {
            let Some(lower) = carried_lower_bounds(&distance, d) else {
                continue;
            };
            for &k in &order {
                match lower[k] {
                    Some(lb) if lb > 0 => break,
                    Some(0) => continue,
                    _ => return false,
                }
            }
        }
    }
    true
}

/// The loops of the nest rooted at `op`, innermost first (post-order).
fn loops_post_order(ctx: &Context, ir: &Ir, op: OpId, out: &mut Vec<OpId>) {
    for r in ir.regions(op) {
        for b in ir.region_blocks(r) {
            for o in ir.block_ops(b) {
                loops_post_order(ctx, ir, o, out);
            }
        }
    }
    if for_op::is_for(ctx, ir, op) {
        out.push(op);
    }
}

/// The pass.
pub struct TestLoopPermutation {
    perm: Vec<usize>,
    check_validity: bool,
}

impl Pass for TestLoopPermutation {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut loops = Vec::new();
        loops_post_order(ctx, ir, op, &mut loops);
        for l in loops {
            let nest = for_op::perfect_nest(ctx, ir, l);
            if nest.len() < 2 || nest.len() != self.perm.len() {
                continue;
            }
            if self.check_validity && !is_valid_permutation(ctx, ir, &nest, &self.perm) {
                continue;
            }
            permute_loops(ir, &nest, &self.perm);
        }
        Ok(())
    }
}

fn create(options: &PassOptions) -> Result<Box<dyn Pass>, String> {
    let perm = options
        .list("permutation-map")
        .iter()
        .map(|s| {
            s.parse::<usize>().map_err(|_| {
                format!("for the --permutation-map option: '{s}' value invalid for uint argument!")
            })
        })
        .collect::<Result<Vec<usize>, String>>()?;
    if !is_permutation(&perm) {
        return Err(format!(
            "test-loop-permutation: invalid permutation map '{}'",
            options.list("permutation-map").join(",")
        ));
    }
    Ok(Box::new(TestLoopPermutation {
        perm,
        check_validity: options.bool("check-validity"),
    }))
}

/// The `test-loop-permutation` pass.
pub static TEST_LOOP_PERMUTATION: PassInfo = PassInfo {
    argument: "test-loop-permutation",
    name: "TestLoopPermutation",
    description: "Tests affine loop permutation utility",
    anchor: None,
    options: &[
        PassOptionInfo {
            name: "check-validity",
            description: "Check validity of the loop permutation",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "permutation-map",
            description: "Specify the loop permutation",
            kind: OptionKind::List,
            default: "",
        },
    ],
    create,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_are_recognized() {
        assert!(is_permutation(&[2, 0, 1]));
        assert!(!is_permutation(&[0, 0, 1]));
        assert!(!is_permutation(&[0, 3]));
    }

    use crate::tile_validity::Distance;

    #[test]
    fn a_uniform_forward_dependence_is_carried_at_its_first_nonzero_depth() {
        let d = [Distance::Exact(0), Distance::Exact(1)];
        assert_eq!(carried_lower_bounds(&d, 0), None);
        assert_eq!(carried_lower_bounds(&d, 1), Some(vec![Some(0), Some(1)]));
    }

    #[test]
    fn free_components_range_over_the_trip_count() {
        let d = [Distance::Exact(1), Distance::Free(Some(10))];
        assert_eq!(carried_lower_bounds(&d, 0), Some(vec![Some(1), Some(-9)]));
    }
}
