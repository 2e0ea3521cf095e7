// A module large enough to be written on two threads (its attributes
// and types beside its IR, its top-level ops in two halves, the ops'
// properties numbered first): the bytes are mlir-opt-22's, at version 6
// and at version 1 (isolated regions inline), with registered and
// unregistered ops' properties; silica reads them back.
// RUN: for i in $(seq 0 2499); do \
// RUN:   echo "func.func @f$i(%a: i32, %m: memref<8xi32>) -> i32 {"; \
// RUN:   echo "  %c = arith.constant $i : i32"; \
// RUN:   echo "  %x = arith.addi %c, %a overflow<nsw> : i32"; \
// RUN:   echo "  %y = arith.muli %a, %x : i32"; \
// RUN:   echo "  %i = arith.constant 3 : index"; \
// RUN:   echo "  memref.store %y, %m[%i] : memref<8xi32>"; \
// RUN:   echo "  %u = \"xx.op\"(%x, %a) <{k = $i : i64}> {tag = \"t$((i % 7))\"} : (i32, i32) -> i32"; \
// RUN:   echo "  %false = arith.constant false"; \
// RUN:   echo "  %v = arith.select %false, %u, %y : i32"; \
// RUN:   echo "  return %v : i32"; \
// RUN:   echo "}"; \
// RUN: done > %t.big.mlir
// RUN: for v in 6 1; do \
// RUN:   silica opt --allow-unregistered-dialect --emit-bytecode --emit-bytecode-version=$v %t.big.mlir -o %t.silica.$v.mlirbc && \
// RUN:   mlir-opt-22 --allow-unregistered-dialect --emit-bytecode --emit-bytecode-version=$v %t.big.mlir -o %t.mlir-opt.$v.mlirbc && \
// RUN:   cmp %t.silica.$v.mlirbc %t.mlir-opt.$v.mlirbc && \
// RUN:   diff <(silica opt --allow-unregistered-dialect --mlir-print-debuginfo %t.silica.$v.mlirbc) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-debuginfo %t.mlir-opt.$v.mlirbc) || exit 1; \
// RUN: done
