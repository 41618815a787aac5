# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers of the make hwtest runner (testing/hwtest.sh) and its
# tests (testing/hwtest/t-*.sh), sourced by bash.
#
# A test is a function registered with hwt_register NAME "what it checks"
# FUNCTION [own-watchdog]; it ends with exactly one of hwt_pass MESSAGE,
# hwt_fail MESSAGE [DETAILS], hwt_skip REASON (each returns from the
# test).  The runner turns the NMI watchdog off before each test, except
# for own-watchdog tests, which set it themselves.  Preconditions:
# hwt_need_root, hwt_need_hw_pmu, hwt_need_pmu, hwt_need_loadable,
# hwt_need_module skip with their reason.

HWT_NAMES=() HWT_DESCS=() HWT_FUNCS=() HWT_OWNWD=()
hwt_register() {
	HWT_NAMES+=("$1") HWT_DESCS+=("$2") HWT_FUNCS+=("$3")
	HWT_OWNWD+=("$([ "${4:-}" = own-watchdog ] && echo 1 || echo 0)")
}

# The outcome of the running test, read by the runner.
HWT_RESULT= HWT_MESSAGE= HWT_DETAILS=
hwt_pass() { HWT_RESULT=pass HWT_MESSAGE=$1 HWT_DETAILS=${2:-}; }
hwt_fail() { HWT_RESULT=fail HWT_MESSAGE=$1 HWT_DETAILS=${2:-}; }
hwt_skip() { HWT_RESULT=skip HWT_MESSAGE=$1 HWT_DETAILS=; }

kv() { printf '%s\n' "$2" | sed -n "s/^$1=//p" | head -n1; }

# within A B PCT: |A - B| <= PCT% of B.
within() { awk -v a="$1" -v b="$2" -v p="$3" \
	'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'; }

# perf_count EVENT OUTPUT: EVENT's count in `perf stat -x,` OUTPUT, or
# nothing when perf did not count it.
perf_count() { printf '%s\n' "$2" | awk -F, -v e="$1" '$3 == e && $1 ~ /^[0-9]+$/ { print $1 }'; }

# json_get JSON EXPR: a value of a JSON document (python3), e.g.
# json_get "$info" '["pmu_state"]'.
json_get() {
	python3 -c 'import json,sys; v=eval("json.load(sys.stdin)"+sys.argv[1]); print("" if v is None else v)' \
		"$2" <<<"$1" 2>/dev/null
}

# Preconditions, found by the runner: HWT_ROOT; HWT_HW_PMU_WHY (no PMU as
# perf itself sees it: no cpu or cpu_core event source and no instruction
# count); HWT_PMU_WHY (that, or perf cannot count); HWT_LOAD_WHY (no
# kprofile.ko, or insmod refused: module loading blocked, another kernel);
# HWT_MODULE_WHY (that, or kprofile's interface is None).
hwt_need_root() { [ "$HWT_ROOT" = 1 ] || { hwt_skip "needs root"; return 1; }; }
hwt_need_hw_pmu() {
	hwt_need_root || return 1
	[ -z "$HWT_HW_PMU_WHY" ] || { hwt_skip "$HWT_HW_PMU_WHY"; return 1; }
}
hwt_need_pmu() {
	hwt_need_hw_pmu || return 1
	[ -z "$HWT_PMU_WHY" ] || { hwt_skip "$HWT_PMU_WHY"; return 1; }
}
# The module loads here, whatever interface it then reports.
hwt_need_loadable() {
	hwt_need_hw_pmu || return 1
	[ -z "$HWT_LOAD_WHY" ] || { hwt_skip "$HWT_LOAD_WHY"; return 1; }
}
hwt_need_module() {
	hwt_need_pmu || return 1
	[ -z "$HWT_MODULE_WHY" ] || { hwt_skip "$HWT_MODULE_WHY"; return 1; }
}

