#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: the man pages (man/*.scd, scdoc) build, render with man -l
# without warnings, and cannot drift from the tool: every command of
# `kprofile --help` has its kprofile-CMD(1), every option its --help
# lists is in the page, and kprofile(4) names every ioctl of the header.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tool=$KP_BUILD/tool/kprofile
mandir=$KP_BUILD/man

t_check "make man builds every page with scdoc" make -s -C "$KP_ROOT" man
[ -x "$tool" ] || { t_skip "the pages against --help" "no $tool (make tool)"; t_done; exit; }

# render PAGE: the page as text, one long line per paragraph, with the
# hyphens man may typeset as U+2010 or U+2212 made plain again.
render() {
	MANWIDTH=400 man -E UTF-8 -l "$1" 2>/dev/null | col -b | sed 's/\xe2\x80\x90/-/g; s/\xe2\x88\x92/-/g'
}

# options HELP: the options a --help text lists ("-s", "--source", ...).
options() {
	sed -n '/^Options:/,$p' | grep -oE '^  +(-[A-Za-z],)?--[a-z][a-z0-9-]*' |
		tr ',' '\n' | tr -d ' '
}

# check_page PAGE HELP: every option of HELP is in PAGE.
check_page() {
	local page=$1 help=$2 text missing=() o
	if [ ! -f "$page" ]; then
		t_fail "$(basename "$page") exists" "no page for $(printf '%s\n' "$help" | sed -n 's/^Usage: \([a-z -]*\) .*/\1/p')"
		return
	fi
	local warn
	warn=$(MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
	t_is "man -l $(basename "$page") renders without warnings" "$warn" ""
	text=$(render "$page")
	for o in $(printf '%s\n' "$help" | options); do
		<<<"$text" grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" || missing+=("$o")
	done
	t_is "$(basename "$page") documents every option of its --help" "${missing[*]}" ""
}

check_page "$mandir/kprofile.1" "$("$tool" --help)"
page1=$(render "$mandir/kprofile.1")
cmds=$("$tool" --help | sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z]\+\) .*/\1/p')
[ -n "$cmds" ] || t_fail "kprofile --help lists commands"
for c in $cmds; do
	check_page "$mandir/kprofile-$c.1" "$("$tool" "$c" --help)"
	<<<"$page1" grep -q "kprofile-$c(1)" ||
		t_fail "kprofile(1) refers to kprofile-$c(1)"
done

# kprofile(4): every ioctl the header defines.
missing=()
page4=$(render "$mandir/kprofile.4")
for ioc in $(sed -n 's/^#define \(KPROFILE_IOC_[A-Z0-9_]*\)[[:space:]]*_IO.*/\1/p' \
	"$KP_ROOT/include/uapi/linux/kprofile.h"); do
	<<<"$page4" grep -qw -- "$ioc" || missing+=("$ioc")
done
t_is "kprofile(4) names every ioctl of <linux/kprofile.h>" "${missing[*]}" ""
t_check "man -l kprofile.4 renders" man -l "$mandir/kprofile.4"
t_done
