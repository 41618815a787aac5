# SPDX-License-Identifier: GPL-2.0
# t-perf.sh - kprofile beside perf (hardware review F1, F4): loading with
# the NMI watchdog on, and the event selects after rmmod and after a CPU
# goes offline and online.

# F1: with the watchdog on (bare-metal default) the interface is known and
# busy, not None; once it is off, kprofile arms without a reload.
t_watchdog_load() {
	local info state iface arm
	hwt_need_module || return
	[ -w /proc/sys/kernel/nmi_watchdog ] ||
		{ hwt_skip "no kernel.nmi_watchdog (no hard-lockup detector)"; return; }
	kp_unload || { hwt_fail "rmmod kprofile failed"; return; }
	{ echo 1 >/proc/sys/kernel/nmi_watchdog; } 2>/dev/null
	[ "$(cat /proc/sys/kernel/nmi_watchdog)" = 1 ] ||
		{ hwt_skip "the NMI watchdog cannot be turned on here"; return; }
	# Intel: the watchdog uses a fixed counter; occupy GP0 with perf too.
	perf stat -e cycles,cycles -- sleep 3 >/dev/null 2>&1 &
	sleep 0.5
	kp_load || { hwt_fail "insmod with the watchdog on failed"; return; }
	info=$(kp_info_json)
	wait
	iface=$(json_get "$info" '["interface"]')
	state=$(json_get "$info" '["pmu_state"]')
	echo 0 >/proc/sys/kernel/nmi_watchdog
	[ "$iface" != None ] ||
		{ hwt_fail "interface None with the watchdog on" "$info"; return; }
	[ "$state" = busy ] ||
		{ hwt_fail "PMU state \"$state\" with the watchdog on, want busy" "$info"; return; }
	arm=$("$HWT_OUT/kp-hwcount" kprofile 0x02 100000000 "$HWT_INTERVAL" 2>&1)
	[ -n "$(kv events "$arm")" ] && [ "$(kv hits "$arm")" -gt 0 ] ||
		{ hwt_fail "no samples after nmi_watchdog=0 (no reload)" "$arm"; return; }
	hwt_pass "$iface, busy with the watchdog on; $(kv hits "$arm") samples after it was turned off"
}
hwt_register watchdog-load "load with the NMI watchdog on: busy (not None), then usable when it is off (F1)" t_watchdog_load

# F4: rmmod and CPU offline/online leave no event select enabled that was
# not enabled before, and no unknown NMI.
t_msr_after_rmmod() {
	local before after nmis new cpu=1
	hwt_need_module || return
	[ -e /dev/cpu/0/msr ] || modprobe msr 2>/dev/null
	[ -r /dev/cpu/0/msr ] || { hwt_skip "no /dev/cpu/*/msr (modprobe msr failed)"; return; }
	kp_unload
	before=$(en_bits)
	nmis=$(unknown_nmis)
	kp_load || { hwt_fail "insmod failed"; return; }
	"$HWT_OUT/kp-hwsample" rearm 0x02 3 "$HWT_INTERVAL" >/dev/null 2>&1 &
	sleep 1
	if [ -w /sys/devices/system/cpu/cpu$cpu/online ]; then
		echo 0 >/sys/devices/system/cpu/cpu$cpu/online
		sleep 0.5
		echo 1 >/sys/devices/system/cpu/cpu$cpu/online
	fi
	wait
	after=$(en_bits)
	new=$(comm -13 <(echo "$before" | sort) <(echo "$after" | sort))
	[ -z "$new" ] || { hwt_fail "event selects enabled after offline/online: $new"; return; }
	kp_unload || { hwt_fail "rmmod failed"; return; }
	sleep 1
	after=$(en_bits)
	new=$(comm -13 <(echo "$before" | sort) <(echo "$after" | sort))
	[ -z "$new" ] || { hwt_fail "event selects enabled after rmmod: $new"; return; }
	[ "$(unknown_nmis)" = "$nmis" ] ||
		{ hwt_fail "unknown NMIs in dmesg" "$(dmesg | grep 'NMI received for unknown reason' | tail -n3)"; return; }
	kp_load
	hwt_pass "no new EN bits after CPU $cpu offline/online and after rmmod; no unknown NMI"
}
hwt_register msr-after-rmmod "event selects after rmmod and after CPU offline/online: nothing left enabled, no unknown NMI (F4)" t_msr_after_rmmod
