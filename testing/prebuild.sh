#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check's builder (testing/check.sh starts it, under nice -n 19, in a
# session of its own, and stops it when the lanes end): the kernels and
# the emulator the selected layers (KP_LAYERS, KP_KERNELS, as check.sh
# reads them) will need, built ahead, in about the order the lanes reach
# them.  A guest keeps its host thread busy only about half of its wall
# time (the tests' sleeps, the idle guest: vm-intel took 211 CPU-s in 473
# s), so while both lanes run guests about one core is idle, and a cold
# run's builds take it here instead of waiting for their lane.  A lane
# that reaches a build the builder has begun waits for it (each script
# locks its cache entry), one it has not begun it builds itself; what is
# cached costs nothing.  A build it fails is the lane's to build again and
# report.  Prints what it built and its time.
set -uo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$KP_ROOT/testing/matrix/kernels.sh"

layers=${KP_LAYERS:-build tool host kunit vm bench debugvm installvm pmu matrix static}
have() { case " $layers " in *" $1 "*) return 0 ;; esac; return 1; }

build() {
	local t0=$SECONDS
	if "$@" >/dev/null 2>&1; then
		echo "prebuild: $* ($((SECONDS - t0)) s)"
	else
		echo "prebuild: $* failed ($((SECONDS - t0)) s; the layer that needs it builds it again)"
	fi
}

six1=0
kp_kernel_selected 6.1 && six1=1
# Lane 2's debug KUnit run and debug-kernel layers, lane 1's plain KUnit run.
if { have kunit && [ $six1 = 1 ]; } || have debugvm; then
	build "$KP_ROOT/testing/kunit-kernel.sh" debug
fi
if have kunit && [ $six1 = 1 ]; then
	build "$KP_ROOT/testing/kunit-kernel.sh" plain
fi
# Lane 1's kernel matrix: build-5.10, build-6.12 / kunit-6.12,
# build-7.2 / kunit-7.2; the 6.12-rt debug line.
if have matrix; then
	for k in $(kp_kernels); do
		case $k in
		5.10) build "$KP_ROOT/testing/kunit-kernel.sh" prepare 5.10 ;;
		6.12) build "$KP_ROOT/testing/kunit-kernel.sh" plain 6.12 ;;
		6.12-rt) build "$KP_ROOT/testing/matrix/rt-kernel.sh" ;;
		7.2) build "$KP_ROOT/testing/kunit-kernel.sh" plain 7.2 ;;
		esac
	done
fi
# Lane 2's emulated-PMU layer.
if have pmu && [ $six1 = 1 ] && [ -z "${KP_QEMU_PMU:-}" ]; then
	build "$KP_ROOT/testing/qemu-pmu/build.sh"
fi
echo "prebuild: done"
