// Memories of `index` values. An external one holds the host's 64-bit
// indices (its ports and its AXI words carry 64 bits an element, as the
// JSON states); an on-chip one that only the kernel's loads and stores
// reach holds them at the kernel's index width, which range analysis
// bounds by the values stored.
// RUN: rm -rf %t.p %t.a %t.s %t.sys
// RUN: silica hls %s --top permute -o %t.p --sim | FileCheck %s --check-prefix=EXT
// RUN: FileCheck %s --check-prefix=JSON < %t.p/permute.json
// RUN: silica hls %s --top permute -o %t.a --interface axi --sim | FileCheck %s --check-prefix=AXI
// RUN: silica hls %s --top shuffle -o %t.s --sim | FileCheck %s --check-prefix=ONCHIP
// RUN: FileCheck %s --check-prefix=MEM < %t.s/shuffle.hw.mlir
// RUN: silica cosim %s --kernel permute -o %t.sys | FileCheck %s --check-prefix=SYS
// RUN: FileCheck %s --check-prefix=OUT < %t.sys/software.stdout

// The loaded indices take 64 bits to reduce modulo 8 as software does.
// EXT: co-simulation (seed 1): 32 values match
// EXT: index width: 64 bits
// JSON: "name": "perm",
// JSON-NEXT: "kind": "memory",
// JSON-NEXT: "type": "memref<8xindex>",
// JSON: "element_width": 64,
// JSON: "name": "inv",
// JSON-NEXT: "kind": "memory",
// JSON-NEXT: "type": "memref<8xindex>",
// JSON: "element_width": 64,
// AXI: co-simulation (seed 1): 32 values match
// ONCHIP: co-simulation (seed 1): 32 values match
// ONCHIP: index width: 8 bits
// MEM: seq.firmem 1, 1, undefined, undefined : <16 x 8>
// SYS: system co-simulation of 'permute': 2 lines of output identical
// OUT: b -7 48 15 70 37 4 59 26
// OUT-NEXT: inv 0 42949672961 17179869186 60129542147 34359738372 8589934597 51539607558 25769803783

llvm.mlir.global internal constant @fmt_b("b %d %d %d %d %d %d %d %d\0A\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @fmt_inv("inv %lld %lld %lld %lld %lld %lld %lld %lld\0A\00") {addr_space = 0 : i32}
llvm.func @printf(!llvm.ptr, ...) -> i32

// b[i] = a[perm[i] mod 8]; inv[perm[i] mod 8] = perm[i].
func.func @permute(%perm: memref<8xindex> {hls.name = "perm"}, %a: memref<8xi32> {hls.name = "a"},
                   %b: memref<8xi32> {hls.name = "b"}, %inv: memref<8xindex> {hls.name = "inv"}) {
  %c8 = arith.constant 8 : index
  affine.for %i = 0 to 8 {
    %j = affine.load %perm[%i] : memref<8xindex>
    %k = arith.remui %j, %c8 : index
    %x = memref.load %a[%k] : memref<8xi32>
    affine.store %x, %b[%i] : memref<8xi32>
    memref.store %j, %inv[%k] : memref<8xindex>
  }
  return
}

// An order computed into an on-chip table, then gathered by.
func.func @shuffle(%a: memref<16xi32> {hls.name = "a"}, %b: memref<16xi32> {hls.name = "b"}) {
  %order = memref.alloc() : memref<16xindex>
  affine.for %i = 0 to 16 {
    %k = affine.apply affine_map<(d0) -> ((d0 * 7) mod 16)>(%i)
    affine.store %k, %order[%i] : memref<16xindex>
  }
  affine.for %i = 0 to 16 {
    %k = affine.load %order[%i] : memref<16xindex>
    %x = memref.load %a[%k] : memref<16xi32>
    affine.store %x, %b[%i] : memref<16xi32>
  }
  memref.dealloc %order : memref<16xindex>
  return
}

// perm[i] = (5i mod 8) + 2^33 i, a[i] = 11i - 7.
func.func @main() -> i32 {
  %perm = memref.alloc() : memref<8xindex>
  %a = memref.alloc() : memref<8xi32>
  %b = memref.alloc() : memref<8xi32>
  %inv = memref.alloc() : memref<8xindex>
  %c11 = arith.constant 11 : i32
  %c7 = arith.constant 7 : i32
  affine.for %i = 0 to 8 {
    %p = affine.apply affine_map<(d0) -> ((d0 * 5) mod 8 + d0 * 8589934592)>(%i)
    affine.store %p, %perm[%i] : memref<8xindex>
    %ii = arith.index_cast %i : index to i32
    %m = arith.muli %ii, %c11 : i32
    %v = arith.subi %m, %c7 : i32
    affine.store %v, %a[%i] : memref<8xi32>
  }
  func.call @permute(%perm, %a, %b, %inv) : (memref<8xindex>, memref<8xi32>, memref<8xi32>, memref<8xindex>) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7i = arith.constant 7 : index
  %b0 = memref.load %b[%c0] : memref<8xi32>
  %b1 = memref.load %b[%c1] : memref<8xi32>
  %b2 = memref.load %b[%c2] : memref<8xi32>
  %b3 = memref.load %b[%c3] : memref<8xi32>
  %b4 = memref.load %b[%c4] : memref<8xi32>
  %b5 = memref.load %b[%c5] : memref<8xi32>
  %b6 = memref.load %b[%c6] : memref<8xi32>
  %b7 = memref.load %b[%c7i] : memref<8xi32>
  %f = llvm.mlir.addressof @fmt_b : !llvm.ptr
  %r0 = llvm.call @printf(%f, %b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32, i32, i32, i32, i32, i32, i32) -> i32
  %v0 = memref.load %inv[%c0] : memref<8xindex>
  %v1 = memref.load %inv[%c1] : memref<8xindex>
  %v2 = memref.load %inv[%c2] : memref<8xindex>
  %v3 = memref.load %inv[%c3] : memref<8xindex>
  %v4 = memref.load %inv[%c4] : memref<8xindex>
  %v5 = memref.load %inv[%c5] : memref<8xindex>
  %v6 = memref.load %inv[%c6] : memref<8xindex>
  %v7 = memref.load %inv[%c7i] : memref<8xindex>
  %w0 = arith.index_cast %v0 : index to i64
  %w1 = arith.index_cast %v1 : index to i64
  %w2 = arith.index_cast %v2 : index to i64
  %w3 = arith.index_cast %v3 : index to i64
  %w4 = arith.index_cast %v4 : index to i64
  %w5 = arith.index_cast %v5 : index to i64
  %w6 = arith.index_cast %v6 : index to i64
  %w7 = arith.index_cast %v7 : index to i64
  %g = llvm.mlir.addressof @fmt_inv : !llvm.ptr
  %r1 = llvm.call @printf(%g, %w0, %w1, %w2, %w3, %w4, %w5, %w6, %w7) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i64, i64) -> i32
  memref.dealloc %perm : memref<8xindex>
  memref.dealloc %a : memref<8xi32>
  memref.dealloc %b : memref<8xi32>
  memref.dealloc %inv : memref<8xindex>
  %z = arith.constant 0 : i32
  return %z : i32
}
