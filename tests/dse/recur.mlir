// Integer recurrences whose II rewriting cannot lower: a value carried
// through a division by a variable (the divider's stages), a word read
// through two chained loads (a cycle each), and a word stored for the
// next iteration's load through a division (a memory recurrence of
// distance 1). `silica dse`'s latency bound counts them
// (cli/tests/dse_bounds.rs, `bounds_count_integer_recurrences`): without
// them no point of the space is pruned, with them 4 of 12 are, and the
// front is the one every point gives.
// RUN: rm -rf %t %t.all
// RUN: silica dse %s --top divrec --space %S/spaces/recur.toml -o %t --objectives latency > /dev/null
// RUN: silica dse %s --top divrec --space %S/spaces/recur.toml -o %t.all --objectives latency --no-bounds > /dev/null
// RUN: diff <(sed -n '/Pareto front/,$p' %t/summary.txt) <(sed -n '/Pareto front/,$p' %t.all/summary.txt)
// RUN: FileCheck %s < %t/summary.txt
// CHECK: points: 12 seen, 8 evaluated
// CHECK: lower bounds: 4 point(s) not evaluated
// RUN: rm -rf %t.m %t.m.all
// RUN: silica dse %s --top memrec --space %S/spaces/recur.toml -o %t.m --objectives latency > /dev/null
// RUN: silica dse %s --top memrec --space %S/spaces/recur.toml -o %t.m.all --objectives latency --no-bounds > /dev/null
// RUN: diff <(sed -n '/Pareto front/,$p' %t.m/summary.txt) <(sed -n '/Pareto front/,$p' %t.m.all/summary.txt)
// RUN: FileCheck %s --check-prefix=MEM < %t.m/summary.txt
// MEM: points: 12 seen, 8 evaluated
// MEM: lower bounds: 4 point(s) not evaluated
// The derived space: a loop whose element stored is loaded the next
// iteration is not unrolled (its copies would wait on one another); two
// iterations on, by 2 at most.
// RUN: rm -rf %t.d %t.d2
// RUN: silica dse %s --top memrec -o %t.d 2>&1 | FileCheck %s --check-prefix=DERIVED
// DERIVED: the space derived from the kernel
// DERIVED: a: width 2
// DERIVED-NOT: unroll
// RUN: silica dse %s --top memrec2 -o %t.d2 2>&1 | FileCheck %s --check-prefix=DERIVED2
// DERIVED2: the space derived from the kernel
// DERIVED2: memrec2/0: unroll 2 or 1, of its 32 trips
func.func @divrec(%a: memref<32xi32> {hls.name = "a"}, %x0: i32) -> i32 {
  %s = affine.for %i = 0 to 32 iter_args(%x = %x0) -> (i32) {
    %d = affine.load %a[%i] : memref<32xi32>
    %q = arith.divsi %x, %d : i32
    affine.yield %q : i32
  } {hls.label = "i"}
  return %s : i32
}

func.func @chase(%n: memref<64xi32> {hls.name = "n"}, %x0: i32) -> i32 {
  %s = affine.for %i = 0 to 32 iter_args(%x = %x0) -> (i32) {
    %ix = arith.index_cast %x : i32 to index
    %y = memref.load %n[%ix] : memref<64xi32>
    %iy = arith.index_cast %y : i32 to index
    %z = memref.load %n[%iy] : memref<64xi32>
    affine.yield %z : i32
  } {hls.label = "i"}
  return %s : i32
}

func.func @memrec(%a: memref<33xi32> {hls.name = "a"}, %d: i32) {
  affine.for %i = 0 to 32 {
    %v = affine.load %a[%i] : memref<33xi32>
    %q = arith.divsi %v, %d : i32
    affine.store %q, %a[%i + 1] : memref<33xi32>
  } {hls.label = "i"}
  return
}

func.func @memrec2(%a: memref<34xi32> {hls.name = "a"}, %d: i32) {
  affine.for %i = 0 to 32 {
    %v = affine.load %a[%i] : memref<34xi32>
    %q = arith.divsi %v, %d : i32
    affine.store %q, %a[%i + 2] : memref<34xi32>
  }
  return
}
