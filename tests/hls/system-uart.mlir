// The `uart` driver backend (hls/runtime/uart.c): the program of
// system-int.mlir calls `mac` in the board shell (--shell uart) instead
// of the AXI wrapper. The shell runs in Verilator behind a
// pseudo-terminal, as `run-board --emulate` runs it; the generated host
// stub (the same as for AXI: the backend keeps the register map and
// turns its accesses into the shell's frames) talks to it as to a board's
// serial port. Both calls print what the software prints. A port where
// nothing answers gives up after the tries (never a hang); a file that is
// not a serial port does not open (code 1). A shell whose replies come
// garbled, or that reports every request corrupted (bad checksum), gets
// each request three times, then the backend gives up; a run that never
// finishes ends at SILICA_UART_TIMEOUT (tests/hls/uart_fake.py plays the
// misbehaving shell): exit 1 with the register and the cycle count. On a
// noisy line that garbles the first reply to every request (but start's)
// in front of the emulated shell, every request is sent again, its
// second reply passes, and both calls give the software's output.
// RUN: rm -rf %t.sys %t.d
// RUN: silica cosim %S/system-int.mlir --kernel mac --shell uart --baud 3125000 -o %t.sys | FileCheck %s
// RUN: SILICA_UART_PORT=/dev/ptmx SILICA_UART_PATIENCE=0.1 not %t.sys/hardware 2>&1 | FileCheck %s --check-prefix=SILENT
// RUN: SILICA_UART_PORT=/dev/null not %t.sys/hardware 2>&1 | FileCheck %s --check-prefix=NOTTY
// RUN: SILICA_UART_PATIENCE=0.2 not %S/../../.venv/bin/python %S/uart_fake.py garbled -- %t.sys/hardware 2>&1 | FileCheck %s --check-prefix=GARBLED
// RUN: SILICA_UART_PATIENCE=0.2 not %S/../../.venv/bin/python %S/uart_fake.py refused -- %t.sys/hardware 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: SILICA_UART_TIMEOUT=0.5 not %S/../../.venv/bin/python %S/uart_fake.py never-done -- %t.sys/hardware 2>&1 | FileCheck %s --check-prefix=NEVER
// RUN: SILICA_UART_BAUD=3125000 %S/../../.venv/bin/python %S/uart_fake.py flaky --board %t.sys/emulator/obj/emulator -- %t.sys/hardware > %t.flaky 2> %t.flaky.err
// RUN: diff %t.sys/software.stdout %t.flaky
// RUN: FileCheck %s --check-prefix=FLAKY < %t.flaky.err
// RUN: silica hls %S/system-int.mlir --top mac -o %t.d --shell uart --host > /dev/null
// RUN: FileCheck %s --check-prefix=STUB < %t.d/mac_host.mlir

// CHECK: system co-simulation of 'mac': 34 lines of output identical
// CHECK-NEXT: call 1: {{[0-9]+}} cycles (counted by the shell), {{[0-9.]+}} ms from start
// CHECK-NEXT: call 2: {{[0-9]+}} cycles (counted by the shell), {{[0-9.]+}} ms from start
// SILENT: silica uart: error: opening the device: status failed 3 time(s), last: 0 reply bytes came in time (last cycle count 0)
// NOTTY: silica uart: cannot configure the serial port /dev/null
// NOTTY: silica uart: error: call 1 failed with code 1: the device does not open
// GARBLED: silica uart: error: opening the device: status failed 3 time(s), last: a garbled reply (last cycle count 0)
// REFUSED: silica uart: error: opening the device: status failed 3 time(s), last: bad checksum (last cycle count 0)
// FLAKY: silica uart: call 1: {{[0-9]+}} cycles (counted by the shell)
// FLAKY-NEXT: silica uart: call 2: {{[0-9]+}} cycles (counted by the shell)
// FLAKY-NEXT: uart_fake: {{[1-9][0-9]+}} replies corrupted
// NEVER: silica uart: error: register 0x00 read at cycle {{[0-9]+}} of call 1: the run takes more than 0.5 s (SILICA_UART_TIMEOUT)
// The kernel's description: 7 entries (kind, width, words, offset,
// number): x, y (memories 0 and 1 of 16 i16), z, n (64 bits in two
// registers), s, the two results.
// STUB: func.func private @silica_dev_open(!llvm.ptr) -> i32
// STUB: llvm.mlir.global private constant @mac_kernel(dense<[7, 1, 16, 16, 16, 0, 1, 16, 16, 24, 1, 1, 32, 16, 32, 2, 0, 64, 2, 40, 0, 0, 8, 1, 48, 1, 2, 64, 2, 52, 0, 2, 32, 1, 60, 1]> : tensor<36xi32>)
// STUB: func.func @mac(%arg0: memref<16xi16>, %arg1: memref<16xi16>, %arg2: memref<16xi32>, %arg3: index, %arg4: i8) -> (i64, i32)
