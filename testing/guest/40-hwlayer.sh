#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 40-hwlayer: the hardware layer where there is no usable PMU (QEMU TCG).
# Counter sources are unsupported with a reason; arming one through a
# profile is refused with EOPNOTSUPP; the schedule ioctl says they do not
# fit and why, while ProfileTime fits; reservations are refused
# (EOPNOTSUPP), bad ones with EINVAL; and the module survives 20 unload /
# load cycles with no kernel report.
. "$KP_GUEST/lib.sh"
plan 21

ISSUES=0x02
MISPRED=0x0b

case $KP_CPU in
intel)	why='CPUID leaf 0xA' ;;
amd)	why='not available due to virtualization' ;;
*)	why=. ;;
esac

out=$(kp-hwlayer query $ISSUES 2>&1)
is "$(kv supported "$out")" 0 "ProfileTotalIssues is unsupported without a PMU"
like "$(kv reason "$out")" "$why" "and the reason says why ($why)"

out=$(kp-profile try --source $ISSUES 2>&1)
is "$(kv result "$out")" EOPNOTSUPP \
	"a ProfileTotalIssues profile (arming a counter source) -> EOPNOTSUPP"
out=$(kp-profile try --source $MISPRED --mode 1 2>&1)
is "$(kv result "$out")" EOPNOTSUPP \
	"a user-only ProfileBranchMispredictions profile -> EOPNOTSUPP"

out=$(kp-hwlayer schedule $ISSUES $MISPRED 2>&1)
is "$(kv result "$out")" OK "KPROFILE_IOC_SCHEDULE answers"
is "$(kv fits "$out")" 0 "two counter sources do not fit without a PMU"
is "$(kv counters "$out")" "-1,-1" "and get no counter"
is "$(kv num_counters "$out")" 0 "no counters are reported"
like "$(kv reason "$out")" "$why" "the schedule's reason says why"

out=$(kp-hwlayer schedule 0 2>&1)
is "$(kv fits "$out")" 1 "ProfileTime fits: it needs no counter"
out=$(kp-hwlayer schedule 0xff 2>&1)
is "$(kv result "$out")" EINVAL "scheduling an unknown source -> EINVAL"

is "$(kv result "$(kp-hwlayer reserve 2>&1)")" EOPNOTSUPP \
	"reserving the whole PMU -> EOPNOTSUPP"
is "$(kv result "$(kp-hwlayer reserve single 0 overflow 2>&1)")" EOPNOTSUPP \
	"reserving counter 0 with its overflows -> EOPNOTSUPP"
is "$(kv result "$(kp-hwlayer reserve bad-flags 2>&1)")" EINVAL \
	"a reservation with non-zero flags -> EINVAL"

# 20 unload/load cycles: each must succeed and bring /dev/kprofile back.
dmesg -c >/dev/null 2>&1
cycles=0
i=0
while [ $i -lt 20 ]; do
	i=$((i + 1))
	rmmod kprofile 2>/dev/null || break
	insmod "$KP_MODULE" 2>/dev/null || break
	[ -c /dev/kprofile ] || break
	cycles=$((cycles + 1))
done
is "$cycles" 20 "20 rmmod/insmod cycles"
check "the module is loaded after the cycles" module_loaded
check "/dev/kprofile answers after the cycles" kp-ioctl info
log=$(dmesg 2>&1)
reports=$(printf '%s\n' "$log" |
	grep -E 'BUG|WARNING|Oops|general protection|Call Trace|NMI received for unknown reason' |
	head -n 5)
is "$reports" "" "no kernel report during the cycles"
is "$(printf '%s\n' "$log" | grep -c 'kprofile: profile interface None')" 20 \
	"each load reports interface None with its reason"
is "$(kv result "$(kp-hwlayer schedule $ISSUES 2>&1)")" OK \
	"the schedule ioctl still answers"
like "$(kv reason "$(kp-hwlayer query $ISSUES 2>&1)")" "$why" \
	"the reason is still there after reloading"
