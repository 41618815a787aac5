#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test layer, one summary.
#
# Layers, in order (KP_LAYERS="build tool host kunit vm bench debugvm installvm
# pmu matrix static" selects):
#   build   kprofile.ko for Debian's kernel builds with -Werror; the
#           tool builds (when tools/ has its CMakeLists.txt)
#   tool    the tool's GoogleTest unit tests (ctest)
#   host    every testing/host/*.sh hook
#   kunit   the KUnit suites in the plain and the debug KUnit kernel
#   vm      the guest tests (testing/guest) in Debian's kernel on the
#           Intel CPU model; on AMD the CPU-model ones (the whole suite
#           runs on AMD in the matrix)
#   bench   make bench once in its smoke mode (one boot, one round, tiny
#           workloads): each measurement that ran is a test
#   debugvm the debug kernel (KASAN, lockdep, PROVE_RCU, kmemleak, UBSAN,
#           ...; testing/debugvm): the guest tests (on Intel all but
#           52-numbers and 57-children, on AMD the CPU-model ones), the
#           fixed-seed ioctl fuzzer, stress (Intel), kmemleak, rmmod
#   installvm make install on a Debian 12 system (debootstrap root, cached),
#           a reboot, and a member of group kprofile using it
#           (testing/installvm)
#   pmu     Debian's kernel on QEMU with the emulated PMU (testing/qemu-pmu,
#           built and cached on first use), Linux's perf as the oracle
#           (testing/pmu/guest): pmu-qemu (the build), pmu-intel, pmu-amd,
#           pmu-amd-core (+perfctr-core), pmu-intel-v1 and pmu-intel-ebx
#           (perfmon version 1, another CPUID.0AH:EBX: short boots, the
#           detection checks), pmu-determinism (two one-vCPU boots sample
#           alike), debugvm-pmu-intel (the debug kernel on the Intel
#           model: the NMI watchdog, sampling, perf beside it, CPU
#           hotplug, the registers after, the fuzzer, kmemleak, under the
#           checkers; with the debugvm layer), debugvm-pmu-amd (the same
#           on the AMD model, without the fuzzer), pmu-intel-7.2 (Debian's
#           7.2 on the Intel model: boot, a recording, detection, the
#           kernel log); taken by either lane from a shared queue
#           (testing/pmu/check.sh), in that order of priority
#   matrix  per kernel of KP_KERNELS (default: 5.10 6.1 6.12 6.12-rt 7.2),
#           one line per layer: build-K (-Werror, self-built tree) and
#           kunit-K (KUnit plain in K's KUnit kernel; testing/matrix/kunit.sh);
#           matrix-K-build (-Werror against K's real Debian headers, with
#           its compiler) and matrix-K-vm-CPU (the guest tests in K's real
#           Debian image; testing/matrix/check.sh)
#   static  checkpatch --strict and sparse
# KP_KERNELS="6.1 7.2" selects kernels (testing/matrix/kernels.sh; default
# all): the build-module, kunit and vm layers are the machine's 6.1.
#
# What counts as one test: a KUnit test case or parameter, a guest TAP
# line, a ctest test, a checkpatch'd file, a sparse run per kernel, a
# build, a host hook (or each result of the TAP it prints), plus one
# failed test for each problem found around them (a kernel report on the
# console, a hang, a missing result, a plan mismatch, a kmemleak report).
# Every layer that counts its tests prints TAP 14 (testing/lib/tap.sh on
# the host, lib.sh in guests, KTAP from KUnit, re-emitted flat by
# testing/lib/tap.py --tap where a runner wraps an inner stream), and
# run_counted counts it with testing/lib/tap.py.
# Skipped tests are counted apart.  The last line is "N passed, M failed";
# the exit status is non-zero when M > 0.  Logs: build/check/.
set -uo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$KP_ROOT/testing/matrix/kernels.sh"
. "$KP_ROOT/testing/matrix/check.sh"
. "$KP_ROOT/testing/pmu/check.sh"

layers=${KP_LAYERS:-build tool host kunit vm bench debugvm installvm pmu matrix static}
kp_kernels >/dev/null || exit 2
logs=$KP_BUILD/check
rm -rf "$logs"
mkdir -p "$logs"
: >"$logs/counts"
start=$(date +%s)

# record NAME PASS FAIL SKIP (into $logs/counts: layers that run in a
# lane of their own, a subshell, count too)
record() {
	echo "$1 $2 $3 $4" >>"$logs/counts"
	printf '== %-24s %4d passed, %d failed, %d skipped  (%ds)\n' "$1" "$2" "$3" "$4" \
		$(($(date +%s) - start))
}

