// Buffers a kernel allocates and returns (as lowering tensor code to
// memrefs leaves them): each becomes an output memory named result<i>, i
// its position among the results, listed after the arguments with
// "returned": i; scalar results keep their positions. Co-simulated
// against the function as written, through the AXI wrapper, and as a
// program whose host code allocates the buffers and returns them.
// RUN: rm -rf %t.s %t.b %t.a %t.sys %t.p
// RUN: silica hls %s --top scale -o %t.s --sim | FileCheck %s --check-prefix=SCALE
// RUN: FileCheck %s --check-prefix=JSON < %t.s/scale.json
// RUN: silica hls %s --top both -o %t.b --sim | FileCheck %s --check-prefix=BOTH
// RUN: FileCheck %s --check-prefix=PORTS < %t.b/both.sv
// RUN: silica hls %s --top both -o %t.a --interface axi --sim | FileCheck %s --check-prefix=BOTH
// RUN: silica cosim %s --kernel both -o %t.sys | FileCheck %s --check-prefix=SYS
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout
// RUN: not silica hls %s --top passthrough -o %t.p 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: test ! -e %t.p

// SCALE: co-simulation (seed 1): 48 values match
// JSON: "name": "result0",
// JSON-NEXT: "kind": "memory",
// JSON-NEXT: "type": "memref<4x6xi32>",
// JSON: "access": "write",
// JSON-NEXT: "returned": 0
// JSON: "results": []

// BOTH: co-simulation (seed 1): 25 values match
// PORTS: output [31:0] result0,
// PORTS: output [2:0] result1_address0,
// PORTS: output [15:0] result1_d0,
// PORTS: output [2:0] result2_address0,
// PORTS: output [31:0] result2_d0,

// SYS: system co-simulation of 'both': 1 lines of output identical
// OUT: sum 6000 neg 300 -600 -1800 wide 90000 360000 3240000

// ARG: returned.mlir:[[# @LINE + 2]]:3: error: result 0 is not a buffer the function allocates: silica hls returns a memref only where it is a 'memref.alloc' of the function's body (it becomes the output memory 'result0')
func.func @passthrough(%a: memref<8xi16>) -> memref<8xi16> {
  return %a : memref<8xi16>
}

llvm.mlir.global internal constant @fmt("sum %d neg %d %d %d wide %d %d %d\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

func.func @scale(%a: memref<4x6xi32> {hls.name = "a"}, %k: i32 {hls.name = "k"}) -> memref<4x6xi32> {
  %out = memref.alloc() : memref<4x6xi32>
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 6 {
      %v = affine.load %a[%i, %j] : memref<4x6xi32>
      %p = arith.muli %v, %k : i32
      affine.store %p, %out[%i, %j] : memref<4x6xi32>
    }
  }
  return %out : memref<4x6xi32>
}

// The sum of a, and two buffers: -a and a * a.
func.func @both(%a: memref<8xi16> {hls.name = "a"}) -> (i32, memref<8xi16>, memref<8xi32>) {
  %c0 = arith.constant 0 : i32
  %neg = memref.alloc() : memref<8xi16>
  %wide = memref.alloc() : memref<8xi32>
  %s = affine.for %i = 0 to 8 iter_args(%acc = %c0) -> (i32) {
    %v = affine.load %a[%i] : memref<8xi16>
    %z = arith.constant 0 : i16
    %n = arith.subi %z, %v : i16
    affine.store %n, %neg[%i] : memref<8xi16>
    %w = arith.extsi %v : i16 to i32
    %w2 = arith.muli %w, %w : i32
    affine.store %w2, %wide[%i] : memref<8xi32>
    %a2 = arith.addi %acc, %w : i32
    affine.yield %a2 : i32
  }
  return %s, %neg, %wide : i32, memref<8xi16>, memref<8xi32>
}

// a[i] = 300 i - 300.
func.func @main() -> i32 {
  %a = memref.alloc() : memref<8xi16>
  %c300 = arith.constant 300 : i16
  affine.for %i = 0 to 8 {
    %ii = arith.index_cast %i : index to i16
    %v = arith.muli %ii, %c300 : i16
    %w = arith.subi %v, %c300 : i16
    affine.store %w, %a[%i] : memref<8xi16>
  }
  %s, %neg, %wide = func.call @both(%a) : (memref<8xi16>) -> (i32, memref<8xi16>, memref<8xi32>)
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %n0 = memref.load %neg[%c0] : memref<8xi16>
  %n3 = memref.load %neg[%c3] : memref<8xi16>
  %n7 = memref.load %neg[%c7] : memref<8xi16>
  %m0 = arith.extsi %n0 : i16 to i32
  %m3 = arith.extsi %n3 : i16 to i32
  %m7 = arith.extsi %n7 : i16 to i32
  %w0 = memref.load %wide[%c0] : memref<8xi32>
  %w3 = memref.load %wide[%c3] : memref<8xi32>
  %w7 = memref.load %wide[%c7] : memref<8xi32>
  %f = llvm.mlir.addressof @fmt : !llvm.ptr
  %r = llvm.call @printf(%f, %s, %m0, %m3, %m7, %w0, %w3, %w7) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32, i32, i32, i32, i32, i32) -> i32
  memref.dealloc %a : memref<8xi16>
  memref.dealloc %neg : memref<8xi16>
  memref.dealloc %wide : memref<8xi32>
  %z = arith.constant 0 : i32
  return %z : i32
}
