# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# kernels.sh - the kernel matrix's table and KP_KERNELS (sourced, bash).
#
# Kernels, by the names KP_KERNELS takes (default: all of them):
#   5.10     self-built from bullseye's linux-source-5.10: build only
#   6.1      Debian 12's own kernel (the machine's headers and image)
#   6.12     bookworm-backports 6.12 generic: real headers and image
#   6.12-rt  bookworm-backports 6.12 PREEMPT_RT: real headers and image
#   7.2      sid 7.2: real headers and image, built in a sid root (gcc-16)
KP_ALL_KERNELS="5.10 6.1 6.12 6.12-rt 7.2"

# kp_kernels: the selected kernel names, in matrix order; fails on a name
# it does not know.
kp_kernels() {
	local k sel=${KP_KERNELS:-$KP_ALL_KERNELS} out=
	for k in $sel; do
		case " $KP_ALL_KERNELS " in
		*" $k "*) ;;
		*) echo "KP_KERNELS: unknown kernel '$k' (known: $KP_ALL_KERNELS)" >&2; return 1 ;;
		esac
	done
	for k in $KP_ALL_KERNELS; do
		case " $sel " in *" $k "*) out="$out $k" ;; esac
	done
	echo "${out# }"
}

# kp_kernel_selected NAME: whether KP_KERNELS selects NAME.
kp_kernel_selected() {
	case " $(kp_kernels) " in *" $1 "*) return 0 ;; esac
	return 1
}

# kp_debian_kernel NAME: the real Debian kernels the matrix boots, as
# shell assignments: rel= (uname -r), pkgs= (pinned packages in
# testing/matrix/pins), image= (path of the kernel image in the unpacked
# root), builder= (host: bookworm's gcc-12 natively; sid: in a sid root),
# cpus= (the CPU models the guest suite runs on by default).
kp_debian_kernel() {
	local v
	case $1 in
	6.12 | 6.12-rt)
		v=6.12.95+deb12
		local flav=amd64 common=common
		[ "$1" = 6.12-rt ] && flav=rt-amd64 common=common-rt
		echo "rel=$v-$flav"
		echo "pkgs='linux-image-$v-$flav-unsigned linux-headers-$v-$flav" \
			"linux-headers-$v-$common linux-kbuild-$v'"
		echo "image=boot/vmlinuz-$v-$flav"
		echo "builder=host"
		if [ "$1" = 6.12 ]; then echo "cpus=intel"; else echo "cpus=amd"; fi
		;;
	7.2)
		v=7.2.13+deb14
		echo "rel=$v-amd64"
		echo "pkgs='linux-binary-$v-amd64 linux-headers-$v-amd64" \
			"linux-headers-$v-common linux-kbuild-$v'"
		echo "image=usr/lib/modules/$v-amd64/vmlinuz"
		echo "builder=sid"
		# AMD: detection there asks perf through the event probe
		# (perf_get_x86_pmu_capability() is KVM-only since 6.19).
		echo "cpus=amd"
		;;
	*) return 1 ;;
	esac
}
