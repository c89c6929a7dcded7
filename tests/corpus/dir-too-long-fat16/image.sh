# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The fatprealloc authors
# a directory of 65 clusters of 32 KiB, room for 66,560 entries: more
# than the 65,536 the FAT specification allows.  Linux reads them all
# (and lists a file at entry 65,540), fatprealloc reads the first 65,536,
# fsck.fat says nothing
mkimg "$IMG" 16 163840 -s 64
run mmd -i "$IMG" ::BIG
c_n=$(c_first "$IMG" ::BIG)
c_eoc=$(c_eoc "$IMG")
for c_next in $(seq 100 163); do
	c_setfat "$IMG" "$c_n" "$c_next"
	c_n=$c_next
done
c_setfat "$IMG" "$c_n" "$c_eoc"
# the new clusters as data (zeros: free entries), not holes
dd if=/dev/zero of="$IMG" bs=32768 seek=$(($(c_clus_off "$IMG" 100) / 32768)) \
	count=64 conv=notrunc status=none
