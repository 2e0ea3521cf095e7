//! `convert-affine-for-to-gpu{gpu-block-dims=B gpu-thread-dims=T}`: each
//! top-level `affine.for` of a function, with the `B + T` loops of its
//! perfect nest, becomes a `gpu.launch` whose block ids run the first
//! `B` loops and thread ids the next `T`, as MLIR's loop-to-GPU
//! converter builds it: each loop's bounds are computed before the
//! launch (its trip count `ub - lb`, `ceildivsi` by the step where it is not
//! 1, sizes the grid or block; 1 where no loop is mapped), each
//! induction variable inside is `lb + id * step`, and the innermost
//! mapped loop's body moves into the launch. The caller vouches that
//! the loops are parallel: nothing is checked. The output is
//! mlir-opt-22's; a nest it cannot map is an error.

use silica_ir::dialect::inherent_attr;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, ValueId};

const FOR: &str = "affine.for";

fn error(ir: &Ir, op: OpId, msg: &str) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg.to_string()))
}

/// Whether every value of `values` is defined outside `op`.
fn defined_above(ir: &Ir, op: OpId, values: &[ValueId]) -> bool {
    values.iter().all(|&v| {
        let owner = ir.defining_op(v).or_else(|| {
            ir.value_block(v)
                .and_then(|b| ir.block_region(b))
                .and_then(|r| ir.region_op(r))
        });
        !owner.is_some_and(|o| ir.is_ancestor(op, o))
    })
}

/// The loops of the perfect nest from `root`, `count` deep, checked as
/// MLIR checks them.
fn nest(ctx: &Context, ir: &Ir, root: OpId, count: usize) -> Result<Vec<OpId>, Box<Diagnostic>> {
    let mut loops = vec![root];
    let mut current = root;
    for i in 0..count {
        let operands: Vec<ValueId> = ir.operands(current).collect();
        if !defined_above(ir, current, &operands) {
            return Err(error(
                ir,
                current,
                "loops with bounds depending on other mapped loops are not supported",
            ));
        }
        if i + 1 == count {
            break;
        }
        let body = ir.regions(current).next().and_then(|r| ir.entry_block(r));
        let ops: Vec<OpId> = body.map(|b| ir.block_ops(b).collect()).unwrap_or_default();
        if ops.len() != 2 {
            return Err(error(
                ir,
                current,
                "expected perfectly nested loops in the body",
            ));
        }
        if ctx.str(ir.op_name(ops[0])) != FOR {
            return Err(error(ir, ops[0], "expected a nested loop"));
        }
        current = ops[0];
        loops.push(current);
    }
    Ok(loops)
}

fn step_of(ctx: &Context, ir: &Ir, op: OpId) -> i64 {
    match inherent_attr(ctx, ir, op, "step").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(value).unwrap_or(1),
        _ => 1,
    }
}

fn index_constant(rw: &mut Rewriter<'_>, value: i64, loc: silica_ir::Attr) -> ValueId {
    let index = rw.ctx.index_type();
    let v = rw.ctx.int_attr(index, value);
    let key = rw.ctx.sym("value");
    let props = rw.ctx.dict_attr(vec![(key, v)]);
    let op = rw.create_simple("arith.constant", &[], &[index], Some(props), loc);
    rw.ir.result(op, 0)
}

fn binary(
    rw: &mut Rewriter<'_>,
    name: &str,
    a: ValueId,
    b: ValueId,
    loc: silica_ir::Attr,
) -> ValueId {
    let index = rw.ctx.index_type();
    let op = rw.create_simple(name, &[a, b], &[index], None, loc);
    rw.ir.result(op, 0)
}

