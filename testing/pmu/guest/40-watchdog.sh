#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 40-watchdog: the hard-lockup detector runs on the emulated PMU: it
# started at boot, its NMIs arrive while a CPU is busy (one per
# watchdog_thresh seconds of that CPU's cycles), and stop when it is
# switched off.
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
plan 4

l=$(dmesg | grep -o 'NMI watchdog: .*' | head -n1)
like "$l" '^NMI watchdog: Enabled' "the boot log says 'NMI watchdog: Enabled' ($l)"
is "$(sysctl -n kernel.nmi_watchdog)" 1 "kernel.nmi_watchdog is 1"

# One NMI per second of cycles (watchdog_thresh=1, the least): the
# counter's period is cpu_khz * 1000 cycles.  Busy 2.5 periods, on one
# CPU, so that its counter overflows at least twice.
mhz=$(awk -F: '/^cpu MHz/ { printf "%d", $2; exit }' /proc/cpuinfo)
is_num "$mhz" && [ "$mhz" -gt 0 ] || mhz=1000
n=$((mhz * 1000000 * 5 / 2 / LOOP_INSNS))
set_sysctl kernel.watchdog_thresh 1
diag "cpu MHz $mhz: loop $n (about $((n * LOOP_INSNS / 1000000)) M cycles) on CPU 0"
nmi0=$(irq_sum NMI)
taskset -c 0 loop $n
nmi1=$(irq_sum NMI)
diag "NMI: $nmi0 -> $nmi1"
ticked=0
if is_num "$nmi0" && is_num "$nmi1" && [ "$nmi1" -ge $((nmi0 + 2)) ]; then
	ok "NMIs arrive while a CPU is busy ($nmi0 -> $nmi1)"
	ticked=1
else
	not_ok "NMIs arrive while a CPU is busy" "NMI: '$nmi0' -> '$nmi1' over about 2.5 watchdog periods"
fi

set_sysctl kernel.nmi_watchdog 0
nmi2=$(irq_sum NMI)
taskset -c 0 loop $n
nmi3=$(irq_sum NMI)
if [ $ticked = 0 ]; then
	not_ok "after kernel.nmi_watchdog=0 no NMI arrives" \
		"nothing to stop: no NMI arrived while it was on ($nmi2 -> $nmi3)"
elif is_num "$nmi2" && is_num "$nmi3"; then
	is "$nmi3" "$nmi2" "after kernel.nmi_watchdog=0 no NMI arrives ($nmi2 -> $nmi3)"
else
	not_ok "after kernel.nmi_watchdog=0 no NMI arrives" "no NMI line"
fi
restore_sysctls
