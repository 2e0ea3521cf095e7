// Fitting a design to its device by sharing units (`hls/src/flow/fit.rs`):
// five products of 32-bit words are 9 DSP blocks, more than
// ice40-up5k's 8 (yosys maps them to 9 SB_MAC16 built as given). The
// flow limits the multipliers to the fewest sharing that fits: one, at
// no cost in II (B's one port already needs II 5), says so on stderr,
// in report.txt and in F.json's `resources.fit`, and the fitted design
// co-simulates bit-exactly and synthesises to 3 SB_MAC16. `--no-fit`
// builds it as given; a user's own limit wins (no fitting of its class).
// Where sharing cannot bring a design within the device, the note says so
// and by how much it is still over: no limit lowers the estimate
// (@onediv), or even the fewest units are over (@fdivs).
// RUN: rm -rf %t.d %t.nofit %t.user
// RUN: silica hls %s --top f -o %t.d --target ice40-up5k --clock-ns 20 --sim 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.d/f.json
// RUN: yosys -q -p "read_verilog -sv %t.d/f.sv; synth_ice40 -dsp -top f; tee -q -o %t.d/stat.txt stat"
// RUN: FileCheck %s --check-prefix=STAT < %t.d/stat.txt
// RUN: silica hls %s --top f -o %t.nofit --target ice40-up5k --clock-ns 20 --no-fit 2>&1 | FileCheck %s --check-prefix=NOFIT
// RUN: yosys -q -p "read_verilog -sv %t.nofit/f.sv; synth_ice40 -dsp -top f; tee -q -o %t.nofit/stat.txt stat"
// RUN: FileCheck %s --check-prefix=NOFITSTAT < %t.nofit/stat.txt
// RUN: silica hls %s --top f -o %t.user --target ice40-up5k --clock-ns 20 --directives %S/directives/fit-user.toml 2>&1 | FileCheck %s --check-prefix=USER
// RUN: silica hls %s --top onediv -o %t.c --target ice40-up5k --clock-ns 20 2>&1 | FileCheck %s --check-prefix=NOHELP
// RUN: FileCheck %s --check-prefix=NOHELPJSON < %t.c/onediv.json
// RUN: silica hls %s --top fdivs -o %t.f --target ice40-up5k --clock-ns 20 2>&1 | FileCheck %s --check-prefix=FEWEST

// CHECK: note: the design does not fit ice40-up5k by the estimate (9 DSP of 8); units shared: 1 mul for 5 operations (latency 43 -> 44 cycles) (--no-fit builds it as given)
// CHECK: co-simulation (seed 1): 72 values match, latency 44 cycles
// CHECK: f/i: trip 8, pipelined, II 5 (ResMII 5, RecMII 1)
// CHECK: resources (estimate): {{[0-9]+}} LC ({{[0-9]+}} LUT4), {{[0-9]+}} FF, 3 DSP, 0 BRAM
// CHECK-NEXT: fit: the design does not fit ice40-up5k by the estimate (9 DSP of 8); units shared: 1 mul for 5 operations (latency 43 -> 44 cycles)

// JSON:      "fit": {
// JSON-NEXT:   "device": "ice40-up5k",
// JSON-NEXT:   "limits": {
// JSON-NEXT:     "mul": 1
// JSON-NEXT:   },
// JSON-NEXT:   "units": [
// JSON-NEXT:     {
// JSON-NEXT:       "class": "mul",
// JSON-NEXT:       "units": 1,
// JSON-NEXT:       "operations": 5
// JSON-NEXT:     }
// JSON-NEXT:   ],
// JSON-NEXT:   "unfitted": {
// JSON-NEXT:     "lut": {{[0-9]+}},
// JSON-NEXT:     "lc": {{[0-9]+}},
// JSON-NEXT:     "ff": {{[0-9]+}},
// JSON-NEXT:     "dsp": 9,
// JSON:        "unfitted_latency": 43,
// JSON-NEXT:   "fits": true,
// JSON-NEXT:   "over": []

// STAT: SB_MAC16 3

// NOFIT-NOT: note: the design does not fit
// NOFIT: latency: 43 cycles
// NOFIT: resources (estimate): {{[0-9]+}} LC ({{[0-9]+}} LUT4), {{[0-9]+}} FF, 9 DSP, 0 BRAM
// NOFIT-NOT: fit:
// NOFITSTAT: SB_MAC16 9

