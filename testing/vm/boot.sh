#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel and an initramfs from image.sh (or a disk) under QEMU TCG
# and collect what the guest says: the rig's one QEMU launcher.
#
# Usage: boot.sh --kernel BZIMAGE --initrd FILE --logs DIR
#                [--cpu intel|amd] [--timeout SECONDS] [--share DIR]
#                [--disk IMG]
#                [--stream] [--append ARGS] [--smp N] [--qemu ARGS]
#                [--pmu none|emulated] [--cpu-props PROPS]
# Writes DIR/console.log (kernel console, ttyS0) and DIR/output.log (the
# tests' or command's output, ttyS1, without the final status line).
# --stream also copies output.log to stdout as it arrives.
# --disk IMG adds a raw virtio disk (/dev/vda): the root of a real system
# (testing/installvm: --append "root=/dev/vda rw", Debian's initrd).
# --smp N boots N vCPUs (default 2, one socket each; 1 with --pmu
# emulated, see below); --qemu ARGS adds QEMU
# arguments (word-split), e.g. "-icount shift=0,sleep=off" with --smp 1
# for the deterministic machine of testing/bench.
# --pmu emulated boots the emulated-PMU machine: testing/qemu-pmu's QEMU
# (build.sh builds or takes it from the cache; KP_QEMU_PMU=BINARY uses
# another build of it), "-cpu MODEL,pmu=on", "-icount shift=0,sleep=off"
# (the PMU counts executed instructions: exact, and cycles = instructions),
# hence one TCG thread; that build has no user networking, so no NIC.
# It boots one vCPU unless --smp says otherwise.  Under icount Debian's
# own QEMU 7.2 does not bring up a second one: its round-robin thread
# gave each vCPU in turn all the instructions to the next timer deadline,
# so CPU 0, calling schedule() until CPU 1 checked in, ran to the
# deadline and left CPU 1 none, at every turn (CPU 1 spun in cpu_init()
# for a callout CPU 0 had long given).  The series' 0002 gives each vCPU
# its share of the budget and hands over every 1 ms of virtual time.
# --pmu none (default) is the machine without a PMU, Debian's QEMU.
# --cpu-props PROPS is appended to -cpu (e.g. "pmu-version=1" or
# "+perfctr-core").
# The guest ends by printing "KP-EXIT: STATUS" on ttyS1 and rebooting
# (or powering off).
# Exit status: the guest's (KP-EXIT), or
#   124  the guest did not finish in time (hang), or
#   125  the guest stopped without a status (panic, crash), or
#   122  the console shows a kernel problem (BUG, WARNING, lockdep, KASAN,
#        kmemleak, Oops; see KP_BAD_CONSOLE in testing/guest/console.sh).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

kernel= initrd= logs= cpu=intel timeout=600 share= stream=0 append= smp= qemu_extra=
pmu=none cpu_props="" disk=
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--logs) logs=$2; shift ;;
	--cpu) cpu=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--share) share=$2; shift ;;
	--stream) stream=1 ;;
	--append) append=$2; shift ;;
	--smp) smp=$2; shift ;;
	--qemu) qemu_extra=$2; shift ;;
	--pmu) pmu=$2; shift ;;
	--cpu-props) cpu_props=$2; shift ;;
	--disk) disk=$2; shift ;;
	*) kp_die "unknown option $1" ;;
	esac
	shift
done
[ -f "$kernel" ] && [ -f "$initrd" ] && [ -n "$logs" ] || kp_die "need --kernel, --initrd and --logs"

case $cpu in
intel) model=Skylake-Client-v4 ;;
amd) model=EPYC ;;
*) kp_die "CPU must be intel or amd, not '$cpu'" ;;
esac
qemu=qemu-system-x86_64 accel=${KP_VM_ACCEL:-tcg,thread=single} machine=()
case $pmu in
none) ;;
emulated)
	qemu=${KP_QEMU_PMU:-}
	if [ -z "$qemu" ]; then
		qemu=$("$KP_ROOT/testing/qemu-pmu/build.sh" | tail -n1) ||
			kp_die "no emulated-PMU QEMU: testing/qemu-pmu/build.sh failed"
	fi
	[ -x "$qemu" ] || kp_die "no QEMU binary $qemu"
	model+=,pmu=on
	# icount needs one TCG thread: KP_VM_ACCEL does not apply.
	accel=tcg,thread=single
	machine=(-icount "shift=0,sleep=off" -nic none)
	smp=${smp:-1}
	;;
*) kp_die "--pmu must be none or emulated, not '$pmu'" ;;
esac
smp=${smp:-2}
[ -n "$cpu_props" ] && model+=,$cpu_props

