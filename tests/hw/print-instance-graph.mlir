// --hw-print-instance-graph writes the module hierarchy as a Graphviz
// digraph on standard error: modules in the order first met, instances
// as labelled edges; names Graphviz would misread are escaped. The IR
// itself is unchanged.
// RUN: silica opt --hw-print-instance-graph %s -o %t.mlir 2>&1 | FileCheck %s
// RUN: silica opt %s | diff - %t.mlir

// CHECK: digraph "InstanceGraph" {
// CHECK-NEXT: label="InstanceGraph";
// CHECK-EMPTY:
// CHECK-NEXT: Node0 [shape=record,label="{Top}"];
// CHECK-NEXT: Node0 -> Node1[label=alligator];
// CHECK-NEXT: Node0 -> Node2[label="two words"];
// CHECK-NEXT: Node1 [shape=record,label="{Alligator}"];
// CHECK-NEXT: Node1 -> Node3[label=bear];
// CHECK-NEXT: Node2 [shape=record,label="{a\{b\}}"];
// CHECK-NEXT: Node3 [shape=record,label="{Bear}"];
// CHECK-NEXT: Node3 -> Node2[label=cat];
// CHECK-NEXT: }
hw.module @Top() {
  hw.instance "alligator" @Alligator() -> ()
  hw.instance "two words" @"a{b}"() -> ()
}
hw.module private @Alligator() {
  hw.instance "bear" @Bear() -> ()
}
hw.module private @Bear() {
  hw.instance "cat" @"a{b}"() -> ()
}
hw.module.extern private @"a{b}"()
