#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make hwtest: real counts on a machine with a usable PMU (bare metal, or a
# guest with a virtual PMU).  A loop of known instruction and branch counts
# (testing/hwtest/kp-hwcount.c: 3 instructions and 1 branch per iteration)
# is counted by perf (`perf stat -e instructions:u,branches:u`) and then,
# sequentially since they cannot share counters, by kprofile: a user-mode
# ProfileTotalIssues / ProfileBranchInstructions profile of the loop whose
# hits times the interval estimate the count.  kprofile's count must be
# within KP_HWTEST_TOLERANCE percent (default 2) of perf's, and perf's of
# the known count.  While kprofile reserves the PMU, perf must not count.
#
# Elsewhere it skips and says why: not root, no perf, perf cannot count
# here (no PMU: a VM without a virtual PMU), or kprofile's interface is
# None (its reason is printed).  If the NMI watchdog holds the counters it
# is turned off for the test (kernel.nmi_watchdog=0) and restored after.
#
# Output: TAP.  Exit status 0 (passed or skipped) or 1 (a check failed).
# Knobs: KP_HWTEST_LOOPS (200000000), KP_HWTEST_INTERVAL (100003),
# KP_HWTEST_TOLERANCE (2), KP_MODULE (build/kprofile.ko).
set -uo pipefail
. "$(dirname "$0")/lib/common.sh"

loops=${KP_HWTEST_LOOPS:-200000000}
interval=${KP_HWTEST_INTERVAL:-100003}
tol=${KP_HWTEST_TOLERANCE:-2}
module=${KP_MODULE:-$KP_BUILD/kprofile.ko}
out=$KP_BUILD/hwtest
n=0 failed=0 loaded=0 watchdog=

