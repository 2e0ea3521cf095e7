//! `convert-gpu-to-nvvm`: the ops of each `gpu.module` to the llvm and
//! nvvm dialects, as MLIR's pass converts them:
//! - `gpu.func` to `llvm.func` (memref arguments expanded into their
//!   descriptors' fields, as `convert-func-to-llvm` does), a kernel
//!   marked `nvvm.kernel`, its `known_block_size` and `known_grid_size`
//!   kept as `gpu.known_block_size`/`gpu.known_grid_size`, the block
//!   size also as `nvvm.maxntid`; `gpu.return` to `llvm.return`;
//! - the id and size ops to their special registers
//!   (`nvvm.read.ptx.sreg.tid.x`, sign-extended to `index`), with the
//!   range the known sizes (or an op's `upper_bound`) give: an id in
//!   `[0, n)`, a size in `[1, n + 1)`, the lane id in `[0, 32)`;
//! - `gpu.barrier` to `nvvm.barrier0`;
//! - `math` ops on `f32` and `f64` to calls of the device library
//!   (`libdevice`);
//! - arith, cf, func, memref and index as `convert-to-llvm` converts
//!   them. Other ops (an `affine.apply` left by the loops' lowering)
//!   stay, joined by `builtin.unrealized_conversion_cast`.
//!
//! As in MLIR, the module is first folded by the greedy driver (dead
//! ids erased, constants folded and deduplicated).

use crate::dialect::attrs::Dim;
use crate::dialect::ids;
use crate::dialect::kernel::{FUNC, KERNEL_ATTR, MODULE, RETURN};
use crate::nvvm;
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::{inherent_attr, set_discardable_attr};
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet, RegionSimplify};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId, ValueId};

/// The warp size the lane id is below.
const WARP_SIZE: i64 = 32;

/// The special register of an id or size op in dimension `d`, and
/// whether the op is a size (`ntid`, `nctaid`).
fn register(op_name: &str, d: Dim) -> Option<(String, bool, &'static str)> {
    let (base, size, known) = match op_name {
        "gpu.thread_id" => ("tid", false, "known_block_size"),
        "gpu.block_dim" => ("ntid", true, "known_block_size"),
        "gpu.block_id" => ("ctaid", false, "known_grid_size"),
        "gpu.grid_dim" => ("nctaid", true, "known_grid_size"),
        _ => return None,
    };
    Some((format!("{base}.{}", d.name()), size, known))
}

/// The function around `op` (a `gpu.func`, or the `llvm.func` it became).
fn enclosing_function(ctx: &Context, ir: &Ir, op: OpId) -> Option<OpId> {
    let mut cur = ir.parent_op(op);
    while let Some(f) = cur {
        if matches!(ctx.str(ir.op_name(f)), "gpu.func" | "llvm.func") {
            return Some(f);
        }
        cur = ir.parent_op(f);
    }
    None
}

/// Entry `d` of the known size `key` of the function around `op`.
fn known_size(ctx: &Context, ir: &Ir, op: OpId, key: &str, d: Dim) -> Option<i64> {
    let f = enclosing_function(ctx, ir, op)?;
    let sizes = inherent_attr(ctx, ir, f, key)
        .or_else(|| inherent_attr(ctx, ir, f, &format!("gpu.{key}")))?;
    ctx.int_array_values(sizes)?.get(d.index()).copied()
}

/// The `i32` register value widened (or narrowed) to `index`.
fn to_index(cr: &mut ConversionRewriter<'_, '_>, value: ValueId, loc: silica_ir::Attr) -> ValueId {
    let index = silica_llvm::conversion::index_type(cr);
    let bits = cr.rw.ctx.int_width(index).unwrap_or(64);
    let cast = match bits {
        32 => return value,
        b if b > 32 => "llvm.sext",
        _ => "llvm.trunc",
    };
    let op = cr.rw.create_simple(cast, &[value], &[index], None, loc);
    cr.rw.ir.result(op, 0)
}

fn lower_id(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let (ctx, ir) = (&*cr.rw.ctx, &*cr.rw.ir);
    let name = ctx.str(ir.op_name(op)).to_string();
    let upper_bound = match inherent_attr(ctx, ir, op, "upper_bound").map(|a| ctx.attr_kind(a)) {
        Some(AttrKind::Integer { value, .. }) => i64::try_from(value).ok(),
        _ => None,
    };
    let (register, range) = if name == "gpu.lane_id" {
        (
            "laneid".to_string(),
            Some((0, upper_bound.unwrap_or(WARP_SIZE))),
        )
    } else {
        let Some(d) = ids::dimension(ctx, ir, op) else {
            return false;
        };
        let Some((register, size, key)) = register(&name, d) else {
            return false;
        };
        let bound = upper_bound.or_else(|| known_size(ctx, ir, op, key, d));
        let range = bound.map(|n| if size { (1, n + 1) } else { (0, n) });
        (register, range)
    };
    let loc = ir.op_loc(op);
    let read = nvvm::create_register(cr.rw.ctx, cr.rw.ir, &register, range, loc);
    cr.rw.move_op(read);
    let value = cr.rw.ir.result(read, 0);
    let index = to_index(cr, value, loc);
    cr.replace_op(op, &[index]);
    true
}

fn lower_barrier(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let loc = cr.rw.ir.op_loc(op);
    cr.rw.create_simple(nvvm::BARRIER0, &[], &[], None, loc);
    cr.replace_op(op, &[]);
    true
}

