// A dialect defined at run time, used by uses.mlir and errors.mlir; its
// own printing (custom, generic, generic back to custom) against mlir-opt-22.
// RUN: diff <(silica opt %s) <(mlir-opt-22 %s)
// RUN: diff <(silica opt --mlir-print-op-generic %s) <(mlir-opt-22 --mlir-print-op-generic %s)
// RUN: silica opt --mlir-print-op-generic %s | silica opt | diff - <(mlir-opt-22 %s)

irdl.dialect @sil {
  // A fixed-point number: a width and a scale.
  irdl.type @fixed {
    %0 = irdl.base "!builtin.integer"
    %1 = irdl.base "#builtin.integer"
    irdl.parameters(width: %0, scale: %1)
  }
  irdl.type @unit_type
  // A list of itself or of integers (a cycle through irdl.parametric).
  irdl.type @list {
    %0 = irdl.any
    %1 = irdl.parametric @sil::@list<%0>
    %2 = irdl.base "!builtin.integer"
    %3 = irdl.any_of(%1, %2)
    irdl.parameters(elem: %3)
  }
  irdl.attribute @rounding {
    %0 = irdl.is "nearest"
    %1 = irdl.is "zero"
    %2 = irdl.any_of(%0, %1)
    irdl.parameters(mode: %2)
  }

  // Same type for both operands and the result, any integer width.
  irdl.operation @add {
    %0 = irdl.base "!builtin.integer"
    irdl.operands(lhs: %0, rhs: %0)
    irdl.results(res: %0)
  }
  // Fixed-point multiply with a rounding mode.
  irdl.operation @mul {
    %0 = irdl.any
    %1 = irdl.any
    %2 = irdl.parametric @sil::@fixed<%0, %1>
    %3 = irdl.base @sil::@rounding
    irdl.operands(lhs: %2, rhs: %2)
    irdl.results(res: %2)
    irdl.attributes {"round" = %3}
  }
  // i32 or f32, and also the result's type.
  irdl.operation @narrow {
    %0 = irdl.is i32
    %1 = irdl.is f32
    %2 = irdl.any_of(%0, %1)
    %3 = irdl.is i32
    %4 = irdl.all_of(%2, %3)
    irdl.operands(x: %4)
  }
  irdl.operation @pack {
    %0 = irdl.is i8
    %1 = irdl.is i16
    %2 = irdl.is index
    irdl.operands(head: %0, body: variadic %1, tail: optional %2)
    irdl.results(out: single %0)
  }
  irdl.operation @gather {
    %0 = irdl.any
    irdl.operands(first: %0, rest: variadic %0)
    irdl.results(all: %0)
  }
  irdl.operation @two_lists {
    %0 = irdl.is i8
    %1 = irdl.is i16
    irdl.operands(a: variadic %0, b: variadic %1)
    irdl.results(c: optional %0, d: variadic %1)
  }
  // A loop: a body block taking an index, and a one-block else region
  // without arguments.
  irdl.operation @loop {
    %0 = irdl.is index
    %1 = irdl.region(%0)
    %2 = irdl.region() with size 1
    %3 = irdl.region
    irdl.operands(bound: %0)
    irdl.regions(body: %1, other: %2, any: %3)
  }
}
