#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 55-stream: the sample stream with call stacks through the
# tool, with ProfileTime: `record -g` of `callers` (its hot leaf kp_leaf is
# called from caller_a with 3 times the work of caller_b) gives folded
# stacks through both callers in about that ratio, Children/Self and call
# graphs, pprof, `script --json`, no lost records at the default rate; a
# child followed through fork and exec; --no-inherit; system-wide with
# kernel frames; an unprivileged user in user mode; and the Python
# binding's Stream on a real stream.
. "$KP_GUEST/lib.sh"

if ! have_tool; then
	plan 1
	skip "kprofile record -g" "tool not built"
	exit 0
fi
plan 38
cd /tmp || exit 1


# 1. record -g of a program with a known call graph.
out=$(kprofile record -g -o cg.data -- callers 3 2>&1); rc=$?
is "$rc" 0 "record -g -- callers 3 exits 0"
[ "$rc" = 0 ] || diag "$out"
like "$out" "[1-9][0-9]* samples \([1-9][0-9]* with call stacks\)" "record -g summarizes the samples"
lost=$(printf '%s\n' "$out" | sed -n 's/.* task records, \([0-9]*\) lost .*/\1/p')
is "$lost" 0 "no sample record was lost at the default rate"
if printf '%s\n' "$out" | grep -q WARNING; then
	not_ok "record -g warns of nothing" "$out"
else
	ok "record -g warns of nothing"
fi

# 2. Folded stacks: root first, the comm, main, the caller, the leaf.
kprofile report -i cg.data --format folded >cg.folded 2>cg.err; rc=$?
is "$rc" 0 "report --format folded exits 0"
[ "$rc" = 0 ] || diag "$(cat cg.err)"
like "$(cat cg.folded)" '^callers;(.*;)?main;caller_a;kp_leaf [0-9]+$' \
	"folded: callers;...;main;caller_a;kp_leaf N"
like "$(cat cg.folded)" '^callers;(.*;)?main;caller_b;kp_leaf [0-9]+$' \
	"folded: callers;...;main;caller_b;kp_leaf N"
a=$(through cg.folded caller_a)
b=$(through cg.folded caller_b)
total=$(awk '{ n += $NF } END { print n + 0 }' cg.folded)
ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
if cmp_ok "$ratio" ">=" 2.0 && cmp_ok "$ratio" "<=" 4.5; then
	ok "caller_a:caller_b is about 3:1 ($a:$b = $ratio)"
else
	not_ok "caller_a:caller_b is about 3:1" "$a:$b = $ratio; $(sort -k2 -n -r cg.folded | head -n 8)"
fi
if cmp_ok "$((a + b))" ">" "$((total * 7 / 10))"; then
	ok "most samples' stacks were walked through a caller ($((a + b)) of $total)"
else
	not_ok "most samples' stacks were walked through a caller" \
		"$((a + b)) of $total; $(sort -k2 -n -r cg.folded | head -n 8)"
fi

# 3. Children and Self, and the call graphs.
kprofile report -i cg.data --no-children --json >cgn.json 2>&1
check "report --no-children --json parses" kp-json cgn.json
is "$(json cgn.json rows.0.symbol)" kp_leaf "--no-children: kp_leaf has the most samples of its own"
is "$(json cgn.json samples.lost)" 0 "report --json says 0 lost"
table=$(kprofile report -i cg.data --sort sym 2>&1)
like "$table" "Children +Self +Samples +Symbol" "the default table has Children and Self (perf's --children)"
row=$(printf '%s\n' "$table" | awk '$NF == "caller_a" { print $1, $2 }' | tr -d '%')
if [ -n "$row" ] && cmp_ok "${row% *}" ">" 50 && cmp_ok "${row#* }" "<" 5; then
	ok "caller_a: over half of the samples as Children, almost none as Self ($row)"
else
	not_ok "caller_a: Children over half, Self almost none" "row '$row'; $table"
fi
out=$(kprofile report -i cg.data --call-graph callee --symbol kp_leaf 2>&1)
like "$out" "--caller_a" "--call-graph callee under kp_leaf names caller_a"
like "$out" "--caller_b" "and caller_b"
out=$(kprofile report -i cg.data -G --symbol main 2>&1)
like "$out" "--caller_a" "-G (caller graph) under main names caller_a"

# 4. pprof with stacks.
check "report --format pprof -o FILE exits 0" kprofile report -i cg.data --format pprof -o cg.pb.gz
is "$(od -An -tx1 -N2 cg.pb.gz | tr -d ' ')" 1f8b "the pprof profile is gzipped"

