#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# determinism.sh: for testing/pmu/run.sh --determinism, which boots the
# one-vCPU machine twice and compares what this prints.  Two recordings
# of "loop 2500000": user instructions with a period that does not divide
# the loop's (so that samples fall on every instruction of it), and all
# instructions, the kernel's too (exec, page faults, timer ticks, exit),
# which is the same only if the whole machine ran alike.  For each: the
# number of samples, a digest of their periods and addresses, the first
# few.
sysctl -q -w kernel.nmi_watchdog=0 kernel.perf_cpu_time_max_percent=0
rec() {
	perf record -q -e "$2" -c "$3" -o "/tmp/$1.data" loop 2500000 || exit 1
	perf script -i "/tmp/$1.data" -F period,ip >"/tmp/$1.txt" || exit 1
	echo "$1-samples=$(grep -c . "/tmp/$1.txt")"
	echo "$1-digest=$(sha1sum <"/tmp/$1.txt" | cut -d' ' -f1)"
	echo "$1-first=$(head -n 3 "/tmp/$1.txt" | tr -s ' ' | tr '\n' ';')"
}
rec user instructions:u 100003
rec all instructions 100003
