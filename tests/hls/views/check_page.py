"""Checks report.html as headless Chromium rendered it (`--dump-dom`):
the script ran to its end with no error on the console, every operation
of every pipelined loop of F.json is a bar of its Gantt chart, and the
resources have their bars."""
import json
import re
import sys

dom, console, report = open(sys.argv[1]).read(), open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
assert 'data-rendered="ok"' in dom, "the page's script did not finish"
assert "Uncaught" not in console, console
ops = [o["name"] for l in report["loops"] for o in l.get("schedule", [])]
bars = re.findall(r'<rect class="bar op" data-op="([^"]+)"', dom)
assert ops and sorted(bars) == sorted(ops), (bars, ops)
assert len(re.findall(r'class="bar resource"', dom)) == 4
for l in report["loops"]:
    assert l["path"] in dom, l["path"]
print(f"page ok: {len(bars)} bars")
