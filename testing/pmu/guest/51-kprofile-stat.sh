#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 51-kprofile-stat: kprofile stat counts what perf stat counts.  For each source the emulator counts (instructions, cycles,
# branches: every Emon or Amd64 source mapped to them), "kprofile stat -x,
# -s SOURCE:u -- loop N" and "perf stat -x, -e EVENT:u -- loop N" agree
# within 0.5 %, and so do both privilege levels (SOURCE, EVENT).  The user
# counts of a program are exact under -icount: they must be equal.  The
# NMI watchdog is off meanwhile (it holds perf's counters, and kprofile
# refuses them while perf holds them: 53-kprofile-coexist).
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
need_tool "kprofile stat against perf stat"

n=3000000
# "SOURCE EVENT" pairs: kprofile's table rows whose select the emulator
# counts, and perf's event for the same select.
case $KP_PMU_MODEL in
intel)
	pairs="TotalIssues:instructions InstructionRetired:instructions
TotalCycles:cycles UnhaltedCoreCycles:cycles
BranchInstructions:branches BranchInstructionRetired:branches"
	;;
*)
	pairs="TotalIssues:instructions BranchInstructions:branches"
	;;
esac
npairs=$(echo $pairs | wc -w)
plan $((npairs * 3))

set_sysctl kernel.nmi_watchdog 0

# kstat SOURCES: kprofile stat -x, of loop $n into /tmp/kstat.csv.
kstat() {
	rm -f /tmp/kstat.csv
	kprofile stat -x, -o /tmp/kstat.csv -s "$1" -- loop $n >/tmp/kstat.out 2>&1
}
# kcount NAME: its count in /tmp/kstat.csv.
kcount() {
	awk -F, -v e="$1" '$3 == e { print $1; exit }' /tmp/kstat.csv 2>/dev/null
}
kstat_diag() {
	diag "kprofile stat output: $(cat /tmp/kstat.csv /tmp/kstat.out 2>/dev/null)"
}

# close_enough A B: |A - B| <= 0.5 % of B.
close_enough() {
	_d=$(($1 - $2))
	[ $_d -lt 0 ] && _d=$((-_d))
	[ $((_d * 1000)) -le $((5 * $2)) ]
}

# One kprofile stat per privilege level with every source (at most 4 GP
# counters: two runs on Intel), one perf stat with every event.
sources_of() { # SUFFIX
	for p in $pairs; do printf '%s%s\n' "${p%%:*}" "$1"; done
}
events_of() {
	for p in $pairs; do printf '%s%s\n' "${p#*:}" "$1"; done | sort -u
}
for lvl in u both; do
	if [ $lvl = u ]; then sfx=:u; else sfx=; fi
	perf_ev=$(events_of "$sfx" | paste -sd, -)
	pstat "$perf_ev" loop $n || stat_diag
	cp /tmp/pstat.csv /tmp/pstat-$lvl.csv
	: >/tmp/kstat-$lvl.csv
	set -- $(sources_of "$sfx")
	while [ $# -gt 0 ]; do
		batch=$1
		shift
		i=1
		while [ $# -gt 0 ] && [ $i -lt 3 ]; do
			batch=$batch,$1
			shift
			i=$((i + 1))
		done
		kstat "$batch" || kstat_diag
		cat /tmp/kstat.csv >>/tmp/kstat-$lvl.csv
	done
done

# The user counts are exact: the same as perf's, to the instruction.
for p in $pairs; do
	src=${p%%:*} ev=${p#*:}
	cp /tmp/kstat-u.csv /tmp/kstat.csv
	cp /tmp/pstat-u.csv /tmp/pstat.csv
	k=$(kcount "Profile$src:u") q=$(pcount "$ev:u")
	if is_num "$k" && is_num "$q" && [ "$q" -gt 0 ]; then
		if close_enough "$k" "$q"; then
			ok "Profile$src:u is $ev:u within 0.5 % ($k, $q)"
		else
			not_ok "Profile$src:u is $ev:u within 0.5 %" "kprofile $k, perf $q"
		fi
		is "$k" "$q" "Profile$src:u is exactly $ev:u (user counts are exact under -icount)"
	else
		kstat_diag
		stat_diag
		not_ok "Profile$src:u is $ev:u within 0.5 %" "kprofile '$k', perf '$q'"
		not_ok "Profile$src:u is exactly $ev:u" "no count"
	fi
	cp /tmp/kstat-both.csv /tmp/kstat.csv
	cp /tmp/pstat-both.csv /tmp/pstat.csv
	k=$(kcount "Profile$src") q=$(pcount "$ev")
	if is_num "$k" && is_num "$q" && [ "$q" -gt 0 ]; then
		if close_enough "$k" "$q"; then
			ok "Profile$src (user and kernel) is $ev within 0.5 % ($k, $q)"
		else
			not_ok "Profile$src (user and kernel) is $ev within 0.5 %" \
				"kprofile $k, perf $q: $((k - q)) more"
		fi
	else
		kstat_diag
		stat_diag
		not_ok "Profile$src (user and kernel) is $ev within 0.5 %" "kprofile '$k', perf '$q'"
	fi
done

restore_sysctls