mkdir -p "$logs"
console=$logs/console.log raw=$logs/ttyS1.log output=$logs/output.log
rm -f "$console" "$raw" "$output"
: >"$raw"

# Two sockets of one core: the KUnit kernel has no ACPI, and SeaBIOS's MP
# table lists only the first CPU of each socket, so "-smp 2" alone boots
# it with one CPU.  no_timer_check: on a loaded host TCG is too slow for
# the kernel's IO-APIC timer check, which then panics at boot.
#
# thread=single: one host thread runs both vCPUs in turn.  With a thread
# per vCPU (MTTCG), QEMU 7.2 can keep running a stale translation of a
# code page that another vCPU just patched: after text_poke_bp() put a
# jump label or static call back (thread profiling registers and removes
# tracepoint probes), CPUs looped on an int3 that memory no longer held
# (soft lockups at do_exit+0x346 in 29 hotplug + kp-stress rounds) or
# died of "Oops: int3" (CI, 7.2, 80-stress).  One thread: 60 rounds clean,
# and the guest suite takes 103 s instead of 97 s.  KP_VM_ACCEL overrides.
args=(-accel "$accel" ${machine[@]+"${machine[@]}"} -m 1G -smp "$smp,sockets=$smp,cores=1" -cpu "$model" -nographic -no-reboot
	-monitor none -serial "file:$console" -serial "file:$raw"
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 loglevel=7 no_timer_check $append")
# shellcheck disable=SC2206
[ -n "$qemu_extra" ] && args+=($qemu_extra)
if [ -n "$disk" ]; then
	[ -f "$disk" ] || kp_die "--disk $disk is not a file"
	args+=(-drive "file=$disk,format=raw,if=virtio")
fi
if [ -n "$share" ]; then
	share=$(realpath "$share")
	[ -d "$share" ] || kp_die "SHARE=$share is not a directory"
	args+=(-virtfs "local,path=$share,mount_tag=kpshare,security_model=none,id=kpshare")
fi

tailpid=
if [ $stream = 1 ]; then
	tail -n +1 -f "$raw" 2>/dev/null | grep --line-buffered -v '^KP-EXIT: ' &
	tailpid=$!
fi
# A guest that resets (QEMU exits at once: -no-reboot) or hangs (the
# timeout) before its kernel ran init, with no kernel report on the
# console, never reached kprofile: nothing of the project has run yet.
# Seen under a loaded host with the debug kernel: a reset once in about
# eight boots; a hang once, idle in its RCU-tasks self-test before init.
# Boot it again, once, and say so; the first console is kept as
# console.reset.
for attempt in 1 2; do
	status=0
	timeout --foreground -k 10 "$timeout" "$qemu" "${args[@]}" </dev/null >"$logs/qemu.log" 2>&1 || status=$?
	[ $attempt = 1 ] || break
	case $status in
	0) what="reset" ;;
	124 | 137) what="hung (${timeout}s)" ;;
	*) break ;;
	esac
	grep -q '^KP-EXIT: ' "$raw" 2>/dev/null && break
	grep -q 'Run .* as init process' "$console" 2>/dev/null && break
	kp_scan_console "$console" >/dev/null 2>&1 || break
	kp_log "the guest $what before running init (no kernel report; console: $console.reset): booting it again once"
	mv "$console" "$console.reset"
	: >"$raw"
done
if [ -n "$tailpid" ]; then
	sleep 0.5
	kill "$tailpid" 2>/dev/null || true
	wait "$tailpid" 2>/dev/null || true
fi

tr -d '\r' <"$raw" | grep -v '^KP-EXIT: ' >"$output" || true
if [ $status = 124 ] || [ $status = 137 ]; then
	kp_log "the guest did not finish within ${timeout}s (hung?); console: $console"
	exit 124
fi
rc=$(tr -d '\r' <"$raw" | sed -n 's/^KP-EXIT: //p' | tail -n1)
# QEMU itself dying of SIGSEGV after the guest reported its status (seen
# on the development host at exit, under load) does not change the
# guest's verdict: say so and go on.  Any other QEMU failure, or one
# before the guest reported, fails the run.
if [ $status = 139 ] && [ -n "$rc" ]; then
	kp_log "qemu crashed (SIGSEGV) after the guest reported status $rc; using the guest's status"
	status=0
fi
if [ $status != 0 ]; then
	kp_log "qemu failed ($status): $(tail -n 3 "$logs/qemu.log")"
	exit 125
fi
kp_scan_console "$console" || exit 122
if [ -z "$rc" ]; then
	kp_log "the guest stopped without reporting a status (panic?); console: $console"
	tail -n 20 "$console" >&2
	exit 125
fi
exit "$rc"
