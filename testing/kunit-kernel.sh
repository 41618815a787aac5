#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse from the cache) a minimal x86-64 kernel that can load the
# kprofile KUnit module: tinyconfig plus the options SPEC section 5 lists.
# Variants: "plain", "debug" (KASAN, lockdep, atomic-sleep checks,
# kmemleak, and the debugvm additions below: the one debug kernel serves
# both the debug KUnit run and the debug-kernel VM layer,
# testing/debugvm/run.sh), and "prepare" (the plain config, but only modules_prepare: a
# tree to build the module against, for kernels whose KUnit is too old).
#
# Usage: kunit-kernel.sh [--cached] plain|debug|prepare [VERSION]
#   VERSION (e.g. 5.10, 6.12, 7.2): Debian's linux-source-VERSION, fetched
#   as pinned in testing/matrix/pins (testing/matrix/apt.sh).  Without it:
#   the host's /usr/src/linux-source-*.tar.xz (6.1, testing/deps.sh), or
#   $KPROFILE_LINUX_SOURCE.
# Prints the path of the cached build tree (usable as KDIR) on stdout.
# --cached: build and fetch nothing; exit 0 when that tree is cached, 1
# when not (make check's time budget asks: testing/check.sh).
#
# The cache lives outside the repository, in $KPROFILE_CACHE (default
# /var/cache/kprofile), keyed by source version, compiler and config.
set -euo pipefail

cached_only=0
[ "${1:-}" = --cached ] && { cached_only=1; shift; }
variant=${1:?usage: kunit-kernel.sh [--cached] plain|debug|prepare [VERSION]}
version=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
cache=${KPROFILE_CACHE:-/var/cache/kprofile}
jobs=${JOBS:-$(nproc)}

log() { echo "kunit-kernel: $*" >&2; }
. "$here/lib/kconfig.sh"

case $variant in plain | debug | prepare) ;; *) log "unknown variant $variant"; exit 1 ;; esac
if [ -n "$version" ]; then
	# The pinned source package (apt.sh fetch names it PKG_VERSION_SHA256.deb);
	# its tarball is unpacked once into the cache.
	pin=$(awk -v p="linux-source-$version" '$1 == p { print $1 "_" $3 "_" $4 }' "$here/matrix/pins")
	[ -n "$pin" ] || { log "linux-source-$version is not pinned in testing/matrix/pins"; exit 1; }
	tarball=$cache/src/$pin/linux-source-$version.tar.xz
	[ $cached_only = 0 ] || [ -f "$tarball" ] || exit 1
	if [ ! -f "$tarball" ]; then
		deb=$("$here/matrix/apt.sh" fetch "linux-source-$version" | tail -n1) ||
			{ log "cannot fetch linux-source-$version"; exit 1; }
		[ "$(basename "$deb" .deb)" = "$pin" ] || { log "apt.sh fetched $deb, not $pin.deb"; exit 1; }
		mkdir -p "$(dirname "$tarball")"
		dpkg --fsys-tarfile "$deb" |
			tar -xO "./usr/src/linux-source-$version.tar.xz" >"$tarball.tmp"
		mv "$tarball.tmp" "$tarball"
	fi
else
	tarball=${KPROFILE_LINUX_SOURCE:-$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n1)}
fi

[ -n "$tarball" ] && [ -f "$tarball" ] ||
	{ log "no /usr/src/linux-source-*.tar.xz; run testing/deps.sh"; exit 1; }

common=(64BIT SMP MODULES MODULE_UNLOAD PRINTK TTY SERIAL_8250
	SERIAL_8250_CONSOLE BLK_DEV_INITRD DEVTMPFS DEVTMPFS_MOUNT PROC_FS
	SYSFS BINFMT_ELF BINFMT_SCRIPT PERF_EVENTS X86_LOCAL_APIC
	HIGH_RES_TIMERS KALLSYMS KUNIT KUNIT_DEBUGFS DEBUG_FS SLUB
	HOTPLUG_CPU PM_SLEEP SUSPEND MULTIUSER FUTEX EPOLL SHMEM
	HAVE_PERF_EVENTS_NMI TRACEPOINTS FTRACE
	DEBUG_KERNEL BUG PREEMPT_NOTIFIERS)
# The x2APIC branch of kp_compat_lvtpc_write() (kernels since 6.6) is
# compiled only with X86_X2APIC: on in the matrix kernels (VERSION given).
# The host's 6.1 takes the apic_write() path (no x2APIC branch to build)
# and keeps the recipe, so its cached kernels stay valid.
x2apic=(HYPERVISOR_GUEST X86_X2APIC)
debug=(KASAN KASAN_INLINE KASAN_GENERIC PROVE_LOCKING DEBUG_LOCKDEP
	DEBUG_ATOMIC_SLEEP DEBUG_KMEMLEAK DEBUG_KMEMLEAK_AUTO_SCAN
	DEBUG_SPINLOCK DEBUG_MUTEXES DEBUG_OBJECTS STACKTRACE)

