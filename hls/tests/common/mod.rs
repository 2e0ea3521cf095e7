//! Shared by the integration tests that run the whole flow: a context
//! with every dialect a kernel is written in and every dialect the flow
//! emits.

use silica_ir::Context;

/// A context with the input dialects (arith, func, cf, math, index, scf,
/// memref, ub, affine, llvm) and the circuit ones (hw, comb, seq).
pub fn context() -> Context {
    let mut ctx = Context::new();
    for d in [
        &silica_dialects::arith::ARITH,
        &silica_dialects::func::FUNC_DIALECT,
        &silica_dialects::cf::CF,
        &silica_dialects::math::MATH,
        &silica_dialects::index::INDEX_DIALECT,
        &silica_dialects::scf::SCF,
        &silica_dialects::memref::MEMREF_DIALECT,
        &silica_dialects::ub::UB,
        &silica_affine::AFFINE,
        &silica_linalg::LINALG,
        &silica_llvm::dialect::LLVM,
        &silica_hw_dialects::HW,
        &silica_hw_dialects::COMB,
        &silica_hw_dialects::SEQ,
    ] {
        ctx.register_dialect(d);
    }
    ctx
}
