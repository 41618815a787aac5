#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 50-record: `kprofile record` and `kprofile report` with ProfileTime on
# programs whose hot function is known: in a static executable (spin), in
# a PIE C++ executable and in a shared library (spin-lib), a running
# process (-p), the whole system (-a, naming the busy process), the
# children a command starts, module code, safe setup, and `top --batch`.
. "$KP_GUEST/lib.sh"

if ! have_tool; then
	plan 1
	skip "kprofile record/report" "tool not built"
	exit 0
fi
plan 94
cd /tmp || exit 1

# over PCT MIN: PCT > MIN (decimals).
over() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'; }

# A recording, its JSON report, and checks that the hottest row is
# SYMBOL in OBJECT with more than half of the hits.
# expect_top NAME DATA SYMBOL OBJECT
expect_top() {
	kprofile report -i "$2" --json >"$2.json" 2>"$2.err"
	check "$1: report --json parses" kp-json "$2.json"
	is "$(json "$2.json" rows.0.symbol)" "$3" "$1: the top symbol is $3"
	is "$(json "$2.json" rows.0.object)" "$4" "$1: in $4"
	pct=$(json "$2.json" rows.0.overhead)
	if over "$pct" 50; then
		ok "$1: $3 has most of the hits ($pct%)"
	else
		not_ok "$1: $3 has most of the hits" "overhead $pct%: $(kprofile report -i "$2" 2>&1 | head -n 20)"
	fi
}

# 1. The static executable (rig's spin: kp_spin_hot in its own section).
check "record -- spin 3 exits 0" kprofile record -o spin.data -- spin 3
expect_top "spin" spin.data kp_spin_hot spin
table=$(kprofile report -i spin.data 2>&1)
like "$table" "Overhead +Hits +Source +Object +Symbol" "the table has perf's columns"
first=$(printf '%s\n' "$table" | grep -v '^#' | grep -v '^$' | head -n1)
like "$first" "ProfileTime +spin +kp_spin_hot" "the table's first row is kp_spin_hot"
total=$(json spin.data.json sources.0.total)
if over "$total" 0; then ok "the total is known from the catch-all ($total hits)"; else not_ok "the total is known" "total '$total'"; fi
is "$(json spin.data.json sources.0.has_catchall)" true "the recording has a catch-all profile"
where=$(spin --where | tr ' ' '\n')
start=$(kv hot_start "$where")
end=$(kv hot_end "$where")
raw=$(kprofile report -i spin.data --raw 2>&1)
like "$raw" "kp_spin_hot" "--raw lists the hot function's buckets"
inside=0
for a in $(printf '%s\n' "$raw" | awk '/kp_spin_hot/ { print $1 }'); do
	[ $((a)) -ge $((start)) ] && [ $((a)) -lt $((end)) ] && inside=$((inside + 1))
done
if [ "$inside" -gt 0 ]; then
	ok "--raw addresses of kp_spin_hot's buckets lie in $start..$end"
else
	not_ok "--raw addresses of kp_spin_hot's buckets lie in $start..$end" "$raw"
fi
kprofile report -i spin.data --raw --json >raw.json 2>&1
check "report --raw --json parses" kp-json raw.json

# 2. A PIE executable's C++ function, demangled.
check "record -- spin-lib exe 3 exits 0" kprofile record -o exe.data -- spin-lib exe 3
expect_top "spin-lib exe" exe.data "kpspin::Spinner::hot_loop(unsigned long)" spin-lib

# 3. A shared library's function (libkpspin.so is mapped after exec).
check "record -- spin-lib lib 3 exits 0" kprofile record -o lib.data -- spin-lib lib 3
expect_top "spin-lib lib" lib.data kp_lib_spin_hot libkpspin.so

# 3b. A library the loader maps after exec, in a program that exits before
# record is woken (300 samples, under a quarter of a ring): record learns
# of the mapping from the kernel's MMAP2 record (side_band.h), not from
# /proc/PID/maps, which is gone when it drains at the exit.  User mode
# only: so short a program spends most of its time in the kernel on the
# debug guest (exec, page faults: 76 % there).
check "record --user -- spin-lib lib 0.3 exits 0" kprofile record --user -o short.data -- spin-lib lib 0.3
rec_err=$_kp_out
unlike "$rec_err" "mappings are read from /proc" "root's record learns of mappings from the kernel"
expect_top "spin-lib lib 0.3" short.data kp_lib_spin_hot libkpspin.so
# 0.2 s: the loader's own user time (ld.so relocating libstdc++) must not
# outweigh the spin on the slow debug guest; still far under a ring's
# wake-up watermark, so record drains only after the exit.
check "record -g --user -- spin-lib lib 0.2 exits 0" kprofile record -g --user -o short-g.data -- spin-lib lib 0.2
kprofile report -i short-g.data --json >short-g.json 2>&1
is "$(json short-g.json rows.0.symbol)" kp_lib_spin_hot "-g: the short program's top symbol is kp_lib_spin_hot"

