#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest.sh - the debug-kernel layer inside the guest (testing/debugvm/run.sh
# packs it as /kp/debugvm/guest.sh; testing/vm/init runs it in KP_MODE
# debugvm with kprofile.ko loaded and kmemleak cleared).
#
# /kp/debugvm/config sets DEBUGVM_STEPS, a subset of
#   suite     the guest tests (testing/guest/run-all.sh: its own TAP stream)
#   fuzz      kpfuzz check: the fixed-seed budget (>= 200,000 ioctls)
#   fuzzlong  kpfuzz fuzz for FUZZ_SECONDS from FUZZ_SEED (make fuzz)
#   stress    8 threads churning profiles for CHURN_SECONDS while CPU 1
#             goes offline and online in a loop
#   modcycle  MOD_CYCLES insmod/rmmod cycles with every kind of object live
#   pmu       on the emulated-PMU machine (run.sh --pmu): a counter
#             source sampling through the PMI, with and without call
#             stacks, then beside perf (EBUSY while kprofile holds a
#             counter; perf's own PMIs beside a kprofile recording); CPU
#             1 offline and online while kprofile samples (two vCPUs);
#             the NMI watchdog on (refused, its NMIs arrive) then off;
#             no select left enabled (/dev/cpu/N/msr); no NMI of
#             unknown reason
#   leak      kmemleak scan, rmmod kprofile, second scan
# and prints one TAP 14 stream: the suite's (run-all.sh's) as subtest
# "suite", the other steps' checks as subtest "checks", one result each.
. /kp/debugvm/config
n=0 failed=0
out=/tmp/debugvm
mkdir -p $out

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1))
	echo "not ok $n - $1"
	shift
	[ $# = 0 ] || printf '%s\n' "$*" | head -n 30 | sed 's/^/# /'
}
kv() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" "$2" | tail -n1; }
# progress: show kpfuzz's progress and round lines as they come
progress() {
	while read -r l; do
		case $l in progress* | round* | failing*) echo "# $l" ;; esac
	done
}
has() { case " $DEBUGVM_STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
planned=0
for s in $DEBUGVM_STEPS; do
	case $s in
	fuzz | fuzzlong) planned=$((planned + 1)) ;;
	stress) planned=$((planned + 3)) ;;
	modcycle) planned=$((planned + 1)) ;;
	leak) planned=$((planned + 3)) ;;
	pmu) planned=$((planned + 9)) ;;
	esac
done

tops=0
! has suite || tops=$((tops + 1))
[ $planned = 0 ] || tops=$((tops + 1))
echo "TAP version 14"
echo "1..$tops"
top=0 rc=0
# top_result NAME FILE: subtest NAME's own result, passing when FILE
# (written inside the subtest's pipeline, a subshell) holds 0.
top_result() {
	top=$((top + 1))
	if [ "$(cat "$2" 2>/dev/null)" = 0 ]; then
		echo "ok $top - $1"
	else
		echo "not ok $top - $1"
		rc=1
	fi
}
if has suite; then
	echo "    # Subtest: suite"
	{
		sh /kp/guest/run-all.sh
		echo $? >/tmp/debugvm-suite-rc
	} 2>&1 | sed 's/^/    /'
	top_result suite /tmp/debugvm-suite-rc
fi
grep -q '^kprofile ' /proc/modules || insmod "$KP_MODULE"
[ $planned = 0 ] || echo "    # Subtest: checks"
# The checks, indented as a subtest; their count of failures is passed
# out of the pipeline's subshell in a file.
{
[ $planned = 0 ] || echo "1..$planned"

# msr_selects: "CPU:MSR=VALUE" for the event selects and the global or
# fixed-counter controls of every online CPU, read through /dev/cpu/N/msr
# (the counters themselves count on, so they are not compared; the
# image's python3 has os and sys, not glob).
msr_selects() {
	case $KP_CPU in
	intel) m="0x186 0x187 0x188 0x189 0x38d 0x38f" ;;
	*) m="0xc0010000 0xc0010001 0xc0010002 0xc0010003" ;;
	esac
	python3 - $m <<'PY'
import os, sys
for cpu in sorted(c for c in os.listdir("/dev/cpu") if c.isdigit()):
    dev = "/dev/cpu/%s/msr" % cpu
    try:
        fd = os.open(dev, os.O_RDONLY)
        for m in sys.argv[1:]:
            v = int.from_bytes(os.pread(fd, 8, int(m, 16)), "little")
            print("%s:%s=%#x" % (cpu, m, v))
        os.close(fd)
    except OSError as e:
        sys.exit("reading %s: %s" % (dev, e))