# What the guest tests need from memory management (35-privileges):
# MMU_NOTIFIER, for the watch on a started profile's buffer (the
# BUFFER_LOST checks).  It has no prompt; X86_SGX is the smallest x86 option
# that selects it (with CRYPTO and CRYPTO_SHA256 built in; without SGX
# hardware its init just returns), KVM the next (much larger).  And a
# block device whose page cache is written back, for the refusal of a
# shared mapping of such a file: the RAM disk, /dev/ram0 (and the
# block layer it needs, which tinyconfig turns off).
guestmm=(CRYPTO CRYPTO_SHA256 X86_SGX MMU_NOTIFIER BLOCK BLK_DEV BLK_DEV_RAM)

# The debug-kernel VM layer (testing/debugvm/): the rest of the checkers
# the reliability audit used, and what the guest suite, the fuzzer and the
# stress need from userspace (POSIX timers for CLOCK_*_CPUTIME_ID, tmpfs,
# user and pid namespaces for the sandbox cases, madvise, python3's needs;
# the guest-detection options as in the kernel the layer was measured on).
# HARDLOCKUP_DETECTOR: the NMI watchdog that competes with kprofile for a
# counter on the emulated-PMU machine (it selects the soft-lockup detector
# too; the guests boot with nmi_watchdog=0 nosoftlockup and the pmu step
# turns the watchdog on: testing/debugvm/guest.sh); X86_MSR: /dev/cpu/N/msr
# for the pmu step's reading of the event selects before and after.
debugvm=(PREEMPT DEBUG_PREEMPT DEBUG_IRQFLAGS RCU_EXPERT PROVE_RCU
	PROVE_RCU_LIST DEBUG_RWSEMS DEBUG_OBJECTS_FREE DEBUG_OBJECTS_TIMERS
	DEBUG_OBJECTS_WORK DEBUG_OBJECTS_RCU_HEAD DEBUG_OBJECTS_PERCPU_COUNTER
	DEBUG_LIST DEBUG_PLIST DEBUG_SG DEBUG_NOTIFIERS BUG_ON_DATA_CORRUPTION
	DEBUG_VM UBSAN UBSAN_BOUNDS UBSAN_SHIFT UBSAN_BOOL UBSAN_ENUM
	NAMESPACES USER_NS PID_NS UTS_NS POSIX_TIMERS TMPFS SIGNALFD TIMERFD
	EVENTFD AIO SYSVIPC NET UNIX FILE_LOCKING ADVISE_SYSCALLS MEMBARRIER
	RSEQ PRINTK_TIME PROC_SYSCTL HYPERVISOR_GUEST X86_X2APIC
	HARDLOCKUP_DETECTOR X86_MSR "${guestmm[@]}")

opts=("${common[@]}")
[ -n "$version" ] && opts+=("${x2apic[@]}")
[ "$variant" = debug ] && opts+=("${debug[@]}" "${debugvm[@]}")
args=()
for o in "${opts[@]}"; do args+=(--enable "$o"); done
args+=(--disable SLOB --disable SLUB_TINY --disable MODULE_SIG
	--disable RANDOMIZE_BASE --disable DEBUG_INFO
	--disable WERROR)
[ "$variant" = debug ] && args+=(--module KASAN_KUNIT_TEST --set-val KASAN_STACK 0)
[ "$variant" = debug ] && args+=(--disable PREEMPT_NONE --disable PREEMPT_VOLUNTARY
	--disable UBSAN_TRAP --disable DEBUG_KMEMLEAK_DEFAULT_OFF)
srcver=$(basename "$tarball" .tar.xz)-$(stat -c %s "$tarball")
ccver=$(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)
recipe=$(printf '%s\n' "${opts[@]}" "${args[@]}" | sha256sum | cut -c1-16)
key="$srcver-gcc$ccver-$variant-$recipe"
dir="$cache/$key"

if [ $cached_only = 1 ]; then
	[ -f "$dir/.complete" ]
	exit
fi
mkdir -p "$cache"
# One builder at a time per key: a second caller waits for the first.
exec 9>"$cache/$key.lock"
flock 9

if [ -f "$dir/.complete" ]; then
	log "cached $dir"
	echo "$dir/linux"
	exit 0
fi

log "building $variant kernel in $dir (this takes several minutes once)"
rm -rf "$dir"
mkdir -p "$dir"
tar -C "$dir" -xf "$tarball"
mv "$dir"/linux-source-* "$dir/linux"
cd "$dir/linux"

kp_kernel_config opts "${args[@]}" || exit 1
# Niced: in make check a kernel is built (once, cold) while the other
# lane's guest runs the tests, which must not starve (under a -j2 build
# beside it, the debug kernel's 50-record missed a 1 s child of record's
# polling: a cold run, 2 of 4,346 checks).
if [ "$variant" != prepare ]; then
	nice -n 10 make -s ARCH=x86_64 -j"$jobs" bzImage modules >&2
fi
nice -n 10 make -s ARCH=x86_64 -j"$jobs" modules_prepare >&2
touch "$dir/.complete"
log "done: $dir/linux"
echo "$dir/linux"
