"""Checks a `silica hls --trace` file against the run's F.json: the trace
is well-formed JSON of Chrome trace events, the controller and each loop
have a track, and its numbers are F.json's: the outermost loop runs for
all but the start and done cycles of the measured latency, at the clock
of F.json, and each memory port's accesses are the kernel's."""
import json
import sys

trace_path, report_path, reads = sys.argv[1], sys.argv[2], int(sys.argv[3])
events = json.load(open(trace_path))["traceEvents"]
report = json.load(open(report_path))
names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
slices = [e for e in events if e["ph"] == "X"]
latency = report["latency"]["min"]
clock = report["clock_ns"]
loops = [l["path"] for l in report["loops"]]
assert "controller" in names.values(), names
for path in loops:
    assert f"loop {path}" in names.values(), (path, names)


def on(track):
    tid = next(t for t, n in names.items() if n == track)
    return [s for s in slices if s["tid"] == tid]


outer = on(f"loop {loops[0]}")
cycles = sum(s["args"]["cycles"] for s in outer)
assert cycles == latency - 1, (cycles, latency)
for s in slices:
    assert abs(s["dur"] - s["args"]["cycles"] * clock / 1000) < 1e-9, s
    assert abs(s["ts"] - s["args"]["cycle"] * clock / 1000) < 1e-9, s
for arg in report["args"]:
    if arg["kind"] == "memory":
        done = sum(s["args"]["cycles"] for s in on(f"{arg['name']} port 0") if s["name"] == "read")
        assert done == reads, (arg["name"], done, reads)
print("trace ok")
