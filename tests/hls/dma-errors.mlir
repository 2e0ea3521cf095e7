// Memory spaces and DMA that silica hls refuses: a diagnostic at the op
// or argument, exit 1, nothing written.
// RUN: rm -rf %t.d
// RUN: not silica hls %s --top tag_as_data -o %t.d 2>&1 | FileCheck %s --check-prefix=TAG
// RUN: not silica hls %s --top on_chip_argument -o %t.d 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not silica hls %s --top space_two -o %t.d 2>&1 | FileCheck %s --check-prefix=SPACE
// RUN: not silica hls %s --top conditional -o %t.d 2>&1 | FileCheck %s --check-prefix=COND
// RUN: test ! -e %t.d

func.func @tag_as_data(%a: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xi32, 1>
  %tag = memref.alloc() : memref<1xi32>
  affine.dma_start %a[%c0], %buf[%c0], %tag[%c0], %c4 : memref<4xi32>, memref<4xi32, 1>, memref<1xi32>
  affine.dma_wait %tag[%c0], %c4 : memref<1xi32>
// TAG: dma-errors.mlir:[[# @LINE + 1]]:8: error: a DMA tag memref can only be used by 'affine.dma_start' and 'affine.dma_wait'
  %t = affine.load %tag[0] : memref<1xi32>
  affine.store %t, %a[0] : memref<4xi32>
  return
}

// ARG: dma-errors.mlir:[[# @LINE + 1]]:29: error: memref 'memref<4xi32, 1>' is in the on-chip memory space 1; a memref argument is an external memory (space 0)
func.func @on_chip_argument(%a: memref<4xi32, 1>) {
  return
}

func.func @space_two(%a: memref<4xi32>) {
// SPACE: dma-errors.mlir:[[# @LINE + 1]]:8: error: memref 'memref<4xi32, 2>' is in a memory space silica hls does not know (0 is the default, 1 on-chip)
  %b = memref.alloc() : memref<4xi32, 2>
  return
}

func.func @conditional(%a: memref<4xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %buf = memref.alloc() : memref<4xi32, 1>
  %tag = memref.alloc() : memref<1xi32>
  affine.if affine_set<(d0) : (d0 - 1 >= 0)>(%n) {
// COND: dma-errors.mlir:[[# @LINE + 1]]:5: error: 'affine.dma_start' inside a conditional is not supported yet
    affine.dma_start %a[%c0], %buf[%c0], %tag[%c0], %c4 : memref<4xi32>, memref<4xi32, 1>, memref<1xi32>
  }
  affine.dma_wait %tag[%c0], %c4 : memref<1xi32>
  return
}
