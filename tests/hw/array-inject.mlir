// hw.array_inject in CIRCT's syntax (newer than the 1.62 wheel), through
// the custom and generic forms (its errors are in invalid.mlir).
// RUN: silica opt %s | FileCheck %s
// RUN: silica opt %s --mlir-print-op-generic | silica opt | FileCheck %s

// CHECK: %0 = hw.array_inject %a[%i], %v : !hw.array<1000xi42>, i10
// CHECK-NEXT: hw.output %0 : !hw.array<1000xi42>
hw.module @inject(in %a: !hw.array<1000xi42>, in %i: i10, in %v: i42, out o: !hw.array<1000xi42>) {
  %0 = hw.array_inject %a[%i], %v : !hw.array<1000xi42>, i10
  hw.output %0 : !hw.array<1000xi42>
}
