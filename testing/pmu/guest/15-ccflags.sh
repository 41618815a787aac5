#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 15-ccflags: CMPXCHG16B and CMPXCHG8B set ZF and leave the other flags
# as the instruction before them left them (testing/pmu/progs/ccflags.S).
# QEMU 7.2's TCG computed them in its helper from a condition-code state
# it had not written back (testing/qemu-pmu's patch 0005): wrong CF after
# an ADD, and where that state was TCG's EFLAGS form, which every
# execution slice starts in, an operand of the ADD became the flags, VM
# and reserved bits included.  In the kernel (SLUB's cmpxchg16b) that
# was a double fault with garbage EFLAGS, where the emulated PMU cuts
# slices short.  First alone, then sampled every 4999 user instructions
# (37 a round: each sample lands 4 instructions further into it), so
# that slices start all over its loop: some 148 samples, under the 400
# a tick that perf_event_max_sample_rate allows at HZ 250 (a period of
# 997 gave 456 to 778 from run to run).
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
plan 3

# why STATUS: what ccflags's exit status says.
why() {
	case $1 in
	1) echo "CMPXCHG16B did not keep ADD's CF (the block began after TEST's flags)" ;;
	2) echo "CMPXCHG8B did not keep ADD's CF" ;;
	3) echo "PUSHF after POPF, ADD and CMPXCHG16B did not read 0x246: ADD's operand taken as the flags" ;;
	*) echo "ccflags exited $1" ;;
	esac
}

rc=0
ccflags 1000 || rc=$?
if [ $rc = 0 ]; then
	ok "ccflags: CMPXCHG16B and CMPXCHG8B keep CF, PF and the system flags (1000 rounds)"
else
	not_ok "ccflags: CMPXCHG16B and CMPXCHG8B keep CF, PF and the system flags (1000 rounds)" "$(why $rc)"
fi

set_sysctl kernel.nmi_watchdog 0
set_sysctl kernel.perf_cpu_time_max_percent 0
rm -f /tmp/ccflags.rc /tmp/ccflags.data
perf record -q -e instructions:u -c 4999 -o /tmp/ccflags.data -- \
	sh -c 'ccflags 20000; echo $? >/tmp/ccflags.rc' >/tmp/ccflags.out 2>&1 ||
	diag "perf record: $(cat /tmp/ccflags.out)"
rc=$(cat /tmp/ccflags.rc 2>/dev/null)
if [ "$rc" = 0 ]; then
	ok "ccflags 20000 sampled every 4999 user instructions: the flags are right"
else
	not_ok "ccflags 20000 sampled every 4999 user instructions: the flags are right" \
		"$(why "${rc:-none}") $(cat /tmp/ccflags.out)"
fi
n=$(perf script -i /tmp/ccflags.data -F ip 2>/dev/null | grep -c .)
diag "$n samples"
if is_num "$n" && [ "$n" -ge 100 ]; then
	ok "the PMU interrupted it every 4999 instructions ($n samples of some 740,000)"
else
	not_ok "the PMU interrupted it every 4999 instructions" "$n samples"
fi
restore_sysctls
