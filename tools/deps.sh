#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Install the Debian packages fatprealloc needs to build and test, if any
# is missing.  Runs apt-get as root, or through sudo for other users.
# Usage: tools/deps.sh [--hosts] [--deb]
#   --hosts: also what tools/hosts.sh builds with: clang, the i686 and
#   s390x cross compilers, the i386 libraries, musl-tools and
#   qemu-user-static.  This changes the machine's apt setup, with
#   --hosts only: it adds the i386 and s390x architectures to dpkg and,
#   when no deb-src line is there yet, deb-src copies of the Debian
#   sources (/etc/apt/sources.list.d/fatprealloc-src.sources, or .list
#   beside a one-line sources.list; for the popt and check sources that
#   the musl host builds), before the one apt-get update below, which
#   then fetches their lists too
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
# tests/img/readers.test (7zip, fatcat, sleuthkit, busybox and mtools'
# mformat those of tests/img/list.test too); fatresize and genimage (with busybox mkdosfs and
# mtools' mformat) the formatters of tests/img/formatters.test;
# fatresize and parted read the geometry in tests/img/mkfs-parted.test; syslinux
# is for tests/img/syslinux.test; bmap-tools for tests/img/flash.test (a
# flash that skips holes); genimage, systemd (systemd-repart), e2fsprogs
# and u-boot-tools for the recipes 5 to 9 of docs/RECIPES.md; xorriso
# makes the hybrid ISO of tests/img/partitions.test.
pkgs="autoconf automake make gcc pkg-config libpopt-dev check dosfstools
mtools fdisk python3 groff-base man-db jq util-linux strace syslinux
valgrind user-mode-linux busybox-static|busybox
7zip fatcat sleuthkit grub-common fatresize parted genimage bmap-tools
systemd e2fsprogs u-boot-tools xorriso"
# --hosts: clang; the i686 cross compiler; the i386 libc (libc6:i386 has
# the /lib/ld-linux.so.2 that runs the i686 binaries here), popt and
# check (check:i386 brings libsubunit-dev:i386); the s390x cross
# compiler (with its own libc in /usr/s390x-linux-gnu) and
# qemu-user-static, which runs its binaries; musl-gcc (musl-tools).
# dpkg-query and apt-get take the :i386 names as they are.  popt and
# check of s390x are not installed: bookworm-security (LTS) has no s390x,
# so the s390x linux-libc-dev and libssl3 lag behind the machine's and
# Multi-Arch: same refuses them; tools/hosts.sh takes the two with
# apt-get download instead, which needs the s390x lists, hence the
# architecture.
update=
if [ -n "$hosts" ]; then
	pkgs="$pkgs clang gcc-i686-linux-gnu libc6-dev:i386 libpopt-dev:i386
check:i386 gcc-s390x-linux-gnu qemu-user-static musl-tools"
	for arch in i386 s390x; do
		dpkg --print-foreign-architectures | grep -qx $arch ||
			$sudo dpkg --add-architecture $arch
	done
	# deb-src: the machine's Debian sources again, for apt-get source.
	src=/etc/apt/sources.list.d/fatprealloc-src
	if ! grep -Eqs '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list \
		/etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources
	then
		if [ -f /etc/apt/sources.list.d/debian.sources ]; then
			sed 's/^Types:.*/Types: deb-src/' \
				/etc/apt/sources.list.d/debian.sources |
				$sudo tee $src.sources >/dev/null
		else
			grep -s '^deb ' /etc/apt/sources.list |
				sed 's/^deb /deb-src /' |
				$sudo tee $src.list >/dev/null
		fi
		update=yes
	fi
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
[ -z "$missing$update" ] && exit 0
$sudo apt-get update
[ -z "$missing" ] && exit 0
echo "installing:$missing"
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y $missing
