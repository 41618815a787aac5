#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian 12 root file system `make installvm` boots: debootstrap
# bookworm (minbase) with systemd as init, systemd-udevd, kmod, make, the
# tool's shared libraries, python3 (the binding) and man-db (man pages by
# name), and a user `alice`; no getty, no compiler, no kernel headers.
# testing/installvm/run.sh adds the payload and the unit that runs it.
# Cached in $KPROFILE_CACHE/installvm-rootfs-KEY (the key hashes this
# recipe); prints the root's path.  The mirror is the machine's
# (testing/matrix/apt.sh).  About 250 MB and 2-4 minutes, once.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
cache=${KPROFILE_CACHE:-/var/cache/kprofile}
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)

include=systemd-sysv,udev,kmod,make,passwd,libfmt9,libelf1,libdw1,libprotobuf32,libncurses6,libisal2,libtinfo6,zlib1g,libstdc++6,python3,man-db
key=installvm-rootfs-$(printf '%s\n' bookworm "$include" minbase kp-stage-v1 | sha256sum | cut -c1-12)
dir=$cache/$key
mkdir -p "$cache"
exec 9>"$cache/$key.lock"
flock 9
if [ -f "$dir/.complete" ]; then
	echo "$dir/root"
	exit 0
fi
command -v debootstrap >/dev/null || kp_die "no debootstrap (run testing/deps.sh)"
kp_log "making the Debian 12 root in $dir (once; a few minutes)"
"${sudo[@]}" rm -rf "$dir"
mkdir -p "$dir"
"${sudo[@]}" debootstrap --variant=minbase --include="$include" \
	--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
	bookworm "$dir/root" "$("$KP_ROOT/testing/matrix/apt.sh" mirror)" >"$dir/debootstrap.log" 2>&1 ||
	{ tail -n 20 "$dir/debootstrap.log" >&2; kp_die "debootstrap failed (log: $dir/debootstrap.log)"; }
r=$dir/root
"${sudo[@]}" rm -rf "$r/var/cache/apt/archives/"*.deb "$r/var/lib/apt/lists/"*
"${sudo[@]}" chroot "$r" sh -e -c '
	echo kp-installvm >/etc/hostname
	echo "/dev/vda / ext4 rw,errors=remount-ro 0 1" >/etc/fstab
	useradd --create-home --shell /bin/sh alice
	passwd -d root >/dev/null
	systemctl mask getty@tty1.service serial-getty@ttyS0.service \
		systemd-timesyncd.service apt-daily.timer apt-daily-upgrade.timer \
		e2scrub_reap.service >/dev/null 2>&1 || true
'
touch "$dir/.complete"
echo "$r"