# 4. A running process.
spin 60 >/dev/null &
pid=$!
sleep 1
check "record -p PID --duration 3 exits 0" kprofile record -p "$pid" --duration 3 -o pid.data
check "the process is still running after record -p" kill -0 "$pid"
kill "$pid"
wait "$pid" 2>/dev/null
expect_top "-p" pid.data kp_spin_hot spin

# 5. System-wide, as root: the kernel text is profiled and symbolized.
spin 60 >/dev/null &
pid=$!
check "record -a --duration 2 exits 0 as root" kprofile record -a --duration 2 -o all.data
kill "$pid"
wait "$pid" 2>/dev/null
kprofile report -i all.data --json >all.json 2>&1
check "-a: report --json parses" kp-json all.json
is "$(json all.json target)" system "-a: the recording is system-wide"
if grep -q '"object": "\[kernel\]"' all.json && grep -q '"resolved": true' all.json; then
	ok "-a: kernel hits resolve to kernel symbols"
else
	not_ok "-a: kernel hits resolve to kernel symbols" "$(kprofile report -i all.data 2>&1 | head -n 20)"
fi

# -a names the busy process and its function (it gets profiles of its
# own once it has used CPU), not one [unattributed] row.
procs=$(kprofile report -i all.data --processes -n 1 2>&1)
like "$procs" "^ +$pid +- +spin " "-a: the process table names the busy spin ($pid)"
kprofile report -i all.data --pid "$pid" --json >all-pid.json 2>&1
is "$(json all-pid.json rows.0.symbol)" kp_spin_hot "-a: spin's own top symbol is kp_spin_hot"

# 6. top, in batch mode, from the live buffers.
out=$(kprofile top --batch -n 2 -d 1 -- spin 60 2>&1)
like "$out" "refresh 2" "top --batch prints two refreshes"
like "$out" "kp_spin_hot" "top names the hot function while it runs"

# 7. Errors that say what to do.
out=$(kprofile record -s NoSuchSource -- spin 1 2>&1); rc=$?
is "$rc" 1 "an unknown source is a usage error (exit 1)"
like "$out" "kprofile sources" "an unknown source points to kprofile sources"
out=$(kprofile record -s ProfileTotalIssues -o x.data -- spin 1 2>&1); rc=$?
is "$rc" 3 "a counter source without a PMU is refused (exit 3)"
like "$out" "not supported" "the error says the source is not supported, and why"
like "$out" "virtual machine" "record's refusal has the VM hint, as interval's"
# What record would refuse, sources --conflicts answers in its exit status
# too, naming the source as asked (the module's reason says "source 0x2").
out=$(kprofile sources --conflicts time TotalIssues 2>&1); rc=$?
is "$rc" 3 "sources --conflicts exits 3 when the sources cannot run together"
like "$out" "ProfileTotalIssues \(0x02\):" "its reason names the source"
out=$(kprofile report -i /nonexistent.data 2>&1); rc=$?
isnt "$rc" 0 "report of a missing file fails"
like "$out" "kprofile record" "and says to record first"
out=$(kprofile record -- /nonexistent/prog 2>&1); rc=$?
isnt "$rc" 0 "record of a missing program fails"

# 9. Children, through fork and exec: each spin has profiles of its own.
check "record -- sh -c 'spin 2 & spin 2 & wait' exits 0" \
	kprofile record -o kids.data -- sh -c 'spin 2 & spin 2 & wait'
procs=$(kprofile report -i kids.data --processes -n 1 2>&1)
kids=$(printf '%s\n' "$procs" | awk '$3 == "spin" { print $1 }')
is "$(printf '%s\n' "$kids" | grep -c .)" 2 "children: both spins are in the process table"
[ "$(printf '%s\n' "$kids" | grep -c .)" = 2 ] || diag "$procs"
for k in $kids; do
	kprofile report -i kids.data --pid "$k" --json >kid.json 2>&1
	is "$(json kid.json rows.0.symbol)" kp_spin_hot "children: spin $k's top symbol is kp_spin_hot"
