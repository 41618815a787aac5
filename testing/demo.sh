#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: boot Debian's kernel under QEMU with each CPU model, load
# kprofile.ko, run the tool's commands (info, sources, then record and
# report of hotcold, a bundled program with a hot and a cold function),
# shut down.  Exits 0 when every
# command worked under both models.
#
# Usage: testing/demo.sh [--pmu emulated|none]
#   emulated (make demo's default): the machine with QEMU's emulated PMU
#   (testing/qemu-pmu): ProfileTotalIssues beside ProfileTime, and perf
#   counting the same program (PMU_CMDS); none: no PMU
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

pmu=none
while [ $# -gt 0 ]; do
	case $1 in
	--pmu) pmu=$2; shift ;;
	*) kp_die "unknown option $1" ;;
	esac
	shift
done

# The commands shown, in order: add each new tool command here.
DEMO_CMDS=(
	"kprofile info"
	"kprofile info --json"
	"kprofile sources"
	"kprofile record -o /tmp/demo.data -- hotcold 1"
	"kprofile report -i /tmp/demo.data -n 8"
)
# On the emulated-PMU machine (kprofile info above shows the Emon or
# Amd64 interface with its counters, held by the NMI watchdog at boot):
# free them, record hotcold with a counter source beside the timer, and
# let Debian's perf count the same program.
PMU_CMDS=(
	"sysctl kernel.nmi_watchdog=0"
	"kprofile record -s ProfileTime,ProfileTotalIssues -o /tmp/demo-pmu.data -- hotcold 1"
	"kprofile report -i /tmp/demo-pmu.data -n 8 --sort source,sym"
	"perf stat -e instructions:u,cycles:u,branches:u -- hotcold 1"
)

script='rc=0
run() { echo "\$ $*"; "$@" || { echo "(exit status $?)"; rc=1; }; echo; }
echo "kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs, $(sed -n "s/^model name[[:space:]]*: //p" /proc/cpuinfo | head -n1)"
echo "kprofile.ko loaded (name, size, users): $(grep "^kprofile " /proc/modules | cut -d" " -f1-3)"
echo
'
if command -v kprofile >/dev/null 2>&1 || [ -n "$(find "$KP_BUILD/tool" -maxdepth 3 -name kprofile -type f 2>/dev/null)" ]; then
	for c in "${DEMO_CMDS[@]}"; do script+="run $c"$'\n'; done
	if [ "$pmu" = emulated ]; then
		for c in "${PMU_CMDS[@]}"; do script+="run $c"$'\n'; done
	fi
else
	kp_log "the tool is not built: showing the raw info ioctl instead"
	script+="run kp-ioctl info"$'\n'
fi
script+='exit $rc'

rc=0
for cpu in intel amd; do
	echo "=== Debian kernel, $cpu CPU model ($( [ $cpu = intel ] && echo Skylake-Client-v4 || echo EPYC)), PMU: $pmu ==="
	"$KP_ROOT/testing/vm/vm.sh" --cpu "$cpu" --pmu "$pmu" --cmd "$script" || rc=$?
	echo
done
[ $rc = 0 ] && echo "demo: done" || echo "demo: failed ($rc)"
exit $rc
