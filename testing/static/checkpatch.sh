#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict on every kernel source file in kmod/ and kunit/
# (generated *.mod.c and other ignored files excepted; the uapi X-macro
# tables in include/ cannot satisfy COMPLEX_MACRO, so include/ is left
# to review).  One test per file: a file passes with no ERROR, WARNING
# or CHECK.  checkpatch.pl comes from Debian's linux-source-6.1: from the
# KUnit kernel cache when it is there, else unpacked into build/.
# Prints TAP (testing/lib/tap.sh).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$KP_ROOT/testing/lib/tap.sh"

cp=${KPROFILE_CHECKPATCH:-}
if [ -z "$cp" ]; then
	# 6.1's, as the project's standard says: the kernel matrix caches
	# other versions' trees too, whose checkpatch.pl differ.
	cp=$(ls -d "${KPROFILE_CACHE:-/var/cache/kprofile}"/linux-source-6.1-*/linux/scripts/checkpatch.pl \
		2>/dev/null | head -n1 || true)
fi
if [ -z "$cp" ]; then
	cp=$KP_BUILD/checkpatch/scripts/checkpatch.pl
	if [ ! -f "$cp" ]; then
		tarball=$(ls /usr/src/linux-source-6.1.tar.xz 2>/dev/null || true)
		[ -n "$tarball" ] || kp_die "no linux-source tarball (run testing/deps.sh)"
		top=$(basename "$tarball" .tar.xz)
		mkdir -p "$KP_BUILD/checkpatch"
		tar -C "$KP_BUILD/checkpatch" --strip-components=1 -xJf "$tarball" \
			"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
			"$top/scripts/const_structs.checkpatch"
	fi
fi

cd "$KP_ROOT"
if git rev-parse --git-dir >/dev/null 2>&1; then
	files=$(git ls-files -co --exclude-standard -- 'kmod/*.[ch]' 'kunit/*.[ch]')
else
	files=$(ls kmod/*.[ch] kunit/*.[ch] 2>/dev/null | grep -v '\.mod\.c$')
fi
for f in $files; do
	[ -f "$f" ] || continue
	# compat.h is the one place version checks belong (see its header).
	ignore=()
	[ "$f" = kmod/compat.h ] && ignore=(--ignore LINUX_VERSION_CODE)
	if out=$(perl "$cp" --no-tree --strict --terse --show-types --no-summary \
			"${ignore[@]}" -f "$f" 2>&1) && [ -z "$out" ]; then
		t_ok "checkpatch $f"
	else
		t_fail "checkpatch $f" "$out"
	fi
done
t_done
