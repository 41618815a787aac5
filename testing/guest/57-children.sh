#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 57-children: record follows every child from the kernel's records (the
# stream's FORK/EXEC/EXIT): `forkstorm` starts 300 children one
# after another, each living under a millisecond (0.5 ms of CPU time, a
# fourth of them after an exec under another name), at -F 8000 (0.122 ms).
# Every child must be in the process table (none missed), and its Hits
# must be exactly the interrupts the kernel recorded for it: record -g
# keeps the same stream's sample records in the file, and `kprofile
# script` lists them, one line per sample with its pid.  (Whether a given
# child is interrupted at all depends on the guest's timers; that each
# one's interrupts are all its own, and none lost, does not.)
. "$KP_GUEST/lib.sh"

if ! have_tool; then
	plan 1
	skip "children" "tool not built"
	exit 0
fi
plan 9
cd /tmp || exit 1


# 300, not the issue's 1,000: 1,000 took 224 s of the debug
# kernel's layer at load, and polling /proc every 20 ms missed most of
# 300 as surely.
N=300
ln -sf "$(command -v forkstorm)" /tmp/stormexec
kprofile record -g -F 8000 -o storm.data -- forkstorm $N 500 /tmp/stormexec \
	>storm.out 2>storm.err
is "$?" 0 "forkstorm: record exits 0"
if grep -Eq "were lost|lost [1-9]" storm.err; then
	not_ok "forkstorm: no record of the stream was lost" "$(cat storm.err)"
else
	ok "forkstorm: no record of the stream was lost"
fi
kids=$(sed -n 's/^child=\([0-9]*\) exec=[01]$/\1/p' storm.out)
is "$(printf '%s\n' "$kids" | grep -c .)" $N "forkstorm started $N children"

procs=$(kprofile report -i storm.data --processes -n 1 2>&1)
# PID PPID Command Hits Attributed
rows=$(printf '%s\n' "$procs" | awk '$1 ~ /^[0-9]+$/ && NF == 5')
# The kernel's sample records per pid: a sample's first line is
# "comm pid/tid [cpu] secs: ...", its frames are indented.
kprofile script -i storm.data >storm.script 2>/dev/null
printf '%s\n' "$rows" | awk '{ print "row", $1, $4 }' >storm.join
awk '/^[^ \t]/ { split($2, a, "/"); if (a[1] ~ /^[0-9]+$/) n[a[1]]++ }
	END { for (p in n) print "samples", p, n[p] }' storm.script >>storm.join
for k in $kids; do echo "kid $k"; done >>storm.join
bad=$(awk '$1 == "row" { row[$2] = 1; hits[$2] = $3 }
	$1 == "samples" { s[$2] = $3 }
	$1 == "kid" { kid[$2] = 1 }
	END {
		for (k in kid) {
			if (!(k in row)) { printf "%s: not in the table; ", k; continue }
			if (hits[k] != s[k] + 0)
				printf "%s: %s hits, %s samples; ", k, hits[k], s[k] + 0
		}
	}' storm.join)
missing=$(printf '%s' "$bad" | grep -o "not in the table" | head -n 1)
is "$missing" "" "every child is in the process table"
is "$bad" "" "every child's Hits are exactly its samples in the kernel's records"
with=$(awk '$1 == "samples" { s[$2] = $3 } $1 == "kid" { if (s[$2] > 0) n++ } END { print n + 0 }' storm.join)
if [ "$with" -gt 0 ]; then
	ok "children were interrupted ($with of $N)"
else
	not_ok "children were interrupted" "no child has a sample: $(head -n 20 storm.script)"
fi
execd=$(printf '%s\n' "$rows" | awk '$3 == "stormexec"' | grep -c .)
is "$execd" $((N / 4)) "the $((N / 4)) children that exec'd are named after their new program"
unattr=$(printf '%s\n' "$rows" | awk '$3 == "forkstorm" && $2 != "-" { h += $4; a += $5 } END { print h - a }')
is "$unattr" 0 "the children that did not exec have every hit in the program's code or the kernel (Attributed)"

kprofile report -i storm.data --buckets --json >storm.json 2>&1
total=$(json storm.json sources.0.total)
sum=$(printf '%s\n' "$rows" | awk '{ s += $4 } END { print s + 0 }')
is "$sum" "$total" "the processes' hits add up to the report's total"
diag "$(printf '%s\n' "$procs" | head -n 6)"
diag "attributed in the exec'd children: $(printf '%s\n' "$rows" | awk '$3 == "stormexec" { h += $4; a += $5 } END { print a + 0 " of " h + 0 }')"
