#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run kprofile in Debian's own kernel under QEMU: build the module against
# that kernel's headers, pack the initramfs, boot, report.
#
# Usage: vm.sh [--cpu intel|amd] [--share DIR] [--timeout S]
#              (--cmd CMD | --tests [NAMES])
#   --cmd CMD     run CMD (sh syntax) with kprofile.ko loaded and the tool
#                 on PATH, print its output, exit with its status
#   --tests       run the guest tests (testing/guest/NN-*.sh), print TAP
# The tool is taken from build/tool when it has been built (make tool).
# Logs: build/vm/<mode>-<cpu>/ (console.log, output.log).  The guest gets
# --timeout (default KP_VM_TIMEOUT or 1200) seconds before it counts as hung.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

cpu=intel share= timeout=${KP_VM_TIMEOUT:-1200} mode= cmd= tests=
while [ $# -gt 0 ]; do
	case $1 in
	--cpu) cpu=$2; shift ;;
	--share) share=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--cmd) mode=run; cmd=$2; shift ;;
	--tests) mode=tests
		if [ $# -gt 1 ] && [ "${2#--}" = "$2" ]; then tests=$2; shift; fi ;;
	*) kp_die "unknown option $1" ;;
	esac
	shift
done
[ -n "$mode" ] || kp_die "need --cmd CMD or --tests"
[ "$mode" = run ] && [ -z "$cmd" ] && kp_die "empty command (make vm-run CMD='kprofile info')"

rel=$(kp_debian_release)
mkdir -p "$KP_BUILD/vm"
kmod=$("$KP_ROOT/testing/kbuild.sh" "/usr/src/linux-headers-$rel" 2>"$KP_BUILD/vm/kbuild-$$.log" | tail -n1) ||
	{ cat "$KP_BUILD/vm/kbuild-$$.log" >&2; kp_die "building kprofile.ko for $rel failed"; }
rm -f "$KP_BUILD/vm/kbuild-$$.log"
tool=$(find "$KP_BUILD/tool" -maxdepth 3 -type f -name kprofile -perm -u+x 2>/dev/null | head -n1 || true)
[ -n "$tool" ] || kp_log "note: the kprofile tool is not built (make tool); running without it"

logs=$KP_BUILD/vm/$mode-$cpu
[ "$mode" = run ] && logs=$KP_BUILD/vm/run-$cpu-$$
mkdir -p "$logs"
img=(--out "$logs/initrd.gz" --kmod "$kmod" --release "$rel" --mode "$mode"
	--cpu "$cpu" --cmd "$cmd" --tests "$tests")
[ -n "$tool" ] && img+=(--tool "$tool")
[ -n "$share" ] && img+=(--share)
"$KP_ROOT/testing/vm/image.sh" "${img[@]}"

boot=(--kernel "/boot/vmlinuz-$rel" --initrd "$logs/initrd.gz" --logs "$logs"
	--cpu "$cpu" --timeout "$timeout")
[ -n "$share" ] && boot+=(--share "$share")
[ "$mode" = run ] && boot+=(--stream)
rc=0
"$KP_ROOT/testing/vm/boot.sh" "${boot[@]}" || rc=$?
if [ "$mode" = run ]; then
	[ $rc = 0 ] && rm -rf "$logs" || kp_log "logs: $logs"
else
	cat "$logs/output.log"
fi
exit $rc
