#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The guest half of `make bench` (testing/bench/run.sh boots it).

    guest.py MODE ROUNDS WORK [smoke] [sections=NAME,...]

MODE is the machine (icount, mttcg), ROUNDS the interleaved repetitions,
WORK the seconds of loop each workload thread runs; smoke: a subset that
only shows every kind of measurement still works; sections: run only
these of slowdown, kernel, interrupts (default all).  Every measurement is
one line on stdout, "KPB <json>"; testing/bench/analyze.py turns them into
the tables.  Within a section every round runs each configuration once,
and the order rotates by one each round (A B C, B C A, ...), so slow
drifts of the machine spread over all configurations alike.
"""
import json
import os
import re
import resource
import struct
import subprocess
import sys
import time

BIN = "/kp/bench/bin"
TMP = "/tmp/kpb"
KP_FILE = TMP + "/kp.data"
PF_FILE = TMP + "/perf.data"


def emit(**kw):
    print("KPB " + json.dumps(kw, sort_keys=True), flush=True)


def note(msg):
    print("KPB-NOTE " + msg, flush=True)


# kpbench kp's wait between the last start and its loop (the "w" rows).
KP_WAIT_MS = 300


def settle():
    """Let the previous run's deferred work (RCU callbacks freeing its
    profiles' or ring buffer's pages, kworkers) finish before the next
    run, instead of inside its timed section.  Cheap in icount, where idle
    time passes at once."""
    time.sleep(0.2)


def run(argv, taskset=None):
    """Run argv: its wall time, exit status and output."""
    settle()
    if taskset is not None:
        argv = ["taskset", "-c", str(taskset)] + argv
    t0 = time.monotonic_ns()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    out, err = p.communicate()
    t1 = time.monotonic_ns()
    if p.returncode != 0:
        note("command failed (%d): %s: %s" % (p.returncode, " ".join(argv),
                                             err.strip()[-300:]))
    return {"wall_ns": t1 - t0, "rc": p.returncode, "out": out, "err": err}


class CpuClock:
    """The CPU time of waited-for children, as differences."""

    def __init__(self):
        self.last = self.now()

    @staticmethod
    def now():
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return int((ru.ru_utime + ru.ru_stime) * 1e9)

    def lap(self):
        n = self.now()
        d, self.last = n - self.last, n
        return d


def loc_of(w):
    return [int(x) for x in w.get("loc", "").split(",") if x]


def kv(line, prefix):
    """The key=value words of the first output line starting with prefix."""
    for ln in line.splitlines():
        if ln.startswith(prefix):
            return {k: v for k, _, v in (w.partition("=") for w in ln.split()[1:])}
    return {}


def perf_samples(path):
    """SAMPLE, LOST and THROTTLE records in a perf.data file."""
    counts = {"samples": 0, "lost": 0, "throttle": 0}
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return counts
    if data[:8] != b"PERFILE2":
        return counts
    off, size = struct.unpack_from("<QQ", data, 40)
    pos, end = off, min(off + size, len(data))
    while pos + 8 <= end:
        typ, _misc, sz = struct.unpack_from("<IHH", data, pos)
        if sz == 0:
            break
        if typ == 9:
            counts["samples"] += 1
        elif typ == 2:
            counts["lost"] += struct.unpack_from("<Q", data, pos + 16)[0]
        elif typ == 5:
            counts["throttle"] += 1
        pos += sz
    return counts


def kp_file_info(path):
    """Ranges and pinned bytes from a kprofile record file's header."""
    try:
        with open(path, "rb") as f:
            pre = f.read(24)
            hlen = struct.unpack_from("<Q", pre, 16)[0]
            hdr = json.loads(f.read(hlen))
    except (OSError, ValueError, struct.error):
        return {}
    pinned = 0
    for r in hdr.get("ranges", []):
        shift = r["bucket_shift"]
        n = (r["size"] + (1 << shift) - 1) >> shift
        pinned += (n * 4 + 4095) // 4096 * 4096
    return {"ranges": len(hdr.get("ranges", [])), "pinned_bytes": pinned,
            "version": struct.unpack_from("<I", pre, 8)[0]}


