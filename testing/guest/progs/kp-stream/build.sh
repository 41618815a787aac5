#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build kp-stream (static, not PIE) into OUT with frame pointers and no
# sibling calls: its samples' user stacks come from the module's
# frame-pointer walk, and the test checks that the hot leaf's caller is in
# them.  testing/lib/common.sh's
# kp_build_progs runs every progs/*/build.sh.
set -e
out=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
[ -n "$out" ] || { echo "usage: $0 OUT" >&2; exit 2; }
newest=$(ls -t "$here"/*.c "$root/include/uapi/linux/kprofile.h" "$root/testing/lib/kp_test.h" \
	"$root/include/uapi/linux/kprofile_stream.h" | head -n1)
[ "$out/kp-stream" -nt "$newest" ] && exit 0
gcc -static -no-pie -O2 -g -fno-omit-frame-pointer \
	-fno-optimize-sibling-calls -Wall -Wextra -Werror \
	-pthread -I"$root/include/uapi" -I"$root/testing/lib" -o "$out/kp-stream" "$here/main.c"
