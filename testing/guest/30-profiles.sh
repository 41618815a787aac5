#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 30-profiles: profile objects with ProfileTime (docs/profiles.md).  Every
# validation case returns its documented errno; the privilege rules with
# capabilities dropped and as an unprivileged uid; start/stop states; a
# profile of this program's own hot loop with 128-byte buckets counts live
# and puts at least 90% of its in-range hits in the loop; a longer spin
# counts more; another process (before exec until after exit) and the
# whole system; closing a running profile; rmmod refused while a profile
# is open and clean after.
. "$KP_GUEST/lib.sh"
plan 80
cd /tmp || exit 1
# Unprivileged profiles with kernel-mode counting (the default mode here
# is BOTH), as perf allows them at kernel.perf_event_paranoid 1; Debian's
# default 3 forbids unprivileged profiles (35-privileges tests the levels).
echo 1 >/proc/sys/kernel/perf_event_paranoid

# try ARGS...: the result of creating a profile (OK or an errno name).
try() { kv result "$(kp-profile "$@" 2>&1)"; }
# ge A B: A >= B (integers); gt A B: A > B.
ge() { [ "${1:-0}" -ge "${2:-0}" ] 2>/dev/null; }
gt() { [ "${1:-0}" -gt "${2:-0}" ] 2>/dev/null; }

info=$(kp-ioctl info 2>&1)
iface=$(kv interface "$info")
possible=$(kv num_possible_cpus "$info")

# --- validation (profile_check.c's list) --------------------------------
is "$(try try)" OK "a valid ProfileTime profile of this process is created"
is "$(try try --shift 1)" EINVAL "bucket shift 1 -> EINVAL"
is "$(try try --shift 32)" EINVAL "bucket shift 32 -> EINVAL"
is "$(try try --shift 2)" OK "bucket shift 2 is accepted"
is "$(try try --range 400000:10000 --shift 31)" OK "bucket shift 31 is accepted"
is "$(try try --buffer-size 0)" EINVAL "zero buffer size -> EINVAL"
is "$(try try --range 400000:0)" EINVAL "zero range size -> EINVAL"
is "$(try try --buffer misaligned)" EINVAL "a buffer not 4-byte aligned -> EINVAL"
is "$(try try --source 0xff)" EINVAL "an unknown source -> EINVAL"
is "$(try try --reserved)" EINVAL "a nonzero reserved field -> EINVAL"
is "$(try try --mode 4)" EINVAL "an unknown mode -> EINVAL"
is "$(try try --target pid:0)" EINVAL "target pid 0 -> EINVAL"
is "$(try try --buffer-short)" ENOSPC "a buffer 4 bytes short -> ENOSPC"
is "$(try try --range 400000:1001 --shift 12 --buffer-size 4)" ENOSPC \
	"ceil(size / bucket) counts a partial last bucket -> ENOSPC"
is "$(try try --range 400000:1001 --shift 12 --buffer-size 8)" OK \
	"... and a buffer for it is accepted"
is "$(try try --range fffffffffffff000:2000)" EOVERFLOW \
	"base + size wraps -> EOVERFLOW"
is "$(try try --buffer readonly)" EFAULT "a read-only buffer -> EFAULT"
is "$(try try --buffer unmapped)" EFAULT "an unmapped buffer -> EFAULT"
is "$(try try --buffer kernel)" EFAULT "a kernel-address buffer -> EFAULT"
if [ "$iface" = None ]; then
	is "$(try try --source 2)" EOPNOTSUPP \
		"a counter source without a profile interface -> EOPNOTSUPP"
else
	skip "unsupported source -> EOPNOTSUPP" "interface is $iface"
fi
is "$(try try --source 0x18)" EOPNOTSUPP "ProfileMaximum -> EOPNOTSUPP"
is "$(try try --target pid:999999)" ESRCH "no such process -> ESRCH"
if [ "${possible:-64}" -lt 64 ]; then
	is "$(try try --cpus 8000000000000000)" EINVAL \
		"a CPU set naming no possible CPU -> EINVAL"
else
	skip "impossible CPU set -> EINVAL" "$possible possible CPUs"
fi
is "$(try try --cpus 1)" OK "a CPU set of CPU 0 is accepted"

# --- privileges ----------------------------------------------------------
is "$(try try --target system --range kernel)" OK \
	"root: a system-wide kernel profile is allowed"
is "$(try --drop-caps try --target system)" EPERM \
	"without CAP_PERFMON/CAP_SYS_ADMIN: system-wide -> EPERM"
is "$(try --drop-caps try --range kernel)" EPERM \
	"without CAP_PERFMON/CAP_SYS_ADMIN: a kernel range -> EPERM"