def rotated(items, rnd):
    k = rnd % len(items)
    return items[k:] + items[:k]


def calibrate(work):
    """Iterations of the loop that take @work seconds of guest time."""
    n = 20000000
    r = run([BIN + "/wl", "1", str(n)])
    ns = int(kv(r["out"], "wl ").get("ns", 0)) or 1
    return max(1000, int(n * work * 1e9 / ns))


def max_interval():
    r = run([BIN + "/kpbench", "kp", "1", "0", "1"])
    return int(kv(r["out"], "kpbench ").get("interval", 1221))


def slowdown(rounds, iters, ivmax, groups, names, report_all=False, g_group=None):
    """Section 1: workload slowdown under record, and per-sample cost.

    kp1kg (`kprofile record -g` at 1 kHz: the buckets and a sample stream
    with call stacks) runs in g_group only, and so do kp1kd and pf1kd:
    `kprofile record --call-graph dwarf` (8 KiB of user stack a sample,
    the default) against `perf record --call-graph dwarf,8192`, 1 kHz
    both."""
    g_only = ("kp1kg", "kp1kd", "pf1kd")
    cfgs = {
        "base": None,
        "kp1k": ("kp", 10000),
        "kp1kg": ("kpg", 10000),
        "kp1kd": ("kpd", 10000),
        "kpmax": ("kp", ivmax),
        "pf1k": ("pf", 10000),
        "pf1kd": ("pfd", 10000),
        "pfmax": ("pf", ivmax),
    }
    for rnd in range(rounds):
        for prog, threads in groups:
            gnames = [n for n in names if n not in g_only or (prog, threads) == g_group]
            for name in rotated(gnames, rnd):
                wl = [BIN + "/" + prog, str(threads), str(iters)]
                kind = cfgs[name]
                clock = CpuClock()
                if kind is None:
                    argv = wl
                elif kind[0] in ("kp", "kpg", "kpd"):
                    argv = (["kprofile", "record"] +
                            {"kp": [], "kpg": ["-g"], "kpd": ["--call-graph", "dwarf"]}[kind[0]] +
                            ["-i", str(kind[1]), "-o", KP_FILE, "--"] + wl)
                else:
                    argv = (["perf", "record", "-e", "cpu-clock", "-c", str(kind[1] * 100)] +
                            (["--call-graph", "dwarf,8192"] if kind[0] == "pfd" else []) +
                            ["-o", PF_FILE, "--"] + wl)
                r = run(argv)
                cpu_all = clock.lap()
                w = kv(r["out"], "wl ")
                rec = {"section": "slowdown", "round": rnd, "prog": prog,
                       "threads": threads, "cfg": name, "rc": r["rc"],
                       "wall_ns": r["wall_ns"], "wl_ns": int(w.get("ns", 0)),
                       "wl_cpu_ns": int(w.get("cpu_ns", 0)),
                       "rate_hz": 0 if kind is None else 1e7 / kind[1],
                       "tool_cpu_ns": cpu_all - int(w.get("cpu_ns", 0))}
                if kind and kind[0] in ("kp", "kpg", "kpd"):
                    # "[ kprofile record: N hits in P profiles over ..." (other
                    # summary lines may follow it)
                    m = re.search(r"\[ kprofile record: (\d+) hits in", r["err"])
                    rec["samples"] = int(m.group(1)) if m else 0
                    if kind[0] in ("kpg", "kpd"):
                        # "[ kprofile record: S samples (C with call stacks),
                        # T task records, L lost ]" (the same line with
                        # --call-graph dwarf)
                        m = re.search(r"\[ kprofile record: (\d+) samples \((\d+) with "
                                      r"call stacks\), (\d+) task records, (\d+) lost",
                                      r["err"])
                        rec["stream_samples"] = int(m.group(1)) if m else 0
                        rec["stream_stacks"] = int(m.group(2)) if m else 0
                        rec["stream_lost"] = int(m.group(4)) if m else -1
                    rec.update(kp_file_info(KP_FILE))
                    rec["file_bytes"] = os.path.getsize(KP_FILE) if os.path.exists(KP_FILE) else 0
                elif kind:
                    rec.update(perf_samples(PF_FILE))
                    rec["file_bytes"] = os.path.getsize(PF_FILE) if os.path.exists(PF_FILE) else 0
                # Report time, on the static program's 1-thread files at
                # the maximum rate and on the --call-graph dwarf files
                # (their user stacks are unwound there; smoke: on every
                # file).
                if kind and (report_all or name in ("kp1kd", "pf1kd") or
                             (prog == "wl" and threads == 1 and name.endswith("max"))):
                    # perf report's inline frames (on by default with call
                    # stacks) run addr2line, which the guest has not: so
                    # --no-inline (kprofile report shows no inline frames
                    # either).
                    rep = (["kprofile", "report", "-i", KP_FILE] if kind[0].startswith("kp") else
                           ["perf", "report", "--stdio", "-i", PF_FILE] +
                           (["--no-inline"] if kind[0] == "pfd" else []))
                    rr = run(rep)
                    rec["report_ns"] = rr["wall_ns"]
                    rec["report_rc"] = rr["rc"]
                emit(**rec)
                for f in (KP_FILE, PF_FILE):
                    if os.path.exists(f):
                        os.unlink(f)


