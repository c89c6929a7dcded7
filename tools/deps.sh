#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Install the Debian packages fatprealloc needs to build and test, if any
# is missing.  Runs apt-get as root, or through sudo for other users.
set -e
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
if [ "$(id -u)" = 0 ]; then
	sudo=
else
	sudo=sudo
fi
echo "installing:$missing"
$sudo apt-get update
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y $missing
