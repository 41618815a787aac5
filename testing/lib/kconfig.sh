# SPDX-License-Identifier: GPL-2.0
# Sourced by the scripts that build test kernels (kunit-kernel.sh,
# matrix/rt-kernel.sh).

# kp_kernel_config WANT CONFIG_ARGS...: in the kernel tree in the current
# directory, tinyconfig, then CONFIG_ARGS (scripts/config options), then
# olddefconfig.  olddefconfig silently drops an option whose dependencies
# are missing: fail loudly instead of testing a kernel without, say,
# KASAN.  WANT names an array of the options (without CONFIG_) that must
# end up =y; HAVE_* and the options other options select are not checked.
kp_kernel_config() {
	local -n kp_want=$1
	local o missing=0
	shift
	make -s ARCH=x86_64 tinyconfig >&2
	scripts/config "$@"
	make -s ARCH=x86_64 olddefconfig >&2
	for o in "${kp_want[@]}"; do
		case $o in HAVE_* | PREEMPT_NOTIFIERS | TRACEPOINTS) continue ;; esac
		grep -q "^CONFIG_$o=y" .config ||
			{ echo "CONFIG_$o did not stick" >&2; missing=1; }
	done
	return $missing
}