# The sample stream's configurations, beside the bucket path
# (kp1): a self stream of ProfileTime at the maximum rate, default frames
# and ring pages, without and with call stacks, alone and beside kp1's
# profile, and with call stacks 30 frames deeper (kpbench's DEPTH, after
# ITER).  kpbench drains the rings between ~4 ms slices of the loop.
STREAM_CFGS = [("s", ["stream", "0"], []), ("sg", ["stream", "1"], []),
               ("sg30", ["stream", "1"], ["30"]),
               ("kp1s", ["kpstream", "0"], []), ("kp1sg", ["kpstream", "1"], [])]
STREAM_INTS = ("chain", "depth", "hits", "hot", "records", "info_samples", "lost", "bytes",
               "drain_ns", "slices")


def kernel_cost(rounds, iters, ns_list):
    """Section 2: kernel-only cost of a sample vs started profiles, and
    the sample stream's against the bucket path."""
    cfgs = [("none", ["none"], []), ("perf", ["perf"], [])]
    for n in ns_list:
        cfgs.append(("kp%d" % n, ["kp", str(n), str(n // 2)], []))
    cfgs.append(("kp%do" % ns_list[-1], ["kp", str(ns_list[-1]), str(ns_list[-1] - 1)], []))
    # The same after the starts' deferred work (a grace period, then a
    # fold of each replaced snapshot): the steady state ("w", waited).
    for n in ns_list[-2:]:
        cfgs.append(("kp%dw" % n, ["kp", str(n), str(n // 2)], [str(KP_WAIT_MS)]))
    cfgs.append(("kp%dow" % ns_list[-1], ["kp", str(ns_list[-1]), str(ns_list[-1] - 1)],
                 [str(KP_WAIT_MS)]))
    cfgs += STREAM_CFGS
    for rnd in range(rounds):
        for name, args, tail in rotated(cfgs, rnd):
            r = run([BIN + "/kpbench"] + args + [str(iters)] + tail)
            k = kv(r["out"], "kpbench ")
            rec = dict(section="kernel", round=rnd, cfg=name, rc=r["rc"],
                       n=int(k.get("n", 0)), other=int(k.get("other", 0)),
                       interval=int(k.get("interval", 0)), ns=int(k.get("ns", 0)),
                       samples=int(k.get("samples", 0)),
                       start_ns=int(k.get("start_ns", 0)), stop_ns=int(k.get("stop_ns", 0)))
            if args[0] in ("stream", "kpstream"):
                rec["stream"] = args[0]
                for key in STREAM_INTS:
                    rec[key] = int(k.get(key, -1))
                rec["frames"] = float(k.get("frames", 0))
            emit(**rec)


def interrupts(rounds, iters, ivmax, cpus, sleep_ms, pinned):
    """Section 3: timer interrupts where the target does not run.

    The target (wl) counts LOC per CPU over its own timed section only,
    so the tools' start and stop are not in it."""
    tools = {
        "none": [],
        "kp": ["kprofile", "record", "-i", str(ivmax), "-o", KP_FILE, "--"],
        "pf": ["perf", "record", "-e", "cpu-clock", "-c", str(ivmax * 100),
               "-o", PF_FILE, "--"],
    }
    # A target that sleeps: it runs on no CPU.
    targets = [("sleep", [BIN + "/wl", "0", str(sleep_ms)], None)]
    if cpus > 1 and pinned:
        # Tool and a 1-thread target on CPU 0: the others are "where it
        # does not run".
        targets.append(("pinned", [BIN + "/wl", "1", str(iters)], 0))
    for rnd in range(rounds):
        for tname, targv, pin in targets:
            for name in rotated(list(tools), rnd):
                r = run(tools[name] + targv, taskset=pin)
                w = kv(r["out"], "wl ")
                emit(section="interrupts", round=rnd, target=tname, cfg=name,
                     rc=r["rc"], wl_ns=int(w.get("ns", 0)), loc=loc_of(w),
                     pinned_cpu=pin)
                for f in (KP_FILE, PF_FILE):
                    if os.path.exists(f):
                        os.unlink(f)


def main():
    mode, rounds, work = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    smoke = "smoke" in sys.argv[4:]
    sections = None
    for a in sys.argv[4:]:
        if a.startswith("sections="):
            sections = [x for x in a[len("sections="):].split(",") if x]
    os.makedirs(TMP, exist_ok=True)
    os.chdir(TMP)
    cpus = os.cpu_count() or 1
    iters = calibrate(work)
    ivmax = max_interval()
    kp_ver = run(["kprofile", "--version"])["out"].strip()
    pf_ver = run(["perf", "--version"])["out"].strip()
    emit(section="machine", mode=mode, cpus=cpus, rounds=rounds, work_s=work,
         iters=iters, interval_max=ivmax, kernel=os.uname().release,
         kprofile=kp_ver, perf=pf_ver, smoke=smoke, sections=sections)
    if smoke:
        # pf1kd stands in for pfmax (perf record and report, with the
        # stack copies): each record of perf costs seconds in the guest.
        groups, names, ns_list = [("wldyn", 1)], ["base", "kp1k", "kp1kg", "kp1kd", "pf1kd"], [1, 8]
    else:
        groups = [(p, t) for p in ("wl", "wldyn") for t in (1, 2)]
        names = ["base", "kp1k", "kp1kg", "kp1kd", "kpmax", "pf1k", "pf1kd", "pfmax"]
        ns_list = [1, 8, 64, 256, 1024]
    t = time.monotonic()
    for name, fn in (("slowdown", lambda: slowdown(rounds, iters, ivmax, groups, names,
                                                   smoke, groups[0])),
                     ("kernel", lambda: kernel_cost(rounds, iters, ns_list)),
                     ("interrupts", lambda: interrupts(rounds, iters, ivmax, cpus,
                                                       max(100, int(work * 2000)),
                                                       not smoke))):
        if sections is not None and name not in sections:
            continue
        t0 = time.monotonic()
        fn()
        emit(section="timing", part=name, seconds=time.monotonic() - t0)
    emit(section="timing", part="total", seconds=time.monotonic() - t)
    return 0


if __name__ == "__main__":
    sys.exit(main())
