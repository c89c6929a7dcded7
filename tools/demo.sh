#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# Install what is missing, build, and preallocate files in a demo SD-card
# image (MBR, one FAT32 partition at 1 MiB), then show the result with
# mtools and check it with fsck.fat.
# With FATPREALLOC set (tools/deb.sh sets /usr/bin/fatprealloc), run that
# binary instead, in a temporary directory, and neither install nor build.
set -e
# mkfs.fat, sfdisk and fsck.fat are in /usr/sbin, which a user's PATH
# lacks on Debian.
PATH=$PATH:/usr/sbin:/sbin
export PATH
top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "$FATPREALLOC" ]; then
	fp=$FATPREALLOC
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
else
	sh "$top/tools/deps.sh"
	sh "$top/tools/build.sh" build >/dev/null
	fp="$top/build/src/fatprealloc"
	work="$top/build"
fi
img="$work/demo-sdcard.img"
part="$work/demo-part.img"
export MTOOLS_SKIP_CHECK=1 SOURCE_DATE_EPOCH=1700000000

rm -f "$img"
truncate -s 128M "$img"
printf 'label: dos\n2048,,c\n' | sfdisk -q "$img"
mkfs.fat -F 32 --invariant --offset 2048 -n DEMO "$img" $((127 * 1024)) \
	>/dev/null
echo "$ fatprealloc -v -p -c demo-sdcard.img ::/data/log.bin 32M" \
	"::/swapfile 16M"
"$fp" -v -p -c "$img" ::/data/log.bin 32M ::/swapfile 16M
echo
mdir -i "$img@@1M" ::/data
mshowfat -i "$img@@1M" ::/data/log.bin ::/swapfile
dd if="$img" of="$part" bs=1M skip=1 status=none
fsck.fat -n "$part"
rm -f "$part"
