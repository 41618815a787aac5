#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: testing/lib/tap.py, which every VM and KUnit layer's verdict
# goes through, on streams whose verdict is known: a failed result shows the
# diagnostics printed before it (CI's log is all a reader gets), a stream
# that stops inside a subtest or misses results fails, kernel messages are
# ignored.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tap=$KP_ROOT/testing/lib/tap.py

check() { # NAME COND-RESULT
	if [ "$2" = 0 ]; then t_ok "tap/$1"; else t_fail "tap/$1"; fi
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

# --expect names a result at any depth by its path.
out=$(printf '%s\n' '1..1' '    # Subtest: s' '    1..1' '    ok 1 - x' 'ok 1 - s' | run)
! <<<"$out" grep -q '^FAIL'; check "a result that is there passes" $?
out=$(printf '%s\n' '1..1' '    # Subtest: s' '    1..1' '    ok 1 - x' 'ok 1 - s' |
	python3 "$tap" --name t --expect s/x --expect s/y - 2>&1)
<<<"$out" grep -qx 'FAIL: t: no result for s/y' && ! <<<"$out" grep -q 'no result for s/x'
check "--expect s/y fails when only s/x ran" $?

# --tap: a runner's verdict as one flat TAP stream, with its own failures
# (--fail) and exit status; counted again, it gives the same numbers.
flat=$(printf '%s\n' '1..2' '    # Subtest: s' '    1..2' '    ok 1 - x' '    # why y' \
	'    not ok 2 - y' 'not ok 1 - s' 'ok 2 - z # SKIP no pmu' |
	python3 "$tap" --tap --fail "the guest hung" - 2>&1)
[ "$(printf '%s\n' "$flat" | tail -n1)" = "1..4" ]; check "--tap ends with the plan of every result" $?
<<<"$flat" grep -qx 'not ok 4 - the guest hung'; check "--fail adds the runner's failure" $?
<<<"$flat" grep -A1 -x 'not ok 2 - s/y' | grep -qx '# why y'; check "a failure keeps its diagnostics" $?
[ "$(printf '%s\n' "$flat" | run | tail -n1)" = "passed=1 failed=2 skipped=1" ]
check "the flat stream counts as the nested one did" $?
out=$(printf '%s\n' '1..1' 'ok 1 - a' | python3 "$tap" --exit-status 2 - 2>&1)
[ "$(printf '%s\n' "$out" | tail -n1)" = "passed=1 failed=1 skipped=0" ]
check "a non-zero exit status with every result passed is one failure" $?

# A runner that skips everything (a hook without the tool) has results;
# an empty stream has none.
out=$(printf '%s\n' '1..1' 'ok 1 - a # SKIP no tool' | run)
[ "$(printf '%s\n' "$out" | tail -n1)" = "passed=0 failed=0 skipped=1" ]
check "a stream of skips only is no failure" $?
out=$(printf '%s\n' '1..0' | run)
[ "$(printf '%s\n' "$out" | tail -n1)" = "passed=0 failed=1 skipped=0" ]
check "a stream with no result at all is one" $?

t_done
