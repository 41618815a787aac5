#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# determinism.sh: the sampling run of 30-record on its own, for
# testing/pmu/run.sh --determinism, which boots the one-vCPU machine twice
# and compares what this prints: the number of samples, a digest of their
# periods and addresses, and the first few.
sysctl -q -w kernel.nmi_watchdog=0 kernel.perf_cpu_time_max_percent=0
perf record -q -e instructions:u -c 100000 -o /tmp/det.data loop 2500000 || exit 1
perf script -i /tmp/det.data -F period,ip >/tmp/det.txt || exit 1
echo "samples=$(grep -c . /tmp/det.txt)"
echo "digest=$(sha1sum </tmp/det.txt | cut -d' ' -f1)"
echo "first=$(head -n 3 /tmp/det.txt | tr -s ' ' | tr '\n' ';')"
