#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build kpfuzz (static, not PIE: kpf_hot() sits at the same address in the
# set-user-ID copy) into OUTDIR.
# Usage: testing/fuzz/build.sh OUTDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUTDIR}
mkdir -p "$out"
# shellcheck disable=SC2046
gcc -static -no-pie -O2 -g -pthread -D_GNU_SOURCE -Wall -Wextra -Werror \
	-I"$here/../../include/uapi" -I"$here/../lib" -o "$out/kpfuzz" $(ls "$here"/*.c)
