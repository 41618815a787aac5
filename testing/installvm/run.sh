#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make installvm: kprofile installed like a real module and tool, on a real
# Debian 12 system.  A root file system from debootstrap (rootfs.sh,
# cached) with systemd as init and systemd-udevd, booted twice in QEMU
# (TCG) with Debian's kernel and initrd from /boot:
#   boot 1  make install (install-files, with the module, tool and man pages
#           built here), alice joins group kprofile, power off;
#   boot 2  the same disk: the module loaded at boot, /dev/kprofile
#           root:kprofile 0660, alice records ./prog without sudo, a user
#           outside the group is refused, make uninstall undoes it all,
#           and the module dkms built (testing/host/dkms.sh) loads.
# Prints the second boot's TAP and "passed=N failed=M skipped=0" (the
# host-hook format of testing/check.sh).  Not part of make check: about
# 4 minutes warm on 2 cores (testing/README.md).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)

rel=$(kp_debian_release)
work=$KP_BUILD/installvm
"${sudo[@]}" rm -rf "$work"
mkdir -p "$work"
log=$work/build.log

# What boot 1 installs, built on the host for Debian's kernel.
make -s -C "$KP_ROOT" module KDIR="/usr/src/linux-headers-$rel" >"$log" 2>&1 ||
	{ tail -n 20 "$log"; kp_die "make module failed"; }
make -s -C "$KP_ROOT" tool man >>"$log" 2>&1 || { tail -n 20 "$log"; kp_die "make tool man failed"; }
progs=$(kp_build_progs)
# The module as DKMS builds it (dkms.conf, signed with a MOK; cached).
KP_DKMS_KO_OUT=$work/kprofile-dkms.ko "$KP_ROOT/testing/host/dkms.sh" >"$work/dkms.log" 2>&1 ||
	{ tail -n 20 "$work/dkms.log"; kp_die "dkms build failed"; }
root=$("$KP_ROOT/testing/installvm/rootfs.sh")

# The disk: the cached root, the payload in /kp, the kernel's module
# lists (depmod needs them; the initrd brings the drivers to mount root).
img=$work/root
"${sudo[@]}" cp -a "$root" "$img"
"${sudo[@]}" mkdir -p "$img/kp/src/build" "$img/lib/modules/$rel"
"${sudo[@]}" cp /lib/modules/"$rel"/modules.order /lib/modules/"$rel"/modules.builtin* \
	"$img/lib/modules/$rel/"
(cd "$KP_ROOT" && "${sudo[@]}" cp -rL Makefile install.mk dkms.mk VERSION udev modules-load.d \
	completions man "$img/kp/src/")
"${sudo[@]}" mkdir -p "$img/kp/src/tools/python"
"${sudo[@]}" cp -rL "$KP_ROOT/tools/python/kprofile" "$img/kp/src/tools/python/"
"${sudo[@]}" cp -r "$KP_BUILD/man" "$img/kp/src/build/"
"${sudo[@]}" cp -L "$KP_BUILD/kprofile.ko" "$img/kp/kprofile.ko"
"${sudo[@]}" cp "$work/kprofile-dkms.ko" "$img/kp/kprofile-dkms.ko"
"${sudo[@]}" cp "$KP_BUILD/tool/kprofile" "$progs/spin" "$KP_ROOT/testing/installvm/stage.sh" "$img/kp/"
"${sudo[@]}" tee "$img/etc/systemd/system/kp-stage.service" >/dev/null <<'UNIT'
[Unit]
Description=kprofile install test stage (testing/installvm)
After=systemd-modules-load.service systemd-udev-settle.service systemd-user-sessions.service
Wants=systemd-udev-settle.service

[Service]
Type=oneshot
ExecStart=/bin/sh /kp/stage.sh
StandardOutput=file:/dev/ttyS1
StandardError=file:/dev/ttyS1

[Install]
WantedBy=multi-user.target
UNIT
"${sudo[@]}" ln -sf /etc/systemd/system/kp-stage.service \
	"$img/etc/systemd/system/multi-user.target.wants/kp-stage.service"
"${sudo[@]}" mkfs.ext4 -q -F -L root -d "$img" "$work/disk.img" 1536M
"${sudo[@]}" rm -rf "$img"

boot() {
	local n=$1
	# thread=single: see testing/vm/boot.sh (stale TCG translations).
	: >"$work/ttyS1-$n.log"
	timeout --foreground -k 10 "${KP_INSTALLVM_TIMEOUT:-900}" qemu-system-x86_64 \
		-accel tcg,thread=single -m 1G -smp 2,sockets=2,cores=1 -cpu Skylake-Client-v4 \
		-nographic -no-reboot -monitor none \
		-serial "file:$work/console-$n.log" -serial "file:$work/ttyS1-$n.log" \
		-drive "file=$work/disk.img,format=raw,if=virtio" \
		-kernel "/boot/vmlinuz-$rel" -initrd "/boot/initrd.img-$rel" \
		-append "root=/dev/vda rw console=ttyS0 panic=-1 no_timer_check systemd.show_status=0" \
		</dev/null >"$work/qemu-$n.log" 2>&1
	local rc=$?
	sed -i 's/\r$//' "$work/ttyS1-$n.log"
	return $rc
}

start=$(date +%s)
boot 1 || true
if ! grep -q '^install-rc=0$' "$work/ttyS1-1.log"; then
	sed 's/^/  | /' "$work/ttyS1-1.log" | tail -n 40
	tail -n 20 "$work/console-1.log" | sed 's/^/  console | /'
	echo "FAIL: installvm: boot 1 did not install (logs: $work)"
	echo "passed=0 failed=1 skipped=0"
	exit 1
fi
boot 2 || true
tap=$work/ttyS1-2.log
cat "$tap"
kp_scan_console "$work/console-2.log" >/dev/null || echo "FAIL: installvm: kernel report on the console (logs: $work)"
python3 "$KP_ROOT/testing/lib/tap.py" --name installvm "$tap" | tail -n 1
echo "# installvm: $(($(date +%s) - start)) s for the two boots (logs: $work)" >&2
grep -q '^boot2-done failed=0$' "$tap"
