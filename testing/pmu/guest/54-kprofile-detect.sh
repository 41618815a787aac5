#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 54-kprofile-detect: detection (docs/hardware.md, "Detection") on a real
# kernel and a PMU perf accepts, on every model line: intel (perfmon v2,
# EBX 0x58), intel-v1 (perfmon version 1), intel-ebx (EBX 0x25), amd,
# amd-core.  The interface, its counters and perfmon version are the
# machine's (Emon with QEMU's 4 counters; Amd64 with 4; with
# PerfCtrExtCore's 6 it uses the interface's 4 legacy ones, which alias
# the first four).  On Intel the
# sources whose architectural event CPUID.0AH:EBX marks unavailable are
# exactly the unsupported ones, with the reason, and perf agrees: each of
# its generic events of a marked bit is "<not supported>", the others
# count.  On AMD the module's answer for the CPU's family is the tool's
# table for it (EPYC is family 17h, Zen 1), and perf counts what kprofile
# calls supported.  On every line the counter path works with what was
# detected: stat counts loop's user instructions as perf does, and a
# user-mode recording takes counted / period samples (on intel-v1 with
# no global status: the handler finds the overflow by the counter's top
# bit).
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
need_tool "kprofile's detection of the PMU"
plan 8

set_sysctl kernel.nmi_watchdog 0
set_sysctl kernel.perf_cpu_time_max_percent 0
info=$(kprofile info 2>&1)
case $KP_PMU_MODEL in
intel) iface=Emon ;;
*) iface=Amd64 ;;
esac
like "$info" "$iface" "kprofile info: interface $iface"
if [ "$KP_PMU_MODEL" = amd-core ]; then
	# The Windows model's Amd64 interface is the four legacy counters
	# (docs/hardware.md, "Registers": 0xc0010000-7); PerfCtrExtCore's first four alias them
	# (AMD APM vol. 2, 13.2.1), its counters 4 and 5 (0xc0010200 + 2n)
	# stay perf's.
	like "$info" "counters: *4 x 48 bits" \
		"kprofile info: the Amd64 interface's 4 legacy counters of the $KP_PMU_GP PerfCtrExtCore has"
else
	like "$info" "counters: *$KP_PMU_GP x 48 bits" "kprofile info: the $KP_PMU_GP counters of 48 bits QEMU advertises"
fi
like "$info" "perfmon version: *$KP_PMU_VERSION( |\$)" "kprofile info: perfmon version $KP_PMU_VERSION"
diag "$(printf '%s\n' "$info" | head -n 12)"

# "SOURCE EVENT BIT": kprofile's row, perf's generic event for the same
# architectural event, and its CPUID.0AH:EBX bit (Linux's
# intel_arch_events_map; bit 2, unhalted reference cycles, is perf's
# bus-cycles).  On AMD the generic events of Amd64 table rows.
case $KP_PMU_MODEL in
intel)
	rows="ProfileTotalCycles:cycles:0 ProfileTotalIssues:instructions:1
ProfileUnhaltedReferenceCycles:bus-cycles:2 ProfileLLCReference:cache-references:3
ProfileLLCMisses:cache-misses:4 ProfileBranchInstructions:branches:5
ProfileBranchMispredictions:branch-misses:6"
	;;
*)
	# (The Amd64 table has no cycles row: ProfileTotalCycles is
	# unsupported there by design, whatever perf's cycles.)
	rows="ProfileTotalIssues:instructions:- ProfileBranchInstructions:branches:-
ProfileBranchMispredictions:branch-misses:-"
	;;
esac

kprofile sources --all --json >/tmp/src.json 2>&1
if [ "$KP_PMU_MODEL" = intel ]; then
	# Every Emon row with an EBX bit (include/uapi/linux/kprofile_sources.h).
	out=$(KP_PMU_EBX=$KP_PMU_EBX python3 - <<'EOF'
import json, os
ebx_mask = int(os.environ["KP_PMU_EBX"], 0)
rows = {"ProfileTime": -1, "ProfileTotalIssues": 1, "ProfileBranchInstructions": 5,
        "ProfileCacheMisses": 4, "ProfileBranchMispredictions": 6, "ProfileTotalCycles": 0,
        "ProfileUnhaltedCoreCycles": 0, "ProfileInstructionRetired": 1,
        "ProfileUnhaltedReferenceCycles": 2, "ProfileLLCReference": 3, "ProfileLLCMisses": 4,
        "ProfileBranchInstructionRetired": 5, "ProfileBranchMispredictsRetired": 6}
got = {s["name"]: s for s in json.load(open("/tmp/src.json"))}
bad = []
for name, bit in rows.items():
    want = bit < 0 or not (ebx_mask >> bit) & 1
    s = got.get(name)
    if s is None:
        bad.append("%s missing" % name)
    elif s["supported"] != want:
        bad.append("%s supported=%s, want %s" % (name, s["supported"], want))
    elif not want and "EBX bit %d" % bit not in (s["reason"] or ""):
        bad.append("%s: reason %r does not name EBX bit %d" % (name, s["reason"], bit))
print("; ".join(bad) or "ok")
EOF
)
	is "$out" ok "Emon: exactly the sources of EBX $KP_PMU_EBX's bits are unsupported, naming the bit"
	like "$info" "EBX mask: *0x0*${KP_PMU_EBX#0x}, 7 meaningful bits" \
		"kprofile info: the EBX mask and length CPUID.0AH gives ($KP_PMU_EBX, 7)"
