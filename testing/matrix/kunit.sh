#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel matrix on self-built kernels (testing/kunit-kernel.sh, from
# each version's pinned Debian linux-source; no Debian image needed):
#
#   build KERNEL   kprofile.ko builds with -Werror against KERNEL's tree:
#                  5.10 a modules_prepare'd tinyconfig tree (its KUnit is
#                  too old to test), 6.12 and 7.2 their plain KUnit
#                  kernels.  (6.1 is the build layer, against Debian's
#                  headers; 6.12-rt and Debian's 7.2 headers are the
#                  Debian-image layers.)  On 5.10 and 7.2 also: a planted
#                  use of an API that kernel lacks fails the build
#                  (matrix/plant.sh; two more results).
#   kunit KERNEL   the KUnit suites pass in KERNEL's plain KUnit kernel
#                  (testing/kunit/run.sh plain --kernel KERNEL).  5.10:
#                  skipped, its KUnit predates what the suites use
#                  (5.17: parameterised tests, kunit_skip(),
#                  KUNIT_EXPECT_NULL()).
#
# Usage: testing/matrix/kunit.sh build|kunit KERNEL
#        testing/matrix/kunit.sh layers [KERNEL...]
# "layers" prints "LAYER KERNEL" for each pair this script covers, among
# KERNEL... (default: $KP_KERNELS, else 5.10 6.1 6.12 6.12-rt 7.2).
# The others print TAP (testing/lib/tap.sh; testing/kunit/run.sh's).
# Logs: build/matrix/.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$KP_ROOT/testing/lib/tap.sh"

all_kernels="5.10 6.1 6.12 6.12-rt 7.2"
builds=" 5.10 6.12 7.2 "
kunits=" 5.10 6.1 6.12 7.2 "

logs=$KP_BUILD/matrix
mkdir -p "$logs"

layer_build() {
	local k=$1 variant=plain kdir log
	log=$logs/build-$k.log
	[ "$k" = 5.10 ] && variant=prepare
	if ! kdir=$("$KP_ROOT/testing/kunit-kernel.sh" $variant "$k" 2>"$logs/kernel-$k-$variant.log"); then
		t_fail "build-$k: no $k kernel tree (log: $logs/kernel-$k-$variant.log)" \
			"$(tail -n 5 "$logs/kernel-$k-$variant.log")"
		t_done
		return 1
	fi
	# A modules_prepare'd tree has no Module.symvers: modpost can only
	# warn about the symbols it cannot resolve.
	local extra=()
	[ -f "$kdir/Module.symvers" ] || extra=(KBUILD_MODPOST_WARN=1)
	if KP_FLAVOR=werror "$KP_ROOT/testing/kbuild.sh" "$kdir" KCFLAGS=-Werror "${extra[@]}" >"$log" 2>&1; then
		t_ok "build-$k: kprofile.ko builds with -Werror against $k"
	else
		t_fail "build-$k: kprofile.ko does not build with -Werror against $k (log: $log)" \
			"$(grep -E 'error:|warning:' "$log" | head -n 20)"
	fi
	# The oldest and the newest kernel: a planted use of an API the
	# kernel lacks must fail this very build (matrix/plant.sh, seconds):
	# its results, counted here (tap.py --tap: one stream, one plan).
	case $k in
	5.10 | 7.2)
		local rc=0
		"$KP_ROOT/testing/matrix/plant.sh" "$k" "$kdir" >"$logs/plant-$k.tap" 2>&1 || rc=$?
		while IFS= read -r l; do
			case $l in
			'ok '*) t_ok "${l#ok * - }" ;;
			'not ok '*) t_fail "${l#not ok * - }" ;;
			'#'*) echo "$l" ;;
			esac
		done < <(python3 "$KP_ROOT/testing/lib/tap.py" --tap --require-top-plan \
			--exit-status "$rc" "$logs/plant-$k.tap")
		;;
	esac
	t_done
}

layer_kunit() {
	local k=$1
	case $k in
	5.10)
		t_skip "kunit-5.10" "KUnit in 5.10 predates the API the suites use (5.17: parameterised tests, kunit_skip(), KUNIT_EXPECT_NULL()); the module's build is tested"
		t_done
		return 0
		;;
	6.1) exec "$KP_ROOT/testing/kunit/run.sh" plain ;;
	*) exec "$KP_ROOT/testing/kunit/run.sh" plain --kernel "$k" ;;
	esac
}

cmd=${1:-}
case $cmd in
layers)
	shift
	# shellcheck disable=SC2086
	[ $# -gt 0 ] || set -- ${KP_KERNELS:-$all_kernels}
	for k in "$@"; do
		case " $all_kernels " in *" $k "*) ;; *) kp_die "unknown kernel $k (known: $all_kernels)" ;; esac
		case $builds in *" $k "*) echo "build $k" ;; esac
		case $kunits in *" $k "*) echo "kunit $k" ;; esac
	done
	;;
build) layer_build "${2:?usage: kunit.sh build KERNEL}" ;;
kunit) layer_kunit "${2:?usage: kunit.sh kunit KERNEL}" ;;
*) kp_die "usage: kunit.sh build|kunit KERNEL | layers [KERNEL...]" ;;
esac
