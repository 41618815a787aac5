# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# pmu/check.sh - the emulated-PMU layer's lines of make check, and the
# queue of lines that either lane takes when its own are done (sourced by
# testing/check.sh, which provides run_one, run_counted, vm_tap, record,
# have and $logs).
#
# The pmu layer (testing/pmu/run.sh): the emulator's build is one test
# (pmu-qemu), then one line per CPU model, the debug kernel on the Intel
# model, Debian's 7.2 on it, and the determinism check.  Without the
# emulator the other lines cannot run: each is recorded as skipped, with
# the reason.
#
# The shared queue (tail_queue): these lines, and debugvm-amd, are not
# tied to a lane.  Lane 2 reaches them after the debug kernel's Intel
# layer, lane 1 after the kernel matrix; each lane takes the next line no
# lane has taken (mkdir in $logs is atomic), in the order of
# tail_queue_lines, which is their priority: the PMU models first (the
# hardware layer against a PMU that Linux's perf accepts), the short
# lines next, the determinism check last.  So the lanes end together, and
# what the time budget leaves out is the least important.

# tail_queue_lines: the queue's lines, in the order they are taken.
tail_queue_lines() {
	echo pmu-intel pmu-amd pmu-amd-core pmu-intel-v1 pmu-intel-ebx \
		debugvm-pmu-intel pmu-intel-7.2 debugvm-pmu-amd debugvm-amd pmu-determinism
}

# pmu_emulator: succeeds when the emulator is there.  The first lane to
# ask builds it (the pmu-qemu line; qemu-pmu/build.sh locks its cache
# entry against the builder); a lane asking meanwhile waits for the
# result.  KP_QEMU_PMU (a development tree) skips the build.
pmu_emulator() {
	[ -n "${KP_QEMU_PMU:-}" ] && return 0
	if mkdir "$logs/taken-pmu-qemu" 2>/dev/null; then
		run_one pmu-qemu "$KP_ROOT/testing/qemu-pmu/build.sh"
		if grep -q '^pmu-qemu 1 ' "$logs/counts"; then
			echo ok >"$logs/pmu-qemu.state.tmp"
		elif grep -q '^pmu-qemu 0 0 1$' "$logs/counts"; then
			echo "pmu-qemu was skipped" >"$logs/pmu-qemu.state.tmp"
		else
			echo "the emulator's build failed: pmu-qemu" >"$logs/pmu-qemu.state.tmp"
		fi
		mv "$logs/pmu-qemu.state.tmp" "$logs/pmu-qemu.state"
	fi
	while [ ! -f "$logs/pmu-qemu.state" ]; do
		sleep 5
	done
	[ "$(cat "$logs/pmu-qemu.state")" = ok ]
}

# tail_line NAME: run one line of the queue.
tail_line() {
	local m=$1
	if [ "$m" = debugvm-amd ]; then
		# On AMD, the scripts whose paths depend on the CPU model
		# (detection, the source tables, the hardware layer); the
		# others run on Intel in debugvm-intel with the same debug
		# checkers, and on AMD in the matrix's AMD lines.
		run_counted debugvm-amd "$KP_ROOT/testing/debugvm/run.sh" --cpu amd \
			--steps "suite leak" --tests "10-info 20-sources 40-hwlayer"
		return
	fi
	if ! pmu_emulator; then
		echo "-- $m: skipped: no emulator ($(cat "$logs/pmu-qemu.state" 2>/dev/null))"
		record "$m" 0 0 1
		return
	fi
	case $m in
	pmu-determinism)
		KP_VM_EXPECT=determinism run_counted pmu-determinism vm_tap pmu-determinism \
			"$KP_ROOT/testing/pmu/run.sh" --determinism ;;
	debugvm-pmu-intel)
		# The debug kernel on the PMU machine: its checkers see real
		# PMIs (kprofile's sampling, perf's beside it) and the
		# fuzzer's counter sources count.
		run_counted debugvm-pmu-intel "$KP_ROOT/testing/debugvm/run.sh" --cpu intel --pmu \
			--steps "pmu fuzz leak" ;;
	debugvm-pmu-amd)
		# The same pmu step on the AMD model (the Amd64 interface's
		# NMI path, its watchdog, hotplug and registers), no fuzzer.
		run_counted debugvm-pmu-amd "$KP_ROOT/testing/debugvm/run.sh" --cpu amd --pmu \
			--steps "pmu leak" ;;
	pmu-intel-7.2)
		# The newest kernel of the matrix on the Intel model, a short
		# line (its root and kprofile.ko are matrix-7.2-build's,
		# cached).
		KP_VM_EXPECT=$("$KP_ROOT/testing/pmu/run.sh" --scripts intel --kernel 7.2) \
			run_counted pmu-intel-7.2 vm_tap pmu-intel-7.2 "$KP_ROOT/testing/pmu/run.sh" intel --kernel 7.2 ;;
	pmu-*)
		KP_VM_EXPECT=$("$KP_ROOT/testing/pmu/run.sh" --scripts "${m#pmu-}") \
			run_counted "$m" vm_tap "$m" "$KP_ROOT/testing/pmu/run.sh" "${m#pmu-}" ;;
	esac
}

# tail_line_selected NAME: whether KP_LAYERS and KP_KERNELS select NAME.
tail_line_selected() {
	case $1 in
	debugvm-amd) have debugvm ;;
	debugvm-pmu-*) have pmu && have debugvm && kp_kernel_selected 6.1 ;;
	pmu-intel-7.2) have pmu && kp_kernel_selected 6.1 && kp_kernel_selected 7.2 ;;
	*) have pmu && kp_kernel_selected 6.1 ;;
	esac
}

# tail_queue: take and run the queue's lines no lane has taken yet.
tail_queue() {
	local m
	for m in $(tail_queue_lines); do
		tail_line_selected "$m" || continue
		mkdir "$logs/taken-$m" 2>/dev/null || continue
		tail_line "$m"
	done
}
