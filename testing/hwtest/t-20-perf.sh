# SPDX-License-Identifier: GPL-2.0
# t-perf.sh - kprofile beside perf (hardware review F1, F4): loading with
# the NMI watchdog on, and the event selects after rmmod and after a CPU
# goes offline and online.  Both tests set the watchdog themselves.

# F1: with the watchdog on (bare-metal default) the interface is known and
# busy, not None; once it is off, kprofile arms without a reload.  The
# test loads kprofile itself: a None here is the F1 regression, a failure,
# whatever the runner's own load reported.
t_watchdog_load() {
	local info state iface arm err
	hwt_need_loadable || return
	[ -w /proc/sys/kernel/nmi_watchdog ] ||
		{ hwt_skip "no kernel.nmi_watchdog (no hard-lockup detector)"; return; }
	kp_unload || { hwt_fail "rmmod kprofile failed"; return; }
	watchdog_set 1 || { hwt_skip "the NMI watchdog cannot be turned on here"; return; }
	# Intel: the watchdog uses a fixed counter; occupy GP0 with perf too.
	perf stat -e cycles,cycles -- sleep 3 >/dev/null 2>&1 &
	sleep 0.5
	err=$(insmod "$HWT_MODULE_KO" 2>&1) ||
		{ wait; hwt_fail "insmod with the watchdog on failed (it loads with it off)" "$err"; return; }
	info=$(kp_info_json)
	wait
	iface=$(json_get "$info" '["interface"]')
	state=$(json_get "$info" '["pmu_state"]')
	watchdog_set 0
	[ -n "$iface" ] || { hwt_fail "kprofile info --json answered nothing" "$info"; return; }
	[ "$iface" != None ] ||
		{ hwt_fail "interface None with the watchdog on (F1): $(json_get "$info" '["interface_reason"]')" "$info"; return; }
	[ "$state" = busy ] ||
		{ hwt_fail "PMU state \"$state\" with the watchdog on, want busy" "$info"; return; }
	arm=$("$HWT_OUT/kp-hwcount" kprofile 0x02 "$HWT_LOOPS" "$HWT_INTERVAL" 2>&1)
	[ -n "$(kv events "$arm")" ] && [ "$(kv hits "$arm")" -gt 0 ] ||
		{ hwt_fail "no samples after nmi_watchdog=0 (no reload)" "$arm"; return; }
	hwt_pass "$iface, busy with the watchdog on; $(kv hits "$arm") samples after it was turned off"
}
hwt_register watchdog-load "load with the NMI watchdog on: busy (not None), then usable when it is off (F1)" \
	t_watchdog_load own-watchdog

# F4: load with the watchdog on (kprofile sees perf's enabled cycles
# select), turn it off (perf clears EN, leaves INT, releases the
# counters), sample, take a CPU offline and online, rmmod: no event select
# is left enabled that was not enabled with neither kprofile nor the
# watchdog running, and no NMI is unknown.  The old teardown restored the
# watchdog's select (EN, INT) here.
t_msr_after_rmmod() {
	local base after new cpu hp err msg wd="loaded with the NMI watchdog on"
	hwt_need_module || return
	[ -e /dev/cpu/0/msr ] || modprobe msr 2>/dev/null
	[ -r /dev/cpu/0/msr ] || { hwt_skip "no /dev/cpu/*/msr (modprobe msr failed)"; return; }
	kp_unload || { hwt_fail "rmmod kprofile failed"; return; }
	watchdog_set 0
	base=$(en_bits)
	nmi_mark
	if watchdog_set 1; then
		# The reads see what is enabled: the watchdog's select (or, on
		# Intel, its fixed counter) shows.  Without that, "nothing new
		# enabled" below would mean nothing.
		[ -n "$(en_bits)" ] || { watchdog_set 0; hwt_fail "with the NMI watchdog on, no event select reads enabled through /dev/cpu/*/msr (en_bits reads nothing)"; return; }
	else
		wd="loaded without the NMI watchdog (it cannot be turned on here): F4's sequence not exercised"
	fi
	err=$(insmod "$HWT_MODULE_KO" 2>&1) ||
		{ watchdog_set 0; hwt_fail "insmod failed" "$err"; return; }
	watchdog_set 0
	# Sampling across the hotplug: 3 s, or KP_HWTEST_REARM_SECONDS if less.
	"$HWT_OUT/kp-hwsample" rearm 0x02 "$((HWT_REARM_SECONDS < 3 ? HWT_REARM_SECONDS : 3))" \
		"$HWT_INTERVAL" >"$HWT_OUT/rmmod.out" 2>&1 &
	sleep 1
	cpu=$(hotplug_cpu)
	if [ -z "$cpu" ]; then
		hp="skipped: no CPU here can go offline"
	elif ! { echo 0 >"/sys/devices/system/cpu/cpu$cpu/online"; } 2>/dev/null; then
		hp="skipped: CPU $cpu refused to go offline"
	else
		sleep 0.5
		if { echo 1 >"/sys/devices/system/cpu/cpu$cpu/online"; } 2>/dev/null; then
			hp="CPU $cpu offline and online"
		else
			wait
			hwt_fail "CPU $cpu did not come back online"
			return
		fi
	fi
	wait
	after=$(en_bits)
	new=$(new_lines "$base" "$after")
	[ -z "$new" ] || { hwt_fail "event selects enabled after $hp: $new" "$(cat "$HWT_OUT/rmmod.out")"; return; }
	kp_unload || { hwt_fail "rmmod failed"; return; }
	sleep 1
	after=$(en_bits)
	new=$(new_lines "$base" "$after")
	[ -z "$new" ] || { hwt_fail "event selects enabled after rmmod ($wd): $new"; return; }
	msg=$(nmi_new)
	[ -z "$msg" ] || { hwt_fail "unknown NMIs in dmesg" "$msg"; return; }
	kp_load || { hwt_fail "insmod after the test failed"; return; }
	hwt_pass "$wd, then off; $hp; rmmod: no new EN bits, no unknown NMI"
}
hwt_register msr-after-rmmod "load with the watchdog on, turn it off, CPU offline/online, rmmod: nothing left enabled, no unknown NMI (F4)" \
	t_msr_after_rmmod own-watchdog
