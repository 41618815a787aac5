#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sparse (make C=2) over the module and the KUnit module.  kprofile.ko is
# checked against Debian's headers; kprofile_test.ko needs a KUnit kernel,
# so both are also checked against the plain KUnit kernel.  One test per
# kernel: it passes when the build has no "warning:" or "error:" line
# (from sparse or the compiler).
# Prints TAP (testing/lib/tap.sh).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$KP_ROOT/testing/lib/tap.sh"

logs=$KP_BUILD/static
mkdir -p "$logs"
one() {
	local name=$1 kdir=$2 log=$logs/sparse-$1.log
	shift 2
	if ! "$KP_ROOT/testing/kbuild.sh" "$kdir" C=2 "$@" >"$log" 2>&1; then
		t_fail "sparse $name: the build failed (log: $log)" \
			"$(grep -E 'error|warning' "$log" | head -n 20)"
		return
	fi
	if grep -qE 'warning:|error:' "$log"; then
		t_fail "sparse $name (log: $log)" \
			"$(grep -E 'warning:|error:' "$log" | sed "s|$KP_BUILD/kmod-[^/]*/||")"
	else
		t_ok "sparse $name"
	fi
}

rel=$(kp_debian_release)
one "debian-$rel" "/usr/src/linux-headers-$rel"
if [ -f "$KP_ROOT/kunit/Kbuild" ]; then
	kdir=$("$KP_ROOT/testing/kunit-kernel.sh" plain 2>"$logs/kunit-kernel.log") ||
		kp_die "no KUnit kernel (log: $logs/kunit-kernel.log)"
	one kunit-plain "$kdir" CONFIG_KPROFILE_KUNIT_TEST=m
fi
t_done
