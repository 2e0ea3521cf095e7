//! Unit-test helpers: a context with the input dialects, a kernel
//! lifted (and its `index` width fixed) from MLIR text, a circuit
//! parsed from hw/comb/seq text, a kernel's interface, and a
//! reproducible stream of random words.

use crate::model::interface::{Access, Arg, ArgKind, Interface, Memory, ResultPort, Scalar};
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
    lifted(text, top, false)
}

/// [`kernel`] with the directives the input's `hls.*` attributes give
/// (partitions, unroll factors, ...).
pub fn kernel_with_attributes(text: &str, top: &str) -> Kernel {
    lifted(text, top, true)
}

fn lifted(text: &str, top: &str, attributes: bool) -> Kernel {
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
    let directives = if attributes {
        crate::flow::front::directives::resolve(&mut ctx, &m.ir, func, top, None)
            .unwrap_or_else(|d| panic!("{}", d.message))
    } else {
        crate::model::directives::Directives::default()
    };
    let mut k = crate::flow::front::lift_function(&mut ctx, &m.ir, func, top, true, &directives)
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

/// The interface of a kernel `k` for tests: `args` by name, in order, and
/// results of the given types and widths.
pub fn interface(args: &[(&str, ArgKind)], results: &[(&str, u32)]) -> Interface {
    Interface {
        top: "k".into(),
        interface: "memory".into(),
        target: "generic".into(),
        clock_ns: 10.0,
        args: args
            .iter()
            .enumerate()
            .map(|(index, (name, kind))| Arg {
                index,
                name: name.to_string(),
                kind: kind.clone(),
                returned: None,
            })
            .collect(),
        streams: Vec::new(),
        results: results
            .iter()
            .enumerate()
            .map(|(index, &(ty, width))| ResultPort {
                index,
                name: format!("result{index}"),
                ty: ty.into(),
                width,
            })
            .collect(),
    }
}

/// A scalar argument of type `ty`, `width` bits.
pub fn scalar(ty: &str, width: u32) -> ArgKind {
    ArgKind::Scalar(Scalar {
        ty: ty.into(),
        width,
    })
}

/// A memory argument of type `ty` (`shape`, `width`-bit elements).
pub fn memory(ty: &str, shape: &[u64], width: u32, access: Access) -> ArgKind {
    let words = shape.iter().product();
    ArgKind::Memory(Memory::new(ty.into(), shape.to_vec(), words, width, access))
}

/// An xorshift stream of 64-bit words from `seed` (nonzero): the same
/// words on every run.
pub fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}
