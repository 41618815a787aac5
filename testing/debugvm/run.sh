#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The debug-kernel VM layer: the guest tests, the ioctl fuzzer
# (testing/fuzz), stress and kmemleak, in the debug kernel (KASAN, lockdep
# with PROVE_RCU(_LIST), PREEMPT + DEBUG_PREEMPT, DEBUG_ATOMIC_SLEEP,
# kmemleak, DEBUG_OBJECTS, DEBUG_LIST, UBSAN; testing/kunit-kernel.sh
# debug, the kernel the debug KUnit run uses too) under QEMU TCG.
#
# Usage: testing/debugvm/run.sh [--cpu intel|amd] [--steps "STEP..."]
#            [--tests "NN-name ..."] [--seed S] [--fuzz SECONDS]
#            [--timeout S] [--debian] [--pmu]
#   --steps   what to run (default: suite fuzz stress modcycle leak; see
#             guest.sh): the layer runs everything on Intel, and the
#             guest tests and the kmemleak checks on AMD
#   --fuzz T  make fuzz: fuzz for T seconds from --seed, then kmemleak
#   --debian  Debian's own kernel instead (fast, for developing the fuzzer;
#             no debug checkers)
#   --pmu     on the emulated-PMU machine (testing/qemu-pmu, two vCPUs,
#             -icount): the fuzzer's counter sources really count and
#             interrupt, the checkers see real PMIs (guest.sh's pmu step:
#             counter sources sampling beside perf while the fuzzer runs);
#             logs in build/debugvm-pmu-<cpu>/
# Fails on any failed check, a kernel report on the console (BUG, WARNING,
# KASAN, UBSAN, lockdep, RCU, ODEBUG, kmemleak: KP_BAD_CONSOLE), a hang or
# a missing result.  Prints the results as one flat TAP stream
# (testing/lib/tap.py --tap).  Logs: build/debugvm-<cpu>/.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

cpu=intel steps="suite fuzz stress modcycle leak" tests= seed=20261123
fuzz_seconds=0 timeout=${KP_DEBUGVM_TIMEOUT:-2400} debian=0 pmu=0
while [ $# -gt 0 ]; do
	case $1 in
	--cpu) cpu=$2; shift ;;
	--steps) steps=$2; shift ;;
	--tests) tests=$2; shift ;;
	--seed) seed=$2; shift ;;
	--fuzz) fuzz_seconds=$2; steps="fuzzlong leak"; shift ;;
	--timeout) timeout=$2; shift ;;
	--debian) debian=1 ;;
	--pmu) pmu=1 ;;
	*) kp_die "unknown option $1" ;;
	esac
	shift
done
[ "$fuzz_seconds" = 0 ] || timeout=$((fuzz_seconds + 900))

name=debugvm-$cpu
[ $pmu = 0 ] || name=debugvm-pmu-$cpu
logs=$KP_BUILD/$name
mkdir -p "$logs"
fail() { printf '1..1\nnot ok 1 - %s\n' "$name: $*"; exit 1; }

if [ $debian = 1 ]; then
	rel=$(kp_debian_release) || fail "no Debian kernel"
	kdir=/usr/src/linux-headers-$rel
	bzimage=/boot/vmlinuz-$rel
else
	kdir=$("$KP_ROOT/testing/kunit-kernel.sh" debug 2>"$logs/kernel.log") ||
		{ tail -n 30 "$logs/kernel.log" | sed 's/^/# /'; fail "could not build the debug kernel (log: $logs/kernel.log)"; }
	bzimage=$kdir/arch/x86/boot/bzImage
fi
kmod=$("$KP_ROOT/testing/kbuild.sh" "$kdir" 2>"$logs/kbuild.log" | tail -n1) ||
	{ tail -n 30 "$logs/kbuild.log" | sed 's/^/# /'; fail "building the module failed (log: $logs/kbuild.log)"; }
tool=$(find "$KP_BUILD/tool" -maxdepth 3 -type f -name kprofile -perm -u+x 2>/dev/null | head -n1 || true)

