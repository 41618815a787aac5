#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run kprofile in Debian's own kernel under QEMU: build the module against
# that kernel's headers, pack the initramfs, boot, report.
#
# Usage: vm.sh [--cpu intel|amd] [--share DIR] [--timeout S]
#              [--pmu none|emulated] [--cpu-props PROPS]
#              [another kernel: --kernel IMAGE (--kdir DIR | --kmod DIR)
#               [--release REL] [--modules DIR] [--name NAME]]
#              (--cmd CMD | --tests [NAMES])
#   --cmd CMD     run CMD (sh syntax) with kprofile.ko loaded and the tool
#                 on PATH, print its output, exit with its status.  CMD's
#                 stdout comes out on stdout, its stderr on stderr (the
#                 guest's one serial line carries stderr lines tagged, see
#                 split_streams), so `vm.sh --cmd 'kprofile report --json'
#                 > x.json` holds the JSON only
#   --tests       run the guest tests (testing/guest/NN-*.sh), print TAP
#   --pmu emulated  the emulated-PMU machine (testing/qemu-pmu; boot.sh),
#                 with Debian's perf in the guest; none (default): today's
#                 machine, no PMU
#   --cpu-props PROPS  appended to QEMU's -cpu (e.g. +perfctr-core)
# By default the kernel is Debian's own (kp_debian_release): its image in
# /boot, its headers in /usr/src, its modules in /lib/modules.  Another
# kernel (testing/matrix/debian.sh uses these):
#   --kernel IMAGE  the kernel image to boot
#   --kdir DIR      build kprofile.ko against this kernel tree, or
#   --kmod DIR      use a module already built (a testing/kbuild.sh
#                   output directory, e.g. built in another root)
#   --release REL   its release (default: from --kdir's utsrelease.h)
#   --modules DIR   its /lib/modules/REL, for the 9p modules of --share
#   --name NAME     logs in build/vm/NAME-<mode>-<cpu>/ instead
#   --append ARGS   more kernel command line
# The tool is taken from build/tool when it has been built (make tool).
# Logs: build/vm/<mode>-<cpu>/ (console.log, output.log).  The guest gets
# --timeout (default KP_VM_TIMEOUT or 1200) seconds before it counts as hung.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

cpu=intel share= timeout=${KP_VM_TIMEOUT:-1200} mode= cmd= tests=
kernel= kdir= kmod= rel= modules= name= append= pmu=none cpu_props=
while [ $# -gt 0 ]; do
	case $1 in
	--cpu) cpu=$2; shift ;;
	--share) share=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--kernel) kernel=$2; shift ;;
	--kdir) kdir=$2; shift ;;
	--kmod) kmod=$2; shift ;;
	--release) rel=$2; shift ;;
	--modules) modules=$2; shift ;;
	--name) name=$2; shift ;;
	--append) append=$2; shift ;;
	--pmu) pmu=$2; shift ;;
	--cpu-props) cpu_props=$2; shift ;;
	--cmd) mode=run; cmd=$2; shift ;;
	--tests) mode=tests
		if [ $# -gt 1 ] && [ "${2#--}" = "$2" ]; then tests=$2; shift; fi ;;
	*) kp_die "unknown option $1" ;;
	esac
	shift
done
[ -n "$mode" ] || kp_die "need --cmd CMD or --tests"
[ "$mode" = run ] && [ -z "$cmd" ] && kp_die "empty command (make vm-run CMD='kprofile info')"
case $pmu in none | emulated) ;; *) kp_die "--pmu must be none or emulated, not '$pmu'" ;; esac

