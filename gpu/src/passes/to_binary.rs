//! `gpu-module-to-binary`: each `gpu.module` compiled for each of its
//! targets and replaced by a `gpu.binary` of the same name holding one
//! `#gpu.object` a target, as MLIR's pass does. silica compiles
//! `format=isa` (PTX: the module translated to LLVM IR, then LLVM's
//! pipeline and the NVPTX back end, `crate::device::ptx`) for
//! `#nvvm.target`s; the object's properties are MLIR's, the compile time
//! in milliseconds and the optimisation level. Cubins (`bin`, `fatbin`,
//! the default) need CUDA's `ptxas`, which is refused as mlir-opt-22
//! refuses it without a CUDA toolkit; LLVM bitcode objects (`llvm`) are
//! not written.

use crate::dialect::attrs::object;
use crate::dialect::binary;
use crate::dialect::kernel::{symbol_name, MODULE};
use crate::nvvm::target::Target;
use silica_ir::dialect::inherent_attr;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId};
use std::time::Instant;

/// What the objects hold.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Format {
    /// LLVM bitcode.
    Offload,
    /// PTX.
    Assembly,
    /// A cubin.
    Binary,
    /// A fat binary.
    Fatbin,
}

impl Format {
    /// MLIR's names of the formats (`format=`).
    fn parse(name: &str) -> Option<Format> {
        match name {
            "offloading" | "llvm" => Some(Format::Offload),
            "assembly" | "isa" => Some(Format::Assembly),
            "binary" | "bin" => Some(Format::Binary),
            "fatbinary" | "fatbin" => Some(Format::Fatbin),
            _ => None,
        }
    }
}

struct ModuleToBinary {
    format: Format,
}

fn error(ir: &Ir, op: OpId, msg: impl Into<String>) -> Box<Diagnostic> {
    Box::new(Diagnostic::error(ir.op_loc(op), msg.into()))
}

/// Whether `ptxas` is on the `PATH`.
fn has_ptxas() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join("ptxas").is_file()))
}

impl ModuleToBinary {
    /// The object of `m` compiled for `target`.
    fn compile(
        &self,
        ctx: &mut Context,
        ir: &mut Ir,
        m: OpId,
        target_attr: silica_ir::Attr,
    ) -> Result<silica_ir::Attr, Box<Diagnostic>> {
        let Some(target) = Target::of(ctx, target_attr) else {
            return Err(error(
                ir,
                m,
                "silica compiles gpu.modules for #nvvm.target only",
            ));
        };
        match self.format {
            Format::Assembly => {}
            Format::Binary | Format::Fatbin if !has_ptxas() => {
                return Err(error(ir, m, "Couldn't find the `ptxas` binary. Please specify the toolkit path, add the compiler to $PATH, or set one of the environment variables in `NVVM::getCUDAToolkitPath()`."));
            }
            Format::Binary | Format::Fatbin => {
                return Err(error(
                    ir,
                    m,
                    "silica does not run ptxas: compile with format=isa (PTX)",
                ));
            }
            Format::Offload => {
                return Err(error(
                    ir,
                    m,
                    "silica does not write LLVM bitcode objects: compile with format=isa (PTX)",
                ));
            }
        }
        let llvm_ir = crate::device::module_llvm_ir(ctx, ir, m, &target)?;
        let start = Instant::now();
        let ptx = crate::device::ptx(&llvm_ir, &target).map_err(|e| error(ir, m, e))?;
        let ms = start.elapsed().as_millis();
        let (i64t, i32t) = (ctx.signless(64), ctx.signless(32));
        let time = ctx.int_attr(i64t, i64::try_from(ms).unwrap_or(i64::MAX));
        let level = ctx.int_attr(i32t, target.opt_level);
        let entries = vec![
            (ctx.sym("LLVMIRToISATimeInMs"), time),
            (ctx.sym("O"), level),
        ];
        let properties = ctx.dict_attr(entries);
        Ok(object(
            ctx,
            target_attr,
            Some(properties),
            "assembly",
            ptx.as_bytes(),
        ))
    }
}

impl Pass for ModuleToBinary {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let mut modules = Vec::new();
        for r in ir.regions(op).collect::<Vec<_>>() {
            for b in ir.region_blocks(r).collect::<Vec<_>>() {
                modules.extend(
                    ir.block_ops(b)
                        .filter(|&o| ctx.str(ir.op_name(o)) == MODULE),
                );
            }
        }
        for m in modules {
            let targets = match inherent_attr(ctx, ir, m, "targets").map(|a| ctx.attr_kind(a)) {
                Some(AttrKind::Array(ts)) if !ts.is_empty() => ts.to_vec(),
                _ => return Err(error(ir, m, "the module has no target attributes")),
            };
            let mut objects = Vec::new();
            for t in targets {
                objects.push(self.compile(ctx, ir, m, t)?);
            }
            let name = symbol_name(ctx, ir, m).unwrap_or_default();
            let handler = inherent_attr(ctx, ir, m, "offloadingHandler");
            let loc = ir.op_loc(m);
            let bin = binary::create(ctx, ir, &name, handler, &objects, loc);
            ir.insert_op_before(m, bin);
            ir.erase_op(m);
        }
        Ok(())
    }
}

static OPTIONS: &[PassOptionInfo] = &[
    PassOptionInfo {
        name: "toolkit",
        description: "Toolkit path.",
        kind: OptionKind::String,
        default: "",
    },
    PassOptionInfo {
        name: "l",
        description: "Extra files to link to.",
        kind: OptionKind::List,
        default: "",
    },
    PassOptionInfo {
        name: "opts",
        description: "Command line options to pass to the tools.",
        kind: OptionKind::String,
        default: "",
    },
    PassOptionInfo {
        name: "format",
        description: "The target representation of the compilation process.",
        kind: OptionKind::String,
        default: "fatbin",
    },
    PassOptionInfo {
        name: "section",
        description: "ELF section where binary is to be located.",
        kind: OptionKind::String,
        default: "",
    },
];

/// `gpu-module-to-binary`
pub static GPU_MODULE_TO_BINARY: PassInfo = PassInfo {
    argument: "gpu-module-to-binary",
    name: "GpuModuleToBinaryPass",
    description: "Transforms a GPU module into a GPU binary.",
    anchor: None,
    options: OPTIONS,
    create: |o: &PassOptions| {
        let Some(format) = Format::parse(o.string("format")) else {
            return Err("Invalid format specified.".into());
        };
        if !o.list("l").is_empty() || !o.string("opts").is_empty() {
            return Err("gpu-module-to-binary: l and opts are not supported by silica".into());
        }
        Ok(Box::new(ModuleToBinary { format }))
    },
};
