#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 50-perf-test: perf's own test suite, the cases that need a PMU: user
# space RDPMC reads (mmap interface), PERF_RECORD_* and sample fields,
# object code reading, sched_switch tracking, perf time to TSC, and the
# perf stat shell tests.  One TAP line per case (and subtest) perf test
# reports; a case that skips fails here (each was chosen because this
# machine has what it needs; LBR and PT tests are not run).
. "$KP_GUEST/lib.sh"

# By number: perf test NAME runs a suite's subtests only if their own
# names match too.
perf test list >/tmp/ptest.list 2>&1
for t in "mmap interface tests" "PERF_RECORD_* events & perf_sample fields" \
	"Object code reading" "Track with sched_switch" "Convert perf time to TSC" \
	"perf stat tests" "perf stat CSV output linter" "perf stat csv summary test" \
	"perf stat JSON output linter" "perf stat metrics (shadow stat) test"; do
	n=$(awk -v t="$t" '{ d = $0; sub(/^ *[0-9]+: /, "", d) } d == t { sub(/:.*/, ""); print $1; exit }' \
		/tmp/ptest.list)
	if [ -z "$n" ]; then
		not_ok "perf test '$t' ran" "not in perf test list"
		continue
	fi
	t0=$(date +%s)
	timeout 600 perf test "$n" >/tmp/ptest.out 2>&1
	rc=$?
	diag "perf test $n '$t': exit $rc, $(($(date +%s) - t0)) s"
	# " 4.1: Read samples using the mmap interface     : Ok"
	sed -n 's/^ *\([0-9][0-9.]*\): \(.*[^ ]\) *: \(Ok\|FAILED!\|Skip.*\)$/\1|\2|\3/p' \
		/tmp/ptest.out >/tmp/ptest.res
	if [ ! -s /tmp/ptest.res ]; then
		not_ok "perf test '$t' ran" "$(tail -n 20 /tmp/ptest.out)"
		continue
	fi
	verbose=
	while IFS='|' read -r num name res; do
		case $res in
		Ok) ok "perf test $num: $name" ;;
		*)
			# Again, verbose: the end of its output says why.
			if [ -z "$verbose" ]; then
				timeout 600 perf test -v "$n" >/tmp/ptest.v 2>&1
				verbose=$(grep -v '^ *[0-9][0-9.]*: .*:$' /tmp/ptest.v | tail -n 25)
			fi
			not_ok "perf test $num: $name" "$res; perf test -v says: $verbose"
			;;
		esac
	done </tmp/ptest.res
done
done_testing
