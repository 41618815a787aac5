# SPDX-License-Identifier: GPL-2.0
# bash completion for kprofile(1).  Installed as
# share/bash-completion/completions/kprofile (make install).
#
# Commands and options come from the tool's own --help, so they cannot
# drift from it; source names from `kprofile sources --names` (the loaded
# module's, with the perf and xperf aliases: time, cycles, ...), or both
# built-in tables when the module is not loaded; PIDs for -p, files for
# -i/-o (record and top: -i is the interval), the modes of --call-graph,
# report's --format and --sort keys, ring sizes for record -m.  Options
# in CLI11 groups are listed after "Options:" too, under their group's name.

# _kprofile_help TOOL [CMD]: the --help of TOOL (CMD), cached per shell.
_kprofile_help()
{
	local key=_kprofile_help_${2:-main}
	key=${key//[^A-Za-z0-9_]/_}
	if [[ -z ${!key-} ]]; then
		printf -v "$key" '%s' "$("$1" ${2:+"$2"} --help 2>/dev/null)"
	fi
	printf '%s\n' "${!key}"
}

# _kprofile_sources TOOL: the profile source names.
_kprofile_sources()
{
	local names
	names=$("$1" sources --names 2>/dev/null) ||
		names=$({ "$1" sources --names --interface emon
			  "$1" sources --names --interface amd64; } 2>/dev/null | sort -u)
	printf '%s\n' "$names"
}

# report --sort: perf's keys and kprofile's (report_select.cpp's dim_keys).
_kprofile_sort_keys="overhead hits dso object sym symbol comm pid source srcline"

_kprofile_pids()
{
	local d
	for d in /proc/[0-9]*; do
		printf '%s\n' "${d#/proc/}"
	done
}

_kprofile()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local tool=${COMP_WORDS[0]} cmd= i at=0 words
	COMPREPLY=()
	command -v "$tool" >/dev/null 2>&1 || tool=kprofile

	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--device) ((i++)) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; at=$i; break ;;
		esac
	done

	# After "--": the command to run, then its arguments.
	for ((i = at + 1; at && i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} == -- ]]; then
			if ((i + 1 == COMP_CWORD)); then
				mapfile -t COMPREPLY < <(compgen -c -- "$cur" | sort -u)
			else
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
			fi
			return 0
		fi
	done

	case $cmd:$prev in
	*:--device | report:-i | report:--input | script:-i | script:--input | *:-o | *:--output | \
	*:--symfs)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return 0 ;;
	*:-p | *:--pid)
		mapfile -t COMPREPLY < <(compgen -W "$(_kprofile_pids)" -- "$cur")
		return 0 ;;
	stat:-s | stat:--sources)	# comma-separated: complete the last one
		local pre=
		[[ $cur == *,* ]] && pre=${cur%,*},
		mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$(_kprofile_sources "$tool")" -- "${cur##*,}")
		return 0 ;;
	record:-s | record:--source | top:-s | top:--source | record:-e | record:--event | \
	top:-e | top:--event | report:--source)
		mapfile -t COMPREPLY < <(compgen -W "$(_kprofile_sources "$tool")" -- "$cur")
		return 0 ;;
	sources:-i | sources:--interface)
		mapfile -t COMPREPLY < <(compgen -W "emon amd64" -- "$cur")
		return 0 ;;
	sources:-f | sources:--family)
		mapfile -t COMPREPLY < <(compgen -W \
			"k8 fam10h fam15h zen1 zen2 zen3 zen4 zen5 hygon other" -- "$cur")
		return 0 ;;
	report:--call-graph)
		mapfile -t COMPREPLY < <(compgen -W "caller callee none" -- "$cur")
		return 0 ;;
	record:--call-graph)
		mapfile -t COMPREPLY < <(compgen -W "fp" -- "$cur")
		return 0 ;;
	record:-m | record:--mmap-pages)
		mapfile -t COMPREPLY < <(compgen -W "16 32 64 128 256 512 1024" -- "$cur")
		return 0 ;;
	report:-s | report:--sort)	# comma-separated: complete the last one
		local pre=
		[[ $cur == *,* ]] && pre=${cur%,*},
		mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$_kprofile_sort_keys" -- "${cur##*,}")
		return 0 ;;
	report:--format)
		mapfile -t COMPREPLY < <(compgen -W "table json raw folded csv pprof" -- "$cur")
		return 0 ;;
	*:-i | *:--interval | *:-b | *:--bucket | *:-C | *:--cpu | *:--duration | \
	*:-n | *:--limit | *:--iterations | *:-d | *:--delay | *:--rows | \
	stat:-x | stat:--field-separator)
		return 0 ;;	# a number (or -x's separator): nothing to offer
	esac

	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			words="--device --version --help"
		else
			words=$(_kprofile_help "$tool" | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
		fi
	elif [[ $cur == -* ]]; then
		words=$(_kprofile_help "$tool" "$cmd" | sed -n '/^Options:/,$p' |
			grep -oE '^ +(-[A-Za-z],)?--[a-z][a-z0-9-]*' | tr ', ' '\n\n')
		[[ $cmd == record || $cmd == top || $cmd == stat ]] && words+=" --"
	else
		case $cmd in
		sources | interval) words=$(_kprofile_sources "$tool") ;;
		help)	# kprofile help COMMAND
			((COMP_CWORD == at + 1)) || return 0
			words=$(_kprofile_help "$tool" | sed -n '/^Subcommands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p') ;;
		*) return 0 ;;
		esac
	fi
	mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
	return 0
}

complete -F _kprofile kprofile