# watchdog_set 0|1: set kernel.nmi_watchdog; false if it did not take.
watchdog_set() {
	[ -w /proc/sys/kernel/nmi_watchdog ] || return 1
	{ echo "$1" >/proc/sys/kernel/nmi_watchdog; } 2>/dev/null
	[ "$(cat /proc/sys/kernel/nmi_watchdog 2>/dev/null)" = "$1" ]
}

# kp_load / kp_unload: kprofile.ko in and out (the runner checked it loads).
kp_load() { grep -q '^kprofile ' /proc/modules 2>/dev/null || insmod "$HWT_MODULE_KO"; }
kp_unload() { ! grep -q '^kprofile ' /proc/modules 2>/dev/null || rmmod kprofile; }

kp_info_json() { "$HWT_TOOL" info --json 2>/dev/null; }

# The vendor's event-select MSRs, for EN-bit checks.
evtsel_msrs() {
	local i n=${1:-4}
	case $HWT_VENDOR in
	GenuineIntel) for ((i = 0; i < n; i++)); do printf '0x%x\n' $((0x186 + i)); done ;;
	*) for ((i = 0; i < n; i++)); do printf '0x%x\n' $((0xc0010000 + i)); done ;;
	esac
}

# rdmsr_cpu CPU MSR: the value (hex), through /dev/cpu/CPU/msr.
rdmsr_cpu() {
	local v
	v=$(dd if="/dev/cpu/$1/msr" bs=8 count=1 skip=$(($2)) iflag=skip_bytes 2>/dev/null |
		od -An -tx8 | tr -d ' ')
	[ -n "$v" ] && echo "0x$v"
}

# en_bits: "cpu:msr" for every event select with EN (bit 22) set, and on
# Intel a non-zero IA32_FIXED_CTR_CTRL (0x38d: the watchdog's fixed
# counter), online CPUs.
en_bits() {
	local cpu msr v
	for cpu in $(ls -d /sys/devices/system/cpu/cpu[0-9]* | sed 's/.*cpu//' | sort -n); do
		[ "$(cat /sys/devices/system/cpu/cpu$cpu/online 2>/dev/null || echo 1)" = 1 ] || continue
		for msr in $(evtsel_msrs "${HWT_COUNTERS:-4}"); do
			v=$(rdmsr_cpu "$cpu" "$msr") || continue
			[ -n "$v" ] && (( v & (1 << 22) )) && echo "$cpu:$msr"
		done
		if [ "$HWT_VENDOR" = GenuineIntel ] && v=$(rdmsr_cpu "$cpu" 0x38d) &&
			[ -n "$v" ] && (( v != 0 )); then
			echo "$cpu:0x38d"
		fi
	done
}

# new_lines BEFORE AFTER: the lines of AFTER that are not in BEFORE (no
# comm: busybox has none).
new_lines() {
	awk -v before="$1" 'BEGIN { n = split(before, b, "\n"); for (i = 1; i <= n; i++) seen[b[i]] = 1 }
		$0 != "" && !($0 in seen)' <<<"$2"
}

# hotplug_cpu: the first CPU other than 0 that can go offline, or nothing.
hotplug_cpu() {
	local f
	for f in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ -w "$f" ] && [ "$(cat "$f")" = 1 ] && { basename "$(dirname "$f")" | sed 's/cpu//'; return; }
	done
}

# unknown_nmis: "NMI received for unknown reason" lines in dmesg so far.
unknown_nmis() { dmesg 2>/dev/null | grep -c 'NMI received for unknown reason' || true; }

# nmi_mark, then nmi_new: the unknown-NMI lines logged since the mark
# (nothing when there were none).  dmesg is the kernel's own verdict:
# "Uhhuh. NMI received for unknown reason ..." is what nobody claimed.
nmi_mark() { HWT_NMI_MARK=$(unknown_nmis); }
nmi_new() {
	local n
	n=$(unknown_nmis)
	[ "$n" -gt "${HWT_NMI_MARK:-0}" ] || return 0
	dmesg 2>/dev/null | grep 'NMI received for unknown reason' | tail -n "$((n - HWT_NMI_MARK))"
}
