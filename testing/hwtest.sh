#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make hwtest: the checks only a machine with a PMU can answer (bare
# metal, or a guest with a virtual PMU): real counts against perf's, and
# the hardware review's section 5 (kprofile beside the NMI watchdog, perf
# and Intel PT; registers after rmmod and CPU hotplug; sampling under
# stress; every supported Amd64 source; hybrid parts; suspend, kexec).
# The tests are in testing/hwtest/t-NN-*.sh; `testing/hwtest.sh --list`
# lists them.
#
# Every test passes, fails, or skips with its reason (not root, no perf,
# no PMU, kprofile.ko cannot be loaded here, not this vendor, not asked
# for).  The output is TAP; a JSON summary (the machine, kprofile's view
# of it, every test's result and reason) is written to
# build/hwtest/summary.json, to attach to a bug report.
#
# Exit status 0 (nothing failed) or 1.  The NMI watchdog is turned off
# for the tests that need the counters and restored at the end; the tests
# of loading with it on (watchdog-load, msr-after-rmmod) set it
# themselves.  Every test that samples also checks dmesg for unknown NMIs.
# Knobs: KP_HWTEST_LOOPS (200000000), KP_HWTEST_INTERVAL (100003),
# KP_HWTEST_TOLERANCE (2, percent), KP_HWTEST_REARM_SECONDS (60),
# KP_HWTEST_EXERCISE_ROUNDS (20), KP_HWTEST_SUSPEND=1, KP_HWTEST_KEXEC=1,
# KP_HWTEST_ONLY (a test name), KP_MODULE (build/kprofile.ko),
# KP_HWTEST_TOOL (build/tool/kprofile), KP_HWTEST_OUT (build/hwtest: the
# test programs, their output, the summary), KP_HWTEST_BIN (a directory
# with the test programs already built, for a machine without gcc: the
# emulated-PMU guest, testing/pmu/guest/70-hwtest.sh), KP_HWTEST_EVENTS
# (the Amd64 event selects the machine counts, e.g. "0x76 0xc0 0xc2" on
# the emulated PMU: amd-sources exercises only those and names the rest).
set -uo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$KP_ROOT/testing/hwtest/lib.sh"
for t in "$KP_ROOT"/testing/hwtest/t-*.sh; do . "$t"; done

if [ "${1:-}" = --list ]; then
	for i in "${!HWT_NAMES[@]}"; do printf '%-28s %s\n' "${HWT_NAMES[$i]}" "${HWT_DESCS[$i]}"; done
	exit 0
fi

HWT_LOOPS=${KP_HWTEST_LOOPS:-200000000}
HWT_INTERVAL=${KP_HWTEST_INTERVAL:-100003}
HWT_TOL=${KP_HWTEST_TOLERANCE:-2}
HWT_REARM_SECONDS=${KP_HWTEST_REARM_SECONDS:-60}
HWT_EXERCISE_ROUNDS=${KP_HWTEST_EXERCISE_ROUNDS:-20}
HWT_MODULE_KO=${KP_MODULE:-$KP_BUILD/kprofile.ko}
HWT_TOOL=${KP_HWTEST_TOOL:-$KP_BUILD/tool/kprofile}
HWT_OUT=${KP_HWTEST_OUT:-$KP_BUILD/hwtest}
HWT_VENDOR=$(awk -F': ' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo)
HWT_COUNTERS=4
summary=$HWT_OUT/summary.json
mkdir -p "$HWT_OUT"

watchdog=$(cat /proc/sys/kernel/nmi_watchdog 2>/dev/null || true)
loaded_here=0
cleanup() {
	[ -n "$watchdog" ] && [ "$HWT_ROOT" = 1 ] &&
		{ echo "$watchdog" >/proc/sys/kernel/nmi_watchdog; } 2>/dev/null
	[ "$loaded_here" = 1 ] && rmmod kprofile 2>/dev/null
	true
}
trap cleanup EXIT

# Preconditions, each with the reason the tests that need it skip for.
HWT_ROOT=0 HWT_HW_PMU_WHY= HWT_PMU_WHY= HWT_LOAD_WHY= HWT_MODULE_WHY=
[ "$(id -u)" = 0 ] && HWT_ROOT=1
# A PMU as perf itself sees it: its cpu (or hybrid cpu_core) event source,
# which exists only when perf's hardware check passed at boot, or an
# instruction count.
probe=
if command -v perf >/dev/null; then
	probe=$(perf stat -x, -e instructions:u true 2>&1)
	[ -n "$(perf_count instructions:u "$probe")" ] ||
		HWT_PMU_WHY="perf cannot count instructions here (no usable PMU; a VM without a virtual PMU?): $(printf '%s' "$probe" | tail -n1)"
else
	HWT_PMU_WHY="perf is not installed (Debian: apt-get install linux-perf)"
fi
if [ ! -d /sys/bus/event_source/devices/cpu ] &&
	[ ! -d /sys/bus/event_source/devices/cpu_core ] && [ -n "$HWT_PMU_WHY" ]; then
	HWT_HW_PMU_WHY="no PMU: perf has no cpu or cpu_core event source (/sys/bus/event_source/devices) and ${HWT_PMU_WHY,}"
