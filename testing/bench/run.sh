#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: kprofile and Linux perf side by side in Debian's kernel under
# QEMU TCG.  Boots the guest once per machine:
#   icount  -icount shift=0,sleep=off, one vCPU: guest time counts executed
#           guest instructions (1 ns = 1 instruction), independent of host
#           load, so small differences repeat exactly
#   mttcg   the project's default machine (2 vCPUs, multi-threaded TCG,
#           real time): what a user of the VM sees, noisy on a busy host
# In each, testing/bench/guest.py runs interleaved rounds (order rotated
# each round) of every configuration, then testing/bench/analyze.py prints
# the tables and writes build/bench/bench.json.  Every figure is
# TCG-relative: compare kprofile with perf, not with real hardware.
#
# Usage: testing/bench/run.sh [--smoke] [--machines "icount mttcg"]
#                             [--rounds N] [--work SECONDS] [--tool BIN]
#                             [--out DIR] [--sections "slowdown kernel interrupts"]
#   --smoke   one round, tiny workloads, one boot of the default machine;
#             checks that every measurement ran and prints
#             the results as TAP (make check's bench-smoke layer)
#   --tool    measure this kprofile binary instead of building build/tool
#             (e.g. a copy built from another commit, for before/after)
#   --out     results in DIR (default build/bench, build/bench-smoke)
#   --sections only these of guest.py's sections (default all; not with
#             --smoke, which checks them all): e.g. --machines icount
#             --sections kernel for the kernel-only per-sample costs
# Environment: KPB_ROUNDS, KPB_WORK, KPB_SECTIONS override the defaults
# (5, 0.3, all).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

out= smoke=0 machines="icount mttcg" rounds=${KPB_ROUNDS:-5} work=${KPB_WORK:-0.3} tool=
sections=${KPB_SECTIONS:-}
while [ $# -gt 0 ]; do
	case $1 in
	--smoke) smoke=1 ;;
	--machines) machines=$2; shift ;;
	--rounds) rounds=$2; shift ;;
	--work) work=$2; shift ;;
	--tool) tool=$(realpath "$2"); shift ;;
	--out) out=$(realpath -m "$2"); shift ;;
	--sections) sections=$2; shift ;;
	*) kp_die "unknown option $1" ;;
	esac
	shift
done
if [ $smoke = 1 ]; then
	machines=mttcg rounds=1 work=0.02 sections=
fi
for s in $sections; do
	case $s in
	slowdown | kernel | interrupts) ;;
	*) kp_die "unknown section $s (slowdown, kernel, interrupts)" ;;
	esac
done
[ -x /usr/bin/perf ] || kp_die "no /usr/bin/perf: install linux-perf (testing/deps.sh)"

[ -n "$out" ] || out=$KP_BUILD/bench
[ $smoke = 1 ] && [ "$out" = "$KP_BUILD/bench" ] && out=$KP_BUILD/bench-smoke
mkdir -p "$out"
start=$(date +%s)

# What the guest runs: the module for Debian's kernel, the tool, the bench
# programs, perf and the Python modules guest.py imports (from Debian's
# python3, which image.sh bundles; not whatever python3 is first on PATH).
rel=$(kp_debian_release)
kmod=$("$KP_ROOT/testing/kbuild.sh" "/usr/src/linux-headers-$rel" | tail -n1)
if [ -z "$tool" ]; then
	make -C "$KP_ROOT" --no-print-directory tool >"$out/tool-build.log" 2>&1 ||
		{ tail -n 20 "$out/tool-build.log" >&2; kp_die "building the tool failed"; }
	tool=$(find "$KP_BUILD/tool" -maxdepth 3 -type f -name kprofile -perm -u+x | head -n1)
fi
[ -n "$tool" ] && [ -x "$tool" ] || kp_die "no kprofile tool (make tool, or --tool BIN)"
progs=$("$KP_ROOT/testing/bench/build.sh" "$out/progs" | tail -n1)

extra=$out/extra
rm -rf "$extra"
mkdir -p "$extra/kp/bench/bin"
kp_copy_with_libs "$extra" /usr/bin/perf
cp -a "$progs/wl" "$progs/wldyn" "$progs/kpbench" "$progs/lib" "$extra/kp/bench/bin/"
for lib in $(ldd "$progs/wldyn" | grep -o '/[^ ]*' | grep -v "^$progs"); do
	kp_copy_with_libs "$extra" "$lib"
done
cp "$KP_ROOT/testing/bench/guest.py" "$extra/kp/bench/"
# the standard-library modules guest.py uses
kp_bundle_py_modules "$extra" json re resource struct subprocess time

# image_machine M / boot_machine M: the initramfs, then one boot; logs in
# $out/M/.
machine_args() {
	case $1 in
	icount) echo "1 -icount shift=0,sleep=off" ;;
	mttcg) echo "2" ;;
	*) kp_die "unknown machine $1 (icount, mttcg)" ;;
	esac
}
image_machine() {
	local m=$1
	mkdir -p "$out/$m"
	"$KP_ROOT/testing/vm/image.sh" --out "$out/$m/initrd.gz" --kmod "$kmod" --release "$rel" \
		--mode run --cpu intel --tool "$tool" --extra "$extra" \
		--cmd "python3 /kp/bench/guest.py $m $rounds $work$([ $smoke = 1 ] && echo " smoke")$([ -n "$sections" ] && echo " sections=${sections// /,}")"
}
boot_machine() {
	local m=$1 smp qemu rc=0
	read -r smp qemu < <(machine_args "$m")
	kp_log "booting the $m machine ($rounds rounds, ${work}s of work per run)"
	# The mttcg machine measures two vCPUs running at once: a host thread
	# each (boot.sh's default is one thread for both, see there; the
	# smoke run keeps it, it checks the pipeline, not the numbers).
	local accel=
	[ "$m" = mttcg ] && [ $smoke = 0 ] && accel=tcg,thread=multi
	KP_VM_ACCEL=${accel:-${KP_VM_ACCEL:-}} \
	"$KP_ROOT/testing/vm/boot.sh" --kernel "/boot/vmlinuz-$rel" --initrd "$out/$m/initrd.gz" \
		--logs "$out/$m" --cpu intel --smp "$smp" ${qemu:+--qemu "$qemu"} \
		--timeout $((smoke ? 300 : 3600)) || rc=$?
	rm -f "$out/$m/initrd.gz"
	[ $rc = 0 ] || kp_log "the $m machine failed ($rc); logs: $out/$m"
	return $rc
}

# The images one after the other, then the machines side by side:
# icount's figures count guest instructions, which host load does not
# change, and mttcg is noisy on a shared host whatever runs beside it.
status=0 pids=()
for m in $machines; do
	machine_args "$m" >/dev/null
	image_machine "$m" || kp_die "building the $m image failed"
done
for m in $machines; do
	boot_machine "$m" &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || status=1
done

analyze=(python3 "$KP_ROOT/testing/bench/analyze.py" --json "$out/bench.json")
[ $smoke = 1 ] && analyze+=(--check)
for m in $machines; do analyze+=("$out/$m/output.log"); done
"${analyze[@]}" | tee "$out/table.txt" || status=1
kp_log "$(($(date +%s) - start)) s; tables: $out/table.txt, data: $out/bench.json"
exit $status
