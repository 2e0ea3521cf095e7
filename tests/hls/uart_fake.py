#!/usr/bin/env python3
"""A misbehaving board shell for the `uart` driver backend's error paths
(tests/hls/system-uart.mlir): runs COMMAND with SILICA_UART_PORT set to
a pseudo-terminal and answers the backend's frames (docs/BOARD-SHELL.md:
a reply is status, command, payload, checksum) as MODE says:

- garbled: every reply's checksum is wrong (the backend sends each request
  again, then gives up);
- refused: every reply is the shell's "bad checksum" status (the request
  was corrupted on the way: sent again, then given up);
- never-done: replies are right, but after start the status never shows
  done (the backend's run timeout).

Exits with COMMAND's status; kills it after 60 s (never a hang).

Usage: uart_fake.py MODE -- COMMAND...
"""
import os
import select
import subprocess
import sys
import time

OK, BAD_CHECKSUM = 0, 1
START, STATUS = 4, 5
IDLE = 1


def frame(status, command, payload=b"", bad=False):
    body = bytes([status, command]) + payload
    check = (-sum(body)) & 0xFF
    if bad:
        check ^= 0x5A
    return body + bytes([check])


def main():
    mode = sys.argv[1]
    command = sys.argv[sys.argv.index("--") + 1:]
    master, slave = os.openpty()
    env = dict(os.environ, SILICA_UART_PORT=os.ttyname(slave))
    child = subprocess.Popen(command, env=env)
    started = False
    cycles = 0
    deadline = time.time() + 60
    while child.poll() is None:
        if time.time() > deadline:
            child.kill()
            sys.exit("uart_fake: the backend did not give up in 60 s")
        ready, _, _ = select.select([master], [], [], 0.05)
        if not ready:
            continue
        # A request: what arrives until the line is quiet for 20 ms.
        request = b""
        while True:
            try:
                request += os.read(master, 4096)
            except OSError:
                break
            if not select.select([master], [], [], 0.02)[0]:
                break
        if not request:
            continue
        cmd = request[0]
        cycles += 100
        if mode == "refused":
            reply = frame(BAD_CHECKSUM, cmd)
        elif cmd == STATUS:
            flags = 0 if started else IDLE
            reply = frame(OK, cmd, bytes([flags]) + cycles.to_bytes(4, "little"), bad=mode == "garbled")
        else:
            started = started or cmd == START
            reply = frame(OK, cmd, bad=mode == "garbled")
        os.write(master, reply)
    os.close(master)
    os.close(slave)
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
