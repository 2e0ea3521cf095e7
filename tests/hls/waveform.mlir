// --sim --vcd: the co-simulation's waveform in F.vcd, the core's ports
// and its controller's state registers only (each dataflow task's too);
// --vcd-all traces every signal.
// RUN: rm -rf %t.v %t.a
// RUN: silica hls %s --top t -o %t.v --sim --vcd | FileCheck %s --check-prefix=SIM
// RUN: FileCheck %s --check-prefix=VCD < %t.v/t.vcd
// RUN: silica hls %s --top t -o %t.a --sim --vcd --vcd-all > /dev/null
// RUN: FileCheck %s --check-prefix=ALL < %t.a/t.vcd
// RUN: not silica hls %s --top t -o %t.n --vcd 2>&1 | FileCheck %s --check-prefix=NOSIM

// SIM: co-simulation (seed 1): 32 values match
// VCD-DAG: $var wire {{ *}}1 {{.+}} done $end
// VCD-DAG: $var wire {{ *}}1 {{.+}} start $end
// VCD-DAG: $var wire {{ *}}4 {{.+}} x_address0 [3:0] $end
// VCD-DAG: $var wire {{ *}}{{[0-9]+}} {{.+}} state [{{[0-9]+}}:0] $end
// VCD-DAG: $var wire {{ *}}{{[0-9]+}} {{.+}} task_state1 [{{[0-9]+}}:0] $end
// VCD-NOT: iv0
// VCD: $enddefinitions
// VCD: #{{[1-9][0-9]*}}5
// ALL: $var wire {{.+}} iv0
// NOSIM: error: the following required arguments were not provided:
// NOSIM: --sim
func.func @t(%x: memref<16xi32> {hls.name = "x"}, %y: memref<16xi32> {hls.name = "y"}) attributes {hls.dataflow = true} {
  %b = memref.alloc() : memref<16xi32>
  affine.for %i = 0 to 16 {
    %v = affine.load %x[%i] : memref<16xi32>
    %w = arith.addi %v, %v : i32
    affine.store %w, %b[%i] : memref<16xi32>
  }
  affine.for %i = 0 to 16 {
    %v = affine.load %b[%i] : memref<16xi32>
    %w = arith.muli %v, %v : i32
    affine.store %w, %y[%i] : memref<16xi32>
  }
  return
}