# The time budget: CI gives make check 90 minutes on 2 cores, and the
# run should end within KP_CHECK_BUDGET minutes (default 60; 0: no
# budget).  Before a layer starts, its estimated cost (layer_cost) is
# added to the time elapsed; a layer that would end later than the budget
# less the static checks' 2 minutes is skipped, saying so and why, rather
# than let a cold run time out and report nothing.  The next run, with the
# other caches warm, has time for it (and builds what it needs).  The
# static checks (about a minute) always run.
over_budget() {
	local name=$1 budget=${KP_CHECK_BUDGET:-60} cost why now
	[ "$budget" -gt 0 ] || return 1
	cost=$(layer_cost "$name")
	now=$(($(date +%s) - start))
	[ $((now + ${cost%%|*})) -gt $((budget * 60 - 120)) ] || return 1
	why=${cost#*|}
	echo "-- $name: skipped: started at ${now} s, it would end after make check's ${budget}-minute budget (KP_CHECK_BUDGET): it takes about ${cost%%|*} s${why:+, with $why}"
	record "$name" 0 0 1
}

# layer_cost NAME: "SECONDS|WHAT": what NAME is estimated to take on
# CI's 2 cores with the other lane running beside it: its warm run, and
# each cold build it would start (a kernel or the emulator that is not
# cached; one core's worth: the other lane's guest has the other).  The
# numbers are testing/notes/cost.md's measurements,
# rounded up.
layer_cost() {
	local name=$1 t=60 cold=()
	case $name in
	kunit-plain) t=120; kernel_cold 6.1-plain ;;
	kunit-debug) t=200; kernel_cold 6.1-debug ;;
	matrix-6.12-rt-debug-vm-*) t=360; kernel_cold 6.12-rt ;;
	vm-amd) t=90 ;;
	vm-* | matrix-*-vm-*) t=450 ;;
	bench-smoke) t=300 ;;
	debugvm-intel) t=1650; kernel_cold 6.1-debug ;;
	debugvm-amd) t=350; kernel_cold 6.1-debug ;;
	installvm) t=420 ;;
	pmu-qemu) t=10; kernel_cold qemu ;;
	pmu-intel-v1) t=150; kernel_cold qemu ;;
	pmu-intel-ebx) t=90; kernel_cold qemu ;;
	pmu-intel-7.2) t=150; kernel_cold qemu ;;
	debugvm-pmu-intel) t=480; kernel_cold qemu; kernel_cold 6.1-debug ;;
	debugvm-pmu-amd) t=240; kernel_cold qemu; kernel_cold 6.1-debug ;;
	pmu-*) t=290; kernel_cold qemu ;;
	build-5.10) t=60; kernel_cold 5.10-prepare ;;
	build-6.12 | kunit-6.12) t=150; kernel_cold 6.12-plain ;;
	build-7.2 | kunit-7.2) t=150; kernel_cold 7.2-plain ;;
	matrix-*-build) t=180 ;;
	esac
	local IFS=,
	echo "$t|${cold[*]}"
}
# kernel_cold WHAT (in layer_cost): add WHAT's build to t and cold when it
# is not cached (the scripts' --cached build nothing).
kernel_cold() {
	local b=0 what
	case $1 in
	6.1-plain) what="the 6.1 plain KUnit kernel"
		"$KP_ROOT/testing/kunit-kernel.sh" --cached plain || b=600 ;;
	6.1-debug) what="the 6.1 debug kernel"
		"$KP_ROOT/testing/kunit-kernel.sh" --cached debug || b=900 ;;
	5.10-prepare) what="the 5.10 tree"
		"$KP_ROOT/testing/kunit-kernel.sh" --cached prepare 5.10 || b=300 ;;
	6.12-plain) what="the 6.12 KUnit kernel"
		"$KP_ROOT/testing/kunit-kernel.sh" --cached plain 6.12 || b=600 ;;
	7.2-plain) what="the 7.2 KUnit kernel"
		"$KP_ROOT/testing/kunit-kernel.sh" --cached plain 7.2 || b=750 ;;
	6.12-rt) what="the 6.12 PREEMPT_RT debug kernel"
		"$KP_ROOT/testing/matrix/rt-kernel.sh" --cached || b=750 ;;
	qemu) what="the emulated-PMU QEMU"
		[ -n "${KP_QEMU_PMU:-}" ] || [ -x "${KPROFILE_CACHE:-/var/cache/kprofile}/qemu-pmu/$(
			"$KP_ROOT/testing/qemu-pmu/build.sh" --key)/qemu-system-x86_64" ] || b=900 ;;
	esac 2>/dev/null
	[ $b = 0 ] && return
	t=$((t + b))
	cold+=("$b s to build $what (not cached)")
}

