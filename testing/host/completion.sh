#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: shell completion.  The bash script is sourced and its
# function called with COMP_WORDS, as bash does on <TAB>; the zsh function
# runs in zsh -f with the completion builtins replaced by stubs that print
# what would be offered.  The tool is build/tool/kprofile with no module
# loaded, so source names come from the built-in tables.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tool=$KP_BUILD/tool/kprofile
[ -x "$tool" ] || { t_skip "completion" "no $tool (make tool)"; t_done; exit; }
export PATH=$KP_BUILD/tool:$PATH

# bcomp WORD...: what bash completion offers for the last WORD.
bcomp() {
	bash -c '. "$1/completions/kprofile.bash"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kprofile
		printf "%s\n" "${COMPREPLY[@]}"' bcomp "$KP_ROOT" "$@"
}

out=$(bcomp kprofile record -s Profile)
t_like "bash: kprofile record -s Profile<TAB> offers source names" "$out" '^ProfileTotalIssues$'
t_is "bash: ... and only names starting with Profile" \
	"$(<<<"$out" grep -vc '^Profile')" 0
t_like "bash: kprofile record -s ProfileTi<TAB> completes ProfileTime" \
	"$(bcomp kprofile record -s ProfileTi)" '^ProfileTime$'
t_is "bash: kprofile rec<TAB> is record" "$(bcomp kprofile rec)" record
t_like "bash: kprofile <TAB> offers every command of --help" \
	"$(bcomp kprofile '' | tr '\n' ' ')" 'info .*sources .*interval .*record .*report .*top .*stat'
out=$(bcomp kprofile record -)
missing=()
for o in $("$tool" record --help | sed -n '/^Options:/,$p' |
	grep -oE '^ +(-[A-Za-z],)?--[a-z][a-z0-9-]*' | tr ', ' '\n\n'); do
	<<<"$out" grep -qx -- "$o" || missing+=("$o")
done
t_is "bash: kprofile record -<TAB> offers every option of record --help" "${missing[*]}" ""
t_like "bash: -p offers PIDs (this shell's)" "$(bcomp kprofile record -p "$$")" "^$$\$"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/kp-rec.data"
t_like "bash: report -i offers files" "$(bcomp kprofile report -i "$tmp/kp-r")" "^$tmp/kp-rec.data\$"
t_like "bash: record -o offers files" "$(bcomp kprofile record -o "$tmp/kp-r")" "^$tmp/kp-rec.data\$"
t_is "bash: record -i is the interval: no files" "$(bcomp kprofile record -i "$tmp/kp-r")" ""
t_is "bash: sources -i offers the interfaces" "$(bcomp kprofile sources -i '' | tr '\n' ' ')" "emon amd64 "
t_like "bash: stat -s completes the last of a comma list" \
	"$(bcomp kprofile stat -s ProfileTime,ProfileTotalI)" '^ProfileTime,ProfileTotalIssues$'
t_like "bash: after -- a command name" "$(bcomp kprofile record -- bas)" '^bash$'

# Issue 23, item 13: --format, every --sort key and the source aliases.
t_is "bash: report --format<TAB> offers every format" \
	"$(bcomp kprofile report --format '' | tr '\n' ' ')" "table json raw folded csv pprof "
# Each one offered gets past report's own check (the file is read after).
bad=()
for f in $(bcomp kprofile report --format ''); do
	[[ $("$tool" report -i /nonexistent/kp.data --format "$f" 2>&1) == *"cannot open"* ]] ||
		bad+=("$f")
done
t_is "bash: ... and report takes each of them" "${bad[*]}" ""
keys=$(bcomp kprofile report --sort '')
for k in dso sym comm pid srcline; do
	t_like "bash: report --sort<TAB> offers $k" "$keys" "^$k\$"
done
bad=()
for k in $keys; do
	[[ $("$tool" report -i /nonexistent/kp.data --sort "$k" 2>&1) == *"cannot open"* ]] ||
		bad+=("$k")
