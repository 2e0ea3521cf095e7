// ASAP start times are the longest paths from the sources.
// RUN: silica schedule %s --scheduler asap | FileCheck %s

// CHECK-LABEL: ssp.instance @diamond of "Problem"
// CHECK:      operation<@ld> @src() [t<0>]
// CHECK-NEXT: operation<@mul>(%{{.*}}) [t<1>]
// CHECK-NEXT: operation<@add>(%{{.*}}) [t<1>]
// CHECK-NEXT: operation<@add> @join(%{{.*}}, %{{.*}}) [t<4>]
ssp.instance @diamond of "Problem" {
  library {
    operator_type @ld [latency<1>]
    operator_type @mul [latency<3>]
    operator_type @add [latency<1>]
  }
  graph {
    %0 = operation<@ld> @src()
    %1 = operation<@mul>(%0)
    %2 = operation<@add>(%0)
    operation<@add> @join(%1, %2)
  }
}

// At II 2, the recurrence through @acc (distance 1) lets @acc start right
// after its input.
// CHECK-LABEL: ssp.instance @loop of "CyclicProblem" [II<2>]
// CHECK: operation<@add> @acc(%{{.*}}, @acc [dist<1>]) [t<1>]
ssp.instance @loop of "CyclicProblem" {
  library {
    operator_type @ld [latency<1>]
    operator_type @add [latency<2>]
  }
  graph {
    %0 = operation<@ld>()
    operation<@add> @acc(%0, @acc [dist<1>])
  }
}
