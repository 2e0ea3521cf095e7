//! The conversion passes with mlir-opt-22's names and options. Each runs
//! a partial conversion (the llvm dialect and casts legal) with its
//! dialects' patterns; an op of those dialects that the pass has no
//! pattern for is an error at the op that names the pass (ops whose
//! patterns decline, such as ones on types LLVM lacks, stay as in MLIR).

use silica_ir::conversion::{
    apply_partial_conversion, ConversionPattern, ConversionTarget, Legality,
};
use silica_ir::diag::Diagnostic;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{Context, Ir, OpId};

/// Ops MLIR's conversions to llvm leave alone: views for other passes
/// (`expand-strided-metadata` rewrites them into `reinterpret_cast`), and
/// DMA ops, which have no LLVM lowering (the translator rejects them).
const LATER: &[&str] = &[
    "memref.subview",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.dma_start",
    "memref.dma_wait",
];

/// One conversion pass: what it converts and how.
struct Conversion {
    argument: &'static str,
    /// Dialects whose ops must all be converted.
    dialects: Vec<&'static str>,
    patterns: Vec<ConversionPattern>,
    /// The width of `index` in LLVM.
    index_bits: u32,
    /// Whether the target marks `unrealized_conversion_cast` legal; where
    /// it does not (as MLIR's index and `convert-to-llvm` passes), the
    /// casts the input already has are folded.
    casts_legal: bool,
}

impl Pass for Conversion {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut target = ConversionTarget::new();
        target.set_dialect("llvm", Legality::Legal);
        if self.casts_legal {
            target.set_op(silica_ir::conversion::CAST, Legality::Legal);
        }
        let types = super::type_converter(self.index_bits);
        apply_partial_conversion(ctx, ir, op, &target, &self.patterns, &types)?;
        // Ops with no pattern at all are reported; ops whose patterns
        // declined (types LLVM lacks, say) stay, with what they hold, as
        // in MLIR.
        let roots: rustc_hash::FxHashSet<&str> = self.patterns.iter().map(|p| p.root).collect();
        let mut left = None;
        ir.walk(op, &mut |o| {
            // The op the pass runs on (a `gpu.module`) is not converted.
            if left.is_some() || o == op {
                return;
            }
            let name = ctx.str(ir.op_name(o));
            let dialect = name.split('.').next().unwrap_or("");
            // Terminators of an op whose pattern declined stay with it.
            let in_declined = ir
                .parent_op(o)
                .is_some_and(|p| roots.contains(ctx.str(ir.op_name(p))));
            if self.dialects.contains(&dialect)
                && !roots.contains(name)
                && !LATER.contains(&name)
                && !in_declined
            {
                left = Some(o);
            }
        });
        if let Some(o) = left {
            let name = ctx.str(ir.op_name(o)).to_string();
            return Err(Box::new(Diagnostic::error(
                ir.op_loc(o),
                format!(
                    "failed to legalize operation '{name}': {} has no lowering for it",
                    self.argument
                ),
            )));
        }
        Ok(())
    }
}

/// Adds a dialect's patterns to a list.
type AddPatterns<'f> = &'f dyn Fn(&mut Vec<ConversionPattern>);

fn conversion(
    argument: &'static str,
    dialects: &'static [&'static str],
    add: &[AddPatterns<'_>],
    index_bits: u32,
    casts_legal: bool,
) -> Box<dyn Pass> {
    let mut patterns = Vec::new();
    for f in add {
        f(&mut patterns);
    }
    Box::new(Conversion {
        argument,
        dialects: dialects.to_vec(),
        patterns,
        index_bits,
        casts_legal,
    })
}

const BARE_PTR: PassOptionInfo = PassOptionInfo {
    name: "use-bare-ptr-memref-call-conv",
    description: "Replace FuncOp's MemRef arguments with bare pointers to the MemRef element types",
    kind: OptionKind::Bool,
    default: "false",
};

const INDEX_BITWIDTH: PassOptionInfo = PassOptionInfo {
    name: "index-bitwidth",
    description: "Bitwidth of the index type, 0 to use size of machine word",
    kind: OptionKind::UInt,
    default: "0",
};

