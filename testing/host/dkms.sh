#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: DKMS, through the targets a user runs.  `make dkms-install`
# (the source copy in DKMS_SOURCETREE, then `dkms add`, `dkms build` of the
# top-level dkms.conf and `dkms install`) against the Debian kernel's
# headers (kp_debian_release, the kernel the VM boots), then `make
# dkms-remove`; in private dkms trees (DKMS_FLAGS: --dkmstree,
# --sourcetree, --installtree, --no-depmod) and with a private MOK
# (mok_signing_key), so that nothing of the system's DKMS state or
# /lib/modules is touched.  Checked: dkms status says installed; the
# module is where DEST_MODULE_LOCATION puts it (updates/dkms, which
# modprobe prefers to the kernel's own); it carries the VERSION, the
# headers' vermagic and a MOK signature, as a Secure Boot machine would
# need; dkms-remove leaves no module, no dkms tree entry and no source copy.
#
# Cheap when warm: the installed module and the names of the checks that
# passed are cached in $KPROFILE_CACHE/dkms/ keyed by the hash of every
# file dkms builds from, this script, the kernel release and the dkms
# version; an unchanged key reports those checks as cached and runs the
# module's checks again.  Only a run whose checks all passed is cached.
# KP_DKMS_FRESH=1 builds anyway.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
command -v dkms >/dev/null || { t_skip "dkms build" "no dkms (testing/deps.sh)"; t_done; exit; }
rel=$(kp_debian_release) || { t_skip "dkms build" "no Debian kernel headers"; t_done; exit; }
version=$(cat "$KP_ROOT/VERSION")
cache=${KPROFILE_CACHE:-/var/cache/kprofile}/dkms
files=$(cd "$KP_ROOT" && find dkms.conf dkms.mk VERSION Kbuild Kconfig kmod include -type f | sort)
key=$( (cd "$KP_ROOT" && cat $files; cat "$0"; echo "$rel"; dpkg-query -W -f='${Version}' dkms) |
	sha256sum | cut -c1-16)
ko=$cache/$key/kprofile.ko
passed=$cache/$key/passed
mkdir -p "$cache"
exec 9>"$cache/$key.lock"
flock 9

if [ -f "$ko" ] && [ -f "$passed" ] && [ -z "${KP_DKMS_FRESH:-}" ]; then
	when=$(stat -c %y "$ko" | cut -d. -f1)
	while IFS= read -r name; do
		t_ok "$name (cached: these sources, $when)"
	done <"$passed"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	flags="--dkmstree $tmp/dkms --sourcetree $tmp/src --installtree $tmp/modules --no-depmod"
	export mok_signing_key=$cache/mok.key mok_certificate=$cache/mok.pub
	mkdir -p "$tmp/dkms" "$tmp/src" "$tmp/modules/$rel"
	before=$_t_fail
	mk=(make -s -C "$KP_ROOT" DKMS_SOURCETREE="$tmp/src" DKMS_KREL="$rel" DKMS_FLAGS="$flags")
	installed=
	if nice -n 10 "${mk[@]}" dkms-install >"$tmp/log" 2>&1; then
		t_ok "make dkms-install: dkms add, build and install kprofile $version for $rel"
		t_like "dkms status says it is installed" \
			"$(dkms status $flags -m kprofile -v "$version" -k "$rel" 2>&1)" \
			"^kprofile/$version, $rel, x86_64: installed"
		t_is "the module is in updates/dkms, which modprobe prefers (DEST_MODULE_LOCATION)" \
			"$(cd "$tmp/modules" && find . -name 'kprofile.ko*')" "./$rel/updates/dkms/kprofile.ko"
		installed=$tmp/modules/$rel/updates/dkms/kprofile.ko
		t_is "the build area cleans (CLEAN) without error" \
			"$(grep -c 'Cleaning build area.*bad exit' "$tmp/log")" 0
	else
		t_fail "make dkms-install: dkms add, build and install kprofile $version for $rel"
		tail -n 30 "$tmp/log" | sed 's/^/# /'
		find "$tmp/dkms" -name make.log -exec tail -n 30 {} \; 2>/dev/null | sed 's/^/# /'
	fi
	[ -f "$installed" ] && cp "$installed" "$tmp/kprofile.ko"
	t_check "make dkms-remove" "${mk[@]}" dkms-remove
	t_is "dkms-remove leaves no module, no dkms tree entry, no source copy" \
		"$(cd "$tmp" && find modules dkms src -mindepth 1 -not -path "modules/$rel" | sort)" ""
	# Cached: the module, and the checks above (when every one passed).
	if [ "$_t_fail" = "$before" ] && [ -f "$tmp/kprofile.ko" ]; then
		mkdir -p "$cache/$key"
		cp "$tmp/kprofile.ko" "$ko.tmp" && mv "$ko.tmp" "$ko"
		printf '%s\n' "make dkms-install: dkms add, build and install kprofile $version for $rel" \
			"dkms status says it is installed" \
			"the module is in updates/dkms, which modprobe prefers (DEST_MODULE_LOCATION)" \
			"the build area cleans (CLEAN) without error" "make dkms-remove" \
			"dkms-remove leaves no module, no dkms tree entry, no source copy" >"$passed"
	fi
	[ -f "$tmp/kprofile.ko" ] && ko=$tmp/kprofile.ko
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
