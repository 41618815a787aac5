#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 57-children: record follows every child from the kernel's records (the
# stream's FORK/EXEC/EXIT, issue 22): `forkstorm` starts 1,000 children one
# after another, each living under a millisecond (0.5 ms of CPU time, a
# fourth of them after an exec under another name); with ProfileTime at
# -F 8000 (0.122 ms) each runs through several timer interrupts.  Every
# child must be in the process table with its own hits: none missed, none
# lost, and the processes' hits add up to the total.
. "$KP_GUEST/lib.sh"

if ! have_tool; then
	plan 1
	skip "children" "tool not built"
	exit 0
fi
plan 9
cd /tmp || exit 1

json() { kp-json "$1" "$2" 2>/dev/null; }

N=1000
ln -sf "$(command -v forkstorm)" /tmp/stormexec
kprofile record -F 8000 -o storm.data -- forkstorm $N 500 /tmp/stormexec \
	>storm.out 2>storm.err
is "$?" 0 "forkstorm: record exits 0"
if grep -q "were lost" storm.err; then
	not_ok "forkstorm: no record of the stream was lost" "$(cat storm.err)"
else
	ok "forkstorm: no record of the stream was lost"
fi
kids=$(sed -n 's/^child=\([0-9]*\) exec=[01]$/\1/p' storm.out)
is "$(printf '%s\n' "$kids" | grep -c .)" $N "forkstorm started $N children"

procs=$(kprofile report -i storm.data --processes -n 1 2>&1)
# PID PPID Command Hits Attributed
rows=$(printf '%s\n' "$procs" | awk '$1 ~ /^[0-9]+$/ && NF == 5')
missing= nohits=
for k in $kids; do
	row=$(printf '%s\n' "$rows" | awk -v p="$k" '$1 == p')
	if [ -z "$row" ]; then
		missing="$missing $k"
	elif [ "$(printf '%s\n' "$row" | awk '{ print $4 }')" -lt 1 ]; then
		nohits="$nohits $k"
	fi
done
is "$missing" "" "every child is in the process table"
is "$nohits" "" "every child has hits of its own"
execd=$(printf '%s\n' "$rows" | awk '$3 == "stormexec"' | grep -c .)
is "$execd" $((N / 4)) "the $((N / 4)) children that exec'd are named after their new program"
forked=$(printf '%s\n' "$rows" | awk '$3 == "forkstorm" && $2 != "-" && $5 < 1')
is "$forked" "" "each child that did not exec has its hits in the program's code (Attributed)"

kprofile report -i storm.data --json >storm.json 2>&1
total=$(json storm.json sources.0.total)
sum=$(printf '%s\n' "$rows" | awk '{ s += $4 } END { print s + 0 }')
is "$sum" "$total" "the processes' hits add up to the report's total"
k=$(printf '%s\n' "$kids" | sed -n 4p)
kprofile report -i storm.data --pid "$k" --json >kid.json 2>&1
want=$(printf '%s\n' "$rows" | awk -v p="$k" '$1 == p { print $4 }')
is "$(json kid.json sources.0.total)" "$want" "report --pid of an exec'd child: its Hits"
diag "$(printf '%s\n' "$procs" | head -n 6)"
diag "attributed in the exec'd children: $(printf '%s\n' "$rows" | awk '$3 == "stormexec" { h += $4; a += $5 } END { print a + 0 " of " h + 0 }')"
