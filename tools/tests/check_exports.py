#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""`kprofile report --format folded|csv|pprof` read back by independent
readers: a folded-stack line parser (flamegraph.pl's grammar), Python's
csv module, and Python's protobuf over profile.proto compiled here with
protoc --python_out.  Also --source through the shared parser.

The record file comes from kp_make_record (tests/make_record_fixture.cpp),
whose hits fall on known functions of the fixture library.

Usage: check_exports.py --tool KPROFILE --maker KP_MAKE_RECORD --so LIB
                        --proto profile.proto [--protoc PROTOC]
Exit 77 (skipped) only when python3-protobuf or protoc is missing.
"""
import argparse
import csv
import gzip
import importlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FAILED = []


def check(name, ok, detail=""):
    print("%s: %s" % ("ok" if ok else "FAIL", name))
    if not ok:
        FAILED.append(name)
        if detail:
            print("  " + str(detail).replace("\n", "\n  ")[:2000])


def run(*cmd):
    return subprocess.run(list(cmd), capture_output=True)


def make_record(args, tmp, name, *extra):
    path = os.path.join(tmp, name)
    proc = run(args.maker, args.so, path, *extra)
    if proc.returncode != 0:
        sys.exit("FAIL: kp_make_record: %s" % proc.stderr.decode())
    want = []   # (symbol, hits, source), or ("folded", stack, count)
    for line in proc.stdout.decode().splitlines():
        a, b, c = line.split("\t")
        want.append(("folded", b, int(c)) if a == "folded" else (a, int(b), c))
    return path, want


# flamegraph.pl: "frame;frame;... COUNT", split at the last space.
FOLDED = re.compile(r"^(.+) (\d+)$")


def check_folded(args, rec, want, two):
    proc = run(args.tool, "report", "-i", rec, "--format", "folded")
    text = proc.stdout.decode()
    check("folded: exit 0", proc.returncode == 0, proc.stderr.decode())
    stacks = {}
    bad = []
    for line in text.splitlines():
        m = FOLDED.match(line)
        if not m:
            bad.append(line)
            continue
        stacks[tuple(m.group(1).split(";"))] = int(m.group(2))
    check("folded: every line is 'frame;...;frame COUNT'", text and not bad, bad or text)
    lib = os.path.basename(args.so)
    for sym, hits, source in want:
        key = ((source,) if two else ()) + (lib, sym)
        check("folded: %s has %d" % (";".join(key), hits), stacks.get(key) == hits, stacks)
    if not two:
        check("folded: the unattributed hits are a stack of their own",
              stacks.get(("[unattributed]", "[user space, outside the profiled objects]")) == 5, stacks)
        check("folded: counts sum to the catch-all total (105)",
              sum(stacks.values()) == 105, stacks)


def check_csv(args, rec, want):
    proc = run(args.tool, "report", "-i", rec, "--format", "csv")
    check("csv: exit 0", proc.returncode == 0, proc.stderr.decode())
    rows = list(csv.DictReader(io.StringIO(proc.stdout.decode(), newline="")))
    cols = ["overhead", "hits", "exact_hits", "source", "source_value", "object",
            "object_path", "symbol", "resolved", "ambiguous", "address", "comm", "pid",
            "srcline", "children"]
    header = proc.stdout.decode().splitlines()[0].split(",") if proc.stdout else []
    check("csv: the documented columns, in order", header == cols, header)
    by = {r["symbol"]: r for r in rows}
    for sym, hits, _ in want:
        r = by.get(sym)
        check("csv: %s (a name with spaces/commas survives quoting) has %d hits" % (sym, hits),
              r is not None and float(r["hits"]) == hits and r["resolved"] == "1"
              and r["object_path"] == args.so and r["address"].startswith("0x7f12"), r)
    total = sum(float(r["overhead"]) for r in rows)
    check("csv: overheads sum to 100%", abs(total - 100.0) < 0.01, total)


def load_pb2(args, tmp):
    protoc = args.protoc or shutil.which("protoc")
    try:
        importlib.import_module("google.protobuf")
    except ImportError:
        print("SKIP: python3-protobuf is not installed (testing/deps.sh installs it)")
        sys.exit(77)
    if not protoc:
        print("SKIP: protoc is not installed (protobuf-compiler; testing/deps.sh)")
        sys.exit(77)
    d = os.path.dirname(os.path.abspath(args.proto))
    proc = run(protoc, "-I", d, "--python_out=" + tmp, os.path.abspath(args.proto))
    if proc.returncode != 0:
        sys.exit("FAIL: protoc: %s" % proc.stderr.decode())
    sys.path.insert(0, tmp)
    return importlib.import_module("profile_pb2")


def check_pprof(args, tmp, pb2, rec, want, two):
    out = os.path.join(tmp, "prof%d.pb.gz" % two)
    proc = run(args.tool, "report", "-i", rec, "--format", "pprof", "-o", out)
    check("pprof: exit 0", proc.returncode == 0, proc.stderr.decode())
    with open(out, "rb") as f:
        raw = f.read()
    check("pprof: gzip (on-disk profile.proto must be gzipped)", raw[:2] == b"\x1f\x8b")
    prof = pb2.Profile()
    prof.ParseFromString(gzip.decompress(raw))
    s = prof.string_table
    check("pprof: string_table[0] is ''", len(s) > 0 and s[0] == "")
    types = [(s[t.type], s[t.unit]) for t in prof.sample_type]
    want_types = [("ProfileTime", "count")]
    if two:
        want_types.append(("ProfileTotalCycles", "count"))
    want_types.append(("cpu", "nanoseconds"))
    check("pprof: sample types %s" % want_types, types == want_types, types)
    check("pprof: period 1 ms of cpu", prof.period == 1000000
          and s[prof.period_type.type] == "cpu", (prof.period, prof.period_type))
    check("pprof: duration", prof.duration_nanos == 1500000000, prof.duration_nanos)
    funcs = {f.id: s[f.name] for f in prof.function}
    locs = {l.id: l for l in prof.location}
    maps = {m.id: m for m in prof.mapping}
    got = {}
    for smp in prof.sample:
        check("pprof: one value per sample type", len(smp.value) == len(types), smp)
        loc = locs[smp.location_id[0]]
        m = maps.get(loc.mapping_id)
        name = funcs[loc.line[0].function_id]
        for i, (t, _) in enumerate(types):
            got[(name, t)] = got.get((name, t), 0) + smp.value[i]
        if name.startswith("kp_fixture"):
            check("pprof: %s's location is inside its mapping %s" % (name, args.so),
                  m is not None and s[m.filename] == args.so
                  and m.memory_start <= loc.address < m.memory_limit, (loc, m))
    for sym, hits, source in want:
        check("pprof: %s has %d %s" % (sym, hits, source), got.get((sym, source)) == hits, got)
        if source == "ProfileTime":
            check("pprof: %s has %d ns of cpu" % (sym, hits * 1000000),
                  got.get((sym, "cpu")) == hits * 1000000, got)


def check_source_filter(args, rec):
    for name in ("time", "Timer", "0", "ProfileTime"):
        proc = run(args.tool, "report", "-i", rec, "--source", name, "--format", "csv")
        check("report --source %s: exit 0 with rows" % name,
              proc.returncode == 0 and b"kp_fixture_c_function" in proc.stdout,
              proc.stderr.decode())
    proc = run(args.tool, "report", "-i", rec, "--source", "TotalIssues")
    check("report --source TotalIssues (not recorded): exit 1 naming what the file has",
          proc.returncode == 1 and b"recording has no ProfileTotalIssues" in proc.stderr
          and b"ProfileTime (0x00)" in proc.stderr, proc.stderr.decode())
    proc = run(args.tool, "report", "-i", rec, "--source", "Tme")
    check("report --source Tme: did you mean", proc.returncode == 1
          and b"Did you mean" in proc.stderr, proc.stderr.decode())
    proc = run(args.tool, "report", "-i", rec, "--format", "svg")
    check("report --format svg: exit 1 listing the formats", proc.returncode == 1
          and b"folded" in proc.stderr and b"pprof" in proc.stderr, proc.stderr.decode())


def check_views(args, rec):
    """The navigation options end to end (unit-tested in RecordFilters)."""
    lib = os.path.basename(args.so)
    proc = run(args.tool, "report", "-i", rec, "--sort", "dso", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(proc.stdout.decode(), newline="")))
    check("--sort dso: one row per object, hits summed",
          proc.returncode == 0 and sorted(r["object"] for r in rows) == sorted([lib, "[unattributed]"])
          and any(float(r["hits"]) == 100 for r in rows), rows)
    proc = run(args.tool, "report", "-i", rec, "--dso", lib, "--symbol", "kp_*", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(proc.stdout.decode(), newline="")))
    check("--dso LIB --symbol 'kp_*': the two C functions only",
          proc.returncode == 0 and sorted(r["symbol"] for r in rows)
          == ["kp_fixture_c_function", "kp_fixture_static_helper"], rows)
    proc = run(args.tool, "report", "-i", rec, "--percent-limit", "15", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(proc.stdout.decode(), newline="")))
    check("--percent-limit 15 hides the 9.5% and 4.8% rows",
          proc.returncode == 0 and all(float(r["overhead"]) >= 15 for r in rows) and len(rows) == 2,
          rows)
    proc = run(args.tool, "report", "-i", rec, "--objects")
    out = proc.stdout.decode()
    # The rate: 100 hits in the fixture's 1.5 s.
    check("--objects prints the per-object summary (hits, time, rate, path)",
          proc.returncode == 0 and re.search(r"%s +100\.0 +95\.24%% +0\.100 s +66\.7/s +3 "
                                             % re.escape(lib), out), out)
    check("--objects of one source prints no side-by-side table",
          "side by side" not in out, out)
    proc = run(args.tool, "report", "-i", rec, "--srcline", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(proc.stdout.decode(), newline="")))
    lines = [r["srcline"] for r in rows if r["symbol"] == "kp_fixture_c_function"]
    check("--srcline: kp_fixture_c_function's hits are on record_fixture_c.c lines 8-15",
          proc.returncode == 0 and lines and all(
              l.startswith("record_fixture_c.c:") and 8 <= int(l.split(":")[1]) <= 15 for l in lines),
          rows)
    for opts in (["--raw", "--json"], ["--format", "raw", "--json"], ["--raw", "--format", "json"]):
        proc = run(args.tool, "report", "-i", rec, *opts)
        try:
            doc = json.loads(proc.stdout)
        except ValueError:
            doc = {}
        check("report %s is the raw JSON document" % " ".join(opts),
              proc.returncode == 0 and "buckets" in doc and any(
                  b["object"] == "[catch-all]" for b in doc["buckets"]), proc.stdout[:300])
    proc = run(args.tool, "report", "-i", rec, "--raw")
    check("report --raw is the text dump", proc.returncode == 0
          and proc.stdout.startswith(b"# Address"), proc.stdout[:300])
    # kernrate -z LIB: --raw --dso dumps LIB's buckets only, no catch-all
    # (--raw once ignored --dso and --symbol).
    proc = run(args.tool, "report", "-i", rec, "--raw", "--json", "--dso", lib)
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        doc = {"buckets": []}
    objs = sorted({b["object"] for b in doc["buckets"]})
    check("report --raw --dso LIB: LIB's buckets only, 100 hits", proc.returncode == 0
          and objs == [lib] and sum(b["hits"] for b in doc["buckets"]) == 100, objs)
    proc = run(args.tool, "report", "-i", rec, "--raw", "--symbol", "kp_fixture_c_function")
    lines = [l for l in proc.stdout.decode().splitlines() if not l.startswith("#")]
    check("report --raw --symbol F: the buckets holding F only", proc.returncode == 0
          and lines and all("kp_fixture_c_function" in l for l in lines), proc.stdout[:600])
    proc = run(args.tool, "report", "-i", rec, "--percent-limit", "200")
    check("--percent-limit 200: exit 1 saying what it takes", proc.returncode == 1
          and b"percentage from 0 to 100" in proc.stderr, proc.stderr.decode())
    proc = run(args.tool, "report", "-i", rec, "-n", "-1")
    check("-n -1 is refused", proc.returncode == 1, proc.stderr.decode())
    proc = run(args.tool, "report", "-i", rec, "--sort", "cpu")
    check("--sort cpu: exit 1 saying why and what to do",
          proc.returncode == 1 and b"-C N" in proc.stderr, proc.stderr.decode())


def check_ratios(args, tmp):
    """kernrate's side-by-side sources and CPI: the
    fixture's ProfileTotalCycles and ProfileTotalIssues hits, per object
    and per symbol (make_record_fixture.cpp --cpi)."""
    lib = os.path.basename(args.so)
    rec, _ = make_record(args, tmp, "cpi.data", "--cpi")
    proc = run(args.tool, "report", "-i", rec, "--objects")
    out = proc.stdout.decode()
    check("--objects with several sources: exit 0, a CPI column",
          proc.returncode == 0 and re.search(r"^# Object .*ProfileTotalIssues +ProfileTotalCycles +CPI",
                                             out, re.M), out + proc.stderr.decode())
    check("--objects: the library's CPI is 2 (60 x 65536 cycles, 60 x 32768 instructions)",
          re.search(r"^  %s +100\.0 +60\.0 +60\.0 +2\.000 " % re.escape(lib), out, re.M), out)
    check("--objects: per symbol, kp_fixture_c_function's CPI is 4, the helper's 1",
          re.search(r"^  %s +kp_fixture_c_function +70\.0 +20\.0 +40\.0 +4\.000 " % re.escape(lib),
                    out, re.M)
          and re.search(r"^  %s +kp_fixture_static_helper +20\.0 +40\.0 +20\.0 +1\.000 "
                        % re.escape(lib), out, re.M), out)
    # The sources in value order (TotalIssues 0x02, TotalCycles 0x13);
    # 60 x 65536 cycles in 100 x 1 ms: 39.3 M per second.
    check("--objects: each counter over the timer, in events per second",
          re.search(r"CPI +TotalIssues/s +TotalCycles/s$", out, re.M)
          and re.search(r"^  %s +100\.0 +60\.0 +60\.0 +2\.000 +19\.7M +39\.3M$"
                        % re.escape(lib), out, re.M), out)


def folded_of(text):
    stacks = {}
    for line in text.splitlines():
        m = FOLDED.match(line)
        if m:
            stacks[m.group(1)] = stacks.get(m.group(1), 0) + int(m.group(2))
    return stacks


def check_samples(args, tmp, pb2, plain):
    """record -g's samples: real stacks through the report's views, pprof
    and script; a child's frames named by its parent's maps before its
    exec and by its own after."""
    rec, made = make_record(args, tmp, "samples.data", "--samples")
    want = {stack: n for kind, stack, n in made if kind == "folded"}
    total = sum(want.values())

    proc = run(args.tool, "report", "-i", rec, "--format", "folded")
    got = folded_of(proc.stdout.decode())
    check("samples: folded has the recorded stacks, root first, comm first",
          proc.returncode == 0 and got == want, (got, want, proc.stderr.decode()))

    proc = run(args.tool, "report", "-i", rec, "--format", "folded", "--pid", "501")
    got = folded_of(proc.stdout.decode())
    check("samples: folded --pid 501 keeps the child's stacks only",
          proc.returncode == 0 and sum(got.values()) == 15, got)

    proc = run(args.tool, "report", "-i", rec, "--format", "csv", "--sort", "sym")
    rows = {r["symbol"]: r for r in csv.DictReader(io.StringIO(proc.stdout.decode(), newline=""))}
    entry = rows.get("kp_fixture_cpp_entry", {})
    compute = rows.get("kpfix::Widget::compute(int) const", {})
    check("samples: --children: the root's Children is every stack through it, Self 0",
          proc.returncode == 0 and entry.get("children") == "53" and float(entry["hits"]) == 0,
          rows)
    check("samples: compute has Self = Children = 18 (10 + the child's 8)",
          compute.get("children") == "18" and float(compute["hits"]) == 18, compute)
    check("samples: Self sums to every sample", proc.returncode == 0 and
          sum(float(r["hits"]) for r in rows.values()) == total, rows)

    proc = run(args.tool, "report", "-i", rec, "--json", "--no-children")
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        doc = {}
    rows = doc.get("rows", [])
    check("samples: report --json --no-children: sorted by self, samples described",
          proc.returncode == 0 and doc.get("samples", {}).get("count") == total
          and rows and rows[0]["symbol"] == "kp_fixture_static_helper"
          and rows[0]["hits"] == 30 and "children" in rows[0], proc.stdout[:400])
    check("samples: the sources' totals are samples",
          doc.get("sources", [{}])[0].get("total") == total, doc.get("sources"))

    proc = run(args.tool, "report", "-i", rec, "--call-graph", "callee", "--symbol",
               "kpfix::Widget::compute(int) const")
    out = proc.stdout.decode()
    check("samples: --call-graph callee shows who called compute",
          proc.returncode == 0 and re.search(r"---kpfix::Widget::compute\(int\) const\n +kp_fixture_cpp_entry", out),
          out)
    proc = run(args.tool, "report", "-i", rec, "-G", "--symbol", "kp_fixture_cpp_entry",
               "--comm", "fixture")
    out = proc.stdout.decode()
    check("samples: -G shows what the root calls, branch by branch",
          proc.returncode == 0 and re.search(r"\|--[0-9.]+%--kp_fixture_c_function", out)
          and re.search(r"`--[0-9.]+%--kpfix::Widget::compute", out), out)
    proc = run(args.tool, "report", "-i", rec)
    out = proc.stdout.decode()
    check("samples: the default table has Children and Self",
          proc.returncode == 0 and re.search(r"Children +Self +Samples", out)
          and "0 lost" in out, out)

    out = os.path.join(tmp, "samples.pb.gz")
    proc = run(args.tool, "report", "-i", rec, "--format", "pprof", "-o", out)
    prof = pb2.Profile()
    with open(out, "rb") as f:
        prof.ParseFromString(gzip.decompress(f.read()))
    st = prof.string_table
    funcs = {f.id: st[f.name] for f in prof.function}
    locs = {l.id: funcs[l.line[0].function_id] for l in prof.location}
    stacks = {}
    for smp in prof.sample:
        labels = {st[l.key]: (st[l.str] if l.str else l.num) for l in smp.label}
        names = [locs[i] for i in reversed(smp.location_id)]
        key = ";".join([labels["comm"]] + names)
        stacks[key] = stacks.get(key, 0) + smp.value[0]
    check("samples: pprof samples carry location_id lists, leaf first (the folded stacks)",
          proc.returncode == 0 and stacks == want, (stacks, want))

    proc = run(args.tool, "script", "-i", rec, "--json")
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        doc = {}
    smp = doc.get("samples", [])
    check("script --json: one document, every sample, the tasks, lost",
          proc.returncode == 0 and len(smp) == total and doc.get("lost") == 0
          and [t["type"] for t in doc.get("tasks", [])] == ["fork", "exec", "exit"],
          proc.stdout[:400])
    first = smp[0] if smp else {}
    check("script --json: frames with ip (hex), symbol, dso",
          [f["symbol"] for f in first.get("frames", [])] ==
          ["kp_fixture_static_helper", "kp_fixture_c_function", "kp_fixture_cpp_entry"]
          and first["frames"][0]["ip"].startswith("0x7f12")
          and first["frames"][0]["dso"] == args.so and first["comm"] == "fixture", first)
    proc = run(args.tool, "script", "-i", rec, "--show-task-events")
    text = proc.stdout.decode()
    check("script: perf script's lines, frames indented, task events",
          proc.returncode == 0
          and re.search(r"^fixture 500/500 \[000\] 0\.000000100: ProfileTime: 7f12[0-9a-f]+ "
                        r"kp_fixture_static_helper\+0x1 \(.*\)$", text, re.M)
          and re.search(r"^\t7f12[0-9a-f]+ kp_fixture_c_function\+0x8 \(", text, re.M)
          and "FORK ppid 500" in text and "EXEC child" in text, text[:600])

    proc = run(args.tool, "report", "-i", rec, "--call-graph", "inverted")
    check("samples: --call-graph inverted: exit 1 naming the modes",
          proc.returncode == 1 and b"caller" in proc.stderr and b"callee" in proc.stderr,
          proc.stderr.decode())
    proc = run(args.tool, "report", "-i", rec, "--percent-limit", "50", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(proc.stdout.decode(), newline="")))
    check("samples: --percent-limit applies to Children with --children",
          proc.returncode == 0 and rows and all(
              100.0 * int(r["children"]) / total >= 50 for r in rows), rows)
    proc = run(args.tool, "report", "-i", rec, "--buckets", "--format", "csv")
    check("samples: --buckets reports the bucket profiles", proc.returncode == 0
          and b"[unattributed]" in proc.stdout, proc.stdout[:300])
    proc = run(args.tool, "report", "-i", plain, "--children")
    check("--children on a file without samples: exit 1, says to record -g",
          proc.returncode == 1 and b"record -g" in proc.stderr, proc.stderr.decode())
    proc = run(args.tool, "script", "-i", plain)
    check("script on a file without samples: exit 1, says to record -g",
          proc.returncode == 1 and b"record -g" in proc.stderr, proc.stderr.decode())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--maker", required=True)
    ap.add_argument("--so", required=True)
    ap.add_argument("--proto", required=True)
    ap.add_argument("--protoc")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pb2 = load_pb2(args, tmp)
        rec, want = make_record(args, tmp, "one.data")
        rec2, want2 = make_record(args, tmp, "two.data", "--two-sources")
        check_folded(args, rec, want, False)
        check_folded(args, rec2, want2, True)
        check_csv(args, rec, want)
        check_pprof(args, tmp, pb2, rec, want, False)
        check_pprof(args, tmp, pb2, rec2, want2, True)
        check_source_filter(args, rec)
        check_views(args, rec)
        check_ratios(args, tmp)
        check_samples(args, tmp, pb2, rec)
    if FAILED:
        print("%d check(s) failed" % len(FAILED))
        return 1
    print("all export checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
