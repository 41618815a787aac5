#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# stage.sh - runs in the Debian 12 guest at every boot (kp-stage.service,
# output on ttyS1), then powers the machine off.
#
# Boot 1: `make install-files` from the repository copy in /kp/src, as
#         root, with the module, tool and man pages built on the host;
#         alice joins group kprofile.  Nothing is loaded by hand.
# Boot 2: TAP: the module was loaded at boot, /dev/kprofile is
#         root:kprofile 0660, alice records a program without sudo and
#         reports it, a user outside the group cannot open the device;
#         then `make uninstall` removes everything, the group included,
#         and the module DKMS built on the host loads.
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
	make install-files KO=/kp/kprofile.ko TOOL_BIN=/kp/kprofile KREL="$rel" >/tmp/install.log 2>&1
	rc=$?
	sed 's/^/# /' /tmp/install.log
	echo "install-rc=$rc"
	usermod -aG kprofile alice && echo "usermod-rc=0"
	if grep -q '^kprofile ' /proc/modules; then echo "# note: kprofile already loaded on boot 1"; fi
	echo 1 >$state
	sync
	echo "boot1-done"
else
	echo "# boot 2: the installed system"
	echo "1..15"
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
	(cd /kp/src && make uninstall KREL="$rel") 2>&1 | sed 's/^/# /'
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
	# The module as DKMS built it on the host: signed with a MOK this
	# kernel does not know, which it accepts without Secure Boot.
	check "rmmod kprofile" rmmod kprofile
	check "the module dkms built loads (insmod)" insmod /kp/kprofile-dkms.ko
	is "$(cat /sys/module/kprofile/version 2>&1)" "$(cat /kp/src/VERSION)" \
		"and it is this VERSION"
	echo "boot2-done failed=$failed"
fi
systemctl poweroff
