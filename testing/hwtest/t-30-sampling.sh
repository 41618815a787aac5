# SPDX-License-Identifier: GPL-2.0
# t-sampling.sh - sampling that keeps going (hardware review F3, F5, F6,
# F7): two sources at the minimum interval, disarm/re-arm loops, beside
# Intel PT, and on each core type of a hybrid part.

# Two overflows close together (F6): PMIs lost inside the handler show as
# a count below perf's; AMD's late PMIs as unknown NMIs.
t_two_sources_min() {
	local out stat perf_i perf_b nmis
	hwt_need_module || return
	stat=$(perf stat -x, -e instructions:u,branches:u "$HWT_OUT/kp-hwcount" loop "$HWT_LOOPS" 2>&1)
	perf_i=$(perf_count instructions:u "$stat")
	perf_b=$(perf_count branches:u "$stat")
	nmi_mark
	out=$("$HWT_OUT/kp-hwsample" pair 0x02 0x06 "$HWT_LOOPS" 4096 2>&1) ||
		{ hwt_fail "two profiles at once failed" "$out"; return; }
	nmis=$(nmi_new)
	[ -z "$nmis" ] || { hwt_fail "unknown NMIs while two sources sampled at 4096" "$nmis"; return; }
	within "$(kv events1 "$out")" "$perf_i" "$HWT_TOL" &&
		within "$(kv events2 "$out")" "$perf_b" "$HWT_TOL" ||
		{ hwt_fail "hits x interval disagree with perf at interval 4096" \
			"kprofile: $out; perf: $perf_i instructions, $perf_b branches"; return; }
	hwt_pass "both within $HWT_TOL%: $(kv events1 "$out")/$perf_i, $(kv events2 "$out")/$perf_b; no unknown NMI"
}
hwt_register two-sources-min-interval "two sources at the minimum interval (4096) at once: both agree with perf, no unknown NMI (F6)" t_two_sources_min

# Disarm with a PMI in flight (F3, F6): a masked LVTPC shows as a dead
# round, an unclaimed late PMI as an unknown NMI.
t_rearm_loop() {
	local out nmis
	hwt_need_module || return
	nmi_mark
	out=$("$HWT_OUT/kp-hwsample" rearm 0x02 "$HWT_REARM_SECONDS" 4096 2>&1) ||
		{ hwt_fail "re-arm loop failed" "$out"; return; }
	nmis=$(nmi_new)
	[ "$(kv rounds "$out")" -gt 0 ] && [ "$(kv dead "$out")" = 0 ] ||
		{ hwt_fail "sampling stopped in $(kv dead "$out") of $(kv rounds "$out") rounds" "$out"; return; }
	[ -z "$nmis" ] || { hwt_fail "unknown NMIs during the disarm/re-arm loop" "$nmis"; return; }
	hwt_pass "$(kv rounds "$out") disarm/re-arm rounds in ${HWT_REARM_SECONDS}s, each sampled; no unknown NMI"
}
hwt_register rearm-loop "disarm and re-arm in a loop: every round samples, no unknown NMI (F3, F6)" t_rearm_loop

t_intel_pt() {
	local out pt
	hwt_need_module || return
	[ "$HWT_VENDOR" = GenuineIntel ] || { hwt_skip "not an Intel processor"; return; }
	[ -d /sys/bus/event_source/devices/intel_pt ] || { hwt_skip "no Intel PT here"; return; }
	perf record -q -e intel_pt//u -o "$HWT_OUT/pt.data" -- sleep 8 >/dev/null 2>&1 &
	pt=$!
	sleep 1
	out=$("$HWT_OUT/kp-hwsample" rearm 0x02 5 4096 2>&1)
	wait "$pt"
	[ "$(kv rounds "$out")" -gt 0 ] && [ "$(kv dead "$out")" = 0 ] ||
		{ hwt_fail "sampling stopped beside perf record -e intel_pt//u" "$out"; return; }
	hwt_pass "$(kv rounds "$out") rounds sampled while Intel PT traced"
}
hwt_register intel-pt "sampling keeps going beside perf record -e intel_pt//u (F5)" t_intel_pt

t_hybrid() {
	local kind cpus cpu out msg=
	hwt_need_module || return
	[ -d /sys/devices/cpu_core ] && [ -d /sys/devices/cpu_atom ] ||
		{ hwt_skip "not a hybrid part (no /sys/devices/cpu_core and cpu_atom)"; return; }
	for kind in cpu_core cpu_atom; do
		cpus=$(cat /sys/devices/$kind/cpus)
		cpu=${cpus%%[-,]*}
		out=$(taskset -c "$cpu" "$HWT_OUT/kp-hwcount" kprofile 0x02 "$HWT_LOOPS" "$HWT_INTERVAL" 2>&1)
		[ "$(kv hits "$out")" -gt 0 ] 2>/dev/null ||
			{ hwt_fail "no samples on $kind CPU $cpu" "$out"; return; }
		msg+="$kind CPU $cpu: $(kv hits "$out") samples; "
	done
	hwt_pass "$msg"
}
hwt_register hybrid "pinned to a P-core and to an E-core, both sample (F7)" t_hybrid

# F2: every Amd64 source the module calls supported produces samples on a
# workload that exercises it.
# KP_HWTEST_EVENTS (the emulated PMU): only the sources whose select
# (unit mask and event, its low 16 bits) is one the machine counts; the
# others are named, not failed.
t_amd_sources() {
	local list src name sel out dead= n=0 unemulated=
	hwt_need_module || return
	case $HWT_VENDOR in AuthenticAMD|HygonGenuine) ;; *) hwt_skip "not an AMD or Hygon processor"; return ;; esac
	list=$("$HWT_TOOL" sources --json 2>/dev/null | python3 -c '
import json, sys
for s in json.load(sys.stdin):
    if s["supported"] and not s["timer"]:
        print("0x%x %s 0x%04x" % (s["value"], s["name"], (s["select"] or 0) & 0xffff))') ||
		{ hwt_fail "kprofile sources --json failed"; return; }
	while read -r src name sel; do
		if [ -n "${KP_HWTEST_EVENTS:-}" ] && ! grep -qw -- "$sel" <<<"$KP_HWTEST_EVENTS"; then
			unemulated+="$name "
			continue
		fi
		n=$((n + 1))
		out=$("$HWT_OUT/kp-hwsample" exercise "$src" "$HWT_EXERCISE_ROUNDS" 4096 2>&1)
		[ "$(kv hits "$out")" -gt 0 ] 2>/dev/null || dead+="$name($src) "
	done <<<"$list"
	[ -z "$dead" ] || { hwt_fail "supported sources without a sample: $dead" \
		"family $(json_get "$(kp_info_json)" '["amd_family"]'): a source that counts nothing here must be unsupported (kprofile_amd_families.h)"; return; }
	[ "$n" -gt 0 ] || { hwt_skip "no supported source counts an event this machine counts (KP_HWTEST_EVENTS=$KP_HWTEST_EVENTS)"; return; }
	hwt_pass "$n supported sources, each sampled${unemulated:+; not exercised (this machine counts only $KP_HWTEST_EVENTS): $unemulated}"
}
hwt_register amd-sources "every supported Amd64 source samples on a workload that exercises it (F2)" t_amd_sources
