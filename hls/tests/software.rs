//! The software side of the co-simulation on its own: kernels that copy
//! their inputs to their outputs must print exactly the stimuli, for
//! every kind of value (narrow, wide, float, index, 0-d memories), and
//! a kernel with a known result must print it.

use num_bigint::BigUint;
use silica_hls::model::interface::{self, Interface};
use silica_hls::verification::cosim::process::Limits;
use silica_hls::verification::cosim::stimuli::Stimuli;
use silica_hls::verification::cosim::{software, Options};
use silica_ir::parser::{parse, ParseOptions};
use silica_ir::Context;
use std::time::Duration;

fn context() -> Context {
    let mut ctx = Context::new();
    for d in [
        &silica_dialects::arith::ARITH,
        &silica_dialects::func::FUNC_DIALECT,
        &silica_dialects::cf::CF,
        &silica_dialects::math::MATH,
        &silica_dialects::scf::SCF,
        &silica_dialects::memref::MEMREF_DIALECT,
        &silica_affine::AFFINE,
        &silica_llvm::dialect::LLVM,
    ] {
        ctx.register_dialect(d);
    }
    ctx
}

/// Runs `top` of `src` on the stimuli of `seed`; returns the interface,
/// the stimuli and the printed outputs.
fn run(
    src: &str,
    top: &str,
    seed: u64,
    options: &Options,
) -> (
    Interface,
    Stimuli,
    silica_hls::verification::cosim::outputs::Outputs,
) {
    let mut ctx = context();
    let m = parse(&mut ctx, "k.mlir", src.as_bytes(), ParseOptions::default()).unwrap();
    let func = silica_ir::symbols::lookup(&ctx, &m.ir, m.top, top).unwrap();
    let iface = interface::build(&ctx, &m.ir, func, "generic", 10.0).unwrap();
    let stimuli = Stimuli::generate(&iface, seed, options).unwrap();
    let dir =
        std::env::temp_dir().join(format!("silica-software-test-{}-{top}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let limits = Limits {
        timeout: Duration::from_secs(120),
    };
    let out = software::run(&mut ctx, &m.ir, m.top, &iface, &stimuli, &dir, &limits).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    (iface, stimuli, out)
}

#[test]
fn copies_print_their_inputs_bit_for_bit() {
    let src = r#"
      func.func @copy(%a: memref<3xi1>, %b: memref<2x2xi7>, %c: memref<2xi129>, %d: memref<2xf64>,
                      %e: memref<2xindex>, %f: memref<i16>, %g: memref<2xbf16>,
                      %s: i129, %t: f32, %u: i1, %n: index)
                      -> (i129, f32, i1, index) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %x = memref.load %f[] : memref<i16>
        memref.store %x, %f[] : memref<i16>
        %y = memref.load %d[%c1] : memref<2xf64>
        memref.store %y, %d[%c1] : memref<2xf64>
        %z = memref.load %c[%c0] : memref<2xi129>
        memref.store %z, %c[%c0] : memref<2xi129>
        return %s, %t, %u, %n : i129, f32, i1, index
      }"#;
    let (iface, stimuli, out) = run(src, "copy", 9, &Options::default());
    let memories: Vec<&Vec<BigUint>> = iface
        .memories()
        .map(|(a, _)| &stimuli.values[a.index])
        .collect();
    assert_eq!(out.memories.iter().collect::<Vec<_>>(), memories);
    let scalars: Vec<&BigUint> = iface
        .scalars()
        .map(|(a, _)| &stimuli.values[a.index][0])
        .collect();
    assert_eq!(out.results.iter().collect::<Vec<_>>(), scalars);
    // Wide values use all their bits somewhere.
    assert!(out.memories[2]
        .iter()
        .chain([&out.results[0]])
        .any(|v| v.bits() > 64));
}

#[test]
fn kernel_results_are_computed() {
    // vneg negates the first n words of A into C and returns n.
    let src = std::fs::read_to_string(format!(
        "{}/tests/fixtures/vneg.mlir",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let options = Options {
        scalars: vec![("n".into(), 2u8.into())],
        ..Options::default()
    };
    let (_, stimuli, out) = run(&src, "vneg", 5, &options);
    let (a, c) = (&stimuli.values[0], &stimuli.values[2]);
    let sign = BigUint::from(1u32 << 31);
    let expect: Vec<BigUint> = (0..5)
        .map(|i| if i < 2 { &a[i] ^ &sign } else { c[i].clone() })
        .collect();
    assert_eq!(out.memories, vec![a.clone(), expect]);
    assert_eq!(out.results, vec![BigUint::from(2u8)]);
}

#[test]
fn harness_names_in_the_kernel_module_are_refused() {
    let mut ctx = context();
    let src =
        "func.func @k(%a: i8) -> i8 { return %a : i8 }\nfunc.func private @cosim_main() -> i32";
    let m = parse(&mut ctx, "k.mlir", src.as_bytes(), ParseOptions::default()).unwrap();
    let func = silica_ir::symbols::lookup(&ctx, &m.ir, m.top, "k").unwrap();
    let iface = interface::build(&ctx, &m.ir, func, "generic", 10.0).unwrap();
    let stimuli = Stimuli::generate(&iface, 1, &Options::default()).unwrap();
    let limits = Limits {
        timeout: Duration::from_secs(10),
    };
    let err = software::run(
        &mut ctx,
        &m.ir,
        m.top,
        &iface,
        &stimuli,
        &std::env::temp_dir(),
        &limits,
    )
    .unwrap_err();
    assert_eq!(
        err,
        silica_hls::verification::cosim::CosimError::Input(
            "the kernel module defines '@cosim_main', a name the co-simulation harness uses".into()
        )
    );
}

#[test]
fn dma_transfers_are_plain_copies() {
    // Two rows of three words from A[1][2] into an on-chip buffer (the
    // slow side strided: 3 words every 8), waited for, then the buffer
    // contiguously into B[0][0]; B's other words stay as they were.
    let src = r#"
      func.func @dma(%a: memref<4x8xi32>, %b: memref<4x8xi32>) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %c3 = arith.constant 3 : index
        %c6 = arith.constant 6 : index
        %c8 = arith.constant 8 : index
        %buf = memref.alloc() : memref<2x3xi32, 1>
        %tag = memref.alloc() : memref<2xi32>
        affine.dma_start %a[%c1, %c2], %buf[%c0, %c0], %tag[%c0], %c6, %c8, %c3
          : memref<4x8xi32>, memref<2x3xi32, 1>, memref<2xi32>
        affine.dma_wait %tag[%c0], %c6 : memref<2xi32>
        affine.dma_start %buf[%c0, %c0], %b[%c0, %c0], %tag[%c1], %c6
          : memref<2x3xi32, 1>, memref<4x8xi32>, memref<2xi32>
        affine.dma_wait %tag[%c1], %c6 : memref<2xi32>
        memref.dealloc %tag : memref<2xi32>
        memref.dealloc %buf : memref<2x3xi32, 1>
        return
      }"#;
    let (_, stimuli, out) = run(src, "dma", 3, &Options::default());
    let (a, b) = (&stimuli.values[0], &stimuli.values[1]);
    let mut expect = b.clone();
    for (i, w) in expect.iter_mut().take(6).enumerate() {
        *w = a[8 * (1 + i / 3) + 2 + i % 3].clone();
    }
    assert_eq!(out.memories, vec![a.clone(), expect]);
}
