"""A Dask cluster on loopback for the tests of `silica dse --engine dask`.

Usage: python dask_cluster.py DIR [--workers N] [--kill-in K] -- CMD... [-- CMD...]

Starts a scheduler (`dask scheduler` on 127.0.0.1, a free port) and N
workers (`dask worker`, one thread each, their files under DIR), runs the
commands one after the other with `{scheduler}` replaced by the
scheduler's address, and exits with the first failing status. During the
K-th command (from 1), it kills one worker (the process group of its
nanny and worker, SIGKILL) as soon as that worker has a task, and fails
unless the command was still running then. Every process it started is
ended on the way out, whatever happens, and the workers' files removed.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

started = []


def start(args, log):
    p = subprocess.Popen(
        [sys.executable, "-m", *args],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    started.append(p)
    return p


def end(p):
    if p.poll() is None:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    p.wait()


def wait_for(what, test, seconds=240):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(0.1)
    sys.exit(f"dask_cluster.py: timed out waiting for {what}")


def scheduler_address(file):
    try:
        with open(file) as f:
            return json.load(f).get("address")
    except (OSError, ValueError):
        return None


def run(a):
    os.makedirs(a.dir, exist_ok=True)
    log = open(os.path.join(a.dir, "cluster.log"), "w")
    file = os.path.join(a.dir, "scheduler.json")
    if os.path.exists(file):
        os.remove(file)
    start(
        ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
         "--no-dashboard", "--scheduler-file", file],
        log,
    )
    address = wait_for("the scheduler", lambda: scheduler_address(file))
    workers = [
        start(
            ["distributed.cli.dask_worker", address, "--nthreads", "1", "--no-dashboard",
             "--name", f"w{i}", "--local-directory", os.path.join(a.dir, f"w{i}")],
            log,
        )
        for i in range(a.workers)
    ]
    from distributed import Client

    client = Client(address, timeout=120, set_as_default=False)
    client.wait_for_workers(a.workers, timeout=240)
    for k, command in enumerate(a.commands, 1):
        status = run_one(command, address, client, workers, k == a.kill_in)
        if status != 0:
            return status
    client.close()
    return 0


def run_one(command, address, client, workers, kill):
    command = [c.replace("{scheduler}", address) for c in command]
    proc = subprocess.Popen(command, start_new_session=True)
    started.append(proc)
    if kill:
        # The scheduler's address of the worker running a task, then its pid.
        busy = wait_for("a task on a worker", lambda: [w for w, ts in client.processing().items() if ts] or proc.poll() is not None)
        if proc.poll() is not None:
            sys.exit("dask_cluster.py: the run ended before a worker was killed")
        pids = client.run(os.getpid, workers=busy[:1])
        victim = next(p for p in workers if any(pid in children(p.pid) for pid in pids.values()))
        end(victim)
        running = proc.poll() is None
        print(f"killed a worker; the run was {'still running' if running else 'over'}", flush=True)
        if not running:
            return 1
    return proc.wait()


def children(pid):
    """`pid` and its descendants."""
    import psutil

    return {pid} | {c.pid for c in psutil.Process(pid).children(recursive=True)}


def main():
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--kill-in", type=int, default=0)
    a = ap.parse_args(argv[:cut])
    a.commands = []
    for word in argv[cut:]:
        if word == "--":
            a.commands.append([])
        else:
            a.commands[-1].append(word)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        status = run(a)
    finally:
        for p in reversed(started):
            end(p)
        for i in range(a.workers):
            shutil.rmtree(os.path.join(a.dir, f"w{i}"), ignore_errors=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
