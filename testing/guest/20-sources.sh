#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# 20-sources: the profile-source model through the tool under TCG (no
# PMU): ProfileTime is the one supported source and every other one says
# why not; intervals round-trip, are clamped, refuse unsupported sources
# and reset when the module is reloaded; SOURCE spellings agree.
. "$KP_GUEST/lib.sh"
plan 21

if ! have_tool; then
	i=0
	while [ $i -lt 17 ]; do
		skip "sources/interval test $i" "tool not built"
		i=$((i + 1))
	done
	exit 0
fi

# count ERE TEXT: lines of TEXT matching ERE.
count() { printf '%s\n' "$2" | grep -Ec -- "$1"; }

out=$(kprofile sources 2>/dev/null)
check "kprofile sources exits 0" kprofile sources
like "$out" '^0x00 +ProfileTime +10000 +1221 +1000000 +time, timer, cpu-clock +yes$' \
	"ProfileTime is listed as supported, at its default interval"
is "$(count '^0x' "$out")" 1 "no other source is listed as supported"

all=$(kprofile sources --all --json 2>&1)
is "$(count '"supported": true' "$all")" 1 "--all --json: one supported source"
is "$(count '"supported": false' "$all")" 24 "--all --json: the 24 other generic sources unsupported"
is "$(count '"reason": "[^"]+"' "$all")" 24 "--all --json: each unsupported source has a reason"

check "set ProfileTime to 5000" kprofile interval ProfileTime 5000
like "$(kprofile interval ProfileTime 2>&1)" 'interval 5000 ' "get returns 5000"
for s in time PROFILETIME 0 0x00; do
	got=$(kprofile interval "$s" --json 2>&1 | sed -n 's/^ *"interval": \([0-9]*\),*$/\1/p')
	[ "$got" = 5000 ] || break
done
is "$got" 5000 "time, PROFILETIME, 0 and 0x00 name ProfileTime"

low=$(kprofile interval ProfileTime 1 --json 2>&1)
like "$low" '"interval": 1221,' "1 is clamped to the minimum 1221"
like "$low" '"clamped": true' "the clamp is reported"
like "$(kprofile interval time 4000000000 --json 2>&1)" '"interval": 1000000,' \
	"4000000000 is clamped to the maximum 1000000"

err=$(kprofile interval TotalIssues 2>&1)
is "$?" 3 "an unsupported source is refused with exit status 3"
like "$err" 'not supported on this machine' "the refusal says it is unsupported"
like "$err" 'Reason: no profile interface' "the refusal gives the module's reason"

kprofile interval 0xC0 >/dev/null 2>&1
is "$?" 1 "an unknown source number is a usage error (exit 1)"

conf=$(kprofile sources --conflicts ProfileTime TotalIssues --json 2>&1)
like "$conf" '"fits": false' "--conflicts: a counter source cannot be placed without a PMU"
like "$conf" '"reason": "ProfileTotalIssues \(0x02\): no profile interface' \
	"--conflicts: the reason names the source and the missing interface"
like "$(kprofile sources --conflicts time 2>&1)" 'ProfileTime +timer' \
	"--conflicts: ProfileTime needs no counter"
kprofile sources --conflicts >/dev/null 2>&1
is "$?" 1 "--conflicts without sources is a usage error"

rmmod kprofile && insmod "$KP_MODULE"
like "$(kprofile interval ProfileTime 2>&1)" 'interval 10000 ' \
	"the interval is back to its default after reloading the module"
