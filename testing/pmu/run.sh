#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The emulated-PMU layer of make check: Debian's 6.1 kernel on QEMU with
# the emulated PMU (testing/qemu-pmu), its perf driver as the oracle.
#
# Usage: testing/pmu/run.sh MODEL [--tests "NAMES"] [--kernel NAME]
#        testing/pmu/run.sh --determinism
#        testing/pmu/run.sh --scripts MODEL
#   MODEL   intel     Skylake-Client-v4,pmu=on (perfmon v2: 4 counters of
#                     48 bits, 3 fixed)
#           amd       EPYC,pmu=on (the 4 legacy counters)
#           amd-core  EPYC,pmu=on,+perfctr-core (PerfCtrExtCore's 6)
#           intel-v1  intel with pmu-version=1 (no fixed counters, no
#                     global registers: the counters' top bit says who
#                     overflowed)
#           intel-ebx intel with pmu-ebx=0x25 (CPUID.0AH:EBX marks core
#                     cycles, reference cycles and branches unavailable;
#                     the default 0x58 marks the LLC events and branch
#                     mispredicts: every bit but instructions' differs)
#   The last two are short boots: 10-boot, 54-kprofile-detect and
#   99-dmesg only (detection, a count and a recording), unless --tests;
#   intel-v1 also runs 70-hwtest, with two vCPUs (KP_PMU_SMP overrides):
#   hwtest's msr-after-rmmod takes CPU 1 offline and online (it does not
#   run 40-watchdog, whose busy loop with watchdog_thresh=1 is where a
#   second vCPU has shown a soft lockup).
#   Boots it with KP_PMU_SMP vCPUs (default 1; with more the kernel's
#   delay loop is calibrated on the command line, lpj=: boot.sh says
#   why), kprofile.ko loaded, the tool when built (make tool), Debian's
#   perf, the workload testing/pmu/progs/loop.S and the module
#   testing/pmu/kmod, and runs testing/pmu/guest/NN-*.sh (or NAMES) with
#   the guest test runner; prints their TAP.
#   --kernel NAME boots a real Debian kernel of the matrix instead of
#   6.1 (testing/matrix/debian.sh: its cached root, kprofile.ko built
#   against its headers; NAME 6.12 or 7.2), a short line: 10-boot,
#   52-kprofile-record, 54-kprofile-detect and 99-dmesg unless --tests
#   (every NMI accounted for, none of unknown reason, on
#   the newest kernel too).  Without pmu_regs.ko (60-regs): the sid root's
#   compiler builds kprofile.ko alone.
#   --scripts MODEL prints the guest scripts MODEL runs by default.
#   --determinism boots the Intel machine (one vCPU, nokaslr, QEMU's
#   -seed, a fixed RTC) twice, side by side, samples the same loop in each
#   (guest/determinism.sh: user instructions, then all), and prints TAP:
#   the two runs took samples, as many, at the same addresses with the
#   same periods.
# KP_QEMU_PMU=BINARY boots another build of the emulator (boot.sh);
# KP_PMU_SMP=N boots the models with N vCPUs (default 1).
# KP_PMU_KDIR=TREE boots that built kernel tree instead of Debian's (by
# hand: the debug kernel, whose config lacks the MSR driver and the NMI
# watchdog, so 40, 53 and hwtest's MSR checks cannot pass there).  Logs:
# build/pmu/MODEL/ (console.log, output.log).  KP_PMU_TIMEOUT: seconds a
# boot may take (default 900).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

model='' tests='' det=0 list=0 debian=''
while [ $# -gt 0 ]; do
	case $1 in
	--tests) tests=$2; shift ;;
	--kernel) debian=$2; shift ;;
	--determinism) det=1 model=intel ;;
	--scripts) list=1 ;;
	intel | amd | amd-core | intel-v1 | intel-ebx) model=$1 ;;
	*) kp_die "unknown argument $1 (MODEL: intel, amd, amd-core, intel-v1, intel-ebx; --tests, --determinism, --scripts)" ;;
	esac
	shift
done
[ -n "$model" ] || kp_die "usage: run.sh MODEL [--tests NAMES] | --determinism | --scripts MODEL"

