// memref verifier errors with mlir-opt-22's messages, checked by both tools.
// RUN: silica opt --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %s

func.func @load_alignment(%m: memref<4xi32>, %i: index) {
  // expected-error@+1 {{'memref.load' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %v = memref.load %m[%i] {alignment = 6} : memref<4xi32>
  return
}

// -----

func.func @store_alignment(%m: memref<4xi32>, %i: index, %v: i32) {
  // expected-error@+1 {{'memref.store' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  memref.store %v, %m[%i] {alignment = 0} : memref<4xi32>
  return
}

// -----

func.func @alloca_alignment() {
  // expected-error@+1 {{'memref.alloca' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
  %0 = memref.alloca() {alignment = 12} : memref<4xf32>
  return
}

// -----

// expected-error@+1 {{'memref.global' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
memref.global @g : memref<4xf32> = uninitialized {alignment = 5}

// -----

func.func @assume_alignment(%m: memref<4xf16>) {
  // expected-error@+1 {{'memref.assume_alignment' op alignment must be power of 2}}
  %0 = memref.assume_alignment %m, 24 : memref<4xf16>
  return
}

// -----

func.func @assume_alignment_zero(%m: memref<4xf16>) {
  // expected-error@+1 {{attribute 'alignment' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %0 = memref.assume_alignment %m, 0 : memref<4xf16>
  return
}

// -----

func.func @fine(%m: memref<4xi32>, %i: index) {
  %v = memref.load %m[%i] {alignment = 16} : memref<4xi32>
  %0 = memref.alloc() {alignment = 64} : memref<4xf32>
  %1 = memref.assume_alignment %m, 8 : memref<4xi32>
  return
}
