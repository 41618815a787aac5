#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prove that the matrix's build lines catch a use of an API the oldest or
# the newest kernel lacks: a deliberate use of such an API fails the layer.
#
# Usage: testing/matrix/plant.sh 5.10|7.2 KDIR
#   5.10  plants X86_FEATURE_HYBRID_CPU (5.13+)
#   7.2   plants no_llseek (gone in 6.12)
# (kmod/compat.h, KP_PLANT_MISSING_API), then compiles one object of the
# module, kmod/access.o, against KDIR (a modules_prepare'd tree: the one
# build-5.10 / build-7.2 just used) with the matrix's flags, twice:
#   - without the plant: must compile (the tree and the flags are fine);
#   - with it: must fail, at compile time, with an error that names the
#     planted API.  The failure does not depend on modpost: 5.10's tree has
#     no Module.symvers (KBUILD_MODPOST_WARN=1 there), but an undeclared
#     function or identifier is an error (-Werror=implicit-function-
#     declaration, the kernel's default, and -Werror).
# One object, in a copy of the sources of its own (build/matrix/plant-K),
# so the module's own build directory stays warm: a few seconds.
# Prints TAP (testing/lib/tap.sh).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$KP_ROOT/testing/lib/tap.sh"

k=${1:?usage: plant.sh 5.10|7.2 KDIR}
kdir=${2:?usage: plant.sh 5.10|7.2 KDIR}
case $k in
5.10) plant=510 api=X86_FEATURE_HYBRID_CPU ;;
7.2) plant=702 api=no_llseek ;;
*) kp_die "no plant for kernel $k (5.10 or 7.2)" ;;
esac
[ -f "$kdir/Makefile" ] || kp_die "$kdir is not a kernel tree"

out=$KP_BUILD/matrix/plant-$k
logs=$KP_BUILD/matrix
mkdir -p "$logs"
rm -rf "$out"
mkdir -p "$out"
for s in Kbuild VERSION kmod include; do cp -a "$KP_ROOT/$s" "$out/"; done

ok() { t_ok "plant-$k: $*"; }
bad() { t_fail "plant-$k: $1" "${2:-}"; }

# compile LOG [KCFLAGS...]: kmod/access.o against $kdir.
compile() {
	local log=$1
	shift
	rm -f "$out/kmod/access.o"
	make -C "$kdir" M="$out" KCFLAGS="-Werror $*" KBUILD_MODPOST_WARN=1 \
		kmod/access.o >"$log" 2>&1
}

if compile "$logs/plant-$k-control.log"; then
	ok "kmod/access.o compiles against $k without the plant"
else
	bad "kmod/access.o does not compile against $k even without the plant (log: $logs/plant-$k-control.log)" \
		"$(grep -E 'error:' "$logs/plant-$k-control.log" | head -n 5)"
fi
if compile "$logs/plant-$k.log" -DKP_PLANT_MISSING_API="$plant"; then
	bad "a planted use of $api compiled against $k: the build line would not catch it (log: $logs/plant-$k.log)"
elif grep -qE "error:.*\b$api\b" "$logs/plant-$k.log"; then
	ok "a planted use of $api fails the $k build: $(grep -m1 -oE "error:.*\b$api\b.*" "$logs/plant-$k.log" | cut -c1-120)"
else
	bad "the planted build failed, but not on $api (log: $logs/plant-$k.log)" \
		"$(grep -E 'error:' "$logs/plant-$k.log" | head -n 5)"
fi
t_done