done
[ -n "$kids" ] || { not_ok "children: first spin's hits" "no children"; not_ok "children: second spin's hits" "no children"; }
kprofile report -i kids.data --json >kids.json 2>&1
is "$(json kids.json rows.0.symbol)" kp_spin_hot "children: the whole report's top symbol is kp_spin_hot"
# Short-lived children one after another (as make's compiler runs): each
# is followed (counted by parent, not name: on a loaded host a child can
# be found so late that its exec is not seen) and its hits counted (the
# summing of exited processes' kernel ranges is
# RecordProcess.ExitedKernelRangesMergePerComm).
check "record -- sh -c 'for i in 1 2 3 4; do spin 1; done' exits 0" \
	kprofile record -o seq.data -- sh -c 'for i in 1 2 3 4; do spin 1; done'
procs=$(kprofile report -i seq.data --processes -n 1 2>&1)
n=$(printf '%s\n' "$procs" | awk '$1 ~ /^[0-9]+$/ && $2 != "-"' | grep -c .)
is "$n" 4 "four short-lived children are each followed"
[ "$n" = 4 ] || diag "$procs"
kprofile report -i seq.data --json >seq.json 2>&1
is "$(json seq.json rows.0.symbol)" kp_spin_hot "short-lived children: kp_spin_hot is on top"
check "record --no-inherit -- sh -c 'spin 1 & wait' exits 0" \
	kprofile record --no-inherit -o noinh.data -- sh -c 'spin 1 & wait'
# A report that failed would have no kp_spin_hot either: it must work first.
noinh=$(kprofile report -i noinh.data 2>&1); rc=$?
is "$rc" 0 "--no-inherit: report of the recording exits 0"
like "$noinh" "Overhead +Hits" "--no-inherit: the report is a table"
if printf '%s\n' "$noinh" | grep -q kp_spin_hot; then
	not_ok "--no-inherit: the child is not profiled" "$(printf '%s\n' "$noinh" | head)"
else
	ok "--no-inherit: the child is not profiled"
fi
# A shell pipeline: both sides are children of sh, each followed.
check "record -- sh -c 'spin 1 | spin 1' exits 0" \
	kprofile record -o pipe.data -- sh -c 'spin 1 | spin 1 >/dev/null'
procs=$(kprofile report -i pipe.data --processes -n 1 2>&1)
n=$(printf '%s\n' "$procs" | awk '$3 == "spin"' | grep -c .)
is "$n" 2 "pipeline: both spins of 'spin 1 | spin 1' are followed"
[ "$n" = 2 ] || diag "$procs"
kprofile report -i pipe.data --json >pipe.json 2>&1
is "$(json pipe.json rows.0.symbol)" kp_spin_hot "pipeline: kp_spin_hot is on top"
# make -j2's shape: short-lived children two at a time, three rounds.
check "record -- sh -c '3 rounds of spin 1 & spin 1 & wait' exits 0" \
	kprofile record -o j2.data -- sh -c 'for i in 1 2 3; do spin 1 & spin 1 & wait; done'
procs=$(kprofile report -i j2.data --processes -n 1 2>&1)
n=$(printf '%s\n' "$procs" | awk '$1 ~ /^[0-9]+$/ && $2 != "-"' | grep -c .)
is "$n" 6 "make -j2-like: the six short-lived children are each followed"
[ "$n" = 6 ] || diag "$procs"
kprofile report -i j2.data --json >j2.json 2>&1
is "$(json j2.json rows.0.symbol)" kp_spin_hot "make -j2-like: kp_spin_hot is on top"
# The command without -- (perf's way): its own options stay its own.
check "record -s time sh -c 'spin 1' (no --) exits 0" \
	kprofile record -s time -o nodash.data sh -c 'spin 1'
kprofile report -i nodash.data --json >nodash.json 2>&1
is "$(json nodash.json rows.0.symbol)" kp_spin_hot "without --: the command ran with its -c"

# 10. Module code: kp-ioctl loops in kprofile.ko's ioctl handler; its hits
# land on a [kprofile] range with the module's symbols.
check "record -- kp-ioctl loop 2 exits 0" kprofile record -o mod.data -- kp-ioctl loop 2
kprofile report -i mod.data --json >mod.json 2>&1
if grep -q '"object_path": "\[kprofile\]"' mod.json && grep -q ' \[kprofile\]"' mod.json; then
	ok "module hits are reported against [kprofile], with its symbols"