/// Maps the nest rooted at `root`.
fn convert(
    ctx: &mut Context,
    ir: &mut Ir,
    root: OpId,
    blocks: usize,
    threads: usize,
) -> Result<(), Box<Diagnostic>> {
    if blocks > 3 {
        return Err(error(
            ir,
            root,
            "cannot map to more than 3 block dimensions",
        ));
    }
    if threads > 3 {
        return Err(error(
            ir,
            root,
            "cannot map to more than 3 thread dimensions",
        ));
    }
    let count = blocks + threads;
    let loops = if count > 0 {
        nest(ctx, ir, root, count)?
    } else {
        Vec::new()
    };
    let loc = ir.op_loc(root);
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(root);
    let (mut dims, mut lbs, mut steps) = (Vec::new(), Vec::new(), Vec::new());
    for &l in &loops {
        let (lb, ub) =
            silica_affine::lower::loop_bounds(&mut rw, l).map_err(|m| error(rw.ir, l, &m))?;
        let mut range = binary(&mut rw, "arith.subi", ub, lb, loc);
        let step = step_of(rw.ctx, rw.ir, l);
        let step_value = index_constant(&mut rw, step, loc);
        if step != 1 {
            range = binary(&mut rw, "arith.ceildivsi", range, step_value, loc);
        }
        dims.push(range);
        lbs.push(lb);
        steps.push((step, step_value));
    }
    let one = (blocks < 3 || threads < 3).then(|| index_constant(&mut rw, 1, loc));
    let size = |k: usize, offset: usize, n: usize| if k < n { Some(dims[offset + k]) } else { one };
    let sizes: Vec<ValueId> = (0..3)
        .map(|k| size(k, 0, blocks))
        .chain((0..3).map(|k| size(k, blocks, threads)))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| {
            error(
                rw.ir,
                root,
                "a launch of three mapped dimensions each needs no size of one",
            )
        })?;
    let launch = super::parallel_to_gpu::create_launch_of(&mut rw, &sizes, loc);
    let launch_block = rw
        .ir
        .regions(launch)
        .next()
        .and_then(|r| rw.ir.entry_block(r))
        .expect("a body");
    let launch_args = rw.ir.block_args(launch_block).to_vec();
    let terminator = rw.ir.last_op(launch_block).expect("gpu.terminator");
    // The innermost mapped loop's body, its terminator a gpu.terminator.
    let innermost = *loops.last().unwrap_or(&root);
    let body = rw
        .ir
        .regions(innermost)
        .next()
        .and_then(|r| rw.ir.entry_block(r))
        .expect("a body");
    let ops: Vec<OpId> = rw.ir.block_ops(body).collect();
    if let Some((&yield_op, rest)) = ops.split_last() {
        for &op in rest {
            rw.ir.move_op_before(op, terminator);
        }
        rw.ir.erase_op(yield_op);
    }
    // The induction variables.
    let first = rw.ir.first_op(launch_block).expect("the body");
    rw.set_insertion_point(first);
    for (i, &l) in loops.iter().enumerate() {
        let id = if i < blocks {
            launch_args[i]
        } else {
            launch_args[3 + i - blocks]
        };
        let (step, step_value) = steps[i];
        let id = if step != 1 {
            binary(&mut rw, "arith.muli", step_value, id, loc)
        } else {
            id
        };
        let replacement = binary(&mut rw, "arith.addi", lbs[i], id, loc);
        let iv = rw
            .ir
            .regions(l)
            .next()
            .and_then(|r| rw.ir.entry_block(r))
            .map(|b| rw.ir.block_args(b)[0]);
        if let Some(iv) = iv {
            rw.ir.replace_all_uses(iv, replacement);
        }
    }
    rw.erase_op(root);
    Ok(())
}

struct AffineForToGpu {
    blocks: usize,
    threads: usize,
}

impl Pass for AffineForToGpu {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let Some(body) = ir.regions(op).next().and_then(|r| ir.entry_block(r)) else {
            return Ok(());
        };
        let loops: Vec<OpId> = ir
            .block_ops(body)
            .filter(|&o| ctx.str(ir.op_name(o)) == FOR)
            .collect();
        for l in loops {
            convert(ctx, ir, l, self.blocks, self.threads)?;
        }
        Ok(())
    }
}

static OPTIONS: &[PassOptionInfo] = &[
    PassOptionInfo {
        name: "gpu-block-dims",
        description: "Number of GPU block dimensions for mapping",
        kind: OptionKind::UInt,
        default: "1",
    },
    PassOptionInfo {
        name: "gpu-thread-dims",
        description: "Number of GPU thread dimensions for mapping",
        kind: OptionKind::UInt,
        default: "1",
    },
];

/// `convert-affine-for-to-gpu`
pub static CONVERT_AFFINE_FOR_TO_GPU: PassInfo = PassInfo {
    argument: "convert-affine-for-to-gpu",
    name: "ConvertAffineForToGPUPass",
    description: "Convert top-level AffineFor Ops to GPU kernels",
    anchor: Some("func.func"),
    options: OPTIONS,
    create: |o: &PassOptions| {
        Ok(Box::new(AffineForToGpu {
            blocks: o.int("gpu-block-dims").unsigned_abs() as usize,
            threads: o.int("gpu-thread-dims").unsigned_abs() as usize,
        }))
    },
};
