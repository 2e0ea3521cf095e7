// llvm.mlir.constant's value against its type, and llvm.return against
// its function, with mlir-opt-22's messages (the second RUN line checks
// that mlir-opt-22 agrees).
// RUN: silica opt --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %s

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op expected array type of 5 i8 elements for the string constant}}
  %0 = llvm.mlir.constant("hello") : !llvm.array<4 x i8>
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op expected array attribute of size 3}}
  %0 = llvm.mlir.constant([1 : i8, 2 : i8]) : !llvm.struct<(i8, i8, i8)>
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op struct element at index 0 is of wrong type}}
  %0 = llvm.mlir.constant([1 : i16, 2 : i8]) : !llvm.struct<(i8, i8)>
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op expected array attribute for struct type}}
  %0 = llvm.mlir.constant(7 : i8) : !llvm.struct<(i8)>
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op expected integer type}}
  %0 = llvm.mlir.constant(7 : i32) : f64
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op expected integer type of width 32}}
  %0 = llvm.mlir.constant(1.5 : f32) : i64
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op attribute and type have different float semantics}}
  %0 = llvm.mlir.constant(1.5 : f16) : bf16
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op type and attribute have a different number of elements: 4 vs. 3}}
  %0 = llvm.mlir.constant(dense<[1, 2, 3]> : vector<3xi32>) : vector<4xi32>
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op expected array or struct type for array attribute}}
  %0 = llvm.mlir.constant([1 : i32]) : vector<1xi32>
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op for array with an array attribute must have a struct element type}}
  %0 = llvm.mlir.constant([1 : i32, 2 : i32]) : !llvm.array<2 x i32>
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{'llvm.mlir.constant' op array attribute size does not match array type size in dimension 0: 1 vs. 3}}
  %0 = llvm.mlir.constant([[1 : i32]]) : !llvm.array<3 x struct<(i32)>>
  llvm.return
}

// -----

// expected-note @+1 {{when returning from function}}
llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.return' op expected no operands}}
  llvm.return %a : i32
}

// -----

// expected-note @+1 {{when returning from function}}
llvm.func @f(%a: i32) -> i64 {
  // expected-error @+1 {{'llvm.return' op mismatching result types}}
  llvm.return %a : i32
}
