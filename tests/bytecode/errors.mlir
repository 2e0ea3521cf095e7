// Damaged bytecode is an error at the byte where the damage was found,
// with the version and producer the file names, and writes nothing.
// RUN: silica opt --emit-bytecode %s -o %t.mlirbc
// RUN: head -c 40 %t.mlirbc > %t.truncated.mlirbc
// RUN: not silica opt %t.truncated.mlirbc -o %t.out 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not test -e %t.out
// TRUNCATED: truncated.mlirbc:0:0: error: attempting to parse {{[0-9]+}} bytes when only {{[0-9]+}} remain (at byte {{[0-9]+}})
// TRUNCATED-NEXT: truncated.mlirbc:0:0: note: in bytecode version 6 produced by: MLIR22.1.8
// RUN: printf 'ML\xefR\x0fMLIR99\x00' > %t.newer.mlirbc
// RUN: not silica opt %t.newer.mlirbc 2>&1 | FileCheck %s --check-prefix=NEWER
// NEWER: newer.mlirbc:0:0: error: bytecode version 7 is newer than the current version 6 (at byte 4)
// RUN: printf 'ML\xefR\x0dMLIR22.1.8\x00\x09\x03\x01' > %t.section.mlirbc
// RUN: not silica opt %t.section.mlirbc 2>&1 | FileCheck %s --check-prefix=SECTION
// SECTION: error: invalid section ID: 9 (at byte 16)
// RUN: printf 'ML\xefR\x0dMLIR22.1.8\x00\x00\x01' > %t.missing.mlirbc
// RUN: not silica opt %t.missing.mlirbc 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: missing data for top-level section: Dialect (1)
// RUN: not silica hls %t.truncated.mlirbc --top f -o %t.hls 2>&1 | FileCheck %s --check-prefix=HLS
// HLS: error: could not open input file '{{.*}}truncated.mlirbc': {{.*}}truncated.mlirbc:0:0: error: attempting to parse

func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  return %0 : i32
}