PY
}
# gained BEFORE AFTER: the select bit EN (22), the global control's
# counter bits, the fixed controls' ring enables that AFTER has and BEFORE
# had not (what kprofile would have left programmed), one per line.  Not
# INT (20): perf leaves it set in the selects it disabled.
gained() {
	for kv in $2; do
		b=$(printf '%s\n' $1 | sed -n "s/^${kv%%=*}=//p")
		case ${kv%%=*} in
		*:0x38f) mask=-1 ;;
		*:0x38d) mask=$((0x333)) ;;
		*) mask=$((0x400000)) ;;
		esac
		[ $((${kv#*=} & mask & ~${b:-0})) = 0 ] || echo "$kv (was ${b:-unread})"
	done
}

if has pmu; then
	# irq_sum and LOOP_INSNS: the PMU guest tests' helpers (run.sh packs
	# them).
	. /kp/debugvm/pmu-lib.sh
	unknown=$(dmesg | grep -c 'NMI received for unknown reason')
	# The NMI watchdog (booted off, run.sh) competes for a counter: on,
	# a counter source is refused with the reason and the fix, and its
	# NMIs arrive (watchdog_thresh 1: one per second of a busy CPU's
	# cycles; loop N is LOOP_INSNS*N instructions, about as many cycles);
	# off again, kprofile's counter sources work without a reload (the
	# checks below).
	wd=/proc/sys/kernel/nmi_watchdog
	if [ -w $wd ]; then
		echo 1 >/proc/sys/kernel/watchdog_thresh
		echo 1 >$wd
		kprofile record -s ProfileTotalIssues -o $out/wd.data -- /kp/bin/loop 1000 >$out/wd.out 2>&1
		wrc=$?
		mhz=$(awk -F: '/^cpu MHz/ { printf "%d", $2; exit }' /proc/cpuinfo)
		[ "${mhz:-0}" -gt 0 ] 2>/dev/null || mhz=1000
		nmi0=$(irq_sum NMI)
		taskset -c 0 /kp/bin/loop $((mhz * 1000000 * 5 / 2 / LOOP_INSNS))
		nmi1=$(irq_sum NMI)
		echo 0 >$wd
		if [ $wrc != 0 ] && grep -q 'watchdog' $out/wd.out && grep -q 'nmi_watchdog=0' $out/wd.out &&
			[ "${nmi1:-0}" -ge $((${nmi0:-0} + 2)) ]; then
			ok "pmu: NMI watchdog on: record -s ProfileTotalIssues refused, naming it and the fix; its NMIs arrive ($nmi0 -> $nmi1 over 2.5 periods)"
		else
			not_ok "pmu: NMI watchdog on: counter source refused with the fix, watchdog NMIs arrive (record exit $wrc, NMI $nmi0 -> $nmi1)" \
				"$(cat $out/wd.out)"
		fi
	else
		not_ok "pmu: the NMI watchdog competes" "no writable $wd (CONFIG_HARDLOCKUP_DETECTOR?)"
	fi
	msr_before=$(msr_selects 2>$out/msr.err) || msr_before=
	kprofile record -s ProfileTotalIssues -i 100003 -o $out/p.data -- /kp/bin/loop 20000000 \
		>$out/p.out 2>&1
	prc=$?
	hits=$(sed -n 's/.*record: \([0-9]*\) hits.*/\1/p' $out/p.out | head -n1)
	# loop N retires 4N instructions (testing/pmu/progs/loop.S).
	if [ $prc = 0 ] && [ "${hits:-0}" -ge 700 ]; then
		ok "pmu: record -s ProfileTotalIssues -i 100003 -- loop 20000000: $hits hits (user and kernel; 80,000,000 user instructions / 100003 = 800)"
	else
		not_ok "pmu: record -s ProfileTotalIssues -- loop (exit $prc, ${hits:-no} hits, want about 800)" \
			"$(cat $out/p.out)"
	fi
	kprofile record -g -s ProfileTotalIssues -i 50021 -o $out/g.data -- /kp/bin/loop 10000000 \
		>$out/g.out 2>&1
	prc=$?
	kprofile report -i $out/g.data --format folded >$out/g.txt 2>&1
	if [ $prc = 0 ] && grep -q 'loop [0-9]' $out/g.txt; then
		ok "pmu: record -g -s ProfileTotalIssues: call stacks taken in the PMI, loop() in the report"
	else
		not_ok "pmu: record -g -s ProfileTotalIssues (exit $prc)" "$(cat $out/g.out; head -n 20 $out/g.txt)"
	fi
	# kprofile holds a counter system-wide; perf is refused it.
	kprofile record -a -s ProfileTotalIssues -i 1000003 --duration 3 -o $out/bg.data \
		>$out/bg.out 2>&1 &
	bg=$!
	sleep 1
	perf stat -e instructions -- /kp/bin/loop 1000 >$out/ps.out 2>&1
	wait $bg
	brc=$?
	if [ $brc = 0 ] && grep -q 'Device or resource busy' $out/ps.out; then
		ok "pmu: perf stat -e instructions fails with EBUSY while kprofile records -a"
	else
		not_ok "pmu: perf refused while kprofile records -a (record exit $brc)" \
			"$(cat $out/bg.out $out/ps.out)"
	fi
	# perf's own PMIs, with kprofile loaded and a timer profile running:
	# kprofile's handler must leave them to perf.
	kprofile record -s ProfileTime -i 1000 -o $out/t.data -- /kp/bin/loop 5000000 \
		>$out/t.out 2>&1 &
	tp=$!
	perf record -e instructions:u -c 100003 -o $out/perf.data -- /kp/bin/loop 20000000 \
		>$out/pr.out 2>&1
	rrc=$?
	wait $tp
	ns=$(perf report -i $out/perf.data --stdio 2>/dev/null | sed -n 's/^# Samples: \([0-9]*\).*/\1/p' | head -n1)
	if [ $rrc = 0 ] && [ "${ns:-0}" -ge 700 ]; then
		ok "pmu: perf record -e instructions:u -c 100003 -- loop 20000000 beside kprofile: $ns samples (80,000,000 / 100003 = 800): perf's PMIs are perf's"
	else
		not_ok "pmu: perf record beside kprofile (exit $rrc, ${ns:-no} samples, want about 800)" "$(cat $out/pr.out)"
	fi
	# CPU hotplug beside a counter source sampling system-wide: CPU 1
	# goes offline and online while kprofile holds its counter and perf
	# is refused one; after the last online kprofile's counter samples
	# there again (a loop pinned to CPU 1: about 800 hits), and when the
	# recording ends perf counts on CPU 1 (nothing left held there).
	cpu1=/sys/devices/system/cpu/cpu1/online
	if [ -w $cpu1 ]; then
		kprofile record -a -s ProfileTotalIssues -i 100003 -o $out/hp.data -- sh -c "
			i=0 bad=
			while [ \$i -lt 5 ]; do
				echo 0 >$cpu1 && echo 1 >$cpu1 || { bad=1; break; }
				i=\$((i + 1))
			done
			echo cycles=\$i
			perf stat -e instructions -- taskset -c 1 /kp/bin/loop 1000 >$out/hp-perf.out 2>&1
			taskset -c 1 /kp/bin/loop 20000000
			[ -z \"\$bad\" ]" >$out/hp.out 2>&1
		hrc=$?
		# The summary's processes: "loop PID (N hits)" (the kernel's
		# hotplug work under the debug checkers tops the report).
		hh=$(sed -n 's/.* loop [0-9]* (\([0-9]*\) hits).*/\1/p' $out/hp.out | head -n1)
		cyc=$(kv cycles $out/hp.out)
		if [ $hrc = 0 ] && [ "$cyc" = 5 ] && [ "${hh:-0}" -ge 700 ] &&
			grep -q 'Device or resource busy' $out/hp-perf.out; then
			ok "pmu: CPU 1 offline/online 5 times while kprofile samples -a (perf refused meanwhile); then a loop on CPU 1: $hh hits (80,000,000 / 100003 = 800)"
		else
			not_ok "pmu: hotplug beside sampling (exit $hrc, $cyc cycles, loop ${hh:-no} hits, want >= 700; perf refused?)" \
				"$(cat $out/hp.out $out/hp-perf.out)"
		fi
		perf stat -x, -e instructions:u -- taskset -c 1 /kp/bin/loop 1000000 >$out/hp-after.out 2>&1
		c=$(grep 'instructions' $out/hp-after.out | cut -d, -f1)
		if [ "${c:-0}" -ge 4000000 ] 2>/dev/null; then
			ok "pmu: after the recording perf counts on CPU 1 again ($c user instructions of loop 1000000)"
		else
			not_ok "pmu: perf counts on CPU 1 after the recording" "$(cat $out/hp-after.out)"
		fi
	else
		ok "pmu: CPU hotplug beside sampling # SKIP no $cpu1 (one vCPU)"
		ok "pmu: perf on CPU 1 after the recording # SKIP no $cpu1 (one vCPU)"
	fi
	# Nothing left programmed on any CPU once every recording ended
	# (CPU 1 went offline and online meanwhile).
	# Both dumps whole (every MSR of every online CPU, "CPU:MSR=0x..."),
	# or the comparison would be vacuous.
	ncpu=$(ls -d /dev/cpu/[0-9]* 2>/dev/null | wc -l)
	want=$((ncpu * $(case $KP_CPU in intel) echo 6 ;; *) echo 4 ;; esac)))
	msr_after=$(msr_selects 2>>$out/msr.err) || msr_after=
	nb=$(printf '%s\n' $msr_before | grep -c '^[0-9]*:0x[0-9a-f]*=0x[0-9a-f]*$')
	na=$(printf '%s\n' $msr_after | grep -c '^[0-9]*:0x[0-9a-f]*=0x[0-9a-f]*$')
	if [ "$ncpu" -gt 0 ] && [ "$nb" = "$want" ] && [ "$na" = "$want" ]; then
		left=$(gained "$msr_before" "$msr_after")
		if [ -z "$left" ]; then
			ok "pmu: after every recording no event select, global or fixed control enabled that was not before, on any of $ncpu CPUs ($na registers read)"
		else
			not_ok "pmu: registers left programmed after the recordings" \
				"$left" "before: $(echo $msr_before)" "after: $(echo $msr_after)"
		fi
	else
		not_ok "pmu: registers after the recordings: read $nb and $na of $want (CONFIG_X86_MSR?)" \
			"$(cat $out/msr.err)" "before: $(echo $msr_before)" "after: $(echo $msr_after)"
	fi
	u=$(dmesg | grep -c 'NMI received for unknown reason')
	if [ "$u" = "$unknown" ]; then
		ok "pmu: no NMI of unknown reason through all of the above"
	else
		not_ok "pmu: $((u - unknown)) NMIs of unknown reason" "$(dmesg | grep -B2 -A4 'unknown reason' | tail -n 20)"
	fi
fi

if has fuzz; then
	t0=$(date +%s)
	{ kpfuzz check --seed "$FUZZ_SEED" --scale "$FUZZ_SCALE" ${FUZZ_PHASES:+--phases "$FUZZ_PHASES"} 2>$out/fuzz.err
	  echo $? >$out/fuzz.rc; } | tee $out/fuzz.out | progress
	frc=$(cat $out/fuzz.rc)
	calls=$(kv calls $out/fuzz.out)
	echo "# fuzz: $(grep '^phase=' $out/fuzz.out | tr '\n' ' ')"
	echo "# fuzz: $(tail -n1 $out/fuzz.out) ($(($(date +%s) - t0)) s)"
	if [ $frc = 0 ] && [ "${calls:-0}" -ge $((2000 * FUZZ_SCALE)) ]; then
		ok "fuzz: ${calls} ioctls from seed $FUZZ_SEED, every invariant held"
	else
		not_ok "fuzz: seed $FUZZ_SEED, ${calls:-no} ioctls, exit $frc (want >= $((2000 * FUZZ_SCALE)) and 0)" \
			"$(cat $out/fuzz.err)"
	fi
fi

if has fuzzlong; then
	{ kpfuzz fuzz --seconds "$FUZZ_SECONDS" --seed "$FUZZ_SEED" 2>$out/fuzz.err
	  echo $? >$out/fuzz.rc; } | tee $out/fuzz.out | progress
	frc=$(cat $out/fuzz.rc)
	grep -E '^(failing seed|calls)=|^failing' $out/fuzz.out | sed 's/^/# /'
	if [ $frc = 0 ]; then
		ok "fuzz for ${FUZZ_SECONDS}s from seed $FUZZ_SEED: $(tail -n1 $out/fuzz.out)"
	else
		not_ok "fuzz for ${FUZZ_SECONDS}s from seed $FUZZ_SEED" "$(cat $out/fuzz.err)"
	fi
fi

if has stress; then
	kpfuzz churn --threads 8 --seconds "$CHURN_SECONDS" --seed "$FUZZ_SEED" \
		>$out/churn.out 2>$out/churn.err &
	churn=$!
	cycles=0 hpfail=
	cpu=/sys/devices/system/cpu/cpu1/online
	if [ -w $cpu ]; then
		sleep 2
		while kill -0 $churn 2>/dev/null; do
			echo 0 >$cpu || { hpfail="offline failed after $cycles cycles"; break; }
			echo 1 >$cpu || { hpfail="online failed after $cycles cycles"; break; }
			cycles=$((cycles + 1))
		done
		[ "$(cat $cpu)" = 1 ] || echo 1 >$cpu
	else
		hpfail="no $cpu"
	fi
	wait $churn
	crc=$?
	echo "# churn: $(cat $out/churn.out)"
	if [ $crc = 0 ] && [ "$(kv churn_profiles $out/churn.out)" -gt 0 ] 2>/dev/null; then
		ok "stress: $(kv churn_profiles $out/churn.out) profiles churned by 8 threads in ${CHURN_SECONDS}s"
	else
		not_ok "stress: 8 threads churning profiles (exit $crc)" "$(cat $out/churn.out $out/churn.err)"
	fi
	# A churn that does nothing must not pass: none in 0 seconds.
	if kpfuzz churn --threads 1 --seconds 0 >$out/churn0.out 2>&1; then
		not_ok "stress: a churn of 0 profiles fails" "$(cat $out/churn0.out)"
	else
		ok "stress: a churn of 0 profiles fails ($(grep -o 'FAIL churn:.*' $out/churn0.out | cut -c1-80))"
	fi
	if [ -z "$hpfail" ] && [ $cycles -gt 0 ]; then
		ok "stress: $cycles CPU offline/online cycles under that load"
	else
		not_ok "stress: CPU hotplug under load ($cycles cycles)" "$hpfail"
	fi
fi

if has modcycle; then
	held=0 refused=0 unloaded=0 why=
	i=0
	while [ $i -lt "$MOD_CYCLES" ]; do
		i=$((i + 1))
		rm -f $out/ready
		kpfuzz hold $out/ready >$out/hold.out 2>&1 &
		holder=$!
		w=0
		while [ ! -e $out/ready ] && kill -0 $holder 2>/dev/null && [ $w -lt 600 ]; do
			sleep 0.1
			w=$((w + 1))
		done
		if [ ! -e $out/ready ]; then
			why="cycle $i: the holder did not get ready: $(cat $out/hold.out)"
			kill -9 -$holder 2>/dev/null
			break
		fi
		held=$((held + 1))
		if rmmod kprofile 2>/dev/null; then
			why="cycle $i: rmmod succeeded with objects open"
			break
		fi
		refused=$((refused + 1))
		kill -9 -$holder 2>/dev/null
		wait $holder 2>/dev/null
		w=0
		until rmmod kprofile 2>/dev/null; do
			w=$((w + 1))
			[ $w -lt 100 ] || break
			sleep 0.1
		done
		if grep -q '^kprofile ' /proc/modules; then
			why="cycle $i: kprofile could not be unloaded after the holder exited"
			break
		fi
		unloaded=$((unloaded + 1))
		insmod "$KP_MODULE" || { why="cycle $i: insmod failed"; break; }
	done
	grep -q '^kprofile ' /proc/modules || insmod "$KP_MODULE"
	echo "# modcycle: held=$held refused=$refused unloaded=$unloaded; holder: $(tr '\n' ' ' <$out/hold.out)"
	if [ -z "$why" ] && [ $unloaded = "$MOD_CYCLES" ]; then
		ok "modcycle: $MOD_CYCLES insmod/rmmod cycles, rmmod refused while every kind of object was live"
	else
		not_ok "modcycle: $unloaded of $MOD_CYCLES cycles" "$why"
	fi
fi

if has leak; then
	km=/sys/kernel/debug/kmemleak
	if [ ! -w $km ]; then
		not_ok "kmemleak: no $km"
		not_ok "rmmod kprofile (not tried)"
		not_ok "kmemleak after rmmod: no $km"
	else
		sleep 5
		echo scan >$km
		leaks=$(cat $km)
		if [ -z "$leaks" ]; then ok "kmemleak: nothing with kprofile loaded"
		else not_ok "kmemleak: reports with kprofile loaded" "$leaks"; fi
		if rmmod kprofile; then ok "rmmod kprofile"
		else not_ok "rmmod kprofile" "$(lsmod)"; fi
		sleep 5
		echo scan >$km
		sleep 5
		echo scan >$km
		leaks=$(cat $km)
		if [ -z "$leaks" ]; then ok "kmemleak: nothing after rmmod kprofile"
		else not_ok "kmemleak: reports after rmmod kprofile" "$leaks"; fi
	fi
fi
echo $failed >/tmp/debugvm-failed
} 2>&1 | sed 's/^/    /'
[ $planned = 0 ] || top_result checks /tmp/debugvm-failed
# The suite's runner needs the module loaded at the end; so does the init.
exit $rc
