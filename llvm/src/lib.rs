//! The llvm dialect and what connects it to the rest of silica, in three
//! layers: [`dialect`] (its types, attributes and ops with mlir-opt-22's
//! syntax, checks and folds), [`conversion`] (MLIR's `convert-*-to-llvm`
//! passes from arith, cf, func, index, math and memref into the dialect),
//! and [`translate`] (a module in the dialect to LLVM IR text, as
//! `mlir-translate --mlir-to-llvmir` writes it). `conversion` and
//! `translate` build on `dialect` and not on each other.

pub mod conversion;
pub mod dialect;
pub mod translate;

use silica_ir::pass::PassInfo;

/// The passes of this crate that `silica opt` runs: the conversions into
/// the llvm dialect, the passes that prepare them, and the dialect's own
/// `--llvm-add-comdats`.
pub static PASSES: &[&PassInfo] = &[
    &conversion::passes::CONVERT_ARITH_TO_LLVM,
    &conversion::passes::CONVERT_CF_TO_LLVM,
    &conversion::passes::CONVERT_FUNC_TO_LLVM,
    &conversion::passes::FINALIZE_MEMREF_TO_LLVM,
    &conversion::passes::CONVERT_MATH_TO_LLVM,
    &conversion::passes::CONVERT_INDEX_TO_LLVM,
    &conversion::passes::CONVERT_TO_LLVM,
    &conversion::module_attrs::LLVM_REQUEST_C_WRAPPERS,
    &conversion::module_attrs::SET_LLVM_MODULE_DATALAYOUT,
    &dialect::comdat::LLVM_ADD_COMDATS,
];