# What QEMU advertises for each model (its defaults: testing/qemu-pmu):
# the vendor, counters, perfmon version (AMD: 0), CPUID.0AH:EBX.
props='' fixed=0 version=0 ebx='' short='' vcpus=1
case $model in
intel) cpu=intel gp=4 fixed=3 version=2 ebx=0x58 ;;
intel-v1) cpu=intel gp=4 version=1 ebx=0x58 props=pmu-version=1 short=" 70-hwtest" vcpus=2 ;;
intel-ebx) cpu=intel gp=4 fixed=3 version=2 ebx=0x25 props=pmu-ebx=0x25 short=" " ;;
amd) cpu=amd gp=4 ;;
amd-core) cpu=amd gp=6 props=+perfctr-core ;;
esac
[ -z "$short" ] || [ -n "$tests" ] || tests="10-boot 54-kprofile-detect${short% } 99-dmesg"
[ -z "$debian" ] || [ -n "$tests" ] || tests="10-boot 52-kprofile-record 54-kprofile-detect 99-dmesg"
if [ $list = 1 ]; then
	if [ -n "$tests" ]; then
		echo "$tests"
	else
		for t in "$KP_ROOT"/testing/pmu/guest/[0-9][0-9]-*.sh; do basename "$t" .sh; done | paste -sd' ' -
	fi
	exit 0
fi

out=$KP_BUILD/pmu
rel=$(kp_debian_release)
kdir=/usr/src/linux-headers-$rel
vmlinuz=/boot/vmlinuz-$rel config=/boot/config-$rel mods=/lib/modules/$rel/kernel release=(--release "$rel")
if [ -n "${KP_PMU_KDIR:-}" ]; then
	# Another built kernel tree (by hand, e.g. the debug kernel of
	# testing/kunit-kernel.sh debug): its bzImage, its modules.
	kdir=$KP_PMU_KDIR out=$KP_BUILD/pmu-kdir
	rel=$(cat "$kdir/include/config/kernel.release") || kp_die "KP_PMU_KDIR=$kdir is not a built tree"
	vmlinuz=$kdir/arch/x86/boot/bzImage config=$kdir/.config mods=$kdir release=()
fi
regs=1 kargs=
if [ -n "$debian" ]; then
	[ -z "${KP_PMU_KDIR:-}" ] || kp_die "--kernel and KP_PMU_KDIR exclude each other"
	. "$KP_ROOT/testing/matrix/kernels.sh"
	def=$(kp_debian_kernel "$debian") || kp_die "no real Debian kernel named '$debian' (testing/matrix/kernels.sh)"
	eval "$def"
	droot=$("$KP_ROOT/testing/matrix/debian.sh" root "$debian") || kp_die "unpacking Debian's $debian failed"
	# shellcheck disable=SC2154
	vmlinuz=$droot/$image out=$KP_BUILD/pmu-$debian release=() regs=0
	m=$droot/lib/modules/$rel
	[ -d "$m" ] || m=$droot/usr/lib/modules/$rel
	mods=$m/kernel config=$droot/boot/config-$rel
	[ -f "$config" ] || config=$m/config
	# As debian.sh vm: 6.12+ seed jitterentropy through SHA-3 at boot,
	# long enough under TCG for a soft-lockup report.
	kargs=initcall_blacklist=jent_mod_init
fi
mkdir -p "$out"
if [ -n "$debian" ]; then
	kmod=$("$KP_ROOT/testing/matrix/debian.sh" build "$debian" 2>"$out/kbuild-$$.log" | tail -n1) ||
		{ cat "$out/kbuild-$$.log" >&2; kp_die "building kprofile.ko for Debian's $debian failed"; }
else
	kmod=$("$KP_ROOT/testing/kbuild.sh" "$kdir" 2>"$out/kbuild-$$.log" | tail -n1) ||
		{ cat "$out/kbuild-$$.log" >&2; kp_die "building kprofile.ko for $rel failed"; }
fi
rm -f "$out/kbuild-$$.log"
# The emulator first: a cold build (minutes) is not a boot's time.
[ -n "${KP_QEMU_PMU:-}" ] || "$KP_ROOT/testing/qemu-pmu/build.sh" >/dev/null ||
	kp_die "building the emulated-PMU QEMU failed (testing/qemu-pmu/build.sh)"

