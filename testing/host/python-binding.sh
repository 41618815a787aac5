#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: the Python binding's tests that need no device (struct layouts
# and ioctl numbers checked against the C header).  The device tests skip
# here (no /dev/kprofile on the host).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tests=$KP_ROOT/tools/python/tests
if [ ! -d "$tests" ]; then
	t_skip "python binding" "no tools/python/tests"
	t_done
	exit
fi
out=$(cd "$KP_ROOT/tools/python" && python3 -m unittest discover -s tests -v 2>&1)
rc=$?
t_diag "$out"
# unittest -v: one "name (module.Class...) ... ok|FAIL|ERROR|skipped" per test.
while IFS= read -r l; do
	case $l in
	*' ... ok') t_ok "python ${l% ... ok}" ;;
	*' ... FAIL' | *' ... ERROR') t_fail "python ${l% ... *}" ;;
	*' ... skipped'*) t_skip "python ${l% ... skipped*}" "${l#* ... skipped }" ;;
	esac
done <<<"$out"
[ $rc = 0 ] || [ "$_t_fail" != 0 ] || t_fail "python -m unittest" "exited $rc"
t_done