/// The width of `index` the `index-bitwidth` option asks for (0: the
/// machine word, 64 bits).
fn index_bits(o: &PassOptions) -> Result<u32, String> {
    match o.int("index-bitwidth") {
        0 => Ok(64),
        n => u32::try_from(n)
            .ok()
            .filter(|n| *n <= silica_ir::types::MAX_INT_WIDTH)
            .ok_or_else(|| format!("index-bitwidth={n} is not a valid integer width")),
    }
}

/// `convert-arith-to-llvm`
pub static CONVERT_ARITH_TO_LLVM: PassInfo = PassInfo {
    argument: "convert-arith-to-llvm",
    name: "ArithToLLVMConversionPass",
    description: "Convert Arith dialect to LLVM dialect",
    anchor: None,
    options: &[INDEX_BITWIDTH],
    create: |o| {
        let bits = index_bits(o)?;
        Ok(conversion(
            "convert-arith-to-llvm",
            &["arith"],
            &[&super::arith::patterns],
            bits,
            true,
        ))
    },
};

/// `convert-cf-to-llvm`
pub static CONVERT_CF_TO_LLVM: PassInfo = PassInfo {
    argument: "convert-cf-to-llvm",
    name: "ConvertControlFlowToLLVMPass",
    description: "Convert ControlFlow operations to the LLVM dialect",
    anchor: None,
    options: &[INDEX_BITWIDTH],
    create: |o| {
        let bits = index_bits(o)?;
        Ok(conversion(
            "convert-cf-to-llvm",
            &["cf"],
            &[&super::cf::patterns],
            bits,
            true,
        ))
    },
};

/// `convert-func-to-llvm`
pub static CONVERT_FUNC_TO_LLVM: PassInfo = PassInfo {
    argument: "convert-func-to-llvm",
    name: "ConvertFuncToLLVMPass",
    description: "Convert from the Func dialect to the LLVM dialect",
    anchor: Some("builtin.module"),
    options: &[BARE_PTR, INDEX_BITWIDTH],
    create: |o| {
        let bits = index_bits(o)?;
        let bare = o.bool("use-bare-ptr-memref-call-conv");
        Ok(conversion(
            "convert-func-to-llvm",
            &["func"],
            &[&|v: &mut Vec<ConversionPattern>| super::func::patterns(v, bare)],
            bits,
            true,
        ))
    },
};

/// `finalize-memref-to-llvm`
pub static FINALIZE_MEMREF_TO_LLVM: PassInfo = PassInfo {
    argument: "finalize-memref-to-llvm",
    name: "FinalizeMemRefToLLVMConversionPass",
    description: "Finalize MemRef dialect to LLVM dialect conversion",
    anchor: Some("builtin.module"),
    options: &[
        INDEX_BITWIDTH,
        PassOptionInfo {
            name: "use-aligned-alloc",
            description: "Use aligned_alloc in place of malloc for heap allocations",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "use-generic-functions",
            description: "Use generic allocation and deallocation functions instead of the classic 'malloc', 'aligned_alloc' and 'free' functions",
            kind: OptionKind::Bool,
            default: "false",
        },
    ],
    create: |o| {
        let bits = index_bits(o)?;
        let generic = o.bool("use-generic-functions");
        let aligned = o.bool("use-aligned-alloc");
        Ok(conversion(
            "finalize-memref-to-llvm",
            &["memref"],
            &[&|v: &mut Vec<ConversionPattern>| super::memref::patterns(v, aligned, generic)],
            bits,
            true,
        ))
    },
};

/// `convert-math-to-llvm`
pub static CONVERT_MATH_TO_LLVM: PassInfo = PassInfo {
    argument: "convert-math-to-llvm",
    name: "ConvertMathToLLVMPass",
    description: "Convert Math dialect to LLVM dialect",
    anchor: None,
    options: &[PassOptionInfo {
        name: "approximate-log1p",
        description: "Enable approximation of Log1p.",
        kind: OptionKind::Bool,
        default: "true",
    }],
    create: |o| {
        let patterns: &[AddPatterns<'_>] = if o.bool("approximate-log1p") {
            &[&super::math::patterns]
        } else {
            &[&super::math::patterns_exact_log1p]
        };
        Ok(conversion("convert-math-to-llvm", &[], patterns, 64, true))
    },
};

