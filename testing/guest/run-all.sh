#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run-all.sh - the guest runner: runs every testing/guest/NN-name.sh in
# order, each as a TAP subtest, and prints one TAP 14 stream:
#
#	TAP version 14
#	1..<number of scripts>
#	    # Subtest: 10-info
#	    1..9
#	    ok 1 - ...
#	ok 1 - 10-info
#
# A script's own result is "not ok" when it exits non-zero.  Each script
# starts with kprofile.ko loaded; a script that leaves it unloaded fails.
# KP_TESTS (space-separated names, e.g. "10-info") restricts the run.
cd "$KP_GUEST" || exit 1
tests=
for t in [0-9][0-9]-*.sh; do
	[ -f "$t" ] || continue
	name=${t%.sh}
	if [ -n "$KP_TESTS" ]; then
		case " $KP_TESTS " in *" $name "*) ;; *) continue ;; esac
	fi
	tests="$tests $name"
done
set -- $tests
echo "TAP version 14"
echo "1..$#"
i=0
for name in "$@"; do
	i=$((i + 1))
	module_ok=1
	grep -q '^kprofile ' /proc/modules || insmod "$KP_MODULE" || module_ok=0
	echo "    # Subtest: $name"
	t0=$(date +%s)
	{
		timeout "${KP_TEST_TIMEOUT:-600}" sh "./$name.sh" 2>&1
		echo $? >/tmp/kp-rc
	} | sed 's/^/    /'
	rc=$(cat /tmp/kp-rc)
	# Where a run's time goes (testing/notes/cost.md's per-script costs).
	echo "    # $name took $(($(date +%s) - t0)) s"
	if ! grep -q '^kprofile ' /proc/modules; then
		echo "    # $name left kprofile.ko unloaded"
		rc=1
	fi
	if [ "$rc" = 0 ] && [ $module_ok = 1 ]; then
		echo "ok $i - $name"
	else
		echo "not ok $i - $name # exit status $rc"
	fi
done
