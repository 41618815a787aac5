# SPDX-License-Identifier: GPL-2.0
# pmu-lib.sh - helpers of the emulated-PMU guest tests (testing/pmu/guest,
# busybox sh), sourced after lib.sh.  /kp/pmu.conf, written by
# testing/pmu/run.sh, describes the machine:
#   KP_PMU_MODEL  intel, amd (legacy counters) or amd-core (+perfctr-core)
#   KP_PMU_LINE   run.sh's model: the above, intel-v1 or intel-ebx
#   KP_PMU_GP     general-purpose counters QEMU advertises
#   KP_PMU_WIDTH  their width in bits
#   KP_PMU_FIXED  fixed counters (Intel)
#   KP_PMU_VERSION  CPUID.0AH's perfmon version (Intel; 0 on AMD)
#   KP_PMU_EBX    CPUID.0AH:EBX, the events marked unavailable (Intel)
# The workload is "loop N" (testing/pmu/progs/loop.S): LOOP_INSNS user
# instructions and one branch per iteration, plus a constant start-up.
[ -f /kp/pmu.conf ] && . /kp/pmu.conf
# shellcheck disable=SC2034 # used by the scripts that source this
LOOP_INSNS=4

# pstat EVENTS CMD...: perf stat -x, of CMD into /tmp/pstat.csv; its exit
# status, CMD's output (and perf's errors) in /tmp/pstat.out.
pstat() {
	_ev=$1
	shift
	rm -f /tmp/pstat.csv
	perf stat -x, -o /tmp/pstat.csv -e "$_ev" -- "$@" >/tmp/pstat.out 2>&1
}

# pcount EVENT: the count pstat measured for EVENT (a number, or what
# perf printed instead: "<not supported>", "<not counted>", "").
pcount() {
	awk -F, -v e="$1" '!/^#/ && $3 == e { print $1; exit }' /tmp/pstat.csv 2>/dev/null
}

# is_num VALUE: VALUE is a non-negative integer.
is_num() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	return 0
}

# stat_diag: what perf stat said, as diagnostics.
stat_diag() {
	diag "perf stat output: $(cat /tmp/pstat.csv /tmp/pstat.out 2>/dev/null)"
}

# irq_sum NAME: the sum over CPUs of /proc/interrupts' NAME: row (NMI, PMI).
irq_sum() {
	awk -v n="$1:" '$1 == n { s = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i; print s; exit }' \
		/proc/interrupts
}

# set_sysctl NAME VALUE: set it, remembering the old value for
# restore_sysctls (call that before the script ends).
_kp_sysctls=
set_sysctl() {
	_old=$(sysctl -n "$1")
	_kp_sysctls="$_kp_sysctls $1=$_old"
	sysctl -q -w "$1=$2" >/dev/null 2>/tmp/sysctl.err ||
		diag "sysctl $1=$2 failed: $(cat /tmp/sysctl.err)"
}
restore_sysctls() {
	for _s in $_kp_sysctls; do
		sysctl -q -w "$_s" >/dev/null 2>/tmp/sysctl.err ||
			diag "sysctl $_s failed: $(cat /tmp/sysctl.err)"
	done
	_kp_sysctls=
}

# need_tool WHAT: end the script with one skip (WHAT, "tool not built")
# when the kprofile tool is not in the image (run.sh without make tool).
need_tool() {
	have_tool && return 0
	plan 1
	skip "$1" "tool not built (make tool)"
	exit 0
}
