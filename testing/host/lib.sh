# SPDX-License-Identifier: GPL-2.0
# lib.sh - helpers of the host hooks that count their own tests (sourced,
# bash; not executable, so testing/check.sh does not run it as a hook).
#
#	. "$(dirname "$0")/lib.sh"
#	t_check "make man builds every page" make -C "$KP_ROOT" man
#	t_ok "..." / t_fail "..." "why" / t_skip "..." "why"
#	t_done                  # "passed=N failed=M skipped=K", exit status
#
# Each result is one line: "ok: NAME", "FAIL: NAME: WHY" or "skip: NAME:
# WHY"; check.sh shows the FAIL and skip lines and counts the last line.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

_t_pass=0 _t_fail=0 _t_skip=0

t_ok() { _t_pass=$((_t_pass + 1)); echo "ok: $1"; }
t_fail() {
	_t_fail=$((_t_fail + 1))
	echo "FAIL: $1${2:+: $2}"
}
t_skip() { _t_skip=$((_t_skip + 1)); echo "skip: $1: $2"; }

# t_check NAME CMD...: passes when CMD exits 0; its output is shown when
# it does not.
t_check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		t_ok "$name"
	else
		t_fail "$name" "'$*' exited $?"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/    | /'
	fi
}

# t_is NAME GOT WANT
t_is() {
	if [ "$2" = "$3" ]; then t_ok "$1"; else t_fail "$1" "got '$2', want '$3'"; fi
}

# t_like NAME TEXT ERE
t_like() {
	if <<<"$2" grep -Eq -- "$3"; then
		t_ok "$1"
	else
		t_fail "$1" "no /$3/ in:"
		printf '%s\n' "$2" | head -n 20 | sed 's/^/    | /'
	fi
}

t_done() {
	echo "passed=$_t_pass failed=$_t_fail skipped=$_t_skip"
	[ "$_t_fail" = 0 ]
}