done
t_is "bash: report takes every --sort key offered" "${bad[*]}" ""
t_like "bash: report --sort comm,s<TAB> completes the last key of the list" \
	"$(bcomp kprofile report --sort comm,s | tr '\n' ' ')" '^comm,sym comm,symbol comm,source comm,srcline $'
out=$(bcomp kprofile record -s '')
for a in time timer cpu-clock cycles instructions branch-misses; do
	t_like "bash: record -s<TAB> offers the alias $a" "$out" "^$a\$"
done
t_like "bash: record -e cyc<TAB> completes cycles" "$(bcomp kprofile record -e cyc)" '^cycles$'
t_like "bash: stat -s ProfileTime,ins<TAB> completes instructions" \
	"$(bcomp kprofile stat -s ProfileTime,ins)" '^ProfileTime,instructions$'
bad=()
for a in $(<<<"$out" grep -v '^Profile'); do
	"$tool" sources --interface emon "$a" >/dev/null 2>&1 ||
		"$tool" sources --interface amd64 "$a" >/dev/null 2>&1 || bad+=("$a")
done
t_is "bash: every alias offered names a source" "${bad[*]}" ""

# zsh: stubs print what compadd and friends would offer.
zcomp() {
	local prefix=$1
	shift
	zsh -f -c '
		compadd() {
			local arrays=0 a
			while (( $# )); do
				case $1 in
				-a) arrays=1 ;;
				-[SPJXVxWpsiIrRMFEDOA]) shift ;;
				--) shift; break ;;
				-*) ;;
				*) break ;;
				esac
				shift
			done
			if (( arrays )); then for a; do print -l -- ${(P)a}; done
			else print -l -- "$@"; fi
		}
		_wanted() { shift 3; "$@" }
		_call_program() { shift; eval "$*" }
		_describe() { local -a arr; arr=(${(P)2}); print -l -- ${arr%%:*} }
		_files() { print -- "<files>" }
		_pids() { print -- "<pids>" }
		_normal() { print -- "<normal:$words[1]:$CURRENT>" }
		_message() { print -- "<message:$*>" }
		_sequence() { local f=$1; shift; [[ $1 == - ]] && shift; $f "$@" }
		compset() { return 1 }
		PREFIX=$1; shift
		words=("$@"); CURRENT=$#
		source $KP_ROOT/completions/_kprofile' zcomp "$prefix" "$@"
}
export KP_ROOT
t_check "zsh: _kprofile parses (zsh -n)" zsh -n "$KP_ROOT/completions/_kprofile"
out=$(zcomp Profile kprofile record -s Profile)
t_like "zsh: kprofile record -s Profile<TAB> offers source names" "$out" '^ProfileTotalIssues$'
t_like "zsh: kprofile <TAB> offers the commands" "$(zcomp '' kprofile '' | tr '\n' ' ')" \
	'info .*sources .*record .*stat'
t_like "zsh: record --<TAB> offers --source and --output" "$(zcomp -- kprofile record -- | tr '\n' ' ')" \
	'--source .*--output'
t_is "zsh: -p offers PIDs" "$(zcomp '' kprofile record -p '')" "<pids>"
t_is "zsh: report -i offers files" "$(zcomp '' kprofile report -i '')" "<files>"
t_is "zsh: after -- the command line" "$(zcomp '' kprofile record -- ls '')" "<normal:ls:2>"
t_is "zsh: report --format<TAB> offers every format" \
	"$(zcomp '' kprofile report --format '' | tr '\n' ' ')" "table json raw folded csv pprof "
t_is "zsh: report --sort<TAB> offers the keys bash offers" \
	"$(zcomp '' kprofile report --sort '' | sort | tr '\n' ' ')" "$(sort <<<"$keys" | tr '\n' ' ')"
out=$(zcomp '' kprofile record -s '')
t_like "zsh: record -s<TAB> offers the alias time" "$out" '^time$'
t_like "zsh: record -s<TAB> offers the alias cycles" "$out" '^cycles$'
t_done
