#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: DKMS.  `make dkms-source` puts the module's sources where
# dkms wants them, then `dkms add` and `dkms build` run the top-level
# dkms.conf against the Debian kernel's headers (kp_debian_release, the
# kernel the VM boots), in private dkms trees (--dkmstree, --sourcetree,
# --installtree) and with a private MOK (mok_signing_key), so that nothing
# of the system's DKMS state is touched.  The built module must carry the
# VERSION, the headers' vermagic and a MOK signature, as a Secure Boot
# machine would need.
#
# Cheap when warm: the result is cached in $KPROFILE_CACHE/dkms/ keyed by
# the hash of every file dkms builds from, the kernel release and the
# dkms version; an unchanged key reuses the module built then (its checks
# run again).  KP_DKMS_FRESH=1 builds anyway.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
command -v dkms >/dev/null || { t_skip "dkms build" "no dkms (testing/deps.sh)"; t_done; exit; }
rel=$(kp_debian_release) || { t_skip "dkms build" "no Debian kernel headers"; t_done; exit; }
version=$(cat "$KP_ROOT/VERSION")
cache=${KPROFILE_CACHE:-/var/cache/kprofile}/dkms
files=$(cd "$KP_ROOT" && find dkms.conf dkms.mk VERSION Kbuild Kconfig kmod include -type f | sort)
key=$( (cd "$KP_ROOT" && cat $files; echo "$rel"; dpkg-query -W -f='${Version}' dkms) |
	sha256sum | cut -c1-16)
ko=$cache/$key/kprofile.ko
mkdir -p "$cache"
exec 9>"$cache/$key.lock"
flock 9

if [ -f "$ko" ] && [ -z "${KP_DKMS_FRESH:-}" ]; then
	t_ok "dkms build for $rel (cached: these sources built at $(stat -c %y "$ko" | cut -d. -f1))"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	flags="--dkmstree $tmp/dkms --sourcetree $tmp/src --installtree $tmp/modules"
	export mok_signing_key=$cache/mok.key mok_certificate=$cache/mok.pub
	mkdir -p "$tmp/dkms" "$tmp/src" "$tmp/modules"
	if make -s -C "$KP_ROOT" dkms-source DKMS_SOURCETREE="$tmp/src" >"$tmp/log" 2>&1 &&
		(cd "$tmp" && dkms add $flags -m kprofile -v "$version") >>"$tmp/log" 2>&1 &&
		(cd "$tmp" && nice -n 10 dkms build $flags -m kprofile -v "$version" -k "$rel") \
			>>"$tmp/log" 2>&1; then
		t_ok "dkms add and dkms build kprofile $version for $rel"
		built=$tmp/dkms/kprofile/$version/$rel/x86_64/module/kprofile.ko
		t_check "dkms keeps the module where dkms install takes it" test -f "$built"
		t_is "the build area cleans (CLEAN) without error" \
			"$(grep -c 'Cleaning build area.*bad exit' "$tmp/log")" 0
		mkdir -p "$cache/$key" && cp "$built" "$ko.tmp" && mv "$ko.tmp" "$ko"
	else
		t_fail "dkms add and dkms build kprofile $version for $rel"
		tail -n 30 "$tmp/log" | sed 's/^/    | /'
		find "$tmp/dkms" -name make.log -exec tail -n 30 {} \; 2>/dev/null | sed 's/^/    | /'
	fi
fi
# KP_DKMS_KO_OUT=FILE: also leave the module there (make installvm loads it).
if [ -f "$ko" ] && [ -n "${KP_DKMS_KO_OUT:-}" ]; then
	cp "$ko" "$KP_DKMS_KO_OUT"
fi
if [ -f "$ko" ]; then
	t_is "its version is VERSION's (modinfo)" "$(/sbin/modinfo -F version "$ko")" "$version"
	t_like "it is built for $rel (vermagic)" "$(/sbin/modinfo -F vermagic "$ko")" "^$rel "
	t_like "dkms signed it with the machine owner key" "$(/sbin/modinfo -F signer "$ko")" '.'
fi
t_done
