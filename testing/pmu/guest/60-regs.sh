#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 60-regs: what perf never writes: reserved bits of IA32_PERFEVTSEL0 and
# IA32_PERF_GLOBAL_CTRL raise #GP, IA32_PERF_GLOBAL_STATUS is read-only,
# IA32_PERF_GLOBAL_OVF_CTRL clears the status bit of an overflow, a
# counter keeps what was written to it.  The checks run in a kernel
# module, testing/pmu/kmod/pmu_regs.c (rdmsr/wrmsr_safe), which prints a
# line per check; on AMD those of counter 0 and of PerfCtrExtCore's
# counter 5 (the Intel ones skip).  The module borrows counter 0: the NMI
# watchdog is off meanwhile.
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
checks=8
plan $((checks + 2))

set_sysctl kernel.nmi_watchdog 0
before=$(dmesg | wc -l)
if insmod /kp/pmu/pmu_regs.ko 2>/tmp/regs.err; then
	ok "insmod pmu_regs.ko"
else
	not_ok "insmod pmu_regs.ko" "$(cat /tmp/regs.err)"
fi
dmesg | tail -n +$((before + 1)) | sed -n 's/^.*pmu_regs: //p' >/tmp/regs.out
grep -v '^\(ok\|not ok\|skip\): ' /tmp/regs.out | while read -r l; do diag "$l"; done
# "ok: DESC", "not ok: DESC -- WHAT", "skip: DESC -- WHY"
n=0
while read -r l; do
	case $l in
	"ok: "*) ok "${l#ok: }" ;;
	"not ok: "*)
		l=${l#not ok: }
		not_ok "${l%% -- *}" "${l#* -- }"
		;;
	"skip: "*)
		l=${l#skip: }
		skip "${l%% -- *}" "${l#* -- }"
		;;
	*) continue ;;
	esac
	n=$((n + 1))
done </tmp/regs.out
while [ $n -lt $checks ]; do
	n=$((n + 1))
	not_ok "pmu_regs check $n printed its result" "$(tail -n 5 /tmp/regs.out)"
done
check "rmmod pmu_regs" rmmod pmu_regs
restore_sysctls
