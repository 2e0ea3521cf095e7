//! Unit-test helpers: a context with the input dialects, a kernel
//! lifted (and its `index` width fixed) from MLIR text, and a circuit
//! parsed from hw/comb/seq text.

use crate::model::kernel::Kernel;
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::{BlockId, Context, Ir, OpId};

/// A context with the dialects kernels are written in.
pub fn context() -> Context {
    let mut ctx = Context::new();
    for d in [
        &silica_dialects::arith::ARITH,
        &silica_dialects::func::FUNC_DIALECT,
        &silica_dialects::math::MATH,
        &silica_dialects::scf::SCF,
        &silica_dialects::memref::MEMREF_DIALECT,
        &silica_affine::AFFINE,
    ] {
        ctx.register_dialect(d);
    }
    ctx
}

/// The kernel `top` of `text`, with its `index` width fixed.
pub fn kernel(text: &str, top: &str) -> Kernel {
    let mut ctx = context();
    let m = parse(
        &mut ctx,
        "test.mlir",
        text.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap_or_else(|d| panic!("{}", d.message));
    let func = crate::flow::front::find_top(&ctx, &m.ir, m.top, top)
        .unwrap_or_else(|d| panic!("{}", d.message));
    let mut k = crate::flow::front::lift_function(
        &mut ctx,
        &m.ir,
        func,
        top,
        true,
        &crate::model::directives::Directives::default(),
    )
    .unwrap_or_else(|d| panic!("{}", d.message));
    crate::flow::analysis::ranges::narrow_index(&mut k);
    k
}

/// The `builtin.module` of hw/comb/seq text, parsed.
pub fn circuit(text: &str) -> (Context, Ir, OpId) {
    let mut ctx = Context::new();
    for d in [
        &silica_hw_dialects::HW,
        &silica_hw_dialects::COMB,
        &silica_hw_dialects::seq::SEQ,
    ] {
        ctx.register_dialect(d);
    }
    let m = parse(
        &mut ctx,
        "test.mlir",
        text.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap_or_else(|d| panic!("{}", d.message));
    (ctx, m.ir, m.top)
}

/// The first `hw.module` of hw/comb/seq text and its body, parsed.
pub fn circuit_module(text: &str) -> (Context, Ir, OpId, BlockId) {
    let (ctx, ir, top) = circuit(text);
    let module = ir
        .block_ops(ir.entry_block(ir.regions(top).next().unwrap()).unwrap())
        .next()
        .unwrap();
    let block = ir.entry_block(ir.regions(module).next().unwrap()).unwrap();
    (ctx, ir, module, block)
}
