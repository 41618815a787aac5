#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs: busybox, testing/vm/init, kprofile.ko (and
# the KUnit module when built), the test programs, the guest tests, the
# kprofile tool with its shared libraries, and, for Debian's kernel, the
# modules 9p sharing needs.
#
# Usage: image.sh --out FILE --kmod DIR [--release REL] [--tool BIN]
#                 [--mode tests|run|kunit] [--cmd CMD] [--cpu intel|amd]
#                 [--share] [--tests "10-info ..."] [--extra DIR] [--modules DIR]
#                 [--perf] [--guest DIR]
#   --kmod DIR     a testing/kbuild.sh output directory
#   --perf         Debian's perf with its libraries (the emulated-PMU
#                  machine: testing/qemu-pmu)
#   --guest DIR    the guest test scripts (NN-*.sh) are DIR's instead of
#                  testing/guest's (testing/pmu/guest), with DIR's other
#                  files; lib.sh and the runner stay testing/guest's
#   --extra DIR    a tree copied over the image's root, modes kept (the
#                  debug layer's fuzzer, its set-user-ID copy, its scripts)
#   --release REL  a kernel in /lib/modules to take the 9p modules from
#   --modules DIR  take them from DIR instead of /lib/modules/REL (a
#                  kernel unpacked elsewhere, testing/matrix/debian.sh)
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

out= kmod= release= tool= mode=tests cmd= cpu= share=0 tests= extra= mdir= perf=0 guest=
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift ;;
	--kmod) kmod=$2; shift ;;
	--release) release=$2; shift ;;
	--modules) mdir=$2; shift ;;
	--tool) tool=$2; shift ;;
	--mode) mode=$2; shift ;;
	--cmd) cmd=$2; shift ;;
	--cpu) cpu=$2; shift ;;
	--share) share=1 ;;
	--tests) tests=$2; shift ;;
	--extra) extra=$2; shift ;;
	--perf) perf=1 ;;
	--guest) guest=$2; shift ;;
	*) kp_die "unknown option $1" ;;
	esac
	shift
done
[ -n "$out" ] && [ -f "$kmod/kmod/kprofile.ko" ] || kp_die "need --out and --kmod with a built kprofile.ko"

stage=$(mktemp -d "${out%/*}/.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"   # mktemp made it 0700: the guest's / must be 0755
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,mnt/share,root,kp/bin,kp/modules}

# busybox-static's, the only one that runs without libraries.
[ -x /bin/busybox ] || kp_die "no /bin/busybox (install busybox-static)"
cp /bin/busybox "$stage/bin/busybox"
cp "$KP_ROOT/testing/vm/init" "$stage/init"
chmod 755 "$stage/init"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$stage/etc/group"

# The modules under test.
cp "$kmod/kmod/kprofile.ko" "$stage/kp/"
[ -f "$kmod/kunit/kprofile_test.ko" ] && cp "$kmod/kunit/kprofile_test.ko" "$stage/kp/"

# Guest tests and their programs.
cp -r "$KP_ROOT/testing/guest" "$stage/kp/guest"
rm -rf "$stage/kp/guest/progs"
if [ -n "$guest" ]; then
	[ -d "$guest" ] || kp_die "--guest $guest is not a directory"
	rm -f "$stage"/kp/guest/[0-9][0-9]-*.sh
	cp "$guest"/* "$stage/kp/guest/"
fi
progs=$(kp_build_progs)
cp "$progs"/* "$stage/kp/bin/" 2>/dev/null || true

# The tool and every shared library it needs, at the same paths.
if [ -n "$tool" ] && [ -x "$tool" ]; then
	cp "$tool" "$stage/usr/bin/kprofile"
	for lib in $(ldd "$tool" | grep -o '/[^ ]*'); do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L --remove-destination "$lib" "$stage$lib"
	done
fi

[ "$perf" = 1 ] && { kp_bundle_perf "$stage" || kp_die "bundling perf for the guest failed"; }

# Debian's python3 with the stdlib modules the Python binding's tests use,
# and the binding at /kp/python (guest test 70-python).
if [ -x /usr/bin/python3 ] && [ -f "$KP_ROOT/tools/python/guest_bundle.py" ]; then
	/usr/bin/python3 "$KP_ROOT/tools/python/guest_bundle.py" "$stage" ||
		kp_die "bundling python3 for the guest failed"
fi
# Debian's modules for a 9p share (virtio-pci transport), dependencies first.
: >"$stage/kp/modules.order"
if [ "$share" = 1 ]; then
	[ -n "$release" ] || kp_die "--share needs --release"
	mdir=${mdir:-/lib/modules/$release}
	declare -A seen=()
	add_mod() {
		local m=$1 line dep
		[ -n "${seen[$m]:-}" ] && return 0
		seen[$m]=1
		line=$(grep -E "^(kernel/)?([^:]*/)?$m\.ko(\.[a-z]+)?:" "$mdir/modules.dep" | head -n1) || true
		if [ -z "$line" ]; then
			# Built in: nothing to load.
			grep -qE "/$m\.ko" "$mdir/modules.builtin" && return 0
			kp_die "module $m not found for $release"
		fi
		for dep in ${line#*:}; do
			dep=${dep##*/}
			add_mod "${dep%%.ko*}"
		done
		local path=${line%%:*}
		case $path in
		*.ko) cp "$mdir/$path" "$stage/kp/modules/" ;;
		*.ko.xz) xz -dc "$mdir/$path" >"$stage/kp/modules/$m.ko" ;;
		*.ko.zst) zstd -qdc "$mdir/$path" >"$stage/kp/modules/$m.ko" ;;
		*) kp_die "cannot unpack $path" ;;
		esac
		echo "$(basename "${path%%.ko*}").ko" >>"$stage/kp/modules.order"
	}
	for m in virtio_pci 9pnet_virtio 9p; do add_mod $m; done
fi

# Extra files (testing/debugvm/run.sh), over everything else.  Never
# through a link already in the stage (--remove-destination): one that
# names a host path would have the copy overwrite the host's file.
[ -z "$extra" ] || cp -a --remove-destination "$extra/." "$stage/"

# What the init does.
{
	echo "KP_MODE=$mode"
	echo "KP_CPU=$cpu"
	echo "KP_SHARE_WANTED=$share"
	echo "KP_TESTS='$tests'"
} >"$stage/kp/config"
printf '%s\n' "$cmd" >"$stage/kp/cmd"

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
