// convert-gpu-to-nvvm: gpu.func to llvm.func (nvvm.kernel, the known
// sizes as gpu.known_*_size and nvvm.maxntid), the ids and sizes to
// special registers with their ranges, gpu.barrier to nvvm.barrier0,
// math to the device library, the rest as convert-to-llvm converts it;
// unused ids are folded away first. The output is mlir-opt-22's.
// RUN: diff <(silica opt --split-input-file --convert-gpu-to-nvvm %s) <(mlir-opt-22 --split-input-file --convert-gpu-to-nvvm %s)
// RUN: diff <(silica opt --split-input-file --convert-gpu-to-nvvm=index-bitwidth=32 %s) <(mlir-opt-22 --split-input-file --convert-gpu-to-nvvm=index-bitwidth=32 %s)

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%a: memref<64xi32>) kernel {
      %t = gpu.thread_id x
      %t2 = gpu.thread_id y
      %b = gpu.block_id z
      %d = gpu.block_dim x
      %g = gpu.grid_dim y
      gpu.barrier
      %v = arith.index_cast %t : index to i32
      memref.store %v, %a[%b] : memref<64xi32>
      gpu.return
    }
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<64xi32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %t = gpu.thread_id x
    %b = gpu.block_dim x
    %g = gpu.grid_dim x
    %c = gpu.block_id x
    %l = gpu.lane_id
    %s = arith.addi %t, %b : index
    %s2 = arith.addi %s, %g : index
    %s3 = arith.addi %s2, %c : index
    %s4 = arith.addi %s3, %l : index
    %v = arith.index_cast %s4 : index to i32
    memref.store %v, %a[%t] : memref<64xi32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%a: memref<?xf32>, %n: index, %x: f32) kernel attributes {known_block_size = array<i32: 4, 2, 1>, known_grid_size = array<i32: 8, 1, 1>} {
    %t = gpu.thread_id y
    %b = gpu.block_id x
    %g = gpu.grid_dim x
    %d = gpu.block_dim z
    %s = arith.addi %t, %b : index
    %s2 = arith.addi %s, %g : index
    %s3 = arith.addi %s2, %d : index
    memref.store %x, %a[%s3] : memref<?xf32>
    gpu.return
  }
  gpu.func @dev(%x: i32) -> i32 {
    gpu.return %x : i32
  }
}

// -----

