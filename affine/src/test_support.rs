//! Parsing for the crate's unit tests: a context with the dialects
//! affine kernels use (and unregistered ops allowed), and a module read
//! from text.

use silica_ir::parser::{parse, ParseOptions, ParsedModule};
use silica_ir::Context;

/// `src` parsed in a fresh context; a parse error panics with its message.
pub(crate) fn parse_src(src: &str) -> (Context, ParsedModule) {
    let mut ctx = Context::new();
    for d in [
        &silica_dialects::arith::ARITH,
        &silica_dialects::func::FUNC_DIALECT,
        &silica_dialects::memref::MEMREF_DIALECT,
        &crate::AFFINE,
    ] {
        ctx.register_dialect(d);
    }
    ctx.allow_unregistered = true;
    let m = parse(
        &mut ctx,
        "test.mlir",
        src.as_bytes(),
        ParseOptions::default(),
    )
    .unwrap_or_else(|d| panic!("parse error: {}", d.message));
    (ctx, m)
}
