#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build QEMU's qemu-system-x86_64 from Debian bookworm's own QEMU source
# with the emulated-PMU patch series (testing/qemu-pmu/patches/series)
# applied, once per cache key; print the binary's path on the last line of
# stdout.
#
# Usage: testing/qemu-pmu/build.sh [--key]   (--key: print the key, exit)
#
# The source is Debian's qemu package, fetched through the private apt
# configuration of testing/matrix/apt.sh (deb-src of bookworm, -updates
# and -security from the machine's own mirrors; never /etc/apt), its .dsc
# pinned by sha256 below, unpacked with dpkg-source -x (Debian's patches:
# the 7.2.x stable releases and packaging fixes).  Then each patch named
# in patches/series (one file name a line; blank lines and # comments
# skipped) is applied with patch -p1, in order.  No series, or an empty
# one: plain Debian QEMU.
#
# The binary is cached as $KPROFILE_CACHE/qemu-pmu/<key>/qemu-system-x86_64,
# <key> hashing this script, the series and every patch it names, with
# build.log and info (version, patches) beside it.  Builds are serialised
# by a lock (two at once would share two cores); a second caller for the
# same key waits and takes the first's binary.  JOBS (default 2) sets
# ninja's parallelism.  Cold: configure about 40 s, ninja 5-8 min on two
# idle cores (39 min at load 6); compiles go through ccache, so a rebuild
# after a change to the patches compiles only what they touch.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

pkg=qemu
ver=1:7.2+dfsg-7+deb12u18
dsc_sha256=6b6bd27b947ec89e40a1d6b26d9c9f3c698ca691da13163e0483f6061bbb20b3

here=$KP_ROOT/testing/qemu-pmu
cache=${KPROFILE_CACHE:-/var/cache/kprofile}
base=$cache/qemu-pmu
series=$here/patches/series

# The patches, in order.
patches=()
if [ -f "$series" ]; then
	while read -r p; do
		p=${p%%#*}
		p=$(echo "$p" | tr -d '[:space:]')
		[ -n "$p" ] || continue
		[ -f "$here/patches/$p" ] || kp_die "patches/series names $p, which is not in $here/patches"
		patches+=("$p")
	done <"$series"
fi

# The key: this script, the series, and each patch (name and content).
key=$({
	sha256sum <"$0"
	[ -f "$series" ] && sha256sum <"$series"
	for p in ${patches[@]+"${patches[@]}"}; do
		echo "$p"
		sha256sum <"$here/patches/$p"
	done
} | sha256sum | cut -c1-16)
if [ "${1:-}" = --key ]; then
	echo "$key"
	exit 0
fi
[ $# = 0 ] || kp_die "usage: build.sh [--key]"

out=$base/$key
bin=$out/qemu-system-x86_64
if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

mkdir -p "$base"
exec 9>"$base/build.lock"
if ! flock -n 9; then
	kp_log "another QEMU build is running (lock $base/build.lock): waiting"
	flock 9
fi
if [ -x "$bin" ]; then
	echo "$bin"
	exit 0
fi

for t in meson ninja dpkg-source patch; do
	command -v "$t" >/dev/null || kp_die "no $t: run testing/deps.sh"
done

# One work tree, rebuilt from scratch for each key (295 MB of source and
# about 400 MB of objects); removed once the binary is cached.
work=$base/work
log=$base/build-$key.log
rm -rf "$work" "$out.tmp"
mkdir -p "$work" "$out.tmp"
: >"$log"
fail() {
	kp_log "$1 (log: $log)"
	tail -n 25 "$log" | sed 's/^/  | /' >&2
	exit 1
}
t0=$(date +%s)

dsc=$("$KP_ROOT/testing/matrix/apt.sh" source "$pkg" "$ver" "$dsc_sha256" "$base/src" 2>>"$log" | tail -n1) ||
	fail "fetching Debian's source of $pkg=$ver failed"
kp_log "unpacking ${dsc##*/}"
dpkg-source --no-check -x "$dsc" "$work/qemu" >>"$log" 2>&1 ||
	fail "dpkg-source -x ${dsc##*/} failed"

for p in ${patches[@]+"${patches[@]}"}; do
	kp_log "applying $p"
	echo "=== patch -p1 < $p" >>"$log"
	(cd "$work/qemu" && patch -p1 --batch --forward <"$here/patches/$p") >>"$log" 2>&1 ||
		fail "patch $p does not apply to Debian's $pkg $ver (after ${patches[*]%%"$p"*})"
done
[ ${#patches[@]} = 0 ] && kp_log "no patches in $series: building plain Debian QEMU"

# Through ccache when it is there (deps.sh installs it for the tool): the
# work tree's path is the same for every key, so after a change to the
# patches only what they touch compiles again.
if [ -d /usr/lib/ccache ]; then
	export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=${CCACHE_DIR:-$cache/ccache}
fi
# Only the devices the machines of testing/vm/boot.sh use: the i440FX PC
# (-M pc, the default; it selects its chipset, IDE, floppy, RTC, PIT,
# keyboard, the serial ports and ACPI), the parallel port and the VGA that
# -nographic still creates, and virtio-9p-pci (-virtfs, --share): 940
# compiles instead of 1,153.  No debug info (-g): the compiles are faster
# and nothing reads it.  Both make the cold build cheaper in CPU time,
# which make check's cold run pays (testing/notes/cost.md).
printf '%s\n' CONFIG_I440FX=y CONFIG_PARALLEL=y CONFIG_VGA_PCI=y CONFIG_VIRTIO_PCI=y \
	CONFIG_VIRTIO_9P=y >"$work/qemu/configs/devices/x86_64-softmmu/kprofile.mak"
kp_log "configuring (about 40 s)"
mkdir -p "$work/qemu/build"
(cd "$work/qemu/build" && ../configure --target-list=x86_64-softmmu \
	--without-default-features --enable-tcg --enable-virtfs --enable-attr --enable-cap-ng \
	--without-default-devices --with-devices-x86_64=kprofile --disable-debug-info \
	--disable-docs --disable-tools --disable-guest-agent --meson=/usr/bin/meson \
	--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu) >>"$log" 2>&1 ||
	fail "configure failed"
kp_log "building qemu-system-x86_64 (ninja -j${JOBS:-2}, 5-8 min cold on two cores)"
(cd "$work/qemu/build" && nice ninja -j"${JOBS:-2}" qemu-system-x86_64) >>"$log" 2>&1 ||
	fail "the build failed (ninja)"

cp "$work/qemu/build/qemu-system-x86_64" "$out.tmp/"
"$out.tmp/qemu-system-x86_64" --version >>"$log" 2>&1 ||
	fail "the binary does not run"
{
	echo "source: $pkg $ver (.dsc sha256 $dsc_sha256)"
	echo "patches: ${patches[*]:-none}"
	echo "version: $("$out.tmp/qemu-system-x86_64" --version | head -n1)"
	echo "built: $(date -u +%FT%TZ) in $(($(date +%s) - t0)) s"
} >"$out.tmp/info"
mv "$log" "$out.tmp/build.log"
mv "$out.tmp" "$out"
rm -rf "$work"
kp_log "built in $(($(date +%s) - t0)) s: $bin"
echo "$bin"
