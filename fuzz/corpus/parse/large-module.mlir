// A module large enough (> 20000 ops) for the printer to split its body
// across threads; the text must still equal mlir-opt-22's, generic too.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for i in $(seq 2500); do sed "s/@f/@f$i/" %s | grep -v '^//'; done > %t/big.mlir
// RUN: diff <(silica opt --allow-unregistered-dialect %t/big.mlir) <(mlir-opt-22 --allow-unregistered-dialect %t/big.mlir)
// RUN: diff <(silica opt --allow-unregistered-dialect --mlir-print-op-generic %t/big.mlir) <(mlir-opt-22 --allow-unregistered-dialect --mlir-print-op-generic %t/big.mlir)
"foo.func"() <{sym_name = @f}> ({
^bb0(%a: i32):
  %0 = "foo.add"(%a, %a) : (i32, i32) -> i32
  %1:2 = "foo.pair"(%0) {k = [1, 2]} : (i32) -> (i32, f32)
  "foo.br"(%1#0)[^bb1] : (i32) -> ()
^bb1(%x: i32):
  %2 = "foo.loop"(%x) ({
  ^bb0(%i: index):
    "foo.yield"(%i) : (index) -> ()
  }) : (i32) -> i32
  "foo.ret"(%2, %1#1) : (i32, f32) -> ()
}) : () -> ()
