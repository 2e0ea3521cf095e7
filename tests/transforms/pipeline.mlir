// Pipelines: textual syntax, pass flags in order, IR dumps, timing, and
// errors for unknown passes, bad options and malformed pipelines.
// RUN: diff <(silica opt -p 'builtin.module(func.func(canonicalize{max-iterations=3 top-down=false},cse),symbol-dce)' %s) <(mlir-opt-22 -p 'builtin.module(func.func(canonicalize{max-iterations=3 top-down=false},cse),symbol-dce)' %s)
// RUN: diff <(silica opt --canonicalize --cse %s) <(mlir-opt-22 --canonicalize --cse %s)
// RUN: diff <(silica opt -p 'builtin.module(func.func(cse))' --mlir-print-ir-after-all --mlir-disable-threading %s 2>&1) <(mlir-opt-22 -p 'builtin.module(func.func(cse))' --mlir-print-ir-after-all --mlir-disable-threading %s 2>&1)
// RUN: diff <(silica opt --cse --canonicalize --mlir-print-ir-before=canonicalize %s 2>&1) <(mlir-opt-22 --cse --canonicalize --mlir-print-ir-before=canonicalize %s 2>&1)
// RUN: silica opt -p 'builtin.module(func.func(canonicalize,cse))' --mlir-timing %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: not silica opt -p 'builtin.module(func.func(canonicalise))' %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not silica opt -p 'builtin.module(func.func(canonicalize{max-iterations=x}))' %s 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not silica opt -p 'builtin.module(func.func(canonicalize{foo=1}))' %s 2>&1 | FileCheck %s --check-prefix=BADOPTION
// RUN: not silica opt -p 'builtin.module(func.func(cse)' %s 2>&1 | FileCheck %s --check-prefix=UNBALANCED
// RUN: not silica opt -p 'cse' %s 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not silica opt -p 'func.func(cse)' %s 2>&1 | FileCheck %s --check-prefix=WRONGOP
// RUN: not silica opt -p 'builtin.module(func.func(symbol-dce))' %s 2>&1 | FileCheck %s --check-prefix=NOTABLE
// RUN: silica opt --cse --canonicalize -o %t.out %s && test -s %t.out
// RUN: rm -f %t.fail && not silica opt -p 'builtin.module(nope)' -o %t.fail %s && test ! -e %t.fail

// TIMING: 'func.func' Pipeline
// TIMING-NEXT: Canonicalizer
// TIMING-NEXT: CSE
// UNKNOWN: 'canonicalise' does not refer to a registered pass or pass pipeline (did you mean 'canonicalize'?)
// UNKNOWN: note: registered passes: {{.*}}canonicalize, {{.*}}cse
// BADVALUE: invalid value 'x' for option 'max-iterations' of pass 'canonicalize': expected an integer
// BADOPTION: no such option 'foo' for pass 'canonicalize'; valid options: top-down, region-simplify, max-iterations
// UNBALANCED: encountered unbalanced parentheses while parsing pipeline
// ANCHOR: expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'
// WRONGOP: error: can't run 'func.func' pass manager on 'builtin.module' op
// NOTABLE: error: 'func.func' op  was scheduled to run under SymbolDCE, but does not define a symbol table

func.func @f(%a: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %x = arith.addi %a, %c0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %y = arith.addi %c1, %c2 : i32
  %z = arith.muli %x, %y : i32
  %w = arith.muli %x, %y : i32
  %r = arith.addi %z, %w : i32
  return %r : i32
}

func.func private @unused()
