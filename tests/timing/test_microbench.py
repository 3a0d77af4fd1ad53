#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Timing mode against what the configuration predicts (docs/timing.md,
"Microbenchmarks"): samples/microbench measures latencies and effects from
plain OpenCL, and every expected figure here is derived from the keys of
the machine it runs on (`softgpu config` prints them), never from an
earlier run. Every launch's stall reasons must add up to its scheduler
slots.

    test_microbench.py SOFTGPU MICROBENCH [EXPERIMENT...]

EXPERIMENT: latency chase smem coalesce diverge stream reconv sched threads
(default: all)."""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

SOFTGPU, MICROBENCH = sys.argv[1], sys.argv[2]
WORK = tempfile.mkdtemp(prefix="sg-microbench-")
failures = []


def machine(text):
    """Writes a configuration file; returns (path, {key: value})."""
    path = os.path.join(WORK, "m%d.cfg" % len(os.listdir(WORK)))
    with open(path, "w") as f:
        f.write(text + "mode=timing\n")
    out = subprocess.run([SOFTGPU, "config", path], capture_output=True, text=True, check=True).stdout
    keys = {}
    for line in out.splitlines():
        m = re.match(r"^([a-z0-9_]+)=(\S+)", line)
        if m:
            keys[m.group(1)] = int(m.group(2)) if m.group(2).isdigit() else m.group(2)
    return path, keys


def run(cfg, *args, threads=None):
    """microbench ARGS on machine cfg; returns (stdout, the last launch's statistics)."""
    stats = os.path.join(WORK, "stats.json")
    if os.path.exists(stats):
        os.unlink(stats)
    env = dict(os.environ, SOFTGPU_CONFIG=cfg, SOFTGPU_STATS=stats)
    env.pop("SOFTGPU_MODE", None)
    if threads:
        env["SOFTGPU_THREADS"] = str(threads)
    p = subprocess.run([MICROBENCH, *map(str, args)], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("FAIL: microbench %s: exit %d\n%s%s" % (" ".join(map(str, args)), p.returncode,
                                                          p.stdout, p.stderr))
    with open(stats) as f:
        launches = [json.loads(line) for line in f]
    for launch in launches:
        stalls_add_up(launch)
    return p.stdout, launches[-1]


def stalls_add_up(launch):
    """Every scheduler slot of every cycle has exactly one reason, on every
    core and in all: a list that does not add up is a bug."""
    t = launch.get("timing")
    if not t:
        return
    slots = t["cycles"] * t["sched_per_core"]
    for c, core in enumerate(t["per_core"]):
        if sum(core["stalls"].values()) != slots or core["cycles"] != t["cycles"]:
            sys.exit("FAIL: %s: core %d's stall reasons add up to %d, not %d" %
                     (launch["kernel"], c, sum(core["stalls"].values()), slots))
    if sum(t["stalls"].values()) != slots * t["cores"]:
        sys.exit("FAIL: %s: stall reasons add up to %d, not %d" %
                 (launch["kernel"], sum(t["stalls"].values()), slots * t["cores"]))


def number(text, pattern):
    m = re.search(pattern, text)
    if not m:
        sys.exit("FAIL: no '%s' in: %s" % (pattern, text))
    return float(m.group(1))


def expect(what, got, want, tolerance=0.005):
    ok = abs(got - want) <= tolerance
    print("%-4s %s: measured %g, expected %g" % ("ok" if ok else "FAIL", what, got, want))
    if not ok:
        failures.append(what)


def check(what, cond, detail):
    print("%-4s %s: %s" % ("ok" if cond else "FAIL", what, detail))
    if not cond:
        failures.append(what)


def cdiv(a, b):
    return (a + b - 1) // b


PRESETS = ["default", "gtx480", "v100", "vortex"]


def test_latency():
    """A dependent chain issues an instruction every `latency` cycles."""
    for preset in PRESETS:
        cfg, k = machine("preset=%s\n" % preset)
        for unit, key in (("alu", "alu_latency"), ("mul", "mul_latency"), ("fpu", "fpu_latency")):
            out, _ = run(cfg, "latency", unit)
            expect("%s %s latency" % (preset, unit), number(out, r": ([0-9.]+) cycles"), k[key])


def l2_misses_all(k, stride, count):
    """Whether a ring of `count` pointers `stride` bytes apart misses the L2
    on every access: LRU over a cycle longer than the ways of each set."""
    sets = k["l2_size"] // k["l2_banks"] // (k["l2_line"] * k["l2_assoc"])
    per_set = {}
    for i in range(count):
        line = i * stride // k["l2_line"]
        key = (line % k["l2_banks"], line // k["l2_banks"] % sets)
        per_set[key] = per_set.get(key, 0) + 1
    return min(per_set.values()) > k["l2_assoc"]


def test_chase():
    """Load-to-use latency of each level: an L1 hit, an L2 hit (both ways
    through the interconnect), a DRAM row miss; a response of s bytes
    takes ceil(s / bytes per cycle) cycles on a port or bus."""
    for preset in PRESETS:
        cfg, k = machine("preset=%s\n" % preset)
        sector = k["l1_sector"]  # an 8-byte load fetches one L1 sector
        noc = cdiv(sector, k["noc_bytes_per_cycle"]) - 1
        l2_hit = k["l1_latency"] + 2 * k["noc_latency"] + k["l2_latency"] + noc
        dram = (l2_hit + k["dram_latency"] + k["dram_row_miss"] +
                cdiv(sector, k["dram_bytes_per_cycle"]) - 1)
        # L1: a ring in half the L1; L2: twice the L1 (LRU thrashes it)
        out, _ = run(cfg, "chase", k["l1_size"] // 2, k["l1_line"])
        expect("%s L1 hit" % preset, number(out, r": ([0-9.]+) cycles"), k["l1_latency"])
        out, _ = run(cfg, "chase", 2 * k["l1_size"], k["l1_line"])
        expect("%s L2 hit" % preset, number(out, r": ([0-9.]+) cycles"), l2_hit)
        # DRAM: one channel, a new row (and bank) every access
        stride = k["dram_channels"] * k["dram_row_bytes"]
        count = 64
        while not l2_misses_all(k, stride, count):
            count *= 2
        out, _ = run(cfg, "chase", count * stride, stride)
        expect("%s DRAM row miss" % preset, number(out, r": ([0-9.]+) cycles"), dram)


def test_smem():
    """A warp's __local load with its lanes STRIDE words apart, then the add
    of its next address: the banks serve one word each a cycle, so the load
    takes as many wavefronts as the most distinct words one bank is asked
    for, each after the first a replay."""
    for preset in ("default", "gtx480", "vortex"):
        cfg, k = machine("preset=%s\nsmem_replay=%d\n" % (preset, 2 if preset == "gtx480" else 1))
        lanes = k["warp_size"]
        for stride in (1, 2, 3, 4, 8, 16, 32):
            words = {}
            for lane in range(lanes):
                w = lane * stride * 4 // k["smem_bank_bytes"]
                words.setdefault(w % k["smem_banks"], set()).add(w)
            ways = max(len(s) for s in words.values())
            out, _ = run(cfg, "smem", stride)
            expect("%s smem stride %d (%d-way)" % (preset, stride, ways),
                   number(out, r": ([0-9.]+) cycles"),
                   k["smem_latency"] + (ways - 1) * k["smem_replay"] + k["alu_latency"])


def test_coalesce():
    """64 warps copy out[i] = in[i x STRIDE]: each warp's load becomes one
    transaction per line its lanes touch, its store one."""
    for preset in ("default", "gtx480"):
        cfg, k = machine("preset=%s\n" % preset)
        lanes, line = k["warp_size"], k["l1_line"]
        for stride in (1, 2, 4, 8, 32, 64):
            lines = sum(len({(w * lanes + l) * stride * 4 // line for l in range(lanes)})
                        for w in range(64))
            out, _ = run(cfg, "coalesce", stride)
            expect("%s coalesce stride %d requests" % (preset, stride),
                   number(out, r"([0-9]+) requests"), 2 * 64)
            expect("%s coalesce stride %d transactions" % (preset, stride),
                   number(out, r"([0-9]+) transactions"), lines + 64)


def test_diverge():
    """K lanes of each warp run a loop the others skip. With C the warp
    instructions all lanes run and P the loop's (from the two uniform runs,
    K = 0 and K = warp), a divergent warp issues C + P warp instructions
    and 32 C + K P thread instructions: SIMD efficiency (wC + KP) / (w(C+P))."""
    cfg, k = machine("")
    w = k["warp_size"]
    stats = {kl: run(cfg, "diverge", kl)[1] for kl in (0, 1, 8, 31, w)}
    warps = 64
    c = stats[0]["warp_insns"] / warps
    p = stats[w]["warp_insns"] / warps - c
    for kl in (1, 8, 31):
        s = stats[kl]
        expect("diverge %d of %d: warp instructions" % (kl, w), s["warp_insns"], warps * (c + p))
        expect("diverge %d of %d: thread instructions" % (kl, w), s["thread_insns"],
               warps * (w * c + kl * p))
        expect("diverge %d of %d: SIMD efficiency" % (kl, w), s["simd_efficiency"],
               (w * c + kl * p) / (w * (c + p)), 0.00006)


def test_stream():
    """128 one-warp work-groups each stream 64 KB from DRAM. With few warps
    resident the cores wait on memory, and twice the warps take half the
    cycles; with many, the DRAM channels' bandwidth bounds the launch."""
    base = "cores=4\nl1_mshrs=256\ndram_channels=2\n"
    cycles = {}
    for slots in (1, 2, 4, 32):
        cfg, k = machine(base + "cta_slots=%d\n" % slots)
        out, s = run(cfg, "stream", 128)
        cycles[slots] = s["timing"]["cycles"]
        check("stream, %d warps a core" % slots, s["timing"]["ctas_per_core"] == slots,
              "%d cycles, DRAM utilisation %.3f" % (cycles[slots], s["timing"]["dram_utilization"]))
    for slots in (1, 2):
        ratio = cycles[2 * slots] / cycles[slots]
        check("stream: %d -> %d warps a core halves the cycles" % (slots, 2 * slots),
              0.48 <= ratio <= 0.52, "ratio %.3f" % ratio)
    floor = 128 * 65536 / (k["dram_channels"] * k["dram_bytes_per_cycle"])
    check("stream, 32 warps a core: DRAM-bound", floor <= cycles[32] <= 1.05 * floor,
          "%d cycles, the channels need %d" % (cycles[32], floor))


def test_reconv():
    """Multi-path IPDOM runs the dual-path kernel's paths interleaved, so
    one path's memory latency hides behind the other's: fewer cycles than
    the IPDOM stack. Without divergence the policies tie."""
    got = {}
    for policy in ("ipdom", "mpipdom"):
        cfg, _ = machine("reconv=%s\n" % policy)
        for kernel in ("dualpath", "uniform"):
            out, s = run(cfg, kernel)
            got[policy, kernel] = s["timing"]["cycles"]
    check("reconv: mpipdom beats ipdom on the dual-path kernel",
          got["mpipdom", "dualpath"] < got["ipdom", "dualpath"],
          "%d vs %d cycles" % (got["mpipdom", "dualpath"], got["ipdom", "dualpath"]))
    check("reconv: the policies tie without divergence",
          got["mpipdom", "uniform"] == got["ipdom", "uniform"],
          "%d vs %d cycles" % (got["mpipdom", "uniform"], got["ipdom", "uniform"]))


def test_sched():
    """Sixteen warps each re-read their own 4 KB (64 KB against a 32 KB L1)
    with FMAs between loads. Greedy-then-oldest lets the oldest warps run
    ahead, so fewer working sets share the L1 and more loads hit than under
    loose round robin, which keeps every warp's set live at once."""
    hit = {}
    for policy in ("gto", "lrr"):
        cfg, _ = machine("cores=1\nsched_per_core=1\nsched=%s\n" % policy)
        out, s = run(cfg, "thrash", 16, 2)
        hit[policy] = s["timing"]["l1_hit_rate"]
        print("     %s: %d cycles, L1 hit rate %.4f" % (policy, s["timing"]["cycles"], hit[policy]))
    check("sched: gto keeps more of the L1 than lrr", hit["gto"] > hit["lrr"] + 0.1,
          "L1 hit rate %.4f vs %.4f" % (hit["gto"], hit["lrr"]))


def test_threads():
    """The cycles and every counter do not depend on the host threads."""
    cfg, _ = machine("cores=4\n")
    runs = [run(cfg, "stream", 32, threads=t)[1]["timing"] for t in (1, 2, 8)]
    check("threads: 1, 2 and 8 host threads give the same timing statistics",
          runs[0] == runs[1] == runs[2], "%d cycles" % runs[0]["cycles"])


TESTS = {"latency": test_latency, "chase": test_chase, "smem": test_smem,
         "coalesce": test_coalesce, "diverge": test_diverge, "stream": test_stream,
         "reconv": test_reconv, "sched": test_sched, "threads": test_threads}
for name in sys.argv[3:] or TESTS:
    TESTS[name]()
if failures:
    sys.exit("FAIL: %d checks: %s" % (len(failures), ", ".join(failures)))
print("all checks passed")
