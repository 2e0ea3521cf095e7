"""silica's Dask driver: `silica dse --engine dask[=ADDRESS]` runs this
script (compiled into the silica binary, run with `python -c`) and
speaks JSON lines with it on standard input and output.

silica -> driver, first line:
    {"scheduler": "tcp://HOST:8786" or null, "exe": PATH, "kernel": {...}}
driver -> silica:
    {"ready": {"workers": N, "threads": T}}, or {"error": MESSAGE} and exit 1
silica -> driver, one line per batch of points:
    {"requests": [{"id": ..., "level": ..., "config": {...}}, ...]}
driver -> silica, one line per point as its task finishes (any order):
    {"id": ..., "outcome": {...}}
silica closes standard input when the run is over.

The silica binary is shipped to every worker (also those that join
later) by a worker plugin; the kernel travels in each task. A task runs
`silica dse-worker` on a chunk of points on the worker. Dask reruns the
tasks of a worker that dies; a task that still fails answers its points
with a failed outcome, which silica retries once.
"""

import hashlib
import json
import logging
import os
import sys

# The points of one task: enough to amortise starting silica, few enough
# that every worker thread gets several tasks.
MAX_CHUNK = 16
INSTALL = (
    "install Dask's distributed into the Python that silica runs "
    "(`pip install distributed==2026.8.0`, or `bash scripts/install-tools.sh` "
    "for the project's .venv; SILICA_PYTHON names another Python)"
)


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def fail(message):
    send({"error": message})
    sys.exit(1)


def binary_dir(local_directory, digest):
    return os.path.join(local_directory, "silica-" + digest[:16])


def make_plugin(WorkerPlugin, exe, digest):
    """A worker plugin that writes the silica binary into each worker's
    local directory (registered once per binary: idempotent)."""

    class ShipSilica(WorkerPlugin):
        name = "silica-" + digest[:16]
        idempotent = True

        def __init__(self):
            with open(exe, "rb") as f:
                self.data = f.read()

        def setup(self, worker):
            d = binary_dir(worker.local_directory, digest)
            path = os.path.join(d, "silica")
            if os.path.exists(path):
                return
            os.makedirs(d, exist_ok=True)
            tmp = f"{path}.{os.getpid()}"
            with open(tmp, "wb") as f:
                f.write(self.data)
            os.chmod(tmp, 0o755)
            os.replace(tmp, path)

    return ShipSilica()


def evaluate(digest, kernel, requests):
    """On a worker: runs the shipped silica's `dse-worker` on `requests`."""
    import subprocess

    from distributed import get_worker

    exe = os.path.join(binary_dir(get_worker().local_directory, digest), "silica")
    lines = [kernel] + [json.dumps(r) for r in requests]
    p = subprocess.run(
        [exe, "dse-worker"],
        input=("\n".join(lines) + "\n").encode(),
        capture_output=True,
    )
    replies = [json.loads(l) for l in p.stdout.decode().splitlines() if l.strip()]
    if len(replies) != len(requests):
        err = p.stderr.decode(errors="replace").strip()[-2000:]
        raise RuntimeError(
            f"silica dse-worker exited ({p.returncode}) after {len(replies)} of "
            f"{len(requests)} point(s): {err}"
        )
    return replies


def main():
    first = sys.stdin.readline()
    if not first:
        return
    hello = json.loads(first)
    try:
        import dask
        from distributed import Client, as_completed
        from distributed.diagnostics.plugin import WorkerPlugin
    except ImportError as e:
        fail(f"Python cannot import Dask ({e}); {INSTALL}")
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    address = (
        hello["scheduler"]
        or dask.config.get("scheduler-address", None)
        or "tcp://127.0.0.1:8786"
    )
    timeout = dask.config.get("distributed.comm.timeouts.connect")
    try:
        client = Client(address, timeout=timeout)
    except Exception as e:
        fail(f"cannot reach the Dask scheduler at {address} ({type(e).__name__}: {e})")
    try:
        client.wait_for_workers(1, timeout=60)
    except Exception:
        fail(f"the Dask scheduler at {address} has no worker (start one with `dask worker {address}`)")
    h = hashlib.sha256()
    with open(hello["exe"], "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    digest = h.hexdigest()
    client.register_plugin(make_plugin(WorkerPlugin, hello["exe"], digest))
    kernel = json.dumps(hello["kernel"])
    info = client.scheduler_info(n_workers=-1)["workers"]
    threads = sum(w.get("nthreads", 1) for w in info.values())
    send({"ready": {"workers": len(info), "threads": threads}})
    for line in sys.stdin:
        requests = json.loads(line)["requests"]
        threads = max(1, sum(client.nthreads().values()))
        size = max(1, min(MAX_CHUNK, -(-len(requests) // (4 * threads))))
        chunks = [requests[i : i + size] for i in range(0, len(requests), size)]
        futures = {
            client.submit(evaluate, digest, kernel, c, pure=False, retries=1): c
            for c in chunks
        }
        for future in as_completed(futures):
            try:
                for r in future.result():
                    send(r)
            except Exception as e:
                error = f"dask: {type(e).__name__}: {e}"
                for r in futures[future]:
                    send({"id": r["id"], "outcome": {"status": "failed", "error": error}})
    client.close()


if __name__ == "__main__":
    main()
