#!/usr/bin/env python3
"""A misbehaving board shell for the `uart` driver backend
(tests/hls/system-uart.mlir): runs COMMAND with SILICA_UART_PORT set to
a pseudo-terminal and answers the backend's frames (docs/BOARD-SHELL.md:
a reply is status, command, payload, checksum) as MODE says:

- garbled: every reply's checksum is wrong (the backend sends each request
  again, then gives up);
- refused: every reply is the shell's "bad checksum" status (the request
  was corrupted on the way: sent again, then given up);
- never-done: replies are right, but after start the status never shows
  done (the backend's run timeout);
- flaky: a noisy line in front of a real shell, the emulator BOARD (a
  program that speaks the shell's side on its standard input and output,
  as `silica cosim --shell uart` builds it): every request goes to it and
  its replies come back, but the first reply to each request has its
  echoed command byte flipped, so the backend sees it garbled and sends
  the request again, whose reply passes; `start`, which the backend sends
  once, passes at once. Says on stderr how many replies it corrupted.

Exits with COMMAND's status; kills it after 60 s (never a hang).

Usage: uart_fake.py MODE -- COMMAND...
       uart_fake.py flaky --board BOARD -- COMMAND...
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


def relay(master, child, board):
    """The flaky line between the backend (on `master`) and `board`; gives
    the number of replies corrupted."""
    corrupted = 0
    # The reply's bytes seen since the request began, whether this
    # request's reply is corrupted, whether the last one's was.
    replied = None
    corrupt = last = False
    out = board.stdout.fileno()
    deadline = time.time() + 60
    while child.poll() is None:
        if time.time() > deadline:
            child.kill()
            sys.exit("uart_fake: the backend did not finish in 60 s")
        ready, _, _ = select.select([master, out], [], [], 0.05)
        if master in ready:
            try:
                data = os.read(master, 4096)
            except OSError:
                data = b""
            if data:
                if replied is None or replied > 0:
                    # A new request (or the first): corrupt its reply
                    # unless the last one was, or it is `start`.
                    corrupt = not last and data[0] != START
                    last = corrupt
                    replied = 0
                board.stdin.write(data)
                board.stdin.flush()
        if out in ready:
            data = bytearray(os.read(out, 4096))
            if not data:
                sys.exit("uart_fake: the board ended")
            for i in range(len(data)):
                if corrupt and replied == 1:
                    data[i] ^= 0xFF
                    corrupted += 1
                replied = (replied or 0) + 1
            os.write(master, bytes(data))
    return corrupted


def main():
    mode = sys.argv[1]
    command = sys.argv[sys.argv.index("--") + 1:]
    master, slave = os.openpty()
    env = dict(os.environ, SILICA_UART_PORT=os.ttyname(slave))
    if mode == "flaky":
        board_path = sys.argv[sys.argv.index("--board") + 1]
        board = subprocess.Popen([board_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        child = subprocess.Popen(command, env=env)
        corrupted = relay(master, child, board)
        board.stdin.close()
        board.wait()
        print(f"uart_fake: {corrupted} replies corrupted", file=sys.stderr)
        os.close(master)
        os.close(slave)
        sys.exit(child.returncode)
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
