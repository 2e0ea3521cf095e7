//! A CPU build of the device module (`F.cpu.ll`), for the fake CUDA
//! driver (`gpu/runtime/fake_cuda.c`) that tests the host side without a
//! GPU: the same functions for the host's triple, each special register
//! read from the fake driver (`silica_fake_cuda_register(n)`, `n` the
//! register's place in [`crate::nvvm::REGISTERS`]), the barrier its
//! `silica_fake_cuda_barrier()`, and beside each kernel
//! `<kernel>_silica_cpu(void** params)`, which calls it with the
//! launch's parameters as `cuLaunchKernel` passes them.

use crate::device::DeviceModule;
use crate::nvvm::REGISTERS;
use silica_ir::dialect::inherent_attr;
use silica_ir::rewrite::{NoListener, Rewriter};
use silica_ir::{AttrKind, Context, Diagnostic, Ir, OpId};
use silica_llvm::conversion::{GepIndex, Llvm};
use silica_llvm::dialect::types;

/// The suffix of a kernel's CPU entry.
pub const CPU_ENTRY: &str = "_silica_cpu";

fn string_of(ctx: &Context, ir: &Ir, op: OpId, key: &str) -> Option<String> {
    match ctx.attr_kind(inherent_attr(ctx, ir, op, key)?) {
        AttrKind::String { value, .. } => Some(String::from_utf8_lossy(value).into_owned()),
        _ => None,
    }
}

/// The CPU build's LLVM IR of `device` (which stays as it was).
pub fn cpu_code(
    ctx: &mut Context,
    ir: &mut Ir,
    device: &DeviceModule,
) -> Result<String, Box<Diagnostic>> {
    let module = ir.clone_op(device.module);
    ir.set_op_attrs(module, ctx.empty_dict());
    let mut calls = Vec::new();
    let mut kernels = Vec::new();
    ir.walk(module, &mut |o| match ctx.str(ir.op_name(o)) {
        "llvm.call_intrinsic" => calls.push(o),
        "llvm.func" => {
            let cc = inherent_attr(ctx, ir, o, "CConv")
                .and_then(|a| silica_llvm::dialect::attrs::keyword_of(ctx, a));
            if cc == Some("ptx_kernelcc") {
                kernels.push(o);
            }
        }
        _ => {}
    });
    let i32t = ctx.signless(32);
    let i64t = ctx.signless(64);
    let ptr = types::ptr(ctx, 0);
    let void = types::void(ctx);
    let mut listener = NoListener;
    let mut rw = Rewriter::new(ctx, ir, &mut listener);
    for call in calls {
        let Some(intrinsic) = string_of(rw.ctx, rw.ir, call, "intrin") else {
            continue;
        };
        let loc = rw.ir.op_loc(call);
        rw.set_insertion_point(call);
        let mut b = Llvm::on(&mut rw, loc, i64t);
        let value = if let Some(register) = intrinsic.strip_prefix("llvm.nvvm.read.ptx.sreg.") {
            let Some(n) = REGISTERS.iter().position(|r| *r == register) else {
                continue;
            };
            let n = {
                let a = b.rw.ctx.int_attr(i32t, n as i64);
                b.constant(a, i32t)
            };
            let c = b.call("silica_fake_cuda_register", &[n], &[i32t]);
            let at = module_first(&rw, module);
            silica_llvm::conversion::declare_function(
                &mut rw,
                at,
                "silica_fake_cuda_register",
                &[i32t],
                i32t,
            );
            Some(rw.ir.result(c, 0))
        } else if intrinsic.starts_with("llvm.nvvm.barrier") {
            b.call("silica_fake_cuda_barrier", &[], &[]);
            let at = module_first(&rw, module);
            silica_llvm::conversion::declare_function(
                &mut rw,
                at,
                "silica_fake_cuda_barrier",
                &[],
                void,
            );
            None
        } else {
            continue;
        };
        if let (Some(v), Some(r)) = (value, rw.ir.results(call).next()) {
            rw.ir.replace_all_uses(r, v);
        }
        rw.erase_op(call);
    }
    for kernel in kernels {
        let ccc = silica_llvm::dialect::attrs::keyword_attr(rw.ctx, "cconv", "ccc");
        silica_ir::dialect::set_inherent_attr(rw.ctx, rw.ir, kernel, "CConv", ccc);
        let name = string_of(rw.ctx, rw.ir, kernel, "sym_name").unwrap_or_default();
        let Some((_, params, _)) = silica_llvm::dialect::func_type(rw.ctx, rw.ir, kernel) else {
            continue;
        };
        let loc = rw.ir.op_loc(kernel);
        rw.set_insertion_point_after(kernel);
        let (_, entry) = silica_llvm::conversion::define_function(
            &mut rw,
            &format!("{name}{CPU_ENTRY}"),
            &[ptr],
            void,
        );
        let slots = rw.ir.block_args(entry)[0];
        rw.set_insertion_point_to_end(entry);
        let mut b = Llvm::on(&mut rw, loc, i64t);
        let mut values = Vec::new();
        for (i, &t) in params.iter().enumerate() {
            let at = b.gep(slots, ptr, &[GepIndex::Const(i as i32)], 0);
            let slot = b.value("llvm.load", &[at], ptr, &[]);
            values.push(b.value("llvm.load", &[slot], t, &[]));
        }
        b.call(&name, &values, &[]);
        b.op("llvm.return", &[], &[], &[]);
    }
    let text = silica_llvm::translate::translate_module(rw.ctx, rw.ir, module);
    rw.ir.erase_op(module);
    text
}

/// The first op of `module`'s body (where declarations go).
fn module_first(rw: &Rewriter<'_>, module: OpId) -> OpId {
    rw.ir
        .regions(module)
        .next()
        .and_then(|r| rw.ir.entry_block(r))
        .and_then(|b| rw.ir.first_op(b))
        .unwrap_or(module)
}
