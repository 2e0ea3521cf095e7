//! `test-loop-fusion`, as mlir-opt's test pass of that name: the
//! `affine.for` ops of a function, grouped by nesting depth, are tried
//! pairwise (each as source against each other one of the same depth)
//! with the generic fusion strategy at every depth from one below theirs
//! to the function's deepest nest:
//! - `test-loop-fusion-dependence-check`: a remark on the source where
//!   no place in the block keeps the dependences of the ops between them;
//! - `test-loop-fusion-slice-computation`: a remark on the destination
//!   with the slice (insertion point and bounds), valid or not;
//! - `test-loop-fusion-utilities`: the first legal fusion is made (the
//!   source erased, as the test pass does without checking that this is
//!   safe), until none is left.

use super::slice::{can_fuse_loops, enclosing_fors, FusionFailure, Slice, Strategy};
use super::transform::fuse_loops;
use silica_ir::affine::{print_map, AffineExpr, AffineMap};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId, Severity};

/// The `affine.for` ops of the function, by depth (MLIR's `gatherLoops`):
/// the loops of each block of the body, then of their bodies.
fn loops_by_depth(ctx: &Context, ir: &Ir, func: OpId) -> Vec<Vec<OpId>> {
    fn gather(
        ctx: &Context,
        ir: &Ir,
        block: silica_ir::BlockId,
        depth: usize,
        out: &mut Vec<Vec<OpId>>,
    ) {
        if out.len() == depth {
            out.push(Vec::new());
        }
        for op in ir.block_ops(block).collect::<Vec<_>>() {
            if crate::for_op::is_for(ctx, ir, op) {
                out[depth].push(op);
                if let Some(body) = crate::for_op::body(ir, op) {
                    gather(ctx, ir, body, depth + 1, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for region in ir.regions(func).collect::<Vec<_>>() {
        for block in ir.region_blocks(region).collect::<Vec<_>>() {
            gather(ctx, ir, block, 0, &mut out);
        }
    }
    if out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

fn remark(ctx: &mut Context, ir: &Ir, op: OpId, message: String) {
    ctx.emit(Diagnostic {
        severity: Severity::Remark,
        loc: ir.op_loc(op),
        message,
        notes: Vec::new(),
    });
}

/// A bound as MLIR prints it; a bound the slice leaves open is the
/// sliced loop's constant bound when it has one.
fn bound_text(ctx: &Context, ir: &Ir, slice: &Slice, i: usize, lower: bool) -> String {
    let given = if lower { &slice.lbs[i] } else { &slice.ubs[i] };
    let map = given.clone().or_else(|| {
        let lp = crate::presburger::loop_of_iv(ctx, ir, slice.ivs[i])?;
        let (l, u) = crate::for_op::bounds(ctx, ir, lp)?;
        let c = if lower {
            l.as_constant()
        } else {
            u.as_constant()
        }?;
        let shape = slice.lbs.iter().chain(&slice.ubs).flatten().next()?;
        Some(AffineMap {
            num_dims: shape.num_dims,
            num_symbols: shape.num_symbols,
            results: Box::new([AffineExpr::Constant(c)]),
        })
    });
    let mut s = String::new();
    match map {
        Some(m) => print_map(&mut s, &m),
        None => s.push_str("<<NULL AFFINE MAP>>"),
    }
    s
}

/// MLIR's `getSliceStr`: `insert point: (depth, index in block)` and the
/// bounds of each sliced loop.
fn slice_text(ctx: &Context, ir: &Ir, slice: &Slice) -> String {
    let depth = enclosing_fors(ctx, ir, slice.insert_loop).len() + 1;
    let index = match crate::for_op::body(ir, slice.insert_loop) {
        Some(body) if !slice.at_start => ir.block_ops(body).count().saturating_sub(1),
        _ => 0,
    };
    let mut s = format!("insert point: ({depth}, {index}) loop bounds: ");
    for i in 0..slice.ivs.len() {
        s.push_str(&format!(
            "[{}, {}] ",
            bound_text(ctx, ir, slice, i, true),
            bound_text(ctx, ir, slice, i, false)
        ));
    }
    s
}

/// What the pass tests.
#[derive(Clone, Copy)]
struct TestLoopFusion {
    dependence_check: bool,
    slice_computation: bool,
    utilities: bool,
}

impl TestLoopFusion {
    /// One fusion of the first legal pair; whether one was made.
    fn fuse_one(ctx: &mut Context, ir: &mut Ir, by_depth: &[Vec<OpId>]) -> bool {
        let max_depth = by_depth.len();
        for (loop_depth, loops) in by_depth.iter().enumerate() {
            for &src in loops {
                for &dst in loops {
                    if src == dst {
                        continue;
                    }
                    for d in loop_depth + 1..=max_depth {
                        if let Ok(slice) = can_fuse_loops(ctx, ir, src, dst, d, Strategy::Generic) {
                            fuse_loops(ctx, ir, src, &slice);
                            ir.erase_op(src);
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// The remarks of one test over every pair: block-level dependences
    /// (on the source) or slices (on the destination).
    fn remarks(ctx: &mut Context, ir: &Ir, by_depth: &[Vec<OpId>], dependence: bool) {
        let max_depth = by_depth.len();
        for (loop_depth, loops) in by_depth.iter().enumerate() {
            for (i, &src) in loops.iter().enumerate() {
                for (j, &dst) in loops.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    for d in loop_depth + 1..=max_depth {
                        let result = can_fuse_loops(ctx, ir, src, dst, d, Strategy::Generic);
                        let (kind, slice) = match &result {
                            Err(FusionFailure::BlockDependence) if dependence => {
                                let m = format!(
                                    "block-level dependence preventing fusion of loop nest {i} into loop nest {j} at depth {loop_depth}"
                                );
                                remark(ctx, ir, src, m);
                                continue;
                            }
                            _ if dependence => continue,
                            Ok(s) => ("slice", s),
                            Err(FusionFailure::IncorrectSlice(s)) => ("Incorrect slice", s),
                            Err(_) => continue,
                        };
                        let m = format!(
                            "{kind} ( src loop: {i}, dst loop: {j}, depth: {d} : {})",
                            slice_text(ctx, ir, slice)
                        );
                        remark(ctx, ir, dst, m);
                    }
                }
            }
        }
    }
}

impl Pass for TestLoopFusion {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, func: OpId) -> Result<(), Box<Diagnostic>> {
        if self.utilities {
            while Self::fuse_one(ctx, ir, &loops_by_depth(ctx, ir, func)) {}
            return Ok(());
        }
        let by_depth = loops_by_depth(ctx, ir, func);
        if self.dependence_check {
            Self::remarks(ctx, ir, &by_depth, true);
        }
        if self.slice_computation {
            Self::remarks(ctx, ir, &by_depth, false);
        }
        Ok(())
    }
}

fn create(o: &PassOptions) -> Result<Box<dyn Pass>, String> {
    Ok(Box::new(TestLoopFusion {
        dependence_check: o.bool("test-loop-fusion-dependence-check"),
        slice_computation: o.bool("test-loop-fusion-slice-computation"),
        utilities: o.bool("test-loop-fusion-utilities"),
    }))
}

/// The `test-loop-fusion` pass.
pub static TEST_LOOP_FUSION: PassInfo = PassInfo {
    argument: "test-loop-fusion",
    name: "TestLoopFusion",
    description: "Tests loop fusion utility functions.",
    anchor: Some("func.func"),
    options: &[
        PassOptionInfo {
            name: "test-loop-fusion-dependence-check",
            description: "Enable testing of loop fusion dependence check",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "test-loop-fusion-slice-computation",
            description: "Enable testing of loop fusion slice computation",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "test-loop-fusion-utilities",
            description: "Enable testing of loop fusion transformation utilities",
            kind: OptionKind::Bool,
            default: "false",
        },
    ],
    create,
};
