// Convolutions for bench/hls_auto.py beside conv2d (3x3, i32) of
// bench/hls_qor_kernels.mlir: the 3x3 one at i16 and a 5x5 one on a
// 36x36 image at i16 and i32. Each function is <kernel>_<type>.
module {
  func.func @conv2d_i16(%I: memref<16x16xi16> {hls.name = "I"}, %W: memref<3x3xi16> {hls.name = "W"},
                        %O: memref<14x14xi16> {hls.name = "O"}) {
    %zero = arith.constant 0 : i16
    affine.for %i = 0 to 14 {
      affine.for %j = 0 to 14 {
        %sum = affine.for %p = 0 to 3 iter_args(%a = %zero) -> i16 {
          %row = affine.for %q = 0 to 3 iter_args(%b = %a) -> i16 {
            %x = affine.load %I[%i + %p, %j + %q] : memref<16x16xi16>
            %w = affine.load %W[%p, %q] : memref<3x3xi16>
            %m = arith.muli %x, %w : i16
            %s = arith.addi %b, %m : i16
            affine.yield %s : i16
          }
          affine.yield %row : i16
        }
        affine.store %sum, %O[%i, %j] : memref<14x14xi16>
      }
    }
    return
  }

  func.func @conv5x5_i16(%I: memref<36x36xi16> {hls.name = "I"}, %W: memref<5x5xi16> {hls.name = "W"},
                         %O: memref<32x32xi16> {hls.name = "O"}) {
    %zero = arith.constant 0 : i16
    affine.for %i = 0 to 32 {
      affine.for %j = 0 to 32 {
        %sum = affine.for %p = 0 to 5 iter_args(%a = %zero) -> i16 {
          %row = affine.for %q = 0 to 5 iter_args(%b = %a) -> i16 {
            %x = affine.load %I[%i + %p, %j + %q] : memref<36x36xi16>
            %w = affine.load %W[%p, %q] : memref<5x5xi16>
            %m = arith.muli %x, %w : i16
            %s = arith.addi %b, %m : i16
            affine.yield %s : i16
          }
          affine.yield %row : i16
        }
        affine.store %sum, %O[%i, %j] : memref<32x32xi16>
      }
    }
    return
  }

  func.func @conv5x5_i32(%I: memref<36x36xi32> {hls.name = "I"}, %W: memref<5x5xi32> {hls.name = "W"},
                         %O: memref<32x32xi32> {hls.name = "O"}) {
    %zero = arith.constant 0 : i32
    affine.for %i = 0 to 32 {
      affine.for %j = 0 to 32 {
        %sum = affine.for %p = 0 to 5 iter_args(%a = %zero) -> i32 {
          %row = affine.for %q = 0 to 5 iter_args(%b = %a) -> i32 {
            %x = affine.load %I[%i + %p, %j + %q] : memref<36x36xi32>
            %w = affine.load %W[%p, %q] : memref<5x5xi32>
            %m = arith.muli %x, %w : i32
            %s = arith.addi %b, %m : i32
            affine.yield %s : i32
          }
          affine.yield %row : i32
        }
        affine.store %sum, %O[%i, %j] : memref<32x32xi32>
      }
    }
    return
  }
}
