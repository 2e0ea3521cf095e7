//! Passes that only mark ops for the LLVM lowering:
//! `--llvm-request-c-wrappers` asks `convert-func-to-llvm` for a
//! `_mlir_ciface_` wrapper of every function (`llvm.emit_c_interface`),
//! `--set-llvm-module-datalayout` gives the module its
//! `llvm.data_layout`.

use silica_ir::dialect::set_discardable_attr as set_attr;
use silica_ir::pass::{OptionKind, Pass, PassInfo, PassOptionInfo, PassOptions};
use silica_ir::{Context, Diagnostic, Ir, OpId};

struct RequestCWrappers;

impl Pass for RequestCWrappers {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let unit = ctx.unit_attr();
        set_attr(ctx, ir, op, "llvm.emit_c_interface", unit);
        Ok(())
    }
}

/// `llvm-request-c-wrappers`
pub static LLVM_REQUEST_C_WRAPPERS: PassInfo = PassInfo {
    argument: "llvm-request-c-wrappers",
    name: "LLVMRequestCWrappersPass",
    description: "Request C wrapper emission for all functions",
    anchor: Some("func.func"),
    options: &[],
    create: |_: &PassOptions| Ok(Box::new(RequestCWrappers)),
};

const DATA_LAYOUT: PassOptionInfo = PassOptionInfo {
    name: "data-layout",
    description: "String description (LLVM format) of the data layout that is expected on the produced module",
    kind: OptionKind::String,
    default: "",
};

struct SetDataLayout(String);

impl Pass for SetDataLayout {
    fn run(&self, ctx: &mut Context, ir: &mut Ir, op: OpId) -> Result<(), Box<Diagnostic>> {
        let layout = ctx.string_attr(self.0.as_bytes());
        set_attr(ctx, ir, op, "llvm.data_layout", layout);
        Ok(())
    }
}

/// `set-llvm-module-datalayout`
pub static SET_LLVM_MODULE_DATALAYOUT: PassInfo = PassInfo {
    argument: "set-llvm-module-datalayout",
    name: "SetLLVMModuleDataLayoutPass",
    description: "Attach a datalayout string as a module attribute",
    anchor: Some("builtin.module"),
    options: &[DATA_LAYOUT],
    create: |o: &PassOptions| Ok(Box::new(SetDataLayout(o.string("data-layout").to_string()))),
};
