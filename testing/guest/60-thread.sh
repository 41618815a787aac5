#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 60-thread: thread profiling (KeSetHardwareCounterConfiguration) in Debian's kernel without a PMU.
# Through the raw ioctls (kp-thread): switches and cycle time count, the
# counters are unavailable with the reason, a second client gets EBUSY,
# INHERIT follows new threads and child processes, and the configuration
# rejects 17 entries (EINVAL) and, without a PMU, any set (EOPNOTSUPP).
# Through the tool: kprofile stat -- spin reports switches, cycle time and
# <not supported> counters with the reason, as text, JSON and per thread,
# returns the command's status, and refuses a second stat at once.
. "$KP_GUEST/lib.sh"
plan 34

case $KP_CPU in
intel)	why='CPUID leaf 0xA' ;;
amd)	why='not available due to virtualization' ;;
*)	why=. ;;
esac

# ge A B DESC: A >= B, both integers.
ge() {
	if [ -n "$1" ] && [ "$1" -ge "$2" ] 2>/dev/null; then
		ok "$3"
	else
		not_ok "$3" "got '$1', want >= $2"
	fi
}

out=$(kp-thread self 5 2>&1)
ge "$(kv switches "$out")" 5 "5 sleeps: at least 5 context switches counted"
ge "$(kv cycles "$out")" 1 "cycle time is counted"
is "$(kv threads "$out")" 1 "one thread profiled"
is "$(kv valid "$out")" 0 "counters are unavailable without a PMU, not 0"
like "$(kv reason "$out")" "$why" "and the reason says why ($why)"

out=$(kp-thread second 2>&1)
is "$(kv second "$out")" EBUSY "a second thread-profiling client gets EBUSY"
is "$(kv again "$out")" 0 "after the first closes, enabling works again"

out=$(kp-thread inherit 2>&1)
is "$(kv threads "$out")" 3 "INHERIT: the caller, its new thread and its child"
is "$(kv exited "$out")" 2 "the thread and the child are listed as exited"
ge "$(kv thread_switches "$out")" 3 "the thread's 3 sleeps are its own switches"
is "$(kv child_tgid_ok "$out")" 1 "the child is listed with its own pid"
is "$(kv sum_ok "$out")" 1 "per-thread counts add up within the totals"

out=$(kp-thread config 2>&1)
is "$(kv too_many "$out")" EINVAL "17 configuration entries -> EINVAL"
is "$(kv empty "$out")" EOPNOTSUPP "no PMU: setting a configuration -> EOPNOTSUPP"
like "$(kv reason "$out")" "$why" "with the reason"

if ! have_tool; then
	for i in $(seq 19); do skip "kprofile stat" "the tool is not in the image"; done
	exit 0
fi

kprofile stat -o /tmp/stat.txt -- sh -c 'sleep 0.1; exec spin 1' >/tmp/spin.out 2>&1
is "$?" 0 "kprofile stat -- spin 1 succeeds"
txt=$(cat /tmp/stat.txt)
diag "$txt"
ge "$(printf '%s\n' "$txt" | sed -n 's/^ *\([0-9,]*\) *context-switches.*/\1/p' | tr -d ,)" 1 \
	"it reports context switches"
ge "$(printf '%s\n' "$txt" | sed -n 's/^ *\([0-9,]*\) *cycle-time.*/\1/p' | tr -d ,)" 1 \
	"it reports cycle time"
like "$txt" '<not supported> +ProfileTotalIssues' "counters are <not supported>"
like "$(printf '%s\n' "$txt" | grep 'not supported' | head -n1)" "$why" \
	"with the reason ($why)"
like "$txt" 'seconds time elapsed' "and the elapsed time"
like "$(cat /tmp/spin.out)" 'iterations=' "the command's own output is untouched"

# The shell waits for sleep: at least one switch whatever the scheduler
# does with an uncontended spin (7.2's tickless guest gave a 0.2 s spin
# alone none).
kprofile stat --json -o /tmp/stat.json -s TotalIssues,BranchInstructions -- sh -c 'sleep 0.1; exec spin 0.2' >/dev/null 2>&1
is "$?" 0 "kprofile stat --json -s TotalIssues,BranchInstructions succeeds"
js=$(tr -d ' \n' </tmp/stat.json)
like "$js" '"context_switches":[1-9]' "JSON: context_switches"
like "$js" '"cycle_time":[1-9]' "JSON: cycle_time"
like "$js" '"count":null,"counted":false|"counted":false,"count":null' "JSON: counts are null"
like "$js" '"name":"ProfileBranchInstructions"' "JSON: the asked-for sources, by name"
like "$js" '"supported":false' "JSON: not supported"

kprofile stat --per-thread -o /tmp/stat.txt -- sh -c 'spin 0.1; spin 0.1' >/dev/null 2>&1
like "$(cat /tmp/stat.txt)" 'Per thread' "--per-thread: a per-thread table"
is "$(grep -cE '^ +[0-9]+ +[0-9]+  spin ' /tmp/stat.txt)" 2 \
	"with a row for each spin process the shell started"

kprofile stat -o /dev/null -- sh -c 'exit 3'
is "$?" 3 "kprofile stat exits with the command's status"

rm -f /tmp/kp-started
kprofile stat -o /dev/null -- sh -c 'touch /tmp/kp-started; sleep 3' &
first=$!
n=0
while [ ! -e /tmp/kp-started ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
out=$(kprofile stat -o /dev/null -- true 2>&1)
rc=$?
is "$rc" 3 "a second kprofile stat while one runs is refused (exit 3)"
like "$out" 'one client at a time' "and says why: $(printf '%s' "$out" | head -n1)"
wait $first
is "$?" 0 "the first kprofile stat still completes"
