#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 10-boot: Linux's perf driver accepts the emulated PMU: the boot log
# names the vendor's driver with the counters QEMU advertises, and shows
# none of the messages of a PMU perf rejects or mishandles.  (6.1 says
# "generic registers" and "fixed-purpose events"; 6.12 on, "generic
# counters" and "fixed-purpose counters".)
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
plan 10

log=$(dmesg)
banner=$(printf '%s\n' "$log" | grep -o 'Performance Events: .*' | head -n1)
diag "$banner"
printf '%s\n' "$log" | grep -E '^\[[ 0-9.]*\] \.\.\. ' | sed 's/^\[[ 0-9.]*\] //' |
	while read -r l; do diag "$l"; done

# has ERE DESC: the boot log has a line matching ERE.
has() {
	if printf '%s\n' "$log" | grep -Eq -- "$1"; then
		ok "$2"
	else
		not_ok "$2" "no line matches /$1/"
	fi
}
# hasnt TEXT: the boot log has no line with TEXT.
hasnt() {
	_l=$(printf '%s\n' "$log" | grep -F -- "$1" | head -n 3)
	if [ -z "$_l" ]; then
		ok "the boot log has no '$1'"
	else
		not_ok "the boot log has no '$1'" "$_l"
	fi
}

case $KP_PMU_MODEL in
intel)
	# Perfmon version 1: Linux's "core" PMU (no global registers).
	drv=Intel
	[ "$KP_PMU_VERSION" = 1 ] && drv=core
	has "Performance Events: .*$drv PMU driver" "perf chose the $drv PMU driver"
	has "\.\.\. generic (registers|counters): +$KP_PMU_GP\$" "it found $KP_PMU_GP general-purpose counters"
	has "\.\.\. bit width: +$KP_PMU_WIDTH\$" "of $KP_PMU_WIDTH bits"
	has "\.\.\. fixed-purpose (events|counters): +$KP_PMU_FIXED\$" "and $KP_PMU_FIXED fixed counters"
	;;
amd | amd-core)
	has 'Performance Events: .*AMD PMU driver' "perf chose the AMD PMU driver"
	has "\.\.\. generic (registers|counters): +$KP_PMU_GP\$" "it found $KP_PMU_GP counters"
	has "\.\.\. bit width: +$KP_PMU_WIDTH\$" "of $KP_PMU_WIDTH bits"
	if [ "$KP_PMU_MODEL" = amd-core ]; then
		like "$banner" 'core perfctr' "with +perfctr-core, the core counters (PerfCtrExtCore)"
	else
		isnt "$(printf '%s\n' "$banner" | grep -c 'core perfctr')" 1 \
			"without +perfctr-core, the legacy counters only"
	fi
	;;
*)
	for _ in 1 2 3 4; do not_ok "the PMU driver" "unknown KP_PMU_MODEL '$KP_PMU_MODEL'"; done
	;;
esac
has "\.\.\. version: +$KP_PMU_VERSION\$" "perfmon version $KP_PMU_VERSION"
hasnt "PMU not available due to virtualization"
hasnt "Broken PMU hardware"
hasnt "NMI received for unknown reason"
hasnt "irq loop stuck"
hasnt "unchecked MSR access"
