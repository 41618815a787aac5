#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 20-stat: perf stat counts exactly.  Under -icount shift=0 an
# instruction count is a pure function of the program, so "loop N" must
# give LOOP_INSNS * N + c user instructions and N + c' branches with the
# same c and c' for every N; the kernel's instructions must not grow with
# the user loop; and one instruction takes one cycle (IPC 1.00).
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
plan 8

# Two lengths with as many digits: loop's argument parsing is the same.
n1=1000000 n2=3000000

pstat instructions:u,branches:u loop $n1 || stat_diag
i1=$(pcount instructions:u) b1=$(pcount branches:u)
pstat instructions:u,branches:u loop $n2 || stat_diag
i2=$(pcount instructions:u) b2=$(pcount branches:u)
pstat instructions:u loop $n1 || stat_diag
i1b=$(pcount instructions:u)

if is_num "$i1" && is_num "$i2" && is_num "$i1b"; then
	ok "instructions:u counts loop $n1 and loop $n2 ($i1, $i2)"
	c1=$((i1 - LOOP_INSNS * n1)) c2=$((i2 - LOOP_INSNS * n2))
	diag "instructions:u = $LOOP_INSNS * N + c: c = $c1 for N = $n1, $c2 for N = $n2"
	is "$c2" "$c1" "instructions:u is exactly $LOOP_INSNS * N + c, the same c for both N"
	if [ "$c1" -ge 0 ] && [ "$c1" -lt 1000 ]; then
		ok "c, the start-up's instructions, is small ($c1)"
	else
		not_ok "c, the start-up's instructions, is small" "c = $c1"
	fi
	is "$i1b" "$i1" "two runs of loop $n1 count the same"
else
	stat_diag
	not_ok "instructions:u counts loop $n1 and loop $n2" "got '$i1', '$i2', '$i1b'"
	for t in "instructions:u is exactly $LOOP_INSNS * N + c" "c is small" "two runs count the same"; do
		not_ok "$t" "no count"
	done
fi

if is_num "$b1" && is_num "$b2"; then
	c1=$((b1 - n1)) c2=$((b2 - n2))
	diag "branches:u = N + c': c' = $c1 for N = $n1, $c2 for N = $n2"
	is "$c2" "$c1" "branches:u is exactly N + c', the same c' for both N"
	if [ "$c1" -ge 0 ] && [ "$c1" -lt 100 ]; then
		ok "c', the start-up's branches, is small ($c1)"
	else
		not_ok "c', the start-up's branches, is small" "c' = $c1"
	fi
else
	not_ok "branches:u is exactly N + c'" "got '$b1', '$b2'"
	not_ok "c' is small" "no count"
fi

# The kernel's share: exec, page faults, exit and whatever interrupts
# arrive meanwhile (more timer ticks for the longer loop), never the
# loop itself: the difference stays far below the loop's.
pstat instructions:k loop $n1 || stat_diag
k1=$(pcount instructions:k)
pstat instructions:k loop $n2 || stat_diag
k2=$(pcount instructions:k)
grow=$((LOOP_INSNS * (n2 - n1)))
if is_num "$k1" && is_num "$k2" && [ "$k1" -gt 0 ]; then
	d=$((k2 - k1))
	[ $d -lt 0 ] && d=$((-d))
	diag "instructions:k: $k1 for N = $n1, $k2 for N = $n2 (the loop adds $grow user instructions)"
	if [ $((d * 10)) -lt $grow ]; then
		ok "instructions:k does not grow with the user loop ($k1, $k2)"
	else
		not_ok "instructions:k does not grow with the user loop" \
			"$k1 -> $k2: grew by $d for $grow more user instructions"
	fi
else
	stat_diag
	not_ok "instructions:k does not grow with the user loop" "got '$k1', '$k2'"
fi

pstat cycles:u,instructions:u loop $n2 || stat_diag
cy=$(pcount cycles:u) in=$(pcount instructions:u)
if is_num "$cy" && is_num "$in" && [ "$cy" -gt 0 ]; then
	ipc=$((in * 1000 / cy))
	diag "cycles:u $cy, instructions:u $in: IPC $((ipc / 1000)).$(printf %03d $((ipc % 1000)))"
	if [ $ipc -ge 970 ] && [ $ipc -le 1030 ]; then
		ok "cycles:u is instructions:u within 3% (IPC 1.00 under -icount shift=0)"
	else
		not_ok "cycles:u is instructions:u within 3% (IPC 1.00 under -icount shift=0)" \
			"cycles $cy, instructions $in"
	fi
else
	stat_diag
	not_ok "cycles:u is instructions:u within 3%" "got '$cy', '$in'"
fi
