#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 54-kprofile-detect: the seeds' detection logic on a real kernel and a
# PMU perf accepts (issue 21, item 5).  The interface and its counters
# are the machine's (Emon with QEMU's 4 counters; Amd64 with 4; with
# PerfCtrExtCore's 6 it still uses 4, a skip that says so); on Intel the sources whose architectural event
# CPUID.0AH:EBX marks unavailable (QEMU's default mask 0x58: LLC
# reference, LLC misses, branch mispredicts) are exactly the unsupported
# ones, with the reason; on AMD the module's answer for the CPU's family
# is the tool's table for it (EPYC is family 17h, Zen 1).
. "$KP_GUEST/lib.sh"
. "$KP_GUEST/pmu-lib.sh"
plan 4

info=$(kprofile info 2>&1)
case $KP_PMU_MODEL in
intel) iface=Emon ;;
*) iface=Amd64 ;;
esac
like "$info" "$iface" "kprofile info: interface $iface"
if [ "$KP_PMU_MODEL" = amd-core ]; then
	# The Amd64 interface programs the legacy MSRs (0xc0010000-7) only;
	# PerfCtrExtCore's counters 4 and 5 (0xc0010200 + 2n) are not used.
	skip "kprofile info: the $KP_PMU_GP counters QEMU advertises" \
		"kprofile uses the 4 legacy counters of PerfCtrExtCore's 6 (issue 21, item 5: left)"
else
	like "$info" "counters: *$KP_PMU_GP x 48 bits" "kprofile info: the $KP_PMU_GP counters of 48 bits QEMU advertises"
fi
diag "$(printf '%s\n' "$info" | head -n 12)"

kprofile sources --all --json >/tmp/src.json 2>&1
if [ "$KP_PMU_MODEL" = intel ]; then
	# The Emon rows and their EBX bits (include/uapi/linux/kprofile_sources.h).
	out=$(python3 - <<'EOF'
import json
ebx_mask = 0x58
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
    elif not want and "EBX" not in (s["reason"] or "") and "CPUID" not in (s["reason"] or ""):
        bad.append("%s: reason %r names no CPUID/EBX" % (name, s["reason"]))
print("; ".join(bad) or "ok")
EOF
)
	is "$out" ok "Emon: exactly the sources of EBX 0x58's bits are unsupported, with the reason"
	like "$info" "EBX mask: *0x00000058, 7 meaningful bits" \
		"kprofile info: the EBX mask and length CPUID.0AH gives (0x58, 7)"
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
