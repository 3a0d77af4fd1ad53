#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SOFTGPU_TRACE end to end (DESIGN.md section 4, traces), through the ICD
loader on a sample host program: the text trace has one line per warp
instruction the statistics count; the JSON trace is one valid trace-event
document whose instruction spans add up to the same count, laid out
deterministically whatever the number of host threads, in timing mode too
(several work-groups on a core at once, each warp on its own track); a
trace that cannot
be written or that passes trace_limit is said on stderr while the program
still runs and checks its results.

Usage: check_trace.py SAMPLE SIZE WORKDIR"""
import json
import os
import subprocess
import sys

sample, size, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)


def run(trace, extra_env=None, stats=None):
    env = dict(os.environ, SOFTGPU_TRACE=trace)
    env.pop("SOFTGPU_STATS", None)
    if stats:
        env["SOFTGPU_STATS"] = stats
        if os.path.exists(stats):
            os.remove(stats)
    env.update(extra_env or {})
    p = subprocess.run([sample, size], env=env, capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        sys.exit(f"{sample} {size} failed under SOFTGPU_TRACE={trace}:\n{p.stdout}{p.stderr}")
    return p.stderr


def fail(msg):
    sys.exit("check_trace: " + msg)


# Text: one line per warp instruction, as many as the statistics count.
stats_file = os.path.join(work, "stats.json")
text = os.path.join(work, "trace.txt")
run(text, stats=stats_file)
launches = [json.loads(line) for line in open(stats_file)]
warp_insns = sum(l["warp_insns"] for l in launches)
lines = open(text).read().splitlines()
insn_lines = [l for l in lines if " mask 0x" in l]
if len(insn_lines) != warp_insns:
    fail(f"text trace has {len(insn_lines)} instruction lines, statistics count {warp_insns}")
headers = [l for l in lines if l.startswith("# kernel ")]
if len(headers) != sum(l["ctas"] for l in launches):
    fail(f"text trace has {len(headers)} work-group headers")

# JSON: valid, spans of instructions adding up to the warp instructions.
js = os.path.join(work, "trace.json")
run(js, {"SOFTGPU_THREADS": "2"})
doc = json.load(open(js))
events = doc["traceEvents"]
for e in events:
    for key in ("name", "ph", "pid"):
        if key not in e:
            fail(f"event without {key}: {e}")
    if e["ph"] == "X" and (e["dur"] <= 0 or e["ts"] < 0):
        fail(f"bad span {e}")
spans = [e for e in events if e["ph"] == "X" and e["name"] in ("full", "partial")]
if sum(e["dur"] for e in spans) != warp_insns:
    fail(f"JSON instruction spans cover {sum(e['dur'] for e in spans)}, expected {warp_insns}")
if not any(e["name"] == "diverge" for e in events):
    fail("no divergence in the JSON trace of a divergent sample")
if not any(e["ph"] == "M" and e["name"] == "thread_name" for e in events):
    fail("no track names")
# The same file whatever the host threads.
js1 = os.path.join(work, "trace1.json")
run(js1, {"SOFTGPU_THREADS": "1"})
if open(js1).read() != open(js).read():
    fail("the JSON trace depends on the number of host threads")

# Timing mode: several work-groups share a core at once, each warp slot on
# its own track, whose spans never overlap; times are cycles, and the text
# trace still has a line per warp instruction.
timing = {"SOFTGPU_MODE": "timing", "SOFTGPU_THREADS": "2"}
tstats = os.path.join(work, "tstats.json")
ttext = os.path.join(work, "ttrace.txt")
run(ttext, timing, stats=tstats)
tlaunches = [json.loads(line) for line in open(tstats)]
if max(l["timing"]["ctas_per_core"] for l in tlaunches) < 2:
    fail("the timing runs keep one work-group per core: nothing shares a core")
tinsns = sum(l["warp_insns"] for l in tlaunches)
tlines = [l for l in open(ttext).read().splitlines() if " mask 0x" in l]
if len(tlines) != tinsns:
    fail(f"timing text trace has {len(tlines)} instruction lines, statistics count {tinsns}")
tjs = os.path.join(work, "ttrace.json")
run(tjs, timing)
tevents = json.load(open(tjs))["traceEvents"]
tspans = [e for e in tevents if e["ph"] == "X" and e["name"] in ("full", "partial")]
if sum(e["dur"] for e in tspans) != tinsns:
    fail(f"timing JSON instruction spans cover {sum(e['dur'] for e in tspans)}, expected {tinsns}")
tracks = {}
for e in tevents:
    if e["ph"] == "X":
        tracks.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["ts"] + e["dur"]))
for key, spans_of in tracks.items():
    spans_of.sort()
    for (a0, a1), (b0, b1) in zip(spans_of, spans_of[1:]):
        if b0 < a1:
            fail(f"timing JSON: spans overlap on core {key[0]} track {key[1]}: {a0}-{a1}, {b0}-{b1}")
ctas = [e for e in tevents if e["ph"] == "X" and " cta " in e["name"]]
if len({(e["pid"], e["tid"]) for e in ctas}) <= len({e["pid"] for e in ctas}):
    fail("timing JSON: the work-groups resident at once share one track")

# A trace that cannot be written: said, and the program still runs.
err = run(os.path.join(work, "no-such-dir", "t.json"))
if "SOFTGPU_TRACE" not in err or "cannot create" not in err:
    fail(f"no message for an unwritable trace: {err!r}")

# A trace past its limit: cut at a whole work-group, said once, still valid.
cfg = os.path.join(work, "small.cfg")
open(cfg, "w").write("trace_limit=4096\n")
small = os.path.join(work, "small.json")
err = run(small, {"SOFTGPU_CONFIG": cfg})
if err.count("was cut") != 1:
    fail(f"expected one message about the cut trace: {err!r}")
doc = json.load(open(small))
if os.path.getsize(small) > 4096 + 1024:
    fail(f"cut trace is {os.path.getsize(small)} bytes")
print(f"ok: {warp_insns} warp instructions in {len(launches)} launches traced")