/// The function's attributes as the kernel's `llvm.func` has them, then
/// the function converted.
fn lower_func(cr: &mut ConversionRewriter<'_, '_>, op: OpId, _: &[ValueId]) -> bool {
    let (ctx, ir) = (&mut *cr.rw.ctx, &mut *cr.rw.ir);
    let kernel = crate::dialect::kernel::is_kernel(ctx, ir, op);
    let moved: Vec<_> = ["known_block_size", "known_grid_size"]
        .into_iter()
        .filter_map(|k| inherent_attr(ctx, ir, op, k).map(|v| (k, v)))
        .collect();
    if let Some(props) = ir.op_props(op) {
        let kept: Vec<_> = ctx
            .dict_entries(props)
            .iter()
            .filter(|(k, _)| !matches!(ctx.str(*k), "known_block_size" | "known_grid_size"))
            .copied()
            .collect();
        let kept = ctx.dict_attr(kept);
        ir.set_op_props(op, Some(kept));
    }
    let attrs: Vec<_> = ctx
        .dict_entries(ir.op_attrs(op))
        .iter()
        .filter(|(k, _)| ctx.str(*k) != "workgroup_attributions")
        .copied()
        .collect();
    let attrs = ctx.dict_attr(attrs);
    ir.set_op_attrs(op, attrs);
    for (key, value) in moved {
        set_discardable_attr(ctx, ir, op, &format!("gpu.{key}"), value);
        if key == "known_block_size" && kernel {
            set_discardable_attr(ctx, ir, op, "nvvm.maxntid", value);
        }
    }
    if kernel {
        let unit = ctx.unit_attr();
        set_discardable_attr(ctx, ir, op, "nvvm.kernel", unit);
        set_discardable_attr(ctx, ir, op, KERNEL_ATTR, unit);
    }
    silica_llvm::conversion::func::lower_function(cr, op)
}

fn lower_return(cr: &mut ConversionRewriter<'_, '_>, op: OpId, operands: &[ValueId]) -> bool {
    silica_llvm::conversion::func::lower_return(cr, op, operands)
}

/// The gpu patterns of the conversion.
fn gpu_patterns(out: &mut Vec<ConversionPattern>) {
    out.push(ConversionPattern {
        root: FUNC,
        name: "GPUFuncOpLowering",
        benefit: 1,
        apply: lower_func,
    });
    out.push(ConversionPattern {
        root: RETURN,
        name: "GPUReturnOpLowering",
        benefit: 1,
        apply: lower_return,
    });
    for root in ids::DIMENSION_OPS[..4]
        .iter()
        .copied()
        .chain(["gpu.lane_id"])
    {
        out.push(ConversionPattern {
            root,
            name: "GPUIndexIntrinsicOpLowering",
            benefit: 1,
            apply: lower_id,
        });
    }
    out.push(ConversionPattern {
        root: crate::dialect::BARRIER,
        name: "GPUBarrierOpLowering",
        benefit: 1,
        apply: lower_barrier,
    });
}

/// The greedy folding, then the conversion.
struct GpuToNvvm {
    conversion: Box<dyn Pass>,
}

impl Pass for GpuToNvvm {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        // MLIR's driver by default: regions simplified aggressively.
        let config = GreedyConfig {
            region_simplify: RegionSimplify::Aggressive,
            ..GreedyConfig::default()
        };
        apply_patterns_greedily(ctx, ir, op, &PatternSet::default(), config);
        self.conversion.run(ctx, ir, op)
    }
}

static OPTIONS: &[PassOptionInfo] = &[
    PassOptionInfo {
        name: "index-bitwidth",
        description: "Bitwidth of the index type, 0 to use size of machine word",
        kind: OptionKind::UInt,
        default: "0",
    },
    PassOptionInfo {
        name: "has-redux",
        description: "Target gpu supports redux",
        kind: OptionKind::Bool,
        default: "false",
    },
    PassOptionInfo {
        name: "use-bare-ptr-memref-call-conv",
        description: "Replace memref arguments in GPU functions with bare pointers. All memrefs must have static shape.",
        kind: OptionKind::Bool,
        default: "false",
    },
    PassOptionInfo {
        name: "allowed-dialects",
        description: "Run conversion patterns of only the specified dialects",
        kind: OptionKind::List,
        default: "",
    },
    PassOptionInfo {
        name: "allow-pattern-rollback",
        description: "Experimental performance flag to disallow pattern rollback",
        kind: OptionKind::Bool,
        default: "true",
    },
];

/// `convert-gpu-to-nvvm`
pub static CONVERT_GPU_TO_NVVM: PassInfo = PassInfo {
    argument: "convert-gpu-to-nvvm",
    name: "ConvertGpuOpsToNVVMOps",
    description: "Generate NVVM operations for gpu operations",
    anchor: Some(MODULE),
    options: OPTIONS,
    create: |o: &PassOptions| {
        if o.bool("use-bare-ptr-memref-call-conv") {
            return Err(
                "convert-gpu-to-nvvm: use-bare-ptr-memref-call-conv is not supported by silica"
                    .into(),
            );
        }
        if !o.list("allowed-dialects").is_empty() {
            return Err("convert-gpu-to-nvvm: allowed-dialects is not supported by silica".into());
        }
        let index_bits = match o.int("index-bitwidth") {
            0 => 64,
            n => u32::try_from(n)
                .map_err(|_| format!("index-bitwidth={n} is not a valid integer width"))?,
        };
        let mut patterns = Vec::new();
        silica_llvm::conversion::passes::standard_patterns(&mut patterns);
        gpu_patterns(&mut patterns);
        super::libdevice::patterns(&mut patterns);
        Ok(Box::new(GpuToNvvm {
            conversion: silica_llvm::conversion::passes::conversion_pass(
                "convert-gpu-to-nvvm",
                vec!["arith", "cf", "func", "memref", "index", "gpu"],
                patterns,
                index_bits,
                true,
            ),
        }))
    },
};