// Every math op with a device library function, on f32 and f64.
gpu.module @k {
  gpu.func @f(%x: f32, %y: f64, %a: memref<64xf32>, %b: memref<64xf64>) kernel {
    %c0 = arith.constant 0 : index
    %r0 = math.sqrt %x : f32
    memref.store %r0, %a[%c0] : memref<64xf32>
    %c1 = arith.constant 1 : index
    %r1 = math.sqrt %y : f64
    memref.store %r1, %b[%c1] : memref<64xf64>
    %c2 = arith.constant 2 : index
    %r2 = math.exp %x : f32
    memref.store %r2, %a[%c2] : memref<64xf32>
    %c3 = arith.constant 3 : index
    %r3 = math.exp %y : f64
    memref.store %r3, %b[%c3] : memref<64xf64>
    %c4 = arith.constant 4 : index
    %r4 = math.log %x : f32
    memref.store %r4, %a[%c4] : memref<64xf32>
    %c5 = arith.constant 5 : index
    %r5 = math.log %y : f64
    memref.store %r5, %b[%c5] : memref<64xf64>
    %c6 = arith.constant 6 : index
    %r6 = math.absf %x : f32
    memref.store %r6, %a[%c6] : memref<64xf32>
    %c7 = arith.constant 7 : index
    %r7 = math.absf %y : f64
    memref.store %r7, %b[%c7] : memref<64xf64>
    %c8 = arith.constant 8 : index
    %r8 = math.tanh %x : f32
    memref.store %r8, %a[%c8] : memref<64xf32>
    %c9 = arith.constant 9 : index
    %r9 = math.tanh %y : f64
    memref.store %r9, %b[%c9] : memref<64xf64>
    %c10 = arith.constant 10 : index
    %r10 = math.sin %x : f32
    memref.store %r10, %a[%c10] : memref<64xf32>
    %c11 = arith.constant 11 : index
    %r11 = math.sin %y : f64
    memref.store %r11, %b[%c11] : memref<64xf64>
    %c12 = arith.constant 12 : index
    %r12 = math.cos %x : f32
    memref.store %r12, %a[%c12] : memref<64xf32>
    %c13 = arith.constant 13 : index
    %r13 = math.cos %y : f64
    memref.store %r13, %b[%c13] : memref<64xf64>
    %c14 = arith.constant 14 : index
    %r14 = math.floor %x : f32
    memref.store %r14, %a[%c14] : memref<64xf32>
    %c15 = arith.constant 15 : index
    %r15 = math.floor %y : f64
    memref.store %r15, %b[%c15] : memref<64xf64>
    %c16 = arith.constant 16 : index
    %r16 = math.rsqrt %x : f32
    memref.store %r16, %a[%c16] : memref<64xf32>
    %c17 = arith.constant 17 : index
    %r17 = math.rsqrt %y : f64
    memref.store %r17, %b[%c17] : memref<64xf64>
    %c18 = arith.constant 18 : index
    %r18 = math.exp2 %x : f32
    memref.store %r18, %a[%c18] : memref<64xf32>
    %c19 = arith.constant 19 : index
    %r19 = math.exp2 %y : f64
    memref.store %r19, %b[%c19] : memref<64xf64>
    %c20 = arith.constant 20 : index
    %r20 = math.log2 %x : f32
    memref.store %r20, %a[%c20] : memref<64xf32>
    %c21 = arith.constant 21 : index
    %r21 = math.log2 %y : f64
    memref.store %r21, %b[%c21] : memref<64xf64>
    %c22 = arith.constant 22 : index
    %r22 = math.ceil %x : f32
    memref.store %r22, %a[%c22] : memref<64xf32>
    %c23 = arith.constant 23 : index
    %r23 = math.ceil %y : f64
    memref.store %r23, %b[%c23] : memref<64xf64>
    %c24 = arith.constant 24 : index
    %r24 = math.log1p %x : f32
    memref.store %r24, %a[%c24] : memref<64xf32>
    %c25 = arith.constant 25 : index
    %r25 = math.log1p %y : f64
    memref.store %r25, %b[%c25] : memref<64xf64>
    %c26 = arith.constant 26 : index
    %r26 = math.expm1 %x : f32
    memref.store %r26, %a[%c26] : memref<64xf32>
    %c27 = arith.constant 27 : index
    %r27 = math.expm1 %y : f64
    memref.store %r27, %b[%c27] : memref<64xf64>
    %c28 = arith.constant 28 : index
    %r28 = math.erf %x : f32
    memref.store %r28, %a[%c28] : memref<64xf32>
    %c29 = arith.constant 29 : index
    %r29 = math.erf %y : f64
    memref.store %r29, %b[%c29] : memref<64xf64>
    %c30 = arith.constant 30 : index
    %r30 = math.tan %x : f32
    memref.store %r30, %a[%c30] : memref<64xf32>
    %c31 = arith.constant 31 : index
    %r31 = math.tan %y : f64
    memref.store %r31, %b[%c31] : memref<64xf64>
    %c32 = arith.constant 32 : index
    %r32 = math.atan %x : f32
    memref.store %r32, %a[%c32] : memref<64xf32>
    %c33 = arith.constant 33 : index
    %r33 = math.atan %y : f64
    memref.store %r33, %b[%c33] : memref<64xf64>
    %c34 = arith.constant 34 : index
    %r34 = math.round %x : f32
    memref.store %r34, %a[%c34] : memref<64xf32>
    %c35 = arith.constant 35 : index
    %r35 = math.round %y : f64
    memref.store %r35, %b[%c35] : memref<64xf64>
    %c36 = arith.constant 36 : index
    %r36 = math.trunc %x : f32
    memref.store %r36, %a[%c36] : memref<64xf32>
    %c37 = arith.constant 37 : index
    %r37 = math.trunc %y : f64
    memref.store %r37, %b[%c37] : memref<64xf64>
    %c38 = arith.constant 38 : index
    %r38 = math.cbrt %x : f32
    memref.store %r38, %a[%c38] : memref<64xf32>
    %c39 = arith.constant 39 : index
    %r39 = math.cbrt %y : f64
    memref.store %r39, %b[%c39] : memref<64xf64>
    %c40 = arith.constant 40 : index
    %r40 = math.log10 %x : f32
    memref.store %r40, %a[%c40] : memref<64xf32>
    %c41 = arith.constant 41 : index
    %r41 = math.log10 %y : f64
    memref.store %r41, %b[%c41] : memref<64xf64>
    %c42 = arith.constant 42 : index
    %r42 = math.asin %x : f32
    memref.store %r42, %a[%c42] : memref<64xf32>
    %c43 = arith.constant 43 : index
    %r43 = math.asin %y : f64
    memref.store %r43, %b[%c43] : memref<64xf64>
    %c44 = arith.constant 44 : index
    %r44 = math.acos %x : f32
    memref.store %r44, %a[%c44] : memref<64xf32>
    %c45 = arith.constant 45 : index
    %r45 = math.acos %y : f64
    memref.store %r45, %b[%c45] : memref<64xf64>
    %c46 = arith.constant 46 : index
    %r46 = math.sinh %x : f32
    memref.store %r46, %a[%c46] : memref<64xf32>
    %c47 = arith.constant 47 : index
    %r47 = math.sinh %y : f64
    memref.store %r47, %b[%c47] : memref<64xf64>
    %c48 = arith.constant 48 : index
    %r48 = math.cosh %x : f32
    memref.store %r48, %a[%c48] : memref<64xf32>
    %c49 = arith.constant 49 : index
    %r49 = math.cosh %y : f64
    memref.store %r49, %b[%c49] : memref<64xf64>
    %c50 = arith.constant 50 : index
    %r50 = math.atanh %x : f32
    memref.store %r50, %a[%c50] : memref<64xf32>
    %c51 = arith.constant 51 : index
    %r51 = math.atanh %y : f64
    memref.store %r51, %b[%c51] : memref<64xf64>
    %c52 = arith.constant 52 : index
    %r52 = math.asinh %x : f32
    memref.store %r52, %a[%c52] : memref<64xf32>
    %c53 = arith.constant 53 : index
    %r53 = math.asinh %y : f64
    memref.store %r53, %b[%c53] : memref<64xf64>
    %c54 = arith.constant 54 : index
    %r54 = math.acosh %x : f32
    memref.store %r54, %a[%c54] : memref<64xf32>
    %c55 = arith.constant 55 : index
    %r55 = math.acosh %y : f64
    memref.store %r55, %b[%c55] : memref<64xf64>
    %c56 = arith.constant 56 : index
    %r56 = math.powf %x, %x : f32
    memref.store %r56, %a[%c56] : memref<64xf32>
    %c57 = arith.constant 57 : index
    %r57 = math.powf %y, %y : f64
    memref.store %r57, %b[%c57] : memref<64xf64>
    %c58 = arith.constant 58 : index
    %r58 = math.atan2 %x, %x : f32
    memref.store %r58, %a[%c58] : memref<64xf32>
    %c59 = arith.constant 59 : index
    %r59 = math.atan2 %y, %y : f64
    memref.store %r59, %b[%c59] : memref<64xf64>
    %c60 = arith.constant 60 : index
    %r60 = math.copysign %x, %x : f32
    memref.store %r60, %a[%c60] : memref<64xf32>
    %c61 = arith.constant 61 : index
    %r61 = math.copysign %y, %y : f64
    memref.store %r61, %b[%c61] : memref<64xf64>
    %c62 = arith.constant 62 : index
    %r62 = math.fma %x, %x, %x : f32
    memref.store %r62, %a[%c62] : memref<64xf32>
    gpu.return
  }
}
