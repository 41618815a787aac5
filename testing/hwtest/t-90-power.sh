# SPDX-License-Identifier: GPL-2.0
# t-power.sh - suspend and kexec with kprofile armed (hardware review F12).
# Both take the machine away, so they run only when asked:
# KP_HWTEST_SUSPEND=1, KP_HWTEST_KEXEC=1.

t_suspend() {
	local out
	hwt_need_module || return
	[ "${KP_HWTEST_SUSPEND:-0}" = 1 ] ||
		{ hwt_skip "suspends the machine: run with KP_HWTEST_SUSPEND=1"; return; }
	command -v rtcwake >/dev/null || { hwt_skip "no rtcwake (util-linux)"; return; }
	grep -qw mem /sys/power/state || { hwt_skip "no suspend to RAM here"; return; }
	"$HWT_OUT/kp-hwsample" rearm 0x02 20 4096 >"$HWT_OUT/suspend.out" 2>&1 &
	sleep 2
	rtcwake -m mem -s 5 >/dev/null 2>&1
	wait
	out=$(cat "$HWT_OUT/suspend.out")
	[ "$(kv rounds "$out")" -gt 0 ] && [ "$(kv dead "$out")" = 0 ] ||
		{ hwt_fail "sampling stopped across suspend" "$out"; return; }
	hwt_pass "$(kv rounds "$out") rounds sampled across rtcwake -m mem -s 5"
}
hwt_register suspend "sampling keeps going across suspend to RAM (KP_HWTEST_SUSPEND=1)" t_suspend

# Phase 1 arms kprofile and kexecs into the same kernel; phase 2 (the next
# make hwtest, which finds the marker) checks the new kernel's log.
t_kexec() {
	local marker=/var/tmp/kprofile-hwtest-kexec
	if [ -f "$marker" ]; then
		rm -f "$marker"
		if dmesg | grep -q 'corrupted hw-PMU resources'; then
			hwt_fail "after kexec: perf found the PMU in use" "$(dmesg | grep -m3 'hw-PMU')"
		else
			hwt_pass "after kexec with kprofile armed: no 'corrupted hw-PMU resources'"
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
	sleep 2
	sync
	kexec -e
	hwt_fail "kexec -e returned"
}
hwt_register kexec "kexec with kprofile armed leaves the PMU clean for the next kernel (KP_HWTEST_KEXEC=1)" t_kexec