fi
if [ "$HWT_ROOT" = 1 ] && [ -z "$HWT_HW_PMU_WHY" ]; then
	for p in "$KP_ROOT/testing/hwtest/kp-hwcount.c" "$KP_ROOT/testing/hwtest/kp-hwsample.c" \
		"$KP_ROOT/testing/guest/progs/kp-hwlayer.c"; do
		if [ -n "${KP_HWTEST_BIN:-}" ]; then
			cp "$KP_HWTEST_BIN/$(basename "$p" .c)" "$HWT_OUT/" || kp_die "no $(basename "$p" .c) in $KP_HWTEST_BIN"
		else
			gcc -O2 -Wall -Wextra -Werror -I"$KP_ROOT/include/uapi" -I"$KP_ROOT/testing/lib" \
				-o "$HWT_OUT/$(basename "$p" .c)" "$p" || kp_die "building $p failed"
		fi
	done
	if ! grep -q '^kprofile ' /proc/modules 2>/dev/null; then
		if [ ! -f "$HWT_MODULE_KO" ]; then
			HWT_LOAD_WHY="no $HWT_MODULE_KO: run make module"
		elif err=$(insmod "$HWT_MODULE_KO" 2>&1); then
			loaded_here=1
		else
			HWT_LOAD_WHY="kprofile.ko cannot be loaded here: $err"
		fi
	fi
	HWT_MODULE_WHY=$HWT_LOAD_WHY
	if [ -z "$HWT_MODULE_WHY" ]; then
		info=$(kp_info_json)
		# watchdog-load does not take this: None is what it tests for.
		[ "$(json_get "$info" '["interface"]')" != None ] ||
			HWT_MODULE_WHY="kprofile's profile interface is None: $(json_get "$info" '["interface_reason"]')"
		HWT_COUNTERS=$(json_get "$info" '["num_counters"]')
	fi
fi

json_str() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	s=${s//$'\n'/\\n}
	s=${s//$'\t'/ }
	printf '"%s"' "$s"
}

echo "1..${#HWT_NAMES[@]}"
echo "# tests: ${HWT_NAMES[*]}"
results=() passed=0 failed=0 skipped=0
for i in "${!HWT_NAMES[@]}"; do
	name=${HWT_NAMES[$i]}
	if [ -n "${KP_HWTEST_ONLY:-}" ] && [ "$KP_HWTEST_ONLY" != "$name" ]; then
		HWT_RESULT=skip HWT_MESSAGE="not selected (KP_HWTEST_ONLY=$KP_HWTEST_ONLY)" HWT_DETAILS=
	else
		HWT_RESULT= HWT_MESSAGE= HWT_DETAILS=
		# The NMI watchdog holds the counters; own-watchdog tests (the
		# F1 and F4 sequences) set it themselves.
		[ "${HWT_OWNWD[$i]}" = 0 ] && [ "$HWT_ROOT" = 1 ] && [ -n "$watchdog" ] &&
			watchdog_set 0
		"${HWT_FUNCS[$i]}"
		[ -n "$HWT_RESULT" ] || HWT_RESULT=fail HWT_MESSAGE="the test reported nothing"
	fi
	case $HWT_RESULT in
	pass) passed=$((passed + 1)); echo "ok $((i + 1)) - $name: $HWT_MESSAGE" ;;
	skip) skipped=$((skipped + 1)); echo "ok $((i + 1)) - $name # SKIP $HWT_MESSAGE" ;;
	*) failed=$((failed + 1)); echo "not ok $((i + 1)) - $name: $HWT_MESSAGE"
	   [ -z "$HWT_DETAILS" ] || printf '%s\n' "$HWT_DETAILS" | sed 's/^/# /' ;;
	esac
	results+=("{\"name\": $(json_str "$name"), \"checks\": $(json_str "${HWT_DESCS[$i]}"), \"result\": \"$HWT_RESULT\", \"message\": $(json_str "$HWT_MESSAGE"), \"details\": $(json_str "$HWT_DETAILS")}")
done

{
	echo "{"
	echo "  \"kernel\": $(json_str "$(uname -r)"),"
	echo "  \"cpu\": $(json_str "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"),"
	echo "  \"vendor\": $(json_str "$HWT_VENDOR"),"
	echo "  \"family_model_stepping\": $(json_str "$(awk -F': ' '/^cpu family/ { f = $2 } /^model\t/ { m = $2 } /^stepping/ { print f "/" m "/" $2; exit }' /proc/cpuinfo)"),"
	echo "  \"microcode\": $(json_str "$(awk -F': ' '/^microcode/ { print $2; exit }' /proc/cpuinfo)"),"
	echo "  \"hypervisor\": $(grep -qw hypervisor /proc/cpuinfo && echo true || echo false),"
	echo "  \"nmi_watchdog\": $(json_str "$watchdog"),"
	echo "  \"kprofile_info\": ${info:-null},"
	echo "  \"passed\": $passed, \"failed\": $failed, \"skipped\": $skipped,"
	echo "  \"tests\": ["
	for i in "${!results[@]}"; do
		printf '    %s%s\n' "${results[$i]}" "$([ "$i" -lt $((${#results[@]} - 1)) ] && echo ,)"
	done
	echo "  ]"
	echo "}"
} >"$summary"
echo "# $passed passed, $failed failed, $skipped skipped"
echo "# summary for a bug report: $summary"
[ "$failed" = 0 ]
