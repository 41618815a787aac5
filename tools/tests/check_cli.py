#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The kprofile binary without a module: exit codes, error messages and
--help for every command, --interface tables, JSON documents.

Usage: check_cli.py --tool build/tool/kprofile.  Prints TAP.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

results = []


def run(tool, *args, env=None):
    e = dict(os.environ)
    e.pop("KPROFILE_DEVICE", None)
    e.update(env or {})
    return subprocess.run([tool, *args], capture_output=True, text=True, env=e, check=False)


def check(name, cond, detail=""):
    results.append((name, bool(cond), detail))


def expect(name, proc, rc, *needles, stream="stderr"):
    text = getattr(proc, stream)
    missing = [n for n in needles if n not in text]
    check(name, proc.returncode == rc and not missing,
          "exit %d (want %d), missing %r\nstdout:\n%s\nstderr:\n%s"
          % (proc.returncode, rc, missing, proc.stdout, proc.stderr))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    tool = ap.parse_args().tool

    expect("--help exits 0 and lists the commands", run(tool, "--help"), 0,
           "info", "sources", "interval", "Exit status", stream="stdout")
    # As perf and git: no arguments print the usage and the commands.
    expect("no arguments: the usage and the commands, exit 1", run(tool), 1,
           "record", "report", "stat", "top", "Exit status", stream="stdout")
    for cmd, opt in (("info", "--json"), ("sources", "--interface"), ("interval", "SOURCE")):
        expect("%s --help exits 0 and documents %s" % (cmd, opt), run(tool, cmd, "--help"), 0,
               opt, stream="stdout")

    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "VERSION"),
              encoding="ascii") as f:
        version = f.read().strip()
    proc = run(tool, "--device", "/nonexistent/kprofile", "--version")
    check("--version: the VERSION file's version and the ABI, no module line without a device",
          proc.returncode == 0 and proc.stdout.splitlines() == ["kprofile %s (ABI 1)" % version],
          proc.stdout + proc.stderr)
    proc = run(tool, "--device", "/dev/null", "--version")
    check("--version with a device that is not kprofile says so",
          proc.returncode == 0 and "module: version unknown: /dev/null" in proc.stdout,
          proc.stdout + proc.stderr)

    expect("no module: exit 2, says how to load it",
           run(tool, "--device", "/nonexistent/kprofile", "info"), 2,
           "cannot open /nonexistent/kprofile", "not loaded", "insmod", "modprobe")
    expect("KPROFILE_DEVICE is honoured",
           run(tool, "sources", env={"KPROFILE_DEVICE": "/nonexistent/kp2"}), 2,
           "/nonexistent/kp2")
    # record checks its arguments before anything runs (the review's
    # -o /nonexistent/x.data ran the command and lost the profile).
    nodev = ("--device", "/nonexistent/kprofile")
    marker = os.path.join(tempfile.mkdtemp(), "ran")
    expect("record -o in a missing directory: exit 1 before the command runs",
           run(tool, *nodev, "record", "-o", "/nonexistent/x.data", "--", "touch", marker), 1,
           "cannot write /nonexistent/x.data")
    check("record -o in a missing directory: the command did not run",
          not os.path.exists(marker))
    expect("record --duration 0: exit 1, a plain message",
           run(tool, *nodev, "record", "--duration", "0", "--", "true"), 1,
           "not a number of seconds above 0")
    expect("record -p 0: exit 1, not 'nothing to profile'",
           run(tool, *nodev, "record", "-p", "0"), 1, "not a process id")
    expect("top -g: exit 1, says why and where call stacks are (record -g)",
           run(tool, *nodev, "top", "-g", "--", "true"), 1, "no call graphs", "record -g")
    expect("record -g with the module missing: the same advice as info",
           run(tool, *nodev, "record", "-g", "--", "true"), 2, "not loaded")
    expect("record --call-graph dwarf with the module missing: the advice of -g",
           run(tool, *nodev, "record", "--call-graph", "dwarf", "--", "true"), 2, "not loaded")
    expect("record --call-graph lbr: exit 1, fp or dwarf",
           run(tool, *nodev, "record", "--call-graph", "lbr", "--", "true"), 1,
           "fp (frame pointers) or dwarf")
    expect("record --call-graph dwarf,0: exit 1, the size's range",
           run(tool, *nodev, "record", "--call-graph", "dwarf,0", "--", "true"), 1,
           "from 1 to 65528")
    expect("record -g -m 3: exit 1, a power of two",
           run(tool, *nodev, "record", "-g", "-m", "3", "--", "true"), 1, "power of two")
    # Without -g the stream still runs (it follows the children), so -m
    # sizes its rings too: checked, then accepted.
    expect("record -m 3 without -g: exit 1, a power of two",
           run(tool, *nodev, "record", "-m", "3", "--", "true"), 1, "power of two")
    expect("record -m 64 without -g: accepted (the module missing is the error)",
           run(tool, *nodev, "record", "-m", "64", "--", "true"), 2, "not loaded")
    expect("script --help documents --json and --show-task-events", run(tool, "script", "--help"),
           0, "--json", "--show-task-events", stream="stdout")
    expect("script without a file: exit 1, says to record",
           run(tool, "script", "-i", "/nonexistent/k.data"), 1, "kprofile record")
    expect("record -F 1000 -i 1ms: exit 1 (one or the other)",
           run(tool, *nodev, "record", "-F", "1000", "-i", "1ms", "--", "true"), 1)
    expect("record -i 1h: exit 1, names the units",
           run(tool, *nodev, "record", "-i", "1h", "--", "true"), 1, "unknown unit")
    expect("record with the module missing: the same advice as info",
           run(tool, *nodev, "record", "--", "true"), 2, "not loaded", "modprobe")
    expect("a device that is not kprofile: exit 2, ABI mismatch",
           run(tool, "info", "--device", "/dev/null"), 2, "different versions")
    expect("interval on a device that is not kprofile: exit 2",
           run(tool, "--device", "/dev/null", "interval", "ProfileTime"), 2, "different versions")

    if os.geteuid() != 0:
        with tempfile.NamedTemporaryFile() as f:
            os.chmod(f.name, 0)
            expect("no permission: exit 2, says how to fix it",
                   run(tool, "--device", f.name, "info"), 2, "0600", "udev")
    else:
        check("no permission: exit 2 # SKIP running as root", True)

    # `kprofile help [CMD]`, as perf help (the review's B7).
    expect("help record: record's --help, exit 0", run(tool, "help", "record"), 0,
           "kprofile record", "--source", stream="stdout")
    expect("help: the commands, exit 0", run(tool, "help"), 0, "record", "sources",
           stream="stdout")
    expect("help with an unknown command: exit 1 with a suggestion",
           run(tool, "help", "recrod"), 1, "unknown command 'recrod'", "Did you mean 'record'?")
    # One value per -s/-e, and the command without -- (C6/C7): the parse
    # succeeds, so without a module these fail opening it (exit 2), not
    # with "not expected" (exit 1).
    for args in (("record", "-s", "time", "sh", "-c", "true"),
                 ("record", "-e", "cycles", "--", "/bin/true"),
                 ("record", "ls", "-la"),
                 ("record", "-s", "time", "-s", "cycles", "./prog", "-o", "x"),
                 ("top", "--batch", "-s", "time", "sh", "-c", "true")):
        expect("%s: the command is parsed (no module: exit 2)" % " ".join(args),
               run(tool, *nodev, *args), 2, "not loaded")
    expect("record -s time alone: nothing to profile, exit 1",
           run(tool, *nodev, "record", "-s", "time"), 1, "nothing to profile")
    # stat -p and -x (F2).
    expect("stat -p PID parses (no module: exit 2)", run(tool, *nodev, "stat", "-p", "1"), 2,
           "not loaded")
    # perf's habit: stat -e as record -e.
    expect("stat -e cycles parses, as -s (no module: exit 2)",
           run(tool, *nodev, "stat", "-e", "cycles", "--", "true"), 2, "not loaded")
    expect("stat -x , parses (no module: exit 2)",
           run(tool, *nodev, "stat", "-x", ",", "--", "true"), 2, "not loaded")
    expect("stat -x with --json: exit 1", run(tool, *nodev, "stat", "-x", ",", "--json",
                                               "--", "true"), 1)
    expect("stat -p with a command: exit 1", run(tool, *nodev, "stat", "-p", "1", "true"), 1)
    expect("stat without a command or -p: exit 1", run(tool, *nodev, "stat"), 1,
           "nothing to count")
    # interval takes record's units (B6): 1ms parses, then the device fails.
    expect("interval time 1ms parses (no module: exit 2)",
           run(tool, "--device", "/nonexistent", "interval", "time", "1ms"), 2, "not loaded")
    expect("interval time 1h: exit 1, names the units",
           run(tool, "--device", "/nonexistent", "interval", "time", "1h"), 1, "unknown unit")

    expect("unknown command: exit 1 with a suggestion", run(tool, "infoo"), 1,
           "unknown command 'infoo'", "Did you mean 'info'?")
    expect("no command: exit 1", run(tool), 1)
    expect("unknown option: exit 1", run(tool, "sources", "--bogus"), 1)
    expect("interval without SOURCE: exit 1", run(tool, "interval"), 1)
    expect("interval N that is no number: exit 1 before opening the device",
           run(tool, "--device", "/nonexistent", "interval", "ProfileTime", "fast"), 1,
           "interval 'fast' is not a number")
    expect("interval N beyond 32 bits: exit 1",
           run(tool, "--device", "/nonexistent", "interval", "ProfileTime", "0x100000000"), 1,
           "out of range")
    expect("unknown interface: exit 1", run(tool, "sources", "--interface", "sparc"), 1,
           "unknown profile interface 'sparc'")

    for iface, rows, last in (("emon", 13, "ProfileBranchMispredictsRetired"),
                              ("amd64", 176, "ProfileBUSharedToDirty")):
        proc = run(tool, "sources", "--interface", iface, "--json")
        try:
            doc = json.loads(proc.stdout)
        except ValueError as err:
            doc = None
            check("sources --interface %s --json is JSON" % iface, False, str(err))
        if doc is not None:
            check("sources --interface %s --json: %d rows, last %s" % (iface, rows, last),
                  proc.returncode == 0 and len(doc) == rows and doc[-1]["name"] == last,
                  proc.stdout[:400])
        proc = run(tool, "sources", "--interface", iface)
        lines = proc.stdout.splitlines()
        check("sources --interface %s: header and %d rows" % (iface, rows),
              proc.returncode == 0 and len(lines) == rows + 1 and lines[0].startswith("Id")
              and "Supported" in lines[0], proc.stdout[:400])
    proc = run(tool, "sources", "--interface", "emon", "--all")
    table, _, notes = proc.stdout.partition("\n\n")
    check("sources --interface emon --all adds the generic sources with a reason",
          proc.returncode == 0 and len(table.splitlines()) == 1 + 32
          and "Reason" in proc.stdout and "ProfilePipelineDry" in proc.stdout, proc.stdout[:400])
    # B5: a reason many rows share is one note under the table, not 24 copies.
    note = notes.splitlines()[0][len("[1] "):] if notes.startswith("[1] ") else None
    check("sources --all: a shared reason is printed once, as a note",
          note and proc.stdout.count(note) == 1 and table.count(" [1]\n") > 1, proc.stdout)

    proc = run(tool, "sources", "--interface", "emon", "--json", "llcmisses", "0x13", "PipelineDry")
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        doc = []
    check("sources SOURCE... shows those sources, in order, supported or not",
          proc.returncode == 0 and [d["value"] for d in doc] == [0x1D, 0x13, 0x03]
          and doc[2]["supported"] is False and doc[2]["reason"], proc.stdout[:400])
    expect("sources with an unknown SOURCE: exit 1 with a suggestion",
           run(tool, "sources", "--interface", "amd64", "DCMis"), 1, "Did you mean one of: DCMiss")
    # B1: one bad name does not hide the good ones, nor the other bad ones.
    proc = run(tool, "sources", "--interface", "emon", "time", "Bogus1", "0x13", "BogusTwo")
    check("sources GOOD BAD GOOD BAD: the good ones shown, every bad one named, exit 1",
          proc.returncode == 1 and "ProfileTime" in proc.stdout
          and "ProfileTotalCycles" in proc.stdout
          and "'Bogus1'" in proc.stderr and "'BogusTwo'" in proc.stderr,
          "exit %d\nstdout:\n%s\nstderr:\n%s" % (proc.returncode, proc.stdout, proc.stderr))
    # B3: intel and amd are aliases of the interfaces, and --help says so.
    proc = run(tool, "sources", "--interface", "intel", "--json")
    check("sources --interface intel is the emon table",
          proc.returncode == 0 and len(json.loads(proc.stdout or "[]")) == 13, proc.stderr)
    expect("sources --help names the intel and amd aliases", run(tool, "sources", "--help"), 0,
           "intel is emon", "amd is amd64", stream="stdout")

    expect("unknown AMD family: exit 1 with the names",
           run(tool, "sources", "--family", "zen9"), 1, "unknown AMD family 'zen9'")
    expect("--family with the emon table: exit 1",
           run(tool, "sources", "--interface", "emon", "--family", "zen1"), 1, "amd64 table only")
    proc = run(tool, "sources", "--family", "zen1", "--all", "--json")
    try:
        doc = json.loads(proc.stdout)
    except ValueError:
        doc = []
    by = {d["value"]: d for d in doc}
    check("sources --family zen1 --all --json: DCMiss unsupported naming the family and event, "
          "RetiredInstructions on counters 0-3",
          proc.returncode == 0 and 0x32 in by and not by[0x32]["supported"]
          and "Zen 1" in by[0x32]["reason"] and "0x41" in by[0x32]["reason"]
          and by[0x68]["counters"] == [0, 1, 2, 3] and by[0x68]["citation"],
          proc.stdout[:400])
    proc = run(tool, "sources", "--family", "fam15h")
    check("sources --family fam15h: a Counters column, IC fetches on 0-2",
          proc.returncode == 0 and "Counters" in proc.stdout.splitlines()[0]
          and any("ProfileICFetch" in l and " 0-2 " in l for l in proc.stdout.splitlines()),
          proc.stdout[:400])

    print("TAP version 13")
    print("1..%d" % len(results))
    failed = 0
    for i, (name, ok, detail) in enumerate(results, 1):
        print("%s %d - %s" % ("ok" if ok else "not ok", i, name))
        if not ok:
            failed += 1
            for line in detail.splitlines():
                print("  # " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
