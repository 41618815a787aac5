#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 30-record: sampling.  perf record -e instructions:u -c 100000 on "loop
# N" (about 10^7 instructions) must take one sample every 100,000 user
# instructions: floor(total / 100000) of them, give or take one, each in
# loop(), each through one performance-monitoring interrupt.  The NMI
# watchdog is off meanwhile, so that every PMI is one of these.
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
plan 5

n=2500000 period=100000
set_sysctl kernel.nmi_watchdog 0
# perf lowers its sample rate when its NMI handler seems slow; the test
# is the PMU's, not perf's throttling.
set_sysctl kernel.perf_cpu_time_max_percent 0

pstat instructions:u loop $n || stat_diag
total=$(pcount instructions:u)
want=
is_num "$total" && want=$((total / period))
diag "instructions:u of loop $n: $total; expected samples: $want"

rm -f /tmp/rec.data
pmi0=$(irq_sum PMI)
if perf record -q -e instructions:u -c $period -o /tmp/rec.data loop $n >/tmp/rec.out 2>&1; then
	ok "perf record -e instructions:u -c $period loop $n"
else
	not_ok "perf record -e instructions:u -c $period loop $n" "$(cat /tmp/rec.out)"
fi
pmi1=$(irq_sum PMI)
perf script -i /tmp/rec.data -F period,ip,sym >/tmp/rec.txt 2>/tmp/rec.err ||
	diag "perf script: $(cat /tmp/rec.err)"
got=$(grep -c . /tmp/rec.txt)
diag "first samples: $(head -n 3 /tmp/rec.txt | tr '\n' ';')"

if is_num "$want" && [ "$got" -ge $((want - 1)) ] && [ "$got" -le $((want + 1)) ]; then
	ok "$got samples: floor($total / $period) = $want, +-1"
else
	not_ok "floor(total / $period) samples, +-1" "got $got, want $want (total '$total')"
fi
if [ "$got" -gt 0 ]; then
	outside=$(awk '$3 != "loop"' /tmp/rec.txt | head -n 5)
	if [ -z "$outside" ]; then
		ok "every sample is in loop()"
	else
		not_ok "every sample is in loop()" "$outside"
	fi
	other=$(awk -v p=$period '$1 != p' /tmp/rec.txt | head -n 5)
	if [ -z "$other" ]; then
		ok "every sample's period is $period"
	else
		not_ok "every sample's period is $period" "$other"
	fi
else
	not_ok "every sample is in loop()" "no samples"
	not_ok "every sample's period is $period" "no samples"
fi
if [ "$got" = 0 ]; then
	not_ok "the PMI line of /proc/interrupts grew by the samples" "no samples ($pmi0 -> $pmi1)"
elif is_num "$pmi0" && is_num "$pmi1"; then
	is "$((pmi1 - pmi0))" "$got" "the PMI line of /proc/interrupts grew by the samples ($pmi0 -> $pmi1)"
else
	not_ok "the PMI line of /proc/interrupts grew by the samples" "no PMI line: '$pmi0' '$pmi1'"
fi
restore_sysctls