is "$(try --drop-caps try)" OK \
	"without capabilities: one's own process is allowed"
is "$(try --uid 65534 try)" OK "uid 65534: its own process is allowed"
is "$(try --uid 65534 try --target pid:1)" EACCES \
	"uid 65534: root's init -> EACCES (no ptrace-read access)"
is "$(try --uid 65534 try --target system)" EPERM \
	"uid 65534: system-wide -> EPERM"
is "$(try --uid 65534 try --range kernel)" EPERM \
	"uid 65534: a kernel range -> EPERM"
is "$(try --uid 65534 try --range 0:800000000000 --shift 31)" OK \
	"uid 65534: the whole user half [0, 2^47) is a user range"
is "$(try --uid 65534 try --range 7fffffffffff0000:20000)" EPERM \
	"uid 65534: a range crossing 2^63 reaches the kernel half -> EPERM"

# --- start and stop -----------------------------------------------------
out=$(kp-profile states 2>&1)
is "$(kv stop_stopped "$out")" EALREADY "stop when stopped -> EALREADY"
is "$(kv start_child "$out")" EXDEV \
	"start from another address space (a forked child) -> EXDEV"
is "$(kv start "$out")" OK "start"
is "$(kv start_started "$out")" EBUSY "start when started -> EBUSY"
is "$(kv started "$out")" 1 "statistics say started"
is "$(kv stop "$out") $(kv stop_again "$out")" "OK EALREADY" \
	"stop, then stop again -> EALREADY"
is "$(kv started_after "$out") $(kv restart "$out")" "0 OK" \
	"stopped, and it can be started again"
is "$(kv bad_ioctl "$out")" ENOTTY "an unknown ioctl on a profile -> ENOTTY"

# --- this program's hot loop, live ---------------------------------------
out=$(kp-profile self --seconds 2 2>&1)
diag "$out"
is "$(kv start "$out")" OK "self: started"
live_mid=$(kv live_mid "$out")
loop=$(kv loop "$out")
in_range=$(kv in_range "$out")
check "self: the loop's buckets count while it runs (read live: $live_mid)" \
	gt "$live_mid" 0
check "self: and keep growing (live_end >= live_mid)" \
	ge "$(kv live_end "$out")" "$live_mid"
check "self: >= 90% of the in-range hits are in the loop ($loop of $in_range)" \
	ge $((loop * 100)) $((in_range * 90))
is "$(kv final_hits "$out")" "$in_range" \
	"self: statistics' hits = the buckets' sum"
is "$(kv after_stop "$out")" "$in_range" \
	"self: the counts stay after stop, and nothing counts after it"
is "$(kv final_started "$out")" 0 "self: stopped"

# Unprivileged: its own loop, with the pinned page charged to
# RLIMIT_MEMLOCK (no CAP_IPC_LOCK), which may refuse it.
out=$(kp-profile --uid 65534 self --seconds 1 2>&1)
is "$(kv start "$out")" OK "uid 65534: starts a profile of itself"
check "uid 65534: its loop is counted ($(kv loop "$out"))" gt "$(kv loop "$out")" 0
out=$(ulimit -l 0 && kp-profile --uid 65534 self --seconds 0.1 2>&1)
is "$(kv start "$out")" ENOMEM "RLIMIT_MEMLOCK 0 without CAP_IPC_LOCK: start -> ENOMEM"
# kprofile record prints the module's reason for that refusal
# (KPROFILE_IOC_START_EX), not only the errno.
if have_tool; then
	chmod 666 /dev/kprofile
	out=$(su -m -s /bin/sh nobody -c \
		"ulimit -l 0 && kprofile record -o /tmp/kp-memlock.data -- spin 0.2" 2>&1)
	chmod 600 /dev/kprofile
	diag "$out"
	like "$out" "cannot start a profile \(locking the buffer's [0-9]+ pages would exceed RLIMIT_MEMLOCK \(0 KiB" \
		"kprofile record says why the start was refused (the module's reason: RLIMIT_MEMLOCK)"
else
	skip "kprofile record says why the start was refused" "tool not built"
fi

short=$(kv loop "$(kp-profile self --seconds 1 2>&1)")
long=$(kv loop "$(kp-profile self --seconds 4 2>&1)")
check "a longer spin counts more (1 s: $short, 4 s: $long)" gt "$long" "$short"

# --- another process: from before its exec until after its exit ---------
where=$(spin --where)
start=$(echo "$where" | sed -n 's/.*hot_start=\([^ ]*\).*/\1/p')
end=$(echo "$where" | sed -n 's/.*hot_end=\([^ ]*\).*/\1/p')
export KP_SPIN_RANGE="$start:$end"
out=$(kp-profile child -- spin 1 2>&1)
diag "$out"
is "$(kv result "$out") $(kv start "$out")" "OK OK" "child: created and started"
is "$(kv target_exited "$out")" 1 "child: the target exited while profiled"
check "child: its hot function was hit ($(kv hits "$out"))" \
	gt "$(kv hits "$out")" 0