// USER-NOT: note: the design does not fit
// USER: resources (estimate): {{[0-9]+}} LC ({{[0-9]+}} LUT4), {{[0-9]+}} FF, 3 DSP, 0 BRAM
// USER-NOT: fit:
// USER: limits: mul = 3 (directives file): honoured: 5 mul operation(s) on 1 unit(s)
func.func @f(%A: memref<8x4xi32> {hls.name = "A"}, %B: memref<8x5xi32> {hls.name = "B"}) {
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i, 0] : memref<8x4xi32>
    %b = affine.load %A[%i, 1] : memref<8x4xi32>
    %c = affine.load %A[%i, 2] : memref<8x4xi32>
    %d = affine.load %A[%i, 3] : memref<8x4xi32>
    %p0 = arith.muli %a, %b : i32
    %p1 = arith.muli %b, %c : i32
    %p2 = arith.muli %c, %d : i32
    %p3 = arith.muli %a, %d : i32
    %p4 = arith.muli %a, %c : i32
    affine.store %p0, %B[%i, 0] : memref<8x5xi32>
    affine.store %p1, %B[%i, 1] : memref<8x5xi32>
    affine.store %p2, %B[%i, 2] : memref<8x5xi32>
    affine.store %p3, %B[%i, 3] : memref<8x5xi32>
    affine.store %p4, %B[%i, 4] : memref<8x5xi32>
  } {hls.label = "i"}
  return
}

// One f64 divider is more LUTs than the device has, and nothing shares
// it: no limit lowers the estimate. It says so, and by how much the
// design is over (its flip-flops within the device but past the 90%
// budget).
// NOHELP: note: the design does not fit ice40-up5k by the estimate ({{[0-9]+}} LC of 5280); sharing units cannot bring it within the device: no unit limit lowers its estimate, it is built as given, over by {{[0-9]+}} LC of 5280: {{[0-9]+}}%{{.*$}}
// NOHELP-NOT: --no-fit
// NOHELP: resources (estimate): {{[0-9]+}} LC ({{[0-9]+}} LUT4), {{[0-9]+}} FF, 0 DSP, 0 BRAM
// NOHELP-NEXT: fit: the design does not fit ice40-up5k by the estimate ({{[0-9]+}} LC of 5280); sharing units cannot bring it within the device
// NOHELPJSON:      "limits": {},
// NOHELPJSON-NEXT: "units": [],
// NOHELPJSON:      "fits": false,
// NOHELPJSON-NEXT: "over": [
// NOHELPJSON-NEXT:   "{{[0-9]+}} LC of 5280: {{[0-9]+}}%"
func.func @onediv(%A: memref<8xf64>, %B: memref<8xf64>) {
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xf64>
    %b = affine.load %B[%i] : memref<8xf64>
    %q = arith.divf %a, %b : f64
    affine.store %q, %B[%i] : memref<8xf64>
  }
  return
}

// Two f64 dividers shared as one are still several times the device:
// a warning for each resource over it, with the need and the capacity.
// FEWEST: note: the design does not fit ice40-up5k by the estimate ({{[0-9]+}} LC of 5280, {{[0-9]+}} FF of 5280); units shared: 1 fdiv for 2 operations (latency {{[0-9]+ -> [0-9]+}} cycles); sharing units cannot bring it within the device: with the fewest units it is still over by {{[0-9]+}} LC of 5280: {{[0-9]+}}%, {{[0-9]+}} FF of 5280: {{[0-9]+}}% (--no-fit builds it as given)
// FEWEST: warning: the design's estimate needs {{[0-9]+}} LC, and ice40-up5k holds 5280 (an estimate, within 31% of placed designs that fit): --bitstream synthesises it to see
// FEWEST: warning: the design's estimate needs {{[0-9]+}} FF, and ice40-up5k holds 5280 (an estimate, 33% off yosys's flip-flops by the median): --bitstream synthesises it to see
func.func @fdivs(%A: memref<8xf64>, %B: memref<8xf64>) {
  affine.for %i = 0 to 8 {
    %a = affine.load %A[%i] : memref<8xf64>
    %b = affine.load %B[%i] : memref<8xf64>
    %q = arith.divf %a, %b : f64
    %r = arith.divf %b, %a : f64
    %s = arith.addf %q, %r : f64
    affine.store %s, %B[%i] : memref<8xf64>
  }
  return
}
