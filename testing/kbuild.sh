#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build kprofile.ko (and, for a KUnit kernel, kprofile_test.ko) against one
# kernel build tree, in a private copy of the sources.
#
# Out-of-tree kbuild writes its objects next to the sources, and the same
# sources are built for several kernels (Debian's, the KUnit ones), so
# every kernel gets its own copy, build/kmod-<release>-<hash of KDIR>/,
# refreshed from the work tree before each build (mtimes preserved, so the
# build stays incremental).  A lock on the copy serialises builds of it.
#
# Usage: testing/kbuild.sh KDIR [kbuild arguments...]
#   e.g. testing/kbuild.sh /usr/src/linux-headers-6.1.0-56-amd64 C=2
# Prints the copy's path on the last line of stdout.  KP_FLAVOR=NAME gives
# the build a copy of its own (make check builds with -Werror that way).
set -euo pipefail

kdir=$(realpath "${1:?usage: kbuild.sh KDIR [args]}")
shift
root=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$kdir/Makefile" ] || { echo "kbuild: $kdir is not a kernel build tree (install linux-headers-amd64, or pass KDIR=)" >&2; exit 1; }

rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' \
	"$kdir/include/generated/utsrelease.h" 2>/dev/null)
out=$root/build/kmod-$rel-$(echo "$kdir" | sha256sum | cut -c1-8)${KP_FLAVOR:+-$KP_FLAVOR}
srcs=(Kbuild Kconfig VERSION kmod kunit include)

mkdir -p "$out"
exec 9>"$out.lock"
flock 9

# Refresh the copy: new or changed sources in, removed sources out.
for s in "${srcs[@]}"; do
	[ -e "$root/$s" ] || continue
	cp -a -u "$root/$s" "$out/"
done
(cd "$out" && find "${srcs[@]}" -type f \( -name '*.[ch]' -o -name Kbuild \
	-o -name Kconfig -o -name Makefile \) 2>/dev/null) |
while read -r f; do
	[ -e "$root/$f" ] || rm -f "$out/$f"
done
# Without kunit/Kbuild the KUnit module is not buildable yet: leave it out.
[ -f "$out/kunit/Kbuild" ] || rm -rf "$out/kunit"

make -C "$kdir" M="$out" -j"${JOBS:-2}" "$@" modules >&2
echo "$out"
