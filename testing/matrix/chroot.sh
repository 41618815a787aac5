#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian root of another suite, made with debootstrap and cached, to build
# the module with the compiler a kernel was built with (sid's gcc-16 for
# Debian's 7.2): the kernel's kbuild tools are linked against that suite's
# libraries and its headers name that compiler.
#
# Usage:
#   chroot.sh root SUITE          make (or reuse) the root; print its path
#   chroot.sh run ROOT DIR... -- CMD [ARGS]
#       run CMD in ROOT, in a private mount namespace with /proc (objtool
#       reads /proc/self) and each DIR bind-mounted at its own path (the
#       repository, an unpacked kernel)
#
# The root is keyed by suite, recipe (the package list below) and the
# compiler's pinned version in $KPROFILE_CACHE.  The compiler package is
# pinned like every download (testing/matrix/pins: gcc-16 sid VERSION
# SHA256): the root is made only if debootstrap installs exactly that
# .deb; when sid has moved on it fails, saying so ('apt.sh pin sid gcc-16'
# prints the new pin; a root made before stays valid under its own key).
# The day it was made and the compiler's version are written to
# ROOT/../made.  The mirror is the machine's (testing/matrix/apt.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${KPROFILE_CACHE:-/var/cache/kprofile}

# debootstrap, mounts and chroot need root: sudo when not root (as deps.sh).
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)

log() { echo "chroot.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# What a module build needs: the compiler the headers name, make, the C
# library headers, pahole (BTF), and what the kbuild tools link against.
include_of() {
	case $1 in
	sid) echo gcc-16,libc6-dev,make,pahole,libelf1t64,libssl3t64,zlib1g ;;
	*) die "no recipe for suite $1" ;;
	esac
}

# compiler_of SUITE: the compiler package the suite's kernel headers name.
compiler_of() {
	case $1 in
	sid) echo gcc-16 ;;
	*) die "no recipe for suite $1" ;;
	esac
}

# pin_of PACKAGE SUITE: "version sha256" from testing/matrix/pins.
pin_of() {
	awk -v p="$1" -v s="$2" '$1 == p && $2 == s { print $3, $4; found = 1 }
		END { exit !found }' "$here/pins" ||
		die "$1 ($2) is not pinned in $here/pins ('apt.sh pin $2 $1' prints a pin)"
}

# check_pin ROOT PACKAGE VERSION SHA256: the .deb debootstrap installed is
# the pinned one.
check_pin() {
	local root=$1 pkg=$2 ver=$3 sha=$4 deb got_ver got_sha
	deb=$(find "$root/var/cache/apt/archives" -maxdepth 1 -name "${pkg}_*.deb" 2>/dev/null | head -n1)
	[ -n "$deb" ] || { log "debootstrap left no $pkg .deb to check"; return 1; }
	got_ver=$(dpkg-deb -f "$deb" Version)
	got_sha=$(sha256sum "$deb" | cut -d' ' -f1)
	if [ "$got_ver" != "$ver" ] || [ "$got_sha" != "$sha" ]; then
		log "the suite installed $pkg $got_ver (sha256 $got_sha), pinned $ver ($sha):" \
			"the archive moved on; 'testing/matrix/apt.sh pin ${suite:-sid} $pkg' prints the new pin"
		return 1
	fi
}

make_root() {
	local suite=$1 inc key dir cc ccver ccsha
	inc=$(include_of "$suite")
	cc=$(compiler_of "$suite")
	read -r ccver ccsha < <(pin_of "$cc" "$suite")
	key=chroot-$suite-$cc-$ccver-$(printf '%s\n' "$suite" "$inc" minbase "$cc=$ccver" "$ccsha" |
		sha256sum | cut -c1-12)
	dir=$cache/$key
	mkdir -p "$cache"
	exec 9>"$cache/$key.lock"
	flock 9
	if [ -f "$dir/.complete" ]; then
		echo "$dir/root"
		return 0
	fi
	command -v debootstrap >/dev/null || die "no debootstrap (run testing/deps.sh)"
	log "making a $suite root in $dir (once; a few minutes, ~0.6 GB)"
	rm -rf "$dir"
	mkdir -p "$dir"
	"${sudo[@]}" debootstrap --variant=minbase --include="$inc" \
		--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		"$suite" "$dir/root" "$("$here/apt.sh" mirror)" >"$dir/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$dir/debootstrap.log" >&2; die "debootstrap $suite failed (log: $dir/debootstrap.log)"; }
	check_pin "$dir/root" "$cc" "$ccver" "$ccsha" ||
		{ "${sudo[@]}" rm -rf "$dir"; die "not making the $suite root with an unpinned $cc"; }
	"${sudo[@]}" rm -rf "$dir/root/var/cache/apt/archives/"*.deb
	{
		echo "suite=$suite made=$(date -u +%F) $cc=$ccver (sha256 $ccsha)"
		"${sudo[@]}" chroot "$dir/root" sh -c "$cc --version | head -n1; pahole --version" 2>/dev/null || true
	} >"$dir/made"
	touch "$dir/.complete"
	echo "$dir/root"
}

run_in() {
	local root=$1 binds=() d
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do binds+=("$(realpath "$1")"); shift; done
	[ "${1:-}" = -- ] || die "usage: chroot.sh run ROOT DIR... -- CMD"
	shift
	[ -d "$root/usr" ] || die "$root is not a root"
	for d in "${binds[@]}"; do "${sudo[@]}" mkdir -p "$root$d"; done
	# The mounts live and die with this namespace: nothing to clean up.
	# Under sudo the command still runs as the caller (its files are theirs).
	# shellcheck disable=SC2016
	"${sudo[@]}" env KP_USERSPEC="${sudo:+$(id -u):$(id -g)}" \
		unshare --mount --propagation private -- bash -c '
		set -e
		root=$1; shift
		mount -t proc proc "$root/proc"
		while [ "$1" != -- ]; do mount --bind "$1" "$root$1"; shift; done
		shift
		exec chroot ${KP_USERSPEC:+--userspec=$KP_USERSPEC} "$root" /usr/bin/env -i PATH=/usr/bin:/bin:/usr/sbin:/sbin \
			HOME=/root LC_ALL=C.UTF-8 "$@"' \
		run-in "$root" "${binds[@]}" -- "$@"
}

cmd=${1:-}
shift || true
case $cmd in
root) make_root "${1:?usage: chroot.sh root SUITE}" ;;
run) run_in "$@" ;;
*) die "usage: chroot.sh root SUITE | run ROOT DIR... -- CMD" ;;
esac
