//! `gpu-to-llvm`: the host side to the llvm dialect, as MLIR's pass
//! converts it when the kernels are compiled apart: after the greedy
//! folding, arith, cf, func, memref, index and math as `convert-to-llvm`
//! converts them (in the `gpu.module`s too), and each `gpu.launch_func`
//! rebuilt on the converted values (the sizes `i64`, printed `: i64`),
//! a memref argument expanded into its descriptor's fields (pointers,
//! offset, sizes, strides), or into its aligned pointer alone with
//! `use-bare-pointers-for-kernels`. The launch, the `gpu.module`s and
//! `gpu.binary`s stay: translating them to runtime calls is LLVM IR
//! translation's work in MLIR, and `silica gpu`'s host side
//! (`crate::host`) does its own.

use crate::dialect::launch_func::{
    operands as launch_operands, parts, LaunchOperands, LAUNCH_FUNC,
};
use silica_ir::conversion::{ConversionPattern, ConversionRewriter};
use silica_ir::dialect::inherent_attr;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::rewrite::{apply_patterns_greedily, GreedyConfig, PatternSet, RegionSimplify};
use silica_ir::{Context, Diagnostic, Ir, OpId, OpSpec, TypeKind, ValueId};
use silica_llvm::conversion::Llvm;

/// The launch on the converted `operands`, memrefs expanded.
fn legalize_launch(
    cr: &mut ConversionRewriter<'_, '_>,
    op: OpId,
    operands: &[ValueId],
    bare: bool,
) -> bool {
    let (ctx, ir) = (&*cr.rw.ctx, &*cr.rw.ir);
    let Some(groups) = launch_operands(ctx, ir, op) else {
        return false;
    };
    let Some(kernel) = inherent_attr(ctx, ir, op, "kernel") else {
        return false;
    };
    // A launch on converted values (this pattern's own) is legal.
    let mut all = groups.grid.iter().chain(&groups.block).chain(&groups.args);
    let converted = |v: &ValueId| {
        !matches!(
            ctx.type_kind(ir.value_type(*v)),
            TypeKind::Index | TypeKind::MemRef { .. } | TypeKind::UnrankedMemRef { .. }
        )
    };
    if all.all(converted) {
        return false;
    }
    let ranks: Vec<Option<usize>> = groups
        .args
        .iter()
        .map(|&a| match ctx.type_kind(ir.value_type(a)) {
            TypeKind::MemRef { shape, .. } => Some(shape.len()),
            _ => None,
        })
        .collect();
    let first_arg = 6 + usize::from(groups.dynamic_shared.is_some());
    let (loc, attrs) = (ir.op_loc(op), ir.op_attrs(op));
    let mut b = Llvm::new(cr, loc);
    let mut args = Vec::new();
    for (&value, rank) in operands[first_arg..].iter().zip(ranks) {
        match rank {
            None => args.push(value),
            Some(_) if bare => args.push(b.extract(value, &[1])),
            Some(rank) => {
                args.extend((0..3).map(|k| b.extract(value, &[k])));
                for field in [3, 4] {
                    for i in 0..rank {
                        args.push(b.extract(value, &[field, i as i64]));
                    }
                }
            }
        }
    }
    let launch = LaunchOperands {
        grid: [operands[0], operands[1], operands[2]],
        block: [operands[3], operands[4], operands[5]],
        dynamic_shared: groups.dynamic_shared.map(|_| operands[6]),
        args,
    };
    let (all, props) = parts(cr.rw.ctx, kernel, &launch);
    let name = cr.rw.ctx.sym(LAUNCH_FUNC);
    cr.rw.create(OpSpec {
        name,
        loc,
        operands: &all,
        result_types: &[],
        successors: &[],
        regions: &[],
        attrs,
        props: Some(props),
    });
    cr.replace_op(op, &[]);
    true
}

/// The greedy folding, then the conversion.
struct GpuToLlvm {
    conversion: Box<dyn Pass>,
}

impl Pass for GpuToLlvm {
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
        name: "use-bare-pointers-for-host",
        description: "Use bare pointers to pass memref arguments to host functions. All memrefs must have static shape.",
        kind: OptionKind::Bool,
        default: "false",
    },
    PassOptionInfo {
        name: "use-bare-pointers-for-kernels",
        description: "Use bare pointers to pass memref arguments to kernels. The kernel must use the same setting for this option.",
        kind: OptionKind::Bool,
        default: "false",
    },
    PassOptionInfo {
        name: "intersperse-sizes-for-kernels",
        description: "Inserts a size_t argument following each memref argument, containing the static size in bytes of the buffer. Incompatible arguments are rejected. This is intended for use by the Vulkan runtime with the kernel bare pointer calling convention, to enable dynamic binding of buffers as arguments without static type info.",
        kind: OptionKind::Bool,
        default: "false",
    },
];

/// `gpu-to-llvm`
pub static GPU_TO_LLVM: PassInfo = PassInfo {
    argument: "gpu-to-llvm",
    name: "GpuToLLVMConversionPass",
    description: "Convert GPU dialect to LLVM dialect with GPU runtime calls",
    anchor: None,
    options: OPTIONS,
    create: |o: &PassOptions| {
        for unsupported in [
            "use-bare-pointers-for-host",
            "intersperse-sizes-for-kernels",
        ] {
            if o.bool(unsupported) {
                return Err(format!(
                    "gpu-to-llvm: {unsupported} is not supported by silica"
                ));
            }
        }
        let mut patterns = Vec::new();
        silica_llvm::conversion::passes::standard_patterns(&mut patterns);
        silica_llvm::conversion::passes::math_patterns(&mut patterns);
        patterns.push(if o.bool("use-bare-pointers-for-kernels") {
            ConversionPattern {
                root: LAUNCH_FUNC,
                name: "LegalizeLaunchFuncOpPattern",
                benefit: 1,
                apply: |cr, op, operands| legalize_launch(cr, op, operands, true),
            }
        } else {
            ConversionPattern {
                root: LAUNCH_FUNC,
                name: "LegalizeLaunchFuncOpPattern",
                benefit: 1,
                apply: |cr, op, operands| legalize_launch(cr, op, operands, false),
            }
        });
        Ok(Box::new(GpuToLlvm {
            conversion: silica_llvm::conversion::passes::conversion_pass(
                "gpu-to-llvm",
                vec!["arith", "cf", "func", "memref", "index"],
                patterns,
                64,
                false,
            ),
        }))
    },
};
