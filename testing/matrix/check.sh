# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# matrix/check.sh - the kernel matrix's layers of make check (sourced by
# testing/check.sh, which provides run_one, run_counted and vm_tap).
#
# For each real Debian kernel KP_KERNELS selects (6.12, 6.12-rt, 7.2;
# testing/matrix/kernels.sh):
#   matrix-K-build      kprofile.ko builds with -Werror against K's headers
#                       with K's compiler (testing/matrix/debian.sh build)
#   matrix-K-vm-CPU     the guest suite in K's own image (debian.sh vm), on
#                       the CPU models kernels.sh gives K, or on all of
#                       KP_MATRIX_CPUS ("intel amd")
# and with 6.12-rt also
#   matrix-6.12-rt-debug-vm-intel
#                       the guest tests that drive the tracepoint probes,
#                       the hrtimers and the profile paths (30-profiles,
#                       35-privileges, 60-thread, 80-stress) in a
#                       self-built PREEMPT_RT kernel with DEBUG_ATOMIC_SLEEP,
#                       lockdep and RCU checks (testing/matrix/rt-kernel.sh),
#                       which Debian's -rt kernel lacks; the whole suite
#                       runs on Debian's -rt image just before.
#                       KP_RT_DEBUG_TESTS=all runs the whole suite there too.
# The machine's own 6.1 is the build, kunit and vm layers.

# matrix_debian_layers [--reverse]: the lines above, kernel by kernel, for
# each kernel no other lane has taken.  make check's two lanes both call
# it when their own layers are done, lane 1 from the first kernel and lane
# 2 (--reverse) from the last, so that whichever lane is free takes the
# next kernel (each kernel's lines stay together, in one lane).  A kernel
# is taken by creating its directory in $logs (mkdir is atomic).
matrix_debian_layers() {
	local k cpu cpus def order
	order=$(kp_kernels)
	[ "${1:-}" = --reverse ] && order=$(printf '%s\n' $order | tac)
	for k in $order; do
		def=$(kp_debian_kernel "$k") || continue
		mkdir "$logs/matrix-taken-$k" 2>/dev/null || continue
		cpus=$(eval "$def"; echo "$cpus")
		cpus=${KP_MATRIX_CPUS:-$cpus}
		run_one "matrix-$k-build" "$KP_ROOT/testing/matrix/debian.sh" build "$k"
		for cpu in $cpus; do
			run_counted "matrix-$k-vm-$cpu" vm_tap "matrix-$k-vm-$cpu" \
				"$KP_ROOT/testing/matrix/debian.sh" vm "$k" "$cpu" --tests
		done
		[ "$k" = 6.12-rt ] || continue
		KP_VM_EXPECT=$(matrix_rt_debug_tests) run_counted matrix-6.12-rt-debug-vm-intel \
			vm_tap matrix-6.12-rt-debug-vm-intel matrix_rt_debug_vm intel
	done
}

# matrix_rt_debug_tests: the guest scripts the RT debug kernel runs (empty:
# all of them).
matrix_rt_debug_tests() {
	[ "${KP_RT_DEBUG_TESTS:-}" = all ] || echo "30-profiles 35-privileges 60-thread 80-stress"
}

# matrix_rt_debug_vm CPU: the guest tests in rt-kernel.sh's kernel.
matrix_rt_debug_vm() {
	local tree tests
	tree=$("$KP_ROOT/testing/matrix/rt-kernel.sh") || return 1
	tests=$(matrix_rt_debug_tests)
	"$KP_ROOT/testing/vm/vm.sh" --name matrix-6.12-rt-debug \
		--kernel "$tree/arch/x86/boot/bzImage" --kdir "$tree" --cpu "$1" \
		--tests ${tests:+"$tests"}
}
