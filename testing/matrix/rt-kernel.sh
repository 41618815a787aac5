#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A PREEMPT_RT kernel with the checks Debian's -rt kernel is built without
# (DEBUG_ATOMIC_SLEEP: "sleeping function called from invalid context";
# lockdep; RCU-list checks), for the guest suite: tinyconfig from trixie's
# linux-source-6.12 (pinned in testing/matrix/pins) plus what the guest
# tests need.  Debian's 6.12-rt only shows a hook that sleeps in atomic
# context when it really blocks ("scheduling while atomic"); this one
# reports the attempt, every time.
#
# Usage: rt-kernel.sh     build (or reuse) it; print the tree (a KDIR
#                         with arch/x86/boot/bzImage)
#        rt-kernel.sh --cached   exit 0 when it is cached, 1 when not
#                         (builds nothing; testing/check.sh's budget)
# Cached in $KPROFILE_CACHE/rtdebug-<source>-gcc<version>-<recipe>/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${KPROFILE_CACHE:-/var/cache/kprofile}
jobs=${JOBS:-2}
pkg=linux-source-6.12

log() { echo "rt-kernel: $*" >&2; }
. "$here/../lib/kconfig.sh"

# The KUnit kernels' base, without KUnit.
base=(64BIT SMP MODULES MODULE_UNLOAD PRINTK TTY SERIAL_8250
	SERIAL_8250_CONSOLE BLK_DEV_INITRD DEVTMPFS DEVTMPFS_MOUNT PROC_FS
	SYSFS BINFMT_ELF BINFMT_SCRIPT PERF_EVENTS X86_LOCAL_APIC
	HIGH_RES_TIMERS KALLSYMS DEBUG_FS SLUB HOTPLUG_CPU PM_SLEEP SUSPEND
	MULTIUSER FUTEX EPOLL SHMEM TRACEPOINTS FTRACE DEBUG_KERNEL BUG)
# What busybox, the tool and python3 use in the guest tests.
guest=(POSIX_TIMERS TMPFS SIGNALFD TIMERFD EVENTFD AIO SYSVIPC NET UNIX
	FILE_LOCKING ADVISE_SYSCALLS MEMBARRIER RSEQ PRINTK_TIME
	HYPERVISOR_GUEST X86_X2APIC)
# PREEMPT_RT and its checks.
rt=(EXPERT PREEMPT_RT PROVE_LOCKING DEBUG_LOCKDEP DEBUG_ATOMIC_SLEEP
	DEBUG_SPINLOCK DEBUG_RT_MUTEXES STACKTRACE RCU_EXPERT PROVE_RCU
	PROVE_RCU_LIST)
opts=("${base[@]}" "${guest[@]}" "${rt[@]}")
args=()
for o in "${opts[@]}"; do args+=(--enable "$o"); done
args+=(--disable SLOB --disable SLUB_TINY --disable MODULE_SIG
	--disable RANDOMIZE_BASE --disable DEBUG_INFO --disable WERROR
	--disable KUNIT)

pin=$(awk -v p=$pkg '$1 == p { print $3 "-" substr($4, 1, 12) }' "$here/pins")
[ -n "$pin" ] || { log "$pkg is not pinned"; exit 1; }
ccver=$(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)
recipe=$(printf '%s\n' "${args[@]}" | sha256sum | cut -c1-12)
key=rtdebug-$pkg-$pin-gcc$ccver-$recipe
dir=$cache/$key
if [ "${1:-}" = --cached ]; then
	[ -f "$dir/.complete" ]
	exit
fi

mkdir -p "$cache"
exec 9>"$cache/$key.lock"
flock 9
if [ -f "$dir/.complete" ]; then
	echo "$dir/linux"
	exit 0
fi
deb=$("$here/apt.sh" fetch $pkg)
log "building the PREEMPT_RT debug kernel in $dir (once; several minutes)"
rm -rf "$dir"
mkdir -p "$dir"
dpkg --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
	tar -C "$dir" -xJ
mv "$dir"/linux-source-* "$dir/linux"
cd "$dir/linux"
kp_kernel_config opts "${args[@]}" || exit 1
# Niced, as kunit-kernel.sh's: the other lane's guest must not starve.
nice -n 10 make -s ARCH=x86_64 -j"$jobs" bzImage modules >&2
nice -n 10 make -s ARCH=x86_64 modules_prepare >&2
# Only what building modules against it needs stays (saves ~1.3 GB).
find . -name '*.o' ! -path './scripts/*' ! -path './tools/*' -delete
touch "$dir/.complete"
echo "$dir/linux"
