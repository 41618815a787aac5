#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build spin-lib and libkpspin.so into OUT (testing/lib/common.sh's
# kp_build_progs runs every progs/*/build.sh).  They are dynamically
# linked on purpose: the guest has the C and C++ runtime the kprofile
# tool brings, and spin-lib finds libkpspin.so beside itself ($ORIGIN).
set -e
out=$1
here=$(cd "$(dirname "$0")" && pwd)
[ -n "$out" ] || { echo "usage: $0 OUT" >&2; exit 2; }
if [ "$out/libkpspin.so" -nt "$here/kpspin_lib.c" ] &&
   [ "$out/spin-lib" -nt "$here/spin_lib.cpp" ]; then
	exit 0
fi
gcc -shared -fPIC -O2 -g -Wall -Wextra -Werror -o "$out/libkpspin.so" "$here/kpspin_lib.c"
g++ -O2 -g -Wall -Wextra -Werror -fPIE -pie -o "$out/spin-lib" "$here/spin_lib.cpp" \
	-L"$out" -lkpspin -Wl,-rpath,'$ORIGIN'
