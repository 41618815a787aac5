#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stage.sh - runs in the Debian 12 guest at every boot (kp-stage.service,
# output on ttyS1), then powers the machine off.
#
# Boot 1: `make install`, as root, in /kp/src: a copy of the tree whose
#         module, tool and man pages the host built (this system has no
#         compiler and no kernel headers, so make must find them up to
#         date); alice joins group kprofile.  Nothing is loaded by hand.
# Boot 2: TAP: boot 1's make install had nothing to build with; the
#         module was loaded at boot, /dev/kprofile is root:kprofile 0660,
#         alice records a program without sudo and reports it, imports
#         kprofile with no PYTHONPATH and reads `man kprofile-record` with
#         no MANPATH, a user outside the group cannot open the device;
#         then `make uninstall` removes everything, the group included,
#         and the module `make dkms-install` installed on the host loads.
set -u
state=/var/lib/kp-stage/boot
mkdir -p /var/lib/kp-stage
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; shift; [ $# = 0 ] || echo "$*" | sed 's/^/# /'; }
is() { if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3" "got '$1', want '$2'"; fi; }
check() { d=$1; shift; if out=$("$@" 2>&1); then ok "$d"; else not_ok "$d" "'$*' exited $?: $out"; fi; }

rel=$(uname -r)
if [ ! -f $state ]; then
	echo "# boot 1: make install"
	cd /kp/src || exit 1
	# What boot 2 reports: make install had nothing to build with.
	tools=
	for c in cc gcc c++ cmake scdoc; do
		! command -v $c >/dev/null || tools="$tools $c"
	done
	[ ! -e /lib/modules/"$rel"/build ] || tools="$tools /lib/modules/$rel/build"
	echo "${tools# }" >/var/lib/kp-stage/build-tools
	make install >/tmp/install.log 2>&1
	rc=$?
	echo $rc >/var/lib/kp-stage/install-rc
	sed 's/^/# /' /tmp/install.log
	echo "install-rc=$rc"
	usermod -aG kprofile alice && echo "usermod-rc=0"
	if grep -q '^kprofile ' /proc/modules; then echo "# note: kprofile already loaded on boot 1"; fi
	echo 1 >$state
	sync
	echo "boot1-done"
else
	echo "# boot 2: the installed system"
	echo "1..21"
	is "$(cat /var/lib/kp-stage/install-rc 2>&1) [$(cat /var/lib/kp-stage/build-tools 2>&1)]" "0 []" \
		"boot 1: make install, with no compiler, scdoc or kernel build tree here (the copied build was up to date)"
	check "kprofile.ko was loaded at boot" grep -q '^kprofile ' /proc/modules
	# Its "Inserted module" line is not always in the journal yet (it may
	# run before journald): then its state, and that nothing else could
	# have loaded it (no modalias, nothing in the initrd).
	journal=$(journalctl -b -u systemd-modules-load.service 2>&1)
	state=$(systemctl show -p ActiveState -p Result systemd-modules-load.service 2>&1 | sort | tr '\n' ' ')
	case $journal in
	*"Inserted module 'kprofile'"*) ok "by systemd-modules-load (modules-load.d/kprofile.conf)" ;;
	*)
		if [ "$state" = "ActiveState=active Result=success " ] &&
			[ -f /etc/modules-load.d/kprofile.conf ] &&
			[ -z "$(modinfo -F alias kprofile 2>&1)" ]; then
			ok "by systemd-modules-load (modules-load.d/kprofile.conf)"
		else
			not_ok "by systemd-modules-load (modules-load.d/kprofile.conf)" "$state $journal"
		fi ;;
	esac
	check "systemd-udevd is running" sh -c "cat /proc/[0-9]*/comm 2>/dev/null | grep -qx systemd-udevd"
	is "$(stat -c '%U:%G %a' /dev/kprofile 2>&1)" "root:kprofile 660" \
		"/dev/kprofile is root:kprofile, mode 0660 (udev/60-kprofile.rules)"
	case " $(id -nG alice) " in
	*" kprofile "*) ok "alice is in group kprofile" ;;
	*) not_ok "alice is in group kprofile" "$(id alice)" ;;
	esac
	# Debian ships 3 (no unprivileged profiles at all); the README says so.
	echo 2 >/proc/sys/kernel/perf_event_paranoid
	cp /kp/spin /home/alice/prog && chown alice /home/alice/prog
	out=$(cd /home/alice && runuser -u alice -- kprofile record -o k.data -- ./prog 1 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	is "$rc" 0 "alice runs kprofile record -- ./prog without sudo"
	out=$(cd /home/alice && runuser -u alice -- kprofile report -i k.data 2>&1)
	echo "$out" | head -n 15 | sed 's/^/# /'
	case $out in
	*prog*) ok "and kprofile report shows prog's symbols" ;;
	*) not_ok "and kprofile report shows prog's symbols" ;;
	esac
	out=$(runuser -u nobody -- kprofile info 2>&1)
	rc=$?
	is "$rc" 2 "a user outside the group cannot open /dev/kprofile (exit 2)"
	out=$(runuser -u alice -- kprofile --version 2>&1)
	case $out in
	*"module: "*"(ABI "*) ok "kprofile --version shows the loaded module's version" ;;
	*) not_ok "kprofile --version shows the loaded module's version" "$out" ;;
	esac
	# What make install put on the paths Debian searches: the Python
	# package in the interpreter's site directory (no PYTHONPATH), the
	# man pages where man-db looks for programs in /usr/local/bin (no
	# MANPATH; /etc/manpath.config maps the one to the other).
	out=$(cd /home/alice && runuser -u alice -- env -u PYTHONPATH python3 -c \
		'import kprofile; print(kprofile.__version__)' 2>&1)
	is "$out" "$(cat /kp/src/VERSION)" "alice imports kprofile with no PYTHONPATH (its __version__)"
	out=$(cd /home/alice && runuser -u alice -- env -u PYTHONPATH python3 -c \
		'import kprofile; print(kprofile.__file__); print(kprofile.Device().version().version)' 2>&1)
	echo "$out" | sed 's/^/# /'
	case $out in
	/usr/local/lib/python3*/dist-packages/kprofile/__init__.py*"$(cat /kp/src/VERSION)") ok "from /usr/local's site directory, and it reads the module's version" ;;
	*) not_ok "from /usr/local's site directory, and it reads the module's version" "$out" ;;
	esac
	# (Debian's /usr/local/man links to share/man: man -w may name either.)
	out=$(cd /home/alice && runuser -u alice -- env -u MANPATH man -w kprofile-record 2>&1)
	is "$(readlink -f "$out")" /usr/local/share/man/man1/kprofile-record.1 \
		"man finds kprofile-record(1) by name, no MANPATH ($out)"
	out=$(cd /home/alice && runuser -u alice -- env -u MANPATH MANWIDTH=80 man kprofile-record 2>/tmp/man.err)
	echo "$out" | head -n 8 | sed 's/^/# /'
	case $out in
	*NAME*kprofile*record*SYNOPSIS*OPTIONS*output*)
		is "$(cat /tmp/man.err)" "" "man kprofile-record renders (NAME, SYNOPSIS, options; no warnings)" ;;
	*) not_ok "man kprofile-record renders (NAME, SYNOPSIS, options; no warnings)" "$(cat /tmp/man.err)" ;;
	esac
	out=$(cd /home/alice && runuser -u alice -- env -u MANPATH MANWIDTH=80 man 4 kprofile 2>&1)
	case $out in
	*KPROFILE_IOC_START*) ok "man 4 kprofile renders (the device's ioctls)" ;;
	*) not_ok "man 4 kprofile renders (the device's ioctls)" "$(echo "$out" | head -n 5)" ;;
	esac
	(cd /kp/src && make uninstall) 2>&1 | sed 's/^/# /'
	left=$(ls /usr/local/bin/kprofile /etc/udev/rules.d/60-kprofile.rules \
		/etc/modules-load.d/kprofile.conf /lib/modules/"$rel"/extra/kprofile.ko \
		/usr/local/share/man/man1/kprofile.1 2>/dev/null)
	is "$left" "" "make uninstall removes the files"
	if getent group kprofile >/dev/null; then
		not_ok "make uninstall removes the group it created"
	else
		ok "make uninstall removes the group it created"
	fi
	check "modinfo no longer finds kprofile.ko (depmod ran)" sh -c '! modinfo kprofile >/dev/null 2>&1'
	# The module as make dkms-install installed it on the host (in
	# private DKMS trees, testing/host/dkms.sh): signed with a MOK this
	# kernel does not know, which it accepts without Secure Boot.
	check "rmmod kprofile" rmmod kprofile
	check "the module make dkms-install installed loads (insmod)" insmod /kp/kprofile-dkms.ko
	is "$(cat /sys/module/kprofile/version 2>&1)" "$(cat /kp/src/VERSION)" \
		"and it is this VERSION"
	echo "# boot 2 done"
fi
# The end, for testing/vm/boot.sh: the stage ran to here.
echo "KP-EXIT: 0"
systemctl poweroff
