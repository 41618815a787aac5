#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 52-kprofile-record: kprofile's counter sampling agrees with perf's (issue
# 21, items 3 and 6).  "kprofile record -s ProfileTotalIssues -i P" and
# "perf record -e instructions -c P" of fivefn (five functions with 40,
# 25, 17, 11 and 7 % of the instructions) rank the same top five symbols
# with shares within 2 points; kprofile takes (counted instructions) / P
# samples: within 0.5 % in user mode (--user, :u), within 2 %
# in both (below).  Every NMI is kprofile's (the NMI watchdog is off,
# perf idle): under -a the NMI line grows by the hits, the stream loses
# nothing, and no NMI is "for unknown reason".  record -g with a counter
# source gives the call stacks (callers: main;caller_a;kp_leaf).
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
need_tool "kprofile record against perf record"
plan 15

# A round of fivefn is 4,000,000 instructions: a period that divides it
# samples the same phase of every round (perf and kprofile then differ by
# where the first period began); 77,777 drifts through the round.
rounds=25 period=77777
set_sysctl kernel.nmi_watchdog 0
set_sysctl kernel.perf_cpu_time_max_percent 0
cd /tmp || exit 1
dmesg0=$(dmesg | wc -l)

# top5 FILE: "symbol hits" lines of the five largest, largest first.
top5() { sort -k2 -n -r "$1" | head -n 5; }
# share FILE SYM: SYM's hits in per mille of FILE's total.
share() {
	awk -v s="$2" '{ t += $2 } $1 == s { h = $2 } END { if (t) printf "%d", h * 1000 / t; else print 0 }' "$1"
}
# perf_syms DATA OUT: perf's samples per symbol.
perf_syms() {
	perf script -i "$1" -F ip,sym 2>/dev/null |
		awk '{ s = NF > 1 ? $2 : "[unknown]"; n[s]++ } END { for (k in n) print k, n[k] }' >"$2"
}
# kp_syms DATA OUT: kprofile's hits per symbol (report --format csv).
kp_syms() {
	kprofile report -i "$1" --format csv 2>/dev/null |
		awk -F, 'NR > 1 { n[$8] += $3 } END { for (k in n) print k, n[k] }' >"$2"
}

# compare LABEL PERF KP: the same top five, and shares within 2 points.
compare() {
	p5=$(top5 "$2" | awk '{ print $1 }' | paste -sd' ' -)
	k5=$(top5 "$3" | awk '{ print $1 }' | paste -sd' ' -)
	is "$k5" "$p5" "$1: kprofile's top five symbols are perf's, in order"
	worst=0 why=
	for s in $p5; do
		a=$(share "$2" "$s") b=$(share "$3" "$s")
		d=$((a - b))
		[ $d -lt 0 ] && d=$((-d))
		[ $d -gt $worst ] && worst=$d
		why="$why $s: perf $a, kprofile $b per mille;"
	done
	if [ -n "$p5" ] && [ $worst -le 20 ]; then
		ok "$1: each top-five share within 2 points of perf's (worst $worst per mille)"
	else
		not_ok "$1: each top-five share within 2 points of perf's" "$why"
	fi
}

# samples_match LABEL GOT COUNT: GOT is COUNT / period within 0.5 % (the
# issue asks for 1 %; a user-mode period that also spanned the PMI
# handler's kernel instructions took 1.2 % too many at this period; the
# counter also counts the tool's own user instructions, which shift
# where fivefn's periods end by a few samples).
samples_match() {
	want=$(($3 / period))
	d=$(($2 - want))
	[ $d -lt 0 ] && d=$((-d))
	if is_num "$2" && [ "$want" -gt 0 ] && [ $((d * 200)) -le "$want" ]; then
		ok "$1: $2 samples, $3 / $period = $want within 0.5 %"
	else
		not_ok "$1: samples are the counted instructions / $period within 0.5 %" \
			"got '$2', want $want ($3 instructions)"
	fi
}

