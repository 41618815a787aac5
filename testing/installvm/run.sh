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
# Prints the second boot's TAP, its failures and "passed=N failed=M
# skipped=K" last (the format of testing/check.sh's layers; make check
# runs it as its installvm layer).  Costs: testing/notes/installvm.md.
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
sed 's/^/  tap | /' "$tap"
# The results (FAIL lines with their diagnostics, as make check shows
# them), one more failure for a kernel report on either console or a
# boot 2 that did not finish, and the counts last.
bad=0
for n in 1 2; do
	if ! kp_scan_console "$work/console-$n.log" 2>"$work/scan-$n.txt"; then
		echo "FAIL: installvm: kernel report on boot $n's console (logs: $work)"
		sed 's/^/  | /' "$work/scan-$n.txt" | head -n 20
		bad=$((bad + 1))
	fi
done
grep -q '^boot2-done failed=' "$tap" ||
	{ echo "FAIL: installvm: boot 2 did not finish (logs: $work)"; bad=$((bad + 1)); }
out=$(python3 "$KP_ROOT/testing/lib/tap.py" -q --require-top-plan --name installvm "$tap" || true)
printf '%s\n' "$out" | grep -v '^passed=' || true
printf '%s\n' "$out" | sed -n 's/^passed=\([0-9]*\) failed=\([0-9]*\) skipped=\([0-9]*\)$/\1 \2 \3/p' |
	{ read -r p f s; echo "passed=${p:-0} failed=$((${f:-1} + bad)) skipped=${s:-0}"; }
echo "# installvm: $(($(date +%s) - start)) s for the two boots (logs: $work)" >&2
[ "$bad" = 0 ] && grep -q '^boot2-done failed=0$' "$tap"
