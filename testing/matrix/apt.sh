#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A private apt for other Debian suites (the kernel matrix), never touching
# the machine's /etc/apt: its sources list, package lists and downloaded
# .debs live under $KPROFILE_CACHE/apt.  The mirror is the one the machine's
# own apt sources use (never written into the repository).  What may be
# downloaded is pinned, by version and sha256, in testing/matrix/pins.
#
# Usage:
#   apt.sh update               refresh the private package lists
#   apt.sh fetch PACKAGE...     download pinned packages (cached, sha256
#                               checked); prints each .deb's path
#   apt.sh pin SUITE PACKAGE [VERSION]
#                               print a pins line for PACKAGE (its newest
#                               version, or VERSION) to put in
#                               testing/matrix/pins
#   apt.sh source PACKAGE VERSION DSC_SHA256 DIR
#                               download a source package of the machine's
#                               own release (bookworm: deb-src lines for it,
#                               its -updates and -security, in a second
#                               private configuration, $KPROFILE_CACHE/apt-src)
#                               into DIR, refusing a .dsc whose sha256
#                               differs (its other files are checked
#                               against the .dsc); prints the .dsc's path
#   apt.sh mirror [security]    print the mirror URI in use (the security
#                               archive's)
#   apt.sh apt-get|apt-cache ARGS...   run apt with the private config
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${KPROFILE_CACHE:-/var/cache/kprofile}
dir=$cache/apt
pins=$here/pins
suites=(bullseye bookworm-backports trixie sid)
# apt.sh source: the machine's own release, whose source packages it fetches.
src_release=bookworm
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

log() { echo "apt.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# mirror [security]: the first Debian archive URI of the machine's apt
# sources (deb822 or one-line format), not the security archive; with
# "security", the first security archive URI (.../debian-security).
mirror() {
	local uri want=-v path='/debian/?$' what="Debian archive"
	if [ "${1:-}" = security ]; then
		want='' path='/debian-security/?$' what="Debian security archive"
	fi
	# shellcheck disable=SC2086
	uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n' |
		grep $want -- '-security' | grep -E "$path" | head -n1 || true)
	if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
		# shellcheck disable=SC2086
		uri=$(grep -E '^deb[[:space:]]' /etc/apt/sources.list |
			grep $want -- '-security' | sed -E 's/^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?//' |
			awk '{print $1}' | grep -E "$path" | head -n1 || true)
	fi
	[ -n "$uri" ] || die "no $what URI in /etc/apt/sources.list{,.d}"
	echo "${uri%/}"
}

setup() {
	local m s
	m=$(mirror)
	mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/debs"
	if [ "$dir" = "$cache/apt-src" ]; then
		# The source configuration (apt.sh source): the machine's release.
		for s in "$src_release" "$src_release-updates"; do
			echo "deb-src [signed-by=$keyring] $m $s main"
		done
		echo "deb-src [signed-by=$keyring] $(mirror security) $src_release-security main"
	else
		for s in "${suites[@]}"; do
			echo "deb [signed-by=$keyring] $m $s main"
		done
	fi >"$dir/sources.list.new"
	mv "$dir/sources.list.new" "$dir/sources.list"
}

aptopts() {
	echo -o Dir::Etc::SourceList="$dir/sources.list" \
		-o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$dir/lists" \
		-o Dir::State::Status=/dev/null \
		-o Dir::Cache::Archives="$dir/archives" \
		-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= \
		-o APT::Architecture=amd64 -o APT::Get::List-Cleanup=false
}

papt() {
	local tool=$1
	shift
	setup
	# shellcheck disable=SC2046
	"$tool" $(aptopts) "$@"
}

# One update per hour at most (the lists are the private copy's).
update() {
	setup
	exec 8>"$dir/update.lock"
	flock 8
	if [ -n "$(find "$dir/lists" -maxdepth 1 -name '*Packages*' -mmin -60 2>/dev/null)" ] &&
		[ "${1:-}" != --force ]; then
		return 0
	fi
	log "updating the private package lists ($(awk '{print $1, $4}' "$dir/sources.list" | tr '\n' ' '))"
	# shellcheck disable=SC2046
	apt-get $(aptopts) -q update >&2
}

# pin_of PACKAGE: "suite version sha256" from the pins file.
pin_of() {
	awk -v p="$1" '$1 == p { print $2, $3, $4; found = 1 } END { exit !found }' "$pins" ||
		die "$1 is not pinned in $pins"
}

