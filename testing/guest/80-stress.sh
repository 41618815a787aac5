#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 80-stress: thread profiling under load while profiles start and stop.
# kp-stress enables thread profiling with INHERIT, runs 8 threads that
# context-switch over pipes and create a short-lived thread each round
# (the fork hook allocates) and a child process every 16th, and disables
# it again, four times, twice while the threads still run; meanwhile
# system-wide and self profiles start and stop on both CPUs.  Whatever
# the hooks do wrong in atomic context shows on the console, which fails
# the whole run (on PREEMPT_RT: sleeping in a hook, a sleeping lock with
# preemption off; with DEBUG_ATOMIC_SLEEP or lockdep, their reports).
. "$KP_GUEST/lib.sh"
plan 7

# Profiles starting and stopping until the stress is done.
(
	n=0 okay=0
	while [ ! -e /tmp/stress.done ]; do
		out=$(kp-profile system --seconds 0.2 2>&1; kp-profile self --seconds 0.2 2>&1)
		n=$((n + 2))
		okay=$((okay + $(printf '%s\n' "$out" | grep -c '^stop=OK$')))
	done
	echo "profiles=$n stopped_ok=$okay" >/tmp/stress.profiles
) &
bg=$!

rm -f /tmp/stress.done
out=$(kp-stress 8 64 4 2>&1)
rc=$?
touch /tmp/stress.done
wait $bg
diag "$out"
is "$rc" 0 "kp-stress exits 0"
is "$(kv cycles "$out")" 4 "four enable/disable cycles, two closed while threads ran"
is "$(kv errors "$out")" 0 "no system call failed"
is "$(kv threads "$out")" "$(kv created "$out")" \
	"every thread and process created while profiled is accounted"
ge_switches=$(kv switches "$out")
if [ -n "$ge_switches" ] && [ "$ge_switches" -ge 64 ] 2>/dev/null; then
	ok "context switches are counted under load"
else
	not_ok "context switches are counted under load" "got '$ge_switches', want >= 64"
fi
prof=$(cat /tmp/stress.profiles 2>/dev/null)
diag "$prof"
n=$(kv profiles "$(echo "$prof" | tr ' ' '\n')")
if [ -n "$n" ] && [ "$n" -ge 2 ] 2>/dev/null; then
	ok "profiles started and stopped meanwhile ($n)"
else
	not_ok "profiles started and stopped meanwhile" "got '$n'"
fi
is "$(kv stopped_ok "$(echo "$prof" | tr ' ' '\n')")" "$n" "every one of them stopped cleanly"
