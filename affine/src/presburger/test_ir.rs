//! Test support: parsing MLIR text with the dialects the affine layer
//! needs, and finding ops by name.

use silica_ir::parser::{parse, ParseOptions};
use silica_ir::{Context, Ir, OpId};

/// The context, IR and top-level module of `src`.
pub fn parse_module(src: &str) -> (Context, Ir, OpId) {
    let mut ctx = Context::new();
    ctx.register_dialect(&silica_dialects::arith::ARITH);
    ctx.register_dialect(&silica_dialects::func::FUNC_DIALECT);
    ctx.register_dialect(&silica_dialects::memref::MEMREF_DIALECT);
    ctx.register_dialect(&crate::AFFINE);
    let m = match parse(
        &mut ctx,
        "test.mlir",
        src.as_bytes(),
        ParseOptions::default(),
    ) {
        Ok(m) => m,
        Err(d) => panic!("parse error: {}", d.message),
    };
    (ctx, m.ir, m.top)
}

/// Every op named `name` under `top`, in walk order.
pub fn ops_named(ctx: &Context, ir: &Ir, top: OpId, name: &str) -> Vec<OpId> {
    let mut out = Vec::new();
    ir.walk(top, &mut |op| {
        if ctx.str(ir.op_name(op)) == name {
            out.push(op);
        }
    });
    out
}
