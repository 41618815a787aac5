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
#  - `make install` in a copy of the tree whose build is up to date
#    builds nothing (as in make installvm's guest, with no compiler), and
#    rebuilds the module when a source is newer or it was built for
#    another kernel than KREL, the tool and man pages when theirs are.
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

# --- make install takes an up-to-date build as it is
# (`make` as the user, then `sudo make install` with no compiler: what
# make installvm runs in its guest), and rebuilds what is stale: a newer
# source, or a module built for another kernel than KREL.  In a copy of
# the tree whose sources are an hour old and whose build is now.
ko=$KP_BUILD/kprofile.ko
# make check builds the module in a directory of its own (build-module,
# testing/kbuild.sh), not through make module: take that one.
[ -f "$ko" ] || ko=$(ls -t "$KP_BUILD"/kmod-*/kmod/kprofile.ko 2>/dev/null | head -n1)
if [ ! -x "$tool" ] || [ ! -f "$ko" ]; then
	t_skip "make install with an up-to-date build" "no $tool or $ko (make module tool)"
else
	tree=$tmp/tree
	mkdir -p "$tree"
	(cd "$KP_ROOT" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf -) | tar -xf - -C "$tree"
	find "$tree" -exec touch -h -d '1 hour ago' {} +
	mkdir -p "$tree/build/tool"
	cp -L "$ko" "$tree/build/kprofile.ko"
	cp "$tool" "$tree/build/tool/kprofile"
	make -s -C "$tree" man >/dev/null 2>&1
	krel=$(/sbin/modinfo -F vermagic "$ko" | cut -d' ' -f1)
	# What make install would build (-n: print, do not run; KDIR= so
	# that KREL is KVER).  As a user types it: not as a sub-make of
	# make check, whose MAKELEVEL would turn "make:" into "make[1]:".
	todo() { LC_ALL=C env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS make -C "$tree" --no-print-directory -n install-prereqs KDIR= KVER="${1:-$krel}" 2>&1; }
	t_is "an up-to-date build: make install builds nothing" "$(todo)" \
		"make: Nothing to be done for 'install-prereqs'."
	t_check "make install DESTDIR=... in that tree (no build)" \
		env LC_ALL=C make -s -C "$tree" install DESTDIR="$tmp/root2" KDIR= KVER="$krel"
	t_is "... installs the module for KREL ($krel)" \
		"$(cmp -s "$ko" "$tmp/root2/lib/modules/$krel/extra/kprofile.ko" && echo same)" same
	touch "$tree/kmod/profile.c"
	t_like "a newer module source: make install rebuilds the module" "$(todo)" \
		'^make --no-print-directory module$'
	touch -d '1 hour ago' "$tree/kmod/profile.c"
	t_like "a module built for another kernel than KREL: make install rebuilds it" \
		"$(todo 9.9.9-kp-other)" '^make --no-print-directory module$'
	touch "$tree/tools/src/commands/main.cpp"
	out=$(todo)
	t_like "a newer tool source: make install rebuilds the tool" "$out" \
		'^make --no-print-directory tool$'
	t_is "... and only the tool" "$(printf '%s\n' "$out" | grep -c -- '--no-print-directory module$')" 0
	touch -d '1 hour ago' "$tree/tools/src/commands/main.cpp"
	touch "$tree/man/kprofile-record.1.scd"
	t_like "a newer man page source: make install regenerates it" "$(todo)" 'scdoc > .*/kprofile-record\.1\.tmp'
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
