//! `silica hls --host` (with `--interface axi`): the host code that
//! calls the wrapped accelerator in place of the kernel, built as IR
//! (func/arith/cf/memref and a few llvm ops, `ops.rs`, `stub.rs`),
//! printed as `F_host.mlir`, lowered by silica's LLVM path
//! (`convert-to-llvm`: memref arguments become MLIR's descriptors, so a
//! caller compiled the same way links unchanged) and translated to
//! `F_host.ll`. It talks to the device through the driver API of
//! `hls/runtime/silica_dev.h`, which a backend implements.

mod ops;
pub mod stub;

use crate::model::interface::Interface;
use crate::model::register_map::RegisterMap;
use ops::Ops;
use silica_ir::pass::{Instrumentation, OpPassManager};
use silica_ir::printer::module_text;
use silica_ir::{Context, Ir, OpId, OpSpec};

/// The host code of a kernel.
pub struct HostCode {
    /// `F_host.mlir`: the stub before lowering.
    pub mlir: String,
    /// `F_host.ll`: the stub in LLVM IR.
    pub llvm: String,
}

/// The host stub of the kernel `func` of `ir` (its interface `iface`,
/// wrapped with `map`).
pub fn generate(
    ctx: &mut Context,
    ir: &Ir,
    func: OpId,
    iface: &Interface,
    map: &RegisterMap,
) -> Result<HostCode, String> {
    let (inputs, outputs) = crate::model::interface::function_type(ctx, ir, func)
        .ok_or_else(|| format!("'{}' has no function type", iface.top))?;
    let loc = ir.op_loc(func);
    let mut o = Ops {
        ctx,
        ir: Ir::new(),
        loc,
    };
    let region = o.ir.create_region();
    let block = o.ir.create_block();
    o.ir.append_block(region, block);
    let name = o.ctx.sym("builtin.module");
    let attrs = o.ctx.dict_attr(Vec::new());
    let module = o.ir.create_op(OpSpec {
        name,
        loc,
        operands: &[],
        result_types: &[],
        successors: &[],
        regions: &[region],
        attrs,
        props: None,
    });
    stub::build(&mut o, block, iface, map, &inputs, &outputs);
    let mut ir = o.ir;
    let ctx = o.ctx;
    let internal =
        |what: &str, d: &silica_ir::Diagnostic| format!("the host stub {what}: {}", d.message);
    silica_ir::verify::verify(ctx, &ir, module, Default::default())
        .map_err(|d| internal("does not verify", &d))?;
    let mlir = module_text(ctx, &ir, module);
    let mut pm = OpPassManager::new("builtin.module");
    for pass in [
        &silica_llvm::conversion::passes::CONVERT_TO_LLVM,
        &silica_ir::conversion::RECONCILE_UNREALIZED_CASTS,
    ] {
        pm.add_pass(pass, Vec::new())
            .map_err(|e| format!("cannot build the host stub's lowering: {e}"))?;
    }
    let instr = Instrumentation {
        verify_each: true,
        ..Instrumentation::default()
    };
    pm.run(ctx, &mut ir, module, &instr)
        .map_err(|d| internal("does not lower to the llvm dialect", &d))?;
    let llvm = silica_llvm::translate::translate_module(ctx, &ir, module)
        .map_err(|d| internal("does not translate to LLVM IR", &d))?;
    Ok(HostCode { mlir, llvm })
}
