// `silica dse --ip FILE.sv`: the hand-written modules travel with the
// kernel to the worker processes (`--jobs 2`) and bind the `hls.ip`
// declaration in every point, as `silica hls --ip` does; a point with DMA
// is timed by the static model of the DMA engines. Without the file the kernel is no design: one
// message, exit 1, before any point; a file that cannot be read likewise.
// RUN: rm -rf %t %t.none %t.missing
// RUN: silica dse %s --top dot --space %S/spaces/ip.toml -o %t --ip %S/../hls/ip/mac.sv --jobs 2 | FileCheck %s
// RUN: FileCheck %s --check-prefix=CSV < %t/points.csv
// RUN: not silica dse %s --top dot --space %S/spaces/ip.toml -o %t.none 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not silica dse %s --top dot --space %S/spaces/ip.toml -o %t.missing --ip %t.nothing.sv 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: test ! -e %t.none/points.csv && test ! -e %t.missing/points.csv

// CHECK: points: 4 seen, 4 evaluated at estimate in {{.*}}, 0 pruned, 0 invalid, 0 failed
// CSV: 0,1,false,ok,estimate,{{.*}},49,
// CSV: 2,1,true,ok,estimate,{{.*}},cycles from the static model of the DMA engines
// NONE: error: '@mac' is bound to the Verilog module 'mac_ip': give its file with --ip FILE.sv
// MISSING: error: could not open IP file '{{.*}}nothing.sv'

func.func private @mac(i32 {hls.name = "a"}, i32 {hls.name = "b"}, i32 {hls.name = "c"}) -> i32
    attributes {hls.ip = "mac_ip", hls.latency = 3, hls.ip_model = @mac_model}

func.func @mac_model(%a: i32, %b: i32, %c: i32) -> i32 {
  %p = arith.muli %a, %b : i32
  %s = arith.addi %p, %c : i32
  return %s : i32
}

func.func @dot(%x: memref<8xi32> {hls.name = "X"}, %y: memref<8xi32> {hls.name = "Y"}) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 8 iter_args(%s = %c0) -> i32 {
    %u = affine.load %x[%i] : memref<8xi32>
    %v = affine.load %y[%i] : memref<8xi32>
    %t = func.call @mac(%u, %v, %s) : (i32, i32, i32) -> i32
    affine.yield %t : i32
  }
  return %r : i32
}
