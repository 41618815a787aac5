# SPDX-License-Identifier: GPL-2.0
# lib.sh - what the host hooks source (bash; not executable, so
# testing/check.sh does not run it as a hook): lib/common.sh, and
# lib/tap.sh's t_ok, t_fail, t_skip, t_check, t_is, t_like and t_done,
# which print the TAP check.sh counts.
#
#	. "$(dirname "$0")/lib.sh"
#	t_check "make man builds every page" make -C "$KP_ROOT" man
#	t_done
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
. "$KP_ROOT/testing/lib/tap.sh"
