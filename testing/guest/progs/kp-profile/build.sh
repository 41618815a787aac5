#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build kp-profile (static, not PIE: the hot function's address is the
# same in every process) into OUT; testing/lib/common.sh's kp_build_progs
# runs every progs/*/build.sh.
set -e
out=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
[ -n "$out" ] || { echo "usage: $0 OUT" >&2; exit 2; }
newest=$(ls -t "$here"/*.[ch] "$root/include/uapi/linux/kprofile.h" "$root/testing/lib/kp_test.h" |
	head -n1)
[ "$out/kp-profile" -nt "$newest" ] && exit 0
gcc -static -no-pie -O2 -g -Wall -Wextra -Werror -pthread \
	-I"$root/include/uapi" -I"$root/testing/lib" -o "$out/kp-profile" "$here/main.c" \
	"$here/create.c" "$here/priv.c"