# run_counted NAME CMD...: CMD prints TAP; testing/lib/tap.py counts it
# (a missing plan, a plan mismatch or a non-zero exit with every result
# passed is one more failure) and its FAIL lines are shown.
run_counted() {
	local name=$1 log=$logs/$1.log counts
	over_budget "$name" && return 0
	shift
	echo "-- $name"
	"$@" >"$log" 2>&1
	local rc=$?
	python3 "$KP_ROOT/testing/lib/tap.py" -q --name "$name" --require-top-plan \
		--exit-status "$rc" "$log" >"$logs/$name.counted" 2>&1
	grep -E '^(FAIL|skip):|^  \| ' "$logs/$name.counted" | sed 's/^/   /' | head -n 150
	counts=$(sed -n 's/^passed=\([0-9]*\) failed=\([0-9]*\) skipped=\([0-9]*\)$/\1 \2 \3/p' \
		"$logs/$name.counted" | tail -n1)
	if [ -z "$counts" ]; then
		echo "   FAIL: $name: its output could not be counted (exit $rc); log: $log"
		tail -n 15 "$log" | sed 's/^/   | /'
		counts="0 1 0"
	fi
	# shellcheck disable=SC2086
	record "$name" $counts
}

# run_one NAME CMD...: CMD is one test, passing when it exits 0.
run_one() {
	local name=$1 log=$logs/$1.log
	over_budget "$name" && return 0
	shift
	echo "-- $name"
	if "$@" >"$log" 2>&1; then
		record "$name" 1 0 0
	else
		echo "   FAIL: $name; log: $log"
		tail -n 15 "$log" | sed 's/^/   | /'
		record "$name" 0 1 0
	fi
}

have() { case " $layers " in *" $1 "*) return 0 ;; esac; return 1; }

# The builder (testing/prebuild.sh): the kernels and the emulator the
# layers will need, built ahead under nice -n 19 with the CPU time the
# guests leave; it runs in a session of its own, so that it can be
# stopped, with its compilers, when the lanes end (or make check is
# interrupted).  KP_CHECK_PREBUILD=0: none (each lane builds what it needs).
builder=
stop_builder() {
	[ -n "$builder" ] || return 0
	kill -TERM -- -"$builder" 2>/dev/null
	wait "$builder" 2>/dev/null
	builder=
}
if [ "${KP_CHECK_PREBUILD:-1}" != 0 ]; then
	setsid nice -n 19 "$KP_ROOT/testing/prebuild.sh" >"$logs/prebuild.log" 2>&1 &
	builder=$!
	trap stop_builder EXIT
	trap 'stop_builder; exit 130' INT TERM
fi

