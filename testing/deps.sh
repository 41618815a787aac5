#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what building and testing kprofile needs, from Debian's archive
# only.  Idempotent: installs nothing (and does not touch the network) when
# everything is present; otherwise runs `apt-get update` once and installs
# only the missing packages.  `make check`, `make demo` and .ci/run call it.
#
# Usage: testing/deps.sh [--print]   (--print: list missing packages, exit)
set -euo pipefail

pkgs=(
	# the module, against Debian's kernel (headers) and in its VM (image)
	build-essential gcc make bc bison flex libssl-dev libelf-dev kmod
	linux-headers-amd64 linux-image-amd64
	# the KUnit kernels are built from Debian's source
	linux-source-6.1 xz-utils cpio
	# the VM rig
	qemu-system-x86 busybox-static
	# QEMU with the emulated PMU (testing/qemu-pmu/build.sh): Debian's
	# source, unpacked, built for x86_64-softmmu with 9p
	meson ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev
	libcap-ng-dev libattr1-dev dpkg-dev
	# the kernel matrix (testing/matrix): pahole for modules against
	# headers that ship vmlinux (BTF, 6.12+), debootstrap for the sid root
	# that builds against 7.2 with sid's compiler
	pahole debootstrap
	# make bench and the emulated-PMU machine: Debian's perf, bundled
	# into the guest beside kprofile
	linux-perf
	# static analysis (checkpatch.pl comes from the kernel source)
	sparse perl
	# the tool
	cmake g++ pkg-config libcli11-dev nlohmann-json3-dev libfmt-dev
	libdw-dev libgtest-dev libncurses-dev libisal-dev ccache
	# report --format pprof (profile.proto) and its test's independent reader
	libprotobuf-dev protobuf-compiler python3-protobuf
	# host-side tests and the test-output parser
	python3
	# installing like a distribution does (testing/host/install-*.sh):
	# man pages from scdoc sources, DKMS, the completion scripts' hosts,
	# and the Python package's build backend in a venv
	scdoc man-db dkms bash-completion zsh python3-venv python3-setuptools
)

missing=()
for p in "${pkgs[@]}"; do
	case $p in \#*) continue ;; esac
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing+=("$p")
done

if [ "${1:-}" = --print ]; then
	printf '%s\n' "${missing[@]}"
	exit 0
fi
if [ ${#missing[@]} = 0 ]; then
	echo "deps: all ${#pkgs[@]} packages present"
	exit 0
fi

echo "deps: installing ${missing[*]}"
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -q -y --no-install-recommends "${missing[@]}" </dev/null
