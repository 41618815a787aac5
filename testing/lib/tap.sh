# SPDX-License-Identifier: GPL-2.0
# tap.sh - TAP 14 for the host-side runners (sourced, bash): the host
# hooks, checkpatch, sparse, the planted-bug checks.  Every layer of
# testing/check.sh speaks TAP; check.sh counts it with lib/tap.py.
#
#	. "$KP_ROOT/testing/lib/tap.sh"
#	t_check "make man builds every page" make -C "$KP_ROOT" man
#	t_ok "..." / t_fail "..." "why" / t_skip "..." "why"
#	t_done                  # the plan ("1..N") last; fails if any failed
#
# Each result is one line, "ok N - NAME", "not ok N - NAME" (its reasons
# follow as "# " lines) or "ok N - NAME # SKIP WHY".

_t_n=0 _t_fail=0

t_ok() { _t_n=$((_t_n + 1)); echo "ok $_t_n - $1"; }
t_fail() {
	_t_n=$((_t_n + 1)) _t_fail=$((_t_fail + 1))
	echo "not ok $_t_n - $1"
	[ -z "${2:-}" ] || t_diag "$2"
}
t_skip() { _t_n=$((_t_n + 1)); echo "ok $_t_n - $1 # SKIP $2"; }
# t_diag TEXT: TEXT as diagnostic lines (after a failure: its reasons).
t_diag() { printf '%s\n' "$1" | sed 's/^/# /'; }

# t_check NAME CMD...: passes when CMD exits 0; the end of its output is
# shown when it does not.
t_check() {
	local name=$1 out rc
	shift
	if out=$("$@" 2>&1); then
		t_ok "$name"
	else
		rc=$?
		t_fail "$name" "'$*' exited $rc"
		t_diag "$(printf '%s\n' "$out" | tail -n 20)"
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
		t_diag "$(printf '%s\n' "$2" | head -n 20)"
	fi
}

# t_done: the plan; the status says whether everything passed.
t_done() {
	echo "1..$_t_n"
	[ "$_t_fail" = 0 ]
}
