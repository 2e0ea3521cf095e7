// Hand-written Verilog (--ip FILE.sv) that does not fit its declaration:
// a diagnostic at the declaration (or at the place in the file that does
// not parse), exit 1, nothing written.
// RUN: rm -rf %t
// RUN: not silica hls %s --top use_missing -o %t --ip %S/ip/mac.sv 2>&1 | FileCheck %s --check-prefix=MODULE
// RUN: not silica hls %s --top use_renamed -o %t --ip %S/ip/mac.sv 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not silica hls %s --top use_extra -o %t --ip %S/ip/mac.sv 2>&1 | FileCheck %s --check-prefix=EXTRA
// RUN: not silica hls %s --top use_mac -o %t --ip %S/ip/narrow.sv 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not silica hls %s --top use_mac -o %t 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not silica hls %s --top use_no_latency -o %t --ip %S/ip/mac.sv 2>&1 | FileCheck %s --check-prefix=LATENCY
// RUN: not silica hls %s --top use_no_model -o %t --ip %S/ip/mac.sv 2>&1 | FileCheck %s --check-prefix=MODEL
// RUN: not silica hls %s --top use_mac -o %t --ip %S/ip/syntax.sv 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not silica hls %s --top use_mac -o %t --ip %S/ip/mac.sv --ip %S/ip/narrow.sv 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: test ! -e %t

// SYNTAX: syntax.sv:3:5: error: sv-parser cannot parse the file here
// TWICE: narrow.sv:5:1: error: module 'mac_ip' is also defined in {{.*}}mac.sv

func.func @model(%a: i32, %b: i32, %c: i32) -> i32 {
  %p = arith.muli %a, %b : i32
  %s = arith.addi %p, %c : i32
  return %s : i32
}

// WIDTH: ip-errors.mlir:[[# @LINE + 2]]:1: error: port 'b' of module 'mac_ip' in {{.*}}narrow.sv is an input of 16 bits; '@mac' needs an input of 32 bits
// NOFILE: ip-errors.mlir:[[# @LINE + 1]]:1: error: '@mac' is bound to the Verilog module 'mac_ip': give its file with --ip FILE.sv
func.func private @mac(i32 {hls.name = "a"}, i32 {hls.name = "b"}, i32 {hls.name = "c"}) -> i32
    attributes {hls.ip = "mac_ip", hls.latency = 3, hls.ip_model = @model}
func.func @use_mac(%x: i32) -> i32 {
  %r = func.call @mac(%x, %x, %x) : (i32, i32, i32) -> i32
  return %r : i32
}

// MODULE: ip-errors.mlir:[[# @LINE + 1]]:1: error: no module 'mac_unit' (for '@missing') in {{.*}}mac.sv
func.func private @missing(i32 {hls.name = "a"}, i32 {hls.name = "b"}, i32 {hls.name = "c"}) -> i32
    attributes {hls.ip = "mac_unit", hls.latency = 3, hls.ip_model = @model}
func.func @use_missing(%x: i32) -> i32 {
  %r = func.call @missing(%x, %x, %x) : (i32, i32, i32) -> i32
  return %r : i32
}

// NAME: ip-errors.mlir:[[# @LINE + 1]]:1: error: module 'mac_ip' in {{.*}}mac.sv has no port 'm' (input of 32 bits) that '@renamed' needs
func.func private @renamed(i32 {hls.name = "a"}, i32 {hls.name = "m"}, i32 {hls.name = "c"}) -> i32
    attributes {hls.ip = "mac_ip", hls.latency = 3, hls.ip_model = @model}
func.func @use_renamed(%x: i32) -> i32 {
  %r = func.call @renamed(%x, %x, %x) : (i32, i32, i32) -> i32
  return %r : i32
}

// EXTRA: ip-errors.mlir:[[# @LINE + 1]]:1: error: module 'mac_ip' in {{.*}}mac.sv has a port 'c' that '@two' does not have
func.func private @two(i32 {hls.name = "a"}, i32 {hls.name = "b"}) -> i32
    attributes {hls.ip = "mac_ip", hls.latency = 3, hls.ip_model = @model2}
func.func @model2(%a: i32, %b: i32) -> i32 {
  %p = arith.muli %a, %b : i32
  return %p : i32
}
func.func @use_extra(%x: i32) -> i32 {
  %r = func.call @two(%x, %x) : (i32, i32) -> i32
  return %r : i32
}

// LATENCY: ip-errors.mlir:[[# @LINE + 1]]:1: error: IP function '@no_latency' needs its latency as 'hls.latency = N'
func.func private @no_latency(i32 {hls.name = "a"}, i32 {hls.name = "b"}, i32 {hls.name = "c"}) -> i32
    attributes {hls.ip = "mac_ip", hls.ip_model = @model}
func.func @use_no_latency(%x: i32) -> i32 {
  %r = func.call @no_latency(%x, %x, %x) : (i32, i32, i32) -> i32
  return %r : i32
}

// MODEL: ip-errors.mlir:[[# @LINE + 1]]:1: error: IP function '@no_model' needs 'hls.ip_model = @f', a function with a body and the same type, for the software side
func.func private @no_model(i32 {hls.name = "a"}, i32 {hls.name = "b"}, i32 {hls.name = "c"}) -> i32
    attributes {hls.ip = "mac_ip", hls.latency = 3}
func.func @use_no_model(%x: i32) -> i32 {
  %r = func.call @no_model(%x, %x, %x) : (i32, i32, i32) -> i32
  return %r : i32
}