# --- build
build_module() {
	local rel
	rel=$(kp_debian_release) || return 1
	# With -Werror, in a copy of its own (so other builds keep theirs).
	KP_FLAVOR=werror "$KP_ROOT/testing/kbuild.sh" "/usr/src/linux-headers-$rel" KCFLAGS=-Werror
}
# The tool through ccache, its cache beside the kernels', so a fresh clone
# recompiles only what changed, wherever it is: CCACHE_BASEDIR makes the
# compile lines relative, and make tool's -ffile-prefix-map (KP_CCACHE)
# the debug info, which ccache would otherwise key by directory.
# A crash of the build driver (on the development host, long-running
# processes sometimes died of SIGSEGV at exit, every object built) is
# retried once; a compile error fails again and stands.
make_tool() {
	CCACHE_DIR=${KPROFILE_CACHE:-/var/cache/kprofile}/ccache CCACHE_BASEDIR=$KP_ROOT \
		make -C "$KP_ROOT" --no-print-directory tool KP_CCACHE=1
}
build_tool() {
	local out rc=0
	out=$(mktemp)
	make_tool 2>&1 | tee "$out" || rc=${PIPESTATUS[0]}
	if [ "$rc" != 0 ] && grep -q 'Segmentation fault' "$out"; then
		echo "build-tool: the build crashed (SIGSEGV), building again once"
		rc=0
		make_tool || rc=$?
	fi
	rm -f "$out"
	return "$rc"
}
# vm_tap NAME CMD...: CMD runs the guest tests and prints their TAP;
# printed again flat, with one more failure when the guest failed as a
# whole (hang, kernel report, crash).
# KP_VM_EXPECT="30-profiles ..." (set by a caller that runs only those
# scripts): the scripts that must have a result; default: every one.
vm_tap() {
	local name=$1 rc=0 t expect=() why=()
	shift
	"$@" >"$logs/$name.tap" 2>"$logs/$name.err" || rc=$?
	if [ -n "${KP_VM_EXPECT:-}" ]; then
		for t in $KP_VM_EXPECT; do expect+=(--expect "$t"); done
	else
		for t in "$KP_ROOT"/testing/guest/[0-9][0-9]-*.sh; do
			[ -f "$t" ] && expect+=(--expect "$(basename "$t" .sh)")
		done
	fi
	[ $rc = 0 ] ||
		why=(--fail "the guest run failed (status $rc): $(grep -v '^vm.sh: note' "$logs/$name.err" | head -n 8 | tr '\n' ' ')")
	python3 "$KP_ROOT/testing/lib/tap.py" --tap --require-top-plan \
		"${expect[@]}" "${why[@]}" "$logs/$name.tap"
}
# vm_tests CPU [SCRIPTS]: the guest tests (all, or SCRIPTS) in Debian's
# kernel on the CPU model.
vm_tests() {
	KP_VM_EXPECT=${2:-} vm_tap "vm-$1" "$KP_ROOT/testing/vm/vm.sh" --cpu "$1" --tests ${2:+"$2"}
}
# The guest scripts whose paths depend on the CPU model.
cpu_model_scripts="10-info 20-sources 40-hwlayer"
# guest_scripts_but NAME...: every guest script (testing/guest/NN-*.sh)
# but NAME...
guest_scripts_but() {
	local f n out=
	for f in "$KP_ROOT"/testing/guest/[0-9][0-9]-*.sh; do
		n=$(basename "$f" .sh)
		case " $* " in *" $n "*) continue ;; esac
		out="$out${out:+ }$n"
	done
	echo "$out"
}
# ctest_counts: the tool's unit tests, one TAP line per ctest test, after
# ctest's own line (as a diagnostic) and before the output ctest shows
# of a failed one (diagnostics tap.py shows with the failure).
ctest_counts() {
	local rc=0
	ctest --test-dir "$KP_BUILD/tool" -j2 --output-on-failure >"$logs/ctest.out" 2>&1 || rc=$?
	awk '
		{ print "# " $0 }
		/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / {
			n++
			if ($0 ~ /\*\*\*Skipped|Not Run \(Disabled\)/)
				print "ok " n " - ctest " $4 " # SKIP"
			else if ($0 ~ /\*\*\*|Not Run/)
				print "not ok " n " - ctest " $4
			else
				print "ok " n " - ctest " $4
		}
		END { print "1.." n }' "$logs/ctest.out"
	return $rc
}
# host_hook HOOK: a hook that prints TAP (testing/host/lib.sh), or else
# one test that passes when it exits 0.
host_hook() {
	local h=$1 out rc=0
	out=$("$h" 2>&1) || rc=$?
	if printf '%s\n' "$out" | grep -qE '^1\.\.[0-9]+$'; then
		printf '%s\n' "$out"
		return $rc
	fi
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "1..1"
	if [ $rc = 0 ]; then
		echo "ok 1 - $(basename "$h")"
	else
		echo "not ok 1 - $(basename "$h") exited $rc"
	fi
}

if have build; then
	if kp_kernel_selected 6.1; then
		run_one build-module build_module
	fi
	if [ -f "$KP_ROOT/tools/CMakeLists.txt" ]; then
		run_one build-tool build_tool
	else
		echo "-- build-tool: skipped (no tools/CMakeLists.txt)"
		record build-tool 0 0 1
	fi
fi
if have tool; then
	if [ -f "$KP_BUILD/tool/CTestTestfile.cmake" ]; then
		run_counted tool-unit ctest_counts
	else
		echo "-- tool-unit: skipped (tool not built)"
		record tool-unit 0 0 1
	fi
