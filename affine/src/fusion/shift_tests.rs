//! Shifted fusion on parsed loops, as the HLS flow calls it.

use super::shift::{fuse_shifted, Fused};
use crate::for_op::{body_ops, bounds};
use crate::loops::loops_post_order;
use crate::test_support::parse_src;
use silica_ir::parser::ParsedModule;
use silica_ir::{Context, OpId};

/// The two inner loops of the one time loop of `src`, fused.
fn fuse(src: &str) -> (Context, ParsedModule, OpId, Result<Fused, String>) {
    let (mut ctx, mut m) = parse_src(src);
    let loops = loops_post_order(&ctx, &m.ir, m.top);
    let t = *loops.last().expect("a time loop");
    let inner = body_ops(&m.ir, t);
    let r = fuse_shifted(&mut ctx, &mut m.ir, inner[0], inner[1]);
    (ctx, m, t, r)
}

fn sweeps(second: &str, step: i64) -> String {
    format!(
        "func.func @f(%A: memref<16xi32>, %B: memref<16xi32>) {{
  affine.for %t = 0 to 2 {{
    affine.for %i = 1 to 15 {{
      %a = affine.load %A[%i - 1] : memref<16xi32>
      %b = affine.load %A[%i + 1] : memref<16xi32>
      %s = arith.addi %a, %b : i32
      affine.store %s, %B[%i] : memref<16xi32>
    }}
    affine.for %j = 1 to 15 step {step} {{
      {second}
    }}
  }}
  return
}}"
    )
}

#[test]
fn a_stencil_consumer_is_shifted_by_one_iteration() {
    // Reads B[j + 1] (written one iteration later), writes A[j] (read as
    // A[i + 1] one iteration earlier).
    let (ctx, m, t, r) = fuse(&sweeps(
        "%x = affine.load %B[%j + 1] : memref<16xi32>
      affine.store %x, %A[%j] : memref<16xi32>",
        1,
    ));
    assert_eq!(r, Ok(Fused { shift: 1 }));
    let inner = body_ops(&m.ir, t);
    assert_eq!(inner.len(), 1, "one fused loop");
    let (lo, hi) = bounds(&ctx, &m.ir, inner[0]).expect("bounds");
    assert_eq!((lo.as_constant(), hi.as_constant()), (Some(1), Some(16)));
    let guards: Vec<&str> = body_ops(&m.ir, inner[0])
        .iter()
        .map(|&o| ctx.str(m.ir.op_name(o)))
        .collect();
    assert_eq!(guards, ["affine.if", "affine.if"]);
}

#[test]
fn an_aligned_consumer_needs_no_shift() {
    let (ctx, m, t, r) = fuse(&sweeps(
        "%x = affine.load %B[%j] : memref<16xi32>
      affine.store %x, %A[%j - 1] : memref<16xi32>",
        1,
    ));
    assert_eq!(r, Ok(Fused { shift: 0 }));
    let fused = body_ops(&m.ir, t)[0];
    let (lo, hi) = bounds(&ctx, &m.ir, fused).expect("bounds");
    assert_eq!((lo.as_constant(), hi.as_constant()), (Some(1), Some(15)));
}

#[test]
fn a_consumer_of_the_last_element_waits_for_it() {
    // B[14] is written by the producer's last iteration (13 after the
    // first): the consumer starts with it.
    let (_, _, _, r) = fuse(&sweeps(
        "%x = affine.load %B[14] : memref<16xi32>
      affine.store %x, %A[%j] : memref<16xi32>",
        1,
    ));
    assert_eq!(r, Ok(Fused { shift: 13 }));
}

#[test]
fn different_steps_and_unknown_effects_are_refused() {
    let (_, m, t, r) = fuse(&sweeps(
        "%x = affine.load %B[%j] : memref<16xi32>
      affine.store %x, %A[%j] : memref<16xi32>",
        2,
    ));
    assert_eq!(r, Err("their steps differ (1 and 2)".to_string()));
    assert_eq!(body_ops(&m.ir, t).len(), 2, "left as it was");
    let (_, _, _, r) = fuse(&sweeps(
        "%c = arith.constant 0 : index
      %x = memref.load %B[%c] : memref<16xi32>
      affine.store %x, %A[%j] : memref<16xi32>",
        1,
    ));
    assert_eq!(r, Err("'memref.load' in it is not analysed".to_string()));
}
