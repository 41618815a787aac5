#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: `make -s --no-print-directory vm-run CMD=...` keeps its
# standard output to CMD's (README: "> x.json holds the JSON only"):
# the tool it builds first writes to stderr (before, cmake's
# "[ 19%] Built target kprofile_core" lines were on stdout).  vm-run's
# build step (tool-to-stderr) is run alone, after a source change, so
# that cmake has something to print; no VM is booted.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

[ -d "$KP_BUILD/tool" ] || { t_skip "vm-run's tool build keeps stdout clean" "no $KP_BUILD/tool (make tool)"; t_done; exit; }
touch "$KP_ROOT/tools/src/commands/version.cpp"
out=$(make -s --no-print-directory -C "$KP_ROOT" tool-to-stderr JOBS="${JOBS:-2}" 2>/dev/null)
rc=$?
t_is "vm-run's tool build (make tool-to-stderr) exits 0" "$rc" 0
t_is "vm-run's tool build writes nothing to stdout" "$out" ""
t_check "vm-run builds the tool that way" \
	grep -q '^vm-run: tool-to-stderr' "$KP_ROOT/Makefile"
t_done
