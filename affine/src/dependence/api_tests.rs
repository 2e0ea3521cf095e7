//! Tests of the client API: loop-carried dependences for the HLS
//! scheduler, all dependences of a function, DMA transfers.

use super::*;
use crate::presburger::test_ir::{ops_named, parse_module};

#[test]
fn recurrence_carries_one_flow_dependence_of_distance_one() {
    let (ctx, ir, top) = parse_module(
        "func.func @f(%a: memref<100xf32>) {
           affine.for %i = 1 to 100 {
             %v = affine.load %a[%i - 1] : memref<100xf32>
             affine.store %v, %a[%i] : memref<100xf32>
           }
           return
         }",
    );
    let lp = ops_named(&ctx, &ir, top, "affine.for")[0];
    let load = ops_named(&ctx, &ir, top, "affine.load")[0];
    let store = ops_named(&ctx, &ir, top, "affine.store")[0];
    let deps = loop_carried_dependences(&ctx, &ir, lp);
    assert_eq!(deps.len(), 1, "{deps:?}");
    let d = &deps[0];
    assert_eq!((d.src, d.dst, d.kind), (store, load, DependenceKind::Flow));
    assert_eq!((d.min_distance, d.max_distance), (Some(1), Some(1)));
}

#[test]
fn exact_distances_see_the_step() {
    let (ctx, ir, top) = parse_module(
        "func.func @f(%s: memref<1xf32>) {
           affine.for %t = 0 to 128 step 32 {
             affine.for %i = affine_map<(d0) -> (d0)>(%t) to affine_map<(d0) -> (d0 + 32)>(%t) {
               %v = affine.load %s[0] : memref<1xf32>
               affine.store %v, %s[0] : memref<1xf32>
             }
           }
           return
         }",
    );
    let loops = ops_named(&ctx, &ir, top, "affine.for");
    let outer = loop_carried_dependences(&ctx, &ir, loops[0]);
    // flow, anti and output dependences, all 32 to 96 apart.
    assert_eq!(outer.len(), 3);
    assert!(outer
        .iter()
        .all(|d| d.min_distance == Some(32) && d.max_distance == Some(96)));
    let inner = loop_carried_dependences(&ctx, &ir, loops[1]);
    assert!(inner
        .iter()
        .all(|d| d.min_distance == Some(1) && d.max_distance == Some(31)));
}

#[test]
fn independent_iterations_carry_nothing() {
    let (ctx, ir, top) = parse_module(
        "func.func @f(%a: memref<100xf32>, %b: memref<100xf32>) {
           affine.for %i = 0 to 50 {
             %v = affine.load %a[2 * %i + 1] : memref<100xf32>
             affine.store %v, %a[2 * %i] : memref<100xf32>
             affine.store %v, %b[%i] : memref<100xf32>
           }
           return
         }",
    );
    let lp = ops_named(&ctx, &ir, top, "affine.for")[0];
    assert!(loop_carried_dependences(&ctx, &ir, lp).is_empty());
    assert!(dependences(&ctx, &ir, top, Precision::Exact).is_empty());
}

#[test]
fn dma_transfers_touch_a_run_of_elements() {
    let (ctx, ir, top) = parse_module(
        "func.func @f(%a: memref<100xf32>, %b: memref<100xf32, 2>, %tag: memref<1xi32>) {
           %c0 = arith.constant 0 : index
           %c4 = arith.constant 4 : index
           affine.for %i = 0 to 90 {
             affine.dma_start %a[%i], %b[%i], %tag[%c0], %c4 : memref<100xf32>, memref<100xf32, 2>, memref<1xi32>
             %v = affine.load %b[%i + 2] : memref<100xf32, 2>
           }
           return
         }",
    );
    let dma = ops_named(&ctx, &ir, top, "affine.dma_start")[0];
    let load = ops_named(&ctx, &ir, top, "affine.load")[0];
    let deps = dependences(&ctx, &ir, top, Precision::Exact);
    let flow: Vec<&Dependence> = deps
        .iter()
        .filter(|d| d.src == dma && d.dst == load && d.kind == DependenceKind::Flow)
        .collect();
    // b[i + 2] of iteration j is in b[i .. i + 3] for j = i + 1 (carried)
    // and j = i (same iteration, after the transfer).
    assert_eq!(flow.len(), 2, "{deps:?}");
    assert_eq!(
        (
            flow[0].depth,
            flow[0].components[0].lower,
            flow[0].components[0].upper
        ),
        (1, Some(1), Some(1))
    );
    assert_eq!(flow[1].depth, 2);
    assert!(flow[1].carried_by.is_none());
    // The load happens before the next transfer overwrites its element.
    assert!(deps
        .iter()
        .any(|d| d.src == load && d.dst == dma && d.kind == DependenceKind::Anti));
}
