#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 55-kprofile-ratios: report --objects' sources side by side (kernrate's ratios per module and symbol, CPI) agree with perf
# stat's counts of the same run's events.  "kprofile record --user -b 2
# -s instructions,branches -- loop N" (4-byte buckets: loop() shares none
# with _start) gives loop() a BranchInstructions /
# TotalIssues ratio of 1 / LOOP_INSNS, as perf stat's branches:u /
# instructions:u; on Intel, where the emulator counts cycles, the CPI
# column of -s instructions,cycles is perf's cycles:u / instructions:u.
# Within 2 %: a ratio of sampled hits (hits x interval) is exact to a
# hit or so of each source, a few hundred hits here.
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
need_tool "report --objects' ratios against perf stat"
plan 4

n=10000000 iv=16384
set_sysctl kernel.nmi_watchdog 0
cd /tmp || exit 1

# column FILE TABLE OBJECT SYMBOL LABEL: the LABEL column of SYMBOL's row
# in report --objects' side-by-side TABLE ("object" or "symbol").
column() {
	awk -v t="per $2" -v o="$3" -v s="$4" -v l="$5" '
		/^# Sources side by side/ { on = index($0, t) > 0; next }
		on && /^# Object/ { for (i = 2; i <= NF; i++) if ($i == l) c = i - 1; next }
		on && $1 == o && (s == "" || $2 == s) && c { print $c; exit }' "$1"
}
# ratio_ok LABEL KP PERF: KP within 2 % of PERF (decimal ratios).
ratio_ok() {
	if awk -v k="$2" -v p="$3" 'BEGIN { d = k - p; if (d < 0) d = -d; exit !(k != "" && p > 0 && d <= 0.02 * p) }'; then
		ok "$1: kprofile $2, perf $3"
	else
		not_ok "$1" "kprofile '$2', perf '$3'"
	fi
}
# perf_ratio A B: A / B of /tmp/pstat.csv's counts.
perf_ratio() {
	a=$(pcount "$1") b=$(pcount "$2")
	if is_num "$a" && is_num "$b" && [ "$b" -gt 0 ]; then
		awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }'
	fi
}

kprofile record --user -b 2 -s instructions,branches -i $iv -o br.data -- loop $n >br.out 2>&1
is "$?" 0 "record --user -s instructions,branches -- loop $n exits 0" || diag "$(cat br.out)"
kprofile report -i br.data --objects >br.txt 2>&1 || diag "$(cat br.txt)"
kp=$(column br.txt symbol loop loop BranchInstructions/TotalIssues)
pstat instructions:u,branches:u loop $n || stat_diag
ratio_ok "branches per instruction in loop(), side by side per symbol" "$kp" \
	"$(perf_ratio branches:u instructions:u)"
kp=$(column br.txt object loop "" BranchInstructions/TotalIssues)
ratio_ok "... and per object" "$kp" "$(perf_ratio branches:u instructions:u)"

if [ "$KP_PMU_MODEL" = intel ]; then
	kprofile record --user -b 2 -s instructions,cycles -i $iv -o cpi.data -- loop $n >cpi.out 2>&1 ||
		diag "$(cat cpi.out)"
	kprofile report -i cpi.data --objects >cpi.txt 2>&1 || diag "$(cat cpi.txt)"
	pstat instructions:u,cycles:u loop $n || stat_diag
	ratio_ok "CPI of loop(), as perf's cycles:u / instructions:u" \
		"$(column cpi.txt symbol loop loop CPI)" "$(perf_ratio cycles:u instructions:u)"
else
	skip "CPI of loop()" "the emulator counts no cycles on $KP_PMU_MODEL (51-kprofile-stat)"
fi
[ -s br.txt ] && diag "$(sed -n '/side by side, per symbol/,$p' br.txt | head -n 6)"
restore_sysctls
