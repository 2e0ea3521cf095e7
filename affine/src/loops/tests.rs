//! The loop utilities called directly on parsed loops, as the HLS flow
//! calls them.

use super::*;
use crate::test_support::parse_src;
use silica_ir::affine::AffineExpr;
use silica_ir::parser::ParsedModule;
use silica_ir::printer::{print_module, PrintFlags};
use silica_ir::{Context, OpId};

fn all_loops(ctx: &Context, m: &ParsedModule) -> Vec<OpId> {
    loops_post_order(ctx, &m.ir, m.top)
}

fn printed(ctx: &Context, m: &ParsedModule) -> String {
    print_module(ctx, &m.ir, m.top, &m.resources, PrintFlags::default())
}

#[test]
fn trip_counts_through_maps_and_steps() {
    let (mut ctx, mut m) = parse_src(
        "func.func @f(%n: index) {
           affine.for %i = 0 to 10 step 3 { }
           affine.for %i = 0 to %n { }
           affine.for %i = 0 to affine_map<()[s0] -> (s0 * 8)>()[%n] step 2 { }
           affine.for %i = max affine_map<()[s0] -> (0, s0)>()[%n] to 10 { }
           affine.for %i = 7 to 3 { }
           return
         }",
    );
    let loops = all_loops(&ctx, &m);
    let counts: Vec<_> = loops
        .iter()
        .map(|&l| constant_trip_count(&mut ctx, &mut m.ir, l))
        .collect();
    assert_eq!(counts, [Some(4), None, None, None, Some(0)]);
    let divisors: Vec<_> = loops
        .iter()
        .map(|&l| largest_divisor_of_trip_count(&mut ctx, &mut m.ir, l))
        .collect();
    assert_eq!(divisors, [4, 1, 4, 1, u64::MAX]);
    let tc = trip_count_map(&mut ctx, &mut m.ir, loops[2]).expect("affine trip count");
    assert_eq!(
        &*tc.map.results,
        [AffineExpr::Symbol(0).times(AffineExpr::Constant(4))]
    );
    assert_eq!(tc.operands.len(), 1);
    assert!(trip_count_map(&mut ctx, &mut m.ir, loops[3]).is_none());
}

#[test]
fn unroll_by_factor_splits_off_a_cleanup_loop() {
    let (mut ctx, mut m) = parse_src(
        "func.func @f() {
           affine.for %i = 0 to 10 {
             \"use\"(%i) : (index) -> ()
           }
           return
         }",
    );
    let l = all_loops(&ctx, &m)[0];
    assert_eq!(unroll_by_factor(&mut ctx, &mut m.ir, l, 4, false), Ok(()));
    let text = printed(&ctx, &m);
    assert!(
        text.contains("affine.for %arg0 = 0 to 8 step 4 {"),
        "{text}"
    );
    assert!(text.contains("affine.for %arg0 = 8 to 10 {"), "{text}");
    assert_eq!(text.matches("\"use\"").count(), 5, "{text}");
}

#[test]
fn unroll_full_needs_a_constant_trip_count() {
    let (mut ctx, mut m) = parse_src(
        "func.func @f(%n: index) -> f32 {
           %z = arith.constant 0.0 : f32
           %s = affine.for %i = 0 to 3 iter_args(%a = %z) -> f32 {
             %b = arith.addf %a, %a : f32
             affine.yield %b : f32
           }
           affine.for %i = 0 to %n {
             \"use\"(%i) : (index) -> ()
           }
           return %s : f32
         }",
    );
    let loops = all_loops(&ctx, &m);
    assert_eq!(
        unroll_full(&mut ctx, &mut m.ir, loops[1]),
        Err(UnrollError::UnknownTripCount)
    );
    assert_eq!(unroll_full(&mut ctx, &mut m.ir, loops[0]), Ok(()));
    let text = printed(&ctx, &m);
    assert_eq!(text.matches("affine.for").count(), 1, "{text}");
    assert!(text.contains("%2 = arith.addf %1, %1 : f32"), "{text}");
    assert!(text.contains("return %2 : f32"), "{text}");
}

#[test]
fn promotion_replaces_the_loop_by_its_body() {
    let (mut ctx, mut m) = parse_src(
        "func.func @f(%x: f32, %n: index) -> f32 {
           %s = affine.for %i = affine_map<()[s0] -> (s0 + 1)>()[%n] to affine_map<()[s0] -> (s0 + 2)>()[%n] iter_args(%a = %x) -> f32 {
             \"use\"(%i) : (index) -> ()
             affine.yield %a : f32
           }
           return %s : f32
         }",
    );
    let l = all_loops(&ctx, &m)[0];
    assert!(promote_if_single_iteration(&mut ctx, &mut m.ir, l));
    let text = printed(&ctx, &m);
    assert!(!text.contains("affine.for"), "{text}");
    assert!(text.contains("%0 = affine.apply #map()[%arg1]"), "{text}");
    assert!(text.contains("\"use\"(%0)"), "{text}");
    assert!(text.contains("return %arg0 : f32"), "{text}");
}

#[test]
fn refusals_leave_the_loops_alone() {
    let src = "func.func @f(%m: index, %n: index, %A: memref<8x8xf32>, %v: f32) {
           affine.for %i = 0 to min affine_map<()[s0, s1] -> (s0, s1)>()[%m, %n] {
             \"use\"(%i) : (index) -> ()
           }
           affine.for %i = 0 to 8 {
             affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
               affine.store %v, %A[%i, %j] : memref<8x8xf32>
             }
           }
           affine.for %i = 0 to 2 {
             \"use\"(%i) : (index) -> ()
           }
           return
         }";
    let (mut ctx, mut m) = parse_src(src);
    let before = printed(&ctx, &m);
    let loops = all_loops(&ctx, &m);
    assert_eq!(
        unroll_by_factor(&mut ctx, &mut m.ir, loops[0], 2, false),
        Err(UnrollError::NoCleanupLoop)
    );
    assert_eq!(
        unroll_jam_by_factor(&mut ctx, &mut m.ir, loops[2], 2),
        Err(UnrollError::VariantInnerBounds)
    );
    assert_eq!(
        unroll_by_factor(&mut ctx, &mut m.ir, loops[3], 3, false),
        Err(UnrollError::TripCountBelowFactor)
    );
    assert_eq!(printed(&ctx, &m), before);
}

#[test]
fn unroll_jam_duplicates_inner_accumulators() {
    let (mut ctx, mut m) = parse_src(
        "func.func @f(%A: memref<4x5xi32>, %z: i32, %B: memref<4xi32>) {
           affine.for %i = 0 to 4 {
             %t = affine.for %j = 0 to 5 iter_args(%r = %z) -> i32 {
               %x = affine.load %A[%i, %j] : memref<4x5xi32>
               %y = arith.addi %r, %x : i32
               affine.yield %y : i32
             }
             affine.store %t, %B[%i] : memref<4xi32>
           }
           return
         }",
    );
    let outer = *all_loops(&ctx, &m).last().expect("outer loop");
    assert_eq!(unroll_jam_by_factor(&mut ctx, &mut m.ir, outer, 2), Ok(()));
    let text = printed(&ctx, &m);
    assert!(text.contains("step 2 {"), "{text}");
    assert!(text.contains("-> (i32, i32)"), "{text}");
    assert_eq!(text.matches("affine.store").count(), 2, "{text}");
    assert_eq!(text.matches("affine.for").count(), 2, "{text}");
}