for lvl in user both; do
	if [ $lvl = user ]; then ev=instructions:u kopt=--user; else ev=instructions kopt=; fi
	pstat $ev fivefn $rounds || stat_diag
	total=$(pcount $ev)
	perf record -q -e $ev -c $period -o p-$lvl.data fivefn $rounds >/dev/null 2>&1 ||
		diag "perf record -e $ev failed"
	perf_syms p-$lvl.data p-$lvl.syms
	nmi0=$(irq_sum NMI)
	# shellcheck disable=SC2086 # kopt: no option or one
	if kprofile record $kopt -s ProfileTotalIssues -i $period -o k-$lvl.data \
		-- fivefn $rounds >k-$lvl.out 2>&1; then
		ok "kprofile record $kopt -s ProfileTotalIssues -i $period -- fivefn $rounds"
	else
		not_ok "kprofile record $kopt -s ProfileTotalIssues -i $period" "$(cat k-$lvl.out)"
	fi
	nmi1=$(irq_sum NMI)
	kp_syms k-$lvl.data k-$lvl.syms
	hits=$(awk '{ t += $2 } END { print t + 0 }' k-$lvl.syms)
	diag "$lvl: perf stat $ev $total; perf record: $(top5 p-$lvl.syms | paste -sd, -); kprofile: $(top5 k-$lvl.syms | paste -sd, -)"
	if [ $lvl = user ]; then
		samples_match "$lvl" "$hits" "$total"
	else
		# Both modes: within 2 %, not the issue's 1 %: record counts
		# the command from its fork (the held child's exec, the
		# teardown of the tool's address space: 0.6-1.0 % here),
		# perf from inside its exec; stat has START_ON_EXEC, record
		# not yet.  perf record itself is no reference:
		# on AMD its period spans its own PMI handler (+2.9 %).
		psamples=$(awk '{ t += $2 } END { print t + 0 }' p-$lvl.syms)
		want=$((total / period))
		d=$((hits - want))
		[ $d -lt 0 ] && d=$((-d))
		diag "both: kprofile $hits, perf stat / period $want, perf record $psamples"
		if is_num "$hits" && [ "$want" -gt 0 ] && [ $((d * 50)) -le "$want" ]; then
			ok "both: $hits samples, $total / $period = $want within 2 %"
		else
			not_ok "both: samples are the counted instructions / $period within 2 %" \
				"got '$hits', want $want"
		fi
	fi
	compare "$lvl" p-$lvl.syms k-$lvl.syms
	if [ $lvl = user ]; then
		# Only kprofile's counter raises PMIs now; it counts every
		# task's user mode, and only fivefn runs much of it: every
		# NMI is a hit of fivefn's profile, or one in the tool's own
		# user code, which the tool does not profile.  Since record
		# reads each sample record of the stream it always runs (no
		# /proc polling), that is some 2,000 user instructions a
		# sample: 31 NMIs of 1,317 at this period (2.4 %) on
		# 2026-11-27, 3 before.  So at most 5 % more NMIs than hits,
		# never fewer.
		d=$((nmi1 - nmi0))
		diag "NMI: $nmi0 -> $nmi1 ($d) for $hits hits"
		if [ "$d" -ge "$hits" ] && [ $((d - hits)) -le $((hits / 20 + 2)) ]; then
			ok "user: the NMIs are fivefn's hits and a few in the tool ($d NMIs, $hits hits)"
		else
			not_ok "user: the NMIs are fivefn's hits and a few in the tool" "$d NMIs, $hits hits"
		fi
	fi
done

# Every task (-a: the counter counts every task's user mode, and a task
# record does not follow is not a sample): the buckets' catch-alls see
# every PMI from the first arm to the last disarm, so the NMI line grows
# by exactly their hits; the stream's samples, plus those it reports
# lost, are those hits but for its own start and stop (published after
# the profiles armed the counter, unpublished before they disarm).
nmi0=$(irq_sum NMI)
kprofile record -a -g --user -s ProfileTotalIssues -i $period -o g.data -- fivefn $rounds >g.out 2>&1 ||
	diag "record -g: $(cat g.out)"
