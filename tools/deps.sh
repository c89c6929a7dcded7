#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Install the Debian packages fatprealloc needs to build and test, if any
# is missing.  Runs apt-get as root, or through sudo for other users.
# Usage: tools/deps.sh [--hosts] [--deb]
#   --hosts: also what tools/hosts.sh builds with: clang, and the i686
#   cross compiler with the i386 libraries (this adds the i386
#   architecture to dpkg first, so the one apt-get update below fetches
#   its package lists too)
#   --deb: also what tools/deb.sh builds and checks the package with
set -e
hosts=
deb=
for opt in "$@"; do
	case $opt in
	--hosts) hosts=yes ;;
	--deb) deb=yes ;;
	*)
		echo "usage: tools/deps.sh [--hosts] [--deb]" >&2
		exit 16
		;;
	esac
done
if [ "$(id -u)" = 0 ]; then
	sudo=
else
	sudo=sudo
fi
# A|B: either will do (busybox-static and busybox conflict); the first is
# installed when neither is.  user-mode-linux and busybox are for
# tests/img/kernel*.test (the Linux vfat driver as a reader).  7zip,
# fatcat, sleuthkit and grub-common are the readers of
# tests/img/readers.test; fatresize and genimage (with busybox mkdosfs and
# mtools' mformat) the formatters of tests/img/formatters.test; syslinux
# is for tests/img/syslinux.test; bmap-tools for tests/img/flash.test (a
# flash that skips holes); genimage, systemd (systemd-repart), e2fsprogs
# and u-boot-tools for the recipes 5 to 9 of docs/RECIPES.md; xorriso
# makes the hybrid ISO of tests/img/partitions.test.
pkgs="autoconf automake make gcc pkg-config libpopt-dev check dosfstools
mtools fdisk python3 groff-base man-db jq util-linux strace syslinux
valgrind user-mode-linux busybox-static|busybox
7zip fatcat sleuthkit grub-common fatresize genimage bmap-tools
systemd e2fsprogs u-boot-tools xorriso"
# --hosts: clang; the i686 cross compiler; the i386 libc (libc6:i386 has
# the /lib/ld-linux.so.2 that runs the i686 binaries here), popt and
# check (check:i386 brings libsubunit-dev:i386).  dpkg-query and apt-get
# take the :i386 names as they are.
if [ -n "$hosts" ]; then
	pkgs="$pkgs clang gcc-i686-linux-gnu libc6-dev:i386 libpopt-dev:i386
check:i386"
	dpkg --print-foreign-architectures | grep -qx i386 ||
		$sudo dpkg --add-architecture i386
fi
if [ -n "$deb" ]; then
	pkgs="$pkgs dpkg-dev debhelper lintian"
fi
missing=
for alts in $pkgs; do
	have=
	for p in $(echo "$alts" | tr '|' ' '); do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' && have=$p
	done
	[ -n "$have" ] || missing="$missing ${alts%%|*}"
done
[ -z "$missing" ] && exit 0
echo "installing:$missing"
$sudo apt-get update
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y $missing
