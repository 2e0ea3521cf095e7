//! The llvm dialect (types, attributes, ops with mlir-opt-22's syntax),
//! the conversions into it, and LLVM IR emission.

mod alias;
mod assume;
pub mod attrs;
mod blockaddress;
mod call_ops;
mod cconv;
mod comdat;
mod constant_verify;
mod ctors;
pub mod eh;
mod extract_fold;
mod folds;
mod func_ops;
mod ifunc;
mod loop_attrs;
pub mod lower;
mod module_flags;
mod ops;
mod param_attrs;
pub mod switch;
pub mod translate;
pub mod types;

pub use func_ops::{aggregate_element, func_type, DYNAMIC_INDEX};

use silica_ir::dialect::{AttrHooks, DialectDef, TypeHooks};

/// The `llvm` dialect.
pub static LLVM: DialectDef = DialectDef {
    name: "llvm",
    ops: ops::OPS,
    attrs: Some(AttrHooks {
        parse: attrs::parse,
        print: attrs::print,
        type_of: None,
        alias: Some(loop_attrs::alias_name),
    }),
    types: Some(TypeHooks {
        parse: types::parse,
        print: types::print,
        vector_element: Some(types::is_ptr),
    }),
    materialize_constant: Some(folds::materialize_constant),
};
