//! `affine-parallelize`: MLIR's pass over `isLoopParallel` and
//! `affineParallelize`. An `affine.for` whose memory accesses carry no
//! dependence at its depth (every pair checked by
//! [`crate::dependence::check_dependence`]; accesses to memrefs allocated
//! inside the loop are private to an iteration) and, with
//! `parallel-reductions`, whose iteration arguments are all supported
//! reductions, becomes a one-dimensional `affine.parallel` (reductions
//! become its `reduce` kinds, the combining op moves after it to fold in
//! the initial value). Loops are picked outer first; `max-nested` bounds
//! how many `affine.parallel` ops may surround a converted loop. Loops
//! with ops of unknown effects, or iteration arguments that are not
//! reductions, stay sequential.

use crate::dependence::{accesses_of, check_dependence, DependenceResult, MemoryAccess, Precision};
use crate::for_op::{body, bounds, is_for, step};
use crate::licm::affine_access;
use crate::loops::build::{inits, iter_args, terminator};
use crate::loops::{supported_reductions, LoopReduction};
use crate::parallel::{groups_attr, i64_array, REDUCTIONS};
use silica_ir::dialect::{op_effects, Effects, Traits};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::rewrite::effects::is_memory_effect_free;
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, OpSpec, TypeKind, ValueId};

fn has_trait(ctx: &Context, ir: &Ir, op: OpId, t: Traits) -> bool {
    ctx.op_def(ir.op_name(op)).is_some_and(|d| d.traits.has(t))
}

/// Whether `v` is allocated inside `lp` (directly or through views).
fn locally_defined(ctx: &Context, ir: &Ir, v: ValueId, lp: OpId) -> bool {
    let Some(d) = ir.defining_op(v) else {
        return false;
    };
    match ctx.str(ir.op_name(d)) {
        "memref.alloc" | "memref.alloca" => d != lp && ir.is_ancestor(lp, d),
        "memref.subview"
        | "memref.cast"
        | "memref.view"
        | "memref.reinterpret_cast"
        | "memref.collapse_shape"
        | "memref.expand_shape"
        | "memref.transpose" => locally_defined(ctx, ir, ir.operand(d, 0), lp),
        _ => false,
    }
}

/// The number of `affine.for`/`affine.parallel` ops around `op`.
fn nesting_depth(ctx: &Context, ir: &Ir, op: OpId) -> usize {
    let mut n = 0;
    let mut cur = ir.parent_op(op);
    while let Some(p) = cur {
        if matches!(ctx.str(ir.op_name(p)), "affine.for" | "affine.parallel") {
            n += 1;
        }
        cur = ir.parent_op(p);
    }
    n
}

/// Whether no memory dependence is carried by the loop `lp` (MLIR's
/// `isLoopMemoryParallel`).
pub fn is_loop_memory_parallel(ctx: &Context, ir: &Ir, lp: OpId) -> bool {
    if ir.results(lp).any(|r| {
        matches!(
            ctx.type_kind(ir.value_type(r)),
            TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
        )
    }) {
        return false;
    }
    let mut ops = Vec::new();
    let mut unknown = false;
    ir.walk(lp, &mut |o| {
        if let Some((memref, _)) = affine_access(ctx, ir, o) {
            if !locally_defined(ctx, ir, memref, lp) {
                ops.push(o);
            }
        } else if !matches!(
            ctx.str(ir.op_name(o)),
            "affine.for" | "affine.yield" | "affine.if"
        ) && !matches!(op_effects(ctx, ir, o), Effects::Alloc)
            && !is_memory_effect_free(ctx, ir, o)
        {
            unknown = true;
        }
    });
    if unknown {
        return false;
    }
    let mut accesses: Vec<MemoryAccess> = Vec::with_capacity(ops.len());
    for o in ops {
        match accesses_of(ctx, ir, o) {
            Ok(a) => accesses.extend(a),
            Err(_) => return false,
        }
    }
    let depth = nesting_depth(ctx, ir, lp) + 1;
    accesses.iter().all(|src| {
        accesses.iter().all(|dst| {
            matches!(
                check_dependence(ctx, ir, src, dst, depth, Precision::Shadow),
                DependenceResult::NoDependence
            )
        })
    })
}

/// The reductions of `lp` when the loop is parallel: all its iteration
/// arguments must be reductions (none without `with_reductions`).
pub fn parallel_reductions(
    ctx: &Context,
    ir: &Ir,
    lp: OpId,
    with_reductions: bool,
) -> Option<Vec<LoopReduction>> {
    let n = iter_args(ir, lp).len();
    if n > 0 && !with_reductions {
        return None;
    }
    let reductions = if with_reductions {
        supported_reductions(ctx, ir, lp)
    } else {
        Vec::new()
    };
    (reductions.len() == n && is_loop_memory_parallel(ctx, ir, lp)).then_some(reductions)
}

/// The `arith` atomic kind of a reduction's combiner.
fn atomic_kind(combiner: &str) -> Option<i64> {
    let name = combiner.strip_prefix("arith.")?;
    let kind = match name {
        "minsi" => "mins",
        "maxsi" => "maxs",
        "minui" => "minu",
        "maxui" => "maxu",
        other => other,
    };
    REDUCTIONS.iter().position(|&k| k == kind).map(|p| p as i64)
}