# The fuzzer, a root-owned set-user-ID copy of it, the guest script.
extra=$logs/extra
rm -rf "$extra"
mkdir -p "$extra/kp/bin" "$extra/kp/debugvm"
"$KP_ROOT/testing/fuzz/build.sh" "$extra/kp/bin" >"$logs/fuzz-build.log" 2>&1 ||
	{ cat "$logs/fuzz-build.log"; fail "building the fuzzer failed"; }
cp "$extra/kp/bin/kpfuzz" "$extra/kp/bin/kpfuzz-suid"
chmod 4755 "$extra/kp/bin/kpfuzz-suid"
cp "$KP_ROOT/testing/debugvm/guest.sh" "$extra/kp/debugvm/"
{
	echo "DEBUGVM_STEPS='$steps'"
	echo "FUZZ_SEED=$seed"
	echo "FUZZ_SECONDS=$fuzz_seconds"
	echo "FUZZ_SCALE=${KP_FUZZ_SCALE:-100}"
	# only some phases (developing): KP_FUZZ_PHASES="root race"
	echo "FUZZ_PHASES='${KP_FUZZ_PHASES:-}'"
	echo "CHURN_SECONDS=${KP_CHURN_SECONDS:-60}"
	echo "MOD_CYCLES=${KP_MOD_CYCLES:-50}"
} >"$extra/kp/debugvm/config"

img=(--out "$logs/initrd.gz" --kmod "$kmod" --mode debugvm --cpu "$cpu"
	--tests "$tests" --extra "$extra")
[ -n "$tool" ] && img+=(--tool "$tool")
pmuargs=()
if [ $pmu = 1 ]; then
	# perf beside kprofile, and the sampled workload.
	img+=(--perf)
	gcc -nostdlib -static -no-pie -o "$extra/kp/bin/loop" "$KP_ROOT/testing/pmu/progs/loop.S" ||
		fail "building testing/pmu/progs/loop.S failed"
	cp "$KP_ROOT/testing/pmu/guest/pmu-lib.sh" "$extra/kp/debugvm/"
	# Two vCPUs: CPU 1 goes offline and online in the pmu step.
	pmuargs=(--pmu emulated --smp 2)
fi
"$KP_ROOT/testing/vm/image.sh" "${img[@]}"

start=$(date +%s)
rc=0
# An RCU stall is reported after 120 s, not 21: on a loaded CI host a TCG
# vCPU can be descheduled for longer than the default without any bug.
# For the same reason no soft-lockup detector (the hard-lockup detector
# selects it); the NMI watchdog boots off and guest.sh's pmu step turns
# it on, to see kprofile refuse a counter source beside it.
"$KP_ROOT/testing/vm/boot.sh" --kernel "$bzimage" --initrd "$logs/initrd.gz" \
	--logs "$logs" --cpu "$cpu" --timeout "$timeout" ${pmuargs[@]+"${pmuargs[@]}"} \
	--append "rcupdate.rcu_cpu_stall_timeout=120 nmi_watchdog=0 nosoftlockup" 2>"$logs/boot.err" || rc=$?
echo "# $name: guest ran $(($(date +%s) - start)) s"

# One stream: the guest tests' as subtest "suite", the layer's own
# checks as subtest "checks" (guest.sh).
expect=()
case " $steps " in
*" suite "*)
	for t in "$KP_ROOT"/testing/guest/[0-9][0-9]-*.sh; do
		n=$(basename "$t" .sh)
		if [ -z "$tests" ] || case " $tests " in *" $n "*) true ;; *) false ;; esac; then
			expect+=(--expect "suite/$n")
		fi
	done
	;;
esac
# The other steps' checks (none when only the suite was asked for).
[ -z "$(printf '%s\n' $steps | grep -vx suite)" ] || expect+=(--expect checks)
# Status 1: guest.sh reported a failure (counted from its stream); any
# other, a kernel report (122), a hang (124) or a crash (125): one more.
why=()
case $rc in
0) ;;
1) why=(--exit-status 1) ;;
*) why=(--fail "the guest run failed (status $rc): $(tr '\n' ' ' <"$logs/boot.err" | cut -c1-600) (console: $logs/console.log)") ;;
esac
python3 "$KP_ROOT/testing/lib/tap.py" --tap --require-top-plan \
	"${expect[@]}" "${why[@]}" "$logs/output.log"
