// The `uio` driver backend (hls/runtime/uio.c) against a fake device
// (uio-fake.c: files for the register map and the DMA buffer, a child
// process playing the accelerator): the generated host stub of axpy
// (tests/hls/axi.mlir) writes the buffers' bus addresses and the scalars
// at the header's offsets, starts, polls done and copies the result back;
// a device that never finishes gives the timeout code (3), a missing
// device code 1.
// RUN: rm -rf %t.d && mkdir -p %t.d/fake
// RUN: silica hls %S/axi.mlir --top axpy -o %t.d --interface axi --host > /dev/null
// RUN: llc-22 -filetype=obj -relocation-model=pic %t.d/axpy_host.ll -o %t.d/axpy_host.o
// RUN: gcc -Wall -Wextra -Werror -I%S/../../hls/runtime -I%t.d %S/../../hls/runtime/uio.c %S/uio-fake.c %t.d/axpy_host.o -o %t.d/uio-fake
// RUN: %t.d/uio-fake %t.d/fake 2>&1 | FileCheck %s

// CHECK: code 0, device exit 0, result 315, out 5 24 43 62 81 100 -1 -1
// CHECK-NEXT: x at 0x40000000, y at 0x40001000, out at 0x40002000, n 6, k 5
// CHECK-NEXT: never done: code 3
// CHECK-NEXT: silica uio: cannot open /nonexistent/uio
// CHECK-NEXT: no device: code 1
