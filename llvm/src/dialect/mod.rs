//! The llvm dialect with mlir-opt-22's syntax: its types ([`types`]),
//! attributes ([`attrs`], with calling conventions in `cconv`, loop
//! annotations in `loop_attrs`, debug-info attributes in `di_attrs` (the
//! DWARF names they use in `dwarf_names`) and module flags in
//! `module_flags`), and
//! its ops: those with declarative formats (`ops`), those MLIR parses by
//! hand (`func_ops`: functions, globals, allocas, GEPs, aggregates), calls
//! (`call_ops`), exception handling ([`eh`]), [`switch`], block addresses
//! (`blockaddress`), COMDATs with `--llvm-add-comdats` (`comdat`),
//! aliases, ifuncs, global ctors/dtors and assumptions (`alias`, `ifunc`,
//! `ctors`, `assume`); their checks (`constant_verify`, `param_attrs`)
//! and folds (`folds`, `extract_fold`). Nothing here depends on the
//! conversions into the dialect or on the translation out of it.

pub(crate) mod alias;
pub(crate) mod assume;
pub mod attrs;
pub(crate) mod blockaddress;
mod call_ops;
pub(crate) mod cconv;
pub(crate) mod comdat;
mod constant_verify;
pub(crate) mod ctors;
pub(crate) mod di_attrs;
mod dwarf_names;
pub mod eh;
mod extract_fold;
mod folds;
pub(crate) mod func_ops;
pub(crate) mod ifunc;
pub(crate) mod loop_attrs;
pub(crate) mod module_flags;
pub(crate) mod ops;
mod param_attrs;
pub mod switch;
pub mod types;

pub use func_ops::{aggregate_element, func_type, DYNAMIC_INDEX};

use silica_ir::dialect::{AttrHooks, DialectDef, TypeHooks};

/// The alias name of an llvm attribute with this mnemonic, if it gets
/// one: loop annotations and their parts, debug-info attributes.
fn alias_name(mnemonic: &str) -> Option<&'static str> {
    loop_attrs::alias_name(mnemonic).or_else(|| di_attrs::alias_name(mnemonic))
}

/// The `llvm` dialect.
pub static LLVM: DialectDef = DialectDef {
    name: "llvm",
    ops: ops::OPS,
    attrs: Some(AttrHooks {
        parse: attrs::parse,
        print: attrs::print,
        type_of: None,
        alias: Some(alias_name),
    }),
    types: Some(TypeHooks {
        parse: types::parse,
        print: types::print,
        vector_element: Some(types::is_ptr),
    }),
    materialize_constant: Some(folds::materialize_constant),
};