/// Turns the `affine.for` `lp` into a one-dimensional `affine.parallel`
/// with `reductions` (MLIR's `affineParallelize`).
pub fn parallelize(ctx: &mut Context, ir: &mut Ir, lp: OpId, reductions: &[LoopReduction]) -> bool {
    let inits = inits(ctx, ir, lp);
    if reductions.len() != inits.len() {
        return false;
    }
    let (Some((lower, upper)), Some(block), Some(yield_op)) =
        (bounds(ctx, ir, lp), body(ir, lp), terminator(ir, lp))
    else {
        return false;
    };
    let mut kinds = Vec::with_capacity(reductions.len());
    for r in reductions {
        match atomic_kind(r.combiner) {
            Some(k) => kinds.push(k),
            None => return false,
        }
    }
    let args = iter_args(ir, lp);
    // The value each reduction folds in: the combiner's other operand.
    let mut reduced = Vec::with_capacity(reductions.len());
    let mut combiners = Vec::with_capacity(reductions.len());
    for r in reductions {
        let Some(c) = ir.defining_op(ir.operand(yield_op, r.position)) else {
            return false;
        };
        let arg = args[r.position];
        let other = if ir.operand(c, 0) == arg {
            ir.operand(c, 1)
        } else {
            ir.operand(c, 0)
        };
        reduced.push(other);
        combiners.push(c);
    }
    let result_types: Vec<_> = reduced.iter().map(|&v| ir.value_type(v)).collect();
    let mut operands = lower.operands.clone();
    operands.extend(&upper.operands);
    let step = step(ctx, ir, lp);
    let lb_groups = groups_attr(ctx, &[lower.map.results.len() as i64]);
    let ub_groups = groups_attr(ctx, &[upper.map.results.len() as i64]);
    let lb_map = ctx.intern_attr(AttrKind::AffineMap(lower.map));
    let ub_map = ctx.intern_attr(AttrKind::AffineMap(upper.map));
    let kinds_attr = i64_array(ctx, &kinds);
    let steps = i64_array(ctx, &[step]);
    let entries: Vec<_> = [
        ("lowerBoundsGroups", lb_groups),
        ("lowerBoundsMap", lb_map),
        ("reductions", kinds_attr),
        ("steps", steps),
        ("upperBoundsGroups", ub_groups),
        ("upperBoundsMap", ub_map),
    ]
    .into_iter()
    .map(|(k, v)| (ctx.sym(k), v))
    .collect();
    let props = Some(ctx.dict_attr(entries));
    let region = ir.create_region();
    let name = ctx.sym("affine.parallel");
    let attrs = ctx.empty_dict();
    let par = ir.create_op(OpSpec {
        name,
        loc: ir.op_loc(lp),
        operands: &operands,
        result_types: &result_types,
        successors: &[],
        regions: &[region],
        attrs,
        props,
    });
    ir.insert_op_before(lp, par);
    ir.detach_block(block);
    ir.append_block(region, block);
    for (i, &c) in combiners.iter().enumerate() {
        ir.move_op_before(c, lp);
        let new_result = ir.result(par, i);
        ir.set_operands(c, &[inits[i], new_result]);
        let old = ir.result(lp, reductions[i].position);
        let combined = ir.result(c, 0);
        ir.replace_all_uses(old, combined);
    }
    ir.set_operands(yield_op, &reduced);
    for i in (1..=args.len()).rev() {
        ir.erase_block_arg(block, i);
    }
    ir.erase_op(lp);
    true
}

/// `affine-parallelize` with its options.
struct Parallelize {
    max_nested: u64,
    reductions: bool,
}

impl Pass for Parallelize {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut loops = Vec::new();
        ir.walk(op, &mut |o| {
            if is_for(ctx, ir, o) {
                loops.push(o);
            }
        });
        let mut candidates = Vec::new();
        for lp in loops {
            if let Some(r) = parallel_reductions(ctx, ir, lp, self.reductions) {
                candidates.push((lp, r));
            }
        }
        for (lp, reductions) in candidates {
            let mut parents = 0u64;
            let mut cur = ir.parent_op(lp);
            while let Some(p) = cur {
                if has_trait(ctx, ir, p, Traits::AFFINE_SCOPE) {
                    break;
                }
                if ctx.str(ir.op_name(p)) == "affine.parallel" {
                    parents += 1;
                }
                cur = ir.parent_op(p);
            }
            if parents < self.max_nested {
                parallelize(ctx, ir, lp, &reductions);
            }
        }
        Ok(())
    }
}

static OPTIONS: &[PassOptionInfo] = &[
    PassOptionInfo {
        name: "max-nested",
        description:
            "Maximum number of nested parallel loops to produce. Defaults to unlimited (UINT_MAX).",
        kind: OptionKind::UInt,
        default: "4294967295",
    },
    PassOptionInfo {
        name: "parallel-reductions",
        description: "Whether to parallelize reduction loops. Defaults to false.",
        kind: OptionKind::Bool,
        default: "false",
    },
];

/// The `affine-parallelize` pass.
pub static AFFINE_PARALLELIZE: PassInfo = PassInfo {
    argument: "affine-parallelize",
    name: "AffineParallelize",
    description: "Convert affine.for ops into 1-D affine.parallel",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o: &PassOptions| {
        Ok(Box::new(Parallelize {
            max_nested: o.int("max-nested").unsigned_abs(),
            reductions: o.bool("parallel-reductions"),
        }))
    },
};
