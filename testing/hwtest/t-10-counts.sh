# SPDX-License-Identifier: GPL-2.0
# t-counts.sh - kprofile's counts agree with perf's on a loop of known
# instruction and branch counts, and perf cannot count while kprofile
# reserves the PMU (the original make hwtest).

t_counts() {
	local stat perf_i perf_b expect_i ki kb h o
	hwt_need_module || return
	stat=$(perf stat -x, -e instructions:u,branches:u "$HWT_OUT/kp-hwcount" loop "$HWT_LOOPS" 2>&1)
	expect_i=$(kv expect_instructions "$stat")
	perf_i=$(perf_count instructions:u "$stat")
	perf_b=$(perf_count branches:u "$stat")
	[ -n "$perf_i" ] && [ -n "$perf_b" ] || { hwt_fail "perf counts the loop" "$stat"; return; }
	within "$perf_i" "$expect_i" "$HWT_TOL" ||
		{ hwt_fail "perf's instructions are not the loop's $expect_i" "perf: $perf_i"; return; }
	ki=$("$HWT_OUT/kp-hwcount" kprofile 0x02 "$HWT_LOOPS" "$HWT_INTERVAL" 2>&1)
	kb=$("$HWT_OUT/kp-hwcount" kprofile 0x06 "$HWT_LOOPS" "$HWT_INTERVAL" 2>&1)
	within "$(kv events "$ki")" "$perf_i" "$HWT_TOL" ||
		{ hwt_fail "ProfileTotalIssues disagrees with perf's instructions:u" "kprofile: $ki; perf: $perf_i"; return; }
	within "$(kv events "$kb")" "$perf_b" "$HWT_TOL" ||
		{ hwt_fail "ProfileBranchInstructions disagrees with perf's branches:u" "kprofile: $kb; perf: $perf_b"; return; }
	h=$(kv hits "$ki") o=$(kv outside "$ki")
	[ -n "$h" ] && [ "$((h * 100))" -ge "$(((h + o) * 95))" ] ||
		{ hwt_fail "the samples do not land in the loop" "$ki"; return; }
	hwt_pass "instructions $(kv events "$ki") vs perf $perf_i, branches $(kv events "$kb") vs perf $perf_b"
}
hwt_register counts "kprofile's instruction and branch counts agree with perf's (within the tolerance)" t_counts

t_reserve_excludes_perf() {
	local holder res busy after
	hwt_need_module || return
	"$HWT_OUT/kp-hwlayer" reserve --hold 5 >"$HWT_OUT/reserve.out" 2>&1 &
	holder=$!
	sleep 1
	res=$(cat "$HWT_OUT/reserve.out")
	busy=$(perf stat -x, -e instructions:u true 2>&1)
	wait "$holder"
	after=$(perf stat -x, -e instructions:u true 2>&1)
	[ "$(kv result "$res")" = OK ] || { hwt_fail "the reservation failed" "$res"; return; }
	[ -z "$(perf_count instructions:u "$busy")" ] ||
		{ hwt_fail "perf counted while kprofile reserved the PMU" "$busy"; return; }
	[ -n "$(perf_count instructions:u "$after")" ] ||
		{ hwt_fail "perf does not count after the reservation closed" "$after"; return; }
	hwt_pass "perf refused while reserved, and counts again after"
}
hwt_register reserve-excludes-perf "perf cannot count while kprofile reserves the PMU, and can after" t_reserve_excludes_perf
