// The ssp dialect in CIRCT's syntax: custom form, generic form, and back.
// RUN: silica opt %s | silica opt | FileCheck %s
// RUN: silica opt %s --mlir-print-op-generic | silica opt | FileCheck %s
// RUN: silica opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: ssp.library @Shared {
// CHECK-NEXT:    operator_type @div [latency<12>]
// CHECK-NEXT:  }
// CHECK-NEXT:  ssp.resource @Ports {
// CHECK-NEXT:    resource_type @bus [limit<2>]
// CHECK-NEXT:  }
ssp.library @Shared {
  operator_type @div [latency<12>]
}
ssp.resource @Ports {
  resource_type @bus [limit<2>]
}

// CHECK-LABEL: ssp.instance @fir of "ModuloProblem" [II<2>] {
// CHECK-NEXT:    library @ops {
// CHECK-NEXT:      operator_type @mac [latency<2>, incDelay<5.000000e-01 : f32>, outDelay<2.500000e-01 : f64>]
// CHECK-NEXT:      operator_type @load [latency<1>]
// CHECK-NEXT:    }
// CHECK-NEXT:    resource {
// CHECK-NEXT:      resource_type @mem [limit<1>]
// CHECK-NEXT:    }
// CHECK-NEXT:    graph {
// CHECK-NEXT:      %[[A:.+]]:2 = operation<@load> @ld(@acc [dist<1>]) uses[@mem] [t<0>]
// CHECK-NEXT:      %[[B:.+]] = operation<@mac> @acc(%[[A]]#0, %[[A]]#1 [dist<2>], @acc [dist<1>]) [t<1>]
// CHECK-NEXT:      operation<@Shared::@div>(%[[B]]) uses[@Ports::@bus] {note = "kept"}
// CHECK-NEXT:      operation<>()
// CHECK-NEXT:    }
// CHECK-NEXT:  } {origin = "test"}
// GENERIC: "ssp.operation"(%{{.*}}, %{{.*}}) <{dependences = [#ssp.dependence<1, [#ssp.dist<2>]>, #ssp.dependence<2, @acc, [#ssp.dist<1>]>], sspProperties = [#ssp.opr<@mac>, #ssp.t<1>], sym_name = "acc"}> : (none, none) -> none
ssp.instance @fir of "ModuloProblem" [II<2>] {
  library @ops {
    operator_type @mac [latency<2>, incDelay<0.5 : f32>, outDelay<0.25>]
    operator_type @load [latency<1>]
  }
  resource {
    resource_type @mem [limit<1>]
  }
  graph {
    %0:2 = operation<@load> @ld(@acc [dist<1>]) uses[@mem] [t<0>]
    %1 = ssp.operation<@mac> @acc(%0#0, %0#1 [dist<2>], @acc [dist<1>]) [t<1>]
    operation<@Shared::@div>(%1) uses[@Ports::@bus] {note = "kept"}
    operation<>()
  }
} {origin = "test"}

// A name that is not a bare identifier, and an instance without one.
// CHECK-LABEL: ssp.instance @"two words" of "Problem" {
// CHECK:       ssp.instance of "CyclicProblem" {
ssp.instance @"two words" of "Problem" {
  library {}
  graph {}
}
ssp.instance of "CyclicProblem" {
  library {}
  resource {}
  graph {}
}
