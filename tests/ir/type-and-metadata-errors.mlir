// Diagnostics of builtin types, file metadata and locations, with
// mlir-opt-22's messages and locations, checked by both tools.
// RUN: silica opt --allow-unregistered-dialect --split-input-file --verify-diagnostics %s
// RUN: mlir-opt-22 --allow-unregistered-dialect --split-input-file --verify-diagnostics %s

// expected-error@+1 {{expected list element}}
func.func private @f(memref<4xi8, >)

// -----

// expected-error@+1 {{expected ',' or '>' in memref type}}
func.func private @f(memref<4xi8 1>)

// -----

// expected-error@+1 {{unsupported memory space Attribute}}
func.func private @f(memref<4xi8, [1]>)

// -----

// expected-error@+1 {{unsupported memory space Attribute}}
func.func private @f(memref<*xi8, #foo.space>)

// -----

// expected-error@+1 {{multiple memory spaces specified in memref type}}
func.func private @f(memref<4xi8, "x", {a}>)

// -----

// expected-error@+1 {{expected memory space to be last in memref type}}
func.func private @f(memref<4xi8, 1, strided<[1]>>)

// -----

// expected-error@+1 {{cannot have affine map for unranked memref type}}
func.func private @f(memref<*xi8, strided<[1]>>)

// -----

// A later layout replaces an earlier one.
func.func private @f(memref<4xi8, strided<[1]>, strided<[2]>>)

// -----

// expected-error@+1 {{memref layout mismatch between rank and affine map: 1 != 2}}
func.func private @f(memref<42xi8, affine_map<(d0, d1) -> (d0)>>)

// -----

// expected-error@+1 {{expected the number of strides to match the rank}}
func.func private @f(memref<4x4xi8, strided<[1]>>)

// -----

// expected-error@+1 {{expected '<' after 'strided'}}
func.func private @f(memref<4xi8, strided>)

// -----

// expected-error@+1 {{expected a 64-bit signed integer or '?'}}
func.func private @f(memref<4xi8, strided<[99999999999999999999]>>)

// -----

// expected-error@+1 {{expected a 64-bit signed integer or '?'}}
func.func private @f(memref<4xi8, strided<[1], offset: 1.5>>)

// -----

func.func private @f(memref<4xi8, strided<[0x10], offset: -9223372036854775807>>)

// -----

// expected-error@+1 {{invalid integer width}}
func.func private @f(i4294967296)

// -----

// expected-error@+1 {{integer bitwidth is limited to 16777215 bits}}
func.func private @f(i16777216)

// -----

// expected-error@+2 {{expected affine expression}}
// expected-error@+1 {{missing operand of negation}}
#m = affine_map<(d0) -> (-)>

// -----

// One expectation matches both errors of the nested negations.
// expected-error@+2 {{expected affine expression}}
// expected-error@+1 {{missing operand of negation}}
#m = affine_map<(d0) -> (--)>

// -----

// expected-error@+1 {{expected ']' in symbol list}}
#m = affine_map<(d0)[s0 s1] -> (d0)>

// -----

// expected-error@+1 {{expected ')' in dimensional identifier list}}
#m = affine_map<(d0 d1) -> (d0)>

// -----

// expected-error@+1 {{expected ',' or ']'}}
"t.op"() {a = [1 2]} : () -> ()

// -----

// expected-error@+1 {{expected nested symbol reference identifier}}
"t.op"() {a = @a::x} : () -> ()

// -----

// expected-error@+1 {{expected ')' to end operand list}}
"t.op"(%a %b) : () -> ()

// -----

// expected-error@+1 {{expected location, but found '[1, "a"]'}}
"t.op"() : () -> () loc(#not_a_loc)
#not_a_loc = [1, "a"]

// -----

{-#
  dialect_resources: {
    // expected-error@+1 {{dialect 'nosuch' is unknown}}
    nosuch: {
      blob: "0x04000000"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    func: {
      // expected-error@+1 {{unexpected 'resource' section for dialect 'func'}}
      blob: "0x04000000"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      // expected-error@+1 {{expected hex string blob for key 'blob'}}
      blob: true
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      // expected-error@+1 {{expected hex string blob for key 'blob' to encode alignment in first 4 bytes}}
      blob: "0x0400"
    }
  }
#-}

// -----

{-#
  dialect_resources: {
    builtin: {
      // expected-error@+1 {{expected hex string blob for key 'blob' to encode alignment in first 4 bytes, but got non-power-of-2 value: 3}}
      blob: "0x03000000"
    }
  }
#-}