else
	not_ok "module hits are reported against [kprofile]" "$(kprofile report -i mod.data 2>&1 | head -n 15)"
fi

# 11. Setup is checked before the command starts, and -i is undone.
rm -f /tmp/ran-o /tmp/ran-c
out=$(kprofile record -o /nonexistent/x.data -- sh -c 'touch /tmp/ran-o' 2>&1); rc=$?
is "$rc" 1 "-o in a missing directory is a usage error (exit 1)"
check "-o in a missing directory: the command did not run" test ! -e /tmp/ran-o
out=$(kprofile record -C 5 -o c.data -- sh -c 'touch /tmp/ran-c' 2>&1); rc=$?
is "$rc" 1 "-C 5 on a 2-CPU guest is a usage error (exit 1)"
check "-C 5: the command did not run" test ! -e /tmp/ran-c
before=$(kprofile interval time 2>&1)
out=$(kprofile record -i 250us -o iv.data -- spin 1 2>&1); rc=$?
is "$rc" 0 "record -i 250us exits 0"
like "$out" "every 0.25 ms" "the summary names the interval used"
is "$(kprofile interval time 2>&1)" "$before" "-i is restored when record ends"
# Ctrl-C (SIGINT) too, whenever it comes (setup takes seconds under TCG).
timeout -s INT 5 kprofile record -i 500us -o int.data -- spin 30 >/dev/null 2>&1
is "$(kprofile interval time 2>&1)" "$before" "-i is restored after SIGINT"
check "record interrupted by SIGINT still writes its file" test -s int.data
# A -p target that exits while record sets up: a plain message, or (when
# setup was quicker than it) a recording.
spin 0.2 >/dev/null &
pid=$!
out=$(kprofile record -p "$pid" -o gone.data 2>&1); rc=$?
wait "$pid" 2>/dev/null
if [ "$rc" = 0 ] && [ -s gone.data ]; then
	ok "-p of a process that exits at once: recorded before it went"
elif printf '%s\n' "$out" | grep -Eq "exited while record was setting up|does not exist" &&
	[ ! -e gone.data ]; then
	ok "-p of a process that exits during setup says so"
else
	not_ok "-p of a process that exits during setup says so" "rc $rc: $out"
fi
check "record -F 2000 exits 0" kprofile record -F 2000 -o f.data -- spin 1

# 8. Privileges, as nobody with access to the device: own process yes,
# system-wide and another user's process no, each with the rule.
chmod 666 /dev/kprofile
# Debian's kernel.perf_event_paranoid 3 forbids unprivileged profiles (as
# for perf); 2 allows user-mode ones, which record makes for its command.
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 2 >/proc/sys/kernel/perf_event_paranoid
# The initramfs root may be 0700 (mktemp -d): let nobody reach its tools.
chmod 755 / 2>/dev/null
asnobody() { su -m -s /bin/sh nobody -c "$*"; }
out=$(asnobody kprofile record -o /tmp/nobody.data -- spin 2 2>&1); rc=$?
is "$rc" 0 "nobody may profile its own command"
[ "$rc" = 0 ] || diag "$out"
like "$out" "kernel not profiled" "without CAP_PERFMON the kernel is left out, saying so"
out=$(asnobody kprofile record -a --duration 1 -o /tmp/nobody-a.data 2>&1); rc=$?
is "$rc" 3 "nobody may not profile system-wide (exit 3)"
like "$out" "CAP_PERFMON" "the refusal names CAP_PERFMON"
out=$(asnobody kprofile record -p 1 --duration 1 -o /tmp/nobody-p.data 2>&1); rc=$?
is "$rc" 3 "nobody may not profile init (exit 3)"
like "$out" "ptrace" "the refusal names the ptrace rule"
# A child nobody may not profile (a set-user-ID program) is left out; the
# recording goes on (it used to stop with EACCES and kill the command).
cp "$(command -v spin)" /tmp/spin-suid && chmod 4755 /tmp/spin-suid
out=$(asnobody "kprofile record -o /tmp/nobody-suid.data -- sh -c '/tmp/spin-suid 1 >/dev/null; spin 1 >/dev/null'" 2>&1); rc=$?
is "$rc" 0 "a set-user-ID child does not stop nobody's recording"
[ "$rc" = 0 ] || diag "$out"
echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
chmod 600 /dev/kprofile
