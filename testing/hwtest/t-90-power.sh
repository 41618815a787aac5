# SPDX-License-Identifier: GPL-2.0
# t-power.sh - suspend and kexec with kprofile armed and thread profiling
# on (hardware review F12, section 5).
# Both take the machine away, so they run only when asked:
# KP_HWTEST_SUSPEND=1, KP_HWTEST_KEXEC=1.

# Thread profiling across the suspend: kprofile stat counts a shell that
# runs the loop, sleeps through the suspend, and runs the loop again.  A
# profile started once samples a loop from 2 s before the suspend to up to
# 18 s after it (kp-hwsample hold; KP_HWTEST_REARM_SECONDS, if less: the
# emulated PMU's 1 s is a billion instructions): it must still sample
# after the resume, when the firmware has reset the counters and only
# kprofile's resume programs them again (a profile started and stopped
# over and over, as kp-hwsample rearm does, would re-program them itself).
t_suspend() {
	local out stat count expect least loops=100000000 stat_pid rc nmis after
	local stats=/sys/power/suspend_stats/success suspends wake
	hwt_need_module || return
	[ "${KP_HWTEST_SUSPEND:-0}" = 1 ] ||
		{ hwt_skip "suspends the machine: run with KP_HWTEST_SUSPEND=1"; return; }
	command -v rtcwake >/dev/null || { hwt_skip "no rtcwake (util-linux)"; return; }
	grep -qw mem /sys/power/state || { hwt_skip "no suspend to RAM here"; return; }
	nmi_mark
	suspends=$(cat "$stats" 2>/dev/null)
	rm -f "$HWT_OUT/suspend-stat.json"
	"$HWT_TOOL" stat -s 0x02 --json -o "$HWT_OUT/suspend-stat.json" -- \
		sh -c "'$HWT_OUT/kp-hwcount' loop $loops >/dev/null; sleep 12; '$HWT_OUT/kp-hwcount' loop $loops >/dev/null" \
		>"$HWT_OUT/suspend-stat.out" 2>&1 &
	stat_pid=$!
	after=$((HWT_REARM_SECONDS < 18 ? HWT_REARM_SECONDS : 18))
	"$HWT_OUT/kp-hwsample" hold 0x02 $((2 + after)) 4096 >"$HWT_OUT/suspend.out" 2>&1 &
	sleep 2
	wake=$(rtcwake -m mem -s 5 2>&1)
	wake="rtcwake exit $?: $wake"
	wait "$stat_pid"
	rc=$?
	wait
	# The kernel's count of suspends that went through: did this one?
	[ -z "$suspends" ] || [ "$(cat "$stats")" -gt "$suspends" ] ||
		{ hwt_fail "the machine did not suspend ($stats stayed $suspends)" "$wake"; return; }
	nmis=$(nmi_new)
	out=$(cat "$HWT_OUT/suspend.out")
	[ "$(kv resumed "$out")" = 1 ] ||
		{ hwt_fail "the sampling process did not notice the suspend (CLOCK_BOOTTIME)" "$out"; return; }
	[ "$(kv before "$out")" -gt 0 ] && [ "$(kv after "$out")" -gt 0 ] ||
		{ hwt_fail "a profile started before the suspend did not sample after it" "$out"; return; }
	stat=$(cat "$HWT_OUT/suspend-stat.json" 2>/dev/null)
	count=$(json_get "$stat" '["counters"][0]["count"]')
	expect=$((2 * 3 * loops))
	# HWT_TOL may be a fraction (0.5 on the emulated PMU).
	least=$(awk -v e="$expect" -v t="$HWT_TOL" 'BEGIN { printf "%d", e * (100 - t) / 100 }')
	[ "$rc" = 0 ] && [ -n "$count" ] && [ "$count" -ge "$least" ] ||
		{ hwt_fail "thread profiling across suspend: ${count:-no} count of ProfileTotalIssues, want at least $expect" \
			"exit $rc; $stat $(cat "$HWT_OUT/suspend-stat.out")"; return; }
	[ -z "$nmis" ] || { hwt_fail "unknown NMIs across suspend" "$nmis"; return; }
	hwt_pass "one profile sampled $(kv before "$out") times before and $(kv after "$out") after, and a thread counted ($count >= $expect), across rtcwake -m mem -s 5; no unknown NMI"
}
hwt_register suspend "a started profile keeps sampling and thread profiling keeps counting across suspend to RAM, no unknown NMI (KP_HWTEST_SUSPEND=1)" t_suspend

# Phase 1 arms kprofile and kexecs into the same kernel; phase 2 (the next
# make hwtest, which finds the marker) checks the new kernel's log.
t_kexec() {
	local marker=/var/tmp/kprofile-hwtest-kexec
	if [ -f "$marker" ]; then
		rm -f "$marker"
		if dmesg | grep -q 'corrupted hw-PMU resources'; then
			hwt_fail "after kexec: perf found the PMU in use" "$(dmesg | grep -m3 'hw-PMU')"
		elif [ "$(unknown_nmis)" -gt 0 ]; then
			hwt_fail "after kexec: unknown NMIs in the new kernel's log" \
				"$(dmesg | grep -m3 'NMI received for unknown reason')"
		else
			hwt_pass "after kexec with kprofile armed and thread profiling on: no 'corrupted hw-PMU resources', no unknown NMI"
		fi
		return
	fi
	hwt_need_module || return
	[ "${KP_HWTEST_KEXEC:-0}" = 1 ] ||
		{ hwt_skip "reboots the machine: run with KP_HWTEST_KEXEC=1, then make hwtest again"; return; }
	command -v kexec >/dev/null || { hwt_skip "no kexec (kexec-tools)"; return; }
	kexec -l "/boot/vmlinuz-$(uname -r)" --initrd="/boot/initrd.img-$(uname -r)" --reuse-cmdline ||
		{ hwt_fail "kexec -l failed"; return; }
	touch "$marker"
	"$HWT_OUT/kp-hwsample" rearm 0x02 60 4096 >/dev/null 2>&1 &
	"$HWT_TOOL" stat -s 0x02 -o /dev/null -- sleep 60 >/dev/null 2>&1 &
	sleep 2
	sync
	kexec -e
	hwt_fail "kexec -e returned"
}
hwt_register kexec "kexec with kprofile armed leaves the PMU clean for the next kernel, no unknown NMI (KP_HWTEST_KEXEC=1)" t_kexec