# The workload and the register module, built once for all models.
build_guest_files() {
	local src=$KP_ROOT/testing/pmu bin=$out/bin km=$out/kmod-$rel
	mkdir -p "$bin" "$km"
	local p b
	# The workloads without libc: loop, ccflags (guest/15-ccflags.sh).
	for p in "$src"/progs/*.S; do
		b=$bin/$(basename "$p" .S)
		[ "$b" -nt "$p" ] && continue
		gcc -nostdlib -static -no-pie -o "$b" "$p" || kp_die "building $p failed"
	done
	# make hwtest's programs (guest/70-hwtest.sh: the guest has no gcc).
	mkdir -p "$bin/hwtest"
	for p in "$KP_ROOT/testing/hwtest/kp-hwcount.c" "$KP_ROOT/testing/hwtest/kp-hwsample.c" \
		"$KP_ROOT/testing/guest/progs/kp-hwlayer.c"; do
		b=$bin/hwtest/$(basename "$p" .c)
		[ "$b" -nt "$p" ] && [ "$b" -nt "$KP_ROOT/include/uapi/linux/kprofile.h" ] &&
			[ "$b" -nt "$KP_ROOT/testing/lib/kp_test.h" ] && continue
		gcc -static -O2 -Wall -Wextra -Werror -I"$KP_ROOT/include/uapi" -I"$KP_ROOT/testing/lib" \
			-o "$b" "$p" ||
			kp_die "building $p failed"
	done
	[ $regs = 1 ] || return 0
	cp -a -u "$src/kmod/pmu_regs.c" "$src/kmod/Kbuild" "$km/"
	make -C "$kdir" M="$km" -j"${JOBS:-2}" modules >"$km.log" 2>&1 ||
		{ cat "$km.log" >&2; kp_die "building pmu_regs.ko for $rel failed"; }
}
(
	flock 8
	build_guest_files
) 8>"$out/build.lock"

# The tool, when built (make tool), as vm.sh takes it.
tool=$(find -L "$KP_BUILD/tool" -maxdepth 3 -type f -name kprofile -perm -u+x 2>/dev/null | head -n1 || true)
[ -n "$tool" ] || kp_log "note: the kprofile tool is not built (make tool); running without it"

# image NAME MODE CMD: the initramfs for one boot in $out/NAME/.
image() {
	local name=$1 mode=$2 cmd=$3 extra=$out/$1/extra t=()
	rm -rf "$extra"
	mkdir -p "$extra/kp/bin" "$extra/kp/pmu"
	cp "$out/bin/loop" "$out/bin/ccflags" "$extra/kp/bin/"
	[ $regs = 0 ] || cp "$out/kmod-$rel/pmu_regs.ko" "$extra/kp/pmu/"
	# /dev/cpu/N/msr for guest/53-kprofile-coexist.sh.
	cp "$mods/arch/x86/kernel/msr.ko" "$extra/kp/pmu/" 2>/dev/null || true
	# make hwtest as a tree of its own (guest/70-hwtest.sh).
	mkdir -p "$extra/kp/hwtest/testing/lib"
	cp -a "$out/bin/hwtest" "$extra/kp/hwtest/bin"
	cp -a "$KP_ROOT/testing/hwtest.sh" "$KP_ROOT/testing/hwtest" "$extra/kp/hwtest/testing/"
	cp "$KP_ROOT/testing/lib/common.sh" "$extra/kp/hwtest/testing/lib/"
	# util-linux's rtcwake (busybox has none): hwtest's suspend.
	[ -x /usr/sbin/rtcwake ] && kp_copy_with_libs "$extra" /usr/sbin/rtcwake
	printf 'KP_PMU_MODEL=%s\nKP_PMU_LINE=%s\nKP_PMU_GP=%s\nKP_PMU_WIDTH=48\nKP_PMU_FIXED=%s\nKP_PMU_VERSION=%s\nKP_PMU_EBX=%s\n' \
		"$( [ "$cpu" = intel ] && echo intel || echo "$model")" "$model" "$gp" "$fixed" \
		"$version" "$ebx" >"$extra/kp/pmu.conf"
	[ -n "$tool" ] && t=(--tool "$tool")
	"$KP_ROOT/testing/vm/image.sh" --out "$out/$name/initrd.gz" --kmod "$kmod" \
		${release[@]+"${release[@]}"} --mode "$mode" --cpu "$cpu" --cmd "$cmd" --tests "$tests" \
		--perf --guest "$KP_ROOT/testing/pmu/guest" --extra "$extra" ${t[@]+"${t[@]}"}
}
# boot NAME SMP [boot.sh args]: boot $out/NAME/initrd.gz.
boot() {
	local b=(--kernel "$vmlinuz" --initrd "$out/$1/initrd.gz" --logs "$out/$1"
		--cpu "$cpu" --smp "$2" --pmu emulated --timeout "${KP_PMU_TIMEOUT:-900}")
	shift 2
	[ -n "$props" ] && b+=(--cpu-props "$props")
	b+=("$@")
	"$KP_ROOT/testing/vm/boot.sh" "${b[@]}"
}

if [ $det = 0 ]; then
	image "$model" tests ""
	# One vCPU by default (intel-v1: two): with two, the series of
	# 2026-11-27 (cc49538) let CPU 1 sit halted for 3 s of virtual time
	# while CPU 0 ran 40-watchdog's busy loop (a soft-lockup report, in 2
	# of 3 runs), and on EPYC Linux then finds the TSCs unsynchronized
	# (no invariant TSC, more than one socket: "Perf time to TSC" skips).
	smp=${KP_PMU_SMP:-$vcpus} more=()
	if [ "$smp" -gt 1 ]; then
		# Under icount the delay loop's calibration on the second CPU
		# does not end: give it, one loop a TSC cycle (1 GHz under
		# shift=0) a jiffy.
		hz=$(sed -n 's/^CONFIG_HZ=//p' "$config")
		[ -n "$hz" ] || kp_die "no CONFIG_HZ in $config"
		kargs="${kargs:+$kargs }lpj=$((1000000000 / hz))"
	fi
	[ -z "$kargs" ] || more=(--append "$kargs")
	rc=0
	boot "$model" "$smp" ${more[@]+"${more[@]}"} || rc=$?
	cat "$out/$model/output.log"
	exit $rc
fi

image determinism-1 run "sh /kp/guest/determinism.sh"
mkdir -p "$out/determinism-2"
cp "$out/determinism-1/initrd.gz" "$out/determinism-2/"
# The same machine twice: no address-space randomisation of the kernel,
# QEMU's random numbers (RDRAND) from a fixed seed, the same date in the
# RTC, which runs on virtual time.
same=(--append nokaslr --qemu "-seed 20 -rtc base=2026-01-01T00:00:00,clock=vm")
boot determinism-1 1 "${same[@]}" >/dev/null 2>"$out/determinism-1.err" &
p1=$!
boot determinism-2 1 "${same[@]}" >/dev/null 2>"$out/determinism-2.err" &
p2=$!
rc1=0 rc2=0
wait $p1 || rc1=$?
wait $p2 || rc2=$?
val() { sed -n "s/^$1=//p" "$out/determinism-$2/output.log" 2>/dev/null | tail -n1; }
n=0 fails=0
result() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "    ok $n - $2"
	else
		echo "    not ok $n - $2"
		fails=$((fails + 1))
	fi
	[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/    # /'
}
echo "TAP version 14"
echo "1..1"
echo "    # Subtest: determinism"
echo "    1..6"
for i in 1 2; do
	if [ $i = 1 ]; then rc=$rc1; else rc=$rc2; fi
	s=$(val user-samples $i)
	why=
	[ "$rc" = 0 ] || why="boot $i exited $rc: $(tail -n 5 "$out/determinism-$i.err" "$out/determinism-$i/output.log" 2>/dev/null)"
	r=1
	[ "$rc" = 0 ] && [ "${s:-0}" -gt 0 ] && r=0
	result $r "boot $i (one vCPU) sampled loop ($s samples)" "$why"
done
for r in user all; do
	s1=$(val "$r-samples" 1) s2=$(val "$r-samples" 2) d1=$(val "$r-digest" 1) d2=$(val "$r-digest" 2)
	what="instructions:u"
	[ $r = all ] && what="instructions (user and kernel)"
	r=1
	[ -n "$s1" ] && [ "$s1" = "$s2" ] && r=0
	result $r "$what: both boots took as many samples ($s1, $s2)"
	r=1
	[ -n "$d1" ] && [ "$d1" = "$d2" ] && r=0
	result $r "$what: at the same addresses with the same periods" \
		"digests $d1, $d2; first $(val "$r-first" 1) / $(val "$r-first" 2)"
done
if [ $fails = 0 ]; then echo "ok 1 - determinism"; else echo "not ok 1 - determinism"; fi