skip_all() { echo "1..0 # SKIP $*"; exit 0; }
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() {
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	[ $# = 0 ] || printf '%s\n' "$*" | sed 's/^/# /'
}
kv() { printf '%s\n' "$2" | sed -n "s/^$1=//p" | head -n1; }

# within A B PCT: |A - B| <= PCT% of B.
within() { awk -v a="$1" -v b="$2" -v p="$3" \
	'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'; }

# perf_count EVENT OUTPUT: the count of EVENT in `perf stat -x,` OUTPUT,
# or nothing when perf did not count it.
perf_count() { printf '%s\n' "$2" | awk -F, -v e="$1" '$3 == e && $1 ~ /^[0-9]+$/ { print $1 }'; }

cleanup() {
	[ -n "$watchdog" ] && echo "$watchdog" >/proc/sys/kernel/nmi_watchdog
	[ "$loaded" = 1 ] && rmmod kprofile
}
trap cleanup EXIT

[ "$(id -u)" = 0 ] || skip_all "needs root (it loads kprofile.ko and may set kernel.nmi_watchdog)"
command -v perf >/dev/null || skip_all "perf is not installed (Debian: apt-get install linux-perf)"
probe=$(perf stat -x, -e instructions:u true 2>&1)
[ -n "$(perf_count instructions:u "$probe")" ] ||
	skip_all "perf cannot count instructions here (no usable PMU; a VM without a virtual PMU?): $(printf '%s' "$probe" | tail -n1)"

mkdir -p "$out"
for p in "$KP_ROOT/testing/hwtest/kp-hwcount.c" "$KP_ROOT/testing/guest/progs/kp-ioctl.c" \
	"$KP_ROOT/testing/guest/progs/kp-hwlayer.c"; do
	gcc -O2 -Wall -Wextra -Werror -I"$KP_ROOT/include/uapi" \
		-o "$out/$(basename "$p" .c)" "$p" || kp_die "building $p failed"
done

if ! grep -q '^kprofile ' /proc/modules; then
	[ -f "$module" ] || kp_die "no $module: run make module"
	insmod "$module" || kp_die "insmod $module failed"
	loaded=1
fi
info=$("$out/kp-ioctl" info) || kp_die "KPROFILE_IOC_INFO failed"
[ "$(kv interface "$info")" != None ] ||
	skip_all "kprofile's profile interface is None: $(kv reason "$info")"

if [ "$(cat /proc/sys/kernel/nmi_watchdog 2>/dev/null)" = 1 ]; then
	echo "# the NMI watchdog holds the counters: kernel.nmi_watchdog=0 for the test"
	watchdog=1
	echo 0 >/proc/sys/kernel/nmi_watchdog
fi

echo "1..9"
echo "# $(kv vendor "$info") $(kv interface "$info"): $(kv num_counters "$info") counters of $(kv counter_width "$info") bits; $loops iterations, interval $interval, tolerance $tol%"

stat=$(perf stat -x, -e instructions:u,branches:u "$out/kp-hwcount" loop "$loops" 2>&1)
expect_i=$(kv expect_instructions "$stat")
expect_b=$(kv expect_branches "$stat")
perf_i=$(perf_count instructions:u "$stat")
perf_b=$(perf_count branches:u "$stat")
if [ -n "$perf_i" ] && [ -n "$perf_b" ]; then
	ok "perf counts the loop: $perf_i instructions, $perf_b branches"
else
	not_ok "perf counts the loop" "$stat"
fi
if within "${perf_i:-0}" "$expect_i" "$tol"; then
	ok "perf's instructions are the loop's $expect_i"
else
	not_ok "perf's instructions are the loop's $expect_i" "perf: ${perf_i:-none}"
fi

ki=$("$out/kp-hwcount" kprofile 0x02 "$loops" "$interval" 2>&1)
kb=$("$out/kp-hwcount" kprofile 0x06 "$loops" "$interval" 2>&1)
for r in "$ki" "$kb"; do
	if [ -n "$(kv events "$r")" ]; then
		ok "kprofile counts the loop: $(kv events "$r") events"
	else
		not_ok "kprofile counts the loop" "$r"
	fi
done
if within "$(kv events "$ki")" "${perf_i:-0}" "$tol"; then
	ok "ProfileTotalIssues agrees with perf's instructions:u ($(kv events "$ki") vs ${perf_i:-none})"
else
	not_ok "ProfileTotalIssues agrees with perf's instructions:u" "kprofile $ki; perf ${perf_i:-none}"
fi
if within "$(kv events "$kb")" "${perf_b:-0}" "$tol"; then
	ok "ProfileBranchInstructions agrees with perf's branches:u ($(kv events "$kb") vs ${perf_b:-none})"
else
	not_ok "ProfileBranchInstructions agrees with perf's branches:u" "kprofile $kb; perf ${perf_b:-none}"
fi
h=$(kv hits "$ki") o=$(kv outside "$ki")
if [ -n "$h" ] && [ "$((h * 100))" -ge "$(((h + o) * 95))" ]; then
	ok "the samples land in the loop ($h in, $o outside)"
else
	not_ok "the samples land in the loop" "$ki"
fi

# While kprofile reserves the PMU, perf's hardware events cannot count.
"$out/kp-hwlayer" reserve --hold 5 >"$out/reserve.out" 2>&1 &
holder=$!
sleep 1
res=$(cat "$out/reserve.out")
busy=$(perf stat -x, -e instructions:u true 2>&1)
wait "$holder"
if [ "$(kv result "$res")" = OK ] && [ -z "$(perf_count instructions:u "$busy")" ]; then
	ok "perf cannot count while kprofile reserves the PMU"
else
	not_ok "perf cannot count while kprofile reserves the PMU" "reserve: $res; perf: $busy"
fi
after=$(perf stat -x, -e instructions:u true 2>&1)
if [ -n "$(perf_count instructions:u "$after")" ]; then
	ok "perf counts again once the reservation is closed"
else
	not_ok "perf counts again once the reservation is closed" "$after"
fi
[ "$failed" = 0 ]