# 5. script.
kprofile script -i cg.data --json >cg.script.json 2>cg.script.err; rc=$?
is "$rc" 0 "script --json exits 0"
check "script --json parses" kp-json cg.script.json
is "$(json cg.script.json lost)" 0 "script --json: lost is 0"
n=$(json cg.script.json 'samples.#')
if cmp_ok "$n" ">" 100; then ok "script --json lists the samples ($n)"; else not_ok "script --json lists the samples" "$n"; fi
like "$(json cg.script.json samples.0.frames.0.ip)" "^0x[0-9a-f]+$" "script --json: frames have hex ips"
first=$(kprofile script -i cg.data 2>&1 | head -n 1)
like "$first" '^callers [0-9]+/[0-9]+ \[[0-9]{3}\] [0-9]+\.[0-9]{9}: ProfileTime: [0-9a-f]+ ' \
	"script: comm pid/tid [cpu] time: source: ip symbol (perf script's line)"
if kprofile script -i cg.data 2>&1 | grep -q '^	[0-9a-f]* caller_a+0x[0-9a-f]* (.*callers)$'; then
	ok "script: indented frames name caller_a+offset (the callers binary)"
else
	not_ok "script: indented frames name caller_a" "$(kprofile script -i cg.data 2>&1 | head -n 12)"
fi

# 6. A child through fork and exec: its maps are read at its FORK and
# EXEC records, so its frames are named in its own program.
out=$(kprofile record -g -o kid.data -- sh -c 'callers 1 >/dev/null; true' 2>&1); rc=$?
is "$rc" 0 "record -g -- sh -c 'callers 1; true' exits 0"
[ "$rc" = 0 ] || diag "$out"
kprofile report -i kid.data --format folded >kid.folded 2>&1
kid=$(through kid.folded caller_a)
if cmp_ok "$kid" ">" 0 && grep -q '^callers;' kid.folded; then
	ok "the child's samples are named in its program ($kid through caller_a)"
else
	not_ok "the child's samples are named in its program" "$(sort -k2 -n -r kid.folded | head -n 8)"
fi
kprofile script -i kid.data --json >kid.json 2>&1
if grep -q '"type": "fork"' kid.json && grep -q '"type": "exec"' kid.json; then
	ok "script --json has the child's fork and exec records"
else
	not_ok "script --json has the fork and exec records" "$(grep -A6 '"tasks"' kid.json | head -n 20)"
fi
check "record -g --no-inherit -- sh -c 'callers 1; true' exits 0" \
	kprofile record -g --no-inherit -o noinh.data -- sh -c 'callers 1 >/dev/null; true'
if kprofile report -i noinh.data --format folded 2>&1 | grep -q kp_leaf; then
	not_ok "--no-inherit: the child is not sampled" "$(kprofile report -i noinh.data --format folded | head)"
else
	ok "--no-inherit: the child is not sampled"
fi

# 7. System-wide, as root: a busy process named without following it,
# and kernel frames from the kernel's unwinder.
callers 30 >/dev/null &
pid=$!
check "record -a -g --duration 2 exits 0 as root" kprofile record -a -g --duration 2 -o sys.data
kill "$pid"
wait "$pid" 2>/dev/null
kprofile report -i sys.data --format folded >sys.folded 2>&1
if cmp_ok "$(through sys.folded caller_a)" ">" 0; then
	ok "-a -g: callers' stacks are named (its maps read on first sight)"
else
	not_ok "-a -g: callers' stacks are named" "$(sort -k2 -n -r sys.folded | head -n 8)"
fi
like "$(cat sys.folded)" '_\[k\] [0-9]+$' "-a -g: kernel frames are sampled and marked _[k]"
check "a bad ring size is refused before anything runs" \
	sh -c '! kprofile record -g -m 3 -o x.data -- true 2>/dev/null'

# 8. As nobody: user-mode samples of its own command, with a note.
chmod 666 /dev/kprofile
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
echo 2 >/proc/sys/kernel/perf_event_paranoid
chmod 755 / 2>/dev/null
out=$(su -m -s /bin/sh nobody -c "kprofile record -g -o /tmp/nobody-g.data -- callers 1" 2>&1); rc=$?
is "$rc" 0 "nobody may record -g its own command"
[ "$rc" = 0 ] || diag "$out"
like "$out" "kernel frames not sampled" "without CAP_PERFMON kernel frames are left out, saying so"
echo "$paranoid" >/proc/sys/kernel/perf_event_paranoid
chmod 600 /dev/kprofile

# 9. The Python binding over a real stream.
py=/usr/bin/python3
if [ -x $py ] && [ -d /kp/python/tests ]; then
	out=$(cd /kp/python && $py -m unittest discover -v -s tests -p 'test_stream.py' 2>&1)
	if printf '%s\n' "$out" | grep -q 'test_self_samples_with_call_stacks .* ok$'; then
		ok "Python: a Stream of ProfileTime samples of itself"
	else
		not_ok "Python: a Stream of ProfileTime samples of itself" "$out"
	fi
else
	skip "Python: a Stream of ProfileTime samples of itself" "no python3 in the image"
fi
