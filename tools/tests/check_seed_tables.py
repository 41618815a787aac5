#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that `kprofile sources --interface emon|amd64 --json` reproduces
the seeds' tables exactly, row for row and field for field (value, name,
select, ebx_bit).

Seed 000 (Emon): rows "Value Name [EBX Bit] Select", e.g.
    0x00 ProfileTime   0x0003003C
    0x02 ProfileTotalIssues 1 0x000300C0
Seed 001 (Amd64): rows "Value | Symbol | Select |", e.g.
    0x00 | ProfileTime | 0x00030076 |

The seeds live in ../shared/seeds beside the repository (or --seeds DIR,
or $KPROFILE_SEEDS).  Without them the check is skipped, loudly, with exit
status 77 (CTest's SKIP_RETURN_CODE).
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

SKIP = 77
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

EMON_ROW = re.compile(r"^(0x[0-9A-Fa-f]+)\s+(\S+)\s+(?:(\d+)\s+)?(0x[0-9A-Fa-f]{8})\s*$")
AMD64_ROW = re.compile(r"^(0x[0-9A-Fa-f]+)\s*\|\s*(\S+)\s*\|\s*(0x[0-9A-Fa-f]{8})\s*\|\s*$")


def seed_file(seeds, number):
    found = sorted(glob.glob(os.path.join(seeds, "%03d_*.txt" % number)))
    if len(found) != 1:
        raise SystemExit("FAIL: expected one %03d_*.txt in %s, found %d" % (number, seeds, len(found)))
    return found[0]


def parse_emon(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = EMON_ROW.match(line.strip())
            if m:
                rows.append({
                    "value": int(m.group(1), 16),
                    "name": m.group(2),
                    "select": int(m.group(4), 16),
                    "ebx_bit": int(m.group(3)) if m.group(3) is not None else None,
                })
    return rows


def parse_amd64(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = AMD64_ROW.match(line.strip())
            if m:
                rows.append({
                    "value": int(m.group(1), 16),
                    "name": m.group(2),
                    "select": int(m.group(3), 16),
                    "ebx_bit": None,
                })
    return rows


def tool_rows(tool, interface):
    proc = subprocess.run([tool, "sources", "--interface", interface, "--json"],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit("FAIL: %s sources --interface %s --json exited %d:\n%s"
                         % (tool, interface, proc.returncode, proc.stderr))
    return json.loads(proc.stdout)


def compare(label, seed, got):
    failures = []
    if len(seed) != len(got):
        failures.append("%s: seed has %d rows, tool printed %d" % (label, len(seed), len(got)))
    for i, (want, have) in enumerate(zip(seed, got)):
        for key in ("value", "name", "select", "ebx_bit"):
            if key not in have:
                failures.append("%s row %d: no key %r" % (label, i, key))
            elif have[key] != want[key]:
                failures.append("%s row %d (%s): %s is %r, seed says %r"
                                % (label, i, want["name"], key, have[key], want[key]))
    return failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tool", default=os.path.join(REPO, "build", "tool", "kprofile"))
    ap.add_argument("--seeds", default=os.environ.get("KPROFILE_SEEDS",
                                                      os.path.join(REPO, "..", "shared", "seeds")))
    args = ap.parse_args()

    if not os.path.isdir(args.seeds):
        print("*" * 72)
        print("SKIP: seed tables not found at %s" % os.path.normpath(args.seeds))
        print("SKIP: the tables were NOT checked against the seeds "
              "(give --seeds DIR or KPROFILE_SEEDS)")
        print("*" * 72)
        return SKIP

    cases = [
        ("emon", parse_emon(seed_file(args.seeds, 0)), 13),
        ("amd64", parse_amd64(seed_file(args.seeds, 1)), 176),
    ]
    failures = []
    for interface, seed, expected_rows in cases:
        # The parser itself must have found the whole table (checked below).
        got = tool_rows(args.tool, interface)
        mine = compare(interface, seed, got)
        if len(seed) != expected_rows:
            mine.append("%s: parsed %d seed rows, the seed's table has %d"
                        % (interface, len(seed), expected_rows))
        failures += mine
        print("%s %s: %d seed rows, %d tool rows"
              % ("ok  " if not mine else "FAIL", interface, len(seed), len(got)))

    for f in failures:
        print("FAIL:", f)
    if failures:
        print("%d mismatches" % len(failures))
        return 1
    print("PASS: both tables match the seeds row for row")
    return 0


if __name__ == "__main__":
    sys.exit(main())