fetch_one() {
	local pkg=$1 suite ver sha deb got
	read -r suite ver sha < <(pin_of "$pkg")
	deb=$dir/debs/${pkg}_${ver}_$sha.deb
	if [ -f "$deb" ]; then
		echo "$deb"
		return 0
	fi
	update
	rm -rf "$dir/dl" && mkdir -p "$dir/dl"
	# shellcheck disable=SC2046
	(cd "$dir/dl" && apt-get $(aptopts) -q download "$pkg=$ver" >&2) ||
		die "cannot download $pkg=$ver ($suite): the archive may have moved on; 'apt.sh pin $suite $pkg' prints the new pin"
	got=$(sha256sum "$dir"/dl/*.deb | awk '{print $1}')
	[ "$got" = "$sha" ] ||
		die "$pkg=$ver: sha256 $got, pinned $sha (refusing it)"
	mv "$dir"/dl/*.deb "$deb"
	echo "$deb"
}

# source PACKAGE VERSION DSC_SHA256 DIR: the source package in DIR (once;
# the download checked), its .dsc's path printed.
source_pkg() {
	local pkg=$1 ver=$2 sha=$3 out=$4 dsc got
	dsc=$out/${pkg}_${ver#*:}.dsc
	if [ -f "$dsc" ] && [ "$(sha256sum <"$dsc" | cut -d' ' -f1)" = "$sha" ]; then
		echo "$dsc"
		return 0
	fi
	dir=$cache/apt-src
	mkdir -p "$out"
	exec 7>"$out/.fetch.lock"
	flock 7
	update
	rm -rf "$out/dl" && mkdir -p "$out/dl"
	# shellcheck disable=SC2046
	(cd "$out/dl" && apt-get $(aptopts) -q source --download-only "$pkg=$ver" >&2) ||
		die "cannot download the source of $pkg=$ver ($src_release, -updates, -security): the archive may have moved on"
	got=$(sha256sum <"$out/dl/${dsc##*/}" | cut -d' ' -f1)
	[ "$got" = "$sha" ] || die "$pkg=$ver: .dsc sha256 $got, pinned $sha (refusing it)"
	# apt checked every file against the Sources index; the .dsc, pinned,
	# names them with their sizes and hashes, which dpkg-source -x checks.
	mv "$out"/dl/* "$out/"
	rmdir "$out/dl"
	echo "$dsc"
}

cmd=${1:-}
shift || true
case $cmd in
update) update --force ;;
fetch)
	[ $# -gt 0 ] || die "usage: apt.sh fetch PACKAGE..."
	# Cached packages need no lock (a .deb appears whole, by mv); the
	# first download takes it, so a long fetch does not hold up others'.
	for p in "$@"; do
		read -r suite ver sha < <(pin_of "$p")
		if [ ! -f "$dir/debs/${p}_${ver}_$sha.deb" ] && [ -z "${locked:-}" ]; then
			exec 7>"$cache/apt-fetch.lock" 2>/dev/null || { mkdir -p "$cache"; exec 7>"$cache/apt-fetch.lock"; }
			flock 7
			locked=1
		fi
		fetch_one "$p"
	done
	;;
pin)
	[ $# = 2 ] || [ $# = 3 ] || die "usage: apt.sh pin SUITE PACKAGE [VERSION]"
	update
	# shellcheck disable=SC2046
	apt-cache $(aptopts) show "$2" | awk -v s="$1" -v p="$2" -v want="${3:-}" '
		/^Version:/ { v = $2 } /^SHA256:/ { h = $2 }
		/^$/ { if (v != "" && (want == "" || v == want) && !(v in seen)) { print p, s, v, h; seen[v] = 1 }
		       v = h = "" }' |
		head -n1
	;;
source)
	[ $# = 4 ] || die "usage: apt.sh source PACKAGE VERSION DSC_SHA256 DIR"
	source_pkg "$@"
	;;
mirror) mirror "$@" ;;
apt-get | apt-cache) papt "$cmd" "$@" ;;
*) die "usage: apt.sh update|fetch PACKAGE...|pin SUITE PACKAGE|source PKG VER SHA256 DIR|mirror [security]|apt-get ARGS|apt-cache ARGS" ;;
esac
