//! `silica gpu`: a kernel's parallel loops to a launched GPU kernel. The
//! kernel `F` (a `func.func` over memrefs and scalars) is copied into a
//! module of its own and taken through mlir-opt-22's passes:
//! `affine-parallelize` (the loops the exact dependence analysis finds
//! parallel), `lower-affine`, with `--block` `scf-parallel-loop-tiling`
//! and `canonicalize`, `gpu-map-parallel-loops`,
//! `convert-parallel-loops-to-gpu`, `gpu-kernel-outlining`,
//! `lower-affine`, `convert-scf-to-cf`, `nvvm-attach-target{chip}`,
//! `convert-gpu-to-nvvm` and `reconcile-unrealized-casts`.
//! The `gpu.module`s then give the device LLVM IR and PTX
//! ([`crate::device`]). A kernel with no parallel loop gets a note and
//! runs on one thread (its body in a `gpu.launch` of one block of one
//! thread).

use crate::device;
use crate::passes;
use silica_ir::pass::{Instrumentation, OpPassManager, PassInfo};
use silica_ir::printer::module_text;
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::{Context, Diagnostic, Ir, OpId, OpSpec};

/// What `silica gpu` is asked for.
#[derive(Clone, Debug)]
pub struct Options {
    /// The kernel function.
    pub top: String,
    /// The GPU architecture (`sm_90`).
    pub chip: String,
    /// Tile sizes for the innermost parallel loops (`--block`): the
    /// tiles go to the outer level of the mapping, each tile's iterations
    /// to the next.
    pub block: Vec<i64>,
}

/// The GPU code of a kernel.
pub struct GpuCode {
    /// The kernel's module after the passes (`F.gpu.mlir`), the device
    /// functions moved out.
    pub gpu_mlir: String,
    /// The device module's LLVM IR (`F.device.ll`).
    pub device_llvm: String,
    /// The device module (its kernels named after their `gpu.module`s).
    pub device: device::DeviceModule,
    /// Notes for the user (no parallel loop).
    pub notes: Vec<String>,
    /// The host module after the passes, in `ir` (the launches still
    /// `gpu.launch_func`).
    pub host: OpId,
}

