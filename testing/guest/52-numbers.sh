#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 52-numbers: numbers that must agree: a recording of several
# concurrent children, short-lived and exec'ing ones among them, loses no
# bucket buffer and its record summary, report header and --processes
# table add up to the hit; record -a shows a bucket shared by several
# kernel symbols as one row, never a share invented for each; record -p
# follows neither the target's older children nor record itself;
# `interval SOURCE 0` is refused, `interval SOURCE default` restores the
# default, and record says when -F is clamped; top on a terminal ncurses
# cannot drive falls back to batch output and leaves no command behind.
. "$KP_GUEST/lib.sh"

if ! have_tool; then
	plan 1
	skip "numbers that must agree" "tool not built"
	exit 0
fi
plan 22
cd /tmp || exit 1


# 1. Several concurrent children: two long ones, a loop of short-lived
# ones, two that exec (one at once, one after running a while).  Every
# child that exits frees its bucket buffers while the others' still run.
kids='spin 3 & hotcold 3 & (for i in 1 2 3 4 5 6; do spin 0.3; done) &
sh -c "exec spin 2" & sh -c "hotcold 0.3; exec spin 1.5" & wait'
kprofile record -o kids.data -- sh -c "$kids" >kids.out 2>kids.err
is "$?" 0 "several children: record exits 0"
# (the warning was "a bucket buffer's mapping went away ..."; now it
# says how many hits were not counted)
if grep -Eq "mapping went away|hits were not counted" kids.err; then
	not_ok "several children: no bucket buffer is lost" "$(cat kids.err)"
else
	ok "several children: no bucket buffer is lost"
fi
summary=$(sed -n 's/^\[ kprofile record: \([0-9]*\) hits in .*/\1/p' kids.err)
kprofile report -i kids.data --json >kids.json 2>&1
header=$(json kids.json sources.0.total)
is "$header" "$summary" "several children: report's total is record's summary ($summary hits)"
attributed=$(json kids.json sources.0.attributed)
if [ -n "$attributed" ] && [ -n "$header" ] && [ "$attributed" -le "$header" ]; then
	ok "several children: attributed ($attributed) <= total ($header)"
else
	not_ok "several children: attributed <= total" "attributed '$attributed', total '$header'"
fi
procs=$(kprofile report -i kids.data --processes -n 1 2>&1)
# The table's rows: PID PPID Command Hits Attributed.
rows=$(printf '%s\n' "$procs" | awk '$1 ~ /^[0-9]+$/ && NF == 5')
n=$(printf '%s\n' "$rows" | grep -c .)
if [ "$n" -ge 9 ]; then
	ok "several children: sh and its children are in the table ($n processes)"
else
	not_ok "several children: sh and its children are in the table" "$procs"
fi
sum=$(printf '%s\n' "$rows" | awk '{ s += $4 } END { print s + 0 }')
is "$sum" "$header" "several children: the processes' Hits add up to the report's total"
bad=$(printf '%s\n' "$rows" | awk '$5 > $4')
if [ -z "$bad" ]; then
	ok "several children: no process has more Attributed than Hits"
else
	not_ok "several children: no process has more Attributed than Hits" "$procs"
fi
# Each process's own report has the same total as its row.
mism=
for p in $(printf '%s\n' "$rows" | awk '{ print $1 }'); do
	kprofile report -i kids.data --pid "$p" --json >kid.json 2>&1
	want=$(printf '%s\n' "$rows" | awk -v p="$p" '$1 == p { print $4 }')
	got=$(json kid.json sources.0.total)
	[ "$got" = "$want" ] || mism="$mism pid $p: report --pid $got, --processes $want;"
done
is "$mism" "" "several children: report --pid's total is the process's Hits"

# 2. record -a: kallsyms gives no sizes; a kernel bucket over several
# symbols is one row naming them ("a | b"), never split into guessed
# shares (fractional hits) that invent a hotspot.
check "record -a --duration 2 exits 0" kprofile record -a --duration 2 -o idle.data
kprofile report -i idle.data --json >idle.json 2>&1
check "record -a: report --json parses" kp-json idle.json
frac=$(grep -E '"hits": [0-9]+\.[0-9]*[1-9]' idle.json | head -n 3)
if [ -z "$frac" ]; then
	ok "record -a: no row has an invented share of a bucket (every row's hits are whole)"
else
	not_ok "record -a: no row has an invented share of a bucket" \
		"$frac $(kprofile report -i idle.data -n 8 2>&1)"
fi
top=$(kprofile report -i idle.data -n 3 2>&1)
diag "record -a, idle: $top"

# 3. record -p: the target's threads and the children it starts; not the
# children it had, and never kprofile itself (a child of this shell).
spin 4 >/dev/null &
old=$!
kprofile record -p $$ --duration 1 -o self.data >self.out 2>self.err
is "$?" 0 "record -p \$\$ (the test's shell) exits 0"
procs=$(kprofile report -i self.data --processes -n 1 2>&1)
if printf '%s\n' "$procs" | awk '$1 ~ /^[0-9]+$/ && $3 == "kprofile"' | grep -q .; then
	not_ok "record -p never profiles kprofile itself" "$procs"
else
	ok "record -p never profiles kprofile itself"
fi
if printf '%s\n' "$procs" | awk -v p="$old" '$1 == p' | grep -q .; then
	not_ok "record -p does not follow the children the target had already" "$procs"
else
	ok "record -p does not follow the children the target had already"
fi
kill "$old" 2>/dev/null
wait "$old" 2>/dev/null

# 4. Intervals: 0 is refused (it used to set the minimum machine-wide),
# `default` restores the default, and a clamped -F is said.
def=$(kprofile interval time --json | sed -n 's/.*"default_interval": \([0-9]*\).*/\1/p')
check_fails "interval time 0 is refused" kprofile interval time 0
is "$(kprofile interval time --json | sed -n 's/.*"interval": \([0-9]*\).*/\1/p')" "$def" \
	"after interval time 0, the interval is still the default"
kprofile interval time 500 >/dev/null 2>&1
check "interval time default exits 0" kprofile interval time default
is "$(kprofile interval time --json | sed -n 's/.*"interval": \([0-9]*\).*/\1/p')" "$def" \
	"interval time default restores the default ($def)"
kprofile interval time "$def" >/dev/null 2>&1
out=$(kprofile record -F 100000 -o fast.data -- spin 0.3 2>&1 >/dev/null)
like "$out" "-F 100000: ProfileTime's interval is clamped to its minimum" \
	"record -F 100000 says it was clamped"

# 6. top on a terminal without a terminfo entry: initscr() used to exit
# ("Error opening terminal"), leaving the command running unprofiled.
# /dev/console is a terminal; TERM names no terminfo entry.
running() {
	for f in /proc/[0-9]*/cmdline; do tr '\0' ' ' <"$f" 2>/dev/null; echo; done |
		grep -c "^spin 30 "
}
TERM=kp-no-such-term kprofile top -n 1 -d 1 -- spin 30 >/dev/console 2>top.err
is "$?" 0 "top where ncurses cannot start exits 0"
like "$(cat top.err)" "cannot drive this terminal.*--batch" "and says it printed --batch refreshes"
is "$(running)" 0 "and leaves no command it started running"
pkill_spin=$(for f in /proc/[0-9]*/cmdline; do tr '\0' ' ' <"$f" 2>/dev/null | grep -q "^spin 30 " && basename "$(dirname "$f")"; done)
[ -z "$pkill_spin" ] || kill $pkill_spin 2>/dev/null