/// `convert-index-to-llvm`
pub static CONVERT_INDEX_TO_LLVM: PassInfo = PassInfo {
    argument: "convert-index-to-llvm",
    name: "ConvertIndexToLLVMPass",
    description: "Lower the `index` dialect to the `llvm` dialect.",
    anchor: None,
    options: &[INDEX_BITWIDTH],
    create: |o| {
        let bits = index_bits(o)?;
        Ok(conversion(
            "convert-index-to-llvm",
            &["index"],
            &[&super::index::patterns],
            bits,
            false,
        ))
    },
};

/// A conversion pass named `argument` (its errors name it) with
/// `patterns`: every op of `dialects` must be converted; `index` is an
/// integer of `index_bits`; `casts_legal` keeps the casts the
/// conversion leaves between converted and unconverted ops.
pub fn conversion_pass(
    argument: &'static str,
    dialects: Vec<&'static str>,
    patterns: Vec<ConversionPattern>,
    index_bits: u32,
    casts_legal: bool,
) -> Box<dyn Pass> {
    Box::new(Conversion {
        argument,
        dialects,
        patterns,
        index_bits,
        casts_legal,
    })
}

/// The patterns of the dialects every conversion to llvm takes (arith,
/// cf, func, memref, index), as `convert-to-llvm` has them.
pub fn standard_patterns(out: &mut Vec<ConversionPattern>) {
    for (name, add) in ALL {
        if *name != "math" {
            add(out);
        }
    }
}

/// The patterns of `convert-math-to-llvm` (LLVM's intrinsics).
pub fn math_patterns(out: &mut Vec<ConversionPattern>) {
    super::math::patterns(out);
}

/// A dialect and the function adding its patterns.
type DialectPatterns = (&'static str, fn(&mut Vec<ConversionPattern>));

/// The dialects `convert-to-llvm` converts, with their pattern sets.
const ALL: &[DialectPatterns] = &[
    ("arith", super::arith::patterns),
    ("cf", super::cf::patterns),
    ("func", |v| super::func::patterns(v, false)),
    ("memref", |v| super::memref::patterns(v, false, false)),
    ("math", super::math::patterns),
    ("index", super::index::patterns),
    ("ub", super::ub::patterns),
];

/// `convert-to-llvm`: every conversion above in one (or those of the
/// dialects in `filter-dialects`).
pub static CONVERT_TO_LLVM: PassInfo = PassInfo {
    argument: "convert-to-llvm",
    name: "ConvertToLLVMPass",
    description: "Convert to LLVM via dialect interfaces found in the input IR",
    anchor: None,
    options: &[
        PassOptionInfo {
            name: "filter-dialects",
            description: "Test conversion patterns of only the specified dialects",
            kind: OptionKind::List,
            default: "",
        },
        PassOptionInfo {
            name: "dynamic",
            description: "Use op conversion attributes to configure the conversion",
            kind: OptionKind::Bool,
            default: "false",
        },
        PassOptionInfo {
            name: "allow-pattern-rollback",
            description: "Experimental performance flag to disallow pattern rollback",
            kind: OptionKind::Bool,
            default: "true",
        },
    ],
    create: |o| {
        let filter = o.list("filter-dialects");
        if let Some(d) = filter.iter().find(|d| !ALL.iter().any(|(n, _)| n == d)) {
            return Err(format!("no conversion to llvm for dialect '{d}'"));
        }
        let chosen: Vec<&DialectPatterns> = ALL
            .iter()
            .filter(|(n, _)| filter.is_empty() || filter.iter().any(|d| d == n))
            .collect();
        let mut patterns = Vec::new();
        for (_, add) in &chosen {
            add(&mut patterns);
        }
        let dialects: Vec<&'static str> = chosen
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| *n != "math")
            .collect();
        Ok(Box::new(Conversion {
            argument: "convert-to-llvm",
            dialects,
            patterns,
            index_bits: 64,
            casts_legal: false,
        }))
    },
};
