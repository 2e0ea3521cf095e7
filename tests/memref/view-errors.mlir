// Verifier errors of memref views, casts, globals, DMA and atomics with
// mlir-opt-22's messages, checked by both tools.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

func.func @subview_offset_out_of_bounds(%m: memref<16xf32>) {
  // expected-error@+1 {{offset 0 is out-of-bounds: 16 >= 16}}
  %0 = memref.subview %m[16] [1] [1] : memref<16xf32> to memref<1xf32, strided<[1], offset: 16>>
  return
}

// -----

func.func @subview_slice_out_of_bounds(%m: memref<8x8xf32>) {
  // expected-error@+1 {{slice along dimension 1 runs out-of-bounds: 10 >= 8}}
  %0 = memref.subview %m[0, 4] [2, 4] [1, 2] : memref<8x8xf32> to memref<2x4xf32, strided<[8, 2], offset: 4>>
  return
}

// -----

func.func @subview_wrong_layout(%m: memref<8x8xf32>) {
  // expected-error@+1 {{expected result type to be 'memref<4x4xf32, strided<[8, 1], offset: 18>>' or a rank-reduced version. (mismatch of result layout)}}
  %0 = memref.subview %m[2, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 16>>
  return
}

// -----

func.func @subview_rank_reduced(%m: memref<8x8xf32>) -> memref<4xf32, strided<[8], offset: 2>> {
  %0 = memref.subview %m[0, 2] [4, 1] [1, 1] : memref<8x8xf32> to memref<4xf32, strided<[8], offset: 2>>
  return %0 : memref<4xf32, strided<[8], offset: 2>>
}

func.func @subview_sizes(%m: memref<8x8xf32>) {
  // expected-error@+1 {{mismatch of result sizes}}
  %0 = memref.subview %m[0, 0] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x2xf32, strided<[8, 1]>>
  return
}

// -----

func.func @subview_negative_size(%m: memref<8xf32>) {
  // expected-error@+1 {{expected sizes to be non-negative, but got -3}}
  %0 = memref.subview %m[0] [-3] [1] : memref<8xf32> to memref<?xf32, strided<[1]>>
  return
}

// -----

func.func @subview_strides_rank(%m: memref<8x8xf32>) {
  // expected-error@+1 {{expected mixed sizes rank to match mixed strides rank (2 vs 1)}}
  %0 = memref.subview %m[0, 0] [2, 2] [1] : memref<8x8xf32> to memref<2x2xf32, strided<[8, 1]>>
  return
}

// -----

func.func @reinterpret_cast_stride(%m: memref<?xf32>) {
  // expected-error@+1 {{expected result type with stride = 4 instead of 2 in dim = 0}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [4] : memref<?xf32> to memref<4xf32, strided<[2]>>
  return
}

// -----

func.func @reinterpret_cast_offset(%m: memref<?xf32>, %o: index) {
  // expected-error@+1 {{expected result type with offset = dynamic instead of 3}}
  %0 = memref.reinterpret_cast %m to offset: [%o], sizes: [4], strides: [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: 3>>
  return
}

// -----

func.func @reinterpret_cast_element(%m: memref<?xf32>) {
  // expected-error@+1 {{different element types specified for source type 'memref<?xf32>' and result memref type 'memref<4xi8>'}}
  %0 = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [1] : memref<?xf32> to memref<4xi8>
  return
}

// -----

func.func @collapse_group_size(%m: memref<3x5xf32>) {
  // expected-error@+1 {{'memref.collapse_shape' op collapsed dim size (16) must equal reassociation group size (15)}}
  %0 = memref.collapse_shape %m [[0, 1]] : memref<3x5xf32> into memref<16xf32>
  return
}

// -----

func.func @collapse_non_contiguous(%m: memref<4x4xf32, strided<[10, 2]>>) {
  // expected-error@+1 {{'memref.collapse_shape' op invalid source layout map or collapsing non-contiguous dims}}
  %0 = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32, strided<[10, 2]>> into memref<16xf32, strided<[2]>>
  return
}

// -----

func.func @expand_layout(%m: memref<12xf32, strided<[3], offset: 5>>) {
  // expected-error@+1 {{'memref.expand_shape' op expected expanded type to be 'memref<3x4xf32, strided<[12, 3], offset: 5>>' but found 'memref<3x4xf32, strided<[4, 1], offset: 5>>'}}
  %0 = memref.expand_shape %m [[0, 1]] output_shape [3, 4] : memref<12xf32, strided<[3], offset: 5>> into memref<3x4xf32, strided<[4, 1], offset: 5>>
  return
}

// -----

func.func @expand_dynamic_group(%m: memref<?xf32>, %n: index) {
  // expected-error@+1 {{'memref.expand_shape' op collapsed dim (0) must be dynamic if and only if reassociation group is dynamic}}
  %0 = memref.expand_shape %m [[0, 1]] output_shape [2, 3] : memref<?xf32> into memref<2x3xf32>
  return
}

// -----

func.func @cast_layout(%m: memref<4xf32, strided<[1], offset: 2>>) {
  // expected-error@+1 {{operand type 'memref<4xf32, strided<[1], offset: 2>>' and result type 'memref<4xf32, strided<[1], offset: 3>>' are cast incompatible}}
  %0 = memref.cast %m : memref<4xf32, strided<[1], offset: 2>> to memref<4xf32, strided<[1], offset: 3>>
  return
}

// -----

func.func @copy_shapes(%a: memref<4xf32>, %b: memref<5xf32>) {
  // expected-error@+1 {{'memref.copy' op requires the same shape for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @view_sizes(%m: memref<64xi8>, %s: index, %n: index) {
  // expected-error@+1 {{incorrect number of dynamic sizes, has 2, expected 1}}
  %0 = memref.view %m[%s][%n, %n] : memref<64xi8> to memref<?x4xf32>
  return
}

// -----

func.func @realloc_missing_size(%m: memref<4xf32>) {
  // expected-error@+1 {{missing dimension operand for result type 'memref<?xf32>'}}
  %0 = memref.realloc %m : memref<4xf32> to memref<?xf32>
  return
}

// -----

func.func @reshape_rank(%m: memref<6xf32>, %s: memref<3xi64>) {
  // expected-error@+1 {{'memref.reshape' op length of shape operand differs from the result's memref rank}}
  %0 = memref.reshape %m(%s) : (memref<6xf32>, memref<3xi64>) -> memref<2x3xf32>
  return
}

// -----

func.func @alloc_symbols(%n: index) {
  // expected-error@+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 1, got 0}}
  %0 = memref.alloc() : memref<4xf32, affine_map<(d0)[s0] -> (d0 + s0)>>
  return
}

// -----

"wrapper"() ({
  // expected-error@+1 {{'memref.alloca' op requires an ancestor op with AutomaticAllocationScope trait}}
  %0 = memref.alloca() : memref<4xf32>
  "wrapper.end"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{custom op 'memref.global' type should be static shaped memref, but got 'memref<?xi32>'}}
memref.global @dynamic : memref<?xi32>

// -----

// expected-error@+1 {{'memref.global' op initial value element expected to be of type 'i32', but was of type 'i64'}}
"memref.global"() <{initial_value = dense<0> : tensor<2xi64>, sym_name = "g", type = memref<2xi32>}> : () -> ()

// -----

// expected-error@+1 {{'memref.global' op visibility expected to be one of ["public", "private", "nested"], but got "hidden"}}
memref.global "hidden" @g : memref<2xi32>

// -----

memref.global @g : memref<2xi32>
func.func @get_global_type() {
  // expected-error@+1 {{'memref.get_global' op result type 'memref<2xi64>' does not match type 'memref<2xi32>' of the global memref @g}}
  %0 = memref.get_global @g : memref<2xi64>
  return
}

// -----

func.func @get_global_missing() {
  // expected-error@+1 {{'memref.get_global' op 'nowhere' does not reference a valid global memref}}
  %0 = memref.get_global @nowhere : memref<2xi64>
  return
}

// -----

func.func @dma_tag_indices(%src: memref<8xf32>, %dst: memref<8xf32, 1>, %tag: memref<1xi32>, %i: index, %f: f32) {
  // expected-error@+1 {{'memref.dma_start' op expected tag indices to be of index type}}
  "memref.dma_start"(%src, %i, %dst, %i, %i, %tag, %f) : (memref<8xf32>, index, memref<8xf32, 1>, index, index, memref<1xi32>, f32) -> ()
  return
}

// -----

func.func @dma_wait_rank(%tag: memref<1x1xi32>, %i: index) {
  // expected-error@+1 {{expected tagIndices to have the same number of elements as the tagMemRef rank, expected 2, but got 0}}
  "memref.dma_wait"(%tag, %i) : (memref<1x1xi32>, index) -> ()
  return
}

// -----

func.func @prefetch_locality(%m: memref<4xf32>, %i: index) {
  // expected-error@+1 {{'memref.prefetch' op attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
  memref.prefetch %m[%i], write, locality<4>, instr : memref<4xf32>
  return
}

// -----

func.func @atomic_kind(%m: memref<4xi32>, %i: index, %v: i32) {
  // expected-error@+1 {{'memref.atomic_rmw' op with kind 'mulf' expects a floating-point type}}
  %0 = memref.atomic_rmw mulf %v, %m[%i] : (i32, memref<4xi32>) -> i32
  return
}

// -----

func.func @generic_atomic_effects(%m: memref<4xi32>, %i: index) {
  %0 = memref.generic_atomic_rmw %m[%i] : memref<4xi32> {
  ^bb0(%old: i32):
    // expected-error@+1 {{body of 'memref.generic_atomic_rmw' should contain only operations with no side effects}}
    memref.store %old, %m[%i] : memref<4xi32>
    memref.atomic_yield %old : i32
  }
  return
}

// -----

func.func @transpose_rank(%m: memref<4x4xf32>) {
  // expected-error@+1 {{'memref.transpose' op expected a permutation map of same rank as the input}}
  %0 = memref.transpose %m (d0, d1, d2) -> (d2, d1, d0) : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

func.func @store_named(%m: memref<4xf32>, %i: index, %v: f32) {
  // expected-error@+1 {{cannot name an operation with no results}}
  %0 = memref.store %v, %m[%i] : memref<4xf32>
  return
}
