// Checks of globals, functions and `llvm.mlir.addressof` with
// mlir-opt-22's messages: global types, string and target-extension
// initializers, address spaces, alignment, initializer regions (type,
// side effects, not with a value), references to symbols that are not
// globals, function types and entry blocks, the custom function syntax,
// and unknown calling conventions.
// RUN: silica opt --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --split-input-file --verify-diagnostics %s

// expected-error @+1 {{requires an i8 array type of the length equal to that of the string attribute}}
llvm.mlir.global internal constant @string("foobar") : !llvm.array<4 x i8>

// -----

// expected-error @+1 {{expects type to be a valid element type for an LLVM global}}
llvm.mlir.global internal @void_global() : !llvm.void

// -----

// expected-error @+1 {{'addr_space' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
"llvm.mlir.global"() ({}) {sym_name = "g", global_type = i64, value = 1 : i64, addr_space = -2 : i32, linkage = #llvm.linkage<private>} : () -> ()

// -----

// expected-error @+1 {{alignment attribute is not a power of 2}}
llvm.mlir.global internal @misaligned(1 : i32) {alignment = 6 : i64} : i32

// -----

// expected-error @+1 {{initializer region type 'i16' does not match global type 'i32'}}
llvm.mlir.global internal @g() : i32 {
  %c = llvm.mlir.constant(1 : i16) : i16
  llvm.return %c : i16
}

// -----

llvm.mlir.global internal @src(0 : i32) : i32
llvm.mlir.global internal @g() : i32 {
  %0 = llvm.mlir.addressof @src : !llvm.ptr
  // expected-error @+1 {{ops with side effects not allowed in global initializers}}
  %1 = llvm.load %0 : !llvm.ptr -> i32
  llvm.return %1 : i32
}

// -----

// expected-error @+1 {{cannot have both initializer value and region}}
llvm.mlir.global internal @g(3 : i32) : i32 {
  %c = llvm.mlir.constant(1 : i32) : i32
  llvm.return %c : i32
}

// -----

// expected-error @+1 {{global with target extension type can only be initialized with zero-initializer}}
llvm.mlir.global @target(1 : i64) : !llvm.target<"spirv.Image", i32, 0>

// -----

// expected-error @+1 {{type can only be omitted for string globals}}
llvm.mlir.global internal @untyped(1 : i32)

// -----

llvm.func @f() {
  // expected-error @+1 {{must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'}}
  %0 = llvm.mlir.addressof @missing : !llvm.ptr
  llvm.return
}

// -----

llvm.mlir.global internal @g(1 : i64) {addr_space = 1 : i32} : i64
llvm.func @f() {
  // expected-error @+1 {{pointer address space must match address space of the referenced global}}
  %0 = llvm.mlir.addressof @g : !llvm.ptr<2>
  llvm.return
}

// -----

// expected-error @+1 {{requires one region}}
"llvm.func"() {function_type = !llvm.func<void ()>, sym_name = "f"} : () -> ()

// -----

// expected-error @+1 {{attribute 'function_type' failed to satisfy constraint: type attribute of LLVM function type}}
"llvm.func"() ({}) {sym_name = "f", function_type = (i32) -> i32} : () -> ()

// -----

// expected-error @+1 {{entry block must have 1 arguments to match function signature}}
"llvm.func"() ({
^bb0:
  llvm.return
}) {function_type = !llvm.func<void (i32)>, sym_name = "f"} : () -> ()

// -----

// expected-error @+1 {{entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"llvm.func"() ({
^bb0(%a: i64):
  llvm.return
}) {function_type = !llvm.func<void (i32)>, sym_name = "f"} : () -> ()

// -----

// expected-error @+1 {{failed to construct function type: expected LLVM type for function arguments}}
llvm.func @f(index)

// -----

// expected-error @+1 {{failed to construct function type: expected zero or one function result}}
llvm.func @f() -> (i32, i32)

// -----

// expected-error @+1 {{variadic arguments must be in the end of the argument list}}
llvm.func @f(%a: i32, ..., %b: i32)

// -----

"llvm.func"() ({
// expected-error @below {{expected one of [ccc, fastcc, coldcc, cc_10, cc_11, anyregcc, preserve_mostcc, preserve_allcc, swiftcc, cxx_fast_tlscc, tailcc, cfguard_checkcc, swifttailcc, x86_stdcallcc, x86_fastcallcc, arm_apcscc, arm_aapcscc, arm_aapcs_vfpcc, msp430_intrcc, x86_thiscallcc, ptx_kernelcc, ptx_devicecc, spir_funccc, spir_kernelcc, intel_ocl_bicc, x86_64_sysvcc, win64cc, x86_vectorcallcc, hhvmcc, hhvm_ccc, x86_intrcc, avr_intrcc, avr_builtincc, amdgpu_vscc, amdgpu_gscc, amdgpu_cscc, amdgpu_kernelcc, x86_regcallcc, amdgpu_hscc, msp430_builtincc, amdgpu_lscc, amdgpu_escc, aarch64_vectorcallcc, aarch64_sve_vectorcallcc, wasm_emscripten_invokecc, amdgpu_gfxcc, m68k_intrcc] for Calling Conventions, got: fastestcc}}
// expected-error @below {{failed to parse CConvAttr parameter 'CallingConv' which is to be a `CConv`}}
}) {sym_name = "f", CConv = #llvm.cconv<fastestcc>, function_type = !llvm.func<void ()>} : () -> ()

// -----

llvm.mlir.global external @x(42 : i32) : i32
// expected-error@+1 {{'appending' linkage not supported in aliases, available options: private, internal, linkonce, weak, linkonce_odr, weak_odr, external or available_externally}}
llvm.mlir.alias appending @y : i32 {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// -----

llvm.mlir.global external @x(42 : i32) : i32
llvm.mlir.alias external @y : i32 {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  // expected-error@+1 {{ops with side effects are not allowed in alias initializers}}
  %1 = llvm.load %0 : !llvm.ptr -> i32
  llvm.return %0 : !llvm.ptr
}

// -----

llvm.mlir.global external @x(42 : i32) : i32
// expected-error@+1 {{expects type to be a valid element type for an LLVM global alias}}
llvm.mlir.alias external @y : !llvm.label {
  %0 = llvm.mlir.addressof @x : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}
