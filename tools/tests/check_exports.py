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
    want = []   # (symbol, hits, source)
    for line in proc.stdout.decode().splitlines():
        sym, hits, source = line.split("\t")
        want.append((sym, int(hits), source))
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
            "srcline"]
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
    check("--objects prints the per-object summary (hits, time, path)",
          proc.returncode == 0 and re.search(r"%s +100\.0 +95\.24%% +0\.100 s +3 " % re.escape(lib), out),
          out)
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
    proc = run(args.tool, "report", "-i", rec, "--percent-limit", "200")
    check("--percent-limit 200: exit 1 saying what it takes", proc.returncode == 1
          and b"percentage from 0 to 100" in proc.stderr, proc.stderr.decode())
    proc = run(args.tool, "report", "-i", rec, "-n", "-1")
    check("-n -1 is refused", proc.returncode == 1, proc.stderr.decode())
    proc = run(args.tool, "report", "-i", rec, "--sort", "cpu")
    check("--sort cpu: exit 1 saying why and what to do",
          proc.returncode == 1 and b"-C N" in proc.stderr, proc.stderr.decode())


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
    if FAILED:
        print("%d check(s) failed" % len(FAILED))
        return 1
    print("all export checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
