#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: the Python binding's tests that need no device (struct layouts
# and ioctl numbers checked against the C header).  The device tests skip
# here (no /dev/kprofile on the host).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tests=$root/tools/python/tests
[ -d "$tests" ] || { echo "skip: no tools/python/tests"; echo "passed=0 failed=0 skipped=1"; exit 0; }
out=$(cd "$root/tools/python" && python3 -m unittest discover -s tests -v 2>&1)
rc=$?
printf '%s\n' "$out"
# unittest -v: one "name (module.Class...) ... ok|FAIL|ERROR|skipped" per test.
pass=$(printf '%s\n' "$out" | grep -cE ' \.\.\. ok$')
fail=$(printf '%s\n' "$out" | grep -cE ' \.\.\. (FAIL|ERROR)$')
skip=$(printf '%s\n' "$out" | grep -cE ' \.\.\. skipped')
printf '%s\n' "$out" | sed -n 's/^\(.*\) \.\.\. \(FAIL\|ERROR\)$/FAIL: python \1/p'
[ $rc = 0 ] || [ "$fail" != 0 ] || fail=1
echo "passed=$pass failed=$fail skipped=$skip"
[ "$fail" = 0 ]
