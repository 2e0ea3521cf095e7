//! MLIR's bytecode format, read and written as `mlir-opt-22` does.
//!
//! [`write`] turns a module into the bytes `mlir-opt-22 --emit-bytecode`
//! writes for the same IR (versions 0 to 6); [`read`] turns any such file
//! back into a module. Builtin attributes and types use the builtin
//! dialect's encodings, LLVM loop annotations the LLVM dialect's, others
//! their text; op properties follow the
//! encoding MLIR's ODS gives each op ([`properties`]).
//!
//! - `encoding`: the primitives (varints, sections) and constants.
//! - `builtin`: the builtin dialect's attribute and type encodings.
//! - `llvm`: the LLVM dialect's (its loop annotations).
//! - `properties`: op properties layouts.
//! - `reader`, `writer`: the two directions; `use_list` what they share
//!   about use-list orders.

mod builtin;
pub mod encoding;
mod llvm;
pub mod properties;
mod reader;
mod use_list;
mod writer;

pub use reader::{read, read_lazy, LazyModule};
pub use writer::{write, WriteOptions};

/// The producer string `mlir-opt-22` records, which silica writes too so
/// that the bytes are the same.
pub const PRODUCER: &str = "MLIR22.1.8";

/// Whether `bytes` start like a bytecode file.
pub fn is_bytecode(bytes: &[u8]) -> bool {
    bytes.starts_with(encoding::MAGIC)
}
