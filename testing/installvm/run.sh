#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make installvm: kprofile installed like a real module and tool, on a real
# Debian 12 system.  A root file system from debootstrap (rootfs.sh,
# cached) with systemd as init and systemd-udevd, booted twice in QEMU
# (TCG) with Debian's kernel and initrd from /boot:
#   boot 1  make install, run in a copy of this tree whose module (for
#           Debian's kernel), tool and man pages were built here, as
#           `make` leaves them (the guest has no compiler and no kernel
#           headers: make finds them up to date); alice joins group
#           kprofile, power off;
#   boot 2  the same disk: the module loaded at boot, /dev/kprofile
#           root:kprofile 0660, alice records ./prog without sudo,
#           imports kprofile (no PYTHONPATH) and reads man
#           kprofile-record (no MANPATH), a user outside the group is
#           refused, make uninstall undoes it all, and the module make
#           dkms-install installed (testing/host/dkms.sh) loads.
# Prints the second boot's results as one flat TAP stream (testing/lib/
# tap.py --tap), with a failure more for a kernel report or a boot that
# did not finish; make check runs it as its installvm layer.  Costs: testing/notes/installvm.md.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)

rel=$(kp_debian_release)
work=$KP_BUILD/installvm
"${sudo[@]}" rm -rf "$work"
mkdir -p "$work"
log=$work/build.log

# What boot 1's make install installs, built on the host for Debian's
# kernel: what make install would build (install-prereqs), so that the
# copy below finds it up to date.
make -s -C "$KP_ROOT" install-prereqs KDIR="/usr/src/linux-headers-$rel" >"$log" 2>&1 ||
	{ tail -n 20 "$log"; kp_die "make install-prereqs failed"; }
progs=$(kp_build_progs)
# The module as make dkms-install installs it (dkms.conf, signed with a
# MOK; cached).
KP_DKMS_KO_OUT=$work/kprofile-dkms.ko "$KP_ROOT/testing/host/dkms.sh" >"$work/dkms.log" 2>&1 ||
	{ tail -n 20 "$work/dkms.log"; kp_die "testing/host/dkms.sh failed"; }
root=$("$KP_ROOT/testing/installvm/rootfs.sh")

# The disk: the cached root, the payload in /kp, the kernel's module
# lists (depmod needs them; the initrd brings the drivers to mount root).
img=$work/root
"${sudo[@]}" cp -a "$root" "$img"
"${sudo[@]}" mkdir -p "$img/kp/src/build/tool" "$img/lib/modules/$rel"
"${sudo[@]}" cp /lib/modules/"$rel"/modules.order /lib/modules/"$rel"/modules.builtin* \
	"$img/lib/modules/$rel/"
# The tree as a checkout has it (the files git knows, as they are now),
# mtimes kept, and the build's outputs that make install takes: the
# module (the file, not build/'s symlink into the kbuild copy), the tool
# and the man pages.
if git -C "$KP_ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$KP_ROOT" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf -)
else
	tar -C "$KP_ROOT" --exclude=./build --exclude=./.git -cf - .
fi | "${sudo[@]}" tar -xf - -C "$img/kp/src"
"${sudo[@]}" cp -L --preserve=timestamps "$KP_BUILD/kprofile.ko" "$img/kp/src/build/kprofile.ko"
"${sudo[@]}" cp --preserve=timestamps "$KP_BUILD/tool/kprofile" "$img/kp/src/build/tool/kprofile"
"${sudo[@]}" cp -r --preserve=timestamps "$KP_BUILD/man" "$img/kp/src/build/"
"${sudo[@]}" cp "$work/kprofile-dkms.ko" "$img/kp/kprofile-dkms.ko"
"${sudo[@]}" cp "$progs/spin" "$KP_ROOT/testing/installvm/stage.sh" "$img/kp/"
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

# boot N: boot the disk with Debian's kernel and initrd (the rig's one
# launcher, testing/vm/boot.sh: its machine, serial ports and timeout);
# the stage's output (ttyS1) lands in $work/boot-N/output.log, the
# kernel console in $work/boot-N/console.log.
boot() {
	"$KP_ROOT/testing/vm/boot.sh" --kernel "/boot/vmlinuz-$rel" --initrd "/boot/initrd.img-$rel" \
		--disk "$work/disk.img" --logs "$work/boot-$1" --cpu intel \
		--timeout "${KP_INSTALLVM_TIMEOUT:-900}" --append "root=/dev/vda rw systemd.show_status=0"
}

start=$(date +%s)
boot 1 >"$work/boot-1.err" 2>&1 || true
if ! grep -q '^install-rc=0$' "$work/boot-1/output.log"; then
	{
		tail -n 40 "$work/boot-1/output.log"
		tail -n 20 "$work/boot-1/console.log" | sed 's/^/console | /'
	} | sed 's/^/# /'
	printf '1..1\nnot ok 1 - boot 1 did not install (logs: %s)\n' "$work"
	exit 1
fi
boot 2 >"$work/boot-2.err" 2>&1 || true
tap=$work/boot-2/output.log
# The results (TAP), one more failure for a kernel report on either
# console or a boot 2 that did not finish.
why=()
for n in 1 2; do
	kp_scan_console "$work/boot-$n/console.log" 2>"$work/scan-$n.txt" ||
		why+=(--fail "kernel report on boot $n's console (logs: $work)
$(head -n 20 "$work/scan-$n.txt")")
done
grep -qx '# boot 2 done' "$tap" || why+=(--fail "boot 2 did not finish (logs: $work)")
echo "# installvm: $(($(date +%s) - start)) s for the two boots (logs: $work)"
python3 "$KP_ROOT/testing/lib/tap.py" --tap --require-top-plan "${why[@]}" "$tap"