nmi1=$(irq_sum NMI)
h=$(sed -n 's/.* \([0-9][0-9]*\) hits in .*/\1/p' g.out | head -n1)
s=$(sed -n 's/.* \([0-9][0-9]*\) samples (.* \([0-9][0-9]*\) lost.*/\1 \2/p' g.out)
samples=${s% *} lost=${s#* }
# The other mode: a user-mode counter whose overflow is taken at the
# instruction that enters the kernel (a syscall) interrupts in kernel
# mode; the --user catch-all counts it as wrong_mode, not as a hit, and
# report says how many (other_mode).  7.2's one NMI more than hits in
# one make check run of four (1,338 for 1,337) was that.
other_mode() { kprofile report -i "$1" --json 2>/dev/null >"$1.json"; kp-json "$1.json" sources.0.other_mode; }
o=$(other_mode g.data)
diag "record -a -g: $(grep 'hits\|samples' g.out | tr '\n' ' '); NMI $nmi0 -> $nmi1; other mode $o"
if is_num "$h" && is_num "$samples" && is_num "$lost" && is_num "$o"; then
	dn=$((nmi1 - nmi0))
	if [ "$dn" = $((h + o)) ]; then
		ok "record -a -g: the NMI line grew by its hits and its other-mode interrupts ($dn NMIs, $h hits, $o)"
	else
		not_ok "record -a -g: the NMI line grew by its hits and its other-mode interrupts" "$dn NMIs, $h hits, $o other mode"
	fi
	is "$lost" 0 "record -a -g: no sample lost"
	d=$((h - samples - lost))
	if [ $d -ge 0 ] && [ $((d * 100)) -le "$h" ]; then
		ok "record -a -g: samples + lost are the hits within 1 % ($samples + $lost of $h)"
	else
		not_ok "record -a -g: samples + lost are the hits within 1 %" "$samples + $lost of $h"
	fi
else
	not_ok "record -a -g: the NMI line grew by its hits and its other-mode interrupts" "no summary: $(cat g.out); other mode '$o'"
	not_ok "record -a -g: no sample lost" "no summary"
	not_ok "record -a -g: samples + lost are the hits within 1 %" "no summary"
fi
kprofile record -g -s ProfileTotalIssues -i $period -o c.data -- callers 1 >c.out 2>&1 ||
	diag "record -g callers: $(cat c.out)"
kprofile report -i c.data --format folded >c.folded 2>&1
like "$(cat c.folded)" 'main;caller_a;kp_leaf [0-9]+' \
	"record -g -s ProfileTotalIssues: call stacks main;caller_a;kp_leaf"

# A program that enters the kernel all the time (dd, a byte a read and a
# write): some of its user-mode overflows are taken in kernel mode, and
# still every NMI is a hit or one of those.
nmi0=$(irq_sum NMI)
kprofile record -a --user -s ProfileTotalIssues -i 7777 -o dd.data -- \
	dd if=/dev/zero of=/dev/null bs=1 count=20000 >dd.out 2>&1 || diag "record dd: $(cat dd.out)"
nmi1=$(irq_sum NMI)
h=$(sed -n 's/.* \([0-9][0-9]*\) hits in .*/\1/p' dd.out | head -n1)
o=$(other_mode dd.data)
diag "record -a --user dd: $h hits, $o in the other mode, NMI $nmi0 -> $nmi1"
if is_num "$h" && is_num "$o" && [ "$o" -gt 0 ] && [ $((nmi1 - nmi0)) = $((h + o)) ]; then
	ok "a syscall-heavy program: NMIs = hits + other-mode interrupts ($((nmi1 - nmi0)) = $h + $o)"
else
	not_ok "a syscall-heavy program: NMIs = hits + other-mode interrupts, some" \
		"$((nmi1 - nmi0)) NMIs, '$h' hits, '$o' other mode"
fi

new=$(dmesg | tail -n +$((dmesg0 + 1)))
if printf '%s\n' "$new" | grep -qi 'unknown reason\|uhhuh\|dazed'; then
	not_ok "no NMI for unknown reason" "$(printf '%s\n' "$new" | grep -i -A2 'unknown reason\|uhhuh' | head)"
else
	ok "no NMI for unknown reason"
fi
restore_sysctls
