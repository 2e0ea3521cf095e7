// The views of a design: report.html (one self-contained page: the loop
// tree, each pipelined loop's schedule as a Gantt chart, the resources
// against the device, the roofline) and --trace (the co-simulated run as
// Chrome trace events, which ui.perfetto.dev opens: a track per
// controller thread, per loop and per memory port). The trace holds
// F.json's numbers; the page renders in headless Chromium, every
// scheduled operation a bar, with no script error.
// RUN: rm -rf %t.d
// RUN: silica hls %s --top dot -o %t.d --sim --trace | FileCheck %s
// RUN: python3 %S/views/check_trace.py %t.d/dot.trace.json %t.d/dot.json 32
// RUN: FileCheck %s --check-prefix=TRACE < %t.d/dot.trace.json
// RUN: chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 --dump-dom file://%t.d/report.html > %t.d/dom.html 2> %t.d/console.txt
// RUN: python3 %S/views/check_page.py %t.d/dom.html %t.d/console.txt %t.d/dot.json
// RUN: FileCheck %s --check-prefix=PAGE < %t.d/report.html

// CHECK: co-simulation (seed 1): 65 values match, latency 34 cycles
// TRACE: {"displayTimeUnit": "ns", "traceEvents": [
// TRACE: "name":"controller"
// TRACE: "name":"loop dot/0"
// TRACE: "name":"a port 0"
// TRACE: "name":"read"
// PAGE: <title>silica hls report: dot</title>
// PAGE: <script type="application/json" id="report">
func.func @dot(%a: memref<32xi32> {hls.name = "a"}, %b: memref<32xi32> {hls.name = "b"}) -> i32 {
  %c0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 32 iter_args(%acc = %c0) -> (i32) {
    %x = affine.load %a[%i] : memref<32xi32>
    %y = affine.load %b[%i] : memref<32xi32>
    %p = arith.muli %x, %y : i32
    %s = arith.addi %acc, %p : i32
    affine.yield %s : i32
  }
  return %r : i32
}