is "$(kv buckets "$out")" "$(kv hits "$out")" "child: the buckets hold every hit"
is "$(kv stop "$out") $(kv close "$out")" "OK OK" \
	"child: stop and close after the target is gone"
# A forked child of a process that changed uid is not dumpable until it
# execs (as for ptrace): profile a process of uid 65534 that did exec.
out=$(kp-profile --uid 65534 child -- spin 1 2>&1)
is "$(kv result "$out")" EACCES \
	"uid 65534: its forked, not yet exec'd (non-dumpable) child -> EACCES"
kp-profile --uid 65534 spin 4 &
spinner=$!
sleep 0.3
is "$(try --uid 65534 try --target pid:$spinner)" EACCES \
	"uid 65534: a process of uid 65534 that is not dumpable -> EACCES"
kill "$spinner" 2>/dev/null
wait "$spinner" 2>/dev/null
kp-profile --uid 65534 --dumpable spin 30 &
spinner=$!
sleep 0.3
out=$(kp-profile --uid 65534 pid "$spinner" --range hot --seconds 1 2>&1)
is "$(kv result "$out")" OK \
	"uid 65534: another (dumpable) process of uid 65534 is allowed"
check "uid 65534: and it is hit ($(kv hits "$out"))" gt "$(kv hits "$out")" 0
is "$(try --uid 1000 try --target pid:$spinner)" EACCES \
	"uid 1000: a process of uid 65534 -> EACCES"
# Once the target turns non-dumpable (as a set-user-ID exec makes it), an
# unprivileged profiler no longer sees it; root still does.
out=$(kp-profile --uid 65534 pid "$spinner" --range hot --undump --seconds 1 2>&1)
diag "$out"
is "$(kv result "$out") $(kv hits "$out") $(kv outside "$out")" "OK 0 0" \
	"uid 65534: a target that became non-dumpable is not counted"
out=$(kp-profile pid "$spinner" --range hot --seconds 1 2>&1)
check "root: it is still counted ($(kv hits "$out"))" gt "$(kv hits "$out")" 0
kill "$spinner" 2>/dev/null
wait "$spinner" 2>/dev/null

# --- the whole system -----------------------------------------------------
out=$(kp-profile system --seconds 1 2>&1)
diag "$out"
is "$(kv result "$out") $(kv start "$out")" "OK OK" "system: created and started"
check "system: the kernel range is hit ($(kv hits "$out"))" \
	gt "$(kv hits "$out")" 0

# --- CPU hotplug: the ProfileTime timer of a CPU that comes back ----------
if [ -w /sys/devices/system/cpu/cpu1/online ]; then
	out=$(kp-profile hotplug 2>&1)
	diag "$out"
	is "$(kv start "$out") $(kv offline "$out") $(kv online "$out")" \
		"OK OK OK" "hotplug: started, CPU 1 offline and online again"
	check "hotplug: CPU 1 was sampled ($(kv hits_cpu1 "$out"))" \
		gt "$(kv hits_cpu1 "$out")" 0
	is "$(kv hits_while_offline "$out")" 0 \
		"hotplug: nothing counts for CPU 1 while it is offline"
	check "hotplug: its timer runs again once it is back" \
		gt "$(kv hits_after_online "$out")" 0
else
	for t in 1 2 3 4; do skip "hotplug $t" "CPU 1 cannot go offline"; done
fi

# --- close while running, and the module's references -------------------
out=$(kp-profile close-mid 2>&1)
is "$(kv start "$out") $(kv close "$out")" "OK OK" "close a running profile"
is "$(kv in_range_later "$out")" "$(kv in_range "$out")" \
	"nothing counts after close"
is "$(cat /sys/module/kprofile/refcnt)" 0 "no module reference is left"

rm -f /tmp/kp-hold
kp-profile hold 60 >/tmp/kp-hold 2>&1 &
holder=$!
i=0
while ! grep -q start= /tmp/kp-hold 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
is "$(kv start "$(cat /tmp/kp-hold)")" OK "a profile is open and started"
check_fails "rmmod is refused while a profile fd is open" rmmod kprofile
kill "$holder"
wait "$holder" 2>/dev/null
check "rmmod succeeds once it is closed" rmmod kprofile
check "insmod kprofile.ko again" insmod "$KP_MODULE"
kernel_log_clean "the kernel log has no warning, BUG or lockdep report"