else
	kprofile sources --all --json -f zen1 >/tmp/zen1.json 2>&1
	out=$(python3 - <<'EOF'
import json
mod = {s["name"]: s["supported"] for s in json.load(open("/tmp/src.json"))}
tab = {s["name"]: s["supported"] for s in json.load(open("/tmp/zen1.json"))}
diff = ["%s: module %s, zen1 table %s" % (k, mod.get(k), tab.get(k))
        for k in sorted(set(mod) | set(tab)) if mod.get(k) != tab.get(k)]
print("; ".join(diff) or "ok")
EOF
)
	is "$out" ok "Amd64: the module's supported sources are the Zen 1 table's (family 17h)"
	n=$(grep -o '"supported": *true' /tmp/src.json | wc -l)
	if [ "$n" -gt 1 ]; then
		ok "Amd64: $n sources supported"
	else
		not_ok "Amd64: sources supported" "$(head -c 600 /tmp/src.json)"
	fi
fi

# perf's view of the same events: "<not supported>" exactly where
# kprofile's source is unsupported.
events=$(for r in $rows; do r=${r#*:}; printf '%s:u\n' "${r%:*}"; done | paste -sd, -)
pstat "$events" loop 100000 || stat_diag
python3 -c 'import json
for s in json.load(open("/tmp/src.json")): print(s["name"], s["supported"])' >/tmp/src.txt 2>&1
bad=
for r in $rows; do
	src=${r%%:*} r=${r#*:}
	ev=${r%:*}
	k=$(awk -v s="$src" '$1 == s { print $2 }' /tmp/src.txt)
	c=$(pcount "$ev:u")
	p=True
	[ "$c" = "<not supported>" ] && p=False
	[ -n "$c" ] || p="nothing"
	[ "$k" = "$p" ] || bad="$bad $src supported=$k but perf's $ev:u is '$c';"
done
if [ -z "$bad" ]; then
	ok "perf agrees: its events are <not supported> exactly where kprofile's sources are unsupported"
else
	stat_diag
	not_ok "perf agrees on which events the machine has" "$bad"
fi

# The counter path with what was detected: user instructions, exact.
n=1000000
pstat instructions:u loop $n || stat_diag
want=$(pcount instructions:u)
rm -f /tmp/k.csv
kprofile stat -x, -o /tmp/k.csv -s TotalIssues:u -- loop $n >/tmp/k.out 2>&1
got=$(awk -F, '$3 == "ProfileTotalIssues:u" { print $1; exit }' /tmp/k.csv 2>/dev/null)
if is_num "$got" && [ "$got" = "$want" ]; then
	ok "kprofile stat -s TotalIssues:u -- loop $n: $got, perf's instructions:u"
else
	not_ok "kprofile stat -s TotalIssues:u -- loop $n is perf's instructions:u" \
		"kprofile '$got', perf '$want': $(cat /tmp/k.csv /tmp/k.out 2>/dev/null)"
fi

# Sampling: counted / period samples (0.5 %, as 52-kprofile-record), and
# an NMI for each.
period=77777 rounds=5
pstat instructions:u fivefn $rounds || stat_diag
total=$(pcount instructions:u)
nmi0=$(irq_sum NMI)
kprofile record --user -s ProfileTotalIssues -i $period -o /tmp/d.data -- fivefn $rounds >/tmp/d.out 2>&1 ||
	diag "kprofile record: $(cat /tmp/d.out)"
nmi1=$(irq_sum NMI)
hits=$(kprofile report -i /tmp/d.data --format csv 2>/dev/null | awk -F, 'NR > 1 { t += $3 } END { print t + 0 }')
want=$((${total:-0} / period))
d=$((hits - want))
[ $d -lt 0 ] && d=$((-d))
if [ "$want" -gt 0 ] && [ $((d * 200)) -le "$want" ] && [ $((nmi1 - nmi0)) -ge "$hits" ]; then
	ok "record --user -i $period -- fivefn $rounds: $hits samples ($total / $period = $want), $((nmi1 - nmi0)) NMIs"
else
	not_ok "record --user -i $period: samples are the counted instructions / $period" \
		"$hits samples, want $want ($total instructions); NMIs $nmi0 -> $nmi1; $(cat /tmp/d.out)"
fi
restore_sysctls