# The guest runs CMD with stdout and stderr on one serial line (ttyS1).
# Wrapped, CMD's stderr lines are tagged "KP-STDERR: " there (as they come,
# so the order of the two streams is kept line by line), and split_streams
# sends them back to the host's stderr.  The command goes through a file,
# so that its own `exit` ends it, not the wrapper.
stderr_tag='KP-STDERR: '
wrap_cmd() {
	printf '%s\n' "cat >/tmp/kp-user-cmd <<'KP_USER_CMD_EOF'" "$1" "KP_USER_CMD_EOF" \
		'exec 4>&1' \
		"{ sh /tmp/kp-user-cmd 4>&-; echo \$? >/tmp/kp-user-rc; } 2>&1 1>&4 | sed 's/^/$stderr_tag/'" \
		'exit "$(cat /tmp/kp-user-rc 2>/dev/null || echo 125)"'
}
split_streams() {
	local line
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		case $line in
		"$stderr_tag"*) printf '%s\n' "${line#"$stderr_tag"}" >&2 ;;
		*) printf '%s\n' "$line" ;;
		esac
	done
}
[ "$mode" = run ] && cmd=$(wrap_cmd "$cmd")

if [ -z "$kernel" ]; then
	[ -z "$kdir$kmod$rel$modules" ] || kp_die "--kdir, --kmod, --release and --modules go with --kernel"
	rel=$(kp_debian_release)
	kernel=/boot/vmlinuz-$rel kdir=/usr/src/linux-headers-$rel
else
	[ -f "$kernel" ] || kp_die "no kernel image $kernel"
	[ -n "$kdir" ] || [ -n "$kmod" ] || kp_die "--kernel needs --kdir or --kmod"
	[ -n "$rel" ] || [ -z "$kdir" ] ||
		rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$kdir/include/generated/utsrelease.h")
fi
mkdir -p "$KP_BUILD/vm"
if [ -z "$kmod" ]; then
	kmod=$("$KP_ROOT/testing/kbuild.sh" "$kdir" 2>"$KP_BUILD/vm/kbuild-$$.log" | tail -n1) ||
		{ cat "$KP_BUILD/vm/kbuild-$$.log" >&2; kp_die "building kprofile.ko for $rel failed"; }
	rm -f "$KP_BUILD/vm/kbuild-$$.log"
fi
[ -f "$kmod/kmod/kprofile.ko" ] || kp_die "no kprofile.ko in $kmod"
tool=$(find "$KP_BUILD/tool" -maxdepth 3 -type f -name kprofile -perm -u+x 2>/dev/null | head -n1 || true)
[ -n "$tool" ] || kp_log "note: the kprofile tool is not built (make tool); running without it"

logs=$KP_BUILD/vm/${name:+$name-}$mode-$cpu
[ "$mode" = run ] && logs=$KP_BUILD/vm/${name:+$name-}run-$cpu-$$
mkdir -p "$logs"
img=(--out "$logs/initrd.gz" --kmod "$kmod" --release "$rel" --mode "$mode"
	--cpu "$cpu" --cmd "$cmd" --tests "$tests")
[ -n "$modules" ] && img+=(--modules "$modules")
[ -n "$tool" ] && img+=(--tool "$tool")
[ -n "$share" ] && img+=(--share)
[ "$pmu" = emulated ] && img+=(--perf)
"$KP_ROOT/testing/vm/image.sh" "${img[@]}"

boot=(--kernel "$kernel" --initrd "$logs/initrd.gz" --logs "$logs"
	--cpu "$cpu" --timeout "$timeout" --pmu "$pmu")
[ -n "$cpu_props" ] && boot+=(--cpu-props "$cpu_props")
[ -n "$share" ] && boot+=(--share "$share")
[ -n "$append" ] && boot+=(--append "$append")
[ "$mode" = run ] && boot+=(--stream)
rc=0
if [ "$mode" = run ]; then
	"$KP_ROOT/testing/vm/boot.sh" "${boot[@]}" | split_streams || rc=$?
else
	"$KP_ROOT/testing/vm/boot.sh" "${boot[@]}" || rc=$?
fi
if [ "$mode" = run ]; then
	[ $rc = 0 ] && rm -rf "$logs" || kp_log "logs: $logs"
else
	cat "$logs/output.log"
fi
exit $rc
