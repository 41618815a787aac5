#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the KUnit suites (kunit/) in a KUnit kernel under QEMU TCG.
#
# Usage: testing/kunit/run.sh plain|debug [--kernel VERSION] [--cpu intel|amd]
#        [--timeout S]
#
# Gets the kernel from testing/kunit-kernel.sh (built once, then cached;
# --kernel 6.12 or 7.2: from that version's pinned Debian source, else
# the host's linux-source-6.1),
# builds kprofile.ko and kprofile_test.ko against it, boots it with a
# busybox initramfs whose init (testing/vm/init, KP_MODE=kunit) loads
# both modules, lists the suites the test module registered, unloads, and
# for the debug kernel scans kmemleak twice.  The host then parses the KTAP
# from the console with testing/lib/tap.py and fails on:
#   - any "not ok", a suite without its result, a plan mismatch;
#   - a kernel report on the console (BUG, WARNING, lockdep, KASAN, ...);
#   - anything kmemleak reports after the modules are gone;
#   - a hang (timeout) or a guest that stops without its status.
# Prints the results as one flat TAP stream (testing/lib/tap.py --tap).
# Logs: build/kunit-<variant>/ (build/kunit-<variant>-<VERSION>/ with --kernel).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

variant=${1:?usage: run.sh plain|debug [--kernel VERSION] [--cpu intel|amd] [--timeout S]}
shift
cpu=intel timeout=900 version=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) version=$2; shift ;;
	--cpu) cpu=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	*) kp_die "unknown option $1" ;;
	esac
	shift
done

name=kunit-$variant${version:+-$version}
logs=$KP_BUILD/$name
mkdir -p "$logs"
fail() { printf '1..1\nnot ok 1 - %s\n' "$name: $*"; exit 1; }

if [ ! -f "$KP_ROOT/kunit/Kbuild" ]; then
	printf '1..1\nok 1 - %s # SKIP no kunit/Kbuild\n' "$name"
	exit 0
fi

kdir=$("$KP_ROOT/testing/kunit-kernel.sh" "$variant" $version 2>"$logs/kernel.log") ||
	{ tail -n 30 "$logs/kernel.log"; fail "could not build the $variant KUnit kernel (log: $logs/kernel.log)"; }
kmod=$("$KP_ROOT/testing/kbuild.sh" "$kdir" CONFIG_KPROFILE_KUNIT_TEST=m \
	2>"$logs/kbuild.log" | tail -n1) ||
	{ tail -n 30 "$logs/kbuild.log"; fail "building the modules failed (log: $logs/kbuild.log)"; }
[ -f "$kmod/kunit/kprofile_test.ko" ] || fail "kunit/ did not produce kprofile_test.ko"

"$KP_ROOT/testing/vm/image.sh" --out "$logs/initrd.gz" --kmod "$kmod" --mode kunit --cpu "$cpu"
# The debug kernel has the lockup detectors (for the debug-kernel layer's
# NMI watchdog): off here, a TCG vCPU descheduled on a loaded host is no
# lockup, and the suites' fake PMU is the only one they should see.
append=()
[ "$variant" = debug ] && append=(--append "nmi_watchdog=0 nosoftlockup")
rc=0
"$KP_ROOT/testing/vm/boot.sh" --kernel "$kdir/arch/x86/boot/bzImage" \
	--initrd "$logs/initrd.gz" --logs "$logs" --cpu "$cpu" \
	--timeout "$timeout" ${append[@]+"${append[@]}"} 2>"$logs/boot.err" || rc=$?

# The suites the module registered: each must have reported.
expect=() why=()
for s in $(sed -n 's/^KP-SUITE: //p' "$logs/output.log"); do expect+=(--expect "$s"); done
[ ${#expect[@]} != 0 ] || why+=(--fail "kprofile_test.ko registered no suites")
leaks=$(sed -n '/^KP-KMEMLEAK-BEGIN$/,/^KP-KMEMLEAK-END$/p' "$logs/output.log" | grep -v '^KP-KMEMLEAK' || true)
[ -z "$leaks" ] || why+=(--fail "kmemleak reports leaks:
$(printf '%s\n' "$leaks" | head -n 40)")
[ $rc = 0 ] ||
	why+=(--fail "the guest run failed (status $rc): $(tr '\n' ' ' <"$logs/boot.err") (console: $logs/console.log)")

# KTAP: parameterised tests (depth 2) print no plan on 6.1.
python3 "$KP_ROOT/testing/lib/tap.py" --tap --plan-optional-depth 2 --ignore-top-plan \
	"${expect[@]}" "${why[@]}" "$logs/console.log"
