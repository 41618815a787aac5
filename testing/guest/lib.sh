# SPDX-License-Identifier: GPL-2.0
# lib.sh - TAP helpers for guest tests (busybox sh).  A test sources it:
#
#	. "$KP_GUEST/lib.sh"
#	plan 3                          # or done_testing at the very end
#	check "the module is loaded" grep -q '^kprofile ' /proc/modules
#	is "$(stat -c %a /dev/kprofile)" 600 "/dev/kprofile is mode 0600"
#	skip "kprofile info works" "tool not built"
#
# Every helper prints exactly one TAP line.  A script that stops early
# prints fewer lines than its plan (or no plan, with done_testing), and
# the host counts that as a failure: there is no way to pass by not
# running.
#
# Environment the runner provides: KP_GUEST (this directory), KP_MODULE
# (path of kprofile.ko), KP_CPU (intel|amd), KP_SHARE (/mnt/share or
# empty), PATH with the test programs (testing/guest/progs) and the tool.

_kp_n=0
_kp_failed=0

# KP_BAD_CONSOLE and kp_console_problems: the host's console patterns.
. "$KP_GUEST/console.sh"

# plan N: announce N tests (print first).
plan() { echo "1..$1"; }

# done_testing: announce the number of tests run (print last; instead of plan).
done_testing() { echo "1..$_kp_n"; }

# ok DESC: a passing result.
ok() {
	_kp_n=$((_kp_n + 1))
	echo "ok $_kp_n - $*"
}

# not_ok DESC [WHY...]: a failing result; WHY goes to a diagnostic line.
not_ok() {
	_kp_n=$((_kp_n + 1))
	_kp_failed=$((_kp_failed + 1))
	echo "not ok $_kp_n - $1"
	shift
	[ $# = 0 ] || diag "$*"
}

# skip DESC REASON: a test that cannot run here (counts as skipped).
skip() {
	_kp_n=$((_kp_n + 1))
	echo "ok $_kp_n - $1 # SKIP $2"
}

# diag MSG...: a comment line (each line of MSG prefixed with "# ").
diag() { printf '%s\n' "$*" | sed 's/^/# /'; }

# check DESC CMD [ARGS...]: passes iff CMD exits 0; its output is shown
# as diagnostics when it fails.
check() {
	_kp_desc=$1
	shift
	if _kp_out=$("$@" 2>&1); then
		ok "$_kp_desc"
	else
		not_ok "$_kp_desc" "'$*' exited $?: $_kp_out"
	fi
}

# kernel_log_clean DESC: passes iff the kernel log (dmesg) has none of
# the messages the host fails a console for (console.sh).
kernel_log_clean() {
	_kp_out=$(dmesg | kp_console_problems)
	if [ -z "$_kp_out" ]; then
		ok "$1"
	else
		not_ok "$1" "$_kp_out"
	fi
}

# check_fails DESC CMD [ARGS...]: passes iff CMD exits non-zero.
check_fails() {
	_kp_desc=$1
	shift
	if _kp_out=$("$@" 2>&1); then
		not_ok "$_kp_desc" "'$*' succeeded: $_kp_out"
	else
		ok "$_kp_desc"
	fi
}

# is GOT WANT DESC: string equality.
is() {
	if [ "$1" = "$2" ]; then
		ok "$3"
	else
		not_ok "$3" "got '$1', want '$2'"
	fi
}

# isnt GOT UNWANTED DESC: string inequality.
isnt() {
	if [ "$1" != "$2" ]; then
		ok "$3"
	else
		not_ok "$3" "got '$1', which it must not be"
	fi
}

# like GOT ERE DESC: GOT matches the extended regular expression ERE.
like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		ok "$3"
	else
		not_ok "$3" "'$1' does not match /$2/"
	fi
}

# unlike GOT ERE DESC: GOT does not match ERE.
unlike() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		not_ok "$3" "'$1' matches /$2/"
	else
		ok "$3"
	fi
}

# kv KEY TEXT: the value of a "key=value" line in TEXT.
kv() { printf '%s\n' "$2" | sed -n "s/^$1=//p" | head -n1; }

# have_tool: whether the kprofile tool is in the image.
have_tool() { command -v kprofile >/dev/null 2>&1; }

# module_loaded: whether kprofile.ko is loaded.
module_loaded() { grep -q '^kprofile ' /proc/modules; }

# json FILE PATH: a value from a JSON file (kp-json; empty when absent).
json() { kp-json "$1" "$2" 2>/dev/null; }
# cmp_ok A OP B: awk's comparison of two numbers.
cmp_ok() { awk -v a="$1" -v b="$3" "BEGIN { exit !(a + 0 $2 b + 0) }"; }
# through FOLDED CALLER: the samples of the folded stacks ending
# CALLER;kp_leaf (kernel frames may follow the leaf: an interrupt taken
# in it, on the debug kernel often).
through() { awk -v c=";$2;kp_leaf" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s);
	if (substr(s, length(s) - length(c) + 1) == c || index(s, c ";")) t += n }
	END { print t + 0 }' "$1"; }
