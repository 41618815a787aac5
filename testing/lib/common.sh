# SPDX-License-Identifier: GPL-2.0
# common.sh - shared by the host-side test scripts (sourced, bash).

KP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KP_BUILD=${KP_BUILD:-$KP_ROOT/build}

kp_log() { echo "$(basename "$0"): $*" >&2; }
kp_die() { kp_log "$*"; exit 1; }

# kp_debian_release: the newest Debian kernel that has an image in /boot,
# its modules and its headers (the one the VM boots and the module is
# built against for it).
kp_debian_release() {
	local v rel=
	for v in $(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V); do
		v=${v#/boot/vmlinuz-}
		[ -d "/lib/modules/$v/kernel" ] && [ -f "/usr/src/linux-headers-$v/Makefile" ] && rel=$v
	done
	[ -n "$rel" ] || { kp_log "no Debian kernel with image, modules and headers (run testing/deps.sh)"; return 1; }
	echo "$rel"
}

# KP_BAD_CONSOLE, KP_OK_CONSOLE, kp_console_problems: shared with the guest.
# shellcheck source=testing/guest/console.sh
. "$KP_ROOT/testing/guest/console.sh"

# kp_scan_console FILE: print the offending lines, fail if there are any.
kp_scan_console() {
	local hits
	hits=$(kp_console_problems <"$1")
	[ -z "$hits" ] && return 0
	printf 'kernel reported a problem (%s):\n%s\n' "$1" "$hits" >&2
	return 1
}

# kp_build_progs: compile testing/guest/progs/*.c statically into
# $KP_BUILD/guest-progs (only what changed); print that directory.  Under
# a lock: make check builds guest images in two lanes at once.
kp_build_progs() {
	mkdir -p "$KP_BUILD"
	(
		flock 8
		kp_build_progs_locked
	) 8>"$KP_BUILD/guest-progs.lock"
}
kp_build_progs_locked() {
	local out=$KP_BUILD/guest-progs src bin
	mkdir -p "$out"
	for src in "$KP_ROOT"/testing/guest/progs/*.c; do
		[ -f "$src" ] || continue
		bin=$out/$(basename "$src" .c)
		[ "$bin" -nt "$src" ] && [ "$bin" -nt "$KP_ROOT/include/uapi/linux/kprofile.h" ] &&
			[ "$bin" -nt "$KP_ROOT/testing/lib/kp_test.h" ] && continue
		gcc -static -no-pie -O2 -g -Wall -Wextra -Werror \
			-I"$KP_ROOT/include/uapi" -I"$KP_ROOT/testing/lib" -o "$bin" "$src" >&2 ||
			{ kp_log "building $src failed"; return 1; }
	done
	# Programs that are not one static .c file build themselves.
	for src in "$KP_ROOT"/testing/guest/progs/*/build.sh; do
		[ -x "$src" ] || continue
		"$src" "$out" >&2 || { kp_log "$src failed"; return 1; }
	done
	echo "$out"
}

# kp_copy_with_libs STAGE FILE: FILE and every shared library ldd names
# for it, at the same paths under STAGE (a guest's root), copied once.
kp_copy_with_libs() {
	local stage=$1 file=$2 lib
	for lib in "$file" $(ldd "$file" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$stage$lib" ] && continue
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# kp_bundle_perf STAGE: Debian's perf (linux-perf) with its libraries and
# its perf-core directory (perf test's shell tests and attr files) under
# STAGE, and what perf test calls that busybox lacks: bash (some shell
# tests), objdump ("Object code reading") and a dynamically linked sleep
# (coreutils': "PERF_RECORD_* events" looks for the mmaps of its libc and
# ld.so; /usr/bin comes before busybox's /bin on the guest's PATH).
kp_bundle_perf() {
	local f
	[ -x /usr/bin/perf ] || { kp_log "no /usr/bin/perf: install linux-perf (testing/deps.sh)"; return 1; }
	kp_copy_with_libs "$1" /usr/bin/perf
	if [ -d /usr/lib/perf-core ]; then
		mkdir -p "$1/usr/lib"
		cp -a /usr/lib/perf-core "$1/usr/lib/"
	fi
	for f in /bin/bash /usr/bin/objdump /usr/bin/sleep; do
		[ -x "$f" ] && kp_copy_with_libs "$1" "$f"
	done
	# The standard-library modules of perf test's JSON linter
	# (tests/shell/lib/perf_json_output_lint.py); the interpreter is
	# image.sh's (tools/python/guest_bundle.py).
	kp_bundle_py_modules "$1" argparse json
}

# kp_bundle_py_modules STAGE MODULE...: the files of the host's Debian
# python3 standard-library MODULEs, and of every module they import, at
# the same paths under STAGE (a guest's root), copied once.  The
# interpreter itself is image.sh's (tools/python/guest_bundle.py).
# Nothing without /usr/bin/python3.
kp_bundle_py_modules() {
	[ -x /usr/bin/python3 ] || return 0
	/usr/bin/python3 - "$@" <<-'EOF'
		import os, shutil, sys
		stage = sys.argv[1]
		for name in sys.argv[2:]:
		    __import__(name)
		for mod in list(sys.modules.values()):
		    f = getattr(mod, "__file__", None)
		    if f and f.startswith("/usr/lib/python3"):
		        f = os.path.realpath(f)
		        os.makedirs(os.path.dirname(stage + f), exist_ok=True)
		        if not os.path.exists(stage + f):
		            shutil.copy2(f, stage + f)
	EOF
}
