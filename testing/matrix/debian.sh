#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real Debian kernels other than the machine's (6.12, 6.12-rt, 7.2; see
# kernels.sh): unpack their pinned packages into a cached root, build
# kprofile.ko against their headers with -Werror, and boot their image
# under QEMU with the module loaded.  Nothing is installed: the machine's
# /boot, /lib/modules and /usr/src stay as they are.
#
# Usage:
#   debian.sh root NAME     unpack (or reuse) NAME's root; print its path
#   debian.sh build NAME    build the module (-Werror) against NAME's
#                           headers: natively with bookworm's gcc-12
#                           (6.12), or in a sid root with gcc-16 (7.2);
#                           print the kbuild.sh output directory
#   debian.sh vm NAME CPU [vm.sh args]
#                           boot NAME's image with the module built by
#                           "build" (testing/vm/vm.sh --tests by default)
#
# Roots live in $KPROFILE_CACHE/debian-NAME-<key>/root, the key being the
# pinned packages (version + sha256) and this recipe's version.  The
# headers' Makefile names /usr/src paths (the common headers; 7.2 also
# KBUILD_OUTPUT): they are pointed into the root.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/common.sh"
. "$here/kernels.sh"
cache=${KPROFILE_CACHE:-/var/cache/kprofile}
recipe=2

kernel() {
	local def
	def=$(kp_debian_kernel "$1") || kp_die "no real Debian kernel named '$1' (6.12, 6.12-rt, 7.2)"
	eval "$def"
}

root_of() {
	local name=$1 p key dir debs pinned="recipe=$recipe"
	kernel "$name"
	# shellcheck disable=SC2154
	for p in $pkgs; do
		pinned+=$'\n'$(awk -v p="$p" '$1 == p { print; f = 1 } END { exit !f }' "$here/pins") ||
			kp_die "$p is not pinned in $here/pins"
	done
	key=$(echo "$pinned" | sha256sum | cut -c1-12)
	dir=$cache/debian-$name-$key
	mkdir -p "$cache"
	exec 9>"$dir.lock"
	flock 9
	if [ -f "$dir/.complete" ]; then
		echo "$dir/root"
		return 0
	fi
	# shellcheck disable=SC2086
	debs=$("$here/apt.sh" fetch $pkgs) || kp_die "downloading $name's packages failed"
	kp_log "unpacking $name ($rel) into $dir"
	rm -rf "$dir"
	mkdir -p "$dir/root"
	for p in $debs; do dpkg -x "$p" "$dir/root"; done
	sed -i "s| /usr/src/| $dir/root/usr/src/|; s|=/usr/src/|=$dir/root/usr/src/|" \
		"$dir/root/usr/src/linux-headers-$rel/Makefile"
	# shellcheck disable=SC2154
	[ -f "$dir/root/$image" ] || kp_die "no kernel image $image in $name's packages"
	touch "$dir/.complete"
	echo "$dir/root"
}

build() {
	local name=$1 root kdir croot
	root=$(root_of "$name")
	kernel "$name"
	kdir=$root/usr/src/linux-headers-$rel
	case $builder in
	host)
		KP_FLAVOR=werror "$KP_ROOT/testing/kbuild.sh" "$kdir" KCFLAGS=-Werror
		;;
	sid)
		croot=$("$here/chroot.sh" root sid)
		"$here/chroot.sh" run "$croot" "$KP_ROOT" "$root" -- \
			env JOBS="${JOBS:-2}" KP_FLAVOR=werror \
			"$KP_ROOT/testing/kbuild.sh" "$kdir" KCFLAGS=-Werror
		;;
	esac
}

vm() {
	local name=$1 cpu=$2 root out
	shift 2
	root=$(root_of "$name")
	kernel "$name"
	out=$(build "$name" 2>"$KP_BUILD/matrix-$name-build.log" | tail -n1) ||
		{ cat "$KP_BUILD/matrix-$name-build.log" >&2; kp_die "building kprofile.ko for $name failed"; }
	[ $# -gt 0 ] || set -- --tests
	# 6.12+ seed jitterentropy through SHA-3 at boot, which under TCG on
	# a busy host runs long enough for a soft-lockup report: skip it.
	"$KP_ROOT/testing/vm/vm.sh" --name "matrix-$name" --kernel "$root/$image" \
		--kmod "$out" --release "$rel" --modules "$root/lib/modules/$rel" \
		--append initcall_blacklist=jent_mod_init --cpu "$cpu" "$@"
}

mkdir -p "$KP_BUILD"
cmd=${1:-}
shift || true
case $cmd in
root) root_of "${1:?usage: debian.sh root NAME}" ;;
build) build "${1:?usage: debian.sh build NAME}" ;;
vm) [ $# -ge 2 ] || kp_die "usage: debian.sh vm NAME CPU [vm.sh args]"; vm "$@" ;;
*) kp_die "usage: debian.sh root|build NAME | vm NAME CPU [vm.sh args]" ;;
esac
