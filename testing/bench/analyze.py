#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest's "KPB <json>" lines (testing/bench/guest.py) into tables.

    analyze.py [--json OUT] [--check] OUTPUT.LOG...

Each OUTPUT.LOG is one boot (one machine).  Prints the tables, writes
every figure and the raw measurements to OUT.  Medians are over rounds;
"[a, b]" is the range (min, max) over rounds.  Every ratio pairs
measurements of the same round and boot.  --check: smoke mode, count each
measurement that ran (exit 0, samples where sampling) as a test and print
the results as TAP after the tables (make check's bench-smoke layer).
"""
import argparse
import json
import statistics
import sys

NOTE = ("All figures come from QEMU TCG (no KVM, no PMU) and are relative: "
        "compare kprofile with perf in the same machine, not with hardware.  "
        "icount: 1 vCPU, guest ns = guest instructions, deterministic.  "
        "mttcg: 2 vCPUs in real time on a shared host, noisy.")


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def rng(xs):
    xs = [x for x in xs if x is not None]
    return [min(xs), max(xs)] if xs else None


def load(path):
    recs = []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("KPB "):
                try:
                    recs.append(json.loads(line[4:]))
                except ValueError:
                    pass
    return recs


def fmt(x, spec="{:.0f}"):
    return "-" if x is None else spec.format(x)


def pct(x):
    return "-" if x is None else "{:+.1f}%".format(100 * x)


def table(title, head, rows):
    print("\n" + title)
    w = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(str(h))
         for i, h in enumerate(head)]
    print("  " + "  ".join(str(h).ljust(w[i]) for i, h in enumerate(head)))
    for r in rows:
        print("  " + "  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)))


def slowdown(recs, mode, cpus):
    out = []
    sd = [r for r in recs if r["section"] == "slowdown"]
    keys = []
    for r in sd:
        k = (r["prog"], r["threads"], r["cfg"])
        if k not in keys:
            keys.append(k)
    base = {(r["prog"], r["threads"], r["round"]): r for r in sd if r["cfg"] == "base"}
    rows = []
    for prog, t, cfg in keys:
        rs = [r for r in sd if (r["prog"], r["threads"], r["cfg"]) == (prog, t, cfg)]
        ov, per, per_cpu, yld, cost, tool, bps = [], [], [], [], [], [], []
        for r in rs:
            b = base.get((prog, t, r["round"]))
            if not b or not b["wl_ns"] or not r["wl_ns"]:
                continue
            ov.append(r["wl_ns"] / b["wl_ns"] - 1)
            s = r.get("samples")
            if s:
                # Extra section time on each of the CPUs the threads
                # ran on, per sample.
                per.append((r["wl_ns"] - b["wl_ns"]) * min(t, cpus) / s)
                per_cpu.append((r["wl_cpu_ns"] - b["wl_cpu_ns"]) / s)
                exp = r["wl_cpu_ns"] / 1e9 * r["rate_hz"]
                if exp:
                    yld.append(s / exp)
            # Per sample in the file (the stream's sample records where
            # there is a stream, perf.data's SAMPLE records for perf): the
            # record tool's CPU, that plus the workload's extra CPU (the
            # interrupt path charged to it), and the file's bytes.
            n = r["stream_samples"] if "stream_samples" in r else r.get("samples")
            if n:
                tool.append(r["tool_cpu_ns"] / n)
                cost.append((r["wl_cpu_ns"] - b["wl_cpu_ns"] + r["tool_cpu_ns"]) / n)
                if r.get("file_bytes"):
                    bps.append(r["file_bytes"] / n)
        row = {"prog": prog, "threads": t, "cfg": cfg,
               "base_ms": med([base[k]["wl_ns"] / 1e6 for k in base
                               if k[:2] == (prog, t)]) if cfg == "base" else None,
               "overhead": med(ov), "overhead_range": rng(ov),
               "ns_per_sample": med(per), "ns_per_sample_range": rng(per),
               "wl_cpu_ns_per_sample": med(per_cpu),
               "tool_cpu_ns_per_sample": med(tool),
               "cost_ns_per_sample": med(cost), "cost_ns_per_sample_range": rng(cost),
               "bytes_per_sample": med(bps), "bytes_per_sample_range": rng(bps),
               "samples": med([r.get("samples") for r in rs]),
               "yield": med(yld),
               "tool_cpu_ms": med([r["tool_cpu_ns"] / 1e6 for r in rs]) if cfg != "base" else None,
               "record_wall_ms": med([r["wall_ns"] / 1e6 for r in rs]),
               # The tool's start, stop and file writing: wall time
               # outside the workload's own section.
               "outside_ms": med([(r["wall_ns"] - r["wl_ns"]) / 1e6 for r in rs]),
               "file_bytes": med([r.get("file_bytes") for r in rs]),
               "pinned_bytes": med([r.get("pinned_bytes") for r in rs]),
               "profiles": med([r.get("ranges") for r in rs]),
               "report_ms": med([r["report_ns"] / 1e6 for r in rs if "report_ns" in r]),
               "perf_lost": med([r.get("lost") for r in rs]),
               "stream_samples": med([r.get("stream_samples") for r in rs]),
               "stream_lost": med([r.get("stream_lost") for r in rs]),
               "perf_throttle": med([r.get("throttle") for r in rs]),
               "rounds": len(rs)}
        out.append(row)
        rr = row["overhead_range"]
        rows.append([prog, t, cfg,
                     fmt(row["base_ms"], "{:.1f}") if cfg == "base" else
                     "%s [%s, %s]" % (pct(row["overhead"]), pct(rr[0]) if rr else "-",
                                      pct(rr[1]) if rr else "-"),
                     fmt(row["ns_per_sample"]), fmt(row["wl_cpu_ns_per_sample"]),
                     fmt(row["samples"]), fmt(row["yield"], "{:.3f}"),
                     fmt(row["tool_cpu_ms"]), fmt(row["cost_ns_per_sample"]),
                     fmt(row["file_bytes"]), fmt(row["bytes_per_sample"]),
                     fmt(row["pinned_bytes"] and row["pinned_bytes"] / 1024),
                     fmt(row["profiles"]), fmt(row["outside_ms"]), fmt(row["report_ms"]),
                     "-" if row["stream_samples"] is None else
                     "%s (%s lost)" % (fmt(row["stream_samples"]), fmt(row["stream_lost"]))])
    table("[%s] 1. Workload slowdown under record (base: workload ms; others: overhead median "
          "[min, max]; wl+tool CPU ns/sample and B/sample per sample in the file: the stream's "
          "records with -g/--call-graph, perf.data's SAMPLE records)" % mode,
          ["prog", "T", "cfg", "overhead", "ns/sample", "wl-cpu ns/sample", "samples",
           "collected/expected", "tool CPU ms", "wl+tool CPU ns/sample", "file B", "B/sample",
           "pinned KiB", "profiles",
           "outside ms", "report ms", "-g samples"], rows)
    return out


def kernel(recs, mode):
    # The sample stream's rows have their own table (stream() below).
    kr = [r for r in recs if r["section"] == "kernel" and "stream" not in r]
    none = {r["round"]: r for r in kr if r["cfg"] == "none"}
    cfgs = []
    for r in kr:
        if r["cfg"] not in cfgs:
            cfgs.append(r["cfg"])
    out, rows = [], []
    perf_cost = None
    for cfg in cfgs:
        rs = [r for r in kr if r["cfg"] == cfg]
        per = [(r["ns"] - none[r["round"]]["ns"]) / r["samples"] for r in rs
               if r["samples"] and r["round"] in none]
        row = {"cfg": cfg, "n": rs[0]["n"], "other": rs[0]["other"],
               "ns_per_sample": med(per), "range": rng(per),
               "samples": med([r["samples"] for r in rs]),
               "start_ms": med([r["start_ns"] / 1e6 for r in rs]),
               "stop_ms": med([r["stop_ns"] / 1e6 for r in rs]),
               "stop_ms_range": rng([r["stop_ns"] / 1e6 for r in rs]),
               "rounds": len(rs)}
        if cfg == "perf":
            perf_cost = row["ns_per_sample"]
        out.append(row)
    for row in out:
        row["vs_perf"] = (row["ns_per_sample"] / perf_cost
                          if perf_cost and row["ns_per_sample"] is not None else None)
        r = row["range"]
        rows.append([row["cfg"], row["n"], row["other"], fmt(row["ns_per_sample"]),
                     "[%s, %s]" % (fmt(r[0]), fmt(r[1])) if r else "-",
                     fmt(row["vs_perf"], "{:.2f}"), fmt(row["samples"]),
                     fmt(row["start_ms"], "{:.1f}"), fmt(row["stop_ms"], "{:.1f}")])
    table("[%s] 2. Kernel-only cost of one sample (kpbench, no record tool; ns of loop time "
          "per sample; icount: = guest instructions)" % mode,
          ["cfg", "profiles", "of other process", "ns/sample", "[min, max]", "/ perf",
           "samples", "create+start ms", "stop+close ms"], rows)
    return out


STREAM_ROWS = [
    ("perf", "perf cpu-clock event, IP|TID|TIME (reference)"),
    ("kp1", "bucket path: 1 profile over the loop"),
    ("s", "stream, no call stack"),
    ("sg", "stream with call stack"),
    ("sg30", "stream with call stack, 30 frames deeper"),
    ("kp1s", "1 profile + stream, no call stack"),
    ("kp1sg", "1 profile + stream with call stack"),
]
STREAM_CFGS = [c for c, _ in STREAM_ROWS if c.startswith("s") or c.startswith("kp1s")]


def stream(recs, mode):
    """Issue 13: the sample stream's kernel cost per sample against the
    bucket path's, from the kernel section's kpbench runs.  ns/sample as
    in table 2: (loop ns - the round's bare loop ns) / samples; "- bucket"
    and "/ bucket" pair each round with the same round's kp1."""
    kr = [r for r in recs if r["section"] == "kernel"]
    none = {r["round"]: r for r in kr if r["cfg"] == "none"}
    out, rows = [], []

    def per_sample(r):
        n = none.get(r["round"])
        return (r["ns"] - n["ns"]) / r["samples"] if n and r["samples"] else None

    bucket = {r["round"]: per_sample(r) for r in kr if r["cfg"] == "kp1"}
    if not any(r.get("stream") for r in kr):
        return out
    for cfg, what in STREAM_ROWS:
        rs = [r for r in kr if r["cfg"] == cfg]
        if not rs:
            continue
        per = [per_sample(r) for r in rs]
        over = [p - bucket[r["round"]] for p, r in zip(per, rs)
                if p is not None and bucket.get(r["round"]) is not None]
        rel = [p / bucket[r["round"]] for p, r in zip(per, rs)
               if p is not None and bucket.get(r["round"])]
        st = [r for r in rs if r.get("stream")]
        row = {"cfg": cfg, "what": what, "stream": rs[0].get("stream"),
               "chain": rs[0].get("chain"), "depth": rs[0].get("depth"),
               "ns_per_sample": med(per), "range": rng(per),
               "over_bucket": med(over), "over_bucket_range": rng(over),
               "vs_bucket": med(rel), "vs_bucket_range": rng(rel),
               "samples": med([r["samples"] for r in rs]),
               "records": med([r["records"] for r in st]),
               "lost": max([r["lost"] for r in st]) if st else None,
               "frames": med([r["frames"] for r in st]),
               "record_bytes": med([r["bytes"] / r["records"] for r in st if r["records"] > 0]),
               "drain_ns_per_record": med([r["drain_ns"] / r["records"] for r in st
                                           if r["records"] > 0]),
               "start_ms": med([r["start_ns"] / 1e6 for r in rs]),
               "stop_ms": med([r["stop_ns"] / 1e6 for r in rs]),
               "rounds": len(rs)}
        out.append(row)
        r1, r2 = row["range"], row["vs_bucket_range"]
        rows.append([cfg, what, fmt(row["ns_per_sample"]),
                     "[%s, %s]" % (fmt(r1[0]), fmt(r1[1])) if r1 else "-",
                     fmt(row["over_bucket"], "{:+.0f}"),
                     "%s [%s, %s]" % (fmt(row["vs_bucket"], "{:.2f}"), fmt(r2[0], "{:.2f}"),
                                      fmt(r2[1], "{:.2f}")) if r2 else "-",
                     fmt(row["samples"]), fmt(row["records"]), fmt(row["lost"]),
                     fmt(row["frames"], "{:.1f}"), fmt(row["record_bytes"]),
                     fmt(row["drain_ns_per_record"]),
                     fmt(row["start_ms"], "{:.1f}"), fmt(row["stop_ms"], "{:.1f}")])
    table("[%s] 2b. Sample stream vs bucket path, kernel cost per sample (kpbench, ProfileTime "
          "at the maximum rate, default frames and rings; ns of loop time per sample; icount: "
          "= guest instructions; frames: call-stack entries per sample; reader: the drains "
          "between loop slices, per record)" % mode,
          ["cfg", "what", "ns/sample", "[min, max]", "- bucket", "/ bucket [min, max]",
           "samples", "records", "lost", "frames", "B/record", "reader ns/record",
           "create+start ms", "stop+close ms"], rows)
    return out


def interrupts(recs, mode):
    ir = [r for r in recs if r["section"] == "interrupts"]
    out, rows = [], []
    for target in ("sleep", "pinned"):
        rs = [r for r in ir if r["target"] == target and r["loc"] and r["wl_ns"]]
        if not rs:
            continue
        ncpu = len(rs[0]["loc"])
        base = {}
        for cfg in ("none", "kp", "pf"):
            cs = [r for r in rs if r["cfg"] == cfg]
            if not cs:
                continue
            pin = cs[0].get("pinned_cpu")
            # CPUs where the target does not run: every CPU while it
            # sleeps; the others when it is pinned to one.
            away = [c for c in range(ncpu) if pin is None or c != pin]
            per_s = [med([r["loc"][c] / (r["wl_ns"] / 1e9) for r in cs if len(r["loc"]) > c])
                     for c in range(ncpu)]
            if cfg == "none":
                base = dict(enumerate(per_s))
            row = {"target": target, "cfg": cfg, "loc_per_s_per_cpu": per_s,
                   "away_cpus": away,
                   "away_per_s": sum(per_s[c] for c in away),
                   "away_per_s_over_idle": sum(per_s[c] - base.get(c, 0) for c in away),
                   "section_ms": med([r["wl_ns"] / 1e6 for r in cs])}
            out.append(row)
            rows.append([target, cfg, " ".join(fmt(x) for x in per_s),
                         ",".join(map(str, away)), fmt(row["away_per_s"]),
                         fmt(row["away_per_s_over_idle"]), fmt(row["section_ms"])])
    table("[%s] 3. Local timer interrupts (LOC/s, during the target's own section) "
          "while recording at the maximum rate; 'away': CPUs where the target does not "
          "run" % mode,
          ["target", "cfg", "LOC/s per CPU", "away CPUs", "away LOC/s",
           "away LOC/s over idle", "section ms"], rows)
    return out


def find(rows, **kw):
    for r in rows:
        if all(r.get(k) == v for k, v in kw.items()):
            return r
    return None


def ratio_met(a, b, limit):
    """a / b <= limit; None (noise) when either is not a positive cost."""
    if a is None or b is None or a <= 0 or b <= 0:
        return None
    return a / b <= limit


def targets(res):
    """The issue's targets, from the icount machine where there is one."""
    m = res.get("icount") or next(iter(res.values()), None)
    if not m:
        return []
    out = []

    def add(name, value, limit, unit, met, how):
        out.append({"target": name, "value": value, "limit": limit, "unit": unit,
                    "met": met, "how": how})

    k1, k1024 = find(m["kernel"], cfg="kp1"), None
    for r in m["kernel"]:
        if r["cfg"].endswith("o"):
            k1024 = r
    if k1 and k1024 and k1["ns_per_sample"] and k1024["ns_per_sample"] is not None:
        v = k1024["ns_per_sample"] / k1["ns_per_sample"]
        add("kernel cost, %d profiles (%d of other processes) / 1 profile"
            % (k1024["n"], k1024["other"]), v, 1.5, "x",
            ratio_met(k1024["ns_per_sample"], k1["ns_per_sample"], 1.5), m["mode"])
    for cfg, pcfg in (("kp1k", "pf1k"), ("kpmax", "pfmax")):
        for t in (1, 2):
            a = find(m["slowdown"], prog="wldyn", threads=t, cfg=cfg)
            b = find(m["slowdown"], prog="wldyn", threads=t, cfg=pcfg)
            if a and b and a["ns_per_sample"] is not None and b["ns_per_sample"]:
                v = a["ns_per_sample"] / b["ns_per_sample"]
                add("record per-sample overhead, 30-library program, T=%d, %s / %s"
                    % (t, cfg, pcfg), v, 0.5, "x",
                    ratio_met(a["ns_per_sample"], b["ns_per_sample"], 0.5), m["mode"])
    mt = res.get("mttcg")
    if mt:
        kp = find(mt["interrupts"], target="pinned", cfg="kp")
        pf = find(mt["interrupts"], target="pinned", cfg="pf")
        if kp and pf:
            add("interrupts/s on the CPU a 1-thread target never runs (over idle), kp - perf",
                kp["away_per_s_over_idle"] - pf["away_per_s_over_idle"], 0, "LOC/s",
                kp["away_per_s_over_idle"] <= max(pf["away_per_s_over_idle"], 0) + 50,
                "mttcg (within 50/s of noise)")
    kp = find(m["interrupts"], target="sleep", cfg="kp")
    pf = find(m["interrupts"], target="sleep", cfg="pf")
    if kp and pf:
        add("interrupts/s while the target sleeps (over idle): kprofile; limit perf's",
            kp["away_per_s_over_idle"], pf["away_per_s_over_idle"], "LOC/s",
            kp["away_per_s_over_idle"] <= pf["away_per_s_over_idle"] + 50, m["mode"])
    a = find(m["slowdown"], prog="wl", threads=1, cfg="kp1k")
    b = find(m["slowdown"], prog="wl", threads=1, cfg="pf1k")
    if a and b and a["file_bytes"] and b["file_bytes"]:
        add("record file at 1 kHz (static wl, same run), kprofile.data / perf.data",
            a["file_bytes"] / b["file_bytes"], 1.0, "x", a["file_bytes"] <= b["file_bytes"],
            "%s, %.2f s of work" % (m["mode"], m["machine"]["work_s"]))
    # record --call-graph dwarf, 8 KiB of user stack a sample, 1 kHz,
    # against perf's (g_group: the static wl, T=1; smoke: wldyn).
    a = find(m["slowdown"], cfg="kp1kd")
    b = find(m["slowdown"], cfg="pf1kd")
    if a and b:
        what = "record --call-graph dwarf (8 KiB, 1 kHz, %s T=%d), kp1kd / pf1kd" % (
            a["prog"], a["threads"])
        how = "%s, %.2f s of work" % (m["mode"], m["machine"]["work_s"])
        for key, desc in (("cost_ns_per_sample",
                           "CPU per sample (workload's extra + record tool's)"),
                          ("ns_per_sample", "workload slowdown per sample"),
                          ("bytes_per_sample", "file bytes per sample")):
            if a[key] is not None and b[key]:
                add("%s: %s" % (what, desc), a[key] / b[key], 1.0, "x",
                    ratio_met(a[key], b[key], 1.0), how)
    # A process's own profiles whose ranges miss, as the loop starts
    # (kpN: with the starts' deferred folds in it) and in the steady
    # state (kpNw: after them).
    k1 = find(m["kernel"], cfg="kp1")
    for cfg in ("kp256", "kp1024", "kp256w", "kp1024w"):
        k = find(m["kernel"], cfg=cfg)
        if k1 and k and k1["ns_per_sample"] and k["ns_per_sample"] is not None:
            add("kernel cost, %d profiles (%d own misses%s) / 1 profile"
                % (k["n"], k["n"] - 1 - k["other"],
                   ", steady state" if cfg.endswith("w") else ", loop right after the starts"),
                k["ns_per_sample"] / k1["ns_per_sample"], 1.2, "x",
                ratio_met(k["ns_per_sample"], k1["ns_per_sample"], 1.2), m["mode"])
    s = find(m["kernel"], cfg="kp256")
    if s:
        add("stop of 256 started profiles", s["stop_ms"], 100, "ms", s["stop_ms"] < 100,
            m["mode"])
    rows = [[t["target"], fmt(t["value"], "{:.3g}"), fmt(t["limit"], "{:.3g}"), t["unit"],
             {True: "met", False: "MISSED", None: "noise"}[t["met"]], t["how"]]
            for t in out]
    table("Targets of the hit-path work", ["target", "value", "limit", "unit", "", "machine"], rows)
    return out


def check(recs_by_mode):
    """TAP: one result per section, stream configuration and measurement."""
    results = []

    def result(ok, what):
        results.append(("ok" if ok else "not ok", what))

    for mode, recs in recs_by_mode.items():
        sections = {r["section"] for r in recs}
        for s in ("machine", "slowdown", "kernel", "interrupts"):
            result(s in sections, "bench %s: %s measurements" % (mode, s))
        # The sample stream in the kernel section, and record -g in the
        # slowdown section.
        cfgs = {(r["section"], r.get("cfg")) for r in recs}
        for s, cfg in ([("kernel", c) for c in STREAM_CFGS] +
                       [("slowdown", c) for c in ("kp1kg", "kp1kd", "pf1kd")]):
            result((s, cfg) in cfgs, "bench %s: %s %s measurements" % (mode, s, cfg))
        for r in recs:
            if r["section"] in ("machine", "timing"):
                continue
            ok = r.get("rc") == 0
            if r["section"] == "slowdown" and r["cfg"] != "base":
                ok = ok and r.get("samples", 0) > 0 and r.get("report_rc", 0) == 0
            if r["section"] == "kernel" and r["cfg"] != "none":
                ok = ok and r.get("samples", 0) > 0
            if r["section"] == "kernel" and "stream" in r:
                ok = ok and r.get("records", 0) > 0 and r.get("lost", -1) == 0
            if r["section"] == "slowdown" and r["cfg"] == "kp1kg":
                ok = ok and r.get("stream_samples", 0) > 0 and r.get("stream_lost", -1) == 0
            # 8 KiB a sample: a slow host's drain may lose some (said in
            # the table), which is no failure of the pipeline.
            if r["section"] == "slowdown" and r["cfg"] == "kp1kd":
                ok = ok and r.get("stream_samples", 0) > 0 and r.get("stream_lost", -1) >= 0
            result(ok, "bench %s: %s %s" % (mode, r["section"], r.get("cfg", "")))
            if not ok:
                results.append(("#", json.dumps(r, sort_keys=True)))
    print("TAP version 14")
    n = 0
    for status, what in results:
        if status == "#":
            print("# " + what)
            continue
        n += 1
        print("%s %d - %s" % (status, n, what))
    print("1..%d" % n)
    return all(status != "not ok" for status, _ in results)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args()
    print(NOTE)
    res, by_mode = {}, {}
    for path in a.logs:
        recs = load(path)
        mach = next((r for r in recs if r["section"] == "machine"), None)
        if not mach:
            print("\n%s: no measurements" % path)
            by_mode[path] = recs
            continue
        mode = mach["mode"]
        by_mode[mode] = recs
        print("\n== %s: %d vCPU, kernel %s, %d rounds, %.2f s of work per thread, "
              "%d iterations, ProfileTime max interval %d (%.0f Hz); %s; %s"
              % (mode, mach["cpus"], mach["kernel"], mach["rounds"], mach["work_s"],
                 mach["iters"], mach["interval_max"], 1e7 / mach["interval_max"],
                 mach["kprofile"], mach["perf"]))
        res[mode] = {"mode": mode, "machine": mach,
                     "slowdown": slowdown(recs, mode, mach["cpus"]),
                     "kernel": kernel(recs, mode),
                     "stream": stream(recs, mode),
                     "interrupts": interrupts(recs, mode),
                     "timing": {r["part"]: r["seconds"] for r in recs
                                if r["section"] == "timing"},
                     "raw": [r for r in recs if r["section"] != "machine"]}
    tg = targets(res)
    print("\n" + NOTE)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"note": NOTE, "machines": res, "targets": tg}, f, indent=1,
                      sort_keys=True)
    if a.check:
        return 0 if check(by_mode) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
