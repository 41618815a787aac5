#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: testing/lib/tap.py, which every VM and KUnit layer's verdict
# goes through, on streams whose verdict is known: a failed result shows the
# diagnostics printed before it (CI's log is all a reader gets), a stream
# that stops inside a subtest or misses results fails, kernel messages are
# ignored.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tap=$root/testing/lib/tap.py
pass=0 fail=0

check() { # NAME COND-RESULT
	if [ "$2" = 0 ]; then
		pass=$((pass + 1)); echo "pass: tap/$1"
	else
		fail=$((fail + 1)); echo "FAIL: tap/$1"
	fi
}
run() { python3 "$tap" --name t - 2>&1; }

# A failed result carries the diagnostics printed since the result before.
out=$(printf '%s\n' '1..2' '# about a' 'ok 1 - a' '# Traceback (most recent call last):' \
	'# AssertionError: 3 != 4' 'not ok 2 - b' | run)
last=$(printf '%s\n' "$out" | tail -n1)
[ "$last" = "passed=1 failed=1 skipped=0" ]; check "one pass, one failure counted" $?
<<<"$out" grep -A2 '^FAIL: t/b$' | grep -x '  | AssertionError: 3 != 4' >/dev/null
check "the failure shows the diagnostic before it" $?
! <<<"$out" grep -q '  | about a'; check "and not the one of the passed result" $?

# And the diagnostics after it, up to the next result.
out=$(printf '%s\n' '1..2' 'not ok 1 - a' "# got '3', want '4'" 'ok 2 - b' '# about b' | run)
<<<"$out" grep -A1 '^FAIL: t/a$' | grep -x "  | got '3', want '4'" >/dev/null
check "the failure shows the diagnostic after it" $?
! <<<"$out" grep -q '  | about b'; check "and not those after the next result" $?

# A console: kernel lines between results, a subtest that never ends.
out=$(printf '%s\n' '1..2' '[    1.0] kprofile: loaded' 'ok 1 - a' '    # Subtest: s' \
	'    1..3' '    ok 1 - x' '[   9.9] Oops: int3' | run)
<<<"$out" grep -q 'output ended inside a subtest'; check "a stream that stops inside a subtest fails" $?
printf '%s\n' "$out" | tail -n1 | grep -qE '^passed=2 failed=[1-9]'; check "its passed results still count" $?

# Fewer results than planned.
out=$(printf '%s\n' '1..3' 'ok 1 - a' 'ok 2 - b' | run)
<<<"$out" grep -q 'planned 3 tests, got 2'; check "a missing result fails" $?

echo "passed=$pass failed=$fail skipped=0"
[ $fail = 0 ]
