//! `affine-loop-unroll` and `affine-loop-unroll-jam`, MLIR's passes over
//! the loop utilities in [`crate::loops`]. Unrolling picks the innermost
//! loops of a function (all loops with a constant trip count up to
//! `unroll-full-threshold`, inner ones first, when that is given with full
//! unrolling) and repeats `unroll-num-reps` times; unroll-and-jam takes
//! the function's first op when it is an `affine.for`.

use crate::for_op::is_for;
use crate::loops::{
    constant_trip_count, loops_post_order, unroll_by_factor, unroll_full, unroll_jam_by_factor,
    unroll_up_to_factor,
};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId};

/// `affine-loop-unroll` with its options.
struct LoopUnroll {
    /// The factor; -1 unrolls fully.
    factor: i64,
    up_to_factor: bool,
    full_threshold: Option<u64>,
    repetitions: u64,
    cleanup_unroll: bool,
}

/// Whether no `affine.for` is nested in the loop `op`.
fn is_innermost(ctx: &Context, ir: &Ir, op: OpId) -> bool {
    loops_post_order(ctx, ir, op).len() == 1
}

/// The loops of `func` with no loop nested in them, in walk order.
fn innermost_loops(ctx: &Context, ir: &Ir, func: OpId) -> Vec<OpId> {
    loops_post_order(ctx, ir, func)
        .into_iter()
        .filter(|&l| is_innermost(ctx, ir, l))
        .collect()
}

/// Whether `func` has no body (a declaration).
fn is_external(ir: &Ir, func: OpId) -> bool {
    ir.regions(func)
        .next()
        .is_none_or(|r| ir.region_is_empty(r))
}

impl LoopUnroll {
    fn unroll(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> bool {
        let done = if self.factor == -1 {
            unroll_full(ctx, ir, op)
        } else {
            let factor = self.factor.unsigned_abs();
            if self.up_to_factor {
                unroll_up_to_factor(ctx, ir, op, factor)
            } else {
                unroll_by_factor(ctx, ir, op, factor, self.cleanup_unroll)
            }
        };
        done.is_ok()
    }
}

impl Pass for LoopUnroll {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        if !(self.factor > 0 || self.factor == -1) {
            return Err(Box::new(Diagnostic::error(
                ctx.unknown_loc(),
                "Invalid option: 'unroll-factor' should be greater than 0 or equal to -1",
            )));
        }
        if is_external(ir, op) {
            return Ok(());
        }
        if let (-1, Some(threshold)) = (self.factor, self.full_threshold) {
            let short: Vec<OpId> = loops_post_order(ctx, ir, op)
                .into_iter()
                .filter(|&l| {
                    is_for(ctx, ir, l)
                        && constant_trip_count(ctx, ir, l).is_some_and(|t| t <= threshold)
                })
                .collect();
            for l in short {
                // A loop unrolled before may have removed this one.
                if !ir.is_erased(l) {
                    let _ = unroll_full(ctx, ir, l);
                }
            }
            return Ok(());
        }
        for _ in 0..self.repetitions {
            let loops = innermost_loops(ctx, ir, op);
            if loops.is_empty() {
                break;
            }
            let mut unrolled = false;
            for l in loops {
                unrolled |= self.unroll(ctx, ir, l);
            }
            if !unrolled {
                break;
            }
        }
        Ok(())
    }
}

static UNROLL_OPTIONS: &[PassOptionInfo] = &[
    PassOptionInfo {
        name: "unroll-factor",
        description: "Use this unroll factor for all loops being unrolled, set it to -1, and it will fully unroll.",
        kind: OptionKind::Int,
        default: "4",
    },
    PassOptionInfo {
        name: "unroll-up-to-factor",
        description: "Allow unrolling up to the factor specified",
        kind: OptionKind::Bool,
        default: "false",
    },
    PassOptionInfo {
        name: "unroll-full-threshold",
        description: "Unroll all loops with trip count less than or equal to this",
        kind: OptionKind::UInt,
        default: "",
    },
    PassOptionInfo {
        name: "unroll-num-reps",
        description: "Unroll innermost loops repeatedly this many times",
        kind: OptionKind::UInt,
        default: "1",
    },
    PassOptionInfo {
        name: "cleanup-unroll",
        description: "Fully unroll the cleanup loop when possible.",
        kind: OptionKind::Bool,
        default: "false",
    },
];

/// The `affine-loop-unroll` pass.
pub static AFFINE_LOOP_UNROLL: PassInfo = PassInfo {
    argument: "affine-loop-unroll",
    name: "AffineLoopUnroll",
    description: "Unroll affine loops",
    anchor: Some("func.func"),
    options: UNROLL_OPTIONS,
    create: |o: &PassOptions| {
        Ok(Box::new(LoopUnroll {
            factor: o.int("unroll-factor"),
            up_to_factor: o.bool("unroll-up-to-factor"),
            full_threshold: o
                .shown("unroll-full-threshold")
                .and_then(|t| t.parse().ok()),
            repetitions: o.int("unroll-num-reps").unsigned_abs(),
            cleanup_unroll: o.bool("cleanup-unroll"),
        }))
    },
};

/// `affine-loop-unroll-jam` with its factor.
struct LoopUnrollAndJam {
    factor: u64,
}

impl Pass for LoopUnrollAndJam {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        if self.factor == 0 {
            return Err(Box::new(Diagnostic::error(
                ctx.unknown_loc(),
                "Invalid option: 'unroll-jam-factor' should be greater than 0",
            )));
        }
        let first = ir
            .regions(op)
            .next()
            .and_then(|r| ir.entry_block(r))
            .and_then(|b| ir.first_op(b));
        if let Some(first) = first.filter(|&f| is_for(ctx, ir, f)) {
            let _ = unroll_jam_by_factor(ctx, ir, first, self.factor);
        }
        Ok(())
    }
}

static UNROLL_JAM_OPTIONS: &[PassOptionInfo] = &[PassOptionInfo {
    name: "unroll-jam-factor",
    description: "Use this unroll jam factor for all loops (default 4)",
    kind: OptionKind::UInt,
    default: "4",
}];

/// The `affine-loop-unroll-jam` pass.
pub static AFFINE_LOOP_UNROLL_JAM: PassInfo = PassInfo {
    argument: "affine-loop-unroll-jam",
    name: "AffineLoopUnrollAndJam",
    description: "Unroll and jam affine loops",
    anchor: Some("func.func"),
    options: UNROLL_JAM_OPTIONS,
    create: |o: &PassOptions| {
        Ok(Box::new(LoopUnrollAndJam {
            factor: o.int("unroll-jam-factor").unsigned_abs(),
        }))
    },
};
