// Small i32 kernels for bench/hls_qor.py, at the sizes CIRCT's static HLS
// flow is quoted at: vadd(64), dot(64), gemm(16^3), and a FIR
// and a 3x3 convolution beside them.

func.func @vadd(%a: memref<64xi32> {hls.name = "a"}, %b: memref<64xi32> {hls.name = "b"},
                %c: memref<64xi32> {hls.name = "c"}) {
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xi32>
    %y = affine.load %b[%i] : memref<64xi32>
    %s = arith.addi %x, %y : i32
    affine.store %s, %c[%i] : memref<64xi32>
  }
  return
}

func.func @dot(%a: memref<64xi32> {hls.name = "a"}, %b: memref<64xi32> {hls.name = "b"}) -> i32 {
  %z = arith.constant 0 : i32
  %r = affine.for %i = 0 to 64 iter_args(%acc = %z) -> (i32) {
    %x = affine.load %a[%i] : memref<64xi32>
    %y = affine.load %b[%i] : memref<64xi32>
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    affine.yield %s : i32
  }
  return %r : i32
}

// y[n] = sum over k < 8 of h[k] * x[n + k], n < 64.
func.func @fir(%x: memref<71xi32> {hls.name = "x"}, %h: memref<8xi32> {hls.name = "h"},
               %y: memref<64xi32> {hls.name = "y"}) {
  %z = arith.constant 0 : i32
  affine.for %n = 0 to 64 {
    %acc = affine.for %k = 0 to 8 iter_args(%s = %z) -> (i32) {
      %xv = affine.load %x[%n + %k] : memref<71xi32>
      %hv = affine.load %h[%k] : memref<8xi32>
      %p = arith.muli %xv, %hv : i32
      %t = arith.addi %s, %p : i32
      affine.yield %t : i32
    }
    affine.store %acc, %y[%n] : memref<64xi32>
  }
  return
}

// A 3x3 convolution of a 16x16 image into a 14x14 output.
func.func @conv2d(%I: memref<16x16xi32> {hls.name = "I"}, %W: memref<3x3xi32> {hls.name = "W"},
                  %O: memref<14x14xi32> {hls.name = "O"}) {
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 14 {
    affine.for %j = 0 to 14 {
      %sum = affine.for %p = 0 to 3 iter_args(%a = %zero) -> i32 {
        %row = affine.for %q = 0 to 3 iter_args(%b = %a) -> i32 {
          %x = affine.load %I[%i + %p, %j + %q] : memref<16x16xi32>
          %w = affine.load %W[%p, %q] : memref<3x3xi32>
          %m = arith.muli %x, %w : i32
          %s = arith.addi %b, %m : i32
          affine.yield %s : i32
        }
        affine.yield %row : i32
      }
      affine.store %sum, %O[%i, %j] : memref<14x14xi32>
    }
  }
  return
}

// C += A * B on 16x16 matrices (i, j, k order).
func.func @gemm16(%A: memref<16x16xi32> {hls.name = "A"}, %B: memref<16x16xi32> {hls.name = "B"},
                  %C: memref<16x16xi32> {hls.name = "C"}) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 16 {
        %a = affine.load %A[%i, %k] : memref<16x16xi32>
        %b = affine.load %B[%k, %j] : memref<16x16xi32>
        %c = affine.load %C[%i, %j] : memref<16x16xi32>
        %p = arith.muli %a, %b : i32
        %s = arith.addi %c, %p : i32
        affine.store %s, %C[%i, %j] : memref<16x16xi32>
      }
    }
  }
  return
}

// y = A x, 16 x 16: the generated counterpart of bench/fpga_ref/matvec.v.
func.func @matvec(%A: memref<16x16xi32> {hls.name = "A"}, %x: memref<16xi32> {hls.name = "x"},
                  %y: memref<16xi32> {hls.name = "y"}) {
  affine.for %i = 0 to 16 {
    %z = arith.constant 0 : i32
    %r = affine.for %j = 0 to 16 iter_args(%acc = %z) -> (i32) {
      %a = affine.load %A[%i, %j] : memref<16x16xi32>
      %b = affine.load %x[%j] : memref<16xi32>
      %p = arith.muli %a, %b : i32
      %s = arith.addi %acc, %p : i32
      affine.yield %s : i32
    }
    affine.store %r, %y[%i] : memref<16xi32>
  }
  return
}
