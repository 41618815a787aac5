#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host hook: installing like a distribution.
#  - `make module` refuses to guess: without the running kernel's build
#    tree (here: a KVER that has none) it fails with the command that
#    installs the headers, and a KDIR that is no build tree fails too.
#  - `make install-files DESTDIR=...` stages every file where the
#    distributions look (module, tool, udev rule for group kprofile 0660,
#    modules-load.d, man pages, completion, the Python package) and
#    touches nothing outside DESTDIR; `make uninstall` removes them all.
#  - `pip install tools/python` (offline, in a venv) gives `import
#    kprofile` with the project's version, outside the source tree.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
version=$(cat "$KP_ROOT/VERSION")

# --- make module refuses to guess
out=$(make -s -C "$KP_ROOT" module KVER=0.0.0-kp-none 2>&1)
rc=$?
t_is "make module without the kernel's build tree fails" "$([ $rc != 0 ] && echo failed)" failed
t_like "... naming the apt command" "$out" 'apt install linux-headers-0\.0\.0-kp-none'
t_like "... and the dnf command" "$out" 'dnf install kernel-devel-0\.0\.0-kp-none'
t_like "... and KDIR=" "$out" 'KDIR='
out=$(make -s -C "$KP_ROOT" module KDIR="$tmp/no-such-tree" 2>&1)
rc=$?
t_is "make module KDIR=<not a build tree> fails" "$([ $rc != 0 ] && echo failed)" failed
t_like "... saying so" "$out" 'is not a kernel build tree'

# --- make install-files / uninstall into DESTDIR
dest=$tmp/root
tool=$KP_BUILD/tool/kprofile
if [ ! -x "$tool" ]; then
	t_skip "make install" "no $tool (make tool)"
else
	printf 'not a module\n' >"$tmp/kprofile.ko"
	had_group=$(getent group kprofile >/dev/null && echo yes || echo no)
	vars=(DESTDIR="$dest" PREFIX=/usr KREL=9.9.9-kp-test KO="$tmp/kprofile.ko")
	make -s -C "$KP_ROOT" man >/dev/null 2>&1
	t_check "make install-files DESTDIR=... PREFIX=/usr" \
		make -s -C "$KP_ROOT" install-files "${vars[@]}"
	want=(
		lib/modules/9.9.9-kp-test/extra/kprofile.ko
		usr/bin/kprofile
		etc/udev/rules.d/60-kprofile.rules
		etc/modules-load.d/kprofile.conf
		usr/share/man/man1/kprofile.1
		usr/share/man/man1/kprofile-record.1
		usr/share/man/man4/kprofile.4
		usr/share/bash-completion/completions/kprofile
		usr/share/zsh/site-functions/_kprofile
		usr/lib/python3/dist-packages/kprofile/__init__.py
		usr/lib/python3/dist-packages/kprofile/VERSION
	)
	missing=()
	for f in "${want[@]}"; do [ -f "$dest/$f" ] || missing+=("$f"); done
	t_is "every file is installed where the distribution looks" "${missing[*]}" ""
	n_pages=$(ls "$KP_ROOT"/man/*.scd | wc -l)
	t_is "every man page is installed" "$(find "$dest/usr/share/man" -type f | wc -l)" "$n_pages"
	rule=$(grep -v '^#' "$dest/etc/udev/rules.d/60-kprofile.rules" 2>/dev/null)
	t_like "the udev rule gives /dev/kprofile to group kprofile, mode 0660" "$rule" \
		'^KERNEL=="kprofile", SUBSYSTEM=="misc", GROUP="kprofile", MODE="0660"$'
	t_is "modules-load.d loads kprofile at boot" \
		"$(grep -v '^#' "$dest/etc/modules-load.d/kprofile.conf" 2>/dev/null)" kprofile
	t_is "the installed tool is the built one, mode 0755" \
		"$(cmp -s "$tool" "$dest/usr/bin/kprofile" && stat -c %a "$dest/usr/bin/kprofile")" 755
	t_is "the installed Python package imports with its version" \
		"$(cd / && PYTHONPATH="$dest/usr/lib/python3/dist-packages" /usr/bin/python3 -c \
			'import kprofile; print(kprofile.__version__)' 2>&1)" "$version"
	t_is "DESTDIR: the group is left to the package (unchanged here)" \
		"$(getent group kprofile >/dev/null && echo yes || echo no)" "$had_group"
	t_check "make uninstall DESTDIR=... PREFIX=/usr" \
		make -s -C "$KP_ROOT" uninstall "${vars[@]}"
	t_is "uninstall leaves no file behind" "$(find "$dest" -type f -o -type l)" ""
fi

# --- pip install tools/python (offline: the venv sees Debian's setuptools)
if /usr/bin/python3 -c 'import venv, setuptools' 2>/dev/null; then
	cp -rL "$KP_ROOT/tools/python" "$tmp/src"
	rm -rf "$tmp/src/tests" "$tmp/src/examples"
	if /usr/bin/python3 -m venv --system-site-packages "$tmp/venv" >"$tmp/venv.log" 2>&1 &&
		"$tmp/venv/bin/pip" install -q --no-index --no-build-isolation "$tmp/src" \
			>>"$tmp/venv.log" 2>&1; then
		t_ok "pip install tools/python (no network, no third-party dependency)"
	else
		t_fail "pip install tools/python" "$(tail -n 5 "$tmp/venv.log")"
	fi
	t_like "the pip-installed package imports outside the tree, with the project's version" \
		"$(cd / && "$tmp/venv/bin/python" -c \
			'import kprofile; print(kprofile.__version__, kprofile.__file__)' 2>&1)" \
		"^$version $tmp/venv/lib/python3[.0-9]*/site-packages/kprofile/__init__.py\$"
	t_like "pip knows the package and its version" \
		"$("$tmp/venv/bin/pip" show kprofile 2>&1)" "^Version: $version\$"
else
	t_skip "pip install tools/python" "no python3-venv or python3-setuptools (testing/deps.sh)"
fi
t_done
