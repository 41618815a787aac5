#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rig-docs.sh - testing/README.md matches the rig: every KP_*/KPB_*
# variable a script of the rig reads from the environment is in its
# "Knobs" table or among the variables the rig sets for the guests, every
# file the README's tables and links name exists, and the reference stays
# a reference (at most 150 lines).
. "$(dirname "$0")/lib.sh"

readme=$KP_ROOT/testing/README.md
cd "$KP_ROOT" || exit 1

# Variables read with a default or tested for emptiness (a parameter
# expansion with :-, :+, - or =) are the ones a caller may set; this
# hook's own text is not searched.  The hwtest ones may be named without
# their prefix: KP_HWTEST_LOOPS is in the table as _LOOPS.
documented() {
	local v=$1
	grep -q "\`$v\`" "$readme" && return 0
	case $v in
	KP_HWTEST_*) grep -q "\`_${v#KP_HWTEST_}\`" "$readme" ;;
	*) return 1 ;;
	esac
}
missing=
for v in $(git grep -ohE '\$\{(KP|KPB)_[A-Z0-9_]+:?[-+=]' -- testing Makefile .ci \
	':!testing/host/rig-docs.sh' |
	sed -E 's/^\$\{//; s/:?[-+=]$//' | sort -u); do
	documented "$v" || missing="$missing $v"
done
if [ -z "$missing" ]; then
	t_ok "every KP_*/KPB_* variable the rig reads with a default is in testing/README.md"
else
	t_fail "variables the rig reads but testing/README.md does not name" "$missing"
fi

# Every path in the README's tables and links: `dir/file` relative to
# testing/ (or the top level), and markdown links.
absent=
for p in $(grep -oE '\]\([^)#]+\)' "$readme" | sed -E 's/^\]\(//; s/\)$//'); do
	[ -e "testing/$p" ] || absent="$absent $p"
done
for p in $(sed -n 's/^| `\([a-z0-9_./-]*\)[ `].*/\1/p' "$readme" | grep /); do
	[ -e "testing/$p" ] || [ -e "$p" ] || absent="$absent $p"
done
if [ -z "$absent" ]; then
	t_ok "every file testing/README.md's tables and links name exists"
else
	t_fail "testing/README.md names files that do not exist" "$absent"
fi

n=$(wc -l <"$readme")
if [ "$n" -le 150 ]; then
	t_ok "testing/README.md is a reference of $n lines (at most 150; notes in testing/notes/)"
else
	t_fail "testing/README.md has $n lines, more than 150: move notes to testing/notes/"
fi
t_done
