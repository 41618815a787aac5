#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 99-dmesg: after every test, the kernel log still has none of the
# messages of a PMU that misbehaves under load: NMIs no handler claims
# (a PMI with no overflow status, or a status bit that does not clear),
# perf's handler looping on a status that will not clear, MSR accesses
# that fault.
. "$KP_GUEST/lib.sh"
plan 6

log=$(dmesg)
for s in "NMI received for unknown reason" "irq loop stuck" "unchecked MSR access" \
	"perfevents: irq loop" "PMU not available due to virtualization" "Broken PMU hardware"; do
	l=$(printf '%s\n' "$log" | grep -F -- "$s" | head -n 3)
	if [ -z "$l" ]; then
		ok "the kernel log has no '$s'"
	else
		not_ok "the kernel log has no '$s'" "$l"
	fi
done