fi
if have host; then
	for h in "$KP_ROOT"/testing/host/*.sh; do
		[ -x "$h" ] || continue
		run_counted "host-$(basename "$h" .sh)" host_hook "$h"
	done
fi
# The VM layers run in two lanes, side by side: QEMU runs each guest on one
# host thread (testing/vm/boot.sh), and a guest keeps its thread busy, so
# two lanes use the two cores; a kernel built in one lane (niced) or by
# the builder (above) takes what the guests leave.  Lane 1 (its lines
# show as they come): the guest suite in Debian's kernel, the bench's
# smoke run, the plain KUnit run, the kernel matrix.  Lane 2 (its lines
# follow lane 1's): installvm, the debug KUnit run, the debug kernel on
# Intel.  Then each lane takes from the shared queue (testing/pmu/check.sh:
# the emulated PMU's lines, the debug kernel on AMD) what the other has
# not, and lane 2 the matrix's real Debian kernels that lane 1 has not
# reached, from the last (matrix_debian_layers), so that the lanes end
# together.  What needs a cold build comes after what does not, so that
# the builder is ahead.  kbuild.sh and kp_build_progs lock what they
# write, and a kernel both a lane and the builder need is built once
# (kunit-kernel.sh, rt-kernel.sh and qemu-pmu/build.sh lock their cache
# entries).  KP_CHECK_LANES=1 runs the lanes one after the other.
lane_guests() {
	if have vm && kp_kernel_selected 6.1; then
		run_counted vm-intel vm_tests intel
		# On AMD, the scripts whose paths depend on the CPU model
		# (detection, the source tables, the hardware layer): with no
		# PMU under TCG the rest runs the same code on either model;
		# the whole suite runs on AMD in the matrix's AMD lines (6.12-rt,
		# 7.2) and on the pmu layer's AMD models.
		run_counted vm-amd vm_tests amd "$cpu_model_scripts"
	fi
	if have bench && kp_kernel_selected 6.1; then
		run_counted bench-smoke "$KP_ROOT/testing/bench/run.sh" --smoke
	fi
	if have kunit && kp_kernel_selected 6.1; then
		run_counted kunit-plain "$KP_ROOT/testing/kunit/run.sh" plain
	fi
	if have matrix; then
		while read -r layer k; do
			# The kunit layer's kunit-plain is this very run on 6.1.
			if [ "$layer $k" = "kunit 6.1" ] && have kunit; then
				echo "-- kunit-6.1: is kunit-plain above"
				continue
			fi
			run_counted "$layer-$k" "$KP_ROOT/testing/matrix/kunit.sh" "$layer" "$k"
		done < <("$KP_ROOT/testing/matrix/kunit.sh" layers)
		matrix_debian_layers
	fi
	# Then the lines of the shared queue lane 2 has not taken.
	tail_queue
}
lane_debug() {
	# Debian's 6.1 kernel, as the vm layer (its root, cold, is mostly
	# downloads: the builder has the CPU meanwhile).
	if have installvm && kp_kernel_selected 6.1; then
		run_counted installvm "$KP_ROOT/testing/installvm/run.sh"
	fi
	if have kunit && kp_kernel_selected 6.1; then
		run_counted kunit-debug "$KP_ROOT/testing/kunit/run.sh" debug
	fi
	if have debugvm; then
		# Every guest script but the two whose checks are the tool's
		# arithmetic over records that 50-record and 55-stream already
		# drive through the same kernel paths (streams that follow
		# children, their fork/exec/exit records): under KASAN and
		# lockdep they cost 190 s of the run and reach no other code.
		run_counted debugvm-intel "$KP_ROOT/testing/debugvm/run.sh" --cpu intel \
			--tests "$(guest_scripts_but 52-numbers 57-children)"
	fi
	# Then the shared queue (testing/pmu/check.sh: the PMU models, the
	# debug kernel on AMD), with lane 1 when it is done.
	tail_queue
	# Then the real Debian kernels lane 1 has not taken yet, from the
	# last: the lanes end together.
	if have matrix; then
		matrix_debian_layers --reverse
	fi
}
if [ "${KP_CHECK_LANES:-2}" -ge 2 ] && { have kunit || have debugvm || have installvm || have pmu; }; then
	echo "-- (lane 2, installvm, the debug KUnit run, the debug kernel, then the pmu layer's lines lane 1 does not take, runs beside these; its lines follow)"
	lane_debug >"$logs/lane-debug.out" 2>&1 &
	debug_pid=$!
	lane_guests
	wait "$debug_pid" || true
	cat "$logs/lane-debug.out"
else
	lane_guests
	lane_debug
fi
stop_builder
if have static; then
	KP_CHECK_BUDGET=0 run_counted checkpatch "$KP_ROOT/testing/static/checkpatch.sh"
	KP_CHECK_BUDGET=0 run_counted sparse "$KP_ROOT/testing/static/sparse.sh"
fi

read -r total_pass total_fail total_skip < <(awk '{ p += $2; f += $3; s += $4 }
	END { print p + 0, f + 0, s + 0 }' "$logs/counts" 2>/dev/null || echo "0 1 0")
echo "($total_skip skipped; logs in $logs; $(($(date +%s) - start)) s)"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