/// A pass and its options.
type Step = (&'static PassInfo, Vec<(String, String)>);

/// The passes from affine loops to NVVM, with their options: those up to
/// the loops' mapping, and those after it.
fn pipeline(chip: &str, block: &[i64]) -> (Vec<Step>, Vec<Step>) {
    let none = Vec::new;
    let mut passes = vec![
        (&silica_affine::parallelize::AFFINE_PARALLELIZE, none()),
        (&silica_affine::lower::LOWER_AFFINE, none()),
    ];
    if !block.is_empty() {
        let sizes: Vec<String> = block.iter().map(i64::to_string).collect();
        passes.push((
            &silica_dialects::transforms::parallel_loop_tiling::SCF_PARALLEL_LOOP_TILING,
            vec![("parallel-loop-tile-sizes".to_string(), sizes.join(","))],
        ));
        // The tiles' bounds folded (`affine.min` of the constant tile
        // size), so the launch can be sized by it.
        passes.push((&silica_ir::transforms::CANONICALIZE, none()));
    }
    passes.push((&passes::map_parallel_loops::GPU_MAP_PARALLEL_LOOPS, none()));
    let after = vec![
        (
            &passes::parallel_to_gpu::CONVERT_PARALLEL_LOOPS_TO_GPU,
            none(),
        ),
        (&passes::outline::GPU_KERNEL_OUTLINING, none()),
        (&silica_affine::lower::LOWER_AFFINE, none()),
        (
            &silica_dialects::transforms::scf_to_cf::CONVERT_SCF_TO_CF,
            none(),
        ),
        (
            &passes::attach_target::NVVM_ATTACH_TARGET,
            vec![("chip".to_string(), chip.to_string())],
        ),
        (&passes::to_nvvm::CONVERT_GPU_TO_NVVM, none()),
        (&silica_ir::conversion::RECONCILE_UNREALIZED_CASTS, none()),
    ];
    (passes, after)
}

/// A module holding a copy of the function `top` of `module`.
fn kernel_module(
    ctx: &mut Context,
    ir: &mut Ir,
    module: OpId,
    top: &str,
) -> Result<OpId, Box<Diagnostic>> {
    let func = silica_ir::symbols::lookup(ctx, ir, module, top)
        .filter(|&f| ctx.str(ir.op_name(f)) == "func.func")
        .ok_or_else(|| {
            Box::new(Diagnostic::error(
                ir.op_loc(module),
                format!("no function '{top}' in the module"),
            ))
        })?;
    let returns = silica_ir::dialect::inherent_attr(ctx, ir, func, "function_type").and_then(|a| {
        match ctx.attr_kind(a) {
            silica_ir::AttrKind::Type(t) => Some(!ctx.function_results(*t).is_empty()),
            _ => None,
        }
    });
    if returns != Some(false) {
        return Err(Box::new(Diagnostic::error(
            ir.op_loc(func),
            format!("'{top}' returns values: a GPU kernel writes its results to memrefs"),
        )));
    }
    let copy = ir.clone_op(func);
    let region = ir.create_region();
    let block = ir.create_block();
    ir.append_block(region, block);
    ir.append_op(block, copy);
    let name = ctx.sym("builtin.module");
    let attrs = ctx.empty_dict();
    Ok(ir.create_op(OpSpec {
        name,
        loc: ir.op_loc(func),
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: None,
    }))
}

/// The kernel's body (one block) moved into a `gpu.launch` of one
/// thread.
fn single_thread(
    ctx: &mut Context,
    ir: &mut Ir,
    host: OpId,
    top: &str,
) -> Result<(), Box<Diagnostic>> {
    let func = silica_ir::symbols::lookup(ctx, ir, host, top).expect("the kernel's copy");
    let loc = ir.op_loc(func);
    let blocks: Vec<_> = ir
        .regions(func)
        .flat_map(|r| ir.region_blocks(r).collect::<Vec<_>>())
        .collect();
    let [entry] = blocks.as_slice() else {
        return Err(Box::new(Diagnostic::error(
            loc,
            format!("'{top}' has no parallel loop and more than one block: it cannot run on one GPU thread"),
        )));
    };
    let ops: Vec<OpId> = ir.block_ops(*entry).collect();
    let Some((&ret, body)) = ops.split_last() else {
        return Ok(());
    };
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    rw.set_insertion_point(ret);
    let index = rw.ctx.index_type();
    let value = rw.ctx.int_attr(index, 1);
    let key = rw.ctx.sym("value");
    let props = rw.ctx.dict_attr(vec![(key, value)]);
    let one = rw.create_simple("arith.constant", &[], &[index], Some(props), loc);
    let one = rw.ir.result(one, 0);
    let launch = passes::parallel_to_gpu::create_launch(&mut rw, one, loc);
    let terminator = rw
        .ir
        .regions(launch)
        .next()
        .and_then(|r| rw.ir.entry_block(r))
        .and_then(|b| rw.ir.last_op(b))
        .expect("a launch ends with its terminator");
    for &op in body {
        rw.ir.move_op_before(op, terminator);
    }
    Ok(())
}

/// Runs the passes on `host`; whether they left a launch.
fn lower(
    ctx: &mut Context,
    ir: &mut Ir,
    host: OpId,
    options: &Options,
    notes: &mut Vec<String>,
) -> Result<bool, Box<Diagnostic>> {
    let instr = Instrumentation {
        verify_each: true,
        ..Instrumentation::default()
    };
    let (mapping, lowering) = pipeline(&options.chip, &options.block);
    let run = |steps: Vec<Step>, ctx: &mut Context, ir: &mut Ir| {
        let mut pm = OpPassManager::new("builtin.module");
        for (pass, opts) in steps {
            pm.add_pass(pass, opts)
                .map_err(|e| Box::new(Diagnostic::error(ir.op_loc(host), e)))?;
        }
        pm.run(ctx, ir, host, &instr)
    };
    run(mapping, ctx, ir)?;
    if crate::threads::serialize_racing_threads(ctx, ir, host) > 0 {
        notes.push(format!(
            "'{}': a loop on blocks does more than split its inner loops among threads (its threads would race): one thread a block runs it",
            options.top
        ));
    }
    run(lowering, ctx, ir)?;
    let mut launches = 0;
    ir.walk(host, &mut |o| {
        launches += usize::from(ctx.str(ir.op_name(o)) == crate::dialect::launch_func::LAUNCH_FUNC);
    });
    Ok(launches > 0)
}

/// Compiles the kernel `options.top` of `module` for the GPU.
pub fn compile(
    ctx: &mut Context,
    ir: &mut Ir,
    module: OpId,
    options: &Options,
) -> Result<GpuCode, Box<Diagnostic>> {
    let mut host = kernel_module(ctx, ir, module, &options.top)?;
    let mut notes = Vec::new();
    if !lower(ctx, ir, host, options, &mut notes)? {
        notes.push(format!(
            "'{}' has no parallel loop (by the exact dependence analysis): it runs on one GPU thread",
            options.top
        ));
        host = kernel_module(ctx, ir, module, &options.top)?;
        single_thread(ctx, ir, host, &options.top)?;
        lower(ctx, ir, host, options, &mut notes)?;
    }
    let device = device::extract(ctx, ir, host)?;
    let device_llvm = device::llvm_ir(ctx, ir, &device)?;
    let gpu_mlir = module_text(ctx, ir, host);
    Ok(GpuCode {
        gpu_mlir,
        device_llvm,
        device,
        notes,
        host,
    })
}
