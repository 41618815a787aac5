#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 53-kprofile-coexist: kprofile beside the NMI watchdog and perf, with the
# real mechanisms.  With the watchdog on, a counter
# source is refused with the reason and the fix; after
# "sysctl kernel.nmi_watchdog=0" it works without reloading the module;
# while kprofile holds counters perf stat -e cycles cannot count, and once
# kprofile lets go perf works again; the counter MSRs are as they were
# before (read through /dev/cpu/0/msr), and the watchdog comes back.
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
need_tool "kprofile beside the NMI watchdog and perf"
plan 12

cd /tmp || exit 1
# The PMU's MSRs kprofile may touch, by model.
case $KP_PMU_MODEL in
intel) msrs="0x186 0x187 0x188 0x189 0xc1 0xc2 0xc3 0xc4 0x38f" ;;
*) msrs="0xc0010000 0xc0010001 0xc0010002 0xc0010003 0xc0010004 0xc0010005 0xc0010006 0xc0010007" ;;
esac
# msr_dump: "MSR=VALUE" for each of $msrs on CPU 0, counters masked out
# (a counter counts on; its select, enables and INT bits must match).
msr_dump() {
	python3 - $msrs <<'EOF'
import os, sys
fd = os.open("/dev/cpu/0/msr", os.O_RDONLY)
for m in sys.argv[1:]:
    v = int.from_bytes(os.pread(fd, 8, int(m, 16)), "little")
    n = int(m, 16)
    # counters: IA32_PMCx, AMD PERF_CTRx (odd after 0xc0010004)
    if 0xc1 <= n <= 0xc8 or 0xc0010004 <= n <= 0xc0010007:
        v = "counter"
    else:
        v = hex(v)
    print("%s=%s" % (m, v))
EOF
}
insmod /kp/pmu/msr.ko 2>/dev/null
[ -c /dev/cpu/0/msr ] || diag "no /dev/cpu/0/msr: $(ls /kp/pmu)"

is "$(sysctl -n kernel.nmi_watchdog)" 1 "the NMI watchdog is on (the boot default)"
out=$(kprofile record -s ProfileTotalIssues -o /tmp/wd.data -- loop 1000 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'watchdog' &&
	printf '%s' "$out" | grep -q 'nmi_watchdog=0'; then
	ok "watchdog on: record -s ProfileTotalIssues is refused, naming the watchdog and the fix"
else
	not_ok "watchdog on: record -s ProfileTotalIssues is refused, naming the watchdog and the fix" \
		"exit $rc: $out"
fi

before=$(msr_dump 2>&1)
set_sysctl kernel.nmi_watchdog 0
off=$(msr_dump 2>&1)
diag "MSRs with the watchdog on: $(echo $before)"
diag "MSRs with it off: $(echo $off)"
if kprofile stat -x, -o /tmp/s.csv -s TotalIssues:u -- loop 1000 >/tmp/s.out 2>&1 &&
	is_num "$(awk -F, '$3 == "ProfileTotalIssues:u" { print $1 }' /tmp/s.csv)"; then
	ok "after sysctl kernel.nmi_watchdog=0 stat counts, the module not reloaded"
else
	not_ok "after sysctl kernel.nmi_watchdog=0 stat counts" "$(cat /tmp/s.csv /tmp/s.out)"
fi

# kprofile holds a counter (a system-wide record in the background, for
# 3 s of the guest's time, which idles quickly under -icount) while perf
# asks; perf asks once the counter is programmed.
# enabled DUMP [BIT]: some event select of DUMP has BIT (default EN, bit
# 22) set.
enabled() {
	for kv in $1; do
		case $kv in 0x38f=* | *=counter) continue ;; esac
		[ $((${kv#*=} & ${2:-0x400000})) != 0 ] && return 0
	done
	return 1
}
off=$(msr_dump 2>&1)
kprofile record -a -s ProfileTotalIssues -i 1000000 --duration 3 -o /tmp/bg.data >/tmp/bg.out 2>&1 &
bg=$!
i=0
held=$off
while ! enabled "$held" && [ $i -lt 300 ] && kill -0 $bg 2>/dev/null; do
	held=$(msr_dump 2>&1)
	i=$((i + 1))
done
if enabled "$held"; then
	ok "kprofile's counter is programmed (EN) while it records"
else
	not_ok "kprofile's counter is programmed (EN) while it records" "$(echo $held)"
fi
diag "MSRs while it records: $(echo $held)"
pstat cycles loop 1000
c=$(pcount cycles)
diag "perf stat -e cycles while kprofile records: '$c' ($(head -n 3 /tmp/pstat.out))"
if ! is_num "$c" && grep -q 'returned with 16 (Device or resource busy)' /tmp/pstat.out; then
	ok "perf stat -e cycles fails with EBUSY while kprofile holds a counter"
else
	not_ok "perf stat -e cycles fails with EBUSY while kprofile holds a counter" \
		"count '$c': $(cat /tmp/pstat.out)"
fi
wait $bg
rc=$?
is "$rc" 0 "the background record ended well ($(tail -n 2 /tmp/bg.out | tr '\n' ' '))"

# Nothing left programmed: the selects as before, and the global control
# enables no counter it did not enable before (kprofile clears its own
# counter's bit when it lets go).
after=$(msr_dump 2>&1)
gctl() { printf '%s\n' "$1" | sed -n 's/^0x38f=//p'; }
# gained BEFORE AFTER BIT: some select has BIT in AFTER, not in BEFORE
# (perf leaves INT set in the selects it disabled: not kprofile's).
gained() {
	for kv in $2; do
		case $kv in 0x38f=* | *=counter) continue ;; esac
		b=$(printf '%s\n' $1 | sed -n "s/^${kv%%=*}=//p")
		[ $((${kv#*=} & $3 & ~${b:-0})) != 0 ] && return 0
	done
	return 1
}
gained "$off" "$after" 0x400000
is $? 1 "after kprofile let go no event select is enabled (EN) that was not before"
gained "$off" "$after" 0x100000
is $? 1 "after kprofile let go no event select raises interrupts (INT) that did not before"
ga=$(gctl "$after") go=$(gctl "$off")
if [ -z "$ga" ] || [ $((ga & ~go)) = 0 ]; then
	ok "after kprofile let go the global control enables nothing new ($go -> ${ga:-none})"
else
	not_ok "after kprofile let go the global control enables nothing new" "$go -> $ga"
fi
pstat cycles loop 1000
c=$(pcount cycles)
if is_num "$c" && [ "$c" -gt 0 ]; then
	ok "perf stat -e cycles counts again after kprofile let go ($c)"
else
	stat_diag
	not_ok "perf stat -e cycles counts again after kprofile let go" "got '$c'"
fi
restore_sysctls
is "$(sysctl -n kernel.nmi_watchdog)" 1 "the watchdog is back on"
wd=$(msr_dump 2>&1)
# live DUMP: the event selects that count (EN); a disabled select keeps
# whatever its last user left in its other bits (kprofile clears only EN
# and INT when it lets go, docs/hardware.md "Registers"; a --user
# recording of an earlier script leaves USR alone set), and counts
# nothing.
live() {
	for kv in $1; do
		case $kv in 0x38f=* | *=counter) continue ;; esac
		[ $((${kv#*=} & 0x400000)) != 0 ] && echo "$kv"
	done
}
is "$(live "$wd")" "$(live "$before")" \
	"with the watchdog back the enabled event selects are as before ($(echo $(live "$before")))"
