// Ops of the dialects silica shares with MLIR in bytecode: properties in
// each op's encoding (optional, defaulted, segment sizes, integer and
// flag properties), regions written as sections of their own (isolated
// ops, and ops whose regions use nothing from outside), successors and
// use-list orders. silica writes mlir-opt-22's bytes; each reads the
// other's (in the generic form too: no properties where none is set).
// RUN: silica opt --emit-bytecode %s -o %t.silica.mlirbc
// RUN: mlir-opt-22 --emit-bytecode %s -o %t.mlir-opt.mlirbc
// RUN: cmp %t.silica.mlirbc %t.mlir-opt.mlirbc
// RUN: diff <(silica opt --mlir-print-debuginfo %t.mlir-opt.mlirbc) <(mlir-opt-22 --mlir-print-debuginfo %t.mlir-opt.mlirbc)
// RUN: diff <(silica opt --mlir-print-op-generic %t.mlir-opt.mlirbc) <(mlir-opt-22 --mlir-print-op-generic %t.mlir-opt.mlirbc)
// RUN: diff <(silica opt --mlir-print-debuginfo %t.silica.mlirbc) <(silica opt --mlir-print-debuginfo %s)
// RUN: diff <(mlir-opt-22 --mlir-print-debuginfo %t.silica.mlirbc) <(mlir-opt-22 --mlir-print-debuginfo %s)

func.func private @callee(i32) -> i32 attributes {llvm.emit_c_interface}

func.func @arith(%a: i32, %b: i32, %f: f32, %i: index) -> i32 {
  %c3 = arith.constant 3 : i32
  %0 = arith.addi %a, %b overflow<nsw, nuw> : i32
  %1 = arith.muli %0, %c3 : i32
  %2 = arith.cmpi slt, %1, %a : i32
  %3 = arith.select %2, %1, %a : i32
  %4 = arith.addf %f, %f fastmath<fast> : f32
  %5 = arith.truncf %f to_nearest_even : f32 to bf16
  %6 = arith.extf %f : f32 to f64
  %7 = index.add %i, %i
  %8 = index.cmp slt(%i, %7)
  %9 = math.fma %f, %f, %f : f32
  %10 = ub.poison : i64
  %11 = func.call @callee(%3) : (i32) -> i32
  return %11 : i32
}

func.func @loops(%m: memref<10x10xf32>, %n: index, %lb: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to %n step 2 {
    affine.for %j = max affine_map<(d0) -> (d0, 0)>(%i) to min affine_map<(d0)[s0] -> (d0 + 4, s0)>(%i)[%n] {
      %v = affine.load %m[%i, %j] : memref<10x10xf32>
      affine.store %v, %m[%j, %i + 1] : memref<10x10xf32>
    }
  }
  %sum = scf.for %k = %lb to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %m[%k, %c0] : memref<10x10xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  %alone = scf.for %k = %c0 to %c1 step %c1 iter_args(%x = %c0) -> (index) {
    scf.yield %k : index
  }
  scf.parallel (%p, %q) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %zero, %m[%p, %q] : memref<10x10xf32>
    scf.reduce
  }
  %w = scf.while (%arg = %c0) : (index) -> index {
    %cond = arith.cmpi slt, %arg, %n : index
    scf.condition(%cond) %arg : index
  } do {
  ^bb0(%arg: index):
    %next = arith.addi %arg, %c1 : index
    scf.yield %next : index
  }
  %alloc = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  %sub = memref.subview %m[1, 2] [4, 4] [1, 1] : memref<10x10xf32> to memref<4x4xf32, strided<[10, 1], offset: 12>>
  memref.dealloc %alloc : memref<?xf32>
  return %sum : f32
}

func.func @branches(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  cf.br ^bb3(%x : i32)
^bb2:
  %y = arith.addi %a, %a : i32
  cf.br ^bb3(%y : i32)
^bb3(%z: i32):
  cf.switch %z : i32, [
    default: ^bb4(%z : i32),
    1: ^bb4(%a : i32)
  ]
^bb4(%r: i32):
  return %r : i32
}

llvm.mlir.global internal constant @g(dense<[1, 2]> : tensor<2xi32>) : !llvm.array<2 x i32>
llvm.func @llvm_ops(%p: !llvm.ptr, %n: i32) -> i32 attributes {passthrough = ["nounwind"]} {
  %0 = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32
  %1 = llvm.getelementptr inbounds %p[1, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, array<4 x i8>, f32)>
  %2 = llvm.mlir.addressof @g : !llvm.ptr
  %3 = llvm.call @llvm_decl(%0) : (i32) -> i32
  %4 = llvm.icmp "slt" %0, %3 : i32
  llvm.cond_br %4, ^bb1, ^bb2(%0 : i32)
^bb1:
  llvm.return %0 : i32
^bb2(%x: i32):
  llvm.return %x : i32
}
llvm.func @llvm_decl(i32) -> i32
